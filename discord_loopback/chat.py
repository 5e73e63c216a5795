"""Print the emulated chat as it happens, and save attachments to a directory.

``emulator.subscribe(ChatPrinter())`` prints lines such as::

    #general      alice: /schotten challenge opponent:@bob
    #general      Schotten Bot: alice challenges bob [buttons: Accept | Decline] 🔔 @bob
    #general      Schotten Bot → only @alice: You picked blue-2
    DM @bob       Schotten Bot: Your turn [file: board.png 3.4 KB → out/…]
    !! /schotten slow by @alice: not acknowledged within 3 s (...)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from .commands import MENTION, CommandRegistry
from .events import ChatEvent
from .models import BUTTON, SELECT_TYPES, SimAttachment, SimMessage, walk_components

USER_MENTION = re.compile(r"<@!?(\d+)>")


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / 1024 / 1024:.1f} MB"


class ChatPrinter:
    """A chat-event subscriber that writes one line per event.

    ``attachments_dir``: save every attachment there (once) as ``<message id>-<filename>``
    and show the path in the line. ``width`` pads the channel column. ``name_of`` names a
    user id, so that every ``<@id>`` reads ``@name`` as a client shows it, notifying or not.
    A new message that notified someone in a server's channel ends with ``🔔 @name``.
    """

    def __init__(
        self,
        write: Callable[[str], object] = print,
        *,
        attachments_dir: Path | str | None = None,
        width: int = 14,
        commands: CommandRegistry | None = None,
        name_of: Callable[[int], str | None] = lambda _: None,
    ) -> None:
        """``commands``: the bot's registered commands, to show command mentions as the
        reader's client does (``/schotten move``, the default names, for every reader:
        behaviour ``default_command_names``); without it they stay as sent."""
        self._write = write
        self.commands = commands
        self.name_of = name_of
        self.attachments_dir = Path(attachments_dir) if attachments_dir is not None else None
        self.width = width
        self.saved: dict[int, Path] = {}
        self.lines: list[str] = []

    def __call__(self, event: ChatEvent) -> None:
        line = self.format(event)
        if line is not None:
            self.lines.append(line)
            self._write(line)

    def format(self, event: ChatEvent) -> str | None:
        where = (event.channel.label if event.channel else "").ljust(self.width)
        who = event.actor.display_name if event.actor else "?"
        message = event.message
        if event.kind == "failure":
            return f"!! {event.text}"
        if event.kind in ("command", "click", "select", "modal"):
            return f"{where} {who}: {event.text}"
        if event.kind == "thread":
            return f"{where} {who} started thread {event.text!r}"
        if message is None:
            return None
        if event.kind == "delete":
            return f"{where} ({who}'s message was deleted)"
        if message.loading:
            return f"{where} {self._speaker(message)}: is thinking…"
        # A deferred reply being filled in is shown as the reply itself, not as an edit.
        marker = " (edited)" if event.kind == "edit" and message.edited else ""
        line = f"{where} {self._speaker(message)}{marker}: {self.describe(message)}"
        if event.kind == "message" and message.notified and not message.channel.is_dm:
            line += " 🔔 " + " ".join(f"@{u.name}" for u in message.notified)
        return line

    def _speaker(self, message: SimMessage) -> str:
        name = message.author.display_name
        if message.visible_to is not None:
            return f"{name} → only @{message.visible_to.name}"
        return name

    def describe(self, message: SimMessage) -> str:
        """Content plus bracketed summaries of embeds, components and files."""
        names = {u.id: u.name for u in message.mentions}

        def name(found: re.Match[str]) -> str:
            user_id = int(found.group(1))
            known = names.get(user_id) or self.name_of(user_id)
            return f"@{known}" if known else found.group(0)

        content = USER_MENTION.sub(name, self._commands_shown(message, message.content))
        parts = [content] if content else []
        for embed in message.embeds:
            title = embed.get("title") or ""
            text = embed.get("description") or ""
            fields = "; ".join(
                f"{f.get('name')}: {f.get('value')}" for f in embed.get("fields", [])
            )
            body = " — ".join(p for p in (title, text, fields) if p)
            parts.append(f"[embed: {body}]")
        buttons = []
        for component in walk_components(message.components):
            if component.get("type") == BUTTON:
                label = component.get("label") or component.get("custom_id") or "?"
                buttons.append(f"{label} (disabled)" if component.get("disabled") else label)
            elif component.get("type") in SELECT_TYPES:
                options = ", ".join(o.get("label", "") for o in component.get("options", []))
                shown = component.get("placeholder") or component.get("custom_id")
                parts.append(f"[select {shown}: {options}]" if options else f"[select {shown}]")
        if buttons:
            parts.append(f"[buttons: {' | '.join(buttons)}]")
        for attachment in message.attachments:
            parts.append(self._file(message, attachment))
        return " ".join(parts) if parts else "(empty)"

    def _commands_shown(self, message: SimMessage, content: str) -> str:
        """Command mentions as the reader's client shows them: the member it is visible to,
        a DM's recipient, or else the server's language."""
        if self.commands is None or "</" not in content:
            return content
        channel = message.channel
        reader = message.visible_to or (channel.recipient if channel is not None else None)
        if reader is not None:
            locale = reader.locale
        elif channel is not None and channel.guild is not None:
            locale = channel.guild.locale
        else:
            locale = "en-US"
        commands = self.commands
        return MENTION.sub(lambda m: commands.mention_text(m.group(0), locale), content)

    def _file(self, message: SimMessage, attachment: SimAttachment) -> str:
        text = f"[file: {attachment.filename} {_size(attachment.size)}"
        if self.attachments_dir is not None:
            path = self.saved.get(attachment.id)
            if path is None:
                self.attachments_dir.mkdir(parents=True, exist_ok=True)
                path = self.attachments_dir / f"{message.id}-{attachment.filename}"
                path.write_bytes(attachment.data)
                self.saved[attachment.id] = path
            text += f" → {path}"
        return text + "]"
