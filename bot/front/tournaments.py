"""Tournaments on Discord: the `/schotten tournament` commands, the Join button, and the
loop step that starts each round's games in threads and announces rounds and results.

The service decides everything and stores it first (bot/tournament/service.py); this
module only shows it. Each step can run again after a crash: a thread opened for a game
that another run started meanwhile is deleted, and an announcement is marked done after it
went out (a crash in between repeats it rather than losing it).
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.errors import Refused
from bot.front.controls import JoinTournamentButton
from bot.front.match_options import spec_from_options
from bot.front.notifications import mentions_for
from bot.front.ports import DeskFront
from bot.front.replies import (
    QUIET,
    SUGGESTION_SECONDS,
    acknowledge,
    is_manager,
    member_of,
    quietly,
)
from bot.refusals import CHANNEL, CHANNEL_CODES
from bot.tournament import pairing
from bot.tournament.records import DEFAULT_ORDER, FORMATS, TIEBREAK_ORDERS, Pairing, TournamentInfo
from bot.wording import JOIN_BUTTON
from engine.api import VARIANTS, MatchSpec
from lang import (
    _,
    current,
    fill,
    localise,
    mention,
    ngettext,
    npgettext,
    pgettext,
    say,
    say_n,
    speaking,
)
from render.tournament_standings import points_text

log = logging.getLogger("schotten.bot")
# Discord allows only a few edits of messages older than an hour in a channel every few
# seconds (30046; its budget is undocumented) and sign-ups come in bursts: a sign-up post
# older than this is posted afresh at the next change rather than edited (a margin short of
# the hour, so that no edit lands just past it).
SIGN_UP_EDITABLE = 3300.0
# A server at Discord's cap of active threads (160006) frees some only as threads archive
# after their inactivity: its tournament games wait this long before the next try rather
# than ask at every tick.
THREADS_FULL = 160006
THREADS_FULL_WAIT = 1800.0
GAMES = [app_commands.Choice(name=name, value=key) for key, name in VARIANTS.items()]
FORMAT_CHOICES = [app_commands.Choice(name=name, value=key) for key, name in FORMATS.items()]
TIEBREAK_CHOICES = [
    app_commands.Choice(name=name, value=key) for key, (_names, name) in TIEBREAK_ORDERS.items()
]
RESULT_SIGNS = {"W": "+", "L": "−", "D": "="}
PAGE = 25
# headings that fit a phone (FIDE's abbreviation for Buchholz Cut-1)
SHORT = {"Sonneborn-Berger": "SB", "Head-to-head": "H2H", "Buchholz Cut-1": "BH-C1"}


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise Refused(say("Tournaments are run in a server; use this command there."))
    return interaction.guild_id


# Texts -------------------------------------------------------------------------------------


def format_name(fmt: str) -> str:
    """A tournament format's name, as a label ("Swiss", "round robin")."""
    if fmt == "swiss":
        return pgettext("tournament format", "Swiss")
    if fmt == "round-robin":
        return pgettext("tournament format", "round robin")
    return FORMATS.get(fmt, fmt)


def player_count(count: int) -> str:
    """ "1 player", "5 players"."""
    return fill(ngettext("{count} player", "{count} players", count), count=count)


def tournament_rounds(count: int) -> str:
    """ "1 round", "5 rounds": a tournament's rounds (not a match's)."""
    # TRANSLATORS: a tournament's rounds (French "rondes", not the "manches" of a match).
    text = npgettext("tournament", "{count} round", "{count} rounds", count)
    return fill(text, count=count)


def _kind(t: TournamentInfo) -> str:
    """The announcement's first line: its format, game, rounds and round length."""
    values = {
        "name": t.name,
        "game": localise(t.spec.describe()),
        "rounds": tournament_rounds(t.rounds),
        "hours": f"{t.round_hours:g}",
    }
    if t.format == "swiss" and t.rounds:
        # TRANSLATORS: {game} describes the matches played, e.g. "Schotten Totten, 3 rounds";
        # {rounds} the tournament's rounds ("5 rounds").
        text = _(
            "🏆 **{name}**: a Swiss tournament of {game}, {rounds}; each round lasts {hours} h."
        )
    elif t.format == "swiss":
        text = _("🏆 **{name}**: a Swiss tournament of {game}; each round lasts {hours} h.")
    elif t.rounds:
        text = _(
            "🏆 **{name}**: a round robin tournament of {game}, {rounds};"
            " each round lasts {hours} h."
        )
    else:
        text = _("🏆 **{name}**: a round robin tournament of {game}; each round lasts {hours} h.")
    return fill(text, **values)


