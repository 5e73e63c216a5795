"""An analysis's board: the position before a move, saying which move it was and marking it
and the better one.

    render_analysis_board(view, names=("Alice", "Bob"), bottom_seat=0, number=25, total=61,
                          played="R1 6", better="banshee 5 G6")

Above the board, a band: "Move 25 of 61", then "✗ Alice played R1 6" and "✓ Better:
banshee 5 G6", each behind the badge that marks that move on the board. On the board the
cards a move would put on the table are drawn faded in their places, the cards it would take
are ringed, and a place it acts on otherwise (a claim, oil) is ringed; each mark carries its
badge, so that nothing depends on telling the two colours apart. The badges sit astride the
top edge of what they mark, above a card's words. When both moves put a card on the same
side of a place, the two cards are alternatives for one place: side by side on one outlined
panel that counts as one slot (the place's other free slots still show beyond it), so the
stone does not seem to get both. Nobody is "to play" on this
picture: the banners carry no badge, and the last move's rings give way to the marks.

The moves are given as they should be shown (the caller writes them in the reader's
language); they are read in canonical notation (`played_move`, `better_move`) to find what
they touch. A move that cannot be read is named but not marked.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.st1.view import View as St1View
from engine.st2.view import View as St2View
from lang import _, speaking
from render import png, st1_board, st2_board, text
from render.frame import PIN_D, Marked, Notes, Pin, pin_disc
from render.theme import DEFAULT_THEME, Theme
from render.words import last_move

__all__ = ["BETTER", "PLAYED", "analysis_lines", "marked", "render_analysis_board"]

AnyView = St1View | St2View

PLAYED = "✗"  # the move made (among the costliest: a mistake by the search's estimate)
BETTER = "✓"  # the search's move
BAND_PAD = 12


def marked(game: str, seat: int, move: str, pin: Pin) -> Marked:
    """What `move` (canonical notation, by `seat`) touches on the board before it."""
    lm = last_move(game, (seat, move))
    if lm is None:
        return Marked(pin)
    values = dict(lm.values)
    taken = {(p, c) for p in lm.places for c in lm.discarded}
    source = values.get("source")
    if isinstance(source, int) and "card" in values:
        taken.add((source, str(values["card"])))
    places = set(lm.places) | ({source} if isinstance(source, int) else set())
    return Marked(pin, frozenset(places), lm.cards, frozenset(taken))


def analysis_lines(number: int, total: int, player: str, played: str, better: str) -> list[str]:
    """The band's three lines, in the current language: the move's number, the move made
    and the better one (drawn behind their badges)."""
    return [
        # TRANSLATORS: above an analysis's board: which move of the game it is before.
        _("Move {number} of {total}").format(number=number, total=total),
        # TRANSLATORS: above an analysis's board; {move} is a move's notation ("R1 6").
        _("{player} played {move}").format(player=player, move=played),
        # TRANSLATORS: above an analysis's board; {move} is the search's move ("banshee 5 G6").
        _("Better: {move}").format(move=better),
    ]


def render_analysis_board(
    view: AnyView,
    *,
    names: Sequence[str],
    bottom_seat: int,
    number: int,
    total: int,
    played: str,
    better: str,
    played_move: str | None = None,
    better_move: str | None = None,
    theme: Theme = DEFAULT_THEME,
    locale: str | None = None,
) -> bytes:
    """The board `view` (before move `number` of `total`, by `bottom_seat`) as PNG bytes,
    with the band naming the move and the better one, and both marked. `played` and
    `better` are shown as given; `played_move` and `better_move` (canonical notation,
    defaulting to them) find what to mark. `locale`: as for `render_board`."""
    if not isinstance(view, St1View | St2View):
        raise TypeError(f"render needs an engine view, not {type(view).__name__}")
    pair = (str(names[0]), str(names[1]))
    with speaking(locale):
        marks = (
            marked(view.game, bottom_seat, played_move or played, Pin(PLAYED, theme.mark_played)),
            marked(view.game, bottom_seat, better_move or better, Pin(BETTER, theme.mark_better)),
        )
        notes = Notes(marks)
        if isinstance(view, St1View):
            board = st1_board.render(view, pair, theme, bottom_seat, notes)
        else:
            board = st2_board.render(view, pair, theme, bottom_seat, notes)
        lines = analysis_lines(number, total, pair[bottom_seat], played, better)
        band = _band(lines, marks, board.width, theme)
    out = Image.new("RGB", (board.width, band.height + board.height), theme.background)
    out.paste(band, (0, 0))
    out.paste(board, (0, band.height))
    return png.encode(out)


def _band(lines: list[str], marks: Sequence[Marked], width: int, theme: Theme) -> Image.Image:
    """The move's number in bold, then each move behind its badge, wrapped, never cut."""
    m = theme.margin
    step = round(theme.label_size * 1.3)
    fb = text.bold(theme, theme.label_size)
    fr = text.regular(theme, theme.label_size)
    x = m + PIN_D + 12
    room_w = width - x - m
    rows = [text.wrap_all(line, fr, room_w, hyphenate=True) for line in lines[1:]]
    h = BAND_PAD * 2 + step + sum(len(r) for r in rows) * step + 4
    img = Image.new("RGB", (width, h), theme.background)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, width - 1, h - 1), outline=theme.frame, width=3)
    y = BAND_PAD
    room = (m, y, width - m, y + step)
    text.draw(d, (m, y + step / 2), lines[0], fb, theme.result, "lm", room=room)
    y += step + 4
    for mark, wrapped in zip(marks, rows, strict=True):
        pin_disc(img, d, theme, (m + 4, y + (step - PIN_D) / 2), mark.pin)
        for row in wrapped:
            room = (x, y, x + room_w, y + step)
            text.draw(d, (x, y + step / 2), row, fr, theme.text, "lm", room=room)
            y += step
    return img
