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
    why: str  # a sentence, or a code that `reason` spells out (claims are checked every move,
    # and most answers are never shown, so the sentence is only written when asked for)
    stone: int = 0
    formation: Formation | None = None  # the claimant's, when complete
    against: Formation | None = None  # the opponent's, when complete
    completion: Completion | None = None  # how the opponent could still beat the claimant

    @property
    def reason(self) -> str:
        mine, theirs, n = self.formation, self.against, self.stone
        if self.why == "tie-lost" and mine is not None:
            why = f"both sides make {mine.describe()}, and your opponent completed theirs first"
        elif self.why == "weaker" and mine is not None and theirs is not None:
            why = f"your opponent's {theirs.describe()} beats your {mine.describe()}"
        elif self.why == "beatable" and mine is not None and self.completion is not None:
            added = " ".join(str(c) for c in self.completion.added)
            why = (
                f"your opponent could still add {added} and make"
                f" {self.completion.formation.describe()}, which beats your {mine.describe()}"
            )
            return f"You cannot claim stone {n} yet: {why}."
        else:
            return self.why
        return f"You cannot claim stone {n}: {why}."


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
            return ClaimCheck(True, "stronger", n, mine, theirs)
        if mine.key == theirs.key and stone.first_complete() == player:
            return ClaimCheck(True, "equal, and completed first", n, mine, theirs)
        lost = "tie-lost" if mine.key == theirs.key else "weaker"
        return ClaimCheck(False, lost, n, mine, theirs)
    # RULINGS ST1-4: the opponent completes later, so they must beat us strictly.
    beating = best_completion(stone.slots(other), unseen, rules, beat=mine.key)
    if beating is None:
        return ClaimCheck(True, "no completion beats it", n, mine)
    return ClaimCheck(False, "beatable", n, mine, None, beating)
