"""Standings and tie-breaks. Pure: no I/O.

Unplayed rounds follow FIDE's tie-break regulations of 2023 (C.07, article 16), as the
issue tracker states them (the regulation's text was not at hand when this was written):

- a player's own unplayed rounds (a bye, a forfeit won or lost, a round not paired after
  withdrawing) count, in their own Buchholz and Sonneborn-Berger, as games against a
  virtual opponent with the player's own final score, the result being the points the
  player got in that round;
- in everybody else's tie-breaks, the rounds of a withdrawn opponent after withdrawing
  (not paired, or lost by forfeit) count as draws: half a point each added to the score
  that opponent is worth.

Only games played over the board have a real opponent here; a forfeit is unplayed for both.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType
from typing import Final

from bot.tournament.results import Game, Standing, check_history, check_players, played

FORMATS: Final = ("swiss", "round-robin")
TIEBREAKS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "swiss": ("Buchholz", "Sonneborn-Berger"),
        "round-robin": ("Head-to-head", "Sonneborn-Berger"),
    }
)
UNPLAYED_RULE: Final = "FIDE 2023"  # how unplayed rounds count, as the legends name it


def _result_code(g: Game, player: int) -> str:
    if g.second is None:
        return "B" if g.points == (1.0, 0.0) else "-"
    if g.points is None:
        return "?"
    mine = g.points_of(player)
    if g.forfeit:
        return "F" if mine == 1.0 else "f"
    return {1.0: "W", 0.5: "D"}.get(mine, "L")


def _worth(
    player: int, by_round: Mapping[int, Game], points: float, rounds: int, withdrawn: bool
) -> float:
    """What `player` is worth as an opponent: their points, plus half a point for each round
    after they withdrew (the unplayed rounds that end their event, scoring nothing)."""
    if not withdrawn:
        return points
    after = 0
    for r in range(rounds, 0, -1):
        g = by_round.get(r)
        if g is not None and (played(g) or g.points is None or g.points_of(player) > 0):
            break
        after += 1
    return points + 0.5 * after


def _tiebreaks(
    fmt: str,
    players: Sequence[int],
    by_round: Mapping[int, Mapping[int, Game]],
    points: Mapping[int, float],
    rounds: int,
    withdrawn: Collection[int],
) -> dict[int, tuple[float, ...]]:
    worth = {p: _worth(p, by_round.get(p, {}), points[p], rounds, p in withdrawn) for p in by_round}

    def faced(p: int) -> list[tuple[float, float]]:
        """(what the opponent is worth, p's points) for each decided round of p's."""
        out = []
        games = by_round.get(p, {})
        for r in range(1, rounds + 1):
            g = games.get(r)
            if g is not None and g.points is None:
                continue  # running: nothing yet
            if g is not None and played(g):
                opponent = g.opponent(p)
                assert opponent is not None
                out.append((worth[opponent], g.points_of(p)))
            else:  # unplayed: a virtual opponent with p's own score
                out.append((points[p], 0.0 if g is None else g.points_of(p)))
        return out

    def sonneborn(p: int) -> float:
        return sum(mine * value for value, mine in faced(p))

    if fmt == "swiss":
        return {p: (sum(value for value, _ in faced(p)), sonneborn(p)) for p in players}
    tied: defaultdict[float, set[int]] = defaultdict(set)
    for p in players:
        tied[points[p]].add(p)

    def head_to_head(p: int) -> float:
        return sum(
            g.points_of(p)
            for g in by_round.get(p, {}).values()
            if g.points is not None and g.opponent(p) in tied[points[p]]
        )

    return {p: (head_to_head(p), sonneborn(p)) for p in players}


def standings(
    fmt: str,
    players: Sequence[int],
    history: Sequence[Game],
    *,
    withdrawn: Collection[int] = (),
) -> list[Standing]:
    """The standings of `players` (withdrawn ones too, if the caller lists them, and names
    them in `withdrawn`), best first. `fmt` is "swiss" or "round-robin"; TIEBREAKS[fmt]
    names the tie-breaks for headings. Running games count nothing yet."""
    if fmt not in TIEBREAKS:
        raise ValueError(f"Unknown format {fmt!r}: choose one of {', '.join(FORMATS)}.")
    check_players(players)
    check_history(history)
    by_round: defaultdict[int, dict[int, Game]] = defaultdict(dict)
    points: defaultdict[int, float] = defaultdict(float)
    for p in players:
        by_round[p]
    for g in history:
        for seat in (g.first, g.second):
            if seat is not None:
                by_round[seat][g.round] = g
                points[seat] += g.points_of(seat)
    rounds = max((g.round for g in history), default=0)
    tiebreaks = _tiebreaks(fmt, players, by_round, points, rounds, frozenset(withdrawn))
    ordered = sorted(players, key=lambda p: (-points[p], *(-t for t in tiebreaks[p]), p))
    out: list[Standing] = []
    for i, p in enumerate(ordered):
        mine = by_round[p]
        rank = i + 1
        if out and (out[-1].points, out[-1].tiebreaks) == (points[p], tiebreaks[p]):
            rank = out[-1].rank
        out.append(
            Standing(
                player=p,
                rank=rank,
                points=points[p],
                tiebreaks=tiebreaks[p],
                results=tuple(
                    _result_code(mine[r], p) if r in mine else "-" for r in range(1, rounds + 1)
                ),
                opponents=tuple(
                    mine[r].opponent(p) if r in mine else None for r in range(1, rounds + 1)
                ),
            )
        )
    return out
