"""Looking back on Discord: `/schotten replay`, `/schotten analyse`, `/schotten hint` and the
rating chart of `/schotten stats`.

Pictures are drawn in threads and searches run in the computer's process pool, so the
gateway never waits; an analysis edits its progress message as its parts come back.

Every request is acknowledged before anything else ("thinking…"). A replay or an analysis
then waits its turn behind `front.heavy` (one at a time), and may finish long after it was
asked for: an interaction's token lives 15 minutes on Discord, so everything sent through
it is sent only while the token is young (`Token`, counted on the bot's clock from the
moment the request came in, a minute kept in hand); past that:

* a replay, and a public analysis, are posted in the channel as the bot's own messages;
  an analysis is always posted so (its private "thinking…" then says where it went), since
  it may take minutes even when nobody queues before it;
* a private analysis (a server where only the players may analyse) fills the asker's
  private reply while the token is young, and otherwise comes to them by DM: a private
  answer never becomes public. So do the analysed player's hands that follow it;
* where the interaction's `app_permissions` do not let the bot post in the channel, a
  public answer goes to the asker instead, as a private one does;
* progress is shown only while the token is young; never an edit Discord would refuse.

The analysis is acknowledged privately: who may see it is the database's to say, and it is
asked after the acknowledgement.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import discord

from bot import lookback, ratings
from bot.errors import Refused
from bot.front import sharing
from bot.front.dm_channels import DmsClosed
from bot.front.ports import LookbackFront
from bot.front.replies import MISSING, QUIET, acknowledge, on_click
from bot.front.sharing import Answer, Picture, ShareButton, answers, send_private
from bot.lookback import Finished
from bot.notation import in_language, in_words
from bot.records import RatingStep
from bot.store import valid_id
from bot.time_source import Clock
from engine.ai.analysis import Judgement, costliest
from engine.api import GAME_NAMES
from engine.cards import format_cards
from lang import (
    Phrase,
    _,
    current,
    fill,
    localise,
    mention,
    ngettext,
    pgettext,
    say,
    speaking,
)

log = logging.getLogger("schotten.bot")
T = TypeVar("T")

REPLAY_MAX_BYTES = 8 * 1024 * 1024  # Discord's default upload limit
CHUNK = 4  # decisions per job: small, so other games' computer moves get the pool between
PROGRESS_EVERY = 1.5  # seconds between edits of the progress message (Discord rate limits)
# "Interaction tokens are valid for 15 minutes" (Discord); a minute is kept in hand for the
# request under way (an upload) and for the time the interaction took to reach the bot.
TOKEN_LIFE = 15 * 60.0
TOKEN_MARGIN = 60.0


class Token:
    """An interaction's token, and whether it may still be used: its age is counted on the
    bot's clock from when the request came in (moments after Discord created it)."""

    def __init__(self, interaction: discord.Interaction, clock: Clock) -> None:
        self.interaction = interaction
        self.clock = clock
        self.received = clock.now()

    def young(self) -> bool:
        return self.clock.now() - self.received < TOKEN_LIFE - TOKEN_MARGIN


async def post_in_channel(interaction: discord.Interaction, **message: Any) -> None:
    """A public answer posted as the bot's own message in the request's channel (with the
    bot's token, which does not expire)."""
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable):
        raise Refused(say("Use this command in the server where the game was played."))
    await channel.send(allowed_mentions=QUIET, **message)


async def send_by_dm(
    front: LookbackFront, interaction: discord.Interaction, **message: Any
) -> None:
    """A private answer by DM, when the request's token is too old to carry it."""
    try:
        await front.dms.send(interaction.user.id, allowed_mentions=QUIET, **message)
    except DmsClosed:
        log.info("no late private answer to user %s: their DMs are closed", interaction.user.id)
    except discord.HTTPException as e:  # closed DMs: nothing else can reach them privately
        log.info("could not DM user %s a late private answer: %s", interaction.user.id, e)


async def in_pool(front: LookbackFront, fn: Callable[..., T], *args: Any) -> T:
    """Run a search in the computer's process pool (in a thread if it has none)."""
    pool = front.computer.pool if front.computer is not None else None
    if pool is None:
        return await asyncio.to_thread(fn, *args)
    return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)


