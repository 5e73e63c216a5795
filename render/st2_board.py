"""The Schotten Totten 2 board, laid out for a phone: one row per wall tile, the Attacker's
cards growing leftwards from it and the Defender's rightwards (or the other way round when
drawn from the Defender's side).

Each tile shows its number, the gate, DAMAGED (darker and hatched too) and what it needs,
in short words ("sum only", "lower sum wins"); the number of cards is the number of places.
A complete side is captioned with its formation as it would be judged now (wild cards with
their best values). The Defender's oil cauldrons are icons on their banner, used ones empty.
Below: the last move, the decks and the public discard pile, grouped by colour.
"""

from __future__ import annotations

import dataclasses

from PIL import Image

from engine.api import VARIANTS
from engine.cards import parse_card
from engine.formations import FormationType
from engine.st2.board import TILE_RULES
from engine.st2.view import TileView, View
from lang import _, ngettext, pgettext
from render.bands import Bands, place_banner, place_row, place_sides_line, tall_enough
from render.frame import (
    Banner,
    Face,
    Item,
    Notes,
    Row,
    Side,
    canvas,
    face_pin,
    footer,
    header,
    side_pins,
)
from render.st1_board import hand_fact, tactics_fact
from render.theme import Theme
from render.words import (
    LastMove,
    engine_words,
    formation_label,
    last_move,
    phase_badge,
    result_text,
    winner_badge,
)

CAULDRONS = 3


def render(
    view: View,
    names: tuple[str, str],
    theme: Theme,
    left: int | None = None,
    notes: Notes | None = None,
    bands: Bands | None = None,
) -> Image.Image:
    """The board; `notes`: an annotated board's marks (an analysis), see frame.Notes.
    `bands`: its rows drawn as bands instead, and their place left empty (render/bands.py)."""
    return tall_enough(lambda h: _draw(view, names, theme, left, notes, bands, h), theme, bands)


def _draw(
    view: View,
    names: tuple[str, str],
    theme: Theme,
    left: int | None,
    notes: Notes | None,
    bands: Bands | None,
    height: int,
) -> tuple[Image.Image, int]:
    """The board drawn on a canvas `height` tall; returns it and the height it needs."""
    if left is None:
        # The same picture whoever asks (tests/render/test_privacy.py): the Attacker's side
        # is on the left unless the caller asks for another seat's.
        left = view.attacker
    right = 1 - left
    img, d = canvas(theme.board_width, height, theme)
    lm = last_move("st2", view.last_move)
    rings = lm if notes is None else None  # an annotated board rings its own marks
    result = result_text(view.outcome, names) if view.outcome is not None else None
    y = header(
        img,
        d,
        theme,
        title=engine_words(VARIANTS.get(view.variant, "Schotten Totten 2")),
        info=_revenge_info(view, names),
        result=result,
    )
    for seat in (left, right):
        y = place_banner(img, d, theme, y, _banner(view, seat, names, theme, notes), bands)
    roles = tuple(
        pgettext("role", "Attacker") if s == view.attacker else pgettext("role", "Defender")
        for s in (left, right)
    )
    y = place_sides_line(img, d, theme, y, names, left, (roles[0], roles[1]), bands)
    for tile in view.tiles:
        row = _row(view, tile, left, rings, theme, notes or Notes(badges=True))
        y = place_row(img, d, theme, y, row, "st2", bands)
    if view.tactic_deck_size is None:
        decks = _("Siege deck: {siege}").format(siege=view.deck_size)
    else:
        decks = _("Siege deck: {siege}  ·  Tactic deck: {tactic}").format(
            siege=view.deck_size, tactic=view.tactic_deck_size
        )
    y = footer(img, d, theme, y + 4, names, view.last_move, lm, decks, view.discard, groups=True)
    return img, y


def _revenge_info(view: View, names: tuple[str, str]) -> str:
    if view.revenge is None:
        return ""
    w = view.revenge.first_winner
    if view.revenge.game == 2 and w is not None:
        return _("Revenge match, game {game} of 2  ·  {player} won game 1").format(
            game=view.revenge.game, player=names[w]
        )
    return _("Revenge match, game {game} of 2").format(game=view.revenge.game)


