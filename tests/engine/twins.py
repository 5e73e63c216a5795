"""Twin games: the same moves on a deal that differs only in cards one player never sees.

A card that stays in the other player's hand the whole game is swapped with a card that is
never drawn from the deck, in the opening state of a single-game match. Every move of the
log stays legal and every view of the watching player stays the same, while the hidden
state really differs: whatever depends only on that player's views must come out the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.api import MatchSpec, Playable, load_match, new_match, replay_match


def twin_start(
    spec: MatchSpec, seed: int, log: Sequence[tuple[int, str]], watcher: int
) -> Playable | None:
    """The twin's opening match, hidden from `watcher`; None if this game allows none (no
    card left in the deck, or none kept in the other hand)."""
    assert spec.rounds == 1 and not spec.revenge and spec.target is None
    end = replay_match(spec, seed, log).to_json()["current"]
    data: dict[str, Any] = new_match(spec, seed).to_json()
    state = data["current"]
    other = 1 - watcher
    # Clan (siege) cards only, so that the deck keeps its kind of cards.
    kept = [c for c in state["hands"][other] if c in end["hands"][other] and c[1:].isdigit()]
    undrawn = [c for c in state["deck"] if c in end["deck"]]
    if not kept or not undrawn:
        return None
    held, never = kept[0], undrawn[0]
    hand = state["hands"][other]
    deck = state["deck"]
    hand[hand.index(held)] = never
    deck[deck.index(never)] = held
    return load_match(data)


def replayed(start: Playable, log: Sequence[tuple[int, str]]) -> Playable:
    """`start` (copied) with `log` played on it."""
    match = load_match(start.to_json())
    for seat, text in log:
        match.play(text, seat)
    return match
