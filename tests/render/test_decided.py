"""Pictures show what decided the game (issue 13): the winning stones, a tie won by finishing
first, the Schotten Totten 2 tile that was breached with the cards that took it, seat colours
that no card colour hides, and a side of the table chosen by the caller."""

from __future__ import annotations

import colorsys
import io
import json

import pytest
from PIL import Image

from engine.st2.game import Game as St2Game
from engine.st2.position import parse_position as st2_position
from render import render_board, text
from render.gallery import NAMES, st1_tactics_midgame
from render.st1_board import _decided
from render.theme import DEFAULT_THEME as T
from tests.render.helpers import gallery


def recorded(name: str) -> list[str]:
    with text.recording() as lines:
        gallery()[name].render()
    return [ln.text for ln in lines]


def test_three_adjacent_stones_that_won_are_found():
    view = gallery()["st1-end-three-adjacent-board"].view
    assert _decided(view) == frozenset({1, 2, 3})
    assert _decided(st1_tactics_midgame().view(None)) == frozenset()  # not over


def test_a_tie_won_by_finishing_first_is_marked_on_the_stone():
    view = gallery()["st1-end-three-adjacent-board"].view
    stone = view.stones[2]
    assert stone.won_with is not None and stone.lost_against is not None
    assert stone.won_with.key == stone.lost_against.key  # a tie...
    # (wrapped on the stone: the lines are read together)
    assert "tie: completed first" in " ".join(recorded("st1-end-three-adjacent-board"))
    # ...and only there: stones won outright say nothing of the kind.
    assert "tie:" not in " ".join(recorded("st1-tactics-midgame-board"))


def test_a_breached_tile_keeps_the_cards_that_took_it():
    view = gallery()["st2-end-breach-board"].view
    tile = view.tiles[2]
    assert tile.breached and tile.damaged and tile.sides == ((), ())
    assert tile.taken_sides is not None
    assert [str(c) for c in tile.taken_sides[view.attacker]] == ["R9", "R10", "R11"]
    words = recorded("st2-end-breach-board")
    assert "BREACHED" in words and {"9", "10", "11"} <= set(words)
    # A fourth damaged tile is not a breach: it reads DAMAGED, with its cards too.
    end = gallery()["st2-end-attacker-wins-board"].view
    fourth = [t for t in end.tiles if t.taken_sides is not None]
    assert len(fourth) == 1 and fourth[0].damaged and not fourth[0].breached
    assert "BREACHED" not in recorded("st2-end-attacker-wins-board")


def test_the_tile_taken_survives_storage_and_is_not_shown_during_play():
    game = st2_position(
        """
        variant: siege
        attacker: P1
        turn: P1
        hand P1: R7 B5
        hand P2: Y1 Y2
        tile 1: R9 R10 R11 | B0 B1 P2 | first P2
        """
    )
    game.play("control 1")
    assert game.outcome is None and game.last_taken is not None
    # Taken during play: the cards are discarded and the tile shows none of them.
    assert all(t.taken_sides is None for t in game.view(None).tiles)
    again = St2Game.from_json(json.loads(json.dumps(game.to_json())))
    assert again.last_taken == game.last_taken
    assert again.to_json() == game.to_json()


def _hue_gap(a: float, b: float) -> float:
    d = abs(a - b) % 1.0
    return min(d, 1.0 - d) * 360


@pytest.mark.parametrize("seat", [0, 1])
def test_seat_colours_are_not_card_colours(seat):
    # A seat colour is either nearly grey or 30 degrees of hue from every clan colour; the
    # old amber (yellow cards) and light blue (blue cards) fail this.
    def hsv(colour: str) -> tuple[float, float, float]:
        r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
        return colorsys.rgb_to_hsv(r, g, b)

    def apart(colour: str) -> bool:
        h, s, _ = hsv(colour)
        return s < 0.2 or all(_hue_gap(h, hsv(c.fill)[0]) >= 30 for _, c in T.card_colors)

    assert apart(T.seat[seat])
    assert not apart("#EFC75E") and not apart("#8FD0F0")


def test_nothing_is_cut_with_an_ellipsis():
    for name in gallery():
        assert not [w for w in recorded(name) if "…" in w], name


def test_long_names_are_shown_whole():
    words = " ".join(recorded("st2-long-names-board")).replace("\u00a0", " ")
    assert "W" * 32 in words.replace(" ", "") and "Hohenzollern-Eck" in words


def test_the_board_can_be_drawn_from_either_side():
    view = st1_tactics_midgame().view(None)
    left0 = render_board(view, names=NAMES)
    left1 = render_board(view, names=NAMES, bottom_seat=1)
    assert left0 != left1
    assert render_board(view, names=NAMES, bottom_seat=0) == left0
    with text.recording() as lines:
        render_board(view, names=NAMES, bottom_seat=1)
    arrows = [ln.text for ln in lines if "◀" in ln.text]
    assert arrows and "Bartholomew" in arrows[0]
    assert Image.open(io.BytesIO(left1)).width == T.board_width
    with pytest.raises(ValueError):
        render_board(view, names=NAMES, bottom_seat=2)


def test_an_intact_tile_shows_its_damaged_side_and_a_damaged_one_does_not():
    with text.recording() as drawn:  # tile 3 is damaged, the others intact
        gallery()["st2-siege-midgame-board"].render()
    flips = []
    for i, line in enumerate(drawn):
        if line.text.startswith("then "):
            # A line wrapped in its box goes on right under it ("then 2 · same" "strength").
            after = drawn[i + 1] if i + 1 < len(drawn) else None
            rooms = (line.room, after.room if after is not None else None)
            wrapped = None not in rooms and rooms[1][::2] == rooms[0][::2]
            wrapped = wrapped and rooms[1][1] == rooms[0][3]
            flips.append(f"{line.text} {after.text}" if wrapped else line.text)
    assert flips == [
        "then 3 · run",
        "then 2 · same strength",
        "then 4 · lower sum",
        "then 3 · colour",
        "then 2 · same strength",
        "then 3 · run",
    ]
