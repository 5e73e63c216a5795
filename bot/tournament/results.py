"""A tournament's games and standings lines as values, and the checks every pairing and
standings function makes on them. Pure: no I/O."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

_RESULTS: Final = frozenset({(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)})
_FORFEITS: Final = frozenset({(1.0, 0.0), (0.0, 1.0), (0.0, 0.0)})
# A Swiss bye (1, 0); a round robin's free round (0, 0), no game; the bye of a player who
# had left (0, 0) with forfeit.
_BYES: Final = frozenset({((1.0, 0.0), False), ((0.0, 0.0), False), ((0.0, 0.0), True)})


@dataclass(frozen=True, slots=True)
class Game:
    """One pairing of a round, played or not.

    `first` has seat 0; `second` None is a bye for `first`. `points` is (first's, second's)
    once decided, None while running. `forfeit`: decided by a forfeit rather than played
    to its end (see the module's rules notes for the points allowed)."""

    round: int
    first: int
    second: int | None
    points: tuple[float, float] | None
    forfeit: bool = False

    def __post_init__(self) -> None:
        if self.round < 1:
            raise ValueError(f"Rounds count from 1, not {self.round}.")
        if self.first == self.second:
            raise ValueError(f"Player {self.first} cannot play themself (round {self.round}).")
        if self.second is None:
            if (self.points, self.forfeit) not in _BYES:
                raise ValueError(
                    f"A bye is worth (1, 0), or (0, 0) (a round robin's free round, or with"
                    f" forfeit for a player who left);"
                    f" got {self.points} for player {self.first} in round {self.round}."
                )
        elif self.points is None:
            if self.forfeit:
                raise ValueError("A forfeit is decided: give its points.")
        elif self.points not in (_FORFEITS if self.forfeit else _RESULTS):
            kind = "a forfeit" if self.forfeit else "a game"
            raise ValueError(
                f"{self.points} is not a result of {kind} (round {self.round}, players"
                f" {self.first} and {self.second}); (0, 0) is only a double forfeit."
            )

    def points_of(self, player: int) -> float:
        """`player`'s points in this game (0 while it runs)."""
        if self.points is None:
            return 0.0
        return self.points[0] if player == self.first else self.points[1]

    def opponent(self, player: int) -> int | None:
        return self.second if player == self.first else self.first


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings.

    `results` has one code per round so far: "W" win, "D" draw, "L" loss, "B" bye,
    "F" won by forfeit, "f" lost by forfeit (both players of a double forfeit),
    "?" running, "-" not paired (withdrawn, or a bye forfeited by a player who left).
    `opponents` has the opponent of each round (None for a bye or no game)."""

    player: int
    rank: int
    points: float
    tiebreaks: tuple[float, ...]
    results: tuple[str, ...]
    opponents: tuple[int | None, ...]


def check_players(players: Sequence[int]) -> None:
    if len(players) < 2:
        raise ValueError(f"A tournament needs at least 2 players, not {len(players)}.")
    seen: set[int] = set()
    for p in players:
        if p in seen:
            raise ValueError(f"Player {p} is listed twice.")
        seen.add(p)


def check_history(history: Sequence[Game]) -> None:
    busy: set[tuple[int, int]] = set()
    for g in history:
        for p in (g.first, g.second):
            if p is None:
                continue
            if (g.round, p) in busy:
                raise ValueError(f"Player {p} has two games in round {g.round}.")
            busy.add((g.round, p))


def played(g: Game) -> bool:
    """Whether the game was played over the board (decided, not a forfeit, not a bye):
    only those count as having met, for seats, and as games in the tie-breaks."""
    return g.second is not None and g.points is not None and not g.forfeit
