"""Card sprites: every card face the pictures use, drawn once and cached.

Three faces: `board` (landscape, for cards on a stone or tile), `hand` (portrait, bigger) and
`chip` (small, for the discard pile and played actions). A clan card shows its value large,
its colour's symbol and its letter, so that it reads without seeing colour; a tactic card is
near-black with a gold frame and its name. A wild card on a claimed stone shows the card it
became under a strip with its own name ("Joker = G7").

The cache is an `lru_cache` keyed by card, face, game and theme (all immutable values), and
for tactic cards, whose faces carry words, by the language too: it is safe to use from several
threads, and a sprite computed twice by a race is identical. The returned images are shared
and must only be pasted, never changed.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw
from PIL.ImageFont import FreeTypeFont

from engine.cards import AnyCard, Card, Tactic, TacticCard
from lang import current
from render import text
from render.shapes import draw_symbol, hatch, shrink
from render.theme import Size, Theme
from render.words import category, hint, short_title, title, value_range

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
    size: Size | None = None,
) -> Image.Image:
    """The RGBA sprite of `card` in `face` (BOARD, HAND or CHIP). `wild` is the card a wild
    card stands for on a claimed stone; `dim` greys and hatches it (cannot be played now,
    or on the losing side of a claimed stone). `size`: a hand card drawn as the theme draws
    it, brought to this size instead of the theme's (a hand under a board, enlarged)."""
    # Clan cards carry no words: one sprite for every language.
    language = current() if isinstance(card, TacticCard) or wild is not None else ""
    if text.is_recording():
        # Drawn afresh, so that the recorder sees the words on the card.
        return _sprite.__wrapped__(_key(card), face, theme, game, wild, dim, language, size)
    return _sprite(_key(card), face, theme, game, wild, dim, language, size)


@lru_cache(maxsize=2048)
def _sprite(
    card: AnyCard,
    face: str,
    theme: Theme,
    game: str,
    wild: Card | None,
    dim: bool,
    language: str,
    size: Size | None = None,
) -> Image.Image:
    # `language` is only a key: the words are drawn in the current one, which it names.
    if face == CHIP:
        img = _chip(card, theme)
    elif face == BOARD:
        img = _board_card(card, theme, game, wild)
    elif face == HAND:
        img = _hand_card(card, theme, game, size or theme.hand_card)
    else:
        raise ValueError(f"unknown card face {face!r}")
    if dim:
        img = _dimmed(img, theme)
    return img


def chip_width(card: AnyCard, theme: Theme) -> int:
    """Chips of tactic cards are as wide as their name."""
    if isinstance(card, Card):
        return theme.chip.w + (12 if card.value >= 10 else 0)
    return _title_width(card.kind, theme, current())


@lru_cache(maxsize=512)
def _title_width(kind: Tactic, theme: Theme, language: str) -> int:
    # A tactic chip's width, by language (`language` is only a key, as in `_sprite`).
    f = text.bold(theme, theme.small_size)
    return round(f.getlength(short_title(kind))) + 16


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
    """A chip on a stone's row: the colour's symbol above the value (the symbol tells the
    colour without hue); a wild card adds a strip with its name, and an Elite troop not yet
    judged shows its name and what it may become ("Joker 1-9")."""
    w, h = theme.board_card.w, theme.board_card.h
    img, d, s = _canvas(w, h, theme)
    small = theme.small_size
    if isinstance(card, Card):
        look = theme.card_color(card.color)
        _card_body(d, w, h, s, theme, look.fill, "#00000055")
        _clan_face(d, card, theme, (0, 0, w * s, h * s), s)
    elif wild is not None:
        look = theme.card_color(wild.color)
        _card_body(d, w, h, s, theme, look.fill, theme.tactic_gold)
        strip = (small + 5) * s
        d.rounded_rectangle((0, 0, w * s - 1, strip), theme.radius * s, fill=theme.tactic_fill)
        d.rectangle((0, strip - theme.radius * s, w * s - 1, strip), fill=theme.tactic_fill)
        name = short_title(card.kind)
        f = _fitting(name, theme, (w - 4) * s, small * s, bold=True)
        room = (2 * s, 0, (w - 2) * s, strip)
        text.draw(d, (w * s / 2, strip / 2), name, f, theme.tactic_text, "mm", scale=s, room=room)
        d.rounded_rectangle(
            (0, 0, w * s - 1, h * s - 1), theme.radius * s, outline=theme.tactic_gold, width=3 * s
        )
        _clan_face(d, wild, theme, (0, strip, w * s, h * s), s)
    else:
        _tactic_body(d, w, h, s, theme)
        label = short_title(card.kind)
        # As wide as the card's outer border allows: the English "Shield" already reaches
        # over the inner gold line.
        f = _fitting(label, theme, (w - 4) * s, (small + 1) * s, bold=True)
        room = (2 * s, 0, (w - 2) * s, h * s)
        text.draw(
            d, (w * s / 2, h * s * 0.32), label, f, theme.tactic_text, "mm", scale=s, room=room
        )
        f2 = text.regular(theme, small * s)
        text.draw(
            d,
            (w * s / 2, h * s * 0.7),
            value_range(card.kind, game),
            f2,
            theme.tactic_gold,
            "mm",
            scale=s,
            room=room,
        )
    return shrink(img, w, h)


