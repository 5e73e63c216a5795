"""Pictures of the games: pure functions of an engine view, returning PNG bytes.

    render_board(view, names=("Alice", "Bob"))   # the table, as everyone may see it
    render_hand(view, name="Alice")              # the viewer's own hand, for a DM

Nothing here keeps state between calls, touches Discord or a database, or sees more than the
view holds; calls are safe from several threads at once (see cards.py and text.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.st1.view import View as St1View
from engine.st2.view import View as St2View
from render import png
from render.theme import DEFAULT_THEME, Theme

__all__ = ["DEFAULT_THEME", "Theme", "render_board", "render_hand"]

AnyView = St1View | St2View


def _check(view: object) -> AnyView:
    if not isinstance(view, St1View | St2View):
        raise TypeError(
            f"render needs an engine view (match.view(seat)), not {type(view).__name__}"
        )
    return view


def render_board(view: AnyView, *, names: Sequence[str], theme: Theme = DEFAULT_THEME) -> bytes:
    """The board as PNG bytes. `names` are the display names of seat 0 and seat 1."""
    view = _check(view)
    if len(names) != 2:
        raise ValueError("names: the display names of seat 0 and seat 1")
    pair = (str(names[0]), str(names[1]))
    if isinstance(view, St1View):
        from render import st1_board

        image = st1_board.render(view, pair, theme)
    else:
        from render import st2_board

        image = st2_board.render(view, pair, theme)
    return png.encode(image)


def render_hand(view: AnyView, *, name: str | None = None, theme: Theme = DEFAULT_THEME) -> bytes:
    """The viewer's hand as PNG bytes. The view must be a seat's (`match.view(seat)`)."""
    from render import hand

    return png.encode(hand.render(_check(view), name, theme))
