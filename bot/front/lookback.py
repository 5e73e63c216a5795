"""Looking back on Discord: `/schotten replay`, `/schotten analyse`, `/schotten hint` and the
rating chart of `/schotten stats`.

Pictures are drawn in threads and searches run in the computer's process pool, so the
gateway never waits; an analysis edits its progress message as its parts come back.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import discord

from bot import lookback
from bot.errors import Refused
from bot.front.ports import LookbackFront
from bot.front.replies import acknowledge
from bot.lookback import Finished
from bot.records import RatingStep
from engine.ai.analysis import Judgement, costliest
from engine.api import GAME_NAMES
from engine.cards import format_cards
from lang import Phrase, _, current, fill, localise, mention, pgettext, say, speaking

log = logging.getLogger("schotten.bot")
T = TypeVar("T")

REPLAY_MAX_BYTES = 8 * 1024 * 1024  # Discord's default upload limit
CHUNK = 4  # decisions per job: small, so other games' computer moves get the pool between
PROGRESS_EVERY = 1.5  # seconds between edits of the progress message (Discord rate limits)


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
    if outcome is None:  # a tournament's deadline found nobody had moved
        return _("Game #{game_id} · {description} · {first} against {second}, abandoned").format(
            **values
        )
    if outcome.winner is None:
        return _("Game #{game_id} · {description} · {first} against {second}, drawn").format(
            **values
        )
    return _("Game #{game_id} · {description} · {first} against {second}, won by {winner}").format(
        winner=info.names[outcome.winner], **values
    )


# Replay --------------------------------------------------------------------------------------


def _replay(game: Finished, max_bytes: int, language: str) -> Any:
    from render.replay import render_replay

    return render_replay(
        game.start, game.log, game.info.names, max_bytes=max_bytes, locale=language
    )


async def replay(front: LookbackFront, interaction: discord.Interaction, game_id: int) -> None:
    await acknowledge(interaction)  # the replay is public; a refusal is not
    game = await lookback.finished_game(front.service, game_id, interaction.guild_id)
    limit = min(REPLAY_MAX_BYTES, interaction.filesize_limit)
    language = await front.server_language(interaction.guild_id)  # the replay is public
    async with front.heavy:
        try:
            made = await asyncio.to_thread(_replay, game, limit, language)
        except ValueError as e:  # cannot fit the upload limit even scaled down
            raise Refused(
                say(
                    "The replay of game #{game_id} is too large to upload here: {reason}",
                    game_id=game_id,
                    reason=str(e),
                )
            ) from e
    values = {
        "count": len(game.log),
        "frames": made.frames,
        "seconds": f"{made.duration_ms / 1000:.0f}",
        "scale": round(made.scale * 100),
    }
    with speaking(language):
        if made.scale >= 1:
            about = _(
                "Replay: {count} moves in {frames} frames, {seconds} s."
                " It loops; claims and the end hold longer."
            ).format(**values)
        else:
            about = _(
                "Replay: {count} moves in {frames} frames, {seconds} s, drawn at {scale} % to"
                " fit. It loops; claims and the end hold longer."
            ).format(**values)
        content = f"{_title(game)}\n{about}"
    await interaction.followup.send(
        content,
        file=discord.File(io.BytesIO(made.data), filename=f"schotten-{game_id}-replay.gif"),
    )


# Analysis ------------------------------------------------------------------------------------


class Progress:
    """The deferred answer, edited as the analysis goes (at most every PROGRESS_EVERY s)."""

    def __init__(
        self, interaction: discord.Interaction, game_id: int, level: str, total: int
    ) -> None:
        self.interaction = interaction
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
        self.last = now
        try:
            # TRANSLATORS: {level} is the search level (normal or hard).
            content = _(
                "Analysing game #{game_id} at the {level} level: {done} of {total} moves looked at…"
            ).format(
                game_id=self.game_id,
                level=level_word(self.level),
                done=self.done,
                total=self.total,
            )
            await self.interaction.edit_original_response(content=content)
        except discord.HTTPException as e:  # progress is a nicety; the answer still comes
            log.info("analysis progress edit failed: %s", e)


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
    """One of the costliest moves, drawn: the board before it and the hand then."""

    judgement: Judgement
    filename: str
    board: bytes
    hand: str


def _analysis_pictures(
    game: Finished,
    seat: int,
    found: Sequence[Judgement],
    worst: Sequence[Judgement],
    language: str,
) -> tuple[tuple[str, bytes], list[Costly]]:
    """In a thread: the chart of both players' chances, and the board before each of the
    costliest moves, from the analysed player's side."""
    from render import render_board
    from render.charts import ChancePoint, render_chance_chart

    names = game.info.names
    points = [ChancePoint(j.index + 1, j.seat, j.before) for j in found]
    marks = [(n, j.index + 1) for n, j in enumerate(worst, 1)]
    chart = render_chance_chart(
        points, names=names, total_moves=len(game.log), marks=marks, locale=language
    )
    costly = []
    for j in worst:
        view = game.view_before(j.index, seat)
        board = render_board(view, names=names, bottom_seat=seat, locale=language)
        name = f"move-{game.info.id}-{j.index + 1}.png"
        costly.append(Costly(j, name, board, format_cards(view.hand or ())))
    return (f"chances-{game.info.id}.png", chart), costly


