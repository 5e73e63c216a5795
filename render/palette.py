"""One palette of 256 colours per theme, for the boards and hands (render/png.py).

A board or hand is drawn from the theme's few colours and their anti-aliased blends: words
in each ink on each ground, rounded panels and rings, hatching, and the card sprites. So one
palette chosen once from a sheet of exactly those (every card of every face, plain and
dimmed; every ink on every ground) maps every board and hand as closely as a palette chosen
from each picture alone (mean error under one level per channel on every gallery picture;
tests/render/test_png.py). A fixed palette is what lets a turn's pictures share their
board's compressed rows (render/board.py, render/bands.py), and it saves the octree search
of every picture.
"""

from __future__ import annotations

import contextvars
import dataclasses
import threading
from functools import cache

from PIL import Image, ImageDraw

from engine.cards import Card, Color, Tactic, TacticCard
from lang import speaking
from render import text
from render.cards import BOARD, CHIP, HAND, card_sprite
from render.shapes import hatch, panel, paste
from render.theme import Theme

WIDTH = 760
SAMPLE_WORDS = "Ag7◀▶·"
_lock = threading.Lock()


def _colours_only(theme: Theme) -> Theme:
    """The theme with every size at its default: themes that differ only in sizes (a hand
    drawn at the board's width) share a palette."""
    base = Theme()
    sizes = {
        f.name: getattr(base, f.name)
        for f in dataclasses.fields(Theme)
        if not isinstance(getattr(base, f.name), str | tuple) and f.name != "dim_alpha"
    }
    return dataclasses.replace(theme, **sizes)


def palette(theme: Theme) -> Image.Image:
    """The palette of `theme`'s boards and hands, as a "P" image holding it."""
    key = _colours_only(theme)
    with _lock:  # chosen once, even when several threads ask for it at first
        return _palette(key)


@cache
def _palette(theme: Theme) -> Image.Image:
    # In a context of its own: the sheet is not part of what a caller records
    # (text.recording) or the language it speaks.
    return contextvars.Context().run(_choose, theme)


def _choose(theme: Theme) -> Image.Image:
    with speaking("en"):
        return sheet(theme).quantize(256, method=Image.Quantize.FASTOCTREE)


class _Sheet:
    """Pieces laid out left to right, row by row, on the table's colour."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.pieces: list[tuple[Image.Image, str | None, int, int]] = []
        self.x = self.y = self.row = 0

    def place(self, piece: Image.Image, ground: str | None = None) -> None:
        w, h = piece.size
        if self.x + w + 8 > WIDTH:
            self.x, self.y, self.row = 0, self.y + self.row + 4, 0
        self.pieces.append((piece, ground, self.x, self.y))
        self.x += w + 8
        self.row = max(self.row, h + 8)

    def done(self) -> Image.Image:
        img = Image.new("RGB", (WIDTH, self.y + self.row), self.theme.background)
        for piece, ground, x, y in self.pieces:
            w, h = piece.size
            if ground is not None:
                img.paste(ground, (x, y, x + w + 8, y + h + 8))
            if piece.mode == "RGBA":
                paste(img, piece, (x + 4, y + 4))
            else:
                img.paste(piece, (x + 4, y + 4))
        return img


def sheet(theme: Theme) -> Image.Image:
    """What the theme's pictures are made of, on one sheet."""
    s = _Sheet(theme)
    # Every colour and kind once on the board, a few in the hand (the same colours,
    # larger): a hand card takes seven times a board card's time to draw.
    for c in Color:
        card = Card(c, 7)
        for dim in (False, True):
            s.place(card_sprite(card, BOARD, theme, dim=dim))
        s.place(card_sprite(Card(c, 10), BOARD, theme, game="st2"))
        s.place(card_sprite(card, CHIP, theme))
        s.place(card_sprite(card, HAND, theme, dim=c in (Color.RED, Color.YELLOW)))
    for kind in Tactic:
        s.place(card_sprite(TacticCard(kind), BOARD, theme, game="st2"))
        s.place(card_sprite(TacticCard(kind), CHIP, theme))
    for kind, dim in ((Tactic.JOKER, True), (Tactic.TRAITOR, False)):
        s.place(card_sprite(TacticCard(kind), HAND, theme, dim=dim))
    for c in Color:
        s.place(card_sprite(TacticCard(Tactic.JOKER), BOARD, theme, wild=Card(c, 7)))
    grounds = [
        theme.background,
        theme.surface,
        theme.stone,
        theme.damaged,
        theme.result,
        theme.turn_badge,
        theme.tactic_fill,
        *theme.seat,
        *(look.fill for _, look in theme.card_colors),
    ]
    inks = [
        theme.text,
        theme.text_muted,
        theme.text_dark,
        theme.tactic_text,
        theme.tactic_gold,
        theme.highlight,
        theme.mark_played,
        theme.mark_better,
        theme.frame,
        theme.surface_line,
        theme.slot,
        theme.stone_line,
        theme.damaged_line,
        theme.gate,
        theme.oil,
        *theme.seat,
    ]
    fonts = [text.bold(theme, theme.label_size), text.regular(theme, theme.small_size)]
    for ground in grounds:
        for ink in inks:
            for f in fonts:
                # Pillow types a font's size as float; ours are made from ints (text.bold).
                size = (round(f.getlength(SAMPLE_WORDS)) + 4, int(f.size) + 8)
                words = Image.new("RGB", size, ground)
                text.draw(ImageDraw.Draw(words), (2, 4), SAMPLE_WORDS, f, ink)
                s.place(words, ground)
            s.place(panel(60, 30, theme.radius, None, ink, 3, theme.supersample), ground)
        s.place(panel(60, 30, theme.radius, ground, None, 0, theme.supersample))
        s.place(hatch(60, 30, "#00000060", 9, 2), ground)
    return s.done()
