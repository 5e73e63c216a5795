"""The parts both boards share: the canvas, the header, the players' banners, the rows of
stones or tiles, rings that point at the last move, chips and the footer.

Boards are laid out for a phone (issue 13): `theme.board_width` wide and as tall as they
need, one row per stone or tile, the left player's cards growing leftwards from it and the
right player's rightwards. Everything is drawn top to bottom on a tall canvas that is then
cut to the height used, so that no part has to know the others' heights in advance.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from PIL import Image, ImageDraw
from PIL.ImageFont import FreeTypeFont

from engine.cards import AnyCard, Card, TacticCard
from lang import _, pgettext
from render import text
from render.cards import BOARD, CHIP, card_sprite, chip_width
from render.shapes import hatch, panel, paste
from render.theme import Size, Theme
from render.words import LastMove

Box = tuple[float, float, float, float]
MAX_HEIGHT = 4000  # the canvas drawn on before it is cut to the height used...
# ...after a first try on a canvas this tall, which most boards fit (1,100-1,300 pixels):
# filling and cutting a canvas is a tenth of a board's time, a board taller is drawn again.
FIRST_HEIGHT = 1600
FRAME_WIDTH = 3  # the frame around every picture (`finish`)
ROW_GAP = 8  # half of it above and below a row: room for the rings (bands.py)
# The stone or tile between the two sides, as wide as four cards a side leave it (a tile's
# words wrap less: issue 39, pictures no taller than twice their width).
CENTER_W = 152
SIDE_GAP = 4  # between it and the first card of a side
CAPTION_H = 24
DISCARD_CHIP = Size(50, 34)  # the discard pile's chips


def canvas(w: int, h: int, theme: Theme) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """An opaque picture with the table colour, so that it never blends into Discord's
    background, dark or light (the frame is drawn by `finish`)."""
    img = Image.new("RGB", (w, h), theme.background)
    return img, ImageDraw.Draw(img)


def finish(img: Image.Image, height: int, theme: Theme) -> Image.Image:
    """The picture cut to `height`, with a frame that separates it from a dark chat."""
    out = img.crop((0, 0, img.width, height))
    frame(out, height, theme)
    return out


def frame(img: Image.Image, height: int, theme: Theme) -> None:
    """The frame around the first `height` rows of `img`."""
    ImageDraw.Draw(img).rectangle(
        (0, 0, img.width - 1, height - 1), outline=theme.frame, width=FRAME_WIDTH
    )


def frame_sides(img: Image.Image, theme: Theme) -> None:
    """The frame's left and right edges down the whole of `img` (a band of a picture)."""
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, FRAME_WIDTH - 1, img.height - 1), fill=theme.frame)
    d.rectangle((img.width - FRAME_WIDTH, 0, img.width - 1, img.height - 1), fill=theme.frame)


def tall_enough(
    draw: Callable[[int], tuple[Image.Image, int]], heights: Sequence[int]
) -> tuple[Image.Image, int]:
    """`draw(canvas height)`, which returns the canvas and the height the picture needs,
    on the first of `heights` the picture fits (the last one if none): a canvas most
    pictures fit costs less to fill and cut than one every picture fits."""
    for height in heights:
        img, y = draw(height)
        if y <= img.height:
            break
    return img, y


def block(
    d: ImageDraw.ImageDraw,
    theme: Theme,
    xy: tuple[float, float],
    words: str,
    sizes: tuple[int, ...],
    width: int,
    *,
    strong: bool = False,
    fill: str | None = None,
    anchor: str = "l",
    max_lines: int = 1,
    hyphenate: bool = False,
) -> float:
    """`words` at the largest of `sizes` that fits `max_lines` lines of `width` (more lines
    if it must: never cut), from the top at `xy`, aligned left ("l"), centred ("m") or right
    ("r"). Returns the height used. `hyphenate`: see `text.wrap_all` (not for names)."""
    f, rows = text.lines(words, theme, sizes, width, max_lines, strong=strong, hyphenate=hyphenate)
    step = round(f.size * 1.25)
    x, y = xy
    left = x if anchor == "l" else x - width / 2 if anchor == "m" else x - width
    for row in rows:
        room = (left, y, left + width, y + step)
        text.draw(d, (x, y + step / 2), row, f, fill or theme.text, anchor + "m", room=room)
        y += step
    return len(rows) * step