def _sign_up(status: str) -> str:
    if status == "open":
        # TRANSLATORS: {join} is the label of the announcement's button; {start} the
        # command /schotten tournament start (a mention in English; in French and German its
        # localised name, as code).
        return fill(
            _("Press **{join}** to play; the creator or a manager starts it with {start}."),
            join=localise(JOIN_BUTTON),
            start=mention("/schotten-admin tournament start"),
        )
    if status == "running":
        return _("Sign-up is closed: the tournament is running.")
    if status == "finished":
        return _("Sign-up is closed: the tournament is finished.")
    if status == "cancelled":
        return _("Sign-up is closed: the tournament is cancelled.")
    return fill(_("Sign-up is closed: the tournament is {status}."), status=status)


def announcement(t: TournamentInfo) -> str:
    """The tournament's post (in the server's language: the caller speaks it)."""
    names = ", ".join(e.name for e in t.entrants) or _("nobody yet")
    players = fill(_("Players ({count}): {names}."), count=len(t.entrants), names=names)
    return f"{_kind(t)}\n{players}\n{_sign_up(t.status)}"


def pairing_line(t: TournamentInfo, g: Pairing, *, ping: bool) -> str:
    def who(user: int) -> str:
        return f"<@{user}>" if ping else t.name_of(user)

    if g.second_id is None:
        if t.format == "round-robin":  # FIDE: a round robin's free round is no game, no point
            return fill(_("• {player}: free round (no game, no point)"), player=who(g.first_id))
        return fill(_("• {player}: bye (1 point)"), player=who(g.first_id))
    first, second = who(g.first_id), who(g.second_id)
    if g.points is not None:
        a, b = (points_text(p) for p in g.points)
        if g.forfeit:
            return fill(
                _("• {first} vs {second}: {first_points}–{second_points} (forfeit)"),
                first=first,
                second=second,
                first_points=a,
                second_points=b,
            )
        return fill(
            _("• {first} vs {second}: {first_points}–{second_points}"),
            first=first,
            second=second,
            first_points=a,
            second_points=b,
        )
    if g.channel_id is not None:
        # TRANSLATORS: <#{channel_id}> is Discord's link to the game's thread.
        return fill(
            _("• {first} vs {second} in <#{channel_id}>"),
            first=first,
            second=second,
            channel_id=g.channel_id,
        )
    return fill(_("• {first} vs {second}"), first=first, second=second)


def _winners(names: list[str]) -> str:
    """ "Alice", "Alice and Bob", "Alice and Bob and Carol"."""
    if not names:
        return ""
    text = names[0]
    for name in names[1:]:
        text = fill(_("{first} and {second}"), first=text, second=name)
    return text


# Commands ------------------------------------------------------------------------------------


