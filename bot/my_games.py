"""A member's games under way and open challenges, in the order `/schotten games` lists
them: the games waiting on the member, then those waiting on their opponent, then the
challenges they received, then those they made; in each group the longest waiting first.
Plain values: the front (bot/front/my_games.py) turns them into words and links.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.records import ChallengeInfo, MatchInfo
from bot.service import GameService

# What one page lists at most (an embed's fields).
PAGE_SIZE = 25


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game under way, from the member's side."""

    info: MatchInfo
    seat: int
    mine: bool  # waiting on the member
    waited: float  # seconds since the last move (or the start)
    left: float | None  # seconds left on its clock (GameService.time_left); None: no clock

    @property
    def move_number(self) -> int:
        """The number of the move it waits for: the moves made so far (the replay's and the
        analysis's numbering, every step of a turn counted) plus one."""
        return len(self.info.match.log) + 1


@dataclass(frozen=True, slots=True)
class ChallengeEntry:
    """One open challenge the member made (`made`) or received."""

    info: ChallengeInfo
    made: bool
    waited: float  # seconds since it was made
    left: float  # seconds until it expires


Entry = GameEntry | ChallengeEntry


@dataclass(frozen=True, slots=True)
class MyGames:
    """Everything listed, in order, and the counts of each group."""

    entries: list[Entry]
    mine: int  # games waiting on the member
    theirs: int  # games waiting on the opponent (or on nobody)
    challenges: int

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.entries) // PAGE_SIZE))

    def page(self, number: int) -> tuple[int, list[Entry]]:
        """Page `number` (clamped to the pages there are: a list grown shorter since shows
        its last page), and its entries."""
        number = max(1, min(number, self.pages))
        start = (number - 1) * PAGE_SIZE
        return number, self.entries[start : start + PAGE_SIZE]


async def my_games(service: GameService, user_id: int, guild_id: int | None) -> MyGames:
    """A member's games under way and open challenges in one server, or in every server
    (`guild_id` None: from a DM)."""
    now = service.clock.now()
    mine: list[GameEntry] = []
    theirs: list[GameEntry] = []
    for info in await service.games_under_way(user_id, guild_id):
        seat = info.seat_of(user_id)
        if seat is None:  # the computer's seat, by a member of the same id: not theirs
            continue
        entry = GameEntry(
            info,
            seat,
            mine=info.to_decide == seat,
            waited=now - info.due_since,
            left=await service.time_left(info),
        )
        (mine if entry.mine else theirs).append(entry)
    received: list[ChallengeEntry] = []
    made: list[ChallengeEntry] = []
    for c in await service.challenges_of(user_id, guild_id):
        by_me = c.challenger.id == user_id
        created = c.created_at if c.created_at is not None else now
        entry_c = ChallengeEntry(c, by_me, now - created, c.expires_at - now)
        (made if by_me else received).append(entry_c)
    for group in (mine, theirs, received, made):
        group.sort(key=lambda e: -e.waited)
    entries: list[Entry] = [*mine, *theirs, *received, *made]
    return MyGames(entries, len(mine), len(theirs), len(received) + len(made))


__all__ = ["PAGE_SIZE", "ChallengeEntry", "Entry", "GameEntry", "MyGames", "my_games"]
