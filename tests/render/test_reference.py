"""Pictures compared with checked-in references, with a tolerance for font rendering.

To accept new pictures after a deliberate change of the look, run
`RENDER_UPDATE_REFERENCES=1 python -m pytest tests/render/test_reference.py` and review the
changed files in tests/render/reference/ before committing them.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from engine.st1.position import parse_position
from render import render_board
from render.gallery import (
    ST1_TACTICS_MIDGAME,
    chart_pictures,
    file_name,
    st1_tactics_midgame,
    standings_pictures,
)
from render.theme import DEFAULT_THEME
from tests.render.helpers import gallery, image, rendered, similar

REFERENCE = Path(__file__).parent / "reference"
NAMES = [
    "st1-tactics-midgame-board",
    "st1-tactics-expert-wild-claims-board",
    "st1-end-three-adjacent-board",
    "st1-tactics-midgame-hand",
    "st2-siege-midgame-board",
    "st2-tactical-damaged-gate-board",
    "st2-tactical-attacker-hand",
]


# French and German pictures whose words all come from the render catalog (and the caller's
# sample words in render/gallery.py), so that they change only with this catalog.
LOCALISED = [
    ("chart-rating", "fr"),
    ("chart-chances", "de"),
    ("standings-swiss", "fr"),
    ("standings-swiss", "de"),
    ("standings-round-robin", "de"),
]


@pytest.mark.parametrize(("name", "locale"), LOCALISED, ids=lambda v: v)
def test_translated_picture_matches_reference(name, locale):
    path = REFERENCE / file_name(name, locale)
    draw = {**chart_pictures(), **standings_pictures()}[name]
    data = draw(DEFAULT_THEME, locale)
    if os.environ.get("RENDER_UPDATE_REFERENCES"):
        path.write_bytes(data)
    ok, why = similar(image(data), image(path.read_bytes()))
    assert ok, f"{name} in {locale} differs from {path.name}: {why}"


@pytest.mark.parametrize("name", NAMES)
def test_picture_matches_reference(name):
    path = REFERENCE / f"{name}.png"
    data = rendered(name)
    if os.environ.get("RENDER_UPDATE_REFERENCES"):
        path.write_bytes(data)
    ok, why = similar(image(data), image(path.read_bytes()))
    assert ok, f"{name} differs from {path.name}: {why}"


@pytest.mark.parametrize("locale", ["fr", "de"])
@pytest.mark.parametrize("name", NAMES)
def test_board_or_hand_in_a_language_matches_reference(name, locale):
    # Boards and hands draw the engine's words too (formations, tactic cards, the last
    # move), so these references change with the engine and render catalogs.
    path = REFERENCE / file_name(name, locale)
    data = gallery()[name].render(DEFAULT_THEME, locale)
    if os.environ.get("RENDER_UPDATE_REFERENCES"):
        path.write_bytes(data)
    ok, why = similar(image(data), image(path.read_bytes()))
    assert ok, f"{name} in {locale} differs from {path.name}: {why}"
    english = image(rendered(name))
    assert not similar(image(data), english)[0], f"{name} in {locale} is drawn in English"


def test_comparison_catches_one_changed_card():
    # The tolerance must not hide a real change: the same board with R7 played on stone 4
    # instead of stone 3.
    game = parse_position(ST1_TACTICS_MIDGAME)
    game.play("R7 4")
    other = render_board(game.view(None), names=("Aurélie", "Bartholomew"))
    ok, _ = similar(image(other), image((REFERENCE / "st1-tactics-midgame-board.png").read_bytes()))
    assert not ok


def test_comparison_catches_a_changed_value():
    view = st1_tactics_midgame().view(None)
    stones = list(view.stones)
    # Stone 6: R9 shown as R8 (a hand-edited view: only the number on one card changes).
    from engine.cards import Card

    stone = stones[5]
    stones[5] = dataclasses.replace(stone, sides=((Card.parse("R8"),), stone.sides[1]))
    changed = render_board(
        dataclasses.replace(view, stones=tuple(stones)), names=("Aurélie", "Bartholomew")
    )
    ok, _ = similar(image(changed), image(rendered("st1-tactics-midgame-board")))
    assert not ok
