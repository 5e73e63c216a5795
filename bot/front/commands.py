"""The slash commands: one group, `/schotten`. Each handler turns an interaction into one
front-end or service call; refusals go to the tree's error handler (the one error path)."""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands

from bot import ratings
from bot.errors import Refused
from bot.front import lookback, texts
from bot.front.app import MISSING, QUIET, Front
from bot.front.controls import ShowHandButton
from bot.front.replies import is_manager
from bot.front.rules import TOPICS, rules_topic
from bot.front.tournaments import TournamentCommands
from bot.records import PlayerStats
from bot.service import MAX_MOVE_LENGTH
from bot.wording import plural
from engine.api import GAME_NAMES, VARIANTS, MatchSpec, game_of

log = logging.getLogger("schotten.bot")

GAMES = [app_commands.Choice(name=name, value=key) for key, name in VARIANTS.items()]
ROLES = [app_commands.Choice(name=n, value=n) for n in ("attacker", "defender", "first", "second")]
LEVELS = [app_commands.Choice(name=n, value=n) for n in ("easy", "normal", "hard")]
ANALYSIS_LEVELS = [app_commands.Choice(name=n, value=n) for n in ("normal", "hard")]
GAME_KINDS = [app_commands.Choice(name=name, value=key) for key, name in GAME_NAMES.items()]
TOPIC_CHOICES = [app_commands.Choice(name=t, value=t) for t in TOPICS]


