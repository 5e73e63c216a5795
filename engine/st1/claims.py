"""Deciding a claim (RULINGS ST1-2 to ST1-5), with the reason when it fails."""

from __future__ import annotations

from dataclasses import dataclass

from engine.formations import Formation
from engine.proof import Completion, Pool, best_completion, evaluate
from engine.st1.board import Stone


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """The answer to "may this player claim this stone now?" and why."""

    allowed: bool
    reason: str
    formation: Formation | None = None  # the claimant's, when complete
    against: Formation | None = None  # the opponent's, when complete
    completion: Completion | None = None  # how the opponent could still beat the claimant


def check_claim(stone: Stone, player: int, unseen: Pool) -> ClaimCheck:
    """May `player` claim `stone`, given the clan cards not face-up on the table?"""
    n = stone.number
    if stone.claimed_by is not None:
        owner = "you" if stone.claimed_by == player else "your opponent"
        return ClaimCheck(False, f"Stone {n} is already claimed by {owner}.")
    rules = stone.rules
    if not stone.complete(player):
        have = len(stone.sides[player])
        return ClaimCheck(
            False,
            f"You need {rules.size} cards on your side of stone {n} to claim it; you have {have}.",
        )
    mine = evaluate(stone.slots(player), rules)
    other = 1 - player
    if stone.complete(other):
        theirs = evaluate(stone.slots(other), rules)
        if mine.key > theirs.key:
            return ClaimCheck(True, "stronger", mine, theirs)
        if mine.key == theirs.key and stone.first_complete() == player:
            return ClaimCheck(True, "equal, and completed first", mine, theirs)
        if mine.key == theirs.key:
            why = f"both sides make {mine.describe()}, and your opponent completed theirs first"
        else:
            why = f"your opponent's {theirs.describe()} beats your {mine.describe()}"
        return ClaimCheck(False, f"You cannot claim stone {n}: {why}.", mine, theirs)
    # RULINGS ST1-4: the opponent completes later, so they must beat us strictly.
    beating = best_completion(stone.slots(other), unseen, rules, beat=mine.key)
    if beating is None:
        return ClaimCheck(True, "no completion beats it", mine)
    added = " ".join(str(c) for c in beating.added)
    why = (
        f"your opponent could still add {added} and make {beating.formation.describe()},"
        f" which beats your {mine.describe()}"
    )
    return ClaimCheck(False, f"You cannot claim stone {n} yet: {why}.", mine, None, beating)
