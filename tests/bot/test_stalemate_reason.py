"""Issue 39, item 10: a game that ends because neither player can play or claim says which
rule of RULINGS ST1-9 decided it (more stones, or equal stones and the last stone claimed),
in the result line, the board picture's result and the game record, in every language."""

from __future__ import annotations

import json

import pytest

from bot.history import game_result
from engine.events import GameEnded
from engine.outcome import Termination
from engine.st1.position import parse_position
from lang import localise, speaking
from render.words import result_text

from ..engine.st1.test_game import stalemate

NAMES = ("Alice", "Bob")

# The deciding rule's words in each language.
MORE = {"en": "more stones", "fr": "plus de Bornes", "de": "mehr Grenzsteine"}
TIED = {
    "en": "stones equal: last stone claimed",
    "fr": "à égalité de Bornes, la dernière revendiquée décide",
    "de": "bei gleich vielen Grenzsteinen entscheidet der zuletzt beanspruchte",
}

MORE_STONES = """
    turn: P1
    hand P1: -
    hand P2: -
    stone 1: R1 R2 R3 | B1 B2 B3 | claimed P1
    stone 2: R4 R5 R6 | B4 B5 | claimed P1
    stone 5: Y1 Y2 Y4 | G1 G2 G4 | claimed P2
    stone 9: Y5 | O5
    deck: empty
    last claim: P2
"""


def test_more_stones_and_equal_stones_end_the_game_each_with_its_rule():
    more = parse_position(MORE_STONES).outcome
    assert more is not None and more.winner == 0
    assert more.termination is Termination.NO_MOVES_MORE_STONES
    for last, winner in (("P1", 0), ("P2", 1)):
        tied = parse_position(stalemate(last)).outcome
        assert tied is not None and tied.winner == winner
        assert tied.termination is Termination.NO_MOVES_LAST_CLAIM


def record_row(outcome) -> dict[str, object]:
    detail = {"stones": [4, 4], "points": [5, 5], "first_player": 0}
    return {
        "termination": outcome.termination.name,
        "winner": outcome.winner,
        "detail": json.dumps(detail),
    }


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_result_line_board_and_record_say_the_deciding_rule(language):
    tied = parse_position(stalemate("P2")).outcome
    more = parse_position(MORE_STONES).outcome
    with speaking(language):
        for outcome, words in ((tied, TIED), (more, MORE)):
            line = localise(GameEnded(outcome).describe(NAMES))
            board = result_text(outcome, NAMES)
            record = localise(game_result(record_row(outcome), NAMES))
            for text in (line, board, record):
                assert words[language] in text, text
            assert NAMES[outcome.winner] in line and NAMES[outcome.winner] in board
