"""The board of either game as a picture, and its rows compressed once per position: the
channel's board and the player's turn picture (the same board with their hand under it) are
written from the same compressed rows (render/png.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Sequence

from PIL import Image

from engine.st1.view import View as St1View
from engine.st2.view import View as St2View
from lang import current
from render import png, st1_board, st2_board, text
from render.bands import Bands, strips
from render.kept import Kept
from render.palette import palette
from render.theme import Theme

AnyView = St1View | St2View
# Boards kept compressed: a turn's pictures are drawn within moments of each other.
kept: Kept[tuple[png.Strip, ...]] = Kept(64)


def check(view: object) -> AnyView:
    if not isinstance(view, St1View | St2View):
        raise TypeError(
            f"render needs an engine view (match.view(seat)), not {type(view).__name__}"
        )
    return view


def left_seat(view: AnyView, bottom_seat: int | None) -> int:
    """The seat drawn nearest the reader: `bottom_seat`, else the viewer (Schotten Totten;
    seat 0 for a spectator), or the Attacker (Schotten Totten 2, whoever asks)."""
    if bottom_seat is not None:
        return bottom_seat
    if isinstance(view, St2View):
        return view.attacker
    return view.viewer if view.viewer is not None else 0


def board_image(
    view: AnyView,
    names: Sequence[str],
    theme: Theme,
    bottom_seat: int | None,
    bands: Bands | None = None,
) -> Image.Image:
    view = check(view)
    if len(names) != 2:
        raise ValueError("names: the display names of seat 0 and seat 1")
    pair = (str(names[0]), str(names[1]))
    if bottom_seat not in (None, 0, 1):
        raise ValueError("bottom_seat: 0, 1 or None")
    left = left_seat(view, bottom_seat)
    if view.game == "st1" and isinstance(view, St1View):
        return st1_board.render(view, pair, theme, left, bands=bands)
    if view.game == "st2" and isinstance(view, St2View):
        return st2_board.render(view, pair, theme, left, bands=bands)
    raise TypeError(f"no board for a {type(view).__name__} of game {view.game!r}")


def _shown(view: AnyView) -> AnyView:
    """What a board draws of `view`: all but what only its viewer's hand holds. A player's
    view and a spectator's give the same key when the board shows the same; when the last
    move was a private one the player sees, they differ (tests/render/test_board_rows.py)."""
    private: dict[str, object] = {"viewer": None, "hand": None, "legal_moves": ()}
    if isinstance(view, St1View):
        private["recruited"] = ()
    # Each field named above takes None or an empty tuple; replace() cannot see by name.
    return dataclasses.replace(view, **private)  # type: ignore[arg-type]


def board_strips(
    view: AnyView, names: Sequence[str], theme: Theme, bottom_seat: int | None
) -> tuple[png.Strip, ...]:
    """The board's rows, in the theme's palette, compressed; in the current language. Kept
    for the next call that would draw the same board, its stones' or tiles' rows kept on
    their own (render/bands.py); except while text is being recorded (render/text.py), as
    the sprite caches are."""
    view = check(view)
    if text.is_recording():
        return (png.strip(board_image(view, names, theme, bottom_seat), palette(theme)),)
    key: Hashable = (
        _shown(view),
        tuple(str(n) for n in names),
        theme,
        left_seat(view, bottom_seat),
        current(),
    )
    try:
        rows = kept.get(key)
    except TypeError:  # a view holding something unhashable: drawn, not kept
        return _drawn(view, names, theme, bottom_seat)
    if rows is None:
        rows = _drawn(view, names, theme, bottom_seat)
        kept.put(key, rows)
    return rows


def _drawn(
    view: AnyView, names: Sequence[str], theme: Theme, bottom_seat: int | None
) -> tuple[png.Strip, ...]:
    bands = Bands(palette(theme))
    picture = board_image(view, names, theme, bottom_seat, bands)
    return tuple(strips(picture, bands))