def header(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    *,
    title: str,
    info: str,
    result: str | None,
) -> int:
    """The title (or the result, large, once the game is over) and a line of match or
    revenge information. Returns the y below it."""
    w = img.width
    m = theme.margin
    y = 10
    if result is not None:
        # On one line if it fits at a smaller size, else on two (fewer lines: issue 39).
        f, rows = text.lines(result, theme, (30, 26, 24, 22), w - 4 * m, 1, strong=True)
        if len(rows) > 1:
            f, rows = text.lines(result, theme, (30, 26, 24), w - 4 * m, 2, strong=True)
        step = round(f.size * 1.3)
        h = len(rows) * step + 16
        paste(img, panel(w - 2 * m, h, 10, theme.result, scale=theme.supersample), (m, y))
        yy = y + 8
        for row in rows:
            room = (2 * m, yy, w - 2 * m, yy + step)
            text.draw(d, (w / 2, yy + step / 2), row, f, theme.text_dark, "mm", room=room)
            yy += step
        y += h + 6
        y += round(
            block(d, theme, (m, y), title, (theme.label_size,), w - 2 * m, fill=theme.text_muted)
        )
    else:
        y += round(
            block(
                d, theme, (m, y), title, (theme.title_size, 26), w - 2 * m, strong=True, max_lines=2
            )
        )
    if info:
        y += round(
            block(
                d,
                theme,
                (m, y),
                info,
                (theme.label_size,),
                w - 2 * m,
                fill=theme.text_muted,
                max_lines=2,
            )
        )
    return y + 8


@dataclass(frozen=True, slots=True)
class Banner:
    """One player's strip: who they are and the public facts about them."""

    name: str
    role: str | None  # "ATTACKER", "DEFENDER" (Schotten Totten 2)
    facts: Sequence[str]  # "2 stones", "7 in hand"
    badge: str | None  # "TO PLAY", "WINNER" (in the reader's language)
    seat_color: str
    active: bool  # the player the game waits for
    cards: Sequence[AnyCard] = ()  # actions played (Schotten Totten 2, Tactical)
    side: str = ""  # "left" or "right": where this player's cards are
    cauldrons: tuple[int, int] | None = None  # (left, of): the Defender's oil
    won: bool = False  # the badge is the winner's (drawn in the result's colour)


def banner(img: Image.Image, d: ImageDraw.ImageDraw, theme: Theme, y: int, b: Banner) -> int:
    """A player's banner across the picture from `y`; returns the y below it. The first line
    holds the seat's colour, the role, the name and the badge; the second the facts, the oil
    cauldrons as icons and the actions played."""
    m = theme.margin
    s = theme.supersample
    w = img.width - 2 * m
    x0 = m + 30
    fb = text.bold(theme, theme.label_size)
    badge_w = round(fb.getlength(b.badge)) + 24 if b.badge else 0
    role_w = round(text.bold(theme, theme.small_size).getlength(b.role)) + 16 if b.role else 0
    name_x = x0 + (role_w + 10 if role_w else 0)
    name_room = m + w - 12 - (badge_w + 10 if badge_w else 0) - name_x
    fn, names = text.lines(b.name, theme, (theme.name_size, 22, 20), name_room, 1, strong=True)
    line1 = max(36, len(names) * round(fn.size * 1.2) + 4)
    facts = "  ·  ".join([*b.facts, *([b.side] if b.side else [])])
    ff = text.regular(theme, theme.label_size)
    extras = _extras(b, theme)
    fact_rows, fact_ys, placed, facts_w, line2 = _facts_and_extras(b, facts, extras, w, theme)
    h = line1 + line2 + 8

    line = theme.highlight if b.active else theme.surface_line
    paste(img, panel(w, h, 10, theme.surface, line, 3 if b.active else 1, s), (m, y))
    # The seat's colour as a bar on the left: the colour of the stones this player claims.
    paste(img, panel(14, h - 14, 4, b.seat_color, scale=s), (m + 8, y + 7))
    cy = y + 6 + line1 / 2
    if b.role is not None:
        fr = text.bold(theme, theme.small_size)
        paste(img, panel(role_w, 28, 6, b.seat_color, scale=s), (x0, cy - 14))
        room = (x0, cy - 14, x0 + role_w, cy + 14)
        text.draw(d, (x0 + role_w / 2, cy), b.role, fr, theme.text_dark, "mm", room=room)
    step = round(fn.size * 1.2)
    ny = cy - (len(names) - 1) * step / 2
    for row in names:
        room = (name_x, ny - step / 2, name_x + name_room, ny + step / 2)
        text.draw(d, (name_x, ny), row, fn, theme.text, "lm", room=room)
        ny += step
    if b.badge is not None:
        bx = m + w - 10 - badge_w
        fill = theme.result if b.won else theme.turn_badge
        paste(img, panel(badge_w, 34, 8, fill, scale=s), (bx, cy - 17))
        room = (bx, cy - 17, bx + badge_w, cy + 17)
        text.draw(d, (bx + badge_w / 2, cy), b.badge, fb, theme.text_dark, "mm", room=room)
    fy = y + 6 + line1
    for row, ry0 in zip(fact_rows, fact_ys, strict=True):
        ry = fy + ry0
        room = (x0, ry - 12.5, x0 + facts_w, ry + 12.5)
        text.draw(d, (x0, ry), row, ff, theme.text_muted, "lm", room=room)
    # The cauldrons, then the actions in the order played; each line of them at the right.
    parts: list[AnyCard | None] = [None] if b.cauldrons is not None else []
    parts += list(b.cards)
    for widths, ey in placed:
        ex: float = m + w - 10 - sum(widths)
        for _width in widths:
            part = parts.pop(0)
            if part is None:
                assert b.cauldrons is not None
                ex = _cauldrons(img, d, theme, (ex, fy + ey), *b.cauldrons)
                continue
            sprite = card_sprite(part, CHIP, theme)
            paste(img, sprite, (ex, fy + ey - sprite.height / 2))
            ex += sprite.width + 6
    return y + h + 8


