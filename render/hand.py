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
from lang import N_, _, ngettext, pgettext
from render import text
from render.cards import HAND, card_sprite
from render.frame import block, canvas, finish
from render.shapes import panel, paste
from render.theme import Theme
from render.words import engine_words

LIFT = 12  # playable cards stand this much higher than the others
GAP = 12
ROW_GAP = 2 * LIFT + 14
PER_ROW = 4  # the hand wraps after four cards, in its order, so that it stays phone-sized

# What the player the game waits for is asked to do, by phase; cards matter in these phases.
_CARD_PHASES = {"play", "prepare", "recruit-return", "exchange"}
_ASKS = {
    "claim": N_("Your turn: claim stones, or end your turn"),
    "draw": N_("Your turn: choose a deck to draw from"),
    "recruit-draw": N_("Your turn: Recruiter: draw your next card"),
    "after-play": N_("Your turn: declare control of a tile, or end your turn"),
}


def render(view: St1View | St2View, name: str | None, theme: Theme) -> Image.Image:
    if view.viewer is None or view.hand is None:
        raise ValueError("a hand needs a player's view (match.view(seat)), not a spectator's")
    card = theme.hand_card
    m = theme.margin + 4
    cards = view.hand
    width = 2 * m + PER_ROW * card.w + (PER_ROW - 1) * GAP
    places = card_places(view, theme)
    deciding = _deciding(view)
    marks = any(p.dim for p in places) or any(p.raised for p in places)
    playable = frozenset(p.card for p in places if p.raised)
    foot = [_legend(view, marks, playable)]
    recruited = set(getattr(view, "recruited", ()))
    if recruited:
        foot.append(_("NEW: drawn with the Recruiter"))
    if view.tactic_deck_size is not None:
        mine = view.tactics_played[view.viewer]
        theirs = view.tactics_played[1 - view.viewer]
        foot.append(
            _("Tactic cards played: you {mine}, your opponent {theirs}").format(
                mine=mine, theirs=theirs
            )
        )
    foot = [line for line in foot if line]
    img, d = canvas(width, 2000, theme)

    # TRANSLATORS: the title of a player's hand, sent to them privately.
    title = _("{player}'s hand").format(player=name) if name else _("Your hand")
    y = 10 + round(
        block(
            d,
            theme,
            (m, 10),
            title,
            (theme.title_size, 26, 22),
            width - 2 * m,
            strong=True,
            max_lines=2,
        )
    )
    game = engine_words(VARIANTS.get(view.variant, ""))
    if isinstance(view, St2View):
        if view.attacker == view.viewer:
            game = _("{variant}  ·  Attacker").format(variant=game)
        else:
            game = _("{variant}  ·  Defender").format(variant=game)
    y += (
        round(
            block(
                d,
                theme,
                (m, y),
                game,
                (theme.label_size,),
                width - 2 * m,
                fill=theme.text_muted,
                max_lines=2,
            )
        )
        + 6
    )
    status, waiting = _status(view, deciding, playable)
    fs, rows = text.lines(status, theme, (theme.label_size,), width - 2 * m - 24, 2, strong=True)
    sw = round(max(fs.getlength(r) for r in rows)) + 24
    sh = len(rows) * 26 + 8
    fill = theme.surface if waiting else theme.turn_badge
    ink = theme.text if waiting else theme.text_dark
    paste(img, panel(sw, sh, 8, fill, scale=theme.supersample), (m, y))
    for i, row in enumerate(rows):
        room = (m, y + 4 + 26 * i, m + sw, y + 4 + 26 * (i + 1))
        text.draw(d, (m + 12, y + 4 + 13 + 26 * i), row, fs, ink, "lm", room=room)
    y += sh + 8

    top = y + LIFT
    for p in places:
        sprite = card_sprite(p.card, HAND, theme, game=view.game, dim=p.dim)
        paste(img, sprite, (m + p.x, top + p.y + p.dy))
    # Cards the Recruiter just drew carry a tag on their lower edge, so the player sees
    # which ones are new before choosing two to put back.
    tag_font = text.bold(theme, theme.small_size)
    # TRANSLATORS: a tag on the cards the Recruiter just drew, under 10 letters.
    new = pgettext("hand tag", "NEW")
    for p in places:
        if p.card in recruited:
            tw, th = round(tag_font.getlength(new)) + 16, theme.small_size + 10
            tx = m + p.x + (card.w - tw) // 2
            ty = top + p.y + p.dy + card.h - th // 2 - 4
            paste(img, panel(tw, th, 6, theme.turn_badge, scale=theme.supersample), (tx, ty))
            room = (tx, ty, tx + tw, ty + th)
            text.draw(
                d, (tx + tw / 2, ty + th / 2), new, tag_font, theme.text_dark, "mm", room=room
            )
    fr = text.regular(theme, theme.label_size)
    if not cards:
        none = pgettext("hand", "no cards")
        text.draw(d, (width / 2, top + card.h / 2), none, fr, theme.text_muted, "mm")
    n_rows = max(1, -(-len(cards) // PER_ROW))
    y = top + n_rows * card.h + (n_rows - 1) * ROW_GAP + LIFT + 8
    for line in foot:
        y += round(
            block(
                d,
                theme,
                (width / 2, y),
                line,
                (theme.label_size,),
                width - 2 * m,
                fill=theme.text_muted,
                anchor="m",
                max_lines=3,
            )
        )
    return finish(img, y + m - 4, theme)


@dataclass(frozen=True, slots=True)
class CardPlace:
    """Where a card of the hand goes: `x` from the first card, `dy` up (-) or down (+) from
    the middle line, and whether it is dimmed."""

    card: AnyCard
    x: int
    dy: int
    raised: bool
    dim: bool
    y: int = 0  # the top of its row, from the first row's


def _deciding(view: St1View | St2View) -> bool:
    return view.outcome is None and view.to_decide == view.viewer and bool(view.legal_moves)


def card_places(view: St1View | St2View, theme: Theme) -> list[CardPlace]:
    """The hand in the view's stable order, four to a row. When the player must choose a
    card, the cards a legal move plays (`view.playable()`) stand raised and the others sit
    lower, dimmed and hatched; otherwise all stand level."""
    marks = _deciding(view) and view.phase in _CARD_PHASES
    playable = view.playable() if marks else frozenset()
    places = []
    for i, c in enumerate(view.hand or ()):
        can = c in playable
        dy = 0 if not marks else -LIFT if can else LIFT
        col, row = i % PER_ROW, i // PER_ROW
        places.append(
            CardPlace(
                c,
                col * (theme.hand_card.w + GAP),
                dy,
                marks and can,
                marks and not can,
                row * (theme.hand_card.h + ROW_GAP),
            )
        )
    return places


def _status(view: St1View | St2View, deciding: bool, playable: frozenset) -> tuple[str, bool]:
    """The line under the title, and whether it says the player is waiting."""
    if view.outcome is not None:
        w = view.outcome.winner
        if w is None:
            return _("Game over: drawn"), True
        return (_("Game over: you won") if w == view.viewer else _("Game over: you lost")), True
    if not deciding:
        return _("Waiting for your opponent"), True
    if view.phase in _ASKS:
        return _(_ASKS[view.phase]), False
    if view.phase == "recruit-return":
        return _("Recruiter: choose 2 cards to put back"), False
    if view.phase == "exchange":
        return _("Exchange: choose 3 cards to give"), False
    k, n = len(playable), len(view.hand or ())
    if k == 0:
        return _("Your turn: no card can be played now"), False
    if k == n:
        return _("Your turn: every card can be played"), False
    playing = ngettext(
        "Your turn: {count} card of {total} can be played",
        "Your turn: {count} cards of {total} can be played",
        k,
    )
    return playing.format(count=k, total=n), False


def _legend(view: St1View | St2View, marks: bool, playable: frozenset) -> str:
    if marks and len(playable) < len(view.hand or ()):
        return _("Raised cards can be played now; dimmed ones cannot")
    return ""
