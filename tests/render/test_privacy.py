"""The renderer gets a view and nothing else: no hidden card can reach a picture."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from engine.api import MatchSpec, new_match
from engine.cards import parse_card
from engine.st1.position import parse_position as st1_position
from engine.st2.position import parse_position as st2_position
from render import render_board, render_hand
from render.gallery import ST1_TACTICS_MIDGAME, st2_siege_midgame

NAMES = ("Ann", "Bo")
RENDER = Path(__file__).parents[2] / "render"
# Where hidden cards live: games, matches and positions. Only the gallery builds positions.
FORBIDDEN = ("engine.st1.game", "engine.st2.game", "engine.st1.match", "engine.st2.match")


@pytest.mark.parametrize("path", sorted(RENDER.glob("*.py")), ids=lambda p: p.name)
def test_render_modules_never_import_a_game(path):
    imported = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    forbidden = FORBIDDEN
    if path.name != "gallery.py":
        forbidden += ("engine.st1.position", "engine.st2.position")
    assert not {m for m in imported if m.startswith(forbidden)}


def test_a_game_or_match_is_refused():
    match = new_match(MatchSpec("classic"), seed=1)
    with pytest.raises(TypeError):
        render_board(match, names=NAMES)
    with pytest.raises(TypeError):
        render_hand(match.game)  # type: ignore[attr-defined]


def test_a_spectator_has_no_hand_to_draw():
    view = new_match(MatchSpec("siege"), seed=1).view(None)
    assert view.hand is None
    with pytest.raises(ValueError, match="spectator"):
        render_hand(view)
    assert render_board(view, names=NAMES)


def test_board_is_the_same_whoever_asks():
    # The board never draws a hand: the spectator's view and a player's give the same picture.
    game = st2_siege_midgame()
    spectator = render_board(game.view(None), names=NAMES)
    assert render_board(game.view(0), names=NAMES) == spectator
    assert render_board(game.view(1), names=NAMES) == spectator
    other = dataclasses.replace(game.view(1), hand=(parse_card("R0"),))
    assert render_board(other, names=NAMES) == spectator


def _two_deals(text, hand_a, hand_b, parse):
    # The same table, with different cards in the opponent's (seat 1's) hidden hand.
    return parse(text.replace("HAND", hand_a)), parse(text.replace("HAND", hand_b))


def test_pictures_do_not_change_with_the_opponents_hidden_cards():
    st1 = ST1_TACTICS_MIDGAME.replace("hand P2: Y1 Y2 Y3 Y4 Y6 B1 B2", "hand P2: HAND")
    a, b = _two_deals(st1, "Y1 Y2 Y3 Y4 Y6 B1 B2", "R4 R5 R6 P9 B9 G9 O9", st1_position)
    assert render_board(a.view(None), names=NAMES) == render_board(b.view(None), names=NAMES)
    assert render_hand(a.view(0), name="Ann") == render_hand(b.view(0), name="Ann")
    st2 = """
    variant: siege
    hand P1: R7 B5 G2 Y11 P1 B6
    hand P2: HAND
    tile 2: G5 G6 | P4
    """
    a, b = _two_deals(st2, "Y1 Y2 Y3 Y4 Y6 B11", "R0 R1 R2 R3 R4 R5", st2_position)
    assert render_board(a.view(None), names=NAMES) == render_board(b.view(None), names=NAMES)
    assert render_hand(a.view(0), name="Ann") == render_hand(b.view(0), name="Ann")
