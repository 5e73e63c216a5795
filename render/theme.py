"""The look of every picture: colours, fonts and sizes, by the role they play.

A `Theme` is a frozen value, so it can key the sprite caches and be shared by threads. Sizes
are in final pixels; sprites are drawn `supersample` times larger and shrunk (see cards.py).

The six clan colours follow the game's names but are spaced in lightness as well as hue
(yellow, orange and green light with dark ink; red, blue and purple dark with white ink), and
each has its own symbol, so that no information depends on telling hues apart (issue 5).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engine.cards import Color


class Symbol(enum.Enum):
    """The shape that marks a clan colour on every card, chip and label."""

    CIRCLE = "circle"
    TRIANGLE = "triangle"
    STAR = "star"
    SQUARE = "square"
    DIAMOND = "diamond"
    CROSS = "cross"


@dataclass(frozen=True, slots=True)
class CardColor:
    """How one clan colour looks: the card's fill, the ink drawn on it and its symbol."""

    fill: str
    ink: str
    symbol: Symbol


def _default_card_colors() -> tuple[tuple[Color, CardColor], ...]:
    dark, light = "#15171C", "#FFFFFF"
    return (
        (Color.RED, CardColor("#C9302C", light, Symbol.CIRCLE)),
        (Color.ORANGE, CardColor("#F39A2B", dark, Symbol.TRIANGLE)),
        (Color.YELLOW, CardColor("#F4D924", dark, Symbol.STAR)),
        (Color.GREEN, CardColor("#58B368", dark, Symbol.SQUARE)),
        (Color.BLUE, CardColor("#2460C8", light, Symbol.DIAMOND)),
        (Color.PURPLE, CardColor("#6E3A9E", light, Symbol.CROSS)),
    )


@dataclass(frozen=True, slots=True)
class Size:
    """A width and a height in pixels."""

    w: int
    h: int


@dataclass(frozen=True, slots=True)
class Theme:
    """Every colour, font and size the pictures use, named for its role."""

    # The table. Opaque and darkish, so that the picture looks the same on Discord's dark
    # and light themes, with a lighter frame that separates it from a dark chat background.
    background: str = "#20252D"
    frame: str = "#46505F"
    surface: str = "#2C333E"  # banners, panels, empty stones
    surface_line: str = "#4A5566"
    slot: str = "#47505E"  # the outline of an empty place for a card
    stone: str = "#5E6673"  # an unclaimed stone (claimed ones take their owner's colour)
    stone_line: str = "#8891A0"
    text: str = "#F3F5F8"
    text_muted: str = "#B4BDCA"
    text_dark: str = "#15171C"  # on light fills (claimed stones, badges)
    # The two seats (seat 0, seat 1): the fill of stones they claimed and their banner's edge.
    # Pink and ivory: no clan card has either hue, so a seat's mark never melts into the
    # yellow, orange or blue cards beside it (issue 13). Never the only cue: a claimed stone
    # also points at its owner's side, and the winner's cards stand on a panel.
    seat: tuple[str, str] = ("#F59AD5", "#ECE6D6")
    highlight: str = "#FFFFFF"  # the last move: a thick ring and a "last" tag
    turn_badge: str = "#7EE08A"  # "to move" badge (with its words, so not colour alone)
    damaged: str = "#5A3A35"  # a damaged wall tile (also hatched and labelled)
    damaged_line: str = "#A8776D"
    gate: str = "#C9A66B"
    oil: str = "#D9A441"  # a full oil cauldron (used ones are empty outlines)
    tactic_fill: str = "#1D1F24"  # tactic cards: near-black with a gold frame
    tactic_gold: str = "#E5BE55"
    tactic_text: str = "#F5E7BF"
    dim: str = "#20252D"  # laid over cards that cannot be played or lost a stone
    dim_alpha: int = 150
    result: str = "#F6E7A8"  # the result banner at the end of a game
    # An analysis's marks (each with its symbol too): the move made, and the better one.
    mark_played: str = "#FF8F6B"
    mark_better: str = "#7FD3F7"
    card_colors: tuple[tuple[Color, CardColor], ...] = field(default_factory=_default_card_colors)

    # Fonts, shipped in render/fonts (DejaVu Sans, see its LICENSE there).
    font_regular: str = "DejaVuSans.ttf"
    font_bold: str = "DejaVuSans-Bold.ttf"
    # Boards are `board_width` wide; Discord shows a picture about 390 pixels wide on a
    # phone, where a line must stay 9 pixels tall: 18 pixels here (tests/render/test_phone.py).
    board_width: int = 760
    title_size: int = 30
    name_size: int = 26
    label_size: int = 20
    small_size: int = 18  # the smallest text anywhere

    # Cards: chips on the board (a stone's row grows outwards from it on both sides), in the
    # hand (portrait), and smaller chips for the discard pile and played actions.
    board_card: Size = Size(68, 60)
    hand_card: Size = Size(140, 190)
    chip: Size = Size(54, 40)
    radius: int = 8
    gap: int = 4
    margin: int = 16
    supersample: int = 3  # sprites are drawn this much larger, then shrunk with LANCZOS

    def card_color(self, color: Color) -> CardColor:
        for c, look in self.card_colors:
            if c is color:
                return look
        raise KeyError(color)


DEFAULT_THEME = Theme()
