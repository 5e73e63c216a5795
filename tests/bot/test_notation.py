"""Move keywords in French and German (bot/notation.py): aliases of the notation."""

import pytest

from bot.notation import KEYWORDS, aliases, canonical, fold, in_language
from engine.api import MatchSpec, new_match
from lang import LANGUAGES, localise


@pytest.mark.parametrize(
    ("typed", "game", "move"),
    [
        ("revendiquer 3", "st1", "claim 3"),
        ("Beanspruchen 3", "st1", "claim 3"),
        ("claim 3", "st1", "claim 3"),
        ("revendiquer 3", "st2", "control 3"),
        ("kontrolle 3", "st2", "control 3"),
        ("RÜCKZUG 2 5", "st2", "retreat 2 5"),
        ("rueckzug 2 5", "st2", "retreat 2 5"),
        ("ruckzug 2 5", "st2", "retreat 2 5"),
        ("stratège B5 3 défausse", "st1", "strategist B5 3 discard"),
        ("R7 sur la borne 3", "st1", "R7 on the stone 3"),
        ("piocher tactique", "st1", "draw tactic"),
        ("ziehen belagerung", "st2", "draw siege"),
        ("passer", "st2", "pass"),
        ("abandonner", "st1", "resign"),
    ],
)
def test_aliases_read_as_the_english_keyword(typed, game, move):
    assert canonical(typed, game) == move


def test_card_codes_and_numbers_are_left_alone():
    assert canonical("R7 3", "st1") == "R7 3"
    assert canonical("joker 4", "st1") == "joker 4"
    assert canonical("G10 7", "st2") == "G10 7"


def test_each_language_word_means_one_keyword_per_game():
    # Two keywords of one game sharing a word would make a member's move ambiguous.
    for game, keywords in KEYWORDS.items():
        for language in LANGUAGES[1:]:
            seen = {}
            for k in keywords:
                word = fold(localise(k, language))
                assert " " not in word and word, (language, k)
                assert seen.setdefault(word, k.msgid) == k.msgid, (game, language, word)
        english = {k.msgid for k in keywords}
        for word, keyword in aliases(game).items():
            # An alias never hides another English keyword of the same game.
            assert word not in english or word == keyword, (game, word)


def test_suggestions_show_the_members_words():
    assert in_language("claim 3", "st1", "fr") == "revendiquer 3"
    assert in_language("claim 3", "st1", "de") == "beanspruchen 3"
    assert in_language("claim 3", "st1", "en") == "claim 3"
    assert in_language("R7 3", "st1", "fr") == "R7 3"


@pytest.mark.parametrize("language", ["fr", "de"])
@pytest.mark.parametrize("variant", ["tactics", "siege-tactics"])
def test_every_legal_move_shown_in_a_language_reads_back(language, variant):
    # What autocomplete shows a member, typed back, is the move it stands for.
    import random

    match = new_match(MatchSpec(variant), seed=3)
    rng = random.Random(1)
    game = "st1" if variant == "tactics" else "st2"
    for _ in range(60):
        if match.is_over:
            break
        legal = match.legal_moves()
        for move in legal:
            text = str(move)
            assert canonical(in_language(text, game, language), game) == text
        match.apply(rng.choice(legal))


@pytest.mark.parametrize(
    ("typed", "game", "move"),
    [
        # French, Schotten Totten
        ("espion 3", "st1", "spy 3"),
        ("Boue 4", "st1", "mud 4"),
        ("combat de boue 4", "st1", "mud 4"),
        ("Colin-Maillard 5", "st1", "blind 5"),
        ("colin 5", "st1", "blind 5"),
        ("bouclier 2", "st1", "shield 2"),
        ("Porte-Bouclier sur la borne 2", "st1", "shield on the stone 2"),
        ("chasseur de tête", "st1", "recruiter"),
        ("TRAÎTRE 1:R1 3", "st1", "traitor 1:R1 3"),
        # German, Schotten Totten
        ("spion 3", "st1", "spy 3"),
        ("Schlamm 4", "st1", "mud 4"),
        ("Schlammschlacht 4", "st1", "mud 4"),
        ("Blinde Kuh 5", "st1", "blind 5"),
        ("schildträger 2", "st1", "shield 2"),
        ("Anwerber", "st1", "recruiter"),
        # French, Schotten Totten 2
        ("espion 3", "st2", "spy 3"),
        ("Porte-Bouclier 2", "st2", "shield 2"),
        ("redéploiement 2:R5 3", "st2", "redeploy 2:R5 3"),
        ("Échange", "st2", "exchange"),
        ("R7 sur la tuile 3", "st2", "R7 on the tile 3"),
        ("R7 sur la muraille 3", "st2", "R7 on the tile 3"),
        # German, Schotten Totten 2
        ("Spion 3", "st2", "spy 3"),
        ("Schild 2", "st2", "shield 2"),
        ("Umgruppierung 2:R5 3", "st2", "redeploy 2:R5 3"),
        ("R7 auf Mauerplättchen 3", "st2", "R7 on tile 3"),
        ("R7 auf plaettchen 3", "st2", "R7 on tile 3"),
        ("führung 4", "st2", "control 4"),
    ],
)
def test_local_tactic_names_read_as_the_card(typed, game, move):
    assert canonical(typed, game) == move


