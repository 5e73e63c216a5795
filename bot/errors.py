"""Refusals from the game service. Like the engine's GameError, every message is written for
the player who caused it, and nothing was changed."""

from __future__ import annotations


class ServiceError(Exception):
    """Base class: a request the service refuses, with a message for the player."""


class NotFound(ServiceError):
    """No such game or challenge (or not in this channel)."""


class Refused(ServiceError):
    """The request breaks a rule of the bot (not of the card game)."""


class StaleMove(ServiceError):
    """The game moved on between reading it and writing the move (two clicks, two devices)."""
