"""The engine's words are Phrases: English as before, translatable by `lang.localise`.

Checks that refusals and event descriptions keep their English text, carry their message id
to the catalogs, say the card codes unchanged in French and German, speak to the mover in the
second person with `describe(names, you=seat)`, and that every event kind and every reason a
game ends has a French and a German translation (no fallback, counted in `MISSES`).
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator

import pytest

import lang
from engine.api import MatchSpec, game_name, new_match, variant_name
from engine.cards import Card, Tactic, TacticCard
from engine.errors import GameError, IllegalMoveError, InvalidMoveError
from engine.events import CardDrawn, Event, GameEnded, NothingDrawn, Passed, Resigned
from engine.formations import FormationRules, FormationType
from engine.outcome import Outcome, Termination
from engine.phrases import Phrase
from engine.proof import evaluate
from engine.st1 import events as st1_events
from engine.st1 import tactics as st1_tactics
from engine.st1.game import Game as St1Game
from engine.st1.match import MatchEnded, RoundEnded, RoundResult, RoundStarted
from engine.st2 import events as st2_events
from engine.st2.board import Tile
from engine.st2.game import Game as St2Game
from engine.st2.match import RevengeEnded, SiegeEnded, SiegeResult, decide
from lang.catalogs import MISSES

from .helpers import cards

NAMES = ("Alice", "Bob")
LANGUAGES = ("fr", "de")


def localised(text: str, language: str) -> str:
    """`text` in `language`, failing on any message without a translation."""
    MISSES.clear()
    out = lang.localise(text, language)
    misses = [m for m in MISSES if m[0] == language]
    assert not misses, f"untranslated in {language}: {misses}"
    return out


def refusal(game: object, text: str, player: int = 0) -> GameError:
    with pytest.raises(GameError) as info:
        game.play(text, player)  # type: ignore[attr-defined]
    return info.value


# Refusals ------------------------------------------------------------------------------------


def test_not_in_hand_is_a_phrase_that_keeps_the_card_codes() -> None:
    game = St1Game.new(seed=3)
    held = sorted(game.hands[0], key=lambda c: c.sort_key())
    missing = next(c for c in cards("R1 R2 R3 B1 B2 B3 G1 G2 G3") if c not in held)
    error = refusal(game, f"{missing} 3")
    assert isinstance(error, IllegalMoveError)
    message = error.args[0]
    assert isinstance(message, Phrase)
    assert message.msgid == "{card} is not in your hand; you hold {hand}."
    codes = " ".join(str(c) for c in held)
    assert str(error) == f"{missing} is not in your hand; you hold {codes}."
    french = localised(message, "fr")
    assert french == f"{missing} n'est pas dans votre main ; vous avez {codes}."
    german = localised(message, "de")
    assert german == f"{missing} ist nicht auf deiner Hand; du hast {codes}."
    assert lang.localise(message, "en") == str(error)
    with lang.speaking("fr"):
        assert lang.message_of(error) == french


@pytest.mark.parametrize(
    "game, text",
    [
        (St1Game.new(seed=1), "claim 99"),
        (St1Game.new(seed=1), "R12 3"),
        (St1Game.new(seed=1), "zz9 3"),
        (St1Game.new(seed=1), "claim"),
        (St1Game.new(seed=1), "draw"),
        (St1Game.new(seed=1), "traitor"),
        (St1Game.new(seed=1), "done"),
        (St2Game.new(seed=1), "oil 3"),
        (St2Game.new(seed=1), "control 9"),
        (St2Game.new(seed=1), "R0 9"),
        (St2Game.new(seed=1), "O5 3"),
        (St2Game.new(seed=1), "retreat x"),
    ],
)
def test_refusals_are_translated(game: object, text: str) -> None:
    player = 1 - game.to_decide if text == "oil 3" else game.to_decide  # type: ignore[attr-defined]
    error = refusal(game, text, player)
    message = error.args[0]
    assert isinstance(message, Phrase), text
    for language in LANGUAGES:
        said = localised(message, language)
        assert said and said != str(error), (language, text)


def test_card_value_error_names_the_card() -> None:
    with pytest.raises(InvalidMoveError) as info:
        St1Game.new(seed=2).play("R12 3", 0)
    assert localised(info.value.args[0], "de").startswith("R12 ist keine Karte von Schotten")


def test_claim_refusal_in_french() -> None:
    game = St1Game.new(seed=5)
    hand = [c for c in game.hands[0] if isinstance(c, Card)]
    game.hands[0][:] = hand
    game.play(f"{hand[0]} 1", 0)
    check = game.check_claim(1, 0)
    assert not check.allowed
    assert check.reason == "You need 3 cards on your side of stone 1 to claim it; you have 1."
    assert localised(check.reason, "fr") == (
        "Il vous faut 3 cartes de votre côté de la Borne 1 pour la revendiquer ; vous en avez 1."
    )


def test_spec_and_names() -> None:
    spec = MatchSpec("tactics", rounds=3)
    assert spec.describe() == "Schotten Totten, Tactics, 3 rounds"
    assert localised(spec.describe(), "fr") == "Schotten Totten, variante tactique, 3 manches"
    assert localised(MatchSpec("siege", revenge=True).describe(), "de") == (
        "Schotten Totten 2, Revanche"
    )
    assert MatchSpec("classic").describe() == "Schotten Totten"
    assert variant_name("siege-tactics") == "Schotten Totten 2, Tactical"
    assert game_name("st2") == "Schotten Totten 2"
    for language in LANGUAGES:
        localised(MatchSpec("classic", target=12).describe(), language)


def test_tactic_titles_formations_and_reasons() -> None:
    title = Tactic.SHIELD.title
    assert isinstance(title, Phrase) and title == "Shield-Bearer"
    assert Tactic.SHIELD.value == "shield"
    assert localised(title, "fr") == "Porte-Bouclier"
    assert localised(Tactic.RECRUITER.title, "de") == "Anwerber"
    assert FormationType.SAME_STRENGTH.label(3) == "three of a kind"
    assert localised(FormationType.COLOR_RUN.label(), "fr") == "suite couleur"
    for termination in Termination:
        assert termination.reason == termination.value
        for language in LANGUAGES:
            localised(termination.reason, language)
    for number in range(1, 8):
        for damaged in (False, True):
            tile = Tile(number, damaged=damaged)
            for language in LANGUAGES:
                localised(tile.describe(), language)
    rules = FormationRules(2, frozenset({FormationType.SAME_STRENGTH}))
    assert rules.describe() == "2 cards, same strength and sum"
    assert localised(rules.describe(), "de") == "2 Karten, gleiche Stärke und Summe"


def test_phrases_survive_pickling() -> None:
    error = refusal(St1Game.new(seed=3), "claim 99")
    again = pickle.loads(pickle.dumps(error.args[0]))
    assert isinstance(again, Phrase) and again == error.args[0]
    assert localised(again, "fr") == localised(error.args[0], "fr")


# Events --------------------------------------------------------------------------------------


def _formation(text: str, rules: FormationRules | None = None):  # type: ignore[no-untyped-def]
    return evaluate(cards(text), rules or FormationRules())


def sample_events() -> Iterator[Event]:
    """Every event kind, in its variations."""
    strong, weak = _formation("R1 R2 R3"), _formation("B1 G5 Y9")
    tied = _formation("G1 G2 G3")
    low = FormationRules(4, lower_sum_wins=True)
    joker = TacticCard(Tactic.JOKER)
    for p in (0, 1):
        for deck in ("clan", "tactic", "siege"):
            yield CardDrawn(p, deck)
        yield NothingDrawn(p)
        yield Passed(p, forced=True)
        yield Passed(p, forced=False)
        yield Resigned(p)
        yield Resigned(p, timeout=True)
        yield st1_events.CardPlayed(p, Card.parse("R7"), 3)
        yield st1_events.CardPlayed(p, joker, 3)
        for modes in ((), (Tactic.MUD.title,), (Tactic.MUD.title, Tactic.BLIND.title)):
            for against in (None, weak, tied):
                yield st1_events.StoneClaimed(p, 4, strong, against, modes)  # type: ignore[arg-type]
        yield st1_tactics.ModePlayed(p, TacticCard(Tactic.MUD), 2)
        yield st1_tactics.ModePlayed(p, TacticCard(Tactic.BLIND), 2)
        yield st1_tactics.RecruiterPlayed(p)
        for decks in ((), ("clan",), ("clan", "clan"), ("tactic", "clan"), ("tactic",)):
            yield st1_tactics.CardsReturned(p, decks)
        yield st1_tactics.StrategistPlayed(p, Card.parse("R5"), 3, 7)
        yield st1_tactics.StrategistPlayed(p, joker, 3, None)
        yield st1_tactics.BansheePlayed(p, TacticCard(Tactic.SHIELD), 4)
        yield st1_tactics.TraitorPlayed(p, Card.parse("G5"), 3, 6)
        yield RoundStarted(2, p)
        yield st2_events.CardPlayed(p, Card.parse("R0"), 5)
        yield st2_events.CardPlayed(p, TacticCard(Tactic.SPY), 5)
        yield st2_events.Retreated(p, (2,), (Card.parse("R3"),))
        yield st2_events.Retreated(p, (2, 5), (Card.parse("R3"), joker, Card.parse("B9")))
        for left in (0, 1, 2):
            yield st2_events.OilThrown(p, 4, Card.parse("Y8"), left)
        for against in (None, weak, tied):
            for was_damaged in (False, True):
                yield st2_events.ControlDeclared(p, 3, strong, against, was_damaged, 2)
        yield st2_events.ControlDeclared(p, 4, _formation("R1 B2 Y3 G4", low), None, False, 1)
        for kind, effect, moved, tiles in [
            (Tactic.REDEPLOY, "discard", ("R5",), (3,)),
            (Tactic.REDEPLOY, "move", ("R5",), (3, 6)),
            (Tactic.RECRUIT, "recruit", ("G5",), (3,)),
            (Tactic.DESERT, "desert", ("G5",), (4,)),
            (Tactic.TREASON, "treason", ("G5",), (3, 6)),
            (Tactic.EXPLODE, "explode", ("G5", "R2"), (4,)),
            (Tactic.SUPPORT, "support", ("G5", "R0"), ()),
            (Tactic.EXCHANGE, "exchange", (), ()),
        ]:
            yield st2_events.TacticUsed(
                p, TacticCard(kind), effect, tuple(Card.parse(c) for c in moved), tiles
            )
        yield st2_events.TacticUsed(p, TacticCard(Tactic.RECRUIT), "recruit", (joker,), (3,))
        for count in (1, 3):
            yield st2_events.CardsGiven(p, count)
        siege = SiegeResult(p, Outcome(p, Termination.DECK_EMPTY), 0, 4, 1)
        yield SiegeEnded(1, siege)
        outcome = Outcome(p, Termination.THREE_ADJACENT)
        yield RoundEnded(1, RoundResult(p, outcome, (3, 1), (5, 1)), (5, 1))
        yield MatchEnded(Outcome(p, Termination.FIVE_STONES), (12, 4))
    yield st2_events.ChickenVersusChef(2, (Card.parse("R0"), Card.parse("R11")))
    for counts in ((3, 3), (1, 2)):
        yield st2_events.CardsExchanged(counts)
    yield MatchEnded(Outcome(None, Termination.NO_MOVES), (6, 6))
    for winner in (0, 1, None):
        for termination in Termination:
            for places in ((), (4, 5, 6), (1, 3, 5, 7, 9)):
                yield GameEnded(Outcome(winner, termination), places)
    a = SiegeResult(0, Outcome(0, Termination.DECK_EMPTY), 3, 4, 1)
    for b in (
        SiegeResult(1, Outcome(0, Termination.DECK_EMPTY), 3, 4, 1),
        SiegeResult(1, Outcome(1, Termination.FOURTH_TILE_DAMAGED), 5, 2, 0),
        SiegeResult(1, Outcome(1, Termination.FOURTH_TILE_DAMAGED), 3, 2, 0),
        SiegeResult(1, Outcome(1, Termination.DEFENDER_CANNOT_PLAY), 3, 4, 1),
    ):
        winner, how = decide([a, b])
        yield RevengeEnded(Outcome(winner, Termination.DECK_EMPTY), how)
    c = SiegeResult(1, Outcome(0, Termination.DEFENDER_CANNOT_PLAY), 3, 5, 2)
    for d in (c, SiegeResult(0, Outcome(1, Termination.DECK_EMPTY), 3, 4, 3)):
        winner, how = decide([SiegeResult(0, Outcome(1, Termination.DECK_EMPTY), 3, 5, 2), d])
        yield RevengeEnded(Outcome(winner, Termination.DECK_EMPTY), how)


def played_events(seed: int) -> Iterator[Event]:
    """Events of random games of both games (tactics included)."""
    rng = random.Random(seed)
    for spec in (MatchSpec("tactics-expert", rounds=2), MatchSpec("siege-tactics", revenge=True)):
        match = new_match(spec, seed)
        for _ in range(400):
            if match.is_over:
                break
            moves = match.legal_moves()
            yield from match.apply(rng.choice(moves), match.to_decide)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_event_kind_is_translated(language: str) -> None:
    events = [*sample_events(), *played_events(7)]
    assert len({type(e) for e in events}) == 26  # every event class of both games
    for event in events:
        for you in (None, 0, 1):
            english = event.describe(NAMES, you=you)
            assert isinstance(english, Phrase), event
            said = localised(english, language)
            assert said != english or event.kind == "GameEnded", (event, said)
            for name in NAMES:
                if name in english:
                    assert name in said, (event, said)


def test_describe_without_you_is_unchanged() -> None:
    for event in sample_events():
        assert event.describe(NAMES) == event.describe(NAMES, you=None)


def test_second_person_english() -> None:
    r7 = Card.parse("R7")
    assert st1_events.CardPlayed(0, r7, 3).describe(NAMES, you=0) == "You played R7 on stone 3."
    assert st1_events.CardPlayed(0, r7, 3).describe(NAMES, you=1) == "Alice played R7 on stone 3."
    assert CardDrawn(1, "tactic").describe(NAMES, you=1) == "You drew a tactic card."
    assert Passed(0, forced=False).describe(NAMES, you=0) == "You pass."
    assert Passed(0, forced=True).describe(NAMES, you=0) == "You cannot play a card and pass."
    assert Passed(0, forced=True).describe(NAMES, you=1) == ("Alice cannot play a card and passes.")
    tied = _formation("G1 G2 G3")
    claim = st1_events.StoneClaimed(0, 4, _formation("R1 R2 R3"), tied)
    assert claim.describe(NAMES) == (
        "Alice claimed stone 4 with a colour run R1 R2 R3 (6) against a colour run G1 G2 G3 (6):"
        " a tie, won by Alice, who completed their side first."
    )
    assert claim.describe(NAMES, you=0) == (
        "You claimed stone 4 with a colour run R1 R2 R3 (6) against a colour run G1 G2 G3 (6):"
        " a tie, won by you: you completed first."
    )
    traitor = st1_tactics.TraitorPlayed(1, Card.parse("G5"), 3, 6)
    assert traitor.describe(NAMES, you=1) == (
        "You played the Traitor: took Alice's G5 from stone 3 onto your side of stone 6."
    )
    assert traitor.describe(NAMES) == (
        "Bob played the Traitor: took Alice's G5 from stone 3 onto Bob's side of stone 6."
    )
    treason = st2_events.TacticUsed(
        0, TacticCard(Tactic.TREASON), "treason", (Card.parse("G5"),), (3, 6)
    )
    assert treason.describe(NAMES) == (
        "Alice played Treason: took Bob's G5 from tile 3 onto Alice's side of tile 6."
    )
    assert treason.describe(NAMES, you=0) == (
        "You played Treason: took Bob's G5 from tile 3 onto your side of tile 6."
    )
    assert localised(treason.describe(NAMES, you=0), "fr") == (
        "Vous avez joué la carte Traîtrise : la carte G5 jouée par Bob passe de la tuile 3 à votre"
        " côté de la tuile 6."
    )
    joker = st1_events.CardPlayed(1, TacticCard(Tactic.JOKER), 2)
    assert joker.describe(NAMES) == "Bob played the Joker on stone 2."
    assert localised(joker.describe(NAMES), "de") == ("Bob hat den Joker an Grenzstein 2 gespielt.")
    ended = GameEnded(Outcome(0, Termination.FIVE_STONES), (1, 3, 5, 7, 9))
    assert ended.describe(NAMES, you=0) == ended.describe(NAMES)
    assert localised(ended.describe(NAMES), "fr") == (
        "Alice gagne la partie avec cinq Bornes : 1, 3, 5, 7, 9 !"
    )


@pytest.mark.parametrize(
    ("event", "english", "french", "german"),
    [
        (
            st1_tactics.RecruiterPlayed(0),
            "You played the Recruiter: you draw three cards, then put two back.",
            "Vous avez joué le Chasseur de Tête : vous piochez",
            "Du hast den Anwerber gespielt: Du ziehst",
        ),
        (
            st1_tactics.StrategistPlayed(0, Card.parse("G5"), 3, 6),
            "You played the Strategist: moved your G5 from stone 3 to stone 6.",
            "Vous avez joué le Stratège : votre G5",
            "Du hast den Strategen gespielt und deine Karte G5",
        ),
        (
            st2_events.TacticUsed(
                0, TacticCard(Tactic.REDEPLOY), "move", (Card.parse("G5"),), (3, 6)
            ),
            "You played Redeployment: moved your G5 from tile 3 to tile 6.",
            "Vous avez joué la carte Redéploiement : votre carte G5",
            "Du hast die Karte Umgruppierung gespielt und deine Karte G5",
        ),
        (
            st2_events.OilThrown(1, 4, Card.parse("R5"), 0),
            "You poured boiling oil on tile 4: R5 is discarded (no cauldron left).",
            "(plus aucun Chaudron)",
            "(kein Ölkessel mehr)",
        ),
    ],
)
def test_private_lines_speak_to_their_player(event, english, french, german):
    """The actor's own view of their move is in the second person, in every language (the
    opponent's view names them)."""
    you = event.player
    mine = event.describe(NAMES, you=you)
    assert mine == english
    assert " they " not in mine and " their " not in mine
    assert french in localised(mine, "fr")
    assert german in localised(mine, "de")
    theirs = event.describe(NAMES, you=1 - you)
    assert theirs.startswith(NAMES[you])