def _workers(front: LookbackFront) -> int:
    return max(1, front.computer.workers) if front.computer is not None else 1


def percent(chance: float) -> str:
    return f"{round(chance * 100)} %"


def level_word(level: str) -> str:
    """An analysis level (the computer's search), translated."""
    if level == "normal":
        return pgettext("search level", "normal")
    if level == "hard":
        return pgettext("search level", "hard")
    return level


def _title(game: Finished) -> str:
    info = game.info
    a, b = info.names
    outcome = info.match.outcome
    values: dict[str, Any] = {
        "game_id": info.id,
        "description": localise(info.spec.describe()),
        "first": a,
        "second": b,
    }
    if info.aborted:  # resigned or lost on time before both moved (rules notes R-28)
        return fill(
            _("Game #{game_id} · {description} · {first} against {second}, aborted"), **values
        )
    if outcome is None:  # a tournament's deadline found nobody had moved
        return fill(
            _("Game #{game_id} · {description} · {first} against {second}, abandoned"), **values
        )
    if outcome.winner is None:
        return fill(
            _("Game #{game_id} · {description} · {first} against {second}, drawn"), **values
        )
    return fill(
        _("Game #{game_id} · {description} · {first} against {second}, won by {winner}"),
        winner=info.names[outcome.winner],
        **values,
    )


# Replay --------------------------------------------------------------------------------------


def _replay(game: Finished, max_bytes: int, language: str) -> Any:
    from render.replay import render_replay

    return render_replay(
        game.start, game.log, game.info.names, max_bytes=max_bytes, locale=language
    )


async def replay(front: LookbackFront, interaction: discord.Interaction, game_id: int) -> None:
    token = Token(interaction, front.service.clock)
    await acknowledge(interaction)  # the replay is public; a refusal is not
    game = await lookback.finished_game(front.service, game_id, interaction.guild_id)
    limit = min(REPLAY_MAX_BYTES, interaction.filesize_limit)
    language = await front.server_language(interaction.guild_id)  # the replay is public
    async with front.heavy:
        try:
            made = await asyncio.to_thread(_replay, game, limit, language)
        except ValueError as e:  # cannot fit the upload limit even scaled down
            refusal = say(
                "The replay of game #{game_id} is too large to upload here: {reason}",
                game_id=game_id,
                reason=str(e),
            )
            if not token.young():  # too late to answer through the token: privately by DM
                await send_by_dm(front, interaction, content=localise(refusal))
                return
            raise Refused(refusal) from e
    with speaking(language):
        about = replay_about(len(game.log), made.frames, made.duration_ms, made.scale)
        content = f"{_title(game)}\n{about}"
    gif = discord.File(io.BytesIO(made.data), filename=f"schotten-{game_id}-replay.gif")
    # Then one message to step through the game with ◀ ▶, from the opening deal.
    step = await replay_step(game, 0, language)
    view = step_view(game, step.number)
    if token.young():
        await interaction.followup.send(content, file=gif)
        await interaction.followup.send(
            step.content, file=step.file, view=view, allowed_mentions=QUIET
        )
        return
    # Queued past the token's life: the bot posts it itself (to the asker, where it may not).
    if may_post(interaction):
        await post_in_channel(interaction, content=content, file=gif)
        await post_in_channel(interaction, content=step.content, file=step.file, view=view)
        return
    await send_by_dm(front, interaction, content=content, file=gif)
    await send_by_dm(front, interaction, content=step.content, file=step.file, view=view)


@dataclass(frozen=True, slots=True)
class Step:
    """The replay's stepping message at one move: its line of the log and its board."""

    number: int
    content: str
    png: bytes
    filename: str

    @property
    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.png), filename=self.filename)


def _step_picture(game: Finished, number: int, language: str) -> tuple[int, bytes, str]:
    """In a thread: the replay's frame after `number` moves (clamped), as a PNG."""
    from render.replay import render_replay_frame, replay_frame

    frame = replay_frame(game.start, game.log, game.info.names, number, locale=language)
    png = render_replay_frame(frame, game.info.names, locale=language)
    return frame.number, png, frame.words


