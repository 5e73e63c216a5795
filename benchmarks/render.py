"""Picture figures: milliseconds to render the mid-game gallery boards and a hand, and the
board's size. Sprites and fonts are warmed first (one render), as in a running bot.

A board's compressed rows are kept by what they show (render/board.py, render/bands.py), so
drawing the same board twice costs nothing: `render_board_ms`, `render_siege_ms` and
`render_hand_ms` are timed with nothing kept (a board drawn whole, as a game's first).
`render_board_after_move_ms`: the board after a move, what a running game pays, with the
rows of the position before it kept (the Tactics board after "R7 3", one stone changed);
`render_turn_after_board_ms`: then the player's turn picture (their hand under the same
board, whose rows the channel's board has just written).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from benchmarks.timing import figure, median_seconds
from engine.st1.position import parse_position
from render import bands, board, render_board, render_hand, render_turn
from render.gallery import NAMES, ST1_TACTICS_MIDGAME, st1_tactics_midgame, st2_siege_midgame

RUNS = 15


def _forget() -> None:
    """Nothing kept from a board drawn before."""
    board.kept.clear()
    bands.kept.clear()


def _ms(fn: Callable[[], bytes], before: Callable[[], object] = _forget) -> float:
    """The median of RUNS timed calls of `fn`, each after `before` (untimed)."""
    fn()  # warm the sprite caches and this thread's fonts
    return median_seconds(fn, runs=RUNS, before=before) * 1000


def run() -> Iterator[str]:
    board_view = st1_tactics_midgame().view(None)
    siege = st2_siege_midgame().view(None)
    hand = parse_position(ST1_TACTICS_MIDGAME).view(0)
    # English first (the figures without a suffix), then the same pictures in French and
    # German, whose longer words must not make a picture slower to draw.
    for locale in ("en", "fr", "de"):
        end = "" if locale == "en" else f"_{locale}"
        yield figure(
            f"render_board_ms{end}",
            _ms(lambda loc=locale: render_board(board_view, names=NAMES, locale=loc)),
            "ms",
        )
        if locale == "en":
            size = len(render_board(board_view, names=NAMES)) / 1024
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
    before_move = parse_position(ST1_TACTICS_MIDGAME).view(None)

    def position_before() -> None:
        _forget()
        render_board(before_move, names=NAMES)

    yield figure(
        "render_board_after_move_ms",
        _ms(lambda: render_board(board_view, names=NAMES), position_before),
        "ms",
    )
    player = st1_tactics_midgame().view(0)

    def channel_board() -> None:
        _forget()
        render_board(board_view, names=NAMES)

    yield figure(
        "render_turn_after_board_ms",
        _ms(lambda: render_turn(player, names=NAMES, name=NAMES[0]), channel_board),
        "ms",
    )