class TournamentCommands(app_commands.Group):
    def __init__(self, front: DeskFront) -> None:
        super().__init__(name="tournament", description="Round robin and Swiss tournaments")
        self.front = front

    async def _pick(self, interaction: discord.Interaction, name: str | None) -> TournamentInfo:
        return await self.front.tournaments.find(_guild(interaction), name)

    @app_commands.command(description="Join a tournament before it starts")
    @app_commands.describe(tournament="Which one (the only one open, if left out)")
    async def join(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        async with self.front.working():
            await acknowledge(interaction, private=True)
            t = await self._pick(interaction, tournament)
            await self.front.desk.join(interaction, t.id)

    @app_commands.command(description="Leave a tournament before it starts")
    @app_commands.describe(tournament="Which one (the only one open, if left out)")
    async def leave(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        async with self.front.working():
            await acknowledge(interaction, private=True)
            t = await self._pick(interaction, tournament)
            t = await self.front.tournaments.leave(t.id, interaction.user.id)
            await interaction.followup.send(
                fill(
                    ngettext(
                        "You left {name}; {count} player remains.",
                        "You left {name}; {count} players remain.",
                        len(t.entrants),
                    ),
                    name=t.name,
                    count=len(t.entrants),
                ),
                ephemeral=True,
            )
            await self.front.desk.refresh(t)

    @app_commands.command(description="A tournament's standings, as a table")
    @app_commands.describe(tournament="Which one (the only live one, if left out)", page="Page")
    async def standings(
        self,
        interaction: discord.Interaction,
        tournament: str | None = None,
        page: app_commands.Range[int, 1, 20] = 1,
    ) -> None:
        async with self.front.working():
            await acknowledge(interaction)
            t = await self._pick(interaction, tournament)
            with speaking(await self.front.server_language(t.guild_id)):  # a public post
                text, file = await self.front.desk.standings_message(t, page)
            if file is None:  # not started: a line, no picture (discord.py takes no file=None)
                await interaction.followup.send(text, allowed_mentions=QUIET)
            else:
                await interaction.followup.send(text, file=file, allowed_mentions=QUIET)

    @app_commands.command(description="A round's pairings and results")
    @app_commands.describe(round="Which round (the current one, if left out)", tournament="Which")
    async def pairings(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, 1, 50] | None = None,
        tournament: str | None = None,
    ) -> None:
        async with self.front.working():
            await acknowledge(interaction)
            t = await self._pick(interaction, tournament)
            if t.round == 0:
                raise Refused(say("{name} has not started yet; nobody is paired.", name=t.name))
            r = round or t.round
            if r > t.round:
                raise Refused(
                    say(
                        "{name} is in round {current}; round {round} is not paired yet.",
                        name=t.name,
                        current=t.round,
                        round=r,
                    )
                )
            with speaking(await self.front.server_language(t.guild_id)):  # a public post
                lines = await self.front.desk.pairing_lines(t, r, ping=False)
                head = fill(
                    _("**{name}**, round {round} of {rounds}:"),
                    name=t.name,
                    round=r,
                    rounds=t.rounds,
                )
            await interaction.followup.send("\n".join([head, *lines]), allowed_mentions=QUIET)

    @app_commands.command(name="list", description="Tournaments open or running here")
    async def list_(self, interaction: discord.Interaction) -> None:
        async with self.front.working():
            guild = _guild(interaction)
            await acknowledge(interaction, private=True)
            live = await self.front.tournaments.live(guild)
            lines = [_live_line(t) for t in live] or [
                _("No tournament is open or running; a manager can create one.")
            ]
            await interaction.followup.send("\n".join(lines), ephemeral=True)

    @join.autocomplete("tournament")
    @leave.autocomplete("tournament")
    @standings.autocomplete("tournament")
    @pairings.autocomplete("tournament")
    async def _names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await live_names(self.front, interaction, current)


class AdminTournamentCommands(app_commands.Group):
    """`/schotten-admin tournament`: what only managers do with tournaments."""

    def __init__(self, front: DeskFront) -> None:
        super().__init__(name="tournament", description="Create, start and cancel tournaments")
        self.front = front

    async def _pick(self, interaction: discord.Interaction, name: str | None) -> TournamentInfo:
        return await self.front.tournaments.find(_guild(interaction), name)

    @app_commands.command(description="Create a tournament (server managers)")
    @app_commands.describe(
        name="Its name, e.g. Friday Swiss",
        game="Which game and variant every game is played in",
        format="Swiss (a few rounds, no rematch) or round robin (everyone meets everyone)",
        rounds="Swiss: how many rounds (default: enough to find a winner)",
        round_hours="How long each round lasts before unplayed games are forfeited",
        rounds_of_match="Schotten Totten: rounds in each match; Schotten Totten 2: 2 = revenge",
        tiebreaks="Tie-breaks in order (default: Buchholz in Swiss, head-to-head in round robin)",
    )
    @app_commands.choices(game=GAMES, format=FORMAT_CHOICES, tiebreaks=TIEBREAK_CHOICES)
    # The tournament's rounds: French "rondes", not the "manches" of a match (`rounds_of_match`).
    @app_commands.rename(rounds=locale_str("rounds", meaning="tournament"))
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 50],
        game: str = "classic",
        format: str = "swiss",
        rounds: app_commands.Range[int, 1, 15] | None = None,
        round_hours: app_commands.Range[float, 12, 720] | None = None,
        rounds_of_match: app_commands.Range[int, 1, 15] = 1,
        tiebreaks: str | None = None,
    ) -> None:
        async with self.front.working():
            await self.front.desk.create(
                interaction,
                name,
                _spec(game, rounds_of_match),
                format,
                rounds,
                round_hours,
                tiebreaks,
            )

    @app_commands.command(description="Close sign-up and pair round 1 (creator or managers)")
    @app_commands.describe(tournament="Which one (the only one open, if left out)")
    async def start(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        async with self.front.working():
            await acknowledge(interaction)
            t = await self._pick(interaction, tournament)
            t = await self.front.tournaments.start(
                t.id, interaction.user.id, is_manager=is_manager(interaction)
            )
            with speaking(await self.front.server_language(t.guild_id)):  # a public post
                # TRANSLATORS: {players} is "5 players", {rounds} "3 rounds" (of the
                # tournament), {hours} a number of hours.
                text = fill(
                    _(
                        "**{name}** has started: {players}, {rounds} of {hours} h."
                        " Round 1's games are opening now."
                    ),
                    name=t.name,
                    players=player_count(len(t.entrants)),
                    rounds=tournament_rounds(t.rounds),
                    hours=f"{t.round_hours:g}",
                )
            await interaction.followup.send(text, allowed_mentions=QUIET)
            await self.front.desk.refresh(t)
            await self.front.desk.tick()

    @app_commands.command(description="Cancel a tournament (creator or managers)")
    @app_commands.describe(tournament="Which one (the only live one, if left out)")
    async def cancel(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        async with self.front.working():
            await acknowledge(interaction)
            t = await self._pick(interaction, tournament)
            t = await self.front.tournaments.cancel(
                t.id, interaction.user.id, is_manager=is_manager(interaction)
            )
            await self.front.desk.refresh(t)
            with speaking(await self.front.server_language(t.guild_id)):  # a public post
                text = fill(
                    _(
                        "**{name}** is cancelled. Games under way can still be played out; they"
                        " no longer count for it."
                    ),
                    name=t.name,
                )
            await interaction.followup.send(text)

    @start.autocomplete("tournament")
    @cancel.autocomplete("tournament")
    async def _names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await live_names(self.front, interaction, current)


async def live_names(
    front: DeskFront, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The live tournaments whose name holds what the member typed (best effort: none if
    the lookup is slow or fails)."""
    try:
        lookup = front.tournaments.live(_guild(interaction))
        live = await asyncio.wait_for(lookup, SUGGESTION_SECONDS)
    except Exception:
        return []
    typed = current.casefold()
    return [
        app_commands.Choice(name=t.name, value=t.name) for t in live if typed in t.name.casefold()
    ][:25]


def _live_line(t: TournamentInfo) -> str:
    values = {
        "name": t.name,
        "format": format_name(t.format),
        "game": localise(t.spec.describe()),
        "players": player_count(len(t.entrants)),
        "round": t.round,
        "rounds": t.rounds,
    }
    if t.status == "open":
        # TRANSLATORS: {format} is Swiss or round robin; {game} describes the matches;
        # {players} is "5 players".
        return fill(_("• **{name}**: {format}, {game}, {players}, open for sign-up"), **values)
    return fill(_("• **{name}**: {format}, {game}, {players}, round {round} of {rounds}"), **values)


def _spec(game: str, rounds_of_match: int) -> MatchSpec:
    """A challenge's rules for the match length, applied to every game of the event."""
    return spec_from_options(game, rounds_of_match, None, named="rounds_of_match")


# Running tournaments on Discord ------------------------------------------------------------


class TournamentDesk:
    """What the commands, the Join button and the timer loop call: the front's side of the
    tournaments (`front.tournaments` is the service)."""

    def __init__(self, front: DeskFront) -> None:
        self.front = front
        self.tournaments = front.tournaments
        self._lock = asyncio.Lock()  # one tournament step at a time in this process
        self._background: set[asyncio.Task[None]] = set()
        # When this process posted a sign-up message afresh (by message id, on the clock);
        # one it did not post here is dated from its tournament's creation, an upper bound.
        self._posted: dict[int, float] = {}
        self._refreshing = asyncio.Lock()  # one sign-up post per tournament, not one per join
        # Servers full of active threads (160006), by id: the clock time of the next try.
        self._threads_full: dict[int, float] = {}

    async def create(
        self,
        interaction: discord.Interaction,
        name: str,
        spec: MatchSpec,
        fmt: str,
        rounds: int | None,
        round_hours: float | None,
        tiebreak_order: str | None = None,
    ) -> None:
        guild = interaction.guild
        channel = interaction.channel
        if guild is None or not isinstance(channel, discord.TextChannel):
            raise Refused(say("Create a tournament in a text channel of the server."))
        me = guild.me
        perms = channel.permissions_for(me) if me is not None else None
        if perms is None or not (perms.create_public_threads and perms.send_messages_in_threads):
            # TRANSLATORS: the permission names are Discord's own ("Create Public Threads").
            raise Refused(
                say(
                    "Each tournament game gets a thread of {channel}, and I may not open"
                    " threads there. Give me Create Public Threads and Send Messages in"
                    " Threads, or create it in another channel.",
                    channel=channel.mention,
                )
            )
        await acknowledge(interaction)  # the announcement is for the channel
        t = await self.tournaments.create(
            guild_id=guild.id,
            channel_id=channel.id,
            creator=member_of(interaction.user),
            name=name,
            spec=spec,
            fmt=fmt,
            rounds=rounds,
            round_hours=round_hours,
            is_manager=is_manager(interaction),
            tiebreak_order=tiebreak_order,
        )
        with speaking(await self.front.server_language(t.guild_id)):  # a public post
            text = announcement(t)
            view = _join_view(t)
        message = await interaction.followup.send(
            text, view=view, allowed_mentions=QUIET, wait=True
        )
        await self.tournaments.set_message(t.id, message.id)

    async def join(self, interaction: discord.Interaction, tid: int) -> None:
        await acknowledge(interaction, private=True)
        t = await self.tournaments.join(tid, member_of(interaction.user))
        text = fill(
            ngettext(
                "You joined **{name}** ({count} player so far). Your games will open in threads"
                " of its channel, and your hand comes by DM as in any game.",
                "You joined **{name}** ({count} players so far). Your games will open in threads"
                " of its channel, and your hand comes by DM as in any game.",
                len(t.entrants),
            ),
            name=t.name,
            count=len(t.entrants),
        )
        await interaction.followup.send(text, ephemeral=True)
        await self.refresh(t)

    async def refresh(self, t: TournamentInfo) -> None:
        """Keep the announcement current: its players, and its Join button while open. A
        post older than SIGN_UP_EDITABLE is posted afresh (the old one deleted) rather than
        edited, so that a burst of joins meets no 30046 and no join goes unshown."""
        if t.message_id is None:
            return
        channel = await self.front.channel(t.channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return
        async with self._refreshing:
            t = await self.tournaments.get(t.id)  # as it is now: another join may have posted
            if t.message_id is None:
                return
            with speaking(await self.front.server_language(t.guild_id)):  # a public post
                text = announcement(t)
                view = _join_view(t)
            old = channel.get_partial_message(t.message_id)
            posted = self._posted.get(t.message_id, t.created_at)
            if self.tournaments.clock.now() - posted < SIGN_UP_EDITABLE:
                await quietly(old.edit(content=text, view=view, allowed_mentions=QUIET))
                return
            try:
                fresh = await channel.send(text, view=view, allowed_mentions=QUIET)
            except discord.HTTPException as e:  # the join is kept; the next change shows it
                log.warning("tournament %s: sign-up post not renewed: %s", t.id, e)
                return
            self._posted[fresh.id] = self.tournaments.clock.now()
            await self.tournaments.set_message(t.id, fresh.id)
            await quietly(old.delete())

    async def _present(self, guild_id: int, user_id: int) -> bool:
        guild = self.front.client.get_guild(guild_id)
        if guild is None:
            return True  # cannot tell: keep them
        try:
            await guild.fetch_member(user_id)
        except discord.NotFound:
            return False
        except discord.HTTPException:
            return True
        return True

    def tick_soon(self) -> None:
        """A tick after the current request (a tournament game ended), so that the request
        does not wait for a whole round's pairing and announcements."""
        task = asyncio.get_running_loop().create_task(self._tick_logged())
        self._background.add(task)  # a task nobody holds may be collected mid-run
        task.add_done_callback(self._background.discard)

    async def _tick_logged(self) -> None:
        try:
            await self.tick()
        except Exception:  # the timer loop runs it again
            log.exception("tournament step after a game")

    async def tick(self) -> None:
        """Results, deadlines, new rounds; then open the games waiting for a thread, then
        announce what is new. Safe to run from several places at once."""
        async with self._lock:
            progress = await self.tournaments.advance(self._present)
            for result in progress.forfeits:
                await self.front.after_move(result)
            for match_id in progress.abandoned:
                info = await self.front.service.match(match_id)
                channel = await self.front.channel(info.channel_id)
                if channel is not None:
                    with speaking(await self.front.server_language(info.guild_id)):
                        text = fill(
                            _(
                                "Game #{game_id} is over: neither player moved before the round's"
                                " deadline, so both lose it in the tournament. It does not change"
                                " ratings."
                            ),
                            game_id=match_id,
                        )
                    await self._post(channel, text)
            for t, g in await self.tournaments.to_start():
                await self._open_game(t, g)
            await self._announce()

    async def _open_game(self, t: TournamentInfo, g: Pairing) -> None:
        if await self._closed(t.channel_id):
            return  # refused there before: not asked again until it may (bot/refusals.py)
        now = self.tournaments.clock.now()
        if now < self._threads_full.get(t.guild_id, now):
            return  # the server is full of threads: tried again once some may have archived
        channel = await self.front.channel(t.channel_id)
        if not isinstance(channel, discord.TextChannel):
            log.warning("tournament %s: its channel %s is gone", t.id, t.channel_id)
            return
        language = await self.front.server_language(t.guild_id)  # public: the server's
        with speaking(language):
            # TRANSLATORS: a thread's name (at most 90 characters); R{round}: round {round}.
            name = fill(
                _("{name} R{round}: {first} vs {second}"),
                name=t.name,
                round=g.round,
                first=t.name_of(g.first_id),
                second=t.name_of(g.second_id),
            )
        try:
            thread = await channel.create_thread(
                name=name[:90], type=discord.ChannelType.public_thread, auto_archive_duration=10080
            )
        except discord.HTTPException as e:
            log.warning("tournament %s: no thread for its game: %s", t.id, e)
            if e.code == THREADS_FULL:
                self._threads_full[t.guild_id] = now + THREADS_FULL_WAIT
            await self._note_refused(channel, e)
            return
        try:
            info = await self.tournaments.start_game(g, thread.id)
        except Refused:  # another run started it meanwhile
            # Its creator may archive it (deleting takes Manage Threads, which the invite
            # does not give): the empty thread leaves the channel's list.
            await quietly(thread.edit(archived=True))
            return
        for user in info.players:
            await quietly(thread.add_user(discord.Object(user)))
        with speaking(language):
            # TRANSLATORS: <t:{deadline}:R> is Discord's "in 2 days" (in the reader's language).
            text = fill(
                _(
                    "**{name}**, round {round}: <@{first}> against <@{second}>. The round ends"
                    " <t:{deadline}:R>; a game still going then is lost by the player it waits for."
                ),
                name=t.name,
                round=g.round,
                first=g.first_id,
                second=g.second_id,
                deadline=int(t.round_deadline or 0),
            )
        # One signal a player: the one to move has their turn's (the hand's DM, or the
        # board's ping), so this post pings only the other.
        waiting = [p for p in info.players if p != info.deciding_user]
        await self._post(
            thread, text, allowed_mentions=await mentions_for(self.front.service, waiting)
        )
        try:
            await self.front.relay.deliver(info.id)
        except Exception:  # stored with the game; the relay retries
            log.exception("announcing tournament game %s", info.id)

    async def _closed(self, channel_id: int) -> bool:
        """Posting there was refused before (bot/refusals.py): not asked again until it may."""
        return await self.front.service.refusals.channel_closed(channel_id) is not None

    async def _post(self, channel: Any, content: str, **kwargs: Any) -> bool:
        """Post an announcement; False if Discord refused it (tried again at a later tick),
        or if posting there was refused before (then not asked: bot/refusals.py)."""
        if await self._closed(channel.id):
            return False
        kwargs.setdefault("allowed_mentions", QUIET)
        try:
            await channel.send(content, **kwargs)
        except discord.HTTPException as e:
            log.warning("tournament announcement failed: %s", e)
            await self._note_refused(channel, e)
            return False
        return True

    async def _note_refused(self, channel: Any, error: discord.HTTPException) -> None:
        """Remember a channel where Discord refused a post or a thread for good."""
        if error.code in CHANNEL_CODES:
            parent = channel.parent_id if isinstance(channel, discord.Thread) else None
            await self.front.service.refusals.note(
                CHANNEL, channel.id, error.code, parent_id=parent
            )

    async def pairing_lines(self, t: TournamentInfo, r: int, *, ping: bool) -> list[str]:
        return [pairing_line(t, g, ping=ping) for g in await self.tournaments.pairings(t.id, r)]

    async def _announce(self) -> None:
        for t in await self.tournaments.unannounced():
            channel = await self.front.channel(t.channel_id)
            if channel is None or await self._closed(t.channel_id):
                continue  # gone, or refused there before: announced once it may post there
            with speaking(await self.front.server_language(t.guild_id)):  # a public post
                if t.status == "running":
                    pairings = await self.tournaments.pairings(t.id, t.round)
                    lines = [pairing_line(t, g, ping=True) for g in pairings]
                    # TRANSLATORS: <t:{deadline}:f> is Discord's date and time of the deadline.
                    head = fill(
                        _(
                            "🏆 **{name}**, round {round} of {rounds}: the games are open, each in"
                            " its thread. The round ends <t:{deadline}:f>."
                        ),
                        name=t.name,
                        round=t.round,
                        rounds=t.rounds,
                        deadline=int(t.round_deadline or 0),
                    )
                    text = "\n".join([head, *lines])
                    # Only a player with a bye is pinged here: the others are, once each, in
                    # their game's thread (its first post, or their turn's signal).
                    byes = [g.first_id for g in pairings if g.second_id is None]
                    mentions = await mentions_for(self.front.service, byes)
                    sent = await self._post(channel, text[:2000], allowed_mentions=mentions)
                    upto = t.round
                else:
                    table = await self.tournaments.standings(t)
                    content, file = await self.standings_message(t, 1, table)
                    winners = [t.name_of(s.player) for s in table if s.rank == 1]
                    # TRANSLATORS: {winners} is one name, or several joined by "and".
                    head = fill(
                        _("🏆 **{name}** is over. Winner: **{winners}**!"),
                        name=t.name,
                        winners=_winners(winners),
                    )
                    sent = await self._post(channel, f"{head}\n{content}", file=file)
                    upto = t.rounds + 1
            if sent:
                await self.tournaments.mark_announced(t.id, upto)

    async def standings_message(
        self, t: TournamentInfo, page: int, table: list[pairing.Standing] | None = None
    ) -> tuple[str, discord.File | None]:
        if table is None:
            table = await self.tournaments.standings(t)
        """The standings' caption and picture, in the current language (the caller speaks
        the server's: standings are posted publicly)."""
        pages = max(1, -(-len(table) // PAGE))
        if page > pages:
            raise Refused(
                say_n(
                    "{name}'s standings have {count} page.",
                    "{name}'s standings have {count} pages.",
                    pages,
                    name=t.name,
                )
            )
        rows = table[(page - 1) * PAGE : page * PAGE]
        if t.status == "open" or not rows:
            text = fill(
                ngettext(
                    "**{name}** has not started; {count} player signed up.",
                    "**{name}** has not started; {count} players signed up.",
                    len(t.entrants),
                ),
                name=t.name,
                count=len(t.entrants),
            )
            return text, None
        done = t.round if t.status != "running" else t.round - 1
        if t.status == "finished":
            when = _("final standings")
        else:
            when = fill(_("after round {round} of {rounds}"), round=done, rounds=t.rounds)
        png = await asyncio.to_thread(_draw_standings, t, rows, table, when, current())
        if pages > 1:
            # TRANSLATORS: {when} is "final standings" or "after round 2 of 5".
            caption = fill(
                _("**{name}** · {when} · page {page} of {pages}"),
                name=t.name,
                when=when,
                page=page,
                pages=pages,
            )
        else:
            caption = fill(_("**{name}** · {when}"), name=t.name, when=when)
        return caption, discord.File(io.BytesIO(png), filename=f"standings-{t.id}.png")


def _draw_standings(
    t: TournamentInfo,
    rows: list[pairing.Standing],
    table: list[pairing.Standing],
    when: str,
    language: str,
) -> bytes:
    """In a thread: the table picture, each result cell naming the opponent's rank, drawn in
    `language`."""
    from render.tournament_standings import StandingRow, render_standings

    rank_of = {s.player: s.rank for s in table}
    drawn = []
    with speaking(language):
        for s in rows:
            cells = tuple(
                _cell(code, None if opponent is None else rank_of.get(opponent))
                for code, opponent in zip(s.results, s.opponents, strict=False)
            )
            e = t.entrant(s.player)
            drawn.append(
                StandingRow(
                    s.rank,
                    t.name_of(s.player),
                    s.points,
                    s.tiebreaks,
                    cells,
                    withdrawn=bool(e and e.withdrawn),
                )
            )
        names = [_tiebreak(n) for n in t.tiebreaks]
        note = _note(t.tiebreak_order or DEFAULT_ORDER[t.format])
    return render_standings(
        f"{t.name} · {when}",
        drawn,
        tiebreak_names=names,
        rounds=t.rounds,
        note=note,
        locale=language,
    )


def _tiebreak(name: str) -> str:
    """A tie-break's column heading, short enough for a phone."""
    if name == "Head-to-head":
        # TRANSLATORS: a table heading, 3 or 4 letters: points among the tied players.
        return pgettext("tie-break heading", "H2H")
    if name == "Wins":
        # TRANSLATORS: a table heading, at most 6 letters: the number of rounds won.
        return pgettext("tie-break heading", "Wins")
    return SHORT.get(name, name)  # Buchholz, SB (Sonneborn-Berger): names of their own


def _cell(code: str, opponent_rank: int | None) -> str:
    """A result as the table shows it: "+3" won against #3, "−F" lost by forfeit..."""
    if code == "B":
        # TRANSLATORS: a table cell (at most 5 letters): the player had no opponent this round.
        return pgettext("standings cell", "bye")
    if code in ("F", "f", "?"):
        return {"F": "+F", "f": "−F", "?": "…"}[code]
    if code in ("W", "L", "D") and opponent_rank is not None:
        return f"{RESULT_SIGNS[code]}{opponent_rank}"
    return "·"


def _note(order: str) -> str:
    """The legend under the table for a tie-break order (records.TIEBREAK_ORDERS); it names
    how unplayed rounds count (FIDE 2023)."""
    if order == "buchholz-cut":
        # TRANSLATORS: BH-C1 is FIDE's abbreviation of Buchholz Cut-1; "Wins" is your
        # translation of the Wins heading. "FIDE 2023" names the 2023 tie-break regulations.
        return _(
            "BH-C1: Buchholz without the lowest · Buchholz: opponents' points · SB:"
            " Sonneborn-Berger · Wins: rounds won · unplayed rounds: FIDE 2023 rules"
            " · +n/−n/=n: result against #n"
        )
    if order == "head-to-head-wins":
        # TRANSLATORS: H2H and Wins are your translations of those headings.
        return _(
            "H2H: points among the tied · Wins: rounds won · SB: Sonneborn-Berger · unplayed"
            " rounds: FIDE 2023 rules · +n/−n/=n: result against #n"
        )
    if order == "buchholz":
        # TRANSLATORS: "FIDE 2023" names the chess federation's 2023 tie-break regulations.
        return _(
            "Buchholz: opponents' points · SB: Sonneborn-Berger · unplayed rounds: FIDE 2023"
            " rules · +n/−n/=n: result against #n"
        )
    # TRANSLATORS: H2H is the heading of the head-to-head column; use your translation of it.
    # "FIDE 2023" names the chess federation's 2023 tie-break regulations.
    return _(
        "H2H: points among the tied · SB: Sonneborn-Berger · unplayed rounds: FIDE 2023 rules"
        " · +n/−n/=n: result against #n"
    )


def _join_view(t: TournamentInfo) -> discord.ui.View:
    """The announcement's button: Join while sign-up is open, none after."""
    view = discord.ui.View(timeout=None)
    if t.status == "open":
        view.add_item(JoinTournamentButton(t.id))
    return view