def _move_embed(n: int, c: Costly, moves: int) -> discord.Embed:
    j = c.judgement
    lost = round((j.before - j.after) * 100)
    embed = discord.Embed(
        # TRANSLATORS: {n} numbers the costliest moves; {played} is a move's notation.
        title=_("{n}. Move {move} of {moves}: {played}").format(
            n=n, move=j.index + 1, moves=moves, played=j.played
        ),
        # TRANSLATORS: {best} and {played} are moves' notation; {hand} lists card codes.
        description=_(
            "Better: **{best}**.\nEstimated chance of winning: {before} with {best},"
            " {after} after {played}: {lost} percentage points lost.\nHand then: {hand}"
        ).format(
            best=j.best,
            before=percent(j.before),
            after=percent(j.after),
            played=j.played,
            lost=lost,
            hand=c.hand,
        ),
        colour=discord.Colour.orange(),
    )
    embed.set_image(url=f"attachment://{c.filename}")
    return embed


def _summary(game: Finished, seat: int, level: str, found: Sequence[Judgement]) -> str:
    name = game.info.names[seat]
    mine = [j for j in found if j.seat == seat]
    if not mine:
        return _(
            "{name} had no decision to weigh in this game (every move was made by rule)."
        ).format(name=name)
    first, last = mine[0].before, mine[-1].before
    # TRANSLATORS: {level} is the search level (normal or hard); {first} and {last} are
    # percentages.
    text = _(
        "{name}'s {count} real choices (draws, claims and forced moves left out), each"
        " judged at the {level} level from what {name} could see then: their own hand and"
        " the board. {name}'s estimated chance of winning: {first} at their first decision,"
        " {last} at their last."
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
    # Who may see it decides how it is acknowledged: the database is asked first (quickly),
    # the engine's replay of the game comes after.
    await interaction.response.defer(thinking=True, ephemeral=not public)
    indices = await asyncio.to_thread(game.decision_indices)
    # A public analysis is in the server's language, a private one in the member's.
    language = await front.server_language(interaction.guild_id) if public else current()
    with speaking(language):
        await _analyse(front, interaction, game, seat, level, indices, language)


async def _analyse(
    front: LookbackFront,
    interaction: discord.Interaction,
    game: Finished,
    seat: int,
    level: str,
    indices: list[int],
    language: str,
) -> None:
    async with front.heavy:
        progress = Progress(interaction, game.info.id, level, len(indices))
        await progress.advance(0)
        found = await _judge_all(front, game, level, progress, indices)
        top = f"**{_title(game)}**\n{_summary(game, seat, level, found)}"
        if not found:  # resigned or abandoned before anyone had a choice: nothing to draw
            await interaction.edit_original_response(content=top)
            return
        worst = costliest(found, seat)
        (chart_name, chart_png), costly = await asyncio.to_thread(
            _analysis_pictures, game, seat, found, worst, language
        )
    files = [discord.File(io.BytesIO(chart_png), filename=chart_name)] + [
        discord.File(io.BytesIO(c.board), filename=c.filename) for c in costly
    ]
    chart = discord.Embed(
        title=_("Estimated chance of winning, move by move"),
        description=_(
            "Each line is a player's own estimate at their decisions; the numbers mark the"
            " costliest moves below."
        ),
        colour=discord.Colour.blurple(),
    )
    chart.set_image(url=f"attachment://{chart_name}")
    embeds = [chart] + [_move_embed(n, c, len(game.log)) for n, c in enumerate(costly, 1)]
    name = game.info.names[seat]
    if worst:
        tail = _("The {count} moves that cost {name} the most, with the board before each:").format(
            count=len(worst), name=name
        )
    else:
        tail = fill(_("None of {name}'s moves cost anything by the search's estimate."), name=name)
    await interaction.edit_original_response(
        content=f"{top}\n{tail}",
        embeds=embeds,
        attachments=files,
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
    text = _(
        "Hint for game #{game_id}: **{move}**. Your estimated chance of winning with it:"
        " {chance}. (The computer's {level} search, from what you can see: your hand and the"
        " board.) Play it with {command} or the buttons of your hand."
    ).format(
        game_id=info.id,
        move=move,
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
    return render_rating_chart(series, name=name, locale=language)


def game_name(game: str) -> str:
    """ "Schotten Totten" or "Schotten Totten 2", in the current language."""
    text = GAME_NAMES[game]
    return localise(text) if isinstance(text, Phrase) else _(text)
