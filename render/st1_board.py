"""The Schotten Totten board: nine stones in a row, each player's cards on their side.

Layout, top to bottom: header (title and match score, or the result), the top player's
banner, their cards stacked upwards from the stones, the stones, the bottom player's cards
stacked downwards, their banner, then the last move, the decks and the discard pile.

A claimed stone moves towards its owner, as on a real table, takes the owner's seat colour
and names them and the winning formation; the winner's cards are framed and the loser's
dimmed. The viewer, when there is one, sits at the bottom.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.api import VARIANTS
from engine.cards import AnyCard
from engine.st1.view import StoneView, View
from render import text
from render.frame import (
    BANNER_H,
    HEADER_H,
    RESULT_H,
    Banner,
    Column,
    banner,
    canvas,
    chip_rows,
    draw_chips,
    header,
    last_move_line,
    ring,
    side,
    tag,
)
from render.shapes import panel, paste
from render.theme import Theme
from render.words import LastMove, formation_label, last_move, phase_badge, plural, result_text

STONES = 9
COL_GAP = 14
STONE_H = 96
SHIFT = 14  # how far a claimed stone moves towards its owner
FOOTER_TOP = 12


def render(view: View, names: tuple[str, str], theme: Theme) -> Image.Image:
    card = theme.board_card
    col = card.w + COL_GAP
    m = theme.margin
    width = 2 * m + STONES * col
    slots = max(s.size for s in view.stones)
    side_h = slots * (card.h + theme.gap)
    row_h = STONE_H + 2 * SHIFT

    lm = last_move("st1", view.last_move)
    discard_rows = chip_rows(view.discard, width - 2 * m - 110, theme)
    show_discard = view.tactic_deck_size is not None or bool(view.discard)
    footer_h = FOOTER_TOP + 26 + m
    if show_discard:
        footer_h += 8 + max(1, len(discard_rows)) * (theme.chip.h + 6)

    result = result_text(view.outcome, names) if view.outcome is not None else None
    head_h = HEADER_H if result is None else RESULT_H
    height = head_h + 2 * (BANNER_H + 10) + 2 * side_h + row_h + footer_h
    img, d = canvas(width, height, theme)

    top = 1 if view.viewer == 0 else 0
    bottom = 1 - top
    y = header(
        img,
        d,
        theme,
        title=VARIANTS.get(view.variant, "Schotten Totten"),
        info=_match_info(view, names, theme),
        result=result,
    )
    banner(img, d, theme, y, _banner(view, top, names, theme))
    y += BANNER_H + 10
    row_top = y + side_h
    row_bottom = row_top + row_h
    banner(img, d, theme, row_bottom + side_h + 10, _banner(view, bottom, names, theme))

    for i, stone in enumerate(view.stones):
        cx = m + i * col + col / 2
        _stone(img, d, theme, stone, cx, row_top, row_bottom, top, names, lm)

    fy = row_bottom + side_h + 10 + BANNER_H + FOOTER_TOP
    _footer(img, d, theme, view, names, lm, fy, discard_rows if show_discard else None)
    return img


def _match_info(view: View, names: tuple[str, str], theme: Theme) -> str:
    # Every game is played as a match; a match of one round needs no score line.
    if view.match is None or view.match.length == "one round":
        return ""
    a, b = view.match.scores
    n0, n1 = (text.name(n, theme, theme.label_size, 220, strong=False) for n in names)
    return f"Match ({view.match.length}), round {view.match.round}   ·   {n0} {a} – {b} {n1}"


def _banner(view: View, seat: int, names: tuple[str, str], theme: Theme) -> Banner:
    facts = [plural(view.stones_held[seat], "stone"), f"{view.hand_sizes[seat]} in hand"]
    if view.tactic_deck_size is not None:
        facts.append(f"{view.tactics_played[seat]} tactics played")
    if view.match is not None and view.match.length != "one round":
        facts.append(plural(view.match.scores[seat], "point"))
    deciding = view.to_decide if view.to_decide is not None else view.turn
    if view.outcome is not None:
        badge = "WINNER" if view.outcome.winner == seat else None
        active = False
    else:
        active = deciding == seat
        badge = phase_badge(view.phase) if active else None
    return Banner(names[seat], None, facts, badge, theme.seat[seat], active)


def _stone(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    stone: StoneView,
    cx: float,
    row_top: int,
    row_bottom: int,
    top: int,
    names: tuple[str, str],
    lm: LastMove | None,
) -> None:
    card = theme.board_card
    owner = stone.claimed_by
    column = Column(cx - card.w / 2, row_top, row_bottom)
    for seat in (0, 1):
        # On a claimed stone: the winner's formation framed in their colour, the loser's
        # cards dimmed, and every wild card showing the card it became (RULINGS ST1-11).
        judged = stone.won_with if owner == seat else stone.lost_against
        boxes = side(
            img,
            d,
            theme,
            column,
            stone.sides[seat],
            up=seat == top,
            slots=stone.size if owner is None else 0,
            game="st1",
            wilds=judged.wild_values if owner is not None and judged is not None else {},
            dim=owner is not None and owner != seat,
            last=_marked(lm, stone.number, seat),
        )
        if owner == seat and boxes:
            frame = (
                column.x,
                min(b[1] for b in boxes),
                column.x + card.w,
                max(b[3] for b in boxes),
            )
            ring(img, frame, theme.seat[seat], 3, theme)

    mid = (row_top + row_bottom) / 2
    if owner is not None:
        mid += -SHIFT if owner == top else SHIFT
    box = (column.x, mid - STONE_H / 2, column.x + card.w, mid + STONE_H / 2)
    _stone_face(img, d, theme, stone, box, names)
    if lm is not None and stone.number in lm.places and not _marked(lm, stone.number, None):
        ring(img, box, theme.highlight, 3, theme)
        tag(img, d, theme, (box[2] - 4, box[1] - 2), "LAST", fill=theme.highlight)


def _marked(lm: LastMove | None, place: int, seat: int | None) -> frozenset[str]:
    """Cards the last move put on this stone (on `seat`'s side, or either side if None)."""
    if lm is None:
        return frozenset()
    return frozenset(c for p, s, c in lm.cards if p == place and seat in (None, s))


def _stone_face(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    stone: StoneView,
    box: tuple[float, float, float, float],
    names: tuple[str, str],
) -> None:
    """The stone: its number and combat modes; once claimed, the owner's colour, their name
    and the winning formation."""
    x0, y0, x1, _ = box
    w = round(x1 - x0)
    cx = (x0 + x1) / 2
    owner = stone.claimed_by
    if owner is None:
        stone_panel = panel(w, STONE_H, 14, theme.stone, theme.stone_line, 2, theme.supersample)
        paste(img, stone_panel, (x0, y0))
        fn = text.bold(theme, 34)
        if not stone.modes:
            d.text((cx, y0 + STONE_H / 2), str(stone.number), font=fn, fill=theme.text, anchor="mm")
            return
        d.text((cx, y0 + 26), str(stone.number), font=fn, fill=theme.text, anchor="mm")
        yy = y0 + 58 if len(stone.modes) == 1 else y0 + 52
        for mode in stone.modes:
            _mode_label(img, d, theme, cx, yy, mode.kind.title)
            yy += 22
        return
    ink = theme.text_dark
    paste(img, panel(w, STONE_H, 14, theme.seat[owner], ink, 2, theme.supersample), (x0, y0))
    d.text((cx, y0 + 15), str(stone.number), font=text.bold(theme, 22), fill=ink, anchor="mm")
    f_who, who = text.shrink_to_fit(names[owner], theme, (17, 15, 13), w - 10)
    d.text((cx, y0 + 39), who, font=f_who, fill=ink, anchor="mm")
    if stone.won_with is not None:
        fl = text.regular(theme, 15)
        label = text.fit(formation_label(stone.won_with, short=True), fl, w - 8)
        d.text((cx, y0 + 61), label, font=fl, fill=ink, anchor="mm")
    if stone.modes:
        fm = text.bold(theme, 12)
        modes = text.fit(" + ".join(m.kind.title for m in stone.modes), fm, w - 10)
        d.text((cx, y0 + 81), modes, font=fm, fill=ink, anchor="mm")


def _mode_label(
    img: Image.Image, d: ImageDraw.ImageDraw, theme: Theme, cx: float, cy: float, label: str
) -> None:
    """A combat mode on a stone, as a small tactic-card label that fits the stone."""
    room = theme.board_card.w - 6
    f, shown = text.shrink_to_fit(label, theme, (13, 12, 11), room - 10)
    w = round(f.getlength(shown)) + 10
    paste(
        img,
        panel(w, 20, 6, theme.tactic_fill, theme.tactic_gold, 1, theme.supersample),
        (cx - w / 2, cy - 10),
    )
    d.text((cx, cy), shown, font=f, fill=theme.tactic_text, anchor="mm")


def _footer(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    view: View,
    names: tuple[str, str],
    lm: LastMove | None,
    y: int,
    discard_rows: list[list[AnyCard]] | None,
) -> None:
    """Last move and decks on one line; the discard pile (Tactics) below."""
    m = theme.margin
    fr = text.regular(theme, theme.label_size)
    decks = f"Clan deck: {view.deck_size}"
    if view.tactic_deck_size is not None:
        decks += f"   ·   Tactic deck: {view.tactic_deck_size}"
    d.text((img.width - m, y + 12), decks, font=fr, fill=theme.text, anchor="rm")
    room = img.width - 3 * m - round(fr.getlength(decks))
    last_move_line(d, theme, (m, y + 12), names, view.last_move, lm, room)
    if discard_rows is None:
        return
    y += 34
    d.text((m, y + theme.chip.h / 2), "Discard:", font=fr, fill=theme.text_muted, anchor="lm")
    x0 = m + round(fr.getlength("Discard: ")) + 6
    if not discard_rows:
        d.text((x0, y + theme.chip.h / 2), "empty", font=fr, fill=theme.text_muted, anchor="lm")
        return
    marked = draw_chips(
        img, theme, discard_rows, (x0, y), highlight=lm.discarded if lm else frozenset()
    )
    for b in marked[-1:]:
        ring(img, b, theme.highlight, 2, theme)
