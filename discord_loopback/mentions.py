"""Who a message mentions, and whom its creation notifies, as Discord documents it.

Discord's "Allowed Mentions Reference" (docs/resources/message, allowed mentions object):

* without ``allowed_mentions`` (the key absent, or null) every mention in the content is
  parsed: ``<@123>`` mentions user 123;
* ``parse`` lists the kinds parsed from the content (``users``, ``roles``, ``everyone``);
  ``users`` lists the user ids that may be mentioned, and only those the content mentions
  are (an id the content does not mention is ignored); ``parse: ["users"]`` together with a
  non-empty ``users`` is refused as mutually exclusive (400, 50035), and so is
  ``parse: ["roles"]`` with ``roles``; ``parse: []`` mentions nobody;
* ``replied_user`` (default false) adds the author of the message replied to.

The message's ``mentions`` (what REST and the gateway return, and what the client
highlights) are those users. Its creation notifies them, except its author and members who
cannot see the channel; an ephemeral message mentions and notifies nobody. A message in a
DM notifies its recipient whatever it says (a DM's default notification setting). Edits
never notify: filling in a deferred reply ("thinking…") is an edit too, so its mentions
notify nobody (discord/discord-api-docs#5497). Role and @everyone mentions, members' own
notification settings and muted channels are not modelled.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from .errors import invalid_form
from .models import SimMessage, SimUser

USER_MENTION = re.compile(r"<@!?(\d+)>")
KINDS = ("users", "roles", "everyone")
EXCLUSIVE = "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"


def check(allowed: Any) -> None:
    """Refuse an `allowed_mentions` object Discord refuses (400 Invalid Form Body)."""
    if not isinstance(allowed, dict):
        return  # absent or null: the description's schema checks the rest
    parse = allowed.get("parse") or []
    for kind in ("users", "roles"):
        if kind in parse and allowed.get(kind):
            raise invalid_form(
                "allowed_mentions",
                f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                EXCLUSIVE,
            )


def mentioned(
    content: str,
    allowed: Any,
    users: Mapping[int, SimUser],
    *,
    replied_to: SimUser | None = None,
) -> list[SimUser]:
    """The users `content` mentions as `allowed` (the request's `allowed_mentions`, None
    when absent) lets them through, in the order of the content, each once; then the
    author of the message replied to, if allowed."""
    check(allowed)
    if isinstance(allowed, dict):
        parse = allowed.get("parse") or []
        listed = {int(i) for i in allowed.get("users") or []}
        every_user = "users" in parse
        reply = bool(allowed.get("replied_user"))
    else:
        listed, every_user, reply = set(), True, True
    found: list[SimUser] = []
    for match in USER_MENTION.finditer(content):
        user = users.get(int(match.group(1)))
        if user is None or user in found:
            continue
        if every_user or user.id in listed:
            found.append(user)
    if replied_to is not None and reply and replied_to not in found:
        found.append(replied_to)
    return found


def notified(message: SimMessage, can_view: Callable[[SimUser], bool]) -> list[SimUser]:
    """Whom `message`'s creation notifies: in a DM its recipient, elsewhere the users it
    mentions who can see its channel, never its author; nobody for an ephemeral message
    or a "thinking…" placeholder."""
    if message.visible_to is not None or message.loading:
        return []
    channel = message.channel
    if channel.is_dm:
        recipient = channel.recipient
        return [recipient] if recipient is not None and recipient != message.author else []
    return [u for u in message.mentions if u != message.author and can_view(u)]
