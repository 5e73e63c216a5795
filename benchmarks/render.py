"""Picture figures: milliseconds to render the mid-game gallery boards and a hand, and the
board's size. Sprites and fonts are warmed first (one render), as in a running bot."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from benchmarks.timing import figure, median_seconds
from engine.st1.position import parse_position
from render import render_board, render_hand
from render.gallery import NAMES, ST1_TACTICS_MIDGAME, st1_tactics_midgame, st2_siege_midgame

RUNS = 15


def _ms(fn: Callable[[], bytes]) -> float:
    fn()  # warm the sprite caches and this thread's fonts
    return median_seconds(fn, runs=RUNS) * 1000


def run() -> Iterator[str]:
    board = st1_tactics_midgame().view(None)
    siege = st2_siege_midgame().view(None)
    hand = parse_position(ST1_TACTICS_MIDGAME).view(0)
    # English first (the figures without a suffix), then the same pictures in French and
    # German, whose longer words must not make a picture slower to draw.
    for locale in ("en", "fr", "de"):
        end = "" if locale == "en" else f"_{locale}"
        yield figure(
            f"render_board_ms{end}",
            _ms(lambda loc=locale: render_board(board, names=NAMES, locale=loc)),
            "ms",
        )
        if locale == "en":
            size = len(render_board(board, names=NAMES)) / 1024
            yield figure("render_board_kb", size, "KB")
        yield figure(
            f"render_siege_ms{end}",
            _ms(lambda loc=locale: render_board(siege, names=NAMES, locale=loc)),
            "ms",
        )
        yield figure(
            f"render_hand_ms{end}",
            _ms(lambda loc=locale: render_hand(hand, name=NAMES[0], locale=loc)),
            "ms",
        )
