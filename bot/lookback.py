"""Looking back at a game: what a replay, an analysis and a hint may use, and the work the
computer's process pool does for them. The front draws and sends; nothing here touches
Discord.

A replay or an analysis is of a finished game only: a running game's history would show
what its board no longer shows (cards since covered by a Banshee or a Traitor, a private
move's cards), and an analysis of a running game would be a hint. A hint is given only in
games against the computer, from the asking player's own view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.errors import Refused
from bot.history import log_of, replays_to
from bot.records import MatchInfo
from bot.service import GameService
from engine.ai.analysis import Judgement, analyse, decisions, hint
from engine.api import Playable, load_match, new_match
from engine.phrases import say
from lang import command

ANALYSIS_LEVELS = ("normal", "hard")


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game, ready to be replayed: its opening match and its moves."""

    info: MatchInfo
    start: Playable
    log: list[tuple[int, str]]

    def decision_indices(self) -> list[int]:
        """Where in the log a player made a decision (the analysis judges those)."""
        return [d.index for d in decisions(self.start, self.log)]

    def view_before(self, index: int, seat: int) -> Any:
        """What `seat` saw just before the move at `index` was made."""
        match = load_match(self.start.to_json())
        for seat_, text in self.log[:index]:
            match.play(text, seat_)
        return match.view(seat)


async def finished_game(service: GameService, game_id: int, guild_id: int | None) -> Finished:
    """Game `game_id` of this server, if it is over (a clear refusal otherwise)."""
    if guild_id is None:
        raise Refused(say("Use this command in the server where the game was played."))
    info = await service.match(game_id)
    if info.guild_id != guild_id:
        raise Refused(say("Game #{id} was not played on this server.", id=game_id))
    if info.status == "active":
        raise Refused(
            say(
                "Game #{id} is still being played. Replays and analyses are for finished"
                " games, so that nothing still hidden is shown; {board} in its"
                " channel shows the board now.",
                id=game_id,
                board=command("board"),
            )
        )
    log = await log_of(service.store, game_id)
    if not replays_to(info, log):
        raise Refused(
            say("Game #{id} does not replay to its stored state; please report it.", id=game_id)
        )
    return Finished(info, new_match(info.spec, info.seed), log)


async def analysed_seat(
    service: GameService,
    game: Finished,
    asker: int,
    member: int | None = None,
    member_name: str = "",
) -> tuple[int, bool]:
    """The seat whose moves an analysis looks at, and whether it may be shown to everyone.

    The two players may always analyse their game; anyone else only where the server allows
    it (`/schotten-admin settings public_analysis`), and then the answer is public too. By default
    the asker's own seat, else the member named, else the seat that lost (a draw: seat 0).
    """
    info = game.info
    settings = await service.settings(info.guild_id)
    mine = info.seat_of(asker)
    if mine is None and not settings.public_analysis:
        a, b = info.names
        raise Refused(
            say(
                "On this server only the two players ({a} and {b}) can analyse their games; a"
                " server manager can open analyses to everyone with {settings}.",
                settings=command("/schotten-admin settings", public_analysis="True"),
                a=a,
                b=b,
            )
        )
    if member is not None:
        seat = info.seat_of(member)
        if seat is None:
            a, b = info.names
            if member in info.players:
                raise Refused(say("The computer's moves are not analysed; pick its opponent."))
            raise Refused(
                say(
                    "{name} did not play in game #{id} ({a} against {b}); pick one of its players.",
                    name=member_name,
                    id=info.id,
                    a=a,
                    b=b,
                )
            )
    elif mine is not None:
        seat = mine
    else:
        winner = info.match.winner
        seat = 0 if winner is None else 1 - winner
        if info.ai_seat == seat:
            seat = 1 - seat
    return seat, settings.public_analysis


def chunks(indices: Sequence[int], size: int) -> list[list[int]]:
    return [list(indices[i : i + size]) for i in range(0, len(indices), size)]


# In a worker process -------------------------------------------------------------------------


def analyse_chunk(
    start: dict[str, Any], log: list[tuple[int, str]], indices: list[int], level: str
) -> list[list[object]]:
    """In a worker process: the judgements of the decisions at `indices`, as JSON lists."""
    found = analyse(load_match(start), log, level=level, indices=indices)
    return [j.to_json() for j in found]


def hint_for(state: dict[str, Any], seat: int, level: str, seed: int) -> tuple[str, float]:
    """In a worker process: the search's move for `seat` and their chance with it, from
    their own view only."""
    found = hint(load_match(state).view(seat), level, seed=seed)
    return found.move, found.chance


def judgements(rows: Sequence[Sequence[object]]) -> list[Judgement]:
    return [Judgement.from_json(r) for r in rows]