def _banner(
    view: View, seat: int, names: tuple[str, str], theme: Theme, notes: Notes | None = None
) -> Banner:
    facts = [hand_fact(view.hand_sizes[seat])]
    cauldrons = None
    if seat == view.attacker:
        role = pgettext("role badge", "ATTACKER")
        damaged = view.damaged_tiles
        facts.append(
            ngettext("{count} of 4 tiles damaged", "{count} of 4 tiles damaged", damaged).format(
                count=damaged
            )
        )
    else:
        role = pgettext("role badge", "DEFENDER")
        cauldrons = (view.cauldrons, CAULDRONS)
    if view.tactic_deck_size is not None:
        facts.append(tactics_fact(view.tactics_played[seat]))
    deciding = view.to_decide if view.to_decide is not None else view.turn
    won = view.outcome is not None and view.outcome.winner == seat
    if view.outcome is not None:
        badge = winner_badge() if won else None
        active = False
    elif notes is not None and not notes.badges:  # an analysis: nobody is to play now
        badge = None
        active = False
    else:
        active = deciding == seat
        badge = phase_badge(view.phase) if active else None
    return Banner(
        names[seat],
        role,
        facts,
        badge,
        theme.seat[seat],
        active,
        view.actions[seat],
        cauldrons=cauldrons,
        won=won,
    )


def _row(
    view: View, tile: TileView, left: int, lm: LastMove | None, theme: Theme, notes: Notes
) -> Row:
    marked = frozenset() if lm is None else lm.cards
    if tile.taken_sides is not None:
        return _taken_row(view, tile, left, theme)
    sides = []
    for seat in (left, 1 - left):
        ghosts, pins = side_pins(notes, tile.number, seat, tile.sides[seat])
        formation = tile.formations[seat]
        caption = ""
        if formation is not None:
            first = tile.first_complete == seat and all(tile.formations)
            caption = formation_label(formation)
            if first:
                # TRANSLATORS: under a tile: the formation completed first ("colour run 18").
                caption = pgettext("formation caption", "{formation} (first)").format(
                    formation=caption
                )
        sides.append(
            Side(
                tile.sides[seat],
                tile.size,
                formation.wild_values if formation is not None else {},
                last=frozenset(c for p, s_, c in marked if p == tile.number and s_ == seat),
                caption=caption,
                ghosts=[parse_card(c) for c in ghosts],
                pins=pins,
            )
        )
    ring = ""
    if (
        lm is not None
        and tile.number in lm.places
        and not any(p == tile.number for p, _seat, _card in marked)
    ):
        ring = theme.highlight
    face = dataclasses.replace(_face(view, tile, theme, ring), pin=face_pin(notes, tile.number))
    return Row(face, sides[0], sides[1])


def _taken_row(view: View, tile: TileView, left: int, theme: Theme) -> Row:
    """The tile that ended the game, with the cards that took it: the winner's on a panel
    of their colour, the other side dimmed, the tile BREACHED if it was already damaged."""
    assert tile.taken_sides is not None
    winner = view.outcome.winner if view.outcome is not None else None
    sides = [
        Side(
            tile.taken_sides[seat],
            0,
            dim=seat != winner,
            backing=theme.seat[seat] if seat == winner else "",
        )
        for seat in (left, 1 - left)
    ]
    face = _face(view, tile, theme, theme.result)
    return Row(face, sides[0], sides[1])


def _flip_side(number: int) -> str:
    """The damaged side in one short line ("then 3 · run"): cards needed and the one
    formation it adds to the sum, which every tile counts."""
    rules = TILE_RULES[number - 1][True]
    # What wins there, in the rules' words (rules page "tiles"; glossary): "lower sum",
    # "same strength" (a bare "lower" or "pair" left the reader guessing).
    if rules.lower_sum_wins:
        kind = pgettext("tile rule, short", "lower sum")
    else:
        kinds = [t for t in rules.types if t is not FormationType.SUM]
        if kinds == [FormationType.SAME_STRENGTH]:
            kind = pgettext("tile rule, short", "same strength")
        else:
            kind = engine_words(kinds[0].label(rules.size))
    # TRANSLATORS: under an intact tile: what its damaged side will ask, in one short line
    # (about 16 letters): cards per side and the formation it counts ("then 3 · run").
    return pgettext("tile rule, short", "then {count} · {formation}").format(
        count=rules.size, formation=kind
    )


def _face(view: View, tile: TileView, theme: Theme, ring: str) -> Face:
    items = [
        Item(
            "title",
            str(tile.number),
            tag=pgettext("tile badge", "GATE") if tile.is_gate else "",
            tag_fill=theme.gate,
        )
    ]
    if tile.breached:
        breached = pgettext("tile badge", "BREACHED")
        items.append(Item("pill", breached, fill=theme.result, ink=theme.text_dark))
    elif tile.damaged:
        damaged = pgettext("tile badge", "DAMAGED")
        items.append(Item("pill", damaged, fill=theme.damaged_line, ink=theme.text_dark))
    items.append(Item("text", engine_words(tile.rules_text), strong=False))
    if not tile.damaged:
        # What taking it will leave (the tile's other side): the Attacker plans for it.
        items.append(Item("text", _flip_side(tile.number), ink=theme.text_muted, strong=False))
    if tile.damaged:
        return Face(items, theme.damaged, theme.damaged_line, theme.damaged_line + "70", ring=ring)
    return Face(items, theme.stone, theme.stone_line, ring=ring)
