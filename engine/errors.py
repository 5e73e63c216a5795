"""Errors the engine raises. Their messages are shown to players, so they are written for them."""

from __future__ import annotations


class GameError(ValueError):
    """Base class of every error a player can cause."""


class InvalidMoveError(GameError):
    """The text cannot be read as a move or card at all."""


class IllegalMoveError(GameError):
    """The move was understood but is not allowed now."""


class AmbiguousMoveError(InvalidMoveError):
    """The text could mean more than one move."""


class ClaimRejectedError(IllegalMoveError):
    """A claim (or declaration of control) that the rules do not allow.

    `completion` holds the cards that would let the opponent beat the claimant, when that is
    the reason, so the bot can show the player why.
    """

    def __init__(self, message: str, *, completion: object | None = None) -> None:
        super().__init__(message)
        self.completion = completion


class PositionError(GameError):
    """A hand-written position could not be read or is inconsistent."""
