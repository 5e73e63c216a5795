"""The parts both boards share: the canvas, the header, the players' banners, rings and tags
that point at the last move, and rows of card chips."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.cards import AnyCard, Card
from render import text
from render.cards import BOARD, CHIP, card_sprite, chip_width
from render.shapes import panel, paste
from render.theme import Theme
from render.words import LastMove

HEADER_H = 60
RESULT_H = 64  # the header when it shows the result
BANNER_H = 60


def canvas(w: int, h: int, theme: Theme) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """An opaque picture with the table colour and a frame, so that it never blends into
    Discord's background, dark or light."""
    img = Image.new("RGB", (w, h), theme.background)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w - 1, h - 1), outline=theme.frame, width=3)
    return img, d


def header(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    *,
    title: str,
    info: str,
    result: str | None,
) -> int:
    """The title line, or the result in large type once the game is over. Returns its height."""
    w = img.width
    m = theme.margin
    if result is not None:
        paste(
            img, panel(w - 2 * m, HEADER_H - 8, 10, theme.result, scale=theme.supersample), (m, 8)
        )
        f = text.bold(theme, theme.title_size)
        line = text.fit(result, f, w - 4 * m)
        d.text((w / 2, 8 + (HEADER_H - 8) / 2), line, font=f, fill=theme.text_dark, anchor="mm")
        return RESULT_H
    f = text.bold(theme, theme.title_size)
    d.text((m, HEADER_H / 2 + 4), title, font=f, fill=theme.text, anchor="lm")
    fi = text.regular(theme, theme.label_size)
    room = w - 3 * m - round(f.getlength(title))
    d.text(
        (w - m, HEADER_H / 2 + 4),
        text.fit(info, fi, room),
        font=fi,
        fill=theme.text_muted,
        anchor="rm",
    )
    return HEADER_H


@dataclass(frozen=True, slots=True)
class Banner:
    """One player's strip: who they are and the public facts about them."""

    name: str
    role: str | None  # "ATTACKER", "DEFENDER" (Schotten Totten 2)
    facts: Sequence[str]  # "2 stones", "7 cards in hand"
    badge: str | None  # "TO PLAY", "WINNER"
    seat_color: str
    active: bool  # the player the game waits for
    cards: Sequence[AnyCard] = ()  # actions played (Schotten Totten 2, Tactical)


def banner(img: Image.Image, d: ImageDraw.ImageDraw, theme: Theme, y: int, b: Banner) -> None:
    """A player's banner across the picture at height `y`."""
    m = theme.margin
    w = img.width - 2 * m
    s = theme.supersample
    line = theme.highlight if b.active else theme.surface_line
    paste(img, panel(w, BANNER_H, 10, theme.surface, line, 3 if b.active else 1, s), (m, y))
    # The seat's colour as a bar on the left: it matches the stones this player claims.
    paste(img, panel(12, BANNER_H - 12, 4, b.seat_color, scale=s), (m + 8, y + 6))
    x = m + 32
    cy = y + BANNER_H / 2
    if b.role is not None:
        fr = text.bold(theme, theme.small_size)
        rw = round(fr.getlength(b.role)) + 16
        paste(img, panel(rw, 26, 6, b.seat_color, scale=s), (x, cy - 13))
        d.text((x + rw / 2, cy), b.role, font=fr, fill=theme.text_dark, anchor="mm")
        x += rw + 12
    badge_w = 0
    if b.badge is not None:
        fb = text.bold(theme, theme.label_size)
        badge_w = round(fb.getlength(b.badge)) + 24
        bx = m + w - 10 - badge_w
        fill = theme.result if b.badge == "WINNER" else theme.turn_badge
        paste(img, panel(badge_w, BANNER_H - 16, 8, fill, scale=s), (bx, y + 8))
        d.text((bx + badge_w / 2, cy), b.badge, font=fb, fill=theme.text_dark, anchor="mm")
    chips_w = sum(chip_width(c, theme) + 6 for c in b.cards)
    fn = text.bold(theme, theme.name_size)
    room = m + w - 20 - badge_w - chips_w - x
    facts = "   ·   ".join(b.facts)
    ff = text.regular(theme, theme.label_size)
    facts_w = round(ff.getlength(facts))
    name = text.name(b.name, theme, theme.name_size, max(80, room - facts_w - 24))
    d.text((x, cy), name, font=fn, fill=theme.text, anchor="lm")
    x += round(fn.getlength(name)) + 24
    d.text(
        (x, cy),
        text.fit(facts, ff, max(0, m + w - 20 - badge_w - chips_w - x)),
        font=ff,
        fill=theme.text_muted,
        anchor="lm",
    )
    cx = m + w - 20 - badge_w - chips_w
    for c in b.cards:
        sprite = card_sprite(c, CHIP, theme)
        paste(img, sprite, (cx, cy - sprite.height / 2))
        cx += sprite.width + 6


