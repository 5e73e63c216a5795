"""Positions for the computer players' tests: random games stopped at decisions."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine import st1, st2
from engine.api import VARIANTS, game_of

Game = st1.Game | st2.Game


def new_game(variant: str, seed: int) -> Game:
    if game_of(variant) == "st1":
        return st1.Game.new(st1.Options.from_variant(variant), seed)
    return st2.Game.new(st2.Options.from_variant(variant), seed)


def decisions(variant: str, seed: int, *, every: int = 7) -> Iterator[Game]:
    """A random game of `variant`, stopped at every `every`-th decision and at every
    decision of a special kind (see `kind`)."""
    game = new_game(variant, seed)
    rng = random.Random(seed)
    count = 0
    while not game.is_over:
        moves = game.legal_moves()
        if kind(game) != "plain" or count % every == every - 1:
            yield game
        game.apply(rng.choice(moves))
        count += 1


def kind(game: Game) -> str:
    """What sort of decision the game waits for: "plain", a draw choice, a Recruiter step,
    or an Exchange gift (`exchange-out` when it is owed out of turn)."""
    phase = game.phase.value
    if phase == "exchange":
        return "exchange-out" if game.to_decide != game.turn else "exchange"
    if phase in ("draw", "recruit-draw", "recruit-return"):
        return phase
    return "plain"


def sample_positions(per_variant: int, seed: int = 0, special: int = 2) -> list[tuple[str, Game]]:
    """`per_variant` plain positions of every variant and up to `special` of each special
    kind, as fresh copies (so that a player's trials cannot touch the games they came from).
    """
    out: list[tuple[str, Game]] = []
    for variant in VARIANTS:
        found: dict[str, list[Game]] = {}
        for s in range(seed, seed + 60):
            for game in decisions(variant, s):
                bucket = found.setdefault(kind(game), [])
                if len(bucket) < (per_variant if kind(game) == "plain" else special):
                    bucket.append(type(game).from_json(game.to_json()))
            if len(found.get("plain", [])) >= per_variant and s >= seed + 30:
                break
        out.extend((variant, g) for games in found.values() for g in games)
    return out


__all__ = ["VARIANTS", "decisions", "kind", "new_game", "sample_positions"]


def with_other_hidden(game: Game, seat: int, seed: int) -> Game:
    """A copy of `game` that `seat` cannot tell from it: the other hand swapped with deck
    cards of the same kind, and every deck reshuffled. Nothing `seat` sees changes."""
    copy = type(game).from_json(game.to_json())
    rng = random.Random(seed)
    other = copy.hands[1 - seat]
    fixed = list(getattr(copy, "exchange_first", []))  # set aside in an Exchange: stays
    for deck in (copy.deck, copy.tactic_deck):
        kind_of = type(deck[0]) if deck else None
        swappable = [i for i, c in enumerate(other) if type(c) is kind_of and c not in fixed]
        rng.shuffle(swappable)
        for i in swappable[: len(deck)]:
            j = rng.randrange(len(deck))
            other[i], deck[j] = deck[j], other[i]
        rng.shuffle(deck)
    return copy
