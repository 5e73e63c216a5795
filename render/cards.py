"""Card sprites: every card face the pictures use, drawn once and cached.

Three faces: `board` (landscape, for cards on a stone or tile), `hand` (portrait, bigger) and
`chip` (small, for the discard pile and played actions). A clan card shows its value large,
its colour's symbol and its letter, so that it reads without seeing colour; a tactic card is
near-black with a gold frame and its name. A wild card on a claimed stone shows the card it
became under a strip with its own name ("Joker = G7").

The cache is an `lru_cache` keyed by card, face, game and theme (all immutable values): it is
safe to use from several threads, and a sprite computed twice by a race is identical. The
returned images are shared and must only be pasted, never changed.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from engine.cards import AnyCard, Card, TacticCard
from render import text
from render.shapes import draw_symbol, hatch, shrink
from render.theme import Theme
from render.words import category, hint, short_title, wild_label

BOARD = "board"
HAND = "hand"
CHIP = "chip"


def _key(card: AnyCard) -> AnyCard:
    # Both Jokers look the same: share their sprites.
    return TacticCard(card.kind) if isinstance(card, TacticCard) else card


def card_sprite(
    card: AnyCard,
    face: str,
    theme: Theme,
    *,
    game: str = "st1",
    wild: Card | None = None,
    dim: bool = False,
) -> Image.Image:
    """The RGBA sprite of `card` in `face` (BOARD, HAND or CHIP). `wild` is the card a wild
    card stands for on a claimed stone; `dim` greys and hatches it (cannot be played now,
    or on the losing side of a claimed stone)."""
    return _sprite(_key(card), face, theme, game, wild, dim)


@lru_cache(maxsize=2048)
def _sprite(
    card: AnyCard, face: str, theme: Theme, game: str, wild: Card | None, dim: bool
) -> Image.Image:
    if face == CHIP:
        img = _chip(card, theme)
    elif face == BOARD:
        img = _board_card(card, theme, game, wild)
    elif face == HAND:
        img = _hand_card(card, theme, game)
    else:
        raise ValueError(f"unknown card face {face!r}")
    if dim:
        img = _dimmed(img, theme)
    return img


def chip_width(card: AnyCard, theme: Theme) -> int:
    """Chips of tactic cards are as wide as their name."""
    if isinstance(card, Card):
        return theme.chip.w + (10 if card.value >= 10 else 0)
    f = text.bold(theme, theme.small_size)
    return round(f.getlength(card.kind.title)) + 16


def _canvas(w: int, h: int, theme: Theme) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    s = theme.supersample
    img = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img), s


def _card_body(
    d: ImageDraw.ImageDraw, w: int, h: int, s: int, theme: Theme, fill: str, line: str
) -> None:
    d.rounded_rectangle(
        (0, 0, w * s - 1, h * s - 1), theme.radius * s, fill=fill, outline=line, width=2 * s
    )


def _tactic_body(d: ImageDraw.ImageDraw, w: int, h: int, s: int, theme: Theme) -> None:
    _card_body(d, w, h, s, theme, theme.tactic_fill, theme.tactic_gold)
    # A second, inner gold line: tactic cards read as "special" even in grey.
    inset = 5 * s
    d.rounded_rectangle(
        (inset, inset, w * s - 1 - inset, h * s - 1 - inset),
        max(1, theme.radius - 4) * s,
        outline=theme.tactic_gold,
        width=s,
    )


def _board_card(card: AnyCard, theme: Theme, game: str, wild: Card | None) -> Image.Image:
    w, h = theme.board_card.w, theme.board_card.h
    img, d, s = _canvas(w, h, theme)
    if isinstance(card, Card):
        look = theme.card_color(card.color)
        _card_body(d, w, h, s, theme, look.fill, "#00000055")
        _clan_face(d, card, theme, (0, 0, w * s, h * s), s, big=round(h * 0.7))
    elif wild is not None:
        look = theme.card_color(wild.color)
        _card_body(d, w, h, s, theme, look.fill, theme.tactic_gold)
        strip = round(h * 0.36) * s
        d.rounded_rectangle((0, 0, w * s - 1, strip), theme.radius * s, fill=theme.tactic_fill)
        d.rectangle((0, strip - theme.radius * s, w * s - 1, strip), fill=theme.tactic_fill)
        label = wild_label(card, wild)
        f = text.bold(theme, (theme.small_size - 2) * s)
        d.text((w * s / 2, strip / 2), label, font=f, fill=theme.tactic_text, anchor="mm")
        d.rounded_rectangle(
            (0, 0, w * s - 1, h * s - 1), theme.radius * s, outline=theme.tactic_gold, width=3 * s
        )
        _clan_face(d, wild, theme, (0, strip, w * s, h * s), s, big=round(h * 0.5))
    else:
        _tactic_body(d, w, h, s, theme)
        f = text.bold(theme, theme.label_size * s)
        title = text.fit(short_title(card.kind), f, (w - 16) * s)
        d.text((w * s / 2, h * s * 0.36), title, font=f, fill=theme.tactic_text, anchor="mm")
        f2 = text.regular(theme, (theme.small_size - 2) * s)
        words = text.fit(hint(card.kind, game, short=True), f2, (w - 14) * s)
        d.text((w * s / 2, h * s * 0.7), words, font=f2, fill=theme.tactic_gold, anchor="mm")
    return shrink(img, w, h)


def _clan_face(
    d: ImageDraw.ImageDraw,
    card: Card,
    theme: Theme,
    box: tuple[int, int, int, int],
    s: int,
    *,
    big: int,
) -> None:
    """Symbol on the left, value in the middle, colour letter on the right, in `box`."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    look = theme.card_color(card.color)
    cy = y0 + h / 2
    sym = h * 0.5
    left = x0 + h * 0.22
    draw_symbol(d, look.symbol, (left, cy - sym / 2, left + sym, cy + sym / 2), look.ink)
    fl = text.bold(theme, round(big * 0.42) * s)
    letter_x = x1 - h * 0.24
    d.text((letter_x, cy), card.color.letter, font=fl, fill=look.ink, anchor="mm")
    # The value is centred between symbol and letter, smaller if two digits would touch them.
    lo, hi = left + sym + h * 0.08, letter_x - fl.getlength(card.color.letter) / 2 - h * 0.08
    size = big * s
    f = text.bold(theme, size)
    while f.getlength(str(card.value)) > hi - lo and size > s * 10:
        size = round(size * 0.92)
        f = text.bold(theme, size)
    d.text(((lo + hi) / 2, cy), str(card.value), font=f, fill=look.ink, anchor="mm")


