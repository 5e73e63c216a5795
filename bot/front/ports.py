"""What the front's parts need of the front, as protocols.

`app.Front` composes the parts (the commands, the controls, the relay, the computer, the
look-back commands and the tournament desk); each part is handed the front and knows it only
by the protocol below that names the few things it calls, so no part imports app.py and a
test double needs only those things. `tests/bot/test_front_parts.py` checks that the Front
provides every one of them.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import discord

from bot.front.dm_channels import DmChannels
from bot.front.one_at_a_time import OneAtATime
from bot.records import ChallengeInfo, MatchInfo, MoveResult
from bot.service import GameService
from bot.tournament.records import TournamentInfo
from bot.tournament.service import Tournaments
from engine.api import MatchSpec

if TYPE_CHECKING:
    from bot.tournament.pairing import Standing


@runtime_checkable
class Languages(Protocol):
    """Who reads decides the language (app.py's docstring)."""

    async def server_language(self, guild_id: int | None) -> str: ...

    async def member_language(self, user_id: int, guild_id: int | None) -> str: ...


@runtime_checkable
class Requests(Protocol):
    """The gate every interaction passes: its member's language, and counted while it runs
    (refused while the bot shuts down)."""

    async def listen(self, interaction: discord.Interaction) -> str: ...

    def working(self) -> AbstractAsyncContextManager[None]: ...


@runtime_checkable
class Announcing(Protocol):
    """After a stored move: announce it; and find a channel to post in."""

    async def after_move(self, result: MoveResult, *, replied: bool = False) -> None: ...

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None: ...


class Deliverer(Protocol):
    """The outbox's relay, as others wake it."""

    async def deliver(self, match_id: int | None = None, *, everything: bool = False) -> int: ...


@runtime_checkable
class Pool(Protocol):
    """The computer's process pool, which the look-back commands borrow."""

    workers: int

    # Read-only here (a property): the computer holds a ProcessPoolExecutor.
    @property
    def pool(self) -> Executor | None: ...


class Desk(Protocol):
    """The tournaments on Discord (bot/front/tournaments.py's TournamentDesk)."""

    async def create(
        self,
        interaction: discord.Interaction,
        name: str,
        spec: MatchSpec,
        fmt: str,
        rounds: int | None,
        round_hours: float | None,
        tiebreak_order: str | None = None,
    ) -> None: ...

    async def join(self, interaction: discord.Interaction, tid: int) -> None: ...

    async def refresh(self, t: TournamentInfo) -> None: ...

    async def tick(self) -> None: ...

    def tick_soon(self) -> None: ...

    async def pairing_lines(self, t: TournamentInfo, r: int, *, ping: bool) -> list[str]: ...

    async def standings_message(
        self, t: TournamentInfo, page: int, table: list[Standing] | None = None
    ) -> tuple[str, discord.File | None]: ...


@runtime_checkable
class RelayFront(Languages, Protocol):
    """What the relay uses: Discord, the service, the members' DM channels, the pictures and
    a hand's message."""

    client: discord.Client
    service: GameService
    dms: DmChannels

    async def board_file(self, info: MatchInfo, locale: str | None = None) -> discord.File: ...

    async def hand_payload(self, info: MatchInfo, seat: int, note: str = "") -> dict[str, Any]: ...


@runtime_checkable
class ComputerFront(Announcing, Protocol):
    """What the computer's turns use."""

    service: GameService


@runtime_checkable
class LookbackFront(Languages, Protocol):
    """What replays, analyses and hints use: one heavy job at a time, the computer's pool,
    and the asker's DM channel for an answer too late for its token."""

    service: GameService
    dms: DmChannels
    heavy: asyncio.Semaphore

    # Read-only here (a property), so the front may hold a subtype (its own class).
    @property
    def computer(self) -> Pool | None: ...

    async def match_here(self, interaction: discord.Interaction) -> MatchInfo: ...


@runtime_checkable
class DeskFront(Languages, Requests, Announcing, Protocol):
    """What the tournament desk and its commands use."""

    client: discord.Client
    service: GameService
    tournaments: Tournaments

    # Read-only here (a property), so the front may hold a subtype (its own class).
    @property
    def relay(self) -> Deliverer: ...

    @property
    def desk(self) -> Desk: ...


@runtime_checkable
class CommandsFront(LookbackFront, DeskFront, Protocol):
    """What the slash commands call: each handler is one call into the front or the
    service."""

    # Held by a member's challenge until its message's id is stored (`/schotten games`).
    posting_challenge: OneAtATime

    async def show_hand(self, interaction: discord.Interaction, match_id: int) -> None: ...

    async def move_from_command(self, interaction: discord.Interaction, text: str) -> None: ...

    async def confirm_resign(self, interaction: discord.Interaction, info: MatchInfo) -> None: ...

    async def board_here(self, interaction: discord.Interaction) -> None: ...

    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.abc.User | None,
        spec: MatchSpec,
        *,
        role: str | None,
        level: str | None,
        open_to: int | None = None,
        clock_hours: float | None = None,
    ) -> None: ...

    async def accept(self, interaction: discord.Interaction, challenge_id: int) -> None: ...

    async def edit_challenge(self, c: ChallengeInfo, content: str) -> None: ...


@runtime_checkable
class ControlsFront(Requests, Protocol):
    """What the persistent buttons and menus call."""

    # Read-only here (a property), so the front may hold a subtype (its own class).
    @property
    def desk(self) -> Desk: ...

    async def move_from_control(
        self, interaction: discord.Interaction, match_id: int, text: str, version: int
    ) -> None: ...

    async def show_step(
        self,
        interaction: discord.Interaction,
        match_id: int,
        version: int,
        step: tuple[str, str] | None,
    ) -> None: ...

    async def show_hand(self, interaction: discord.Interaction, match_id: int) -> None: ...

    async def show_unseen(
        self, interaction: discord.Interaction, match_id: int, version: int, shown: bool
    ) -> None: ...

    async def rematch(self, interaction: discord.Interaction, match_id: int) -> None: ...

    async def accept(self, interaction: discord.Interaction, challenge_id: int) -> None: ...

    async def decline(self, interaction: discord.Interaction, challenge_id: int) -> None: ...
