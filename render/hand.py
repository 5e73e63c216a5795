"""A player's hand, for their DM: their cards in a stable order, large, with the cards that
can be played now raised and the others lowered, dimmed and hatched (so the difference does
not depend on colour), and a line that says whose turn it is and what to do."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.api import VARIANTS
from engine.cards import AnyCard
from engine.outcome import Termination
from engine.st1.view import View as St1View
from engine.st2.view import View as St2View
from lang import N_, _, ngettext, pgettext
from lang import fill as fill_in  # `fill` is a colour below
from render import text, turn
from render.cards import HAND, card_sprite
from render.frame import block, canvas, finish, tall_enough
from render.shapes import panel, paste
from render.theme import Theme
from render.words import engine_words

LIFT = 12  # playable cards stand this much higher than the others
GAP = 12
ROW_GAP = 2 * LIFT + 14
PER_ROW = 4  # the hand wraps after four cards, in its order, so that it stays phone-sized
STATUS_ROW = 26  # the height of a line of the status badge
FIRST_HEIGHT = 900  # a hand of two rows of cards is 600-750 tall at the theme's sizes...
MAX_HEIGHT = 2000  # ...and never this tall

# What the player the game waits for is asked to do, by phase; cards matter in these phases.
_CARD_PHASES = {"play", "prepare", "recruit-return", "exchange"}
_ASKS = {
    "claim": N_("Your turn: claim stones, or end your turn"),
    "draw": N_("Your turn: choose a deck to draw from"),
    "recruit-draw": N_("Your turn: Recruiter: draw your next card"),
    "after-play": N_("Your turn: declare control of a tile, or end your turn"),
}


def natural_width(theme: Theme) -> int:
    """The hand's width at the theme's sizes."""
    return 2 * (theme.margin + 4) + PER_ROW * theme.hand_card.w + (PER_ROW - 1) * GAP


@dataclass(frozen=True, slots=True)
class Layout:
    """The hand's sizes, the theme's enlarged by `scale` (1 for the hand alone; about 1.2
    under a board, drawn at the board's width rather than enlarged afterwards, which is
    sharper and a fifth of the time)."""

    theme: Theme
    scale: float

    def px(self, n: float) -> int:
        return round(n * self.scale)

    @property
    def lift(self) -> int:
        return self.px(LIFT)

    @property
    def gap(self) -> int:
        return self.px(GAP)

    @property
    def row_gap(self) -> int:
        return self.px(ROW_GAP)


def layout(theme: Theme) -> Layout:
    """The sizes of the hand alone: the theme's."""
    return Layout(theme, 1.0)


def render(
    view: St1View | St2View, name: str | None, theme: Theme, width: int | None = None
) -> Image.Image:
    """The hand's picture at the theme's sizes; `width`: the compact hand under a board in
    the turn picture (render/turn.py), that wide."""
    if view.viewer is None or view.hand is None:
        raise ValueError("a hand needs a player's view (match.view(seat)), not a spectator's")
    # On a canvas as tall as a hand of two rows of cards needs, again on a taller one if not.
    if width is None:
        draw = lambda height: _draw(view, name, theme, None, height)  # noqa: E731
    else:
        draw = lambda height: _draw_compact(view, theme, width, height)  # noqa: E731
    img, y = tall_enough(draw, (FIRST_HEIGHT, MAX_HEIGHT))
    return finish(img, y, theme)


