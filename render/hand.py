"""A player's hand, for their DM: their cards in a stable order, large, with the cards that
can be played now raised and the others lowered, dimmed and hatched (so the difference does
not depend on colour), and a line that says whose turn it is and what to do."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from engine.api import VARIANTS
from engine.cards import AnyCard
from engine.st1.view import View as St1View
from engine.st2.view import View as St2View
from render import text
from render.cards import HAND, card_sprite
from render.frame import canvas
from render.shapes import panel, paste
from render.theme import Theme
from render.words import plural

LIFT = 14  # playable cards stand this much higher than the others
GAP = 12
FOOT_LINE = 30
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
    cards = view.hand
    n = max(len(cards), 1)
    width = max(MIN_W, 2 * m + n * card.w + (n - 1) * GAP)
    places = card_places(view, theme)
    deciding = _deciding(view)
    marks = any(p.dim for p in places) or any(p.raised for p in places)
    playable = frozenset(p.card for p in places if p.raised)
    foot = [_legend(view, marks, playable)]
    if view.tactic_deck_size is not None:
        mine = view.tactics_played[view.viewer]
        theirs = view.tactics_played[1 - view.viewer]
        foot.append(f"Tactic cards played: you {mine}, your opponent {theirs}")
    foot = [line for line in foot if line]
    height = HEAD_H + LIFT + card.h + LIFT + FOOT_LINE * len(foot) + m
    img, d = canvas(width, height, theme)

    who = text.name(name or f"Player {view.viewer + 1}", theme, theme.title_size, width // 2)
    fb = text.bold(theme, theme.title_size)
    d.text((m, 30), f"{who}'s hand" if name else "Your hand", font=fb, fill=theme.text, anchor="lm")
    fr = text.regular(theme, theme.label_size)
    game = VARIANTS.get(view.variant, "")
    if isinstance(view, St2View):
        game += "   ·   " + ("Attacker" if view.attacker == view.viewer else "Defender")
    d.text(
        (width - m, 30),
        text.fit(game, fr, width // 2 - m),
        font=fr,
        fill=theme.text_muted,
        anchor="rm",
    )
    status, waiting = _status(view, deciding, playable)
    fs = text.bold(theme, theme.label_size)
    sw = round(fs.getlength(status)) + 24
    fill = theme.surface if waiting else theme.turn_badge
    ink = theme.text if waiting else theme.text_dark
    paste(img, panel(min(sw, width - 2 * m), 30, 8, fill, scale=theme.supersample), (m, 50))
    d.text((m + 12, 65), text.fit(status, fs, width - 2 * m - 24), font=fs, fill=ink, anchor="lm")

    x0 = (width - (len(cards) * card.w + (len(cards) - 1) * GAP)) // 2
    top = HEAD_H + LIFT
    for p in places:
        sprite = card_sprite(p.card, HAND, theme, game=view.game, dim=p.dim)
        paste(img, sprite, (x0 + p.x, top + p.dy))
    if not cards:
        d.text(
            (width / 2, top + card.h / 2), "no cards", font=fr, fill=theme.text_muted, anchor="mm"
        )

    y = HEAD_H + LIFT + card.h + LIFT + FOOT_LINE // 2 - 4
    for line in foot:
        d.text(
            (width / 2, y),
            text.fit(line, fr, width - 2 * m),
            font=fr,
            fill=theme.text_muted,
            anchor="mm",
        )
        y += FOOT_LINE
    return img


@dataclass(frozen=True, slots=True)
class CardPlace:
    """Where a card of the hand goes: `x` from the first card, `dy` up (-) or down (+) from
    the middle line, and whether it is dimmed."""

    card: AnyCard
    x: int
    dy: int
    raised: bool
    dim: bool


def _deciding(view: St1View | St2View) -> bool:
    return view.outcome is None and view.to_decide == view.viewer and bool(view.legal_moves)


def card_places(view: St1View | St2View, theme: Theme) -> list[CardPlace]:
    """The hand in the view's stable order. When the player must choose a card, the cards a
    legal move plays (`view.playable()`) stand raised and the others sit lower, dimmed and
    hatched; otherwise all stand level."""
    marks = _deciding(view) and view.phase in _CARD_PHASES
    playable = view.playable() if marks else frozenset()
    places = []
    for i, c in enumerate(view.hand or ()):
        can = c in playable
        dy = 0 if not marks else -LIFT if can else LIFT
        places.append(
            CardPlace(c, i * (theme.hand_card.w + GAP), dy, marks and can, marks and not can)
        )
    return places


def _status(view: St1View | St2View, deciding: bool, playable: frozenset) -> tuple[str, bool]:
    """The line under the title, and whether it says the player is waiting."""
    if view.outcome is not None:
        w = view.outcome.winner
        return (
            "Game over: drawn"
            if w is None
            else "Game over: you won"
            if w == view.viewer
            else "Game over: you lost"
        ), True
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
