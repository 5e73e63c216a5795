"""Deciding a claim (RULINGS ST1-2 to ST1-5), with the reason when it fails."""

from __future__ import annotations

from engine.claims import ClaimCheck, check_place
from engine.proof import Pool
from engine.st1.board import Stone, claimed_by

__all__ = ["ClaimCheck", "check_claim"]


def check_claim(stone: Stone, player: int, unseen: Pool) -> ClaimCheck:
    """May `player` claim `stone`, given the clan cards not face-up on the table?"""
    if stone.claimed_by is not None:
        mine = stone.claimed_by == player
        return ClaimCheck(False, claimed_by(stone.number, mine), stone.number)
    return check_place(stone, player, unseen)
