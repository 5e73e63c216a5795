"""A member's own notifications: their options in `/schotten settings`, the lines that show
them, and the mentions a post may make of members.

Each member chooses for themselves, and the choice follows them into every server, as
their DMs do (`Notifications`, kept by user id): their hand by DM when it becomes their
turn, the mentions that notify them in a game's channel or thread, and turn reminders. The
relay obeys the first two when it sends (bot/front/relay.py), so a change applies to what is
still to be sent; the service writes no reminder for a member who turned reminders off.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.service import GameService
from bot.store import Notifications
from bot.wording import SHOW_HAND_BUTTON
from lang import _, fill, localise, mention

# The settings command's options for a member's own notifications, and what each sets.
OPTIONS = {
    "my_turn_dm": "turn_dm",
    "my_pings": "pings",
    "my_reminders": "reminders",
    "my_turn_both": "turn_both",
}
# Discord takes at most this many user ids in a message's `allowed_mentions`.
MAX_ALLOWED_USERS = 100


def changes_of(**options: bool | None) -> dict[str, bool]:
    """The member's changes among the settings command's options (None: left as it is)."""
    return {OPTIONS[name]: value for name, value in options.items() if value is not None}


async def your_notifications(
    service: GameService, user_id: int, changes: dict[str, bool]
) -> list[str]:
    """Make the member's `changes` (any member may change their own), and say what their
    notifications are now: the lines `/schotten settings` shows under the server's."""
    if changes:
        mine = await service.update_notifications(user_id, **changes)
    else:
        mine = await service.notifications(user_id)
    return notification_lines(mine, updated=bool(changes))


def notification_lines(n: Notifications, *, updated: bool) -> list[str]:
    """A member's notifications, in the current language, after a blank line."""
    if updated:
        head = _("Your notifications, updated (yours alone, the same in every server):")
    else:
        head = _(
            "Your notifications (yours alone, the same in every server; any member sets theirs):"
        )
    if n.turn_dm:
        dm = _("• your hand by DM when it becomes your turn: on")
    else:
        # TRANSLATORS: {button} is the label of the board's button (Show my hand); {hand} is
        # the command /schotten hand (a mention in English; in French and German its localised
        # name, as code).
        dm = fill(
            _("• your hand by DM when it becomes your turn: off (**{button}** or {hand} shows it)"),
            button=localise(SHOW_HAND_BUTTON),
            hand=mention("hand"),
        )
    if n.pings:
        pings = _("• mentions that notify you in your games' threads: on")
    else:
        pings = _(
            "• mentions that notify you in your games' threads: off (the board names you"
            " without notifying you)"
        )
    if n.turn_both and n.pings and n.turn_dm:
        both = _("• on your turn, both your hand by DM and a mention: on")
    else:
        both = _(
            "• on your turn, both your hand by DM and a mention: off (one signal a turn: the DM,"
            " or a mention when your hand cannot come by DM)"
        )
    if n.reminders:
        reminders = _("• turn reminders: on")
    else:
        reminders = _("• turn reminders: off (the forfeit on time still applies)")
    return ["", head, dm, pings, both, reminders]


async def mentions_for(service: GameService, user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Mentions that may notify these members (those a post names), except the ones who
    turned pings off: nobody else, no role, no @everyone."""
    ids = list(dict.fromkeys(user_ids))
    wants = await service.notifications_of(ids)
    allowed = [u for u in ids if wants[u].pings]
    # Named one by one: users=True would let every mention in the text ping, and a post may
    # name members it does not mean to ping (a tournament's pairings, issue 39). Only past
    # Discord's limit on the list, where everyone named wants pings, is it the way out.
    if len(allowed) > MAX_ALLOWED_USERS and len(allowed) == len(ids):
        return discord.AllowedMentions(everyone=False, roles=False, users=True)
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(u) for u in allowed[:MAX_ALLOWED_USERS]],
    )
