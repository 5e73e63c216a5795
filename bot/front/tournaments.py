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
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.errors import Refused
from bot.front.replies import is_manager, member_of, quietly
from bot.tournament import pairing
from bot.tournament.records import FORMATS, Pairing, TournamentInfo
from engine.api import VARIANTS, MatchSpec
from render.standings import points_text

if TYPE_CHECKING:
    from bot.front.app import Front

log = logging.getLogger("schotten.bot")
QUIET = discord.AllowedMentions(everyone=False, roles=False, users=False)
PING = discord.AllowedMentions(everyone=False, roles=False, users=True)
GAMES = [app_commands.Choice(name=name, value=key) for key, name in VARIANTS.items()]
FORMAT_CHOICES = [app_commands.Choice(name=name, value=key) for key, name in FORMATS.items()]
RESULT_SIGNS = {"W": "+", "L": "−", "D": "="}
PAGE = 25
SHORT = {"Sonneborn-Berger": "SB", "Head-to-head": "H2H"}  # headings that fit a phone


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise Refused("Tournaments are run in a server; use this command there.")
    return interaction.guild_id


# Texts -------------------------------------------------------------------------------------


def announcement(t: TournamentInfo) -> str:
    names = ", ".join(e.name for e in t.entrants) or "nobody yet"
    hours = f"{t.round_hours:g} h"
    return (
        f"🏆 **{t.name}**: a {FORMATS[t.format]} tournament of {t.spec.describe()}"
        f"{f', {t.rounds} rounds' if t.rounds else ''}; each round lasts {hours}.\n"
        f"Players ({len(t.entrants)}): {names}.\n"
        + (
            "Press **Join** to play; the creator or a manager starts it with"
            " `/schotten tournament start`."
            if t.status == "open"
            else f"Sign-up is closed: the tournament is {t.status}."
        )
    )


def pairing_line(t: TournamentInfo, g: Pairing, *, ping: bool) -> str:
    def who(user: int) -> str:
        return f"<@{user}>" if ping else t.name_of(user)

    if g.second_id is None:
        return f"• {who(g.first_id)}: bye (1 point)"
    text = f"• {who(g.first_id)} vs {who(g.second_id)}"
    if g.points is not None:
        a, b = (points_text(p) for p in g.points)
        return text + f": {a}–{b}{' (forfeit)' if g.forfeit else ''}"
    return text + (f" in <#{g.channel_id}>" if g.channel_id is not None else "")


# Commands ------------------------------------------------------------------------------------


