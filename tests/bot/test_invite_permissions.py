"""What the bot needs of a server is what docs/running.md's invite asks for, and what the
loopback's bot holds (behaviour ``invite_permissions``): the permissions a game checks for
(``texts.PERMISSIONS``, read from an interaction's ``app_permissions``) and those
``schotten-bot check`` reports are docs/running.md's ``Invite permissions:`` line, no more (the
rest, View Channel and Read Message History, @everyone holds on a new server)."""

from __future__ import annotations

from pathlib import Path

from bot import check
from bot.front import texts
from tests.discord_loopback.test_invite_permissions import invite_bits, invite_names

INVITE_DOC = Path(__file__).resolve().parents[2] / "docs" / "running.md"  # the invite section


def flags(names: list[str]) -> set[str]:
    return {n.lower().replace(" ", "_") for n in names}


def test_a_game_needs_exactly_the_readme_invite() -> None:
    invite = flags(invite_names(INVITE_DOC.read_text()))
    assert {flag for flag, _ in texts.PERMISSIONS} == invite
    assert {flag for flag, _ in check.NEEDED} - {"view_channel"} == invite


def test_the_readme_invite_asks_for_nothing_that_manages() -> None:
    """The bot deletes no thread and no one else's message: it never asks to."""
    bits = invite_bits(invite_names(INVITE_DOC.read_text()))
    assert not bits & (1 << 34 | 1 << 13 | 1 << 4)  # Manage Threads, Messages, Channels