def ring(
    img: Image.Image, box: tuple[float, float, float, float], color: str, width: int, theme: Theme
) -> None:
    """A rounded outline around `box`, `width` pixels thick, leaving a small gap."""
    x0, y0, x1, y1 = box
    pad = width + 2
    w, h = round(x1 - x0) + 2 * pad, round(y1 - y0) + 2 * pad
    paste(
        img,
        panel(w, h, theme.radius + pad, None, color, width, theme.supersample),
        (x0 - pad, y0 - pad),
    )


def tag(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    xy: tuple[float, float],
    label: str,
    *,
    fill: str,
    anchor: str = "mm",
) -> None:
    """A small pill with a word in it ("LAST"), centred at `xy` (or anchored "lm"/"rm")."""
    f = text.bold(theme, theme.small_size - 2)
    w = round(f.getlength(label)) + 12
    h = 20
    x, y = xy
    if anchor == "lm":
        x += w / 2
    elif anchor == "rm":
        x -= w / 2
    paste(img, panel(w, h, 6, fill, scale=theme.supersample), (x - w / 2, y - h / 2))
    d.text((x, y), label, font=f, fill=theme.text_dark, anchor="mm")


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
) -> list[tuple[float, float, float, float]]:
    """Draw chip rows from `xy`; returns the boxes of chips named in `highlight`."""
    x0, y = xy
    marked: list[tuple[float, float, float, float]] = []
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


def last_move_line(
    d: ImageDraw.ImageDraw,
    theme: Theme,
    xy: tuple[float, float],
    names: Sequence[str],
    move: tuple[int, str] | None,
    lm: LastMove | None,
    width: int,
) -> None:
    """ "Last move: Alice played R7 on stone 3", the name in bold, within `width`."""
    fb = text.bold(theme, theme.label_size)
    fr = text.regular(theme, theme.label_size)
    x, y = xy
    right = x + width
    d.text((x, y), "Last move:", font=fr, fill=theme.text_muted, anchor="lm")
    x += round(fr.getlength("Last move: ")) + 4
    if lm is None or move is None:
        d.text((x, y), "none yet", font=fr, fill=theme.text_muted, anchor="lm")
        return
    who = text.name(names[move[0]], theme, theme.label_size, 260)
    d.text((x, y), who, font=fb, fill=theme.text, anchor="lm")
    x += round(fb.getlength(who + " "))
    d.text(
        (x, y),
        text.fit(lm.text, fr, max(0, round(right - x))),
        font=fr,
        fill=theme.text,
        anchor="lm",
    )


@dataclass(frozen=True, slots=True)
class Column:
    """Where one stone's or tile's cards go: the left edge of the cards, and the top and
    bottom of the row of stones (or tiles) the two sides grow away from."""

    x: float
    row_top: float
    row_bottom: float

    def card_box(self, theme: Theme, k: int, *, up: bool) -> tuple[float, float, float, float]:
        """The `k`th card of a side (0: nearest the row), above the row if `up`."""
        card = theme.board_card
        step = card.h + theme.gap
        y = self.row_top - (k + 1) * step if up else self.row_bottom + theme.gap + k * step
        return (self.x, y, self.x + card.w, y + card.h)


def side(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    column: Column,
    cards: Sequence[AnyCard],
    *,
    up: bool,
    slots: int,
    game: str,
    wilds: Mapping[AnyCard, Card],
    dim: bool,
    last: frozenset[str],
) -> list[tuple[float, float, float, float]]:
    """One player's cards on a stone or tile, the first played nearest the row, then the
    outlines of the places still free (`slots` in all). Cards named in `last` (the last
    move's) get a ring and a tag. Returns the boxes of the cards drawn."""
    boxes = []
    for k in range(max(slots, len(cards))):
        box = column.card_box(theme, k, up=up)
        if k >= len(cards):
            outline = panel(
                theme.board_card.w,
                theme.board_card.h,
                theme.radius,
                None,
                theme.slot,
                1,
                theme.supersample,
            )
            paste(img, outline, box[:2])
            continue
        c = cards[k]
        paste(img, card_sprite(c, BOARD, theme, game=game, wild=wilds.get(c), dim=dim), box[:2])
        boxes.append(box)
        if str(c) in last:
            ring(img, box, theme.highlight, 3, theme)
            tag(img, d, theme, (box[2] - 4, box[1] - 2), "LAST", fill=theme.highlight)
    return boxes
