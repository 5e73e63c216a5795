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