class TournamentCommands(app_commands.Group):
    def __init__(self, front: Front) -> None:
        super().__init__(name="tournament", description="Round robin and Swiss tournaments")
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
    )
    @app_commands.choices(game=GAMES, format=FORMAT_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 50],
        game: str = "classic",
        format: str = "swiss",
        rounds: app_commands.Range[int, 1, 15] | None = None,
        round_hours: app_commands.Range[float, 12, 720] | None = None,
        rounds_of_match: app_commands.Range[int, 1, 15] = 1,
    ) -> None:
        async with self.front.working():
            await self.front.desk.create(
                interaction, name, _spec(game, rounds_of_match), format, rounds, round_hours
            )

    @app_commands.command(description="Join a tournament before it starts")
    @app_commands.describe(tournament="Which one (the only one open, if left out)")
    async def join(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        async with self.front.working():
            t = await self._pick(interaction, tournament)
            await self.front.desk.join(interaction, t.id)

    @app_commands.command(description="Leave a tournament before it starts")
    @app_commands.describe(tournament="Which one (the only one open, if left out)")
    async def leave(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        async with self.front.working():
            t = await self._pick(interaction, tournament)
            t = await self.front.tournaments.leave(t.id, interaction.user.id)
            await interaction.response.send_message(
                f"You left {t.name}; {len(t.entrants)} player(s) remain.", ephemeral=True
            )
            await self.front.desk.refresh(t)

    @app_commands.command(description="Close sign-up and pair round 1 (creator or managers)")
    @app_commands.describe(tournament="Which one (the only one open, if left out)")
    async def start(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        async with self.front.working():
            t = await self._pick(interaction, tournament)
            await interaction.response.defer(thinking=True)
            t = await self.front.tournaments.start(
                t.id, interaction.user.id, is_manager=is_manager(interaction)
            )
            await interaction.followup.send(
                f"**{t.name}** has started: {len(t.entrants)} players, {t.rounds} rounds of"
                f" {t.round_hours:g} h. Round 1's games are opening now.",
                allowed_mentions=QUIET,
            )
            await self.front.desk.refresh(t)
            await self.front.desk.tick()

    @app_commands.command(description="A tournament's standings, as a table")
    @app_commands.describe(tournament="Which one (the only live one, if left out)", page="Page")
    async def standings(
        self,
        interaction: discord.Interaction,
        tournament: str | None = None,
        page: app_commands.Range[int, 1, 20] = 1,
    ) -> None:
        async with self.front.working():
            t = await self._pick(interaction, tournament)
            await interaction.response.defer(thinking=True)
            text, file = await self.front.desk.standings_message(t, page)
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
            t = await self._pick(interaction, tournament)
            if t.round == 0:
                raise Refused(f"{t.name} has not started yet; nobody is paired.")
            r = round or t.round
            if r > t.round:
                raise Refused(f"{t.name} is in round {t.round}; round {r} is not paired yet.")
            lines = await self.front.desk.pairing_lines(t, r, ping=False)
            await interaction.response.send_message(
                f"**{t.name}**, round {r} of {t.rounds}:\n" + "\n".join(lines),
                allowed_mentions=QUIET,
            )

    @app_commands.command(description="Cancel a tournament (creator or managers)")
    @app_commands.describe(tournament="Which one (the only live one, if left out)")
    async def cancel(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        async with self.front.working():
            t = await self._pick(interaction, tournament)
            t = await self.front.tournaments.cancel(
                t.id, interaction.user.id, is_manager=is_manager(interaction)
            )
            await self.front.desk.refresh(t)
            await interaction.response.send_message(
                f"**{t.name}** is cancelled. Games under way can still be played out; they"
                " no longer count for it."
            )

    @app_commands.command(name="list", description="Tournaments open or running here")
    async def list_(self, interaction: discord.Interaction) -> None:
        async with self.front.working():
            live = await self.front.tournaments.live(_guild(interaction))
            lines = [
                f"• **{t.name}**: {FORMATS[t.format]}, {t.spec.describe()},"
                f" {len(t.entrants)} players, "
                + ("open for sign-up" if t.status == "open" else f"round {t.round} of {t.rounds}")
                for t in live
            ] or ["No tournament is open or running; a manager can create one."]
            await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @join.autocomplete("tournament")
    @leave.autocomplete("tournament")
    @start.autocomplete("tournament")
    @standings.autocomplete("tournament")
    @pairings.autocomplete("tournament")
    @cancel.autocomplete("tournament")
    async def _names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            live = await self.front.tournaments.live(_guild(interaction))
        except Exception:  # suggestions are best effort
            return []
        typed = current.casefold()
        return [
            app_commands.Choice(name=t.name, value=t.name)
            for t in live
            if typed in t.name.casefold()
        ][:25]


def _spec(game: str, rounds_of_match: int) -> MatchSpec:
    """A challenge's rules for the match length, applied to every game of the event."""
    from bot.front.commands import spec_from_options  # commands imports this module

    return spec_from_options(game, rounds_of_match, None)


# Running tournaments on Discord ------------------------------------------------------------


class TournamentDesk:
    """What the commands, the Join button and the timer loop call: the front's side of the
    tournaments (`front.tournaments` is the service)."""

    def __init__(self, front: Front) -> None:
        self.front = front
        self.tournaments = front.tournaments
        self._lock = asyncio.Lock()  # one tournament step at a time in this process
        self._background: set[asyncio.Task[None]] = set()

    async def create(
        self,
        interaction: discord.Interaction,
        name: str,
        spec: MatchSpec,
        fmt: str,
        rounds: int | None,
        round_hours: float | None,
    ) -> None:
        guild = interaction.guild
        channel = interaction.channel
        if guild is None or not isinstance(channel, discord.TextChannel):
            raise Refused("Create a tournament in a text channel of the server.")
        me = guild.me
        perms = channel.permissions_for(me) if me is not None else None
        if perms is None or not (perms.create_public_threads and perms.send_messages_in_threads):
            raise Refused(
                f"Each tournament game gets a thread of {channel.mention}, and I may not open"
                " threads there. Give me Create Public Threads and Send Messages in Threads,"
                " or create it in another channel."
            )
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
        )
        await interaction.response.send_message(
            announcement(t), view=_join_view(t), allowed_mentions=QUIET
        )
        message = await interaction.original_response()
        await self.tournaments.set_message(t.id, message.id)

    async def join(self, interaction: discord.Interaction, tid: int) -> None:
        t = await self.tournaments.join(tid, member_of(interaction.user))
        await interaction.response.send_message(
            f"You joined **{t.name}** ({len(t.entrants)} players so far). Your games will"
            " open in threads of its channel, and your hand comes by DM as in any game.",
            ephemeral=True,
        )
        await self.refresh(t)

    async def refresh(self, t: TournamentInfo) -> None:
        """Keep the announcement current: its players, and its Join button while open."""
        if t.message_id is None:
            return
        channel = await self.front.channel(t.channel_id)
        if isinstance(channel, discord.TextChannel | discord.Thread):
            await quietly(
                channel.get_partial_message(t.message_id).edit(
                    content=announcement(t), view=_join_view(t), allowed_mentions=QUIET
                )
            )

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
                    await _send(
                        channel,
                        f"Game #{match_id} is over: neither player moved before the round's"
                        " deadline, so both lose it in the tournament. It does not change"
                        " ratings.",
                    )
            for t, g in await self.tournaments.to_start():
                await self._open_game(t, g)
            await self._announce()

    async def _open_game(self, t: TournamentInfo, g: Pairing) -> None:
        channel = await self.front.channel(t.channel_id)
        if not isinstance(channel, discord.TextChannel):
            log.warning("tournament %s: its channel %s is gone", t.id, t.channel_id)
            return
        name = f"{t.name} R{g.round}: {t.name_of(g.first_id)} vs {t.name_of(g.second_id)}"
        try:
            thread = await channel.create_thread(
                name=name[:90], type=discord.ChannelType.public_thread, auto_archive_duration=10080
            )
        except discord.HTTPException as e:
            log.warning("tournament %s: no thread for its game: %s", t.id, e)
            return
        try:
            info = await self.tournaments.start_game(g, thread.id)
        except Refused:  # another run started it meanwhile
            await quietly(thread.delete())
            return
        for user in info.players:
            await quietly(thread.add_user(discord.Object(user)))
        await _send(
            thread,
            f"**{t.name}**, round {g.round}: <@{g.first_id}> against <@{g.second_id}>. The"
            f" round ends <t:{int(t.round_deadline or 0)}:R>; a game still going then is lost"
            " by the player it waits for.",
            allowed_mentions=PING,
        )
        try:
            await self.front.relay.deliver(info.id)
        except Exception:  # stored with the game; the relay retries
            log.exception("announcing tournament game %s", info.id)

    async def pairing_lines(self, t: TournamentInfo, r: int, *, ping: bool) -> list[str]:
        return [pairing_line(t, g, ping=ping) for g in await self.tournaments.pairings(t.id, r)]

    async def _announce(self) -> None:
        for t in await self.tournaments.unannounced():
            channel = await self.front.channel(t.channel_id)
            if channel is None:
                continue
            if t.status == "running":
                lines = await self.pairing_lines(t, t.round, ping=True)
                text = (
                    f"🏆 **{t.name}**, round {t.round} of {t.rounds}: the games are open, each"
                    f" in its thread. The round ends <t:{int(t.round_deadline or 0)}:f>.\n"
                    + "\n".join(lines)
                )
                sent = await _send(channel, text[:2000], allowed_mentions=PING)
                upto = t.round
            else:
                table = await self.tournaments.standings(t)
                content, file = await self.standings_message(t, 1, table)
                winners = [t.name_of(s.player) for s in table if s.rank == 1]
                head = f"🏆 **{t.name}** is over. Winner: **{' and '.join(winners)}**!\n"
                sent = await _send(channel, head + content, file=file)
                upto = t.rounds + 1
            if sent:
                await self.tournaments.mark_announced(t.id, upto)

    async def standings_message(
        self, t: TournamentInfo, page: int, table: list[pairing.Standing] | None = None
    ) -> tuple[str, discord.File | None]:
        if table is None:
            table = await self.tournaments.standings(t)
        pages = max(1, -(-len(table) // PAGE))
        if page > pages:
            raise Refused(f"{t.name}'s standings have {pages} page(s).")
        rows = table[(page - 1) * PAGE : page * PAGE]
        if t.status == "open" or not rows:
            return f"**{t.name}** has not started; {len(t.entrants)} player(s) signed up.", None
        done = t.round if t.status != "running" else t.round - 1
        when = "final standings" if t.status == "finished" else f"after round {done} of {t.rounds}"
        png = await asyncio.to_thread(_draw_standings, t, rows, table, when)
        caption = f"**{t.name}** · {when}" + (f" · page {page} of {pages}" if pages > 1 else "")
        return caption, discord.File(io.BytesIO(png), filename=f"standings-{t.id}.png")


def _draw_standings(
    t: TournamentInfo,
    rows: list[pairing.Standing],
    table: list[pairing.Standing],
    when: str,
) -> bytes:
    """In a thread: the table picture, each result cell naming the opponent's rank."""
    from render.standings import StandingRow, render_standings

    rank_of = {s.player: s.rank for s in table}
    drawn = []
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
    names = [SHORT.get(n, n) for n in pairing.TIEBREAKS[t.format]]
    return render_standings(
        f"{t.name} · {when}", drawn, tiebreak_names=names, rounds=t.rounds, note=_note(t.format)
    )


def _cell(code: str, opponent_rank: int | None) -> str:
    """A result as the table shows it: "+3" won against #3, "−F" lost by forfeit..."""
    if code in ("F", "f", "B", "?"):
        return {"F": "+F", "f": "−F", "B": "bye", "?": "…"}[code]
    if code in ("W", "L", "D") and opponent_rank is not None:
        return f"{RESULT_SIGNS[code]}{opponent_rank}"
    return "·"


def _note(fmt: str) -> str:
    if fmt == "swiss":
        return "Buchholz: opponents' points · SB: Sonneborn-Berger · +n/−n/=n: result against #n"
    return "H2H: points among the tied · SB: Sonneborn-Berger · +n/−n/=n: result against #n"


def _join_view(t: TournamentInfo) -> discord.ui.View:
    """The announcement's button: Join while sign-up is open, none after."""
    from bot.front.controls import JoinTournamentButton  # controls import the front

    view = discord.ui.View(timeout=None)
    if t.status == "open":
        view.add_item(JoinTournamentButton(t.id))
    return view


async def _send(channel: Any, content: str, **kwargs: Any) -> bool:
    """Post an announcement; False if Discord refused it (it is tried again next tick)."""
    kwargs.setdefault("allowed_mentions", QUIET)
    try:
        await channel.send(content, **kwargs)
    except discord.HTTPException as e:
        log.warning("tournament announcement failed: %s", e)
        return False
    return True
