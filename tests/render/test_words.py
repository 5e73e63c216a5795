"""The last move in words, and the places and cards the board marks for it."""

from __future__ import annotations

import pytest

from engine.cards import parse_card
from engine.outcome import Outcome, Termination
from engine.st1.position import parse_position
from render.words import formation_label, hint, last_move, phase_badge, result_text, wild_labels


@pytest.mark.parametrize(
    ("game", "move", "text", "places", "cards", "discarded"),
    [
        ("st1", "R7 3", "played R7 on stone 3", {3}, {(3, 0, "R7")}, set()),
        ("st1", "joker 2", "played the Joker on stone 2", {2}, {(2, 0, "joker")}, set()),
        ("st1", "mud 4", "put Mud Fight on stone 4", {4}, set(), set()),
        ("st1", "claim 4", "claimed stone 4", {4}, set(), set()),
        ("st1", "draw tactic", "drew from the tactic deck", set(), set(), set()),
        # The Traitor puts the card on the mover's side of the target stone.
        (
            "st1",
            "traitor 3:G5 6",
            "used the Traitor: moved G5 from stone 3 to stone 6",
            {6},
            {(6, 0, "G5")},
            set(),
        ),
        ("st1", "banshee 4:G5", "used the Banshee: discarded G5 from stone 4", {4}, set(), {"G5"}),
        ("st1", "return 2 cards", "put 2 cards back under the decks", set(), set(), set()),
        ("st1", "return R3 joker", "put R3 and Joker back under the decks", set(), set(), set()),
        ("st2", "retreat 2 5", "retreated from tiles 2 and 5", {2, 5}, set(), set()),
        ("st2", "oil 4", "threw oil on tile 4", {4}, set(), set()),
        ("st2", "control 4", "took control of tile 4", {4}, set(), set()),
        (
            "st2",
            "recruit G5 3",
            "used Recruitment: G5 from the discard to tile 3",
            {3},
            {(3, 0, "G5")},
            set(),
        ),
        ("st2", "give 3 cards", "gave 3 cards", set(), set(), set()),
        (
            "st2",
            "support G5 R0",
            "used Support: shuffled G5 and R0 back into the decks",
            set(),
            set(),
            set(),
        ),
    ],
)
def test_last_move(game, move, text, places, cards, discarded):
    lm = last_move(game, (0, move))
    assert lm is not None
    assert (lm.line("Ann"), set(lm.places), set(lm.cards), set(lm.discarded)) == (
        f"Last move: Ann {text}",
        places,
        cards,
        discarded,
    )


def test_no_last_move_at_the_start():
    assert last_move("st1", None) is None


def test_claimed_stone_names_formation_and_wild_values():
    game = parse_position(
        """
        variant: tactics
        stone 2: joker G5 G6 | O1 O2 Y9 | claimed P1
        stone 5: R6 R6x | - |
        """.replace("stone 5: R6 R6x | - |\n", "")
    )
    won = game.view(None).stones[1].won_with
    assert formation_label(won) == "colour run 18"
    assert wild_labels(won) == ["Joker = G7"]


def test_short_formation_labels_fit_a_stone():
    game = parse_position("stone 1: R5 G5 B5 | - | claimed P1")
    won = game.view(None).stones[0].won_with
    assert formation_label(won) == "three of a kind 15"
    assert formation_label(won, short=True) == "3 of a kind 15"


def test_results_and_badges():
    assert (
        result_text(Outcome(0, Termination.THREE_ADJACENT), ("Ann", "Bo"))
        == "Ann wins: three adjacent stones"
    )
    assert result_text(Outcome(None, Termination.NO_MOVES), ("Ann", "Bo")).startswith("neither")
    assert phase_badge("claim") == "CLAIMING"
    assert phase_badge("something new") == "TO MOVE"
    assert "10" in hint(parse_card("spy").kind, "st2") and "7" in hint(
        parse_card("spy").kind, "st1"
    )
