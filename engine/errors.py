"""Errors the engine raises. Their messages are shown to players, so they are written for them."""

from __future__ import annotations

import re

from engine.phrases import say

QUOTE_LIMIT = 24


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """What a player typed, for an error message: trimmed, at most `limit` characters (then
    `…`), with control characters and Discord's markdown marks (code, emphasis, spoilers,
    quotes, mentions, masked links) removed so that a long or odd input can neither overflow
    a reply nor break its formatting; in single quotes."""
    cleaned = "".join(
        " " if ch.isspace() else ch for ch in text if ch.isprintable() or ch.isspace()
    )
    cleaned = re.sub(r"[`*_~|<>@\\\[\]]", "", " ".join(cleaned.split()))
    if len(cleaned) > limit:
        cleaned = cleaned[: limit - 1].rstrip() + "…"
    return f"'{cleaned}'"


class GameError(ValueError):
    """Base class of every error a player can cause."""


class InvalidMoveError(GameError):
    """The text cannot be read as a move or card at all."""


class CardValueError(InvalidMoveError):
    """A colour and a value that no card of either game has ("R12"): `text` is the card as
    written, so that the game can say which values it has."""

    def __init__(self, text: str) -> None:
        super().__init__(
            # TRANSLATORS: {card} is a card code as written, such as R12.
            say(
                "{card} is not a card: values run 1 to 9 (0 to 11 in Schotten Totten 2).", card=text
            )
        )
        self.text = text


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
