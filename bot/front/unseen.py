"""The unseen cards, in words: one line under a player's hand.

The hand message (the DM of a player's turn, and the private answer of Show my hand or
`/schotten hand`) has an **Unseen cards** button. Pressed, it shows a line listing the clan
(siege) cards the player has not seen, by colour, and how many tactic cards: every card of
the game but those face-up on the table, in the discard pile or in their own hand
(`engine/unseen.py`, computed from the player's own view and nothing else). Pressed again,
it hides it. The choice is the member's, kept in the store, so their later hands follow it.

    👁️ Unseen, in the deck or Bob's hand: **R** 1 4 9 · **B** 2 3 · 7 tactic cards
"""

from __future__ import annotations

from engine.unseen import AnyView, unseen
from lang import _, fill, ngettext, pgettext

# The unseen line starts with this mark, so that it can be found again in a message's text
# (to replace it when the member shows or hides it).
MARK = "👁️"


def unseen_line(view: AnyView, opponent: str) -> str:
    """The line for a player's hand, in the current language: the cards out of their sight,
    grouped by colour (the cards' letters stay as the notation writes them), and how many
    tactic cards."""
    u = unseen(view)
    groups = [
        f"**{color.letter}** " + " ".join(str(v) for v in values) for color, values in u.by_color()
    ]
    if u.with_tactics:
        count = len(u.tactics)
        # TRANSLATORS: at the end of the unseen cards' line: how many tactic cards are out
        # of the player's sight.
        tactics = ngettext("{count} tactic card", "{count} tactic cards", count)
        groups.append(fill(tactics, count=count))
    # TRANSLATORS: what stands after "Unseen" when every card is in sight (the decks are
    # empty and the opponent's hand holds nothing).
    listed = " · ".join(groups) or pgettext("unseen cards", "none")
    # TRANSLATORS: a line under the player's hand. {opponent} is the other player's name;
    # {cards} the cards not seen yet, by colour: "**R** 1 4 9 · **B** 2 3 · 7 tactic cards"
    # (the letters are the card notation's colours, which stay as they are).
    text = _("Unseen, in the deck or {opponent}'s hand: {cards}")
    return f"{MARK} " + fill(text, opponent=opponent, cards=listed)


def without_unseen(content: str) -> str:
    """A hand message's text without its unseen line."""
    return "\n".join(line for line in content.split("\n") if not line.startswith(MARK))