def _hand_card(card: AnyCard, theme: Theme, game: str) -> Image.Image:
    w, h = theme.hand_card.w, theme.hand_card.h
    img, d, s = _canvas(w, h, theme)
    W, H = w * s, h * s
    if isinstance(card, Card):
        look = theme.card_color(card.color)
        _card_body(d, w, h, s, theme, look.fill, "#00000055")
        fv = text.bold(theme, 50 * s)
        d.text((12 * s, 8 * s), str(card.value), font=fv, fill=look.ink, anchor="la")
        fl = text.bold(theme, 22 * s)
        d.text((W - 12 * s, 12 * s), card.color.letter, font=fl, fill=look.ink, anchor="ra")
        sym = 64 * s
        cx, cy = W / 2, H * 0.63
        draw_symbol(
            d, look.symbol, (cx - sym / 2, cy - sym / 2, cx + sym / 2, cy + sym / 2), look.ink
        )
        return shrink(img, w, h)
    _tactic_body(d, w, h, s, theme)
    fc = text.regular(theme, (theme.small_size - 2) * s)
    d.text(
        (W / 2, 16 * s), category(card.kind).upper(), font=fc, fill=theme.tactic_gold, anchor="mt"
    )
    # The largest size at which the name fits on two lines ("Blind-Man's Bluff").
    for size in (19, 17, 15, 13):
        ft = text.bold(theme, size * s)
        lines = text.wrap(card.kind.title, ft, (w - 18) * s, 2)
        if not any(line.endswith("…") for line in lines):
            break
    y = H * 0.36 - (len(lines) - 1) * 12 * s
    for line in lines:
        d.text((W / 2, y), line, font=ft, fill=theme.tactic_text, anchor="mm")
        y += 24 * s
    fh = text.regular(theme, theme.small_size * s)
    hy = H * 0.66
    for line in text.wrap(hint(card.kind, game), fh, (w - 20) * s, 3):
        d.text((W / 2, hy), line, font=fh, fill=theme.tactic_gold, anchor="mm")
        hy += 17 * s
    return shrink(img, w, h)


def _chip(card: AnyCard, theme: Theme) -> Image.Image:
    w, h = chip_width(card, theme), theme.chip.h
    img, d, s = _canvas(w, h, theme)
    if isinstance(card, Card):
        look = theme.card_color(card.color)
        _card_body(d, w, h, s, theme, look.fill, "#00000055")
        sym = h * 0.5 * s
        x, cy = 6 * s, h * s / 2
        draw_symbol(d, look.symbol, (x, cy - sym / 2, x + sym, cy + sym / 2), look.ink)
        f = text.bold(theme, 18 * s)
        d.text((w * s - 7 * s, cy), str(card.value), font=f, fill=look.ink, anchor="rm")
    else:
        _card_body(d, w, h, s, theme, theme.tactic_fill, theme.tactic_gold)
        f = text.bold(theme, theme.small_size * s)
        d.text((w * s / 2, h * s / 2), card.kind.title, font=f, fill=theme.tactic_text, anchor="mm")
    return shrink(img, w, h)


def _dimmed(img: Image.Image, theme: Theme) -> Image.Image:
    """The sprite under a veil of the table colour and hatching, inside its own outline."""
    veil = Image.new("RGBA", img.size, theme.dim + f"{theme.dim_alpha:02X}")
    veil.alpha_composite(hatch(img.width, img.height, "#00000060", 9, 2))
    alpha = img.getchannel("A")
    veil.putalpha(ImageChops.multiply(veil.getchannel("A"), alpha))
    out = img.copy()
    out.alpha_composite(veil)
    out.putalpha(alpha)
    return out