CAULDRON = 30


def _extras(b: Banner, theme: Theme) -> list[int]:
    """The widths of what follows the facts: the cauldrons (as one), then each action."""
    out = []
    if b.cauldrons is not None:
        fo = text.regular(theme, theme.label_size)
        out.append(round(fo.getlength(_oil())) + 8 + b.cauldrons[1] * (CAULDRON + 4) + 8)
    return out + [chip_width(c, theme) + 6 for c in b.cards]


def _facts_and_extras(
    b: Banner, facts: str, extras: list[int], w: int, theme: Theme
) -> tuple[list[str], list[float], list[tuple[list[int], float]], int, int]:
    """The banner's second part: the facts' lines and the y of each one's middle, the lines
    of cauldrons and actions (their widths) with the y of their middles (from the top of
    the part), the facts' width and the part's height.

    The facts beside the cauldrons and actions, unless a word breaks there or they would be
    taller than on lines of their own (issue 39: beside four actions they were squeezed
    into a column a few letters wide, broken mid-word); then the cauldrons and actions
    follow the facts, on their last line as far as they fit and on lines under it."""
    ff = text.regular(theme, theme.label_size)
    room = w - 42
    chip = theme.chip.h
    beside = text.wrap_all(facts, ff, room - sum(extras), hyphenate=True) if facts else []
    height = max(chip if extras else 0, len(beside) * 25) + 8
    placed = [(extras, (height - 8) / 2)] if extras else []
    lines = [12.0 + 25 * i for i in range(len(beside))]
    if not (extras and facts):
        return beside, lines, placed, room - sum(extras), height
    broken = [t for r in beside for t in r.split()] != facts.split()
    rows = text.wrap_all(facts, ff, room, hyphenate=True)
    space = room - ff.getlength(rows[-1]) - 16
    first: list[int] = []
    while len(first) < len(extras) and sum(first) + extras[len(first)] <= space:
        first.append(extras[len(first)])
    rest = extras[len(first) :]
    under = _extra_rows(rest, room) if rest else []
    top = (len(rows) - 1) * 25 + (chip if first else 25)
    apart_h = top + len(under) * (chip + 6) + 8
    if not broken and apart_h >= height:
        return beside, lines, placed, room - sum(extras), height
    ys = [12.0 + 25 * i for i in range(len(rows) - 1)]
    ys.append((len(rows) - 1) * 25 + (chip / 2 if first else 12))
    apart = [(first, ys[-1])] if first else []
    apart += [(r, top + 6 + chip / 2 + i * (chip + 6)) for i, r in enumerate(under)]
    return rows, ys, apart, room, apart_h


def _extra_rows(widths: list[int], room: int) -> list[list[int]]:
    """`widths` in order, in lines at most `room` wide (a part wider than that alone)."""
    rows: list[list[int]] = [[]]
    for part in widths:
        if rows[-1] and sum(rows[-1]) + part > room:
            rows.append([])
        rows[-1].append(part)
    return rows


