"""A player's turn in one picture: the board, and their hand under it, for the hand's DM.

A phone shows one picture of a message across the screen, and a message's second picture
beside the first, at half the width: so the board and the hand are one picture, one above
the other, the hand nearest the controls under it. The hand is drawn at the board's width
(everything in it about 1.2 times its size alone), so that at the 390 px a phone gives the
picture it reads as large as the hand picture alone does.

The board's rows are the board picture's own (render/board.py), so only what is under them
is drawn and compressed here.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.st1.view import View as St1View
from engine.st2.view import View as St2View
from render import hand
from render.theme import Theme

# Between the board and the hand, in the picture's pixels.
GAP = 10
FRAME = 3  # the frame's width, as render/frame.finish draws it


def under_board(view: St1View | St2View, name: str | None, theme: Theme, width: int) -> Image.Image:
    """The rows under the board: a gap and the hand at the board's width, framed on the
    sides and at the bottom so that the whole picture is framed."""
    cards = hand.render(view, name, theme, width)
    out = Image.new("RGB", (width, GAP + cards.height), theme.background)
    out.paste(cards, (0, GAP))
    d = ImageDraw.Draw(out)
    d.rectangle((0, 0, FRAME - 1, GAP - 1), fill=theme.frame)
    d.rectangle((width - FRAME, 0, width - 1, GAP - 1), fill=theme.frame)
    return out
