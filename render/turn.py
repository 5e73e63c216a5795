"""A player's turn in one picture: the board, and their hand under it, for the hand's DM.

A phone shows one picture of a message across the screen, and a message's second picture
beside the first, at half the width: so the board and the hand are one picture, one above
the other, the hand nearest the controls under it. The hand is drawn at the board's width
(everything in it about 1.2 times its size alone), so that at the 390 px a phone gives the
picture it reads as large as the hand picture alone does.

The board's rows are the board picture's own (render/board.py), so only what is under them
(this gap and the hand) is drawn and compressed for the turn.
"""

from __future__ import annotations

from PIL import Image

from render.frame import frame_sides
from render.theme import Theme

# Between the board and the hand, in the picture's pixels.
GAP = 10


def gap(theme: Theme, width: int) -> Image.Image:
    """The rows between the board and the hand under it (render/hand.py, drawn at the
    board's width): the table, framed at the sides like the rest of the picture."""
    out = Image.new("RGB", (width, GAP), theme.background)
    frame_sides(out, theme)
    return out