def _cauldrons(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    xy: tuple[float, float],
    left: int,
    of: int,
) -> float:
    """ "oil" and one pot per cauldron: full ones in the oil's amber, used ones as empty
    outlines (shape and fill differ, not only colour). Returns the x after them."""
    x, cy = xy
    fo = text.regular(theme, theme.label_size)
    oil = _oil()
    text.draw(d, (x, cy), oil, fo, theme.text_muted, "lm")
    x += round(fo.getlength(oil)) + 8
    for i in range(of):
        paste(img, cauldron_icon(CAULDRON, i < left, theme), (x, cy - CAULDRON / 2))
        x += CAULDRON + 4
    return x + 8


def _oil() -> str:
    # TRANSLATORS: before the Defender's oil cauldrons (icons) on their banner.
    return pgettext("cauldrons", "oil")


def cauldron_icon(size: int, full: bool, theme: Theme) -> Image.Image:
    """A pot with two handles; full: filled with oil, used: an empty grey outline."""
    s = theme.supersample
    big = Image.new("RGBA", (size * s, size * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    S = size * s
    line = theme.oil if full else theme.text_muted
    body = (S * 0.15, S * 0.3, S * 0.85, S * 0.95)
    d.ellipse((S * 0.04, S * 0.34, S * 0.26, S * 0.54), outline=line, width=2 * s)
    d.ellipse((S * 0.74, S * 0.34, S * 0.96, S * 0.54), outline=line, width=2 * s)
    d.rounded_rectangle(body, S * 0.2, fill=theme.oil if full else None, outline=line, width=2 * s)
    d.rectangle((S * 0.08, S * 0.22, S * 0.92, S * 0.32), fill=line)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def faded(sprite: Image.Image, alpha: float = 0.55) -> Image.Image:
    """A copy of `sprite` at `alpha` of its opacity (a card a move would put there)."""
    out = sprite.convert("RGBA")
    out.putalpha(out.getchannel("A").point(lambda a: round(a * alpha)))
    return out


def ring(img: Image.Image, box: Box, color: str, width: int, theme: Theme) -> None:
    """A rounded outline around `box`, `width` pixels thick, leaving a small gap."""
    x0, y0, x1, y1 = box
    pad = width + 1
    w, h = round(x1 - x0) + 2 * pad, round(y1 - y0) + 2 * pad
    paste(
        img,
        panel(w, h, theme.radius + pad, None, color, width, theme.supersample),
        (x0 - pad, y0 - pad),
    )


def chip_rows(
    cards: Sequence[AnyCard], width: int, theme: Theme, *, groups: bool = False
) -> list[list[AnyCard]]:
    """Cards laid out in rows of chips at most `width` wide; with `groups`, a new colour
    starts after a wider gap (the Schotten Totten 2 discard pile, sorted by colour)."""
    rows: list[list[AnyCard]] = [[]]
    x = 0
    prev = None
    for c in cards:
        cw = chip_width(c, theme) + 5
        extra = 10 if groups and prev is not None and _group(prev) != _group(c) else 0
        if rows[-1] and x + extra + cw > width:
            rows.append([])
            x = 0
            extra = 0
        rows[-1].append(c)
        x += extra + cw
        prev = c
    return rows if rows[0] else []


def _group(card: AnyCard) -> str:
    color = getattr(card, "color", None)
    return color.letter if color is not None else "tactic"


def draw_chips(
    img: Image.Image,
    theme: Theme,
    rows: list[list[AnyCard]],
    xy: tuple[int, int],
    *,
    groups: bool = False,
    highlight: frozenset[str] = frozenset(),
) -> list[Box]:
    """Draw chip rows from `xy`; returns the boxes of chips named in `highlight`."""
    x0, y = xy
    marked: list[Box] = []
    for row in rows:
        x = x0
        prev = None
        for c in row:
            if groups and prev is not None and _group(prev) != _group(c):
                x += 10
            sprite = card_sprite(c, CHIP, theme)
            paste(img, sprite, (x, y))
            if str(c) in highlight:
                marked.append((x, y, x + sprite.width, y + sprite.height))
            x += sprite.width + 5
            prev = c
        y += theme.chip.h + 6
    return marked


def footer(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    y: int,
    names: Sequence[str],
    move: tuple[int, str] | None,
    lm: LastMove | None,
    decks: str,
    discard: Sequence[AnyCard] | None,
    *,
    groups: bool = False,
) -> int:
    """The last move (wrapped, never cut), the decks, and the discard pile if shown.
    Returns the y below."""
    m = theme.margin
    width = img.width - 2 * m
    if lm is None or move is None:
        said = _("Last move: none yet")
    else:
        said = lm.line(text.printable(names[move[0]], theme.font_regular))
    fr = text.regular(theme, theme.label_size)
    gap = fr.getlength("  ·  ")
    if fr.getlength(said) + gap + fr.getlength(decks) <= width:
        # The last move and the decks on one line when they fit (a line less: issue 39).
        step = round(theme.label_size * 1.25)
        x = m + fr.getlength(said) + gap
        room = (m, y, m + width, y + step)
        text.draw(d, (m, y + step / 2), said, fr, theme.text, "lm", room=room)
        text.draw(d, (x, y + step / 2), decks, fr, theme.text_muted, "lm", room=room)
        y += step + 8
    else:
        y += round(block(d, theme, (m, y), said, (theme.label_size,), width, max_lines=3)) + 2
        y += (
            round(
                block(
                    d,
                    theme,
                    (m, y),
                    decks,
                    (theme.label_size,),
                    width,
                    fill=theme.text_muted,
                    max_lines=2,
                )
            )
            + 6
        )
    if discard is None:
        return y + m - 6
    # TRANSLATORS: before the chips of the discard pile, under the board.
    label = _("Discard:")
    # Its chips a little smaller than the banners' (more to a line, lines lower: issue 39).
    theme = replace(theme, chip=DISCARD_CHIP)
    text.draw(d, (m, y + theme.chip.h / 2), label, fr, theme.text_muted, "lm")
    x0 = m + round(fr.getlength(label + " ")) + 6
    rows = chip_rows(discard, img.width - m - x0, theme, groups=groups)
    if not rows:
        # TRANSLATORS: after "Discard:", when the discard pile is empty.
        empty = pgettext("discard pile", "empty")
        text.draw(d, (x0, y + theme.chip.h / 2), empty, fr, theme.text_muted, "lm")
        return y + theme.chip.h + m
    marked = draw_chips(
        img, theme, rows, (x0, y), groups=groups, highlight=lm.discarded if lm else frozenset()
    )
    for b in marked[-1:]:
        ring(img, b, theme.highlight, 2, theme)
    return y + len(rows) * (theme.chip.h + 6) + m


def sides_line(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    y: int,
    names: Sequence[str],
    left: int,
    roles: tuple[str, str] = ("", ""),
) -> int:
    """Whose cards are on which side: "◀ Alice" over the left cards and "Bob ▶" over the
    right ones, each with their seat's colour as a bar. Returns the y below."""
    m = theme.margin
    s = theme.supersample
    heights = []
    said = []
    for i, seat in enumerate((left, 1 - left)):
        if roles[i]:
            # TRANSLATORS: over a player's cards: their role and name ("Attacker Alice").
            who = pgettext("sides line", "{role} {player}").format(
                role=roles[i], player=names[seat]
            )
        else:
            who = names[seat]
        # No-break spaces: the arrow stays with the name it points from.
        said.append(f"◀\u00a0{who}" if i == 0 else f"{who}\u00a0▶")
    # Each side as wide as the other leaves it, so that both stay on one line when they can;
    # else one under the other, each across the picture (long names): fewer lines on a board
    # that must stay under twice its width in height (issue 39).
    full = img.width - 2 * m - 2 * 12 - 24
    fb = text.bold(theme, theme.label_size)
    need = [round(fb.getlength(w)) + 1 for w in said]
    stacked = sum(need) > full
    rooms = [full + 24] * 2 if stacked else [full - need[1], full - need[0]]
    top = y
    for i, seat in enumerate((left, 1 - left)):
        words = said[i]
        x = m + 12 if i == 0 else img.width - m - 12
        h = block(
            d,
            theme,
            (x, top),
            words,
            (theme.label_size, theme.small_size),
            rooms[i],
            strong=True,
            anchor="l" if i == 0 else "r",
            max_lines=1,
        )
        bar_x = m if i == 0 else img.width - m - 6
        paste(img, panel(6, round(h), 3, theme.seat[seat], scale=s), (bar_x, top))
        heights.append(top + h - y)
        if stacked:
            top += round(h) + 2
    return y + round(max(heights)) + 6


# ---- annotations: an analysis marks moves on the board -----------------------------------


@dataclass(frozen=True, slots=True)
class Pin:
    """A mark on an annotated board: a ring in `color` with a badge holding `symbol`, so
    that the mark does not depend on telling colours apart."""

    symbol: str
    color: str


@dataclass(frozen=True, slots=True)
class Marked:
    """A move drawn on the board before it: the places it acts on, the cards it would put
    there as (place, seat, card text) and the cards it would take from the table as
    (place, card text)."""

    pin: Pin
    places: frozenset[int] = frozenset()
    put: frozenset[tuple[int, int, str]] = frozenset()
    taken: frozenset[tuple[int, str]] = frozenset()

    def ghosts(self, place: int, seat: int) -> list[str]:
        return sorted(c for p, s, c in self.put if p == place and s == seat)

    def touches_cards(self, place: int) -> bool:
        return any(p == place for p, _s, _c in self.put) or any(p == place for p, _c in self.taken)


@dataclass(frozen=True, slots=True)
class Notes:
    """What an annotated board adds or leaves out: moves marked (`marks`; the last move's
    rings are left out then), and no "to play" badge unless `badges`."""

    marks: tuple[Marked, ...] = ()
    badges: bool = False


def side_pins(
    notes: Notes, place: int, seat: int, cards: Sequence[AnyCard]
) -> tuple[list[str], dict[str, Pin]]:
    """The ghost cards (as text) and the marked cards of `seat`'s side of `place`."""
    ghosts: list[str] = []
    pins: dict[str, Pin] = {}
    here = {str(c) for c in cards}
    for mark in notes.marks:
        for c in mark.ghosts(place, seat):
            if c not in ghosts and c not in here:
                ghosts.append(c)
            pins.setdefault(c, mark.pin)
        for p, c in mark.taken:
            if p == place and c in here:
                pins.setdefault(c, mark.pin)
    return ghosts, pins


def face_pin(notes: Notes, place: int) -> Pin | None:
    """The mark on a place itself: a move that acts on it without putting or taking a card
    there (a claim, oil, a combat mode)."""
    for mark in notes.marks:
        if place in mark.places and not mark.touches_cards(place):
            return mark.pin
    return None


PIN_D = 26  # a mark's badge: a disc this wide (beside the lines above an analysis)
# On the board, smaller and over the top edge of what it marks: a card's words start 11
# pixels below its top (a tactic card's name), so the badge ends at 10 and covers none of
# them; its top stands in the 8-pixel gap between rows.
PIN_BOARD_D = 22
PIN_INTO = 10  # how far the badge reaches down into the card


def pin_badge(img: Image.Image, d: ImageDraw.ImageDraw, theme: Theme, box: Box, pin: Pin) -> None:
    """The mark's badge astride the top edge of `box`, at its right end."""
    xy = (box[2] - PIN_BOARD_D - 1, box[1] + PIN_INTO - PIN_BOARD_D)
    pin_disc(img, d, theme, xy, pin, PIN_BOARD_D)


def pin_disc(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    xy: tuple[float, float],
    pin: Pin,
    size: int = PIN_D,
) -> None:
    """A mark's badge: a disc of its colour `size` wide holding its symbol, from `xy` (top
    left)."""
    x, y = xy
    s = theme.supersample
    paste(img, panel(size, size, size // 2, pin.color, theme.background, 2, s), (x, y))
    f = text.bold(theme, theme.small_size)
    room = (x, y, x + size, y + size)
    text.draw(d, (x + size / 2, y + size / 2), pin.symbol, f, theme.text_dark, "mm", room=room)


# ---- rows: one stone or tile, its two sides of cards ------------------------------------


@dataclass(frozen=True, slots=True)
class Item:
    """One line in the middle of a row: the place's number ("title", with an optional tag
    pill beside it), a "pill" (GATE, DAMAGED, a combat mode), or "text"."""

    kind: str
    words: str
    fill: str = ""
    ink: str = ""
    tag: str = ""
    tag_fill: str = ""
    strong: bool = True


@dataclass(frozen=True, slots=True)
class Face:
    """The stone or tile in the middle of a row."""

    items: Sequence[Item]
    fill: str
    line: str
    hatched: str = ""  # the stripes' colour, for a damaged tile
    ring: str = ""  # a ring around it (the last move, or what decided the game)
    pin: Pin | None = None  # an annotated board's mark on it (an analysis)


@dataclass(frozen=True, slots=True)
class Side:
    """One player's cards on a place, first played nearest the middle, then the outlines of
    the places still free (`slots` in all)."""

    cards: Sequence[AnyCard]
    slots: int
    wilds: Mapping[TacticCard, Card] = field(default_factory=dict)
    dim: bool = False
    backing: str = ""  # a panel in the winner's seat colour behind their cards
    last: frozenset[str] = frozenset()  # cards the last move put here: ringed
    caption: str = ""  # the formation, under the cards
    # An annotated board (an analysis): cards a move would put here, drawn faded after the
    # cards, and the marks on cards by their text.
    ghosts: Sequence[AnyCard] = ()
    pins: Mapping[str, Pin] = field(default_factory=dict)


TITLE_H = 24
LINE_H = 20
FACE_PAD = 4  # above and below a face's words
PILL_H = 26


def _item_inner(item: Item) -> int:
    return CENTER_W - (18 if item.kind == "pill" else 10)


def _item_rows(item: Item, theme: Theme) -> tuple[FreeTypeFont, list[str]]:
    """The item's lines: wrapped (long words hyphenated), never cut. A pill that the bold
    weight would wrap more than the regular one is drawn regular ("BESCHÄDIGT" on one line
    rather than hyphenated)."""
    inner = _item_inner(item)
    sizes = (theme.small_size,)
    f, rows = text.lines(item.words, theme, sizes, inner, 1, strong=item.strong, hyphenate=True)
    if item.kind == "pill" and item.strong and len(rows) > 1:
        fr, regular = text.lines(item.words, theme, sizes, inner, 1, strong=False, hyphenate=True)
        if len(regular) < len(rows):
            return fr, regular
    return f, rows


def face_height(face: Face, theme: Theme) -> int:
    h = FACE_PAD
    for item in face.items:
        if item.kind == "title":
            h += TITLE_H
        else:
            _, rows = _item_rows(item, theme)
            h += len(rows) * LINE_H + (6 if item.kind == "pill" else 0)
    return h + FACE_PAD


def draw_face(
    img: Image.Image, d: ImageDraw.ImageDraw, theme: Theme, box: Box, face: Face, game: str
) -> None:
    x0, y0, x1, y1 = box
    s = theme.supersample
    w, h = round(x1 - x0), round(y1 - y0)
    paste(img, panel(w, h, 12, face.fill, face.line, 2, s), (x0, y0))
    if face.hatched:
        paste(img, hatch(w - 8, h - 8, face.hatched, 12, 2), (x0 + 4, y0 + 4))
    cx = (x0 + x1) / 2
    y = y0 + (h - face_height(face, theme)) / 2 + FACE_PAD
    for item in face.items:
        if item.kind == "title":
            ft = text.bold(theme, 22)
            tw = ft.getlength(item.words)
            fg = text.bold(theme, theme.small_size)
            gw = round(fg.getlength(item.tag)) + 12 if item.tag else 0
            tx = cx - (gw + 8) / 2 if gw else cx
            text.draw(
                d, (tx, y + TITLE_H / 2), item.words, ft, item.ink or theme.text, "mm", room=box
            )
            if gw:
                gx = tx + tw / 2 + 8
                paste(img, panel(gw, 24, 6, item.tag_fill, scale=s), (gx, y + TITLE_H / 2 - 12))
                room = (gx, y + TITLE_H / 2 - 12, min(gx + gw, x1), y + TITLE_H / 2 + 12)
                text.draw(
                    d,
                    (gx + gw / 2, y + TITLE_H / 2),
                    item.tag,
                    fg,
                    theme.text_dark,
                    "mm",
                    room=room,
                )
            y += TITLE_H
            continue
        f, rows = _item_rows(item, theme)
        if item.kind == "pill":
            pw = round(max(f.getlength(r) for r in rows)) + 12
            ph = len(rows) * LINE_H + 2
            paste(
                img,
                panel(
                    pw,
                    ph,
                    6,
                    item.fill,
                    theme.tactic_gold if item.fill == theme.tactic_fill else None,
                    1,
                    s,
                ),
                (cx - pw / 2, y + 2),
            )
            y += 3
        inner = _item_inner(item)
        for row in rows:
            room = (cx - inner / 2, max(y, y0), cx + inner / 2, min(y + LINE_H, y1))
            text.draw(d, (cx, y + LINE_H / 2), row, f, item.ink or theme.text, "mm", room=room)
            y += LINE_H
        if item.kind == "pill":
            y += 3


PAIR_PAD = 7  # the alternatives' panel around their two cards (outside their rings)


def _alternatives(side: Side) -> int:
    """1 if the side's ghosts are two cards of two different marks (the move made and the
    better one), else 0."""
    pins = [side.pins.get(str(c)) for c in side.ghosts]
    return int(len(pins) == 2 and None not in pins and pins[0] != pins[1])


@dataclass(frozen=True, slots=True)
class Row:
    """A stone or tile with the cards on its two sides."""

    face: Face
    left: Side
    right: Side


def row_height(row: Row, theme: Theme) -> int:
    cards = theme.board_card.h
    if row.left.caption or row.right.caption:
        cards += CAPTION_H
    return max(cards, face_height(row.face, theme))


def draw_row(
    img: Image.Image, d: ImageDraw.ImageDraw, theme: Theme, y: int, row: Row, game: str
) -> int:
    """One row from `y`; returns the y below it."""
    m = theme.margin
    h = row_height(row, theme)
    cx0 = (img.width - CENTER_W) / 2
    box = (cx0, y, cx0 + CENTER_W, y + h)
    draw_face(img, d, theme, box, row.face, game)
    if row.face.ring:
        ring(img, box, row.face.ring, 3, theme)
    if row.face.pin is not None:
        ring(img, box, row.face.pin.color, 3, theme)
    _side(img, d, theme, row.left, cx0 - SIDE_GAP, y, -1, game, m)
    _side(img, d, theme, row.right, cx0 + CENTER_W + SIDE_GAP, y, 1, game, m)
    if row.face.pin is not None:
        pin_badge(img, d, theme, box, row.face.pin)
    return y + h + ROW_GAP


def _side(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    side: Side,
    edge: float,
    y: int,
    direction: int,
    game: str,
    margin: int,
) -> None:
    card = theme.board_card
    gap = theme.gap
    cards = [*side.cards, *side.ghosts]
    # A move and the better one both putting a card here (an analysis): the two are
    # alternatives for one place, side by side on one panel, and count as one slot.
    pair = _alternatives(side)
    n = max(side.slots + pair, len(cards))
    boxes: list[Box] = []
    for k in range(n):
        x = edge + k * (card.w + gap) if direction > 0 else edge - (k + 1) * card.w - k * gap
        boxes.append((x, y, x + card.w, y + card.h))
    if pair:
        both = boxes[len(side.cards) : len(side.cards) + 2]
        px0 = min(b[0] for b in both) - PAIR_PAD
        px1 = max(b[2] for b in both) + PAIR_PAD
        look = panel(
            round(px1 - px0),
            card.h + 2 * PAIR_PAD,
            theme.radius + PAIR_PAD,
            theme.surface,
            theme.text_muted,
            2,
            theme.supersample,
        )
        paste(img, look, (px0, y - PAIR_PAD))
    if side.backing and side.cards:
        used = boxes[: len(side.cards)]
        bx0 = min(b[0] for b in used) - 4
        bx1 = max(b[2] for b in used) + 4
        paste(
            img,
            panel(
                round(bx1 - bx0),
                card.h + 8,
                theme.radius + 3,
                side.backing,
                scale=theme.supersample,
            ),
            (bx0, y - 4),
        )
    pinned: list[tuple[Box, Pin]] = []
    for k, box in enumerate(boxes):
        if k >= len(cards):
            outline = panel(card.w, card.h, theme.radius, None, theme.slot, 1, theme.supersample)
            paste(img, outline, box[:2])
            continue
        c = cards[k]
        wild = side.wilds.get(c) if isinstance(c, TacticCard) else None  # only tactics are wild
        sprite = card_sprite(c, BOARD, theme, game=game, wild=wild, dim=side.dim)
        if k >= len(side.cards):  # not on the table yet: faded
            sprite = faded(sprite)
        paste(img, sprite, box[:2])
        if str(c) in side.last:
            ring(img, box, theme.highlight, 3, theme)
        pin = side.pins.get(str(c))
        if pin is not None:
            ring(img, box, pin.color, 3, theme)
            pinned.append((box, pin))
    for box, pin in pinned:  # over the rings of the cards beside them
        pin_badge(img, d, theme, box, pin)
    if side.caption:
        f = text.regular(theme, theme.small_size)
        cy = y + card.h + CAPTION_H / 2 + 1
        anchor = "lm" if direction > 0 else "rm"
        far = img.width - margin if direction > 0 else margin
        room = (min(edge, far), cy - CAPTION_H / 2, max(edge, far), cy + CAPTION_H / 2)
        text.draw(d, (edge, cy), side.caption, f, theme.text_muted, anchor, room=room)