def test_formations_take_their_article_in_each_language():
    claim = st1_events.StoneClaimed(0, 4, _formation("R1 R2 R3"), _formation("G2 Y4 B8"))
    assert claim.describe(NAMES) == (
        "Alice claimed stone 4 with a colour run R1 R2 R3 (6) against a sum G2 Y4 B8 (14)."
    )
    assert localised(claim.describe(NAMES), "fr") == (
        "Alice a revendiqué la Borne 4 avec une suite couleur R1 R2 R3 (6) contre une somme"
        " G2 Y4 B8 (14)."
    )
    assert localised(claim.describe(NAMES), "de") == (
        "Alice hat Grenzstein 4 mit einem Farblauf R1 R2 R3 (6) gegen eine Summe G2 Y4 B8 (14)"
        " beansprucht."
    )


def test_a_wild_card_in_a_formation_is_named_in_the_readers_language():
    f = evaluate([Card.parse("G8"), Card.parse("G9"), _wild(Tactic.SPY)], FormationRules())
    assert "G7(Spy)" in f.describe()
    assert "G7(Espion)" in localised(f.describe(), "fr")
    assert "G7(Spion)" in localised(f.describe(), "de")


def _wild(kind):
    from engine.cards import ST1_COLORS
    from engine.formations import Wild

    return Wild(TacticCard(kind), ST1_COLORS, (7,))