def _draw_compact(
    view: St1View | St2View, theme: Theme, width: int, height: int
) -> tuple[Image.Image, int]:
    """The hand under the board of a turn picture: what the player is asked, then their
    cards in a row, the ones that can be played raised (render/turn.py says why it is
    compact). No title: the board above names the game and the players."""
    assert view.hand is not None and view.viewer is not None
    img, d = canvas(width, height, theme)
    m = theme.margin
    cards = list(view.hand)
    deciding = _deciding(view)
    marks = deciding and view.phase in _CARD_PHASES
    playable = view.playable() if marks else frozenset()
    y = 6
    status, waiting = _status(view, deciding, frozenset(c for c in cards if c in playable))
    y = _status_badge(img, d, theme, (m, y), status, waiting, width - 2 * m) + 8

    size = turn.card_size(len(cards), width - 2 * m)
    k = turn.per_row(len(cards))
    row_w = k * size.w + (k - 1) * turn.CARD_GAP
    x0 = (width - row_w) // 2
    lift = LIFT if marks else 0
    recruited = set(getattr(view, "recruited", ()))
    tag_font = text.bold(theme, theme.small_size)
    # TRANSLATORS: a tag on the cards the Recruiter just drew, under 10 letters.
    new = pgettext("hand tag", "NEW")
    top = y + lift
    for i, c in enumerate(cards):
        can = c in playable
        dy = 0 if not marks else -lift if can else lift
        cx = x0 + (i % k) * (size.w + turn.CARD_GAP)
        cy = top + (i // k) * (size.h + 2 * lift + 10) + dy
        sprite = turn.card_sprite(c, size, theme, view.game, marks and not can)
        paste(img, sprite, (cx, cy))
        if c in recruited:
            # Within the card: in the regular weight if the bold one is too wide ("NOUVELLE").
            font = tag_font
            if font.getlength(new) + 8 > size.w:
                font = text.regular(theme, theme.small_size)
            tw, th = min(size.w, round(font.getlength(new)) + 12), theme.small_size + 8
            tx, ty = cx + (size.w - tw) // 2, cy + size.h - th - 4
            paste(img, panel(tw, th, 6, theme.turn_badge, scale=theme.supersample), (tx, ty))
            room = (tx, ty, tx + tw, ty + th)
            text.draw(d, (tx + tw / 2, ty + th / 2), new, font, theme.text_dark, "mm", room=room)
    if not cards:
        fr = text.regular(theme, theme.label_size)
        none = pgettext("hand", "no cards")
        text.draw(d, (width / 2, top + size.h / 2), none, fr, theme.text_muted, "mm")
    n_rows = max(1, -(-len(cards) // k))
    y = top + n_rows * size.h + (n_rows - 1) * (2 * lift + 10) + lift + 6
    foot = [_legend(view, marks, playable)]
    if recruited:
        foot.append(_("NEW: drawn with the Recruiter"))
    y = _foot(d, theme, y, [f for f in foot if f], width, m, theme.small_size, 2)
    return img, y + 6


def _status_badge(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    xy: tuple[int, int],
    status: str,
    waiting: bool,
    room: int,
    px: Callable[[float], int] = round,
) -> int:
    """The line that says whose turn it is, on a badge from `xy`; returns the y below it."""
    m, y = xy
    pad = px(12)
    fs, rows = text.lines(status, theme, (theme.label_size,), room - 2 * pad, 2, strong=True)
    row_h = px(STATUS_ROW)
    sw = round(max(fs.getlength(r) for r in rows)) + 2 * pad
    sh = len(rows) * row_h + px(8)
    fill = theme.surface if waiting else theme.turn_badge
    ink = theme.text if waiting else theme.text_dark
    paste(img, panel(sw, sh, px(8), fill, scale=theme.supersample), (m, y))
    for i, row in enumerate(rows):
        top_of_row = y + px(4) + row_h * i
        box = (m, top_of_row, m + sw, top_of_row + row_h)
        text.draw(d, (m + pad, top_of_row + row_h / 2), row, fs, ink, "lm", room=box)
    return y + sh


def _draw(
    view: St1View | St2View, name: str | None, theme: Theme, width: int | None, height: int
) -> tuple[Image.Image, int]:
    """The hand drawn on a canvas `height` tall (at the theme's sizes); returns it and the
    height it needs."""
    assert view.hand is not None and view.viewer is not None
    lay = layout(theme)
    base, theme = theme, lay.theme
    px = lay.px
    card = theme.hand_card
    cards = view.hand
    if width is None:
        width = natural_width(theme)
    # The cards centred (an enlarged hand's sizes are rounded, so its sides may differ by
    # a pixel from the margin's).
    m = (width - PER_ROW * card.w - (PER_ROW - 1) * lay.gap) // 2
    places = card_places(view, theme, lay)
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
    img, d = canvas(width, px(height), theme)

    # fill, not format: French elides "de" before a vowel ("Main d'Alice").
    # TRANSLATORS: the title of a player's hand, sent to them privately.
    title = fill_in(_("{player}'s hand"), player=name) if name else _("Your hand")
    y = px(10) + round(
        block(
            d,
            theme,
            (m, px(10)),
            title,
            (theme.title_size, px(26), px(22)),
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
    y += round(
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
    ) + px(6)
    status, waiting = _status(view, deciding, playable)
    y = _status_badge(img, d, theme, (m, y), status, waiting, width - 2 * m, px) + px(8)

    top = y + lay.lift
    for p in places:
        # The cards as the hand alone draws them, enlarged from their supersampled drawing.
        sprite = card_sprite(p.card, HAND, base, game=view.game, dim=p.dim, size=card)
        paste(img, sprite, (m + p.x, top + p.y + p.dy))
    # Cards the Recruiter just drew carry a tag on their lower edge, so the player sees
    # which ones are new before choosing two to put back.
    tag_font = text.bold(theme, theme.small_size)
    # TRANSLATORS: a tag on the cards the Recruiter just drew, under 10 letters.
    new = pgettext("hand tag", "NEW")
    for p in places:
        if p.card in recruited:
            tw, th = round(tag_font.getlength(new)) + px(16), theme.small_size + px(10)
            tx = m + p.x + (card.w - tw) // 2
            ty = top + p.y + p.dy + card.h - th // 2 - px(4)
            paste(img, panel(tw, th, px(6), theme.turn_badge, scale=theme.supersample), (tx, ty))
            room = (tx, ty, tx + tw, ty + th)
            text.draw(
                d, (tx + tw / 2, ty + th / 2), new, tag_font, theme.text_dark, "mm", room=room
            )
    fr = text.regular(theme, theme.label_size)
    if not cards:
        none = pgettext("hand", "no cards")
        text.draw(d, (width / 2, top + card.h / 2), none, fr, theme.text_muted, "mm")
    n_rows = max(1, -(-len(cards) // PER_ROW))
    y = top + n_rows * card.h + (n_rows - 1) * lay.row_gap + lay.lift + px(8)
    y = _foot(d, theme, y, foot, width, m, theme.label_size, 3)
    return img, y + theme.margin


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


def card_places(
    view: St1View | St2View, theme: Theme, lay: Layout | None = None
) -> list[CardPlace]:
    """The hand in the view's stable order, four to a row. When the player must choose a
    card, the cards a legal move plays (`view.playable()`) stand raised and the others sit
    lower, dimmed and hatched; otherwise all stand level. `lay`: an enlarged hand's sizes."""
    lay = lay or Layout(theme, 1.0)
    marks = _deciding(view) and view.phase in _CARD_PHASES
    playable = view.playable() if marks else frozenset()
    card = lay.theme.hand_card
    places = []
    for i, c in enumerate(view.hand or ()):
        can = c in playable
        dy = 0 if not marks else -lay.lift if can else lay.lift
        col, row = i % PER_ROW, i // PER_ROW
        places.append(
            CardPlace(
                c,
                col * (card.w + lay.gap),
                dy,
                marks and can,
                marks and not can,
                row * (card.h + lay.row_gap),
            )
        )
    return places


def _status(
    view: St1View | St2View, deciding: bool, playable: frozenset[AnyCard]
) -> tuple[str, bool]:
    """The line under the title, and whether it says the player is waiting."""
    if view.outcome is not None:
        w = view.outcome.winner
        if view.outcome.termination is Termination.ABORTED:
            return _("Game over: aborted"), True
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


def _legend(view: St1View | St2View, marks: bool, playable: frozenset[AnyCard]) -> str:
    if marks and len(playable) < len(view.hand or ()):
        return _("Raised cards can be played now; dimmed ones cannot")
    return ""


def _foot(
    d: ImageDraw.ImageDraw,
    theme: Theme,
    y: int,
    lines: list[str],
    width: int,
    margin: int,
    size: int,
    max_lines: int,
) -> int:
    """The muted lines under the cards, centred, each wrapped to `max_lines`; the y below."""
    for line in lines:
        y += round(
            block(
                d,
                theme,
                (width / 2, y),
                line,
                (size,),
                width - 2 * margin,
                fill=theme.text_muted,
                anchor="m",
                max_lines=max_lines,
            )
        )
    return y
