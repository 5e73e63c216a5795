"""Private look-ups and the button that shares them.

`/schotten stats`, `history` and `board` (and an analysis's hands) answer privately, with a
**Post in channel** button. Pressing it posts the same look-up publicly in the channel, in
the server's language and naming who shared it; the private message then says it was shared
and loses its button.

The button is a `DynamicItem` whose `custom_id` names the look-up and its arguments
(`sch:S:st:<member>:<against>`), so that it works after a restart: the look-up is made again
from the database when it is pressed. Which look-ups exist is a table (`ANSWERS`) that the
modules answering them fill when they are imported (`answers`), so that this module needs
none of them. A look-up that would show what a running game hides is refused by its answer.
"""

from __future__ import annotations

import io
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.errors import Refused
from bot.front.replies import MISSING, QUIET, on_click
from bot.store import valid_id
from lang import _, fill, say, speaking

PREFIX = "sch:S"
TEMPLATE = r"sch:S:(?P<kind>[a-z]{2}):(?P<args>[0-9]+(?::[0-9]+)*)"
MAX_ARGS = 6


@dataclass(frozen=True, slots=True)
class Picture:
    """A file to attach: made afresh for each message (a discord.File is read once)."""

    filename: str
    data: bytes

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.data), filename=self.filename)


@dataclass(frozen=True, slots=True)
class Answer:
    """A look-up's answer, as sent privately or shared: words, embeds and pictures, and the
    controls that go with it (a board's Show my hand)."""

    content: str = ""
    embeds: Sequence[discord.Embed] = ()
    pictures: Sequence[Picture] = ()
    controls: Callable[[], Sequence[discord.ui.Item[Any]]] = field(default=lambda: ())

    def files(self) -> list[discord.File]:
        return [p.file() for p in self.pictures]


# A look-up: (front, the pressing interaction, its numbers) -> its answer, in the current
# language. Filled by `answers`.
Lookup = Callable[[Any, discord.Interaction, list[int]], Awaitable[Answer]]
ANSWERS: dict[str, Lookup] = {}


def answers(kind: str) -> Callable[[Lookup], Lookup]:
    """Register the look-up a share button of `kind` makes again (two lowercase letters)."""
    if not re.fullmatch(r"[a-z]{2}", kind):
        raise ValueError(f"a share kind is two lowercase letters, not {kind!r}")

    def register(fn: Lookup) -> Lookup:
        ANSWERS[kind] = fn
        return fn

    return register


class ShareButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """**Post in channel**, under a private look-up."""

    def __init__(self, kind: str, args: Sequence[int]) -> None:
        self.kind = kind
        self.args = [int(a) for a in args]
        custom_id = ":".join([PREFIX, kind, *(str(a) for a in self.args)])
        if len(custom_id) > 100:
            raise ValueError(f"custom_id too long: {custom_id}")
        super().__init__(
            discord.ui.Button(
                label=_("Post in channel"),
                emoji="📢",
                style=discord.ButtonStyle.secondary,
                custom_id=custom_id,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ShareButton:
        return cls(match["kind"], [int(a) for a in match["args"].split(":")])

    async def callback(self, interaction: discord.Interaction) -> None:
        await on_click(
            interaction,
            self.custom_id,
            lambda front: share(front, interaction, self.kind, self.args),
        )


def understood(custom_id: str) -> bool:
    """Whether a share button reads this custom_id."""
    return ShareButton.__discord_ui_compiled_template__.fullmatch(custom_id) is not None


def share_view(
    kind: str, *args: int, items: Sequence[discord.ui.Item[Any]] = ()
) -> discord.ui.View:
    """The controls of a private look-up: its own (`items`), then **Post in channel**."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.add_item(ShareButton(kind, args))
    return view


async def send_private(
    interaction: discord.Interaction, answer: Answer, kind: str, *args: int
) -> None:
    """A look-up's private answer, with its Post in channel button."""
    await interaction.followup.send(
        answer.content or MISSING,
        embeds=list(answer.embeds) or MISSING,
        files=answer.files() or MISSING,
        view=share_view(kind, *args, items=answer.controls()),
        ephemeral=True,
        allowed_mentions=QUIET,
    )


async def share(front: Any, interaction: discord.Interaction, kind: str, args: list[int]) -> None:
    """Post the look-up publicly, then mark the private message shared."""
    await interaction.response.defer()  # the private message is updated below
    lookup = ANSWERS.get(kind)
    if lookup is None or len(args) > MAX_ARGS or not all(valid_id(a) for a in args):
        raise Refused(
            say("I do not understand this button (it may be from an older version of me).")
        )
    language = await front.server_language(interaction.guild_id)
    with speaking(language):  # the shared answer is for the channel
        answer = await lookup(front, interaction, args)
        # TRANSLATORS: above a look-up a member posted in the channel; {member} is a mention.
        head = fill(_("Shared by {member}:"), member=interaction.user.mention)
    items = answer.controls()
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    await interaction.followup.send(
        f"{head}\n{answer.content}".strip()[:2000],
        embeds=list(answer.embeds) or MISSING,
        files=answer.files() or MISSING,
        view=view if items else MISSING,
        allowed_mentions=QUIET,
    )
    old = interaction.message.content if interaction.message is not None else ""
    # TRANSLATORS: put above a private look-up once its owner posted it in the channel.
    done = _("✅ Posted in the channel.")
    await interaction.edit_original_response(content=f"{done}\n{old}".strip()[:2000], view=None)
