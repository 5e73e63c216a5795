"""Small builders shared by engine tests."""

from engine.cards import ST1_COLORS, ST2_COLORS, Card, Tactic, TacticCard, parse_card
from engine.formations import Wild


def cards(text: str) -> list[Card]:
    return [Card.parse(w) for w in text.split()]


def wild(kind: str, *, siege: bool = False, copy: int = 1) -> Wild:
    """The wild card of either game: joker, spy or shield."""
    card = TacticCard(Tactic(kind), copy)
    colors = ST2_COLORS if siege else ST1_COLORS
    if card.kind is Tactic.JOKER:
        values = tuple(range(11, -1, -1)) if siege else tuple(range(9, 0, -1))
    elif card.kind is Tactic.SPY:
        values = (10,) if siege else (7,)
    else:
        values = (3, 2, 1)
    return Wild(card, colors, values)


__all__ = ["cards", "parse_card", "wild"]
