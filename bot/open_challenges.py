"""Open challenges: `/schotten challenge` without an opponent. Any member may take one with
its Accept button (only a member of its Discord role, if it names one); the first click
wins. The race is settled by the database, in the statement that takes it
(`Store.take_challenge`), so one member gets the game even with several bot processes,
and each of the others is told who was quicker.

The service (bot/service.py) stores and starts them like any challenge; this module holds
the rules that are theirs alone. It knows nothing of Discord: roles are ids.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from bot.errors import Refused
from bot.records import ChallengeInfo, Member
from bot.store import Store, Tx
from engine.phrases import Phrase, say
from lang import command

ALREADY_OPEN = say(
    "You already have an open challenge in this channel; wait for a taker, or cancel it first."
)


def role_mention(role_id: int) -> str:
    """A role as Discord shows it in a message ("@Experts"), without notifying anyone when
    the message allows no role mentions."""
    return f"<@&{role_id}>"


def check_taker(info: ChallengeInfo, user_id: int, roles: Collection[int], *, now: float) -> None:
    """Whether `user_id`, holding the Discord `roles`, may take this open challenge now."""
    if info.status != "open":
        raise Refused(closed(info))
    if info.expires_at <= now:
        raise Refused(say("This challenge has expired."))
    if user_id == info.challenger.id:
        raise Refused(
            # TRANSLATORS: {cancel} is the command /schotten cancel (a mention in English; in
            # French and German its localised name, as code).
            say(
                "You cannot accept your own challenge; to take it back, cancel it with {cancel}.",
                cancel=command("cancel"),
            )
        )
    if info.for_role_id is not None and info.for_role_id not in roles:
        raise Refused(
            say(
                "Only members of {role} may accept this challenge.",
                role=role_mention(info.for_role_id),
            )
        )


def closed(info: ChallengeInfo) -> Phrase:
    """Why an open challenge can no longer be taken."""
    if info.status == "accepted" and info.opponent is not None:
        return say("This challenge was already taken by {name}.", name=info.opponent.name)
    if info.status == "cancelled":
        return say("This challenge is no longer open: it was cancelled.")
    return say("This challenge is no longer open: it was expired.")


async def take(store: Store, tx: Tx, info: ChallengeInfo, taker: Member, now: float) -> None:
    """Make `taker` the challenge's opponent in `tx`, if it is still open: the one statement
    that decides between racing clicks. Refused (and `tx` rolled back) if someone was
    quicker ("already taken by Bob"), or if it closed meanwhile."""
    if not await store.take_challenge(tx, info.id, taker.id, now):
        # What the quicker transaction committed (the wait for its lock ended with it).
        row = await store.challenge(info.id)
        status = row["status"] if row is not None else "cancelled"
        opponent = None
        if row is not None and row["opponent_id"] is not None:
            names = await store.names([row["opponent_id"]])
            opponent = Member(row["opponent_id"], names.get(row["opponent_id"], "?"))
        raise Refused(closed(replace(info, status=status, opponent=opponent)))
    await store.put_user(tx, taker.id, taker.name, taker.is_bot)


def not_declined(info: ChallengeInfo) -> Phrase:
    """An open challenge is not declined: it waits for a taker, or its challenger cancels."""
    return say(
        "An open challenge cannot be declined: it waits for a taker until it expires,"
        " or until {name} cancels it.",
        name=info.challenger.name,
    )
