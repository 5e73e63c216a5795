"""Colours readable by everyone: contrast, and a distinct symbol for every colour."""

from __future__ import annotations

import dataclasses

import pytest

from engine.cards import Color, parse_card
from render.cards import BOARD, CHIP, HAND, card_sprite
from render.theme import DEFAULT_THEME as T
from render.theme import Theme


def _luminance(hex_color: str) -> float:
    rgb = [int(hex_color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio."""
    hi, lo = sorted((_luminance(a[:7]), _luminance(b[:7])), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_helper_knows_black_on_white():
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21)
    assert contrast("#777777", "#777777") == pytest.approx(1)


@pytest.mark.parametrize("color", list(Color), ids=lambda c: c.name)
def test_card_ink_reads_on_its_colour(color):
    look = T.card_color(color)
    assert contrast(look.ink, look.fill) >= 4.5


def test_every_colour_has_its_own_symbol_and_fill():
    looks = [T.card_color(c) for c in Color]
    assert len({look.symbol for look in looks}) == len(Color)
    assert len({look.fill for look in looks}) == len(Color)


@pytest.mark.parametrize(
    ("ink", "fill"),
    [
        ("text", "background"),
        ("text", "surface"),
        ("text_muted", "background"),
        ("text_muted", "surface"),
        ("text", "stone"),
        ("text", "damaged"),
        ("text_dark", "turn_badge"),
        ("text_dark", "result"),
        ("text_dark", "highlight"),
        ("text_dark", "gate"),
        ("text_dark", "damaged_line"),
        ("tactic_text", "tactic_fill"),
        ("tactic_gold", "tactic_fill"),
    ],
)
def test_text_contrast(ink, fill):
    assert contrast(getattr(T, ink), getattr(T, fill)) >= 4.5


@pytest.mark.parametrize("seat", [0, 1])
def test_claimed_stones_read_in_dark_ink(seat):
    assert contrast(T.text_dark, T.seat[seat]) >= 4.5


def test_background_is_opaque_and_set_off_from_both_discord_themes():
    # Discord's dark theme chat is #313338, its light theme #FFFFFF; the frame separates
    # the picture from the dark one, the dark table from the light one.
    assert len(T.background) == 7 and len(T.frame) == 7
    assert contrast(T.frame, "#313338") >= 1.3
    assert contrast(T.background, "#FFFFFF") >= 10


def test_theme_is_frozen_and_hashable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        T.background = "#000000"  # type: ignore[misc]
    assert hash(Theme()) == hash(T)


@pytest.mark.parametrize(("face", "size"), [(BOARD, T.board_card), (HAND, T.hand_card)])
def test_card_sprites_have_the_theme_size_and_are_cached(face, size):
    for code in ("R7", "P11", "joker", "mud"):
        sprite = card_sprite(parse_card(code), face, T, game="st2" if code == "P11" else "st1")
        assert sprite.size == (size.w, size.h)
        assert sprite.mode == "RGBA"
        assert (
            card_sprite(parse_card(code), face, T, game="st2" if code == "P11" else "st1") is sprite
        )


def test_both_jokers_share_a_sprite_and_chips_fit_their_names():
    assert card_sprite(parse_card("joker1"), CHIP, T) is card_sprite(parse_card("joker2"), CHIP, T)
    assert (
        card_sprite(parse_card("blind"), CHIP, T).width
        > card_sprite(parse_card("spy"), CHIP, T).width
    )


def test_dimmed_and_wild_sprites_differ_from_plain_ones():
    joker = parse_card("joker")
    plain = card_sprite(joker, BOARD, T)
    assert card_sprite(joker, BOARD, T, wild=parse_card("G7")).tobytes() != plain.tobytes()
    assert card_sprite(joker, BOARD, T, dim=True).tobytes() != plain.tobytes()