def _fitting(label: str, theme: Theme, width: int, size: int, *, bold: bool) -> FreeTypeFont:
    """`label`'s font at `size` (supersampled), smaller if it must be to fit `width`, but
    never below the smallest text size (the phone test would catch it); a bold label that
    does not fit at that size is drawn in the regular weight, which is narrower ("Espion")."""
    s = theme.supersample
    get = text.bold if bold else text.regular
    f = get(theme, size)
    # Pillow types a font's size as float; ours are made (text.regular/bold) from ints.
    while f.getlength(label) > width and f.size - s >= theme.small_size * s:
        f = get(theme, int(f.size) - s)
    if bold and f.getlength(label) > width:
        regular = text.regular(theme, int(f.size))
        if regular.getlength(label) <= width:
            return regular
    return f


def _clan_face(
    d: ImageDraw.ImageDraw,
    card: Card,
    theme: Theme,
    box: tuple[int, int, int, int],
    s: int,
) -> None:
    """The symbol on the left, the value large on the right, in `box`."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    look = theme.card_color(card.color)
    cy = y0 + h / 2
    sym = min(h * 0.42, 20 * s)
    left = x0 + 5 * s
    draw_symbol(d, look.symbol, (left, cy - sym / 2, left + sym, cy + sym / 2), look.ink)
    lo, hi = left + sym + 2 * s, x1 - 4 * s
    size = min(round(h * 0.72), 34 * s)
    f = text.bold(theme, size)
    while f.getlength(str(card.value)) > hi - lo and size > theme.small_size * s:
        size -= s
        f = text.bold(theme, size)
    text.draw(d, ((lo + hi) / 2, cy), str(card.value), f, look.ink, "mm", scale=s)


def _hand_card(card: AnyCard, theme: Theme, game: str, size: Size) -> Image.Image:
    """Drawn at the theme's size, supersampled, then brought to `size`."""
    w, h = theme.hand_card.w, theme.hand_card.h
    img, d, s = _canvas(w, h, theme)
    W, H = w * s, h * s
    shown = s * w / size.w  # how much larger than its final size it is drawn (for recording)
    if isinstance(card, Card):
        look = theme.card_color(card.color)
        _card_body(d, w, h, s, theme, look.fill, "#00000055")
        fv = text.bold(theme, 54 * s)
        text.draw(d, (12 * s, 8 * s), str(card.value), fv, look.ink, "la", scale=shown)
        fl = text.bold(theme, 24 * s)
        text.draw(d, (W - 12 * s, 12 * s), card.color.letter, fl, look.ink, "ra", scale=shown)
        sym = 70 * s
        cx, cy = W / 2, H * 0.64
        draw_symbol(
            d, look.symbol, (cx - sym / 2, cy - sym / 2, cx + sym / 2, cy + sym / 2), look.ink
        )
        return shrink(img, size.w, size.h)
    _tactic_body(d, w, h, s, theme)
    small = theme.small_size - 2  # the hand is narrower than a board: 16 px reads as 9+
    family = category(card.kind).upper()
    inner = (7 * s, 7 * s, W - 7 * s, H - 7 * s)  # inside the inner gold line
    fc = _fitting(family, theme, (w - 16) * s, small * s, bold=False)
    if fc.getlength(family) > (w - 16) * s:
        family = category(card.kind)  # capitals are wider: "Troupe d'élite"
    text.draw(d, (W / 2, 14 * s), family, fc, theme.tactic_gold, "mt", scale=shown, room=inner)
    # The largest size at which the name fits on two lines ("Blind-Man's Bluff").
    ft, names = text.lines(
        title(card.kind),
        theme,
        (20 * s, 19 * s, 18 * s),
        (w - 16) * s,
        2,
        strong=True,
        hyphenate=True,
    )
    y = H * 0.33 - (len(names) - 1) * 12 * s
    for line in names:
        text.draw(d, (W / 2, y), line, ft, theme.tactic_text, "mm", scale=shown, room=inner)
        y += 24 * s
    fh = text.regular(theme, small * s)
    hints = text.wrap_all(hint(card.kind, game), fh, (w - 18) * s, hyphenate=True)
    hy = H * 0.62 - max(0, len(hints) - 3) * 9 * s
    for line in hints:
        text.draw(d, (W / 2, hy), line, fh, theme.tactic_gold, "mm", scale=shown, room=inner)
        hy += 19 * s
    return shrink(img, size.w, size.h)


def _chip(card: AnyCard, theme: Theme) -> Image.Image:
    w, h = chip_width(card, theme), theme.chip.h
    img, d, s = _canvas(w, h, theme)
    if isinstance(card, Card):
        look = theme.card_color(card.color)
        _card_body(d, w, h, s, theme, look.fill, "#00000055")
        sym = 18 * s
        x, cy = 6 * s, h * s / 2
        draw_symbol(d, look.symbol, (x, cy - sym / 2, x + sym, cy + sym / 2), look.ink)
        f = text.bold(theme, 22 * s)
        text.draw(d, (w * s - 6 * s, cy), str(card.value), f, look.ink, "rm", scale=s)
    else:
        _card_body(d, w, h, s, theme, theme.tactic_fill, theme.tactic_gold)
        f = text.bold(theme, theme.small_size * s)
        room = (0, 0, w * s, h * s)
        text.draw(
            d,
            (w * s / 2, h * s / 2),
            short_title(card.kind),
            f,
            theme.tactic_text,
            "mm",
            scale=s,
            room=room,
        )
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
