"""The slash commands: one group, `/schotten`. Each handler turns an interaction into one
front-end or service call; refusals go to the tree's error handler (the one error path).
A handler acknowledges its interaction before it asks the database anything."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Concatenate, ParamSpec

import discord
from discord import app_commands

import lang
from bot import ratings
from bot.errors import Refused
from bot.front import lookback, notifications, privacy, texts
from bot.front.admin_commands import managers_change_them, settings_lines
from bot.front.match_options import spec_from_options
from bot.front.my_games import show as show_games
from bot.front.ports import CommandsFront
from bot.front.replies import SUGGESTION_SECONDS, acknowledge, guild_of
from bot.front.rules import TOPICS, rules_topic
from bot.front.sharing import Answer, Picture, answers, send_private
from bot.front.tournaments import TournamentCommands
from bot.front.vacations import VacationCommands
from bot.game_clock import CLOCK_CHOICES
from bot.notation import fold, in_language
from bot.records import GameSummary, PlayerStats
from bot.service import MAX_MOVE_LENGTH
from engine.api import GAME_NAMES, VARIANTS
from lang import Phrase, _, fill, localise, mention, ngettext, pgettext, say, speaking

log = logging.getLogger("schotten.bot")

GAMES = [app_commands.Choice(name=name, value=key) for key, name in VARIANTS.items()]
ROLES = [app_commands.Choice(name=n, value=n) for n in ("attacker", "defender", "first", "second")]
LEVELS = [app_commands.Choice(name=n, value=n) for n in ("easy", "normal", "hard")]
ANALYSIS_LEVELS = [app_commands.Choice(name=n, value=n) for n in ("normal", "hard")]
GAME_KINDS = [app_commands.Choice(name=name, value=key) for key, name in GAME_NAMES.items()]
TOPIC_CHOICES = [app_commands.Choice(name=t, value=t) for t in TOPICS]
# The challenge's `clock` option: hours per move (bot/game_clock.py).
_CLOCK_NAMES = {1: "1 hour", 12: "12 hours", 24: "1 day", 72: "3 days", 168: "7 days"}
CLOCKS = [app_commands.Choice(name=_CLOCK_NAMES[h], value=h) for h in CLOCK_CHOICES]


P = ParamSpec("P")


def gated(
    func: Callable[Concatenate[SchottenCommands, discord.Interaction, P], Awaitable[None]],
) -> Callable[Concatenate[SchottenCommands, discord.Interaction, P], Coroutine[Any, Any, None]]:
    """Run a command as a request the front counts (and refuses while shutting down).
    discord.py resolves the options' annotations in the wrapper's module: this one.
    Typed with the handler's own parameters (`P`), which app_commands.command checks."""

    @functools.wraps(func)
    async def wrapper(
        self: SchottenCommands,
        interaction: discord.Interaction,
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> None:
        async with self.front.working():
            await func(self, interaction, *args, **kwargs)

    return wrapper


class SchottenCommands(app_commands.Group):
    def __init__(self, front: CommandsFront) -> None:
        super().__init__(name="schotten", description="Play Schotten Totten and Schotten Totten 2")
        self.front = front
        self.service = front.service
        self.add_command(TournamentCommands(front))
        self.add_command(VacationCommands(front))

    # Challenges ------------------------------------------------------------------------------

    @app_commands.command(description="Challenge a member, me (the computer), or anyone to a game")
    @app_commands.describe(
        opponent="Who you want to play (pick me to play the computer); none: an open challenge",
        game="Which game and variant",
        rounds="Schotten Totten: rounds in the match. Schotten Totten 2: 2 = revenge match",
        points="Schotten Totten: play to this many points instead of a number of rounds",
        role="Attacker/defender (Schotten Totten 2) or first/second (Schotten Totten)",
        level="How strong the computer plays, when you challenge me",
        open_to="An open challenge (no opponent) that only members of this role may accept",
        clock="Time for each move (default: the server's forfeit time)",
    )
    @app_commands.choices(game=GAMES, role=ROLES, level=LEVELS)
    @app_commands.choices(clock=CLOCKS)  # apart: its values are numbers, the others' text
    @gated
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member | None = None,
        game: str = "classic",
        rounds: app_commands.Range[int, 1, 15] = 1,
        points: app_commands.Range[int, 5, 50] | None = None,
        role: str | None = None,
        level: str | None = None,
        open_to: discord.Role | None = None,
        clock: int | None = None,
    ) -> None:
        spec = spec_from_options(game, rounds, points)
        await self.front.challenge(
            interaction,
            opponent,
            spec,
            role=role,
            level=level,
            open_to=open_to.id if open_to is not None else None,
            clock_hours=clock,
        )

    async def _my_challenge(self, interaction: discord.Interaction, *, made: bool) -> int:
        if interaction.channel_id is None:
            raise Refused(say("Use this in the channel where the challenge was made."))
        mine = await self.service.open_challenges(interaction.channel_id, interaction.user.id)
        uid = interaction.user.id
        found = [c for c in mine if (c.challenger.id == uid) == made]
        if not found:
            if made:
                raise Refused(say("You have no open challenge made in this channel."))
            raise Refused(say("You have no open challenge received in this channel."))
        return found[0].id

    @app_commands.command(description="Accept the latest challenge made to you in this channel")
    @gated
    async def accept(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        cid = await self._my_challenge(interaction, made=False)
        await self.front.accept(interaction, cid)

    @app_commands.command(description="Decline the latest challenge made to you in this channel")
    @gated
    async def decline(self, interaction: discord.Interaction) -> None:
        # As cancel: the challenge's message says it once for everyone; the answer is private.
        await acknowledge(interaction, private=True)
        cid = await self._my_challenge(interaction, made=False)
        info = await self.service.decline(cid, interaction.user.id)
        with speaking(await self.front.server_language(interaction.guild_id)):
            text = texts.declined(info)
        await self.front.edit_challenge(info, text)
        # TRANSLATORS: the private answer to /schotten decline; the challenge's message is
        # edited to say "Bob declined: ..." for everyone.
        await interaction.followup.send(_("You declined the challenge."), ephemeral=True)

    @app_commands.command(description="Cancel your latest challenge in this channel")
    @gated
    async def cancel(self, interaction: discord.Interaction) -> None:
        # The channel reads it once, on the challenge's own message; the challenger's answer
        # is private and short (the same sentence twice in a row read as two cancellations).
        await acknowledge(interaction, private=True)
        cid = await self._my_challenge(interaction, made=True)
        info = await self.service.cancel(cid, interaction.user.id)
        with speaking(await self.front.server_language(interaction.guild_id)):
            text = fill(
                _("{player} cancelled the challenge: {challenge}."),
                player=info.challenger.name,
                challenge=localise(info.describe()),
            )
        await self.front.edit_challenge(info, text)
        # TRANSLATORS: the private answer to /schotten cancel; the challenge's message is
        # edited to say "Alice cancelled the challenge: ..." for everyone.
        await interaction.followup.send(_("Your challenge is cancelled."), ephemeral=True)

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
            lookup = self.service.active_match(interaction.channel_id)
            info = await asyncio.wait_for(lookup, SUGGESTION_SECONDS)
            if info is None:
                return [_say(_("No game is running in this channel."))]
            seat = info.seat_of(interaction.user.id)
            if seat is None:
                a, b = info.names
                return [
                    _say(
                        fill(
                            _("This game is {first} against {second}; you are not playing in it."),
                            first=a,
                            second=b,
                        )
                    )
                ]
            if seat != info.to_decide:
                # One choice that explains, instead of an empty list that looks broken.
                # TRANSLATORS: {turn} says whose turn it is, e.g. "Alice to play".
                turn = fill(
                    _("Not your turn: {turn}"), turn=texts.turn_line(info).replace("**", "")
                )
                return [_say(turn)]
            legal = [str(m) for m in info.match.legal_moves()]
        except TimeoutError:
            log.warning("no move suggestions: the game took over %s s to read", SUGGESTION_SECONDS)
            return []
        except Exception:  # suggestions are best effort
            log.exception("move suggestions")
            return []
        # Shown with the member's keywords ("revendiquer 3"), sent as the canonical move;
        # what they type matches either.
        shown = {m: in_language(m, info.spec.game, lang.current()) for m in legal}
        typed = fold(current).replace(" ", "")
        keys = {m: (fold(m).replace(" ", ""), fold(shown[m]).replace(" ", "")) for m in legal}
        starts = [m for m in legal if any(k.startswith(typed) for k in keys[m])]
        inside = [m for m in legal if m not in starts and any(typed in k for k in keys[m])]
        return [app_commands.Choice(name=shown[m], value=m) for m in (starts + inside)[:25]]

    @app_commands.command(description="See your hand privately, with buttons to make your move")
    @gated
    async def hand(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, private=True)
        info = await self.front.match_here(interaction)
        await self.front.show_hand(interaction, info.id)

    @app_commands.command(
        description="See this channel's board privately (with a button to post it)"
    )
    @gated
    async def board(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, private=True)  # a personal look-up: shared by a button
        await self.front.board_here(interaction)

    @app_commands.command(description="Give up the game in this channel (asks to confirm)")
    @gated
    async def resign(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, private=True)
        info = await self.front.match_here(interaction)
        await self.front.confirm_resign(interaction, info)

    @app_commands.command(description="What I keep about you, and deleting it on request")
    @gated
    async def privacy(self, interaction: discord.Interaction) -> None:
        await privacy.privacy(self.front, interaction)

    @app_commands.command(description="Your games under way and open challenges, privately")
    @gated
    async def games(self, interaction: discord.Interaction) -> None:
        await show_games(self.front, interaction)

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
        guild = guild_of(interaction)
        await acknowledge(interaction)
        board = await self.service.leaderboard(guild, game, page)
        with speaking(await self.front.server_language(guild)):  # a public post
            lines = [
                fill(
                    ngettext(
                        "**{rank}.** {name}: {rating} ({count} rated game)",
                        "**{rank}.** {name}: {rating} ({count} rated games)",
                        e.rated_games,
                    ),
                    rank=e.rank,
                    name=e.name,
                    rating=e.rating.marked(),
                    count=e.rated_games,
                )
                for e in board.entries
            ] or [
                # TRANSLATORS: {challenge} is the command /schotten challenge (a mention in
                # English; in French and German its localised name, as code).
                fill(
                    _("Nobody has finished a rated game yet: {challenge} someone!"),
                    challenge=mention("challenge"),
                )
            ]
            embed = discord.Embed(
                # TRANSLATORS: {game} is Schotten Totten or Schotten Totten 2.
                title=fill(_("{game} leaderboard"), game=term(GAME_NAMES[game])),
                description="\n".join(lines),
                colour=discord.Colour.gold(),
            )
            # TRANSLATORS: {meaning} is a sentence or two on what ratings mean.
            footer = fill(
                _("Page {page} of {pages}. {meaning}"),
                page=board.page,
                pages=board.pages,
                meaning=term(ratings.MEANING),
            )
            if any(e.rating.provisional for e in board.entries):
                footer = f"{footer} {term(ratings.PROVISIONAL_NOTE)}"
            embed.set_footer(text=footer)
        await interaction.followup.send(embed=embed)

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
        guild = guild_of(interaction)
        await acknowledge(interaction, private=True)  # a personal look-up: shared by a button
        other = against.id if against is not None else 0
        answer = await stats_answer(self.front, guild, who.id, other, who.display_name)
        await send_private(interaction, answer, "st", who.id, other)

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
        await acknowledge(interaction, private=True)  # a personal look-up: shared by a button
        if game_id is not None:
            answer = await export_answer(self.front, interaction, game_id)
            await send_private(interaction, answer, "hx", game_id)
            return
        who = member or interaction.user
        answer = await history_answer(self.front, guild_of(interaction), who.id, who.display_name)
        await send_private(interaction, answer, "hi", who.id)

    @app_commands.command(description="The rules, in short")
    @app_commands.choices(topic=TOPIC_CHOICES)
    @gated
    async def rules(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        title, body = rules_topic(topic)
        embed = discord.Embed(title=title, description=body, colour=discord.Colour.dark_green())
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(description="Your notifications, and this server's settings")
    @app_commands.describe(
        my_turn_dm="Yours, in every server: your hand by DM when it becomes your turn",
        my_pings="Yours, in every server: mentions that notify you in your games' threads",
        my_reminders="Yours, in every server: a reminder when a game waits long for your move",
        my_turn_both="Yours, in every server: on your turn, a mention as well as your hand's DM",
    )
    @gated
    async def settings(
        self,
        interaction: discord.Interaction,
        my_turn_dm: bool | None = None,
        my_pings: bool | None = None,
        my_reminders: bool | None = None,
        my_turn_both: bool | None = None,
    ) -> None:
        guild = guild_of(interaction)
        await acknowledge(interaction, private=True)
        mine = notifications.changes_of(
            my_turn_dm=my_turn_dm,
            my_pings=my_pings,
            my_reminders=my_reminders,
            my_turn_both=my_turn_both,
        )
        s = await self.service.settings(guild)
        lines = [managers_change_them(), *await settings_lines(self.front, s, guild)]
        lines += await notifications.your_notifications(self.service, interaction.user.id, mine)
        await interaction.followup.send("\n".join(lines), ephemeral=True)


# Personal look-ups: answered privately, shared by a button (bot/front/sharing.py) --------


async def stats_answer(
    front: CommandsFront, guild: int, user_id: int, against: int, name: str = ""
) -> Answer:
    """A member's stats (and record `against` someone, 0: nobody), with their rating chart,
    in the current language."""
    stats = await front.service.stats(guild, user_id, against=against or None)
    name = name or stats.name
    embed = _stats_embed(stats, name)
    history = await front.service.rating_history(guild, user_id)
    if not history:  # no rated game yet: no chart
        return Answer(embeds=[embed])
    chart = await asyncio.to_thread(lookback.rating_chart, history, name, lang.current())
    filename = f"rating-{user_id}.png"
    embed.set_image(url=f"attachment://{filename}")
    return Answer(embeds=[embed], pictures=[Picture(filename, chart)])


@answers("st")
async def _share_stats(
    front: CommandsFront, interaction: discord.Interaction, args: list[int]
) -> Answer:
    user_id, against = [*args, 0, 0][:2]
    return await stats_answer(
        front, guild_of(interaction), user_id, against, _name(interaction, user_id)
    )


async def history_answer(front: CommandsFront, guild: int, user_id: int, name: str) -> Answer:
    """A member's recent games, in the current language."""
    games = await front.service.recent_games(guild, user_id, 10)
    lines = [_history_line(g) for g in games] or [_("No finished games yet.")]
    # (Not in the footer: Discord shows mentions only in an embed's description.)
    # TRANSLATORS: {command} is the command /schotten history with its option
    # game_id (a mention, then `game_id:N` in the reader's language).
    lines.append(
        fill(_("{command} sends one game's full record."), command=mention("history", game_id="N"))
    )
    embed = discord.Embed(
        title=fill(_("{name}: recent games"), name=name),
        description="\n".join(lines),
        colour=discord.Colour.blurple(),
    )
    return Answer(embeds=[embed])


@answers("hi")
async def _share_history(
    front: CommandsFront, interaction: discord.Interaction, args: list[int]
) -> Answer:
    guild = guild_of(interaction)
    name = _name(interaction, args[0])
    if not name:
        name = (await front.service.stats(guild, args[0])).name
    return await history_answer(front, guild, args[0], name)


async def export_answer(
    front: CommandsFront, interaction: discord.Interaction, game_id: int
) -> Answer:
    """One game's record as a text file, in the current language. While the game runs, only
    what its board shows, the same for everyone (bot/history.py), so it may be shared."""
    info = await front.service.match(game_id)
    if info.guild_id != interaction.guild_id:
        raise Refused(say("Game #{game_id} was not played on this server.", game_id=game_id))
    text = await front.service.export(game_id)
    caption = fill(
        _("Game #{game_id}: {description}"),
        game_id=game_id,
        description=localise(info.spec.describe()),
    )
    return Answer(caption, pictures=[Picture(f"schotten-{game_id}.txt", text.encode())])


@answers("hx")
async def _share_export(
    front: CommandsFront, interaction: discord.Interaction, args: list[int]
) -> Answer:
    return await export_answer(front, interaction, args[0])


def _name(interaction: discord.Interaction, user_id: int) -> str:
    """A member's name on this server, if the client knows it ("" if not)."""
    if interaction.user.id == user_id:
        return interaction.user.display_name
    guild = interaction.guild
    member = guild.get_member(user_id) if guild is not None else None
    return member.display_name if member is not None else ""


def _when(t: float) -> str:
    """A date as Discord's timestamp markup: each reader's client shows it in their own
    locale and time zone (an ISO date reads as foreign in French and German)."""
    return f"<t:{int(t)}:d>"


def term(text: str) -> str:
    """A name or sentence from a table of the engine or the services (a game's name, what
    ratings mean), in the current language: a Phrase is localised, a marked constant looked
    up."""
    return localise(text) if isinstance(text, Phrase) else _(text)


def result_word(result: str) -> str:
    """ "win", "loss" or "draw" (a finished game, from one player's side), translated."""
    if result == "win":
        return pgettext("game result", "win")
    if result == "loss":
        return pgettext("game result", "loss")
    if result == "draw":
        return pgettext("game result", "draw")
    if result == "aborted":  # no result, unrated (rules notes R-28)
        return pgettext("game result", "aborted")
    return result


def _history_line(g: GameSummary) -> str:
    values = {
        "game_id": g.match_id,
        "date": _when(g.finished_at),
        "description": localise(g.description),
        "opponent": g.opponent_name,
        "result": result_word(g.result),
    }
    if g.rated or g.result == "aborted":  # an aborted game says itself it is unrated
        # TRANSLATORS: one finished game; {result} is win, loss, draw or aborted.
        return fill(_("#{game_id} · {date} · {description} vs {opponent}: **{result}**"), **values)
    return fill(
        _("#{game_id} · {date} · {description} vs {opponent}: **{result}** (unrated)"), **values
    )


def _streak(kind: str, n: int) -> str:
    if kind == "win":
        text = ngettext("Current streak: {count} win", "Current streak: {count} wins", n)
    elif kind == "loss":
        text = ngettext("Current streak: {count} loss", "Current streak: {count} losses", n)
    else:
        text = ngettext("Current streak: {count} draw", "Current streak: {count} draws", n)
    return fill(text, count=n)


def _stats_embed(stats: PlayerStats, name: str) -> discord.Embed:
    embed = discord.Embed(
        title=fill(_("{name}: stats"), name=name), colour=discord.Colour.blurple()
    )
    overall = stats.overall
    # TRANSLATORS: {record} is e.g. "3 won, 1 lost".
    finished = ngettext(
        "{count} finished game: {record}", "{count} finished games: {record}", overall.games
    )
    lines = [fill(finished, count=overall.games, record=localise(overall.describe()))]
    if stats.streak:
        lines.append(_streak(*stats.streak))
    if stats.active:
        lines.append(fill(_("Games in progress: {count}"), count=stats.active))
    embed.description = "\n".join(lines)
    for game, (rating, rank, total) in stats.ratings.items():
        embed.add_field(
            name=term(GAME_NAMES[game]),
            value=fill(
                _("Rating {rating} (#{rank} of {total})"),
                rating=rating.marked(),
                rank=rank,
                total=total,
            ),
        )
    if stats.ratings:
        notes = [term(ratings.MEANING)]
        if any(r.provisional for r, _rank, _total in stats.ratings.values()):
            notes.append(term(ratings.PROVISIONAL_NOTE))
        embed.set_footer(text=" ".join(notes))
    if stats.per_variant:
        by_variant = [
            # TRANSLATORS: {variant} is a game variant's name, {record} e.g. "3 won, 1 lost".
            fill(_("{variant}: {record}"), variant=term(VARIANTS[v]), record=localise(r.describe()))
            for v, r in stats.per_variant.items()
        ]
        embed.add_field(name=_("By variant"), value="\n".join(by_variant), inline=False)
    if stats.against is not None:
        other, record = stats.against
        embed.add_field(
            name=fill(_("Against {name}"), name=other),
            value=localise(record.describe()) or _("no games"),
            inline=False,
        )
    if stats.recent:
        recent = [
            fill(
                _("#{game_id} vs {opponent}: {result}"),
                game_id=g.match_id,
                opponent=g.opponent_name,
                result=result_word(g.result),
            )
            for g in stats.recent
        ]
        embed.add_field(name=_("Recent"), value="\n".join(recent), inline=False)
    return embed


def _say(text: str) -> app_commands.Choice[str]:
    """An autocomplete entry that explains rather than suggests; choosing it sends `wait`,
    which the move command refuses with the same explanation."""
    return app_commands.Choice(name=text[:100], value="wait")


__all__ = ["SchottenCommands"]
