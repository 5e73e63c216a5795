"""The discord.py client: resources are made in `setup_hook` and handed to the parts that
use them (like discord.py's examples/advanced_startup.py), nothing is a global."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import tasks

from bot import metrics
from bot.config import Config
from bot.errors import Refused
from bot.front.admin_commands import AdminCommands
from bot.front.app import Front
from bot.front.commands import SchottenCommands
from bot.front.computer import Computer
from bot.front.controls import ALL_CONTROLS, read_control, understood
from bot.front.health import Health
from bot.front.lookback import LOOKBACK_CONTROLS
from bot.front.lookback import understood as lookback_understood
from bot.front.mentions import CommandMentions
from bot.front.my_games import GAMES_CONTROLS
from bot.front.my_games import understood as games_understood
from bot.front.pictures import Painter
from bot.front.privacy import PRIVACY_CONTROLS
from bot.front.privacy import understood as privacy_understood
from bot.front.replies import report
from bot.front.translator import CommandTranslator
from bot.notation import aliases
from bot.refusals import THREAD_LOCKED
from bot.service import BEAT_SECONDS, GameService
from bot.time_source import Clock
from engine.api import prepare as prepare_engine
from lang import LANGUAGES, language_of, use
from lang.catalogs import translations
from lang.mentions import drop_mentions, use_mentions

log = logging.getLogger("schotten.bot")


def prepare() -> None:
    """Build what is otherwise built by the first request that needs it, in the event loop,
    while every other request waits: the engine's claim tables and each language's catalog
    and move words (a second or so at most, once, before the bot connects)."""
    prepare_engine()
    for language in LANGUAGES:
        translations(language)
    for game in ("st1", "st2"):
        aliases(game)


class SchottenBot(discord.AutoShardedClient):
    """The bot: one command group, persistent controls, a timer loop, the computer.

    Sharded as discord.py's AutoShardedClient: every shard in this process by default, or
    the range `config.shards` of `config.shard_count`. Any process can play any game: what
    it announces goes out through REST, whichever shard the game's server is on (and a
    click in a DM arrives on shard 0, whatever server its game is in)."""

    def __init__(
        self,
        config: Config,
        *,
        database: Path | str | None = None,
        clock: Clock | None = None,
        seed: int | None = None,
        **client_options: Any,
    ) -> None:
        """`seed` makes the deals and the computer's choices repeatable (the sandbox's
        --seed); a real bot leaves it None and deals from the system's randomness."""
        intents = discord.Intents.default()  # no privileged intents are needed
        if config.shards is not None:
            first, last = config.shards
            client_options.setdefault("shard_ids", list(range(first, last + 1)))
        if config.shard_count is not None:
            client_options.setdefault("shard_count", config.shard_count)
        # Every answer passes the trace: acknowledgements timed, invalid requests counted.
        now = clock.now if clock is not None else time.time
        client_options.setdefault("http_trace", metrics.http_trace(now))
        super().__init__(
            intents=intents,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
            **client_options,
        )
        self.config = config
        self.database = database or config.database
        self.clock = clock  # None: the system clock (tests move time by hand)
        self.seed = seed
        self.tree = app_commands.CommandTree(self)
        # discord.py's documented way to handle a tree's errors: assign its on_error.
        self.tree.on_error = self._on_command_error  # type: ignore[method-assign]
        # Called before every command and autocomplete, in the task that runs it.
        self.tree.interaction_check = self._listen  # type: ignore[method-assign]
        self.service: GameService | None = None
        self.front: Front | None = None
        self.computer: Computer | None = None
        self.health: Health | None = None
        self.mentions = CommandMentions()  # this application's commands, once synced
        # Held while the timer loop works: a stop waits for it rather than cancel a
        # delivery halfway, which would leave its row leased and unsent until the lease ends.
        self._ticking = asyncio.Lock()

    async def setup_hook(self) -> None:
        await asyncio.to_thread(prepare)
        seeds: dict[str, Any] = {}
        if self.seed is not None:
            deals = random.Random(self.seed)
            seeds["seeds"] = lambda: deals.getrandbits(62)
        self.service = await GameService.open(
            self.database,
            defaults=self.config.defaults,
            clock=self.clock,
            synchronous=self.config.synchronous,
            pool_size=self.config.pool_size,
            **seeds,
        )
        # Whatever an earlier run had taken to announce and did not finish, this one sends
        # (with SQLite, the only process on its file; several processes on PostgreSQL
        # leave each other's leases to run out).
        await self.service.release_announcements()
        self.front = Front(self, self.service)
        if self.config.metrics_port is not None:
            health = Health(self, self.config.metrics_host, self.config.metrics_port)
            try:
                await health.start()
                self.health = health
            except OSError as e:  # the games matter more than their figures
                log.error(
                    "cannot serve /healthz and /metrics on %s:%s: %s",
                    self.config.metrics_host,
                    self.config.metrics_port,
                    e,
                )
        self.computer = Computer(self.front, workers=self.config.computer_workers)
        if self.seed is not None:
            self.computer.rng.seed(self.seed + 1)
        self.front.computer = self.computer
        self.front.painter = Painter(self.config.render_workers)
        self.front.painter.start()
        self.add_dynamic_items(
            *ALL_CONTROLS, *LOOKBACK_CONTROLS, *GAMES_CONTROLS, *PRIVACY_CONTROLS
        )
        # The commands' names and descriptions in French and German clients' languages.
        await self.tree.set_translator(CommandTranslator())
        self.tree.add_command(SchottenCommands(self.front))
        self.tree.add_command(AdminCommands(self.front))
        # One process syncs the commands: the one with shard 0 (or every shard). Either
        # way the commands' ids come back, to name them in messages as mentions.
        use_mentions(self.mentions)
        guild = discord.Object(self.config.dev_guild) if self.config.dev_guild else None
        if self.shard_ids is None or 0 in self.shard_ids:
            if guild is not None:
                self.tree.copy_global_to(guild=guild)
            self.mentions.learn(await self.tree.sync(guild=guild))
        else:
            try:
                self.mentions.learn(await self.tree.fetch_commands(guild=guild))
            except discord.HTTPException as e:  # then commands are named as text
                log.warning("could not read the commands' ids: %s", e)
        self.timers.change_interval(seconds=self.config.timer_seconds)
        self.timers.start()
        self.heartbeat.start()
        self.computer.start()

    async def shutdown(self, *, grace: float = 10.0) -> None:
        """A clean stop (SIGTERM, a deploy): turn new interactions away, let those under
        way finish, send every announcement still pending, then close."""
        if self.front is None or self.front.draining:
            await self.close()
            return
        log.info("shutting down: finishing what is under way")
        self.front.draining = True
        if self.timers.is_running():
            try:
                await asyncio.wait_for(self._ticking.acquire(), grace)
            except TimeoutError:
                log.warning("the timer loop was still working after %.0f s", grace)
            self.timers.cancel()
        if self.computer is not None:
            await self.computer.stop()
        if not await self.front.wait_idle(grace):
            log.warning("some requests were still under way after %.0f s", grace)
        try:
            await asyncio.wait_for(self.front.relay.deliver(everything=True), grace)
        except Exception:  # whatever is left is sent by the next start
            log.exception("announcements left for the next start")
        await self.close()

    async def close(self) -> None:
        drop_mentions(self.mentions)
        if self.heartbeat.is_running():
            self.heartbeat.cancel()
            if self.service is not None:
                try:  # gone at once, rather than dead in DEAD_AFTER seconds
                    await self.service.end_beats()
                except Exception as e:  # the database may be what failed
                    log.warning("could not remove this process's heartbeat: %s", e)
        if self.health is not None:
            await self.health.stop()
            self.health = None
        if self.timers.is_running():
            self.timers.cancel()
        if self.computer is not None:
            await self.computer.stop()
        await super().close()
        if self.front is not None:
            self.front.painter.stop()
        if self.service is not None:
            await self.service.close()
            self.service = None

    async def on_ready(self) -> None:
        shards = "all shards" if self.shard_ids is None else f"shards {self.shard_ids}"
        log.info(
            "ready as %s (%s servers, %s of %s)",
            self.user,
            len(self.guilds),
            shards,
            self.shard_count,
        )

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server (GUILD_DELETE without `unavailable`; an outage calls
        on_guild_unavailable instead): its games end abandoned and its tournaments and
        challenges stop, in one transaction, remembered (bot/refusals.py)."""
        if self.service is None:
            return
        stopped = await self.service.refusals.left_server(guild.id)
        log.warning(
            "removed from server %s: %s games abandoned, %s tournaments and %s challenges"
            " cancelled, %s announcements set aside",
            guild.id,
            stopped["games"],
            stopped["tournaments"],
            stopped["challenges"],
            stopped["announcements"],
        )

    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        """A channel's permissions changed: if the bot may post there (or in its threads)
        again, what it remembered of refused posts there is forgotten (bot/refusals.py)."""
        me = after.guild.me
        if self.service is None or me is None or not isinstance(after, discord.TextChannel):
            return
        p = after.permissions_for(me)
        if p.view_channel and (p.send_messages or p.send_messages_in_threads):
            await self.service.refusals.reopened(
                after.id, itself=p.send_messages, threads=p.send_messages_in_threads
            )

    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        """A moderator unlocked a thread: posting there is no longer refused (a lock is
        remembered as a refusal, bot/refusals.py)."""
        if self.service is not None and before.locked and not after.locked:
            await self.service.refusals.reopened(after.id, itself=True, threads=False)

    async def on_thread_join(self, thread: discord.Thread) -> None:
        """A thread shown to the bot again, as when it is unarchived (discord.py keeps no
        archived thread, so no THREAD_UPDATE reaches on_thread_update): unlocked, a lock
        remembered there is forgotten."""
        if self.service is None or thread.locked:
            return
        if await self.service.refusals.channel_closed(thread.id) == THREAD_LOCKED:
            await self.service.refusals.reopened(thread.id, itself=True, threads=False)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self._in_server(guild)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self._in_server(guild)

    async def _in_server(self, guild: discord.Guild) -> None:
        """In a server again (invited back): it is served afresh."""
        if self.service is not None and await self.service.refusals.back_in_server(guild.id):
            log.info("back in server %s", guild.id)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A button or menu that no control reads would get no answer at all (Discord
        shows "This interaction failed"); refuse it with a word instead."""
        metrics.INTERACTIONS.labels(*_kind_and_name(interaction)).inc()
        if interaction.type is not discord.InteractionType.component:
            return
        # discord.py types `data` as a union of TypedDicts; read here as a plain dict (.get).
        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        custom_id = str(data.get("custom_id", ""))
        if not any(
            known(custom_id)
            for known in (understood, lookback_understood, games_understood, privacy_understood)
        ):
            use(language_of(interaction.locale))  # this task only: the refusal's language
            try:
                read_control(custom_id)
            except Refused as refusal:
                await report(interaction, refusal, where=custom_id[:100])

    @tasks.loop(seconds=60)
    async def timers(self) -> None:
        """Reminders, forfeits and expiries. Deadlines live in the database, so a restart
        only delays them until the loop's first run."""
        if self.front is None:
            return
        async with self._ticking:
            await self._tick(self.front)

    async def _tick(self, front: Front) -> None:
        try:
            # First what is owed from before (at start-up: what an earlier run stored but
            # did not announce), then what time brought.
            await front.relay.deliver()
            await front.handle_due()
            if self.computer is not None:
                self.computer.wake()  # a turn another process took and dropped
        except Exception:  # keep the loop running
            log.exception("timer loop")

    @tasks.loop(seconds=BEAT_SECONDS)
    async def heartbeat(self) -> None:
        """This process is alive; and what a dead one had taken (or stored and left) is
        taken over now, not when its leases run out."""
        if self.front is None or self.service is None:
            return
        try:
            announcements, computer = await self.service.beat()
            if announcements or computer:  # a killed process's, or one left behind
                log.info(
                    "taking over: announcements %s, computer turns %s", announcements, computer
                )
            if announcements:
                await self.front.relay.deliver()
            if computer and self.computer is not None:
                self.computer.wake()
        except Exception:  # keep beating
            log.exception("heartbeat")

    @timers.before_loop
    async def _timers_wait(self) -> None:
        await self.wait_until_ready()

    async def _listen(self, interaction: discord.Interaction) -> bool:
        """The tree's check before every command and autocomplete: the request speaks the
        member's language from here on (and it is remembered for later DMs). Never refuses."""
        if self.front is not None:
            await self.front.listen(interaction)
        else:
            use(language_of(interaction.locale))
        return True

    async def _on_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        name = interaction.command.qualified_name if interaction.command else "?"
        await report(interaction, error, where=f"/{name}")


def _kind_and_name(interaction: discord.Interaction) -> tuple[str, str]:
    """How the metrics name an interaction: a command by its full name, a button or menu by
    the kind of control (the first two parts of its custom id, never its game or player)."""
    if interaction.command is not None:
        return interaction.type.name, interaction.command.qualified_name
    # discord.py types `data` as a union of TypedDicts; read here as a plain dict (.get).
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    custom_id = str(data.get("custom_id", ""))
    return interaction.type.name, ":".join(custom_id.split(":")[:2]) or "-"
