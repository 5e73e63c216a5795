"""The Schotten Totten board, laid out for a phone: one row per stone, the left player's
cards growing leftwards from it and the right player's rightwards.

Top to bottom: the header (title and match score, or the result), both players' banners, a
line naming whose cards are on which side, the nine stones, then the last move, the decks
and the discard pile. A claimed stone takes its owner's seat colour and points at their
side; the winner's cards stand on a panel of that colour and the loser's are dimmed. Once
the game is over, the stones that decided it are ringed. The viewer, when there is one,
sits on the left.
"""

from __future__ import annotations

import dataclasses

from PIL import Image

from engine.api import VARIANTS
from engine.cards import parse_card
from engine.outcome import Termination
from engine.st1.view import StoneView, View
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
from render.theme import Theme
from render.words import (
    LastMove,
    engine_words,
    formation_label,
    last_move,
    phase_badge,
    result_text,
    title,
    winner_badge,
)


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
        left = view.viewer if view.viewer is not None else 0
    right = 1 - left
    img, d = canvas(theme.board_width, height, theme)
    lm = last_move("st1", view.last_move)
    rings = lm if notes is None else None  # an annotated board rings its own marks
    result = result_text(view.outcome, names) if view.outcome is not None else None
    y = header(
        img,
        d,
        theme,
        title=engine_words(VARIANTS.get(view.variant, "Schotten Totten")),
        info=_match_info(view, names),
        result=result,
    )
    for seat in (left, right):
        y = place_banner(img, d, theme, y, _banner(view, seat, names, theme, notes), bands)
    y = place_sides_line(img, d, theme, y, names, left, ("", ""), bands)
    decided = _decided(view)
    for stone in view.stones:
        row = _row(view, stone, left, rings, theme, decided, notes or Notes(badges=True))
        y = place_row(img, d, theme, y, row, "st1", bands)
    if view.tactic_deck_size is None:
        decks = _("Clan deck: {clan}").format(clan=view.deck_size)
    else:
        decks = _("Clan deck: {clan}  ·  Tactic deck: {tactic}").format(
            clan=view.deck_size, tactic=view.tactic_deck_size
        )
    show_discard = view.tactic_deck_size is not None or bool(view.discard)
    y = footer(
        img,
        d,
        theme,
        y + 4,
        names,
        view.last_move,
        lm,
        decks,
        view.discard if show_discard else None,
    )
    return img, y


def _match_info(view: View, names: tuple[str, str]) -> str:
    # Every game is played as a match; a match of one round needs no score line.
    if view.match is None or view.match.length == "one round":
        return ""
    a, b = view.match.scores
    # TRANSLATORS: under the title; {length} is the engine's "3 rounds" or "first to 12
    # points", then the score between the two players' names.
    return _("Match ({length}), round {round}  ·  {player0} {score0} – {score1} {player1}").format(
        length=engine_words(view.match.length),
        round=view.match.round,
        player0=names[0],
        score0=a,
        score1=b,
        player1=names[1],
    )


def _banner(
    view: View, seat: int, names: tuple[str, str], theme: Theme, notes: Notes | None = None
) -> Banner:
    held, in_hand = view.stones_held[seat], view.hand_sizes[seat]
    facts = [
        ngettext("{count} stone", "{count} stones", held).format(count=held),
        hand_fact(in_hand),
    ]
    if view.tactic_deck_size is not None:
        facts.append(tactics_fact(view.tactics_played[seat]))
    if view.match is not None and view.match.length != "one round":
        points = view.match.scores[seat]
        facts.append(ngettext("{count} point", "{count} points", points).format(count=points))
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
    return Banner(names[seat], None, facts, badge, theme.seat[seat], active, won=won)


def hand_fact(n: int) -> str:
    """ "7 in hand", on a banner."""
    # TRANSLATORS: on a player's banner: how many cards they hold.
    return ngettext("{count} in hand", "{count} in hand", n).format(count=n)


def tactics_fact(n: int) -> str:
    """ "2 tactics played", on a banner."""
    # TRANSLATORS: on a player's banner: how many tactic cards they have played.
    return ngettext("{count} tactic played", "{count} tactics played", n).format(count=n)


def _decided(view: View) -> frozenset[int]:
    """The stones that won the game: the first three adjacent ones of the winner, or all
    five of theirs."""
    o = view.outcome
    if o is None or o.winner is None:
        return frozenset()
    mine = [s.number for s in view.stones if s.claimed_by == o.winner]
    if o.termination is Termination.THREE_ADJACENT:
        for n in mine:
            if n + 1 in mine and n + 2 in mine:
                return frozenset({n, n + 1, n + 2})
    if o.termination is Termination.FIVE_STONES:
        return frozenset(mine)
    return frozenset()


def _row(
    view: View,
    stone: StoneView,
    left: int,
    lm: LastMove | None,
    theme: Theme,
    decided: frozenset[int],
    notes: Notes,
) -> Row:
    owner = stone.claimed_by
    sides = []
    for seat in (left, 1 - left):
        ghosts, pins = side_pins(notes, stone.number, seat, stone.sides[seat])
        # On a claimed stone: the winner's formation on a panel of their colour, the loser's
        # cards dimmed, and every wild card showing the card it became (RULINGS ST1-11).
        judged = stone.won_with if owner == seat else stone.lost_against
        sides.append(
            Side(
                stone.sides[seat],
                stone.size if owner is None else 0,
                judged.wild_values if owner is not None and judged is not None else {},
                dim=owner is not None and owner != seat,
                backing=theme.seat[seat] if owner == seat else "",
                last=_marked(lm, stone.number, seat),
                ghosts=[parse_card(c) for c in ghosts],
                pins=pins,
            )
        )
    ring = ""
    if stone.number in decided:
        ring = theme.result
    elif lm is not None and stone.number in lm.places and not _marked(lm, stone.number, None):
        ring = theme.highlight
    face = dataclasses.replace(_face(stone, left, theme, ring), pin=face_pin(notes, stone.number))
    return Row(face, sides[0], sides[1])


def _marked(lm: LastMove | None, place: int, seat: int | None) -> frozenset[str]:
    """Cards the last move put on this stone (on `seat`'s side, or either side if None)."""
    if lm is None:
        return frozenset()
    return frozenset(c for p, s, c in lm.cards if p == place and seat in (None, s))


def _face(stone: StoneView, left: int, theme: Theme, ring: str) -> Face:
    """The stone: its number and combat modes; once claimed, the owner's colour, an arrow to
    their side and the winning formation (and "tie: completed first" when an equal formation lost
    because it was completed later)."""
    modes = [
        Item("pill", title(m.kind), fill=theme.tactic_fill, ink=theme.tactic_text)
        for m in stone.modes
    ]
    owner = stone.claimed_by
    if owner is None:
        return Face(
            [Item("title", str(stone.number)), *modes], theme.stone, theme.stone_line, ring=ring
        )
    ink = theme.text_dark
    number = f"◀ {stone.number}" if owner == left else f"{stone.number} ▶"
    items = [Item("title", number, ink=ink)]
    won, lost = stone.won_with, stone.lost_against
    if won is not None:
        items.append(Item("text", formation_label(won, short=True), ink=ink, strong=False))
        if lost is not None and lost.key == won.key:
            # TRANSLATORS: on a claimed stone, when both formations were equal.
            tie = pgettext("claimed stone", "tie: completed first")
            items.append(Item("text", tie, ink=ink))
    return Face([*items, *modes], theme.seat[owner], ink, ring=ring)
