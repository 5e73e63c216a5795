"""The hand-written position format."""

import pytest

from engine.errors import PositionError
from engine.st1 import Game, Options
from engine.st1.position import format_position, parse_position


def test_format_then_parse_gives_the_same_table():
    g = Game.new(Options(), seed=12)
    for _ in range(20):
        g.apply(g.legal_moves()[-1])
    text = format_position(g)
    again = parse_position(text)
    assert format_position(again) == text
    for key in ("deck", "hands", "turn", "phase", "discard"):
        assert again.to_json()[key] == g.to_json()[key]
    for a, b in zip(again.stones, g.stones, strict=True):
        assert (a.sides, a.claimed_by, a.first_complete()) == (
            b.sides,
            b.claimed_by,
            b.first_complete(),
        )
        # Only the order of completion matters, not the clock readings.
        assert [t is None for t in a.completed_at] == [t is None for t in b.completed_at]


def test_cards_not_written_go_to_the_deck():
    g = parse_position("hand P1: R1\nhand P2: B1\nstone 1: R2 | B2\n")
    assert len(g.deck) == 54 - 4
    assert len({str(c) for c in g.deck}) == 50


def test_deck_top_is_written_first():
    g = parse_position("hand P1: R1\nhand P2: B1\ndeck: O9 O8\n")
    assert [str(c) for c in g.deck[-2:]] == ["O8", "O9"]  # the top card is last internally


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hand P1: R1\nhand P2: R1\n", "two places: R1"),
        ("stone 10: R1 | B1\n", "numbered 1 to 9"),
        ("stone 1: R1 R2 R3 R4 | -\n", "at most 3"),
        ("stone 1: R1 R2 R3 | B1 B2 B3\n", "who completed first"),
        ("stone 1: R1 R2 | - | claimed P1\n", "complete side"),
        ("hand P1: spy\n", "use `variant: tactics`"),
        ("variant: chess\n", "not a Schotten Totten variant"),
        ("turn: P3\n", "players are P1 and P2"),
        ("colour: red\n", "unknown line"),
        ("nonsense\n", "key: value"),
        ("hand P1: R10\n", "values run 1 to 9"),
    ],
)
def test_mistakes_are_explained(text, message):
    with pytest.raises(PositionError, match=message):
        parse_position(text)
