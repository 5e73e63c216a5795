"""Boards and hands of positions reached by random play, in every variant and phase."""

from __future__ import annotations

import random

import pytest

from engine.api import VARIANTS, MatchSpec, new_match
from render import render_board, render_hand
from tests.render.helpers import image


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_game_renders_at_every_stage(variant):
    rng = random.Random(variant)
    match = new_match(MatchSpec(variant), seed=rng.randrange(1000))
    shown = 0
    sizes = set()
    while not match.is_over:
        moves = match.legal_moves()
        move = rng.choice(list(moves))
        match.apply(move, match.to_decide)
        if rng.random() < 0.08 or match.is_over:
            board = image(render_board(match.view(None), names=("Ann", "Bo")))
            sizes.add(board.width)
            seat = match.to_decide if match.to_decide is not None else 0
            render_hand(match.view(seat), name="Ann")
            shown += 1
    assert shown >= 3
    assert len(sizes) == 1  # the board never changes width during a game
