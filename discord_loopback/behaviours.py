"""Discord's behaviours the loopback plays, each by name, all on by default as on Discord.

A schema says what a request may hold; these are what Discord *does* (who a message
notifies, how long a token lives, when a thread archives, when it answers 429). Each name is
a row of the table in README.md, with the documented rule it follows and its tests. A test
switches one off only by naming it (``Emulator(without={"token_expiry"})``); an unknown name
is an error, so a renamed behaviour cannot be left off silently.
"""

from __future__ import annotations

from collections.abc import Iterable

# name -> what the loopback does when it is on (the README's table says where Discord says so)
BEHAVIOURS: dict[str, str] = {
    "edit_never_notifies": "an edit (a filled deferred reply too) notifies nobody",
    "invite_permissions": "the bot's role holds exactly the permissions of the README's invite",
    "default_command_names": "a command mention shows the default (English) name to every reader",
    "token_expiry": "an interaction's token is refused (401, 50027) 15 minutes after it",
    "thread_archiving": "a thread archives after auto_archive_duration minutes without activity",
    "archived_threads": "archived: edits refused (50083), a post unarchives it unless locked",
    "locked_threads": "a locked thread takes posts only from members with Manage Threads",
    "private_threads": "a private thread is seen only by its members and Manage Threads",
    "max_active_threads": "a server holds at most 1,000 active threads (160006)",
    "rate_limits": "per-route buckets with X-RateLimit headers, 429 with retry_after",
    "global_rate_limit": "50 requests a second per bot, interaction callbacks exempt (global 429)",
    "invalid_request_ban": "10,000 401/403/429 answers in 10 minutes ban the bot for a while",
    "old_message_edits": "edits of messages older than an hour are limited (30046)",
    "guild_delete": "a bot removed from a server gets GUILD_DELETE and is refused there",
    "dm_open_limit": "opening too many DM channels too fast is refused (40003)",
}


class Behaviours:
    """Which behaviours are played: all but those a test names."""

    def __init__(self, without: Iterable[str] = ()) -> None:
        off = set(without)
        unknown = off - BEHAVIOURS.keys()
        if unknown:
            raise ValueError(f"no such behaviour: {', '.join(sorted(unknown))}")
        self.off = frozenset(off)

    def __contains__(self, name: str) -> bool:
        if name not in BEHAVIOURS:
            raise KeyError(name)
        return name not in self.off

    def plays(self, name: str) -> bool:
        return name in self
