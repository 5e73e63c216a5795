"""Permission bits the emulator computes: roles, then channel overwrites, as Discord does
(https://discord.com/developers/docs/topics/permissions#permission-overwrites)."""

from __future__ import annotations

from collections.abc import Mapping, Set

ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
SEND_TTS_MESSAGES = 1 << 12
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

ALL = (1 << 51) - 1

# What @everyone gets on a freshly made server, near enough for a text-only bot (Discord's
# pages do not list it; these are the text permissions a new server's @everyone holds in the
# client's role settings). Manage Messages, Manage Threads and Manage Channels are not among them.
EVERYONE_DEFAULT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | ADD_REACTIONS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)

# The permissions the README's invite asks for, by the names it uses (its line
# "Invite permissions: ..."; tests/discord_loopback/test_invite_permissions.py reads both).
INVITE = {
    "Send Messages": SEND_MESSAGES,
    "Send Messages in Threads": SEND_MESSAGES_IN_THREADS,
    "Create Public Threads": CREATE_PUBLIC_THREADS,
    "Attach Files": ATTACH_FILES,
    "Embed Links": EMBED_LINKS,
}

# The bot's managed role: an invite with `scope=bot&permissions=N` makes a role for the bot
# holding exactly N (topics/oauth2, "Bot Authorization Flow"; the role's tags name the bot,
# topics/permissions "Role Tags Structure"). The bot's server-wide permissions are that
# role's and @everyone's together (topics/permissions, "Permission Hierarchy").
BOT_DEFAULT = sum(INVITE.values())
# Without the `invite_permissions` behaviour: the kinder role the loopback used to give.
BOT_KIND = EVERYONE_DEFAULT | MANAGE_MESSAGES | MANAGE_THREADS

NAMES = {
    ADMINISTRATOR: "ADMINISTRATOR",
    MANAGE_CHANNELS: "MANAGE_CHANNELS",
    MANAGE_GUILD: "MANAGE_GUILD",
    MANAGE_MESSAGES: "MANAGE_MESSAGES",
    MANAGE_THREADS: "MANAGE_THREADS",
    VIEW_CHANNEL: "VIEW_CHANNEL",
    SEND_MESSAGES: "SEND_MESSAGES",
    EMBED_LINKS: "EMBED_LINKS",
    ATTACH_FILES: "ATTACH_FILES",
    CREATE_PUBLIC_THREADS: "CREATE_PUBLIC_THREADS",
    CREATE_PRIVATE_THREADS: "CREATE_PRIVATE_THREADS",
    SEND_MESSAGES_IN_THREADS: "SEND_MESSAGES_IN_THREADS",
    READ_MESSAGE_HISTORY: "READ_MESSAGE_HISTORY",
}

ROLE_OVERWRITE = 0
MEMBER_OVERWRITE = 1
# Lost with Send Messages in a text channel ("implicit permissions" on the page above).
NEEDS_SEND = MENTION_EVERYONE | SEND_TTS_MESSAGES | ATTACH_FILES | EMBED_LINKS


def apply_overwrites(
    base: int,
    overwrites: Mapping[int, tuple[int, int, int]],
    *,
    everyone_id: int,
    role_ids: Set[int],
    member_id: int,
    in_thread: bool,
) -> int:
    """Discord's order: @everyone's overwrite, then the member's roles' together (denials
    first), then the member's own; then the implicit denials."""
    bits = base

    def apply(allow: int, deny: int) -> None:
        nonlocal bits
        bits = (bits & ~deny) | allow

    if everyone_id in overwrites:
        _, allow, deny = overwrites[everyone_id]
        apply(allow, deny)
    allow = deny = 0
    for target, (kind, a, d) in overwrites.items():
        if kind == ROLE_OVERWRITE and target in role_ids and target != everyone_id:
            allow |= a
            deny |= d
    apply(allow, deny)
    own = overwrites.get(member_id)
    if own is not None and own[0] == MEMBER_OVERWRITE:
        apply(own[1], own[2])
    if not bits & VIEW_CHANNEL:
        return 0
    if not in_thread and not bits & SEND_MESSAGES:
        bits &= ~NEEDS_SEND
    return bits


def describe(bits: int) -> str:
    """Readable names for ``bits`` (for error messages)."""
    names = [name for bit, name in NAMES.items() if bits & bit]
    rest = bits & ~sum(NAMES)
    if rest:
        names.append(hex(rest))
    return " | ".join(names) or "0"


# What editing a thread takes (topics/threads, "Editing & Deleting Threads"): its name,
# `archived: true` or its auto-archive duration, Manage Threads or being its creator;
# `locked` or a slow mode, Manage Threads; unarchiving alone (`archived: false`), being in
# it (its creator too when it is locked). Thread fields not listed need nothing more.
THREAD_CREATOR_FIELDS = ("name", "auto_archive_duration")


def thread_edit_needs(changes: Mapping[str, object], *, creator: bool, locked: bool) -> int:
    """The permission editing a thread with ``changes`` takes from a user who is (or not)
    its creator, in a thread that is (or not) locked: MANAGE_THREADS or 0."""
    relocking = changes.get("locked") is not None and bool(changes["locked"]) != locked
    if relocking or changes.get("rate_limit_per_user") is not None:
        return MANAGE_THREADS
    archiving = changes.get("archived") is True
    if archiving or any(changes.get(key) is not None for key in THREAD_CREATOR_FIELDS):
        return 0 if creator else MANAGE_THREADS
    if changes.get("archived") is False and locked and not creator:
        return MANAGE_THREADS
    return 0