async def replay_step(game: Finished, number: int, language: str) -> Step:
    """The stepping message after `number` moves (clamped to the game), in `language`: the
    move's line of the log (a finished game's log is public, as its record is), its words,
    and the board then."""
    number, png, words = await asyncio.to_thread(_step_picture, game, number, language)
    total = len(game.log)
    with speaking(language):
        if number == 0:
            # TRANSLATORS: the replay's stepping message before the first move.
            line = fill(_("Move 0 of {total}: the opening deal."), total=total)
        else:
            seat, move = game.log[number - 1]
            # TRANSLATORS: the replay's stepping message; {move} is the move's notation.
            line = fill(
                _("Move {number} of {total}: {player} `{move}`"),
                number=number,
                total=total,
                player=game.info.names[seat],
                move=in_language(move, game.info.spec.game, language),
            )
        content = f"{_title(game)}\n{line}\n{words}"[:2000]
    filename = f"replay-{game.info.id}-{number}.png"
    return Step(number, content, png, filename)


# Which button goes where: first, previous, next, last.
STEP_LABELS = {"f": "⏮", "p": "◀", "n": "▶", "l": "⏭"}


def step_view(game: Finished, number: int) -> discord.ui.View:
    """⏮ ◀ ▶ ⏭ under the stepping message at move `number`; those that would not move
    are greyed out."""
    total = len(game.log)
    targets = {"f": 0, "p": number - 1, "n": number + 1, "l": total}
    view = discord.ui.View(timeout=None)
    for tag, target in targets.items():
        clamped = max(0, min(target, total))
        button = ReplayStepButton(game.info.id, clamped, tag)
        button.item.disabled = clamped == number
        view.add_item(button)
    return view


class ReplayStepButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sch:R:(?P<match>[0-9]+):(?P<move>[0-9]+):(?P<tag>[fpnl])",
):
    """One of ⏮ ◀ ▶ ⏭: shows the replay's board after move `move` in the same message.
    The game and the move are in the custom_id, so it works after a restart."""

    def __init__(self, match_id: int, move: int, tag: str) -> None:
        self.match_id, self.move, self.tag = match_id, move, tag
        super().__init__(
            discord.ui.Button(
                label=STEP_LABELS[tag],
                style=discord.ButtonStyle.secondary,
                custom_id=f"sch:R:{match_id}:{move}:{tag}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayStepButton:
        return cls(int(match["match"]), int(match["move"]), match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await on_click(
            interaction,
            self.custom_id,
            lambda front: step_to(front, interaction, self.match_id, self.move),
        )


async def step_to(
    front: LookbackFront, interaction: discord.Interaction, game_id: int, number: int
) -> None:
    """A step button: the same message shows the board after move `number`."""
    await interaction.response.defer()  # then the message itself changes
    if not valid_id(game_id):
        raise Refused(say("This control names a game or challenge that does not exist."))
    # Finished games only, as the replay itself: a running game's history would show more
    # than its board does.
    game = await lookback.finished_game(front.service, game_id, interaction.guild_id)
    language = await front.server_language(interaction.guild_id)  # the message is public
    step = await replay_step(game, number, language)
    await interaction.edit_original_response(
        content=step.content, attachments=[step.file], view=step_view(game, step.number)
    )


# Analysis ------------------------------------------------------------------------------------


class Progress:
    """The deferred answer, edited as the analysis goes (at most every PROGRESS_EVERY s)."""

    def __init__(self, token: Token, game_id: int, level: str, total: int) -> None:
        self.token = token
        self.game_id = game_id
        self.level = level
        self.total = total
        self.done = 0
        self.last = 0.0

    async def advance(self, count: int) -> None:
        self.done += count
        now = time.monotonic()
        if now - self.last < PROGRESS_EVERY and self.done < self.total:
            return
        if not self.token.young():  # Discord would refuse the edit
            return
        self.last = now
        try:
            content = progress_line(self.game_id, self.level, self.done, self.total)
            await self.token.interaction.edit_original_response(content=content)
        except discord.HTTPException as e:  # progress is a nicety; the answer still comes
            log.info("analysis progress edit failed: %s", e)


def progress_line(game_id: int, level: str, done: int, total: int) -> str:
    """The analysis's progress, its noun agreeing with `done` ("0 coup examiné" in French)."""
    # TRANSLATORS: {level} is the search level (normal or hard); the form follows {done}.
    template = ngettext(
        "Analysing game #{game_id} at the {level} level: {done} of {total} moves looked at…",
        "Analysing game #{game_id} at the {level} level: {done} of {total} moves looked at…",
        done,
    )
    return fill(template, game_id=game_id, level=level_word(level), done=done, total=total)


async def _judge_all(
    front: LookbackFront, game: Finished, level: str, progress: Progress, indices: list[int]
) -> list[Judgement]:
    """Every decision judged in the pool, a few at a time, `workers` jobs at once."""
    start = game.start.to_json()
    gate = asyncio.Semaphore(_workers(front))
    found: list[Judgement] = []

    async def run(part: list[int]) -> None:
        async with gate:
            rows = await in_pool(front, lookback.analyse_chunk, start, game.log, part, level)
        found.extend(lookback.judgements(rows))
        await progress.advance(len(part))

    await asyncio.gather(*(run(part) for part in lookback.chunks(indices, CHUNK)))
    return sorted(found, key=lambda j: j.index)


@dataclass(frozen=True, slots=True)
class Costly:
    """One of the costliest moves, drawn: the board before it, naming and marking the move
    made and the better one."""

    judgement: Judgement
    filename: str
    board: bytes


def _analysis_pictures(
    game: Finished,
    seat: int,
    found: Sequence[Judgement],
    worst: Sequence[Judgement],
    language: str,
) -> tuple[tuple[str, bytes], list[Costly]]:
    """In a thread: the chart of both players' chances, and the board before each of the
    costliest moves, from the analysed player's side (their hand is not on it)."""
    from render.analysis import render_analysis_board
    from render.charts import ChancePoint, render_chance_chart

    names = game.info.names
    points = [ChancePoint(j.index + 1, j.seat, j.before) for j in found]
    marks = [(n, j.index + 1) for n, j in enumerate(worst, 1)]
    chart = render_chance_chart(
        points, names=names, total_moves=len(game.log), marks=marks, locale=language
    )
    costly = []
    kind = game.info.spec.game
    for j in worst:
        view = game.view_before(j.index, seat)
        board = render_analysis_board(
            view,
            names=names,
            bottom_seat=seat,
            number=j.index + 1,
            total=len(game.log),
            played=in_words(j.played, kind, language),
            better=in_words(j.best, kind, language),
            played_move=j.played,
            better_move=j.best,
            locale=language,
        )
        name = f"move-{game.info.id}-{j.index + 1}.png"
        costly.append(Costly(j, name, board))
    return (f"chances-{game.info.id}.png", chart), costly


def _move_embed(n: int, c: Costly, moves: int, game: str) -> discord.Embed:
    j = c.judgement
    lost = round((j.before - j.after) * 100)
    played = in_words(j.played, game, current())
    best = in_words(j.best, game, current())
    embed = discord.Embed(
        # TRANSLATORS: {n} numbers the costliest moves; {played} is a move (notation, its tactic
        # card by its printed name: "Espion 5").
        title=fill(
            _("{n}. Move {move} of {moves}: {played}"),
            n=n,
            move=j.index + 1,
            moves=moves,
            played=played,
        ),
        # TRANSLATORS: {best} and {played} are moves (notation, tactic cards by their names).
        description=fill(
            _(
                "Better: **{best}**.\nEstimated chance of winning: {before} with {best},"
                " {after} after {played}: {lost} percentage points lost."
            ),
            best=best,
            before=percent(j.before),
            after=percent(j.after),
            played=played,
            lost=lost,
        ),
        colour=discord.Colour.orange(),
    )
    embed.set_image(url=f"attachment://{c.filename}")
    return embed


# The analysed player's hands, for them alone unless they share them --------------------------


class HandsButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sch:A:(?P<match>[0-9]+):(?P<seat>[01]):(?P<moves>[0-9]+(?::[0-9]+)*)",
):
    """Under an analysis: its player's hand before each of the costliest moves, privately,
    for that player only (with Post in channel). The game, the seat and the moves are in the
    custom_id, so it works after a restart."""

    def __init__(self, match_id: int, seat: int, moves: Sequence[int], name: str = "") -> None:
        self.match_id, self.seat, self.moves = match_id, seat, [int(m) for m in moves]
        super().__init__(
            discord.ui.Button(
                # TRANSLATORS: a button under an analysis; only {name} gets an answer.
                label=fill(_("{name}'s hand at these moves"), name=name)[:80] if name else "…",
                emoji="🃏",
                style=discord.ButtonStyle.secondary,
                custom_id=":".join(
                    ["sch:A", str(match_id), str(seat), *(str(m) for m in self.moves)]
                ),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandsButton:
        moves = [int(m) for m in match["moves"].split(":")]
        return cls(int(match["match"]), int(match["seat"]), moves)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def hands(front: LookbackFront) -> None:
            await acknowledge(interaction, private=True)
            args = [self.match_id, self.seat, *self.moves]
            answer = await _hands(front, interaction, args)
            await send_private(interaction, answer, "ah", *args)

        await on_click(interaction, self.custom_id, hands)


@answers("ah")
async def _hands(front: LookbackFront, interaction: discord.Interaction, args: list[int]) -> Answer:
    """The analysed player's hand before each move (by its number in the log), for that
    player: to see it, or to share it (a finished game's, so nothing of a running game)."""
    if len(args) < 3 or len(args) > 2 + 3 or args[1] not in (0, 1):
        raise Refused(say("This control names a game or challenge that does not exist."))
    game_id, seat, numbers = args[0], args[1], args[2:]
    game = await lookback.finished_game(front.service, game_id, interaction.guild_id)
    name = game.info.names[seat]
    if game.info.players[seat] != interaction.user.id:
        raise Refused(say("Only {name} can see {name}'s hand in this analysis.", name=name))
    total = len(game.log)
    if any(n < 1 or n > total for n in numbers):
        raise Refused(say("This control names a game or challenge that does not exist."))
    hands = await asyncio.to_thread(
        lambda: [format_cards(game.view_before(n - 1, seat).hand or ()) for n in numbers]
    )
    # TRANSLATORS: above the hands an analysis's player held; {game_id} is the game's number.
    lines = [
        fill(_("{name}'s hand before these moves of game #{game_id}:"), name=name, game_id=game_id)
    ]
    kind, language = game.info.spec.game, current()
    for n, hand in zip(numbers, hands, strict=True):
        # TRANSLATORS: one move of an analysis and the hand then ({hand}: card codes).
        lines.append(
            fill(
                _("• Move {number} of {total}: {hand}"),
                number=n,
                total=total,
                hand=in_words(hand, kind, language) if hand else "-",
            )
        )
    return Answer("\n".join(lines))


def _summary(game: Finished, seat: int, level: str, found: Sequence[Judgement]) -> str:
    name = game.info.names[seat]
    mine = [j for j in found if j.seat == seat]
    if not mine:
        return fill(
            _("{name} had no decision to weigh in this game (every move was made by rule)."),
            name=name,
        )
    first, last = mine[0].before, mine[-1].before
    # TRANSLATORS: {level} is the search level (normal or hard); {first} and {last} are
    # percentages.
    text = ngettext(
        "{name}'s {count} real choice (draws, claims and forced moves left out), judged"
        " at the {level} level from what {name} could see then: their own hand and the"
        " board. {name}'s estimated chance of winning: {first} at their first decision,"
        " {last} at their last.",
        "{name}'s {count} real choices (draws, claims and forced moves left out), each"
        " judged at the {level} level from what {name} could see then: their own hand and"
        " the board. {name}'s estimated chance of winning: {first} at their first decision,"
        " {last} at their last.",
        len(mine),
    )
    return fill(
        text,
        name=name,
        count=len(mine),
        level=level_word(level),
        first=percent(first),
        last=percent(last),
    )


async def analyse(
    front: LookbackFront,
    interaction: discord.Interaction,
    game_id: int,
    member: discord.abc.User | None,
    level: str,
) -> None:
    token = Token(interaction, front.service.clock)
    # Privately: whether the answer may be public is the database's to say, asked after.
    await acknowledge(interaction, private=True)
    if level not in lookback.ANALYSIS_LEVELS:
        raise Refused(say("Analyses run at the normal or hard level, not {level}.", level=level))
    game = await lookback.finished_game(front.service, game_id, interaction.guild_id)
    seat, public = await lookback.analysed_seat(
        front.service,
        game,
        interaction.user.id,
        member.id if member is not None else None,
        member.display_name if member is not None else "",
    )
    indices = await asyncio.to_thread(game.decision_indices)
    # A public analysis is in the server's language, a private one in the member's.
    asker = current()
    language = await front.server_language(interaction.guild_id) if public else asker
    with speaking(language):
        await _analyse(front, token, game, seat, level, indices, public, asker)


async def _analyse(
    front: LookbackFront,
    token: Token,
    game: Finished,
    seat: int,
    level: str,
    indices: list[int],
    public: bool,
    asker_language: str,
) -> None:
    interaction = token.interaction
    async with front.heavy:
        progress = Progress(token, game.info.id, level, len(indices))
        await progress.advance(0)
        found = await _judge_all(front, game, level, progress, indices)
        top = f"**{_title(game)}**\n{_summary(game, seat, level, found)}"
        if not found:  # resigned or abandoned before anyone had a choice: nothing to draw
            await _deliver(front, token, public, asker_language, content=top)
            return
        worst = costliest(found, seat)
        (chart_name, chart_png), costly = await asyncio.to_thread(
            _analysis_pictures, game, seat, found, worst, current()
        )
    pictures = [Picture(chart_name, chart_png)] + [Picture(c.filename, c.board) for c in costly]
    chart = discord.Embed(
        title=_("Estimated chance of winning, move by move"),
        description=_(
            "Each line is a player's own estimate at their decisions; the numbers mark the"
            " costliest moves below."
        ),
        colour=discord.Colour.blurple(),
    )
    chart.set_image(url=f"attachment://{chart_name}")
    kind = game.info.spec.game
    embeds = [chart] + [_move_embed(n, c, len(game.log), kind) for n, c in enumerate(costly, 1)]
    name = game.info.names[seat]
    if worst:
        tail = fill(
            ngettext(
                "The {count} move that cost {name} the most, with the board before it:",
                "The {count} moves that cost {name} the most, with the board before each:",
                len(worst),
            ),
            count=len(worst),
            name=name,
        )
    else:
        tail = fill(_("None of {name}'s moves cost anything by the search's estimate."), name=name)
    numbers = [j.index + 1 for j in worst]
    view = discord.ui.View(timeout=None)
    if numbers:
        view.add_item(HandsButton(game.info.id, seat, numbers, name))
    await _deliver(
        front,
        token,
        public,
        asker_language,
        content=f"{top}\n{tail}",
        embeds=embeds,
        pictures=pictures,
        view=view if numbers else None,
    )
    if numbers and game.info.players[seat] == interaction.user.id:
        # The analysed player asked: their hands then, for them alone (in their language).
        with speaking(asker_language):
            args = [game.info.id, seat, *numbers]
            answer = await _hands(front, interaction, args)
            if token.young():
                await send_private(interaction, answer, "ah", *args)
            else:
                await send_by_dm(front, interaction, content=answer.content)


def may_post(interaction: discord.Interaction) -> bool:
    """Whether the interaction's `app_permissions` let the bot post an analysis (words,
    embeds, pictures) as its own message in the request's channel."""
    p = interaction.app_permissions
    sends = (
        p.send_messages_in_threads
        if isinstance(interaction.channel, discord.Thread)
        else (p.send_messages)
    )
    return p.view_channel and sends and p.embed_links and p.attach_files


async def _deliver(
    front: LookbackFront,
    token: Token,
    public: bool,
    asker_language: str,
    *,
    content: str,
    embeds: Sequence[discord.Embed] = (),
    pictures: Sequence[Picture] = (),
    view: discord.ui.View | None = None,
) -> None:
    """The analysis to whom may see it (see the module's docstring): a public one posted in
    the channel by the bot, a private one in the asker's reply while its token is young, by
    DM after. Where the bot may not post, a public one goes privately to the asker."""
    interaction = token.interaction
    if public and may_post(interaction):
        await post_in_channel(
            interaction,
            content=content,
            embeds=list(embeds) or MISSING,
            files=[p.file() for p in pictures] or MISSING,
            view=view or MISSING,
        )
        if token.young():
            with speaking(asker_language):
                # The asker's private "thinking…" says where the answer went.
                done = _("✅ Posted in the channel.")
            await interaction.edit_original_response(content=done)
        return
    if token.young():
        await interaction.edit_original_response(
            content=content,
            embeds=list(embeds),
            attachments=[p.file() for p in pictures],
            view=view,
        )
        return
    # In a DM the hands button could not find its server; the asker's hands follow anyway.
    await send_by_dm(
        front,
        interaction,
        content=content,
        embeds=list(embeds) or MISSING,
        files=[p.file() for p in pictures] or MISSING,
    )


# Hints ---------------------------------------------------------------------------------------


async def give_hint(front: LookbackFront, interaction: discord.Interaction) -> None:
    await acknowledge(interaction, private=True)
    info = await front.match_here(interaction)
    seat = info.seat_of(interaction.user.id)
    if info.ai_seat is None:
        raise Refused(
            say(
                "Hints are only for games against the computer: between members, the"
                " computer's advice would play for one of them."
            )
        )
    if seat is None:
        raise Refused(
            say(
                "This game is {first} against {second}; you are not in it.",
                first=info.names[0],
                second=info.names[1],
            )
        )
    if info.to_decide != seat:
        raise Refused(say("It is the computer's turn; ask again when the decision is yours."))
    level = "hard" if info.ai_level == "hard" else "normal"
    seed = random.Random(info.id * 1_000_003 + info.version).getrandbits(62)
    move, chance = await in_pool(front, lookback.hint_for, info.match.to_json(), seat, level, seed)
    # TRANSLATORS: {move} is a move's notation; {level} the search level (normal or hard).
    text = fill(
        _(
            "Hint for game #{game_id}: **{move}**. Your estimated chance of winning with it:"
            " {chance}. (The computer's {level} search, from what you can see: your hand and the"
            " board.) Play it with {command} or the buttons of your hand."
        ),
        game_id=info.id,
        move=in_words(move, info.spec.game, current()),
        chance=percent(chance),
        level=level_word(level),
        command=mention("move"),
    )
    await interaction.followup.send(text, ephemeral=True)


# Ratings ---------------------------------------------------------------------------------------


def rating_chart(
    history: dict[str, list[RatingStep]], name: str, language: str | None = None
) -> bytes:
    """In a thread: the rating curve of each game the member has rated games in, drawn in
    `language` (the current one if None)."""
    from render.charts import RatingPoint, render_rating_chart

    language = language or current()
    with speaking(language):
        series = {
            game_name(game): [RatingPoint(s.at, s.rating.points, s.result) for s in steps]
            for game, steps in history.items()
            if steps
        }
    # Every line starts at a new player's rating: one game still draws a line.
    return render_rating_chart(series, name=name, start=ratings.BASE, locale=language)


def game_name(game: str) -> str:
    """ "Schotten Totten" or "Schotten Totten 2", in the current language."""
    text = GAME_NAMES[game]
    return localise(text) if isinstance(text, Phrase) else _(text)


# The look-back's persistent controls (the client registers them) -----------------------------

LOOKBACK_CONTROLS = (ShareButton, ReplayStepButton, HandsButton)


def understood(custom_id: str) -> bool:
    """Whether one of the look-back's controls reads this custom_id."""
    return sharing.understood(custom_id) or any(
        c.__discord_ui_compiled_template__.fullmatch(custom_id)
        for c in (ReplayStepButton, HandsButton)
    )


def replay_about(moves: int, frames: int, duration_ms: int, scale: float) -> str:
    """The line under a replay's GIF: its moves, frames and length (and its scale if shrunk),
    in the language spoken now."""
    values = {
        "count": moves,
        "frames": frames,
        "seconds": f"{duration_ms / 1000:.0f}",
        "scale": round(scale * 100),
    }
    if scale >= 1:
        return fill(
            ngettext(
                "Replay: {count} move in {frames} frames, {seconds} s."
                " It loops; claims and the end hold longer.",
                "Replay: {count} moves in {frames} frames, {seconds} s."
                " It loops; claims and the end hold longer.",
                moves,
            ),
            **values,
        )
    return fill(
        ngettext(
            "Replay: {count} move in {frames} frames, {seconds} s, drawn at {scale} % to"
            " fit. It loops; claims and the end hold longer.",
            "Replay: {count} moves in {frames} frames, {seconds} s, drawn at {scale} % to"
            " fit. It loops; claims and the end hold longer.",
            moves,
        ),
        **values,
    )
