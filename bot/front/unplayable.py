"""Why a card in a player's hand cannot be played now, in the engine's own words, for the
card menu (a dimmed card says why) and for a click on it."""

from __future__ import annotations

from collections.abc import Sequence

from engine.api import Playable, load_match
from engine.errors import GameError
from lang import _, message_of

# Errors about one place (full, claimed) do not say why the card is out everywhere.
_PLACE_WORDS = ("full", "claimed", "already", "no stone", "no tile")


def why_not(match: Playable, seat: int, card: str) -> str:
    """The engine's refusal of `card` at the first place where the refusal is about the card
    rather than the place; a generic sentence if every place is simply full. In the current
    language (the refusal's English words decide which one is about the place)."""
    state = match.to_json()
    first = ""
    places = 9 if match.view(seat).game == "st1" else 7
    for place in range(1, places + 1):
        trial = load_match(state)
        try:
            trial.apply(trial.parse_move(f"{card} {place}", seat), seat)
        except GameError as e:
            text = message_of(e)
            first = first or text
            if not any(w in str(e).lower() for w in _PLACE_WORDS):
                return text
        else:
            return ""  # playable after all (the menu's list of moves is what counts)
    return first or _("It cannot be played now.")


def unplayable(
    match: Playable, seat: int, hand: Sequence[str], playable: set[str]
) -> dict[str, str]:
    """For each card of the hand that no legal move plays now, why."""
    return {c: why_not(match, seat, c) for c in dict.fromkeys(hand) if c not in playable}
