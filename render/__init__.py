"""Pictures of the games: pure functions of an engine view, returning PNG bytes.

    render_board(view, names=("Alice", "Bob"))   # the table, as everyone may see it
    render_board(view, names=..., bottom_seat=1) # the same, from seat 1's side
    render_hand(view, name="Alice")              # the viewer's own hand, for a DM
    render_turn(view, names=..., name="Alice")   # the board and that hand, in one picture
    render_board(view, names=..., locale="fr")   # in French (a Discord locale works too)

Nothing here keeps state between calls, touches Discord or a database, or sees more than the
view holds; calls are safe from several threads at once (see cards.py and text.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.st1.view import View as St1View
from engine.st2.view import View as St2View
from lang import speaking
from render import hand, png, turn
from render.board import board_strips, check
from render.palette import palette
from render.theme import DEFAULT_THEME, Theme

__all__ = ["DEFAULT_THEME", "Theme", "render_board", "render_hand", "render_turn"]

AnyView = St1View | St2View


def render_board(
    view: AnyView,
    *,
    names: Sequence[str],
    theme: Theme = DEFAULT_THEME,
    bottom_seat: int | None = None,
    locale: str | None = None,
) -> bytes:
    """The board as PNG bytes. `names` are the display names of seat 0 and seat 1.
    `bottom_seat` is the seat whose side is drawn nearest the reader (its cards on the
    left of each row); by default the viewer's, or seat 0 (Schotten Totten) or the Attacker
    (Schotten Totten 2) for a spectator. `locale`: the language of its words, our code
    ("en", "fr", "de") or a Discord locale; English by default."""
    with speaking(locale):
        return png.assemble(board_strips(view, names, theme, bottom_seat))


def render_hand(
    view: AnyView,
    *,
    name: str | None = None,
    theme: Theme = DEFAULT_THEME,
    locale: str | None = None,
) -> bytes:
    """The viewer's hand as PNG bytes. The view must be a seat's (`match.view(seat)`).
    `locale`: as for `render_board`."""
    with speaking(locale):
        return png.assemble([png.strip(hand.render(check(view), name, theme), palette(theme))])


def render_turn(
    view: AnyView,
    *,
    names: Sequence[str],
    name: str | None = None,
    theme: Theme = DEFAULT_THEME,
    locale: str | None = None,
) -> bytes:
    """A player's board and hand in one picture, as PNG bytes (their hand's DM): the board
    from their side (as `render_board` with `bottom_seat` theirs: it shows only what the
    board shows), their hand under it at the board's width. The view must be a seat's."""
    view = check(view)
    if view.viewer is None:
        raise ValueError("a turn needs a player's view (match.view(seat)), not a spectator's")
    with speaking(locale):
        board = board_strips(view, names, theme, view.viewer)
        width, colours = board[0].width, palette(theme)
        under = [turn.gap(theme, width), hand.render(view, name, theme, width)]
        return png.assemble([*board, *(png.strip(part, colours) for part in under)])