def gated(func: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Run a command as a request the front counts (and refuses while shutting down)."""

    @functools.wraps(func)
    async def wrapper(
        self: SchottenCommands, interaction: discord.Interaction, *args: Any, **kwargs: Any
    ) -> None:
        async with self.front.working():
            await func(self, interaction, *args, **kwargs)

    return wrapper


def spec_from_options(game: str, rounds: int, points: int | None) -> MatchSpec:
    """`rounds` is the number of rounds in Schotten Totten; in Schotten Totten 2, 2 means the
    revenge match (two games with roles swapped)."""
    if game_of(game) == "st2":
        if rounds not in (1, 2) or points is not None:
            raise Refused(
                "Schotten Totten 2 is one game (rounds 1) or the revenge match (rounds 2)."
            )
        return MatchSpec(game, revenge=rounds == 2)
    return MatchSpec(game, rounds=rounds, target=points)


class SchottenCommands(app_commands.Group):
    def __init__(self, front: Front) -> None:
        super().__init__(name="schotten", description="Play Schotten Totten and Schotten Totten 2")
        self.front = front
        self.service = front.service
        self.add_command(TournamentCommands(front))

    # Challenges ------------------------------------------------------------------------------

    @app_commands.command(description="Challenge a member (or me, the computer) to a game")
    @app_commands.describe(
        opponent="Who you want to play (pick me to play the computer)",
        game="Which game and variant",
        rounds="Schotten Totten: rounds in the match. Schotten Totten 2: 2 = revenge match",
        points="Schotten Totten: play to this many points instead of a number of rounds",
        role="Attacker/defender (Schotten Totten 2) or first/second (Schotten Totten)",
        level="How strong the computer plays, when you challenge me",
    )
    @app_commands.choices(game=GAMES, role=ROLES, level=LEVELS)
    @gated
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member,
        game: str = "classic",
        rounds: app_commands.Range[int, 1, 15] = 1,
        points: app_commands.Range[int, 5, 50] | None = None,
        role: str | None = None,
        level: str | None = None,
    ) -> None:
        spec = spec_from_options(game, rounds, points)
        await self.front.challenge(interaction, opponent, spec, role=role, level=level)

    async def _my_challenge(self, interaction: discord.Interaction, *, made: bool) -> int:
        if interaction.channel_id is None:
            raise Refused("Use this in the channel where the challenge was made.")
        mine = await self.service.open_challenges(interaction.channel_id, interaction.user.id)
        uid = interaction.user.id
        found = [c for c in mine if (c.challenger.id == uid) == made]
        if not found:
            what = "made" if made else "received"
            raise Refused(f"You have no open challenge {what} in this channel.")
        return found[0].id

    @app_commands.command(description="Accept the latest challenge made to you in this channel")
    @gated
    async def accept(self, interaction: discord.Interaction) -> None:
        cid = await self._my_challenge(interaction, made=False)
        await self.front.accept(interaction, cid)

    @app_commands.command(description="Decline the latest challenge made to you in this channel")
    @gated
    async def decline(self, interaction: discord.Interaction) -> None:
        cid = await self._my_challenge(interaction, made=False)
        info = await self.service.decline(cid, interaction.user.id)
        await interaction.response.send_message(texts.declined(info), allowed_mentions=QUIET)
        await self.front._edit_challenge(info, texts.declined(info))

    @app_commands.command(description="Cancel your latest challenge in this channel")
    @gated
    async def cancel(self, interaction: discord.Interaction) -> None:
        cid = await self._my_challenge(interaction, made=True)
        info = await self.service.cancel(cid, interaction.user.id)
        text = f"{info.challenger.name} cancelled the challenge: {info.describe()}."
        await interaction.response.send_message(text, allowed_mentions=QUIET)
        await self.front._edit_challenge(info, text)

    # Playing ---------------------------------------------------------------------------------

    @app_commands.command(description="Make a move in this channel's game, e.g. R7 3 or claim 4")
    @app_commands.describe(notation="The move: pick one of the suggestions, or type it")
    @gated
    async def move(
        self,
        interaction: discord.Interaction,
        notation: app_commands.Range[str, 1, MAX_MOVE_LENGTH],
    ) -> None:
        await self.front.move_from_command(interaction, notation)

    @move.autocomplete("notation")
    async def move_suggestions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            if interaction.channel_id is None:
                return []
            info = await self.service.active_match(interaction.channel_id)
            if info is None:
                return [_say("No game is running in this channel.")]
            seat = info.seat_of(interaction.user.id)
            if seat is None:
                a, b = info.names
                return [_say(f"This game is {a} against {b}; you are not playing in it.")]
            if seat != info.to_decide:
                # One choice that explains, instead of an empty list that looks broken.
                return [_say(f"Not your turn: {texts.turn_line(info).replace('**', '')}")]
            legal = [str(m) for m in info.match.legal_moves()]
        except Exception:  # suggestions are best effort
            log.exception("move suggestions")
            return []
        typed = current.lower().replace(" ", "")
        starts = [m for m in legal if m.lower().replace(" ", "").startswith(typed)]
        inside = [m for m in legal if typed in m.lower().replace(" ", "") and m not in starts]
        return [app_commands.Choice(name=m, value=m) for m in (starts + inside)[:25]]

    @app_commands.command(description="See your hand privately, with buttons to make your move")
    @gated
    async def hand(self, interaction: discord.Interaction) -> None:
        info = await self.front.match_here(interaction)
        await self.front.show_hand(interaction, info.id)

    @app_commands.command(description="Post this channel's board again")
    @gated
    async def board(self, interaction: discord.Interaction) -> None:
        info = await self.front.match_here(interaction)
        await interaction.response.defer(thinking=True)
        view = discord.ui.View(timeout=None)
        view.add_item(ShowHandButton(info.id))
        await interaction.followup.send(
            texts.board_caption(info, []),
            file=await self.front.board_file(info),
            view=view,
            allowed_mentions=QUIET,
        )

    @app_commands.command(description="Give up the game in this channel (asks to confirm)")
    @gated
    async def resign(self, interaction: discord.Interaction) -> None:
        info = await self.front.match_here(interaction)
        await self.front.confirm_resign(interaction, info)

    # Standings -------------------------------------------------------------------------------

    @app_commands.command(description="The best players of this server")
    @app_commands.choices(game=GAME_KINDS)
    @gated
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str = "st1",
        page: app_commands.Range[int, 1, 10_000] = 1,
    ) -> None:
        guild = _guild(interaction)
        board = await self.service.leaderboard(guild, game, page)
        lines = [
            f"**{e.rank}.** {e.name}: {e.rating.display()} ({plural(e.rated_games, 'rated game')})"
            for e in board.entries
        ] or ["Nobody has finished a rated game yet: `/schotten challenge` someone!"]
        embed = discord.Embed(
            title=f"{GAME_NAMES[game]} leaderboard",
            description="\n".join(lines),
            colour=discord.Colour.gold(),
        )
        embed.set_footer(text=f"Page {board.page} of {board.pages}. {ratings.MEANING}")
        await interaction.response.send_message(embed=embed)

    @app_commands.command(description="A player's results and ratings on this server")
    @app_commands.describe(member="Whose stats (you, if left out)", against="Their record against")
    @gated
    async def stats(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        against: discord.Member | None = None,
    ) -> None:
        who = member or interaction.user
        guild = _guild(interaction)
        stats = await self.service.stats(guild, who.id, against=against.id if against else None)
        embed = _stats_embed(stats, who.display_name)
        history = await self.service.rating_history(guild, who.id)
        if not history:  # no rated game yet: no chart
            await interaction.response.send_message(embed=embed)
            return
        await interaction.response.defer(thinking=True)
        chart = await asyncio.to_thread(lookback.rating_chart, history, who.display_name)
        filename = f"rating-{who.id}.png"
        embed.set_image(url=f"attachment://{filename}")
        await interaction.followup.send(
            embed=embed, file=discord.File(io.BytesIO(chart), filename=filename)
        )

    # Looking back ----------------------------------------------------------------------------

    @app_commands.command(description="Watch a finished game again, as an animated picture")
    @app_commands.describe(game_id="The game's number (see /schotten history)")
    @gated
    async def replay(
        self, interaction: discord.Interaction, game_id: app_commands.Range[int, 1]
    ) -> None:
        await lookback.replay(self.front, interaction, game_id)

    @app_commands.command(description="The computer's analysis of a finished game")
    @app_commands.describe(
        game_id="The game's number (see /schotten history)",
        player="Whose moves to judge (you, if you played it)",
        level="How deeply to search: normal (seconds) or hard (up to a minute)",
    )
    @app_commands.choices(level=ANALYSIS_LEVELS)
    @gated
    async def analyse(
        self,
        interaction: discord.Interaction,
        game_id: app_commands.Range[int, 1],
        player: discord.Member | None = None,
        level: str = "normal",
    ) -> None:
        await lookback.analyse(self.front, interaction, game_id, player, level)

    @app_commands.command(description="In a game against the computer: what would it play?")
    @gated
    async def hint(self, interaction: discord.Interaction) -> None:
        await lookback.give_hint(self.front, interaction)

    @app_commands.command(description="Recent games, or one game's full record as a text file")
    @app_commands.describe(member="Whose games (you, if left out)", game_id="Export this game")
    @gated
    async def history(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        game_id: int | None = None,
    ) -> None:
        if game_id is not None:
            info = await self.service.match(game_id)
            if info.guild_id != interaction.guild_id:
                raise Refused(f"Game #{game_id} was not played on this server.")
            await interaction.response.defer(thinking=True)
            text = await self.service.export(game_id)
            file = discord.File(io.BytesIO(text.encode()), filename=f"schotten-{game_id}.txt")
            await interaction.followup.send(f"Game #{game_id}: {info.spec.describe()}", file=file)
            return
        who = member or interaction.user
        games = await self.service.recent_games(_guild(interaction), who.id, 10)
        lines = [
            f"#{g.match_id} · {_when(g.finished_at)} · {g.description} vs {g.opponent_name}:"
            f" **{g.result}**{'' if g.rated else ' (unrated)'}"
            for g in games
        ] or ["No finished games yet."]
        embed = discord.Embed(
            title=f"{who.display_name}: recent games",
            description="\n".join(lines),
            colour=discord.Colour.blurple(),
        )
        embed.set_footer(text="`/schotten history game_id:N` sends one game's full record.")
        await interaction.response.send_message(embed=embed)

    @app_commands.command(description="The rules, in short")
    @app_commands.choices(topic=TOPIC_CHOICES)
    @gated
    async def rules(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        title, body = rules_topic(topic)
        embed = discord.Embed(title=title, description=body, colour=discord.Colour.dark_green())
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(description="Server settings: reminders, forfeits, threads, analyses")
    @app_commands.describe(
        reminder_hours="Remind a player who keeps a game waiting this many hours (1-168)",
        forfeit_hours="Forfeit on time after this many hours (12-720); 0 turns it off",
        challenge_hours="How long a challenge stays open (1-168 hours)",
        use_threads="Open a thread for each game when I am allowed to",
        public_analysis="Anyone may analyse finished games (off: only their two players)",
    )
    @gated
    async def settings(
        self,
        interaction: discord.Interaction,
        reminder_hours: app_commands.Range[float, 1, 168] | None = None,
        forfeit_hours: app_commands.Range[float, 0, 720] | None = None,
        challenge_hours: app_commands.Range[float, 1, 168] | None = None,
        use_threads: bool | None = None,
        public_analysis: bool | None = None,
    ) -> None:
        guild = _guild(interaction)
        changes = {
            k: v
            for k, v in {
                "reminder_hours": reminder_hours,
                "forfeit_hours": forfeit_hours,
                "challenge_hours": challenge_hours,
                "use_threads": use_threads,
                "public_analysis": public_analysis,
            }.items()
            if v is not None
        }
        manager = is_manager(interaction)
        if changes:
            s = await self.service.update_settings(guild, is_manager=manager, **changes)
            head = "Settings updated."
        else:
            s = await self.service.settings(guild)
            head = "Settings of this server" + ("" if manager else " (managers can change them)")
        forfeit = "off" if s.forfeit_hours == 0 else f"after {s.forfeit_hours:g} h"
        who = "anyone" if s.public_analysis else "its two players"
        await interaction.response.send_message(
            f"{head}\n• turn reminder after {s.reminder_hours:g} h\n• forfeit on time: {forfeit}"
            f"\n• challenges stay open {s.challenge_hours:g} h"
            f"\n• a thread per game: {'yes' if s.use_threads else 'no'}"
            f"\n• who may analyse a finished game: {who}",
            ephemeral=True,
        )


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise Refused("Use this command in a server.")
    return interaction.guild_id


def _when(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d")


def _stats_embed(stats: PlayerStats, name: str) -> discord.Embed:
    embed = discord.Embed(title=f"{name}: stats", colour=discord.Colour.blurple())
    overall = stats.overall
    lines = [f"{plural(overall.games, 'finished game')}: {overall.describe()}"]
    if stats.streak:
        kind, n = stats.streak
        one, many = {"win": ("win", "wins"), "loss": ("loss", "losses"), "draw": ("draw", "draws")}[
            kind
        ]
        lines.append(f"Current streak: {n} {one if n == 1 else many}")
    if stats.active:
        lines.append(f"Games in progress: {stats.active}")
    embed.description = "\n".join(lines)
    for game, (rating, rank, total) in stats.ratings.items():
        embed.add_field(
            name=GAME_NAMES[game], value=f"Rating {rating.display()} (#{rank} of {total})"
        )
    if stats.ratings:
        embed.set_footer(text=ratings.MEANING)
    if stats.per_variant:
        embed.add_field(
            name="By variant",
            value="\n".join(f"{VARIANTS[v]}: {r.describe()}" for v, r in stats.per_variant.items()),
            inline=False,
        )
    if stats.against is not None:
        other, record = stats.against
        embed.add_field(
            name=f"Against {other}", value=record.describe() or "no games", inline=False
        )
    if stats.recent:
        embed.add_field(
            name="Recent",
            value="\n".join(
                f"#{g.match_id} vs {g.opponent_name}: {g.result}" for g in stats.recent
            ),
            inline=False,
        )
    return embed


def _say(text: str) -> app_commands.Choice[str]:
    """An autocomplete entry that explains rather than suggests; choosing it sends `wait`,
    which the move command refuses with the same explanation."""
    return app_commands.Choice(name=text[:100], value="wait")


__all__ = ["MISSING", "SchottenCommands", "spec_from_options"]
