"""Deciding a claim (RULINGS ST1-2 to ST1-5), with the reason when it fails."""

from __future__ import annotations

from engine.claims import ClaimCheck, check_place
from engine.proof import Pool
from engine.st1.board import Stone

__all__ = ["ClaimCheck", "check_claim"]


def check_claim(stone: Stone, player: int, unseen: Pool) -> ClaimCheck:
    """May `player` claim `stone`, given the clan cards not face-up on the table?"""
    if stone.claimed_by is not None:
        owner = "you" if stone.claimed_by == player else "your opponent"
        return ClaimCheck(
            False, f"Stone {stone.number} is already claimed by {owner}.", stone.number
        )
    return check_place(stone, player, unseen)
