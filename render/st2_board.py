"""The Schotten Totten 2 board: the seven wall tiles, the Defender above, the Attacker below.

The Attacker sits at the bottom, so that tiles read 1 to 7 from left to right as the Attacker
sees them (RULINGS: wall tiles). Each tile shows its number, the gate, its current side
(intact, or damaged: darker, hatched and labelled) and what it needs: cards per side, the
formations considered, "lower sum wins". Cards stack outwards from the wall, empty places
are outlined, and a complete side is captioned with its formation as it would be judged now
(wild cards with their best values). Below: the last move, the decks and the public discard
pile, grouped by colour.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.api import VARIANTS
from engine.cards import AnyCard
from engine.formations import Formation
from engine.st2.view import TileView, View
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
from render.shapes import hatch, panel, paste
from render.theme import Theme
from render.words import LastMove, formation_label, last_move, phase_badge, plural, result_text

TILES = 7
COL_GAP = 46
TILE_H = 124
MAX_CARDS = 4
DISCARD_LABEL = "Discard pile:"
CAPTION_H = 26  # a line at the outer end of a side for its formation


def render(view: View, names: tuple[str, str], theme: Theme) -> Image.Image:
    card = theme.board_card
    col = card.w + COL_GAP
    m = theme.margin
    width = 2 * m + TILES * col
    side_h = MAX_CARDS * (card.h + theme.gap) + CAPTION_H
    row_h = TILE_H + 16

    lm = last_move("st2", view.last_move)
    label_w = round(text.regular(theme, theme.label_size).getlength(DISCARD_LABEL + " ")) + 6
    rows = chip_rows(view.discard, width - 2 * m - label_w, theme, groups=True)
    footer_h = 12 + 26 + 8 + max(1, len(rows)) * (theme.chip.h + 6) + m

    result = result_text(view.outcome, names) if view.outcome is not None else None
    height = (
        (HEADER_H if result is None else RESULT_H)
        + 2 * (BANNER_H + 10)
        + 2 * side_h
        + row_h
        + footer_h
    )
    img, d = canvas(width, height, theme)

    a, dfd = view.attacker, view.defender
    y = header(
        img,
        d,
        theme,
        title=VARIANTS.get(view.variant, "Schotten Totten 2"),
        info=_revenge_info(view, names, theme),
        result=result,
    )
    banner(img, d, theme, y, _banner(view, dfd, names, theme))
    y += BANNER_H + 10
    row_top = y + side_h
    row_bottom = row_top + row_h
    banner(img, d, theme, row_bottom + side_h + 10, _banner(view, a, names, theme))

    for i, tile in enumerate(view.tiles):
        cx = m + i * col + col / 2
        _tile(img, d, theme, tile, cx, row_top, row_bottom, dfd, lm)

    fy = row_bottom + side_h + 10 + BANNER_H + 12
    _footer(img, d, theme, view, names, lm, fy, rows, label_w)
    return img


def _revenge_info(view: View, names: tuple[str, str], theme: Theme) -> str:
    if view.revenge is None:
        return ""
    info = f"Revenge match, game {view.revenge.game} of 2"
    w = view.revenge.first_winner
    if view.revenge.game == 2 and w is not None:
        info += (
            f"   ·   {text.name(names[w], theme, theme.label_size, 220, strong=False)} won game 1"
        )
    return info


def _banner(view: View, seat: int, names: tuple[str, str], theme: Theme) -> Banner:
    facts = [f"{view.hand_sizes[seat]} in hand"]
    if seat == view.attacker:
        role = "ATTACKER"
        facts.append(f"{view.damaged_tiles} of 4 tiles damaged")
    else:
        role = "DEFENDER"
        facts.append(f"{plural(view.cauldrons, 'oil cauldron')} left")
    if view.tactic_deck_size is not None:
        facts.append(f"{view.tactics_played[seat]} tactics played")
    deciding = view.to_decide if view.to_decide is not None else view.turn
    if view.outcome is not None:
        badge = "WINNER" if view.outcome.winner == seat else None
        active = False
    else:
        active = deciding == seat
        badge = phase_badge(view.phase) if active else None
    return Banner(names[seat], role, facts, badge, theme.seat[seat], active, view.actions[seat])


def _tile(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    tile: TileView,
    cx: float,
    row_top: int,
    row_bottom: int,
    top: int,
    lm: LastMove | None,
) -> None:
    card = theme.board_card
    s = theme.supersample
    tw = card.w + 24
    x0, y0 = cx - tw / 2, (row_top + row_bottom) / 2 - TILE_H / 2
    box = (x0, y0, x0 + tw, y0 + TILE_H)
    column = Column(cx - card.w / 2, row_top, row_bottom)
    marked = frozenset() if lm is None else lm.cards
    for seat in (0, 1):
        cards = tile.sides[seat]
        formation = tile.formations[seat]
        up = seat == top
        side(
            img,
            d,
            theme,
            column,
            cards,
            up=up,
            slots=tile.size,
            game="st2",
            wilds=formation.wild_values if formation is not None else {},
            dim=False,
            last=frozenset(c for p, s_, c in marked if p == tile.number and s_ == seat),
        )
        if formation is not None:
            # The caption sits just beyond the last card, away from the wall.
            edge = column.card_box(theme, len(cards) - 1, up=up)
            yc = edge[1] - CAPTION_H / 2 - 1 if up else edge[3] + CAPTION_H / 2 + 1
            first = tile.first_complete == seat and all(tile.formations)
            _caption(d, theme, cx, yc, formation, first)

    fill = theme.damaged if tile.damaged else theme.stone
    line = theme.damaged_line if tile.damaged else theme.stone_line
    paste(img, panel(tw, TILE_H, 10, fill, line, 2, s), (x0, y0))
    if tile.damaged:
        stripes = hatch(tw - 8, TILE_H - 8, theme.damaged_line + "70", 12, 2)
        paste(img, stripes, (x0 + 4, y0 + 4))
    fn = text.bold(theme, 30)
    num_x = cx - 24 if tile.is_gate else cx
    d.text((num_x, y0 + 24), str(tile.number), font=fn, fill=theme.text, anchor="mm")
    if tile.is_gate:
        fg = text.bold(theme, theme.small_size - 1)
        paste(img, panel(50, 22, 6, theme.gate, scale=s), (cx + 2, y0 + 13))
        d.text((cx + 27, y0 + 24), "GATE", font=fg, fill=theme.text_dark, anchor="mm")
    fs = text.bold(theme, theme.small_size - 2)
    state = "DAMAGED" if tile.damaged else "INTACT"
    sw = round(fs.getlength(state)) + 12
    state_fill = theme.damaged_line if tile.damaged else theme.surface
    paste(img, panel(sw, 18, 5, state_fill, scale=s), (cx - sw / 2, y0 + 43))
    d.text(
        (cx, y0 + 52),
        state,
        font=fs,
        fill=theme.text_dark if tile.damaged else theme.text_muted,
        anchor="mm",
    )
    fr = text.bold(theme, 15)
    lines = [plural(tile.size, "card"), *text.wrap(tile.rules_text, fr, tw - 12, 2)]
    yy = y0 + 78 if len(lines) == 2 else y0 + 72
    for ln in lines:
        d.text((cx, yy), ln, font=fr, fill=theme.text, anchor="mm")
        yy += 18
    if (
        lm is not None
        and tile.number in lm.places
        and not any(p == tile.number for p, _, _ in marked)
    ):
        ring(img, box, theme.highlight, 3, theme)
        tag(img, d, theme, (box[2] - 4, box[1] - 2), "LAST", fill=theme.highlight)


def _caption(
    d: ImageDraw.ImageDraw, theme: Theme, cx: float, cy: float, f: Formation, first: bool
) -> None:
    label = formation_label(f) + ("  (first)" if first else "")
    fl = text.regular(theme, 15)
    d.text(
        (cx, cy),
        text.fit(label, fl, theme.board_card.w + COL_GAP - 6),
        font=fl,
        fill=theme.text_muted,
        anchor="mm",
    )


def _footer(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    theme: Theme,
    view: View,
    names: tuple[str, str],
    lm: LastMove | None,
    y: int,
    rows: list[list[AnyCard]],
    label_w: int,
) -> None:
    m = theme.margin
    fr = text.regular(theme, theme.label_size)
    decks = f"Siege deck: {view.deck_size}"
    if view.tactic_deck_size is not None:
        decks += f"   ·   Tactic deck: {view.tactic_deck_size}"
    d.text((img.width - m, y + 12), decks, font=fr, fill=theme.text, anchor="rm")
    room = img.width - 3 * m - round(fr.getlength(decks))
    last_move_line(d, theme, (m, y + 12), names, view.last_move, lm, room)
    y += 34
    d.text((m, y + theme.chip.h / 2), DISCARD_LABEL, font=fr, fill=theme.text_muted, anchor="lm")
    x0 = m + label_w
    if not rows:
        d.text((x0, y + theme.chip.h / 2), "empty", font=fr, fill=theme.text_muted, anchor="lm")
        return
    marked = draw_chips(
        img, theme, rows, (x0, y), groups=True, highlight=lm.discarded if lm else frozenset()
    )
    for b in marked[-1:]:
        ring(img, b, theme.highlight, 2, theme)
