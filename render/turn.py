"""A player's turn in one picture: the board, and their hand under it, for the hand's DM.

A phone shows one picture of a message across the screen, and a message's second picture
beside the first, at half the width: so the board and the hand are one picture, one above
the other, the hand nearest the controls under it. The hand is drawn at the board's width
(its cards scaled up by `board width / hand width`, about 1.2), so that at the 390 px a
phone gives the picture it reads as large as the hand picture alone does.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.theme import Theme

# Between the board and the hand, in the picture's pixels.
GAP = 10


def hand_scale(board: Image.Image, hand: Image.Image) -> float:
    """How much the hand is enlarged to the board's width."""
    return board.width / hand.width


def compose(board: Image.Image, hand: Image.Image, theme: Theme) -> Image.Image:
    """The board above the hand, both the board's width, on the table's colour."""
    scale = hand_scale(board, hand)
    size = (board.width, round(hand.height * scale))
    # Bilinear: at this small enlargement it looks the same as Lanczos, in half the time (a
    # hand's DM is drawn at every turn; issue 32).
    wide = hand.resize(size, Image.Resampling.BILINEAR) if scale != 1 else hand
    out = Image.new("RGB", (board.width, board.height + GAP + wide.height), theme.background)
    out.paste(board, (0, 0))
    out.paste(wide, (0, board.height + GAP))
    ImageDraw.Draw(out).rectangle(
        (0, 0, out.width - 1, out.height - 1), outline=theme.frame, width=3
    )
    return out