@pytest.mark.parametrize(
    ("variant", "hand", "typed", "played"),
    [
        ("tactics", "spy", "espion 3", "spy 3"),
        ("tactics", "spy", "Spion 3", "spy 3"),
        ("tactics", "mud", "boue 4", "mud 4"),
        ("tactics", "mud", "Schlammschlacht 4", "mud 4"),
        ("siege-tactics", "spy", "espion 3", "spy 3"),
        ("siege-tactics", "shield", "Schildträger 3", "shield 3"),
    ],
)
def test_a_local_tactic_name_plays_the_card(variant, hand, typed, played):
    """Typed in French or German, read by the engine as the card in the hand."""
    game = "st1" if variant == "tactics" else "st2"
    for seed in range(200):  # a deal where the player to move can play that card
        match = new_match(MatchSpec(variant), seed=seed)
        seat = match.view(None).to_decide
        legal = [str(m) for m in match.legal_moves()]
        if played in legal:
            break
        match.game.hands[seat].append(_tactic(hand))
        legal = [str(m) for m in match.legal_moves()]
        if played in legal:
            break
    else:
        pytest.skip("no deal let the card be played")
    move = match.parse_move(canonical(typed, game), seat)
    assert str(move) == played


def _tactic(code):
    from engine.cards import parse_card

    return parse_card(code)


@pytest.mark.parametrize("game", ["st1", "st2"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_word_means_two_things_in_one_game_and_language(game, language):
    """Keywords, their other words, the tactic cards' words and printed names: within one
    game and language, each word reads as one thing only."""
    from bot.notation import _MORE, _words, card_words

    meaning: dict[str, set[str]] = {}
    for keyword in KEYWORDS[game]:
        word = fold(localise(keyword, language)) if language != "en" else keyword.msgid
        meaning.setdefault(word, set()).add(keyword.msgid)
    english = {k.msgid for k in KEYWORDS[game]}
    for keyword, more in _MORE.items():
        if keyword in english and language != "en":
            for word in _words(localise(more, language)):
                meaning.setdefault(word, set()).add(keyword)
    for word, code in card_words(game, language).items():
        meaning.setdefault(word, set()).add(code)
    clashes = {w: m for w, m in meaning.items() if len(m) > 1}
    assert clashes == {}
    # Nor is a card's word an English keyword of another meaning, or a colour word.
    for word, code in card_words(game, language).items():
        assert word not in english or word == code, (word, code)
        assert word not in {"red", "orange", "yellow", "green", "blue", "purple"}


@pytest.mark.parametrize("language", ["fr", "de"])
def test_move_examples_in_the_engines_messages_read_back_as_moves(language):
    """The engine's refusals show example moves in the member's words (`piocher clan`,
    `stratège 3:R5 défausse`): typed as shown, each is a move of one of the games."""
    from engine.api import notation
    from engine.errors import GameError
    from langtools.tools import po_path, read

    examples = []
    for message in read(po_path(language, "engine"), language):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            quoted = (text or "").split("`")[1::2]  # what is between backticks
            examples += [q for q in quoted if "{" not in q]
    local = {"fr": "piocher clan", "de": "ziehen clan"}[language]
    assert local in examples  # the member's words, not `draw clan`
    for example in examples:
        readable = []
        for game in ("st1", "st2"):
            try:
                notation(game, canonical(example, game))
            except GameError:
                continue
            readable.append(game)
        assert readable, (language, example)
