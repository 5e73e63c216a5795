"""A player's turn in one picture: the board, and their hand under it, for the hand's DM.

A phone shows one picture of a message across the screen, and a message's second picture
beside the first, at half the width: so the board and the hand are one picture, one above
the other, the hand nearest the controls under it.

The picture must stay at most twice as tall as it is wide (issue 39: at 390 px wide a phone
shows about 780 px, and board and hand must be seen together), and the board already takes
most of that: so the hand under it is compact. Its cards stand in one row (two for the
Recruiter's ten), each card as the board draws it but larger: the value and the colour's
symbol, or a tactic card's name and the values it may take. What each tactic card does is
on the hand's buttons and in `/schotten rules`; the words stay 18 px or more, which is
9 px at a phone's 390 (tests/render/test_phone.py).

The board's rows are the board picture's own (render/board.py), so only what is under them
(this gap and the hand) is drawn and compressed for the turn.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw
from PIL.ImageFont import FreeTypeFont

from engine.cards import AnyCard, Card, TacticCard
from lang import current
from render import text
from render.frame import frame_sides
from render.shapes import draw_symbol, hatch, shrink
from render.theme import Size, Theme
from render.words import short_title, value_range

# Between the board and the hand, in the picture's pixels.
GAP = 4
PER_ROW = 7  # a hand of up to seven cards in one row; more in two rows
CARD_GAP = 6
MAX_CARD = Size(120, 120)  # a card no larger than this


def gap(theme: Theme, width: int) -> Image.Image:
    """The rows between the board and the hand under it (render/hand.py, drawn at the
    board's width): the table, framed at the sides like the rest of the picture."""
    out = Image.new("RGB", (width, GAP), theme.background)
    frame_sides(out, theme)
    return out


def per_row(n: int) -> int:
    """Cards in each row of a hand of `n` cards: one row up to PER_ROW, else rows of equal
    length."""
    if n <= PER_ROW:
        return max(n, 1)
    rows = -(-n // PER_ROW)
    return -(-n // rows)


def card_size(n: int, room: int) -> Size:
    """The size of each card of a hand of `n` cards laid out in rows `room` pixels wide."""
    k = max(per_row(n), PER_ROW)  # every hand's cards the size of a full row's
    w = min(MAX_CARD.w, (room - (k - 1) * CARD_GAP) // k)
    h = min(MAX_CARD.h, w - 6)  # a little lower than wide
    return Size(w, h)


def card_sprite(card: AnyCard, size: Size, theme: Theme, game: str, dim: bool) -> Image.Image:
    """A card of the compact hand; `dim`: cannot be played now (veiled and hatched)."""
    language = current() if isinstance(card, TacticCard) else ""
    key = TacticCard(card.kind) if isinstance(card, TacticCard) else card
    if text.is_recording():
        return _sprite.__wrapped__(key, size, theme, game, dim, language)
    return _sprite(key, size, theme, game, dim, language)


@lru_cache(maxsize=512)
def _sprite(
    card: AnyCard, size: Size, theme: Theme, game: str, dim: bool, language: str
) -> Image.Image:
    # `language` is only a key: the words are drawn in the current one, which it names.
    s = theme.supersample
    W, H = size.w * s, size.h * s
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if isinstance(card, Card):
        _clan(d, card, theme, W, H, s)
    else:
        _tactic(d, card, theme, game, W, H, s)
    out = shrink(img, size.w, size.h)
    return _dimmed(out, theme) if dim else out


def _clan(d: ImageDraw.ImageDraw, card: Card, theme: Theme, W: int, H: int, s: int) -> None:
    look = theme.card_color(card.color)
    d.rounded_rectangle(
        (0, 0, W - 1, H - 1), theme.radius * s, fill=look.fill, outline="#00000055", width=2 * s
    )
    fv = text.bold(theme, min(40, round(H / s * 0.3)) * s)
    text.draw(d, (8 * s, 5 * s), str(card.value), fv, look.ink, "la", scale=s)
    fl = text.bold(theme, theme.small_size * s)
    text.draw(d, (W - 8 * s, 8 * s), card.color.letter, fl, look.ink, "ra", scale=s)
    sym = min(W * 0.5, H * 0.42)
    cx, cy = W / 2, H * 0.68
    draw_symbol(d, look.symbol, (cx - sym / 2, cy - sym / 2, cx + sym / 2, cy + sym / 2), look.ink)


def _tactic(
    d: ImageDraw.ImageDraw, card: TacticCard, theme: Theme, game: str, W: int, H: int, s: int
) -> None:
    d.rounded_rectangle(
        (0, 0, W - 1, H - 1),
        theme.radius * s,
        fill=theme.tactic_fill,
        outline=theme.tactic_gold,
        width=2 * s,
    )
    inset = 5 * s
    d.rounded_rectangle(
        (inset, inset, W - 1 - inset, H - 1 - inset),
        max(1, theme.radius - 4) * s,
        outline=theme.tactic_gold,
        width=s,
    )
    # As wide as the outer border allows (over the inner gold line, as on board cards).
    inner = (3 * s, 3 * s, W - 3 * s, H - 3 * s)
    ft, names = _name_lines(short_title(card.kind), theme, W - 6 * s, s)
    span = value_range(card.kind, game)
    step = ft.size * 1.2
    fr = text.regular(theme, theme.small_size * s)
    total = len(names) * step + (fr.size * 1.4 if span else 0)
    y = (H - total) / 2 + step / 2
    for line in names:
        text.draw(d, (W / 2, y), line, ft, theme.tactic_text, "mm", scale=s, room=inner)
        y += step
    if span:
        y += fr.size * 0.2
        text.draw(
            d, (W / 2, y + fr.size * 0.5), span, fr, theme.tactic_gold, "mm", scale=s, room=inner
        )


def _name_lines(name: str, theme: Theme, width: int, s: int) -> tuple[FreeTypeFont, list[str]]:
    """A tactic card's name: on one line if it fits, bold or else regular; else on two or
    three lines broken between words; hyphenated at a syllable only if nothing else fits."""
    sizes = (20 * s, 19 * s, 18 * s)
    words = name.split()
    for count, strong in ((1, True), (1, False), (2, True), (2, False), (3, True)):
        f, rows = text.lines(name, theme, sizes, width, count, strong=strong)
        whole = [w for r in rows for w in r.split()] == words
        if whole and len(rows) <= count and all(f.getlength(r) <= width for r in rows):
            return f, rows
    return text.lines(name, theme, (18 * s,), width, 3, strong=False, hyphenate=True)


def _dimmed(img: Image.Image, theme: Theme) -> Image.Image:
    """The sprite under a veil of the table colour and hatching, inside its own outline."""
    veil = Image.new("RGBA", img.size, theme.dim + f"{theme.dim_alpha:02X}")
    veil.alpha_composite(hatch(img.width, img.height, "#00000060", 9, 2))
    veil.putalpha(ImageChops.multiply(veil.getchannel("A"), img.getchannel("A")))
    out = img.copy()
    out.alpha_composite(veil)
    return out
