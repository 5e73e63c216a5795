"""A player's hand, for their DM: their cards in a stable order, large, with the cards that
can be played now raised and the others lowered, dimmed and hatched (so the difference does
not depend on colour), and a line that says whose turn it is and what to do."""

from __future__ import annotations

from PIL import Image

from engine.api import VARIANTS
from engine.st1.view import View as St1View
from engine.st2.view import View as St2View
from render import text
from render.cards import HAND, card_sprite
from render.frame import canvas
from render.shapes import panel, paste
from render.theme import Theme
from render.words import plural

LIFT = 14  # playable cards stand this much higher than the others
HEAD_H = 100
MIN_W = 760

# What the player the game waits for is asked to do, by phase; cards matter in these phases.
_CARD_PHASES = {"play", "prepare", "recruit-return", "exchange"}
_ASKS = {
    "claim": "claim stones, or end your turn",
    "draw": "choose a deck to draw from",
    "recruit-draw": "Recruiter: draw your next card",
    "after-play": "declare control of a tile, or end your turn",
}


def render(view: St1View | St2View, name: str | None, theme: Theme) -> Image.Image:
    if view.viewer is None or view.hand is None:
        raise ValueError("a hand needs a player's view (match.view(seat)), not a spectator's")
    card = theme.hand_card
    m = theme.margin
    gap = 12
    cards = view.hand
    n = max(len(cards), 1)
    width = max(MIN_W, 2 * m + n * card.w + (n - 1) * gap)
    foot_h = 40
    height = HEAD_H + LIFT + card.h + LIFT + foot_h + m
    img, d = canvas(width, height, theme)

    deciding = view.outcome is None and view.to_decide == view.viewer and bool(view.legal_moves)
    marks = deciding and view.phase in _CARD_PHASES
    playable = view.playable() if marks else frozenset()

    who = text.name(name or f"Player {view.viewer + 1}", theme, theme.title_size, width // 2)
    fb = text.bold(theme, theme.title_size)
    d.text((m, 30), f"{who}'s hand" if name else "Your hand", font=fb, fill=theme.text, anchor="lm")
    fr = text.regular(theme, theme.label_size)
    game = VARIANTS.get(view.variant, "")
    if isinstance(view, St2View):
        game += "   ·   " + ("Attacker" if view.attacker == view.viewer else "Defender")
    d.text((width - m, 30), text.fit(game, fr, width // 2 - m), font=fr, fill=theme.text_muted, anchor="rm")
    status, waiting = _status(view, deciding, playable)
    fs = text.bold(theme, theme.label_size)
    sw = round(fs.getlength(status)) + 24
    fill = theme.surface if waiting else theme.turn_badge
    ink = theme.text if waiting else theme.text_dark
    paste(img, panel(min(sw, width - 2 * m), 30, 8, fill, scale=theme.supersample), (m, 50))
    d.text((m + 12, 65), text.fit(status, fs, width - 2 * m - 24), font=fs, fill=ink, anchor="lm")

    x = (width - (len(cards) * card.w + (len(cards) - 1) * gap)) // 2
    top = HEAD_H + LIFT
    for c in cards:
        can = c in playable
        sprite = card_sprite(c, HAND, theme, game=view.game, dim=marks and not can)
        y = top - LIFT if marks and can else top + (LIFT if marks else 0)
        paste(img, sprite, (x, y))
        x += card.w + gap
    if not cards:
        d.text((width / 2, top + card.h / 2), "no cards", font=fr, fill=theme.text_muted, anchor="mm")

    foot = [_legend(view, marks, playable)]
    if view.tactic_deck_size is not None:
        mine = view.tactics_played[view.viewer]
        theirs = view.tactics_played[1 - view.viewer]
        foot.append(f"Tactic cards played: you {mine}, opponent {theirs}")
    line = "   ·   ".join(f for f in foot if f)
    d.text((width / 2, height - m - foot_h / 2 + 6), text.fit(line, fr, width - 2 * m), font=fr, fill=theme.text_muted, anchor="mm")
    return img


def _status(view: St1View | St2View, deciding: bool, playable: frozenset) -> tuple[str, bool]:
    """The line under the title, and whether it says the player is waiting."""
    if view.outcome is not None:
        w = view.outcome.winner
        return ("Game over: drawn" if w is None else "Game over: you won" if w == view.viewer else "Game over: you lost"), True
    if not deciding:
        return "Waiting for your opponent", True
    if view.phase in _ASKS:
        return "Your turn: " + _ASKS[view.phase], False
    if view.phase == "recruit-return":
        return "Recruiter: choose 2 cards to put back", False
    if view.phase == "exchange":
        return "Exchange: choose 3 cards to give", False
    k, n = len(playable), len(view.hand or ())
    if k == 0:
        return "Your turn: no card can be played now", False
    if k == n:
        return "Your turn: every card can be played", False
    return f"Your turn: {plural(k, 'card')} of {n} can be played", False


def _legend(view: St1View | St2View, marks: bool, playable: frozenset) -> str:
    if marks and len(playable) < len(view.hand or ()):
        return "Raised cards can be played now; dimmed ones cannot"
    return ""
