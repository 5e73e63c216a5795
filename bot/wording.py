"""Small helpers for the bot's sentences, shared by the service and the front."""

from __future__ import annotations


def plural(count: int, noun: str) -> str:
    """ "1 rated game", "2 rated games", "0 stones"."""
    return f"{count} {noun}" + ("" if count == 1 else "s")
