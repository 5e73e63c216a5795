"""Permission bits the emulator computes (role permissions only; no channel overwrites)."""

from __future__ import annotations

ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

ALL = (1 << 51) - 1

# What @everyone gets on a freshly made server, near enough for a text-only bot.
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

# The bot's managed role: what an invite link asking for these permissions would grant.
BOT_DEFAULT = EVERYONE_DEFAULT | MANAGE_MESSAGES | MANAGE_THREADS

NAMES = {
    ADMINISTRATOR: "ADMINISTRATOR",
    MANAGE_GUILD: "MANAGE_GUILD",
    MANAGE_MESSAGES: "MANAGE_MESSAGES",
    MANAGE_THREADS: "MANAGE_THREADS",
}


def describe(bits: int) -> str:
    """Readable names for ``bits`` (for error messages)."""
    names = [name for bit, name in NAMES.items() if bits & bit]
    rest = bits & ~sum(NAMES)
    if rest:
        names.append(hex(rest))
    return " | ".join(names) or "0"
