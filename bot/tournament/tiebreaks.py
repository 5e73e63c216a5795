"""Standings and tie-breaks. Pure: no I/O.

Unplayed rounds follow FIDE's tie-break regulations of 2023 (C.07), as the issue tracker
states them (the regulation's text was not at hand when this was written):

- Swiss (article 16): a player's own unplayed rounds (a bye, a forfeit won or lost, a
  round not paired after withdrawing) count, in their own Buchholz and Sonneborn-Berger,
  as games against a virtual opponent with the player's own final score, the result being
  the points the player got in that round; in everybody else's tie-breaks, the rounds of a
  withdrawn opponent after the round they left in (not paired) count as draws: half a
  point each added to the score that opponent is worth. The round they left in, lost by
  forfeit, counts for the 0 it gave (16.2.4, 16.3.1).
- Round robin (15.2): forfeits count as games against the real opponent, no virtual
  opponent; a free round (bye) is no game: no point, nothing in the tie-breaks.
- Direct encounter (6.2): the mini-table of the players tied, applied again to those it
  leaves tied, and so on.

Only Swiss games played over the board have a real opponent here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType
from typing import Final

from bot.tournament.results import Game, Standing, check_history, check_players, played

FORMATS: Final = ("swiss", "round-robin")
# Every tie-break an organiser may choose, by the name the legends and headings show.
CHOICES: Final = ("Buchholz", "Buchholz Cut-1", "Sonneborn-Berger", "Head-to-head", "Wins")
TIEBREAKS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "swiss": ("Buchholz", "Sonneborn-Berger"),
        "round-robin": ("Head-to-head", "Sonneborn-Berger"),
    }
)
UNPLAYED_RULE: Final = "FIDE 2023"  # how unplayed rounds count, as the legends name it


def check_tiebreaks(names: Sequence[str]) -> None:
    """Refuse unknown or repeated tie-break names."""
    for name in names:
        if name not in CHOICES:
            raise ValueError(f"Unknown tie-break {name!r}: choose among {', '.join(CHOICES)}.")
    if len(set(names)) != len(names):
        raise ValueError(f"A tie-break is listed twice: {', '.join(names)}.")


def _result_code(g: Game, player: int) -> str:
    if g.second is None:
        return "-" if g.forfeit else "B"  # a bye forfeited by a player who left: no round
    if g.points is None:
        return "?"
    mine = g.points_of(player)
    if g.forfeit:
        return "F" if mine == 1.0 else "f"
    return {1.0: "W", 0.5: "D"}.get(mine, "L")


def _worth(player: int, by_round: Mapping[int, Game], points: float, rounds: int) -> float:
    """What a withdrawn `player` is worth as an opponent in a Swiss: their points, plus half
    a point for each round after they left (rounds not paired, or a bye forfeited). The
    round they left in, lost by forfeit to an opponent who was there, counts as played for
    the result it gave (C.07 16.2.4, 16.3.1)."""
    after = 0
    for r in range(rounds, 0, -1):
        g = by_round.get(r)
        if g is not None and not (g.second is None and g.points_of(player) == 0):
            break
        after += 1
    return points + 0.5 * after


def _direct_encounter(
    group: Collection[int], by_round: Mapping[int, Mapping[int, Game]]
) -> dict[int, tuple[float, ...]]:
    """Each tied player's points against the others of `group`, then, for those still equal,
    against the others still equal, and so on (C.07 Art. 6.2: the mini-table applied again
    to the players it leaves tied). Compared as tuples: the first level decides first."""

    def mini(members: Collection[int]) -> dict[int, float]:
        return {
            p: sum(
                g.points_of(p)
                for g in by_round.get(p, {}).values()
                if g.points is not None and g.opponent(p) in members
            )
            for p in members
        }

    out: dict[int, tuple[float, ...]] = {p: () for p in group}
    pending = [frozenset(group)]
    while pending:
        members = pending.pop()
        if len(members) < 2:
            continue
        scores = mini(members)
        split: defaultdict[float, set[int]] = defaultdict(set)
        for p, v in scores.items():
            out[p] += (v,)
            split[v].add(p)
        if len(split) > 1:  # progress: apply it again to each part still tied
            pending.extend(frozenset(part) for part in split.values())
    return out


def _tiebreaks(
    fmt: str,
    names: Sequence[str],
    players: Sequence[int],
    by_round: Mapping[int, Mapping[int, Game]],
    points: Mapping[int, float],
    rounds: int,
    withdrawn: Collection[int],
) -> tuple[dict[int, tuple[float, ...]], dict[int, tuple[tuple[float, ...], ...]]]:
    """The shown value of each tie-break, and the key that orders by it (the direct
    encounter's key holds its repeated mini-tables)."""
    swiss = fmt == "swiss"
    worth = {
        p: _worth(p, by_round.get(p, {}), points[p], rounds)
        if swiss and p in withdrawn
        else points[p]
        for p in by_round
    }

    def faced(p: int) -> list[tuple[float, float]]:
        """(what the opponent is worth, p's points) for each decided round of p's."""
        out = []
        games = by_round.get(p, {})
        for r in range(1, rounds + 1):
            g = games.get(r)
            if g is not None and g.points is None:
                continue  # running: nothing yet
            if g is not None and g.second is not None and (played(g) or not swiss):
                # a round robin counts its forfeits as games, against the real opponent
                opponent = g.opponent(p)
                assert opponent is not None
                out.append((worth[opponent], g.points_of(p)))
            elif swiss:  # unplayed: a virtual opponent with p's own score
                out.append((points[p], 0.0 if g is None else g.points_of(p)))
            # a round robin's free round (or round after leaving) is no game: nothing
        return out

    tied: defaultdict[float, set[int]] = defaultdict(set)
    for p in players:
        tied[points[p]].add(p)
    direct: dict[int, tuple[float, ...]] = {}
    if "Head-to-head" in names:
        for group in tied.values():
            direct.update(_direct_encounter(group, by_round))

    def value(name: str, p: int) -> float:
        if name == "Head-to-head":
            return direct[p][0] if direct[p] else 0.0
        if name == "Wins":  # rounds that gave a win's point, played or not (FIDE's WIN)
            return float(sum(1 for g in by_round.get(p, {}).values() if g.points_of(p) == 1.0))
        values = faced(p)
        if name == "Sonneborn-Berger":
            return sum(mine * worth for worth, mine in values)
        buchholz = sum(worth for worth, _ in values)
        if name == "Buchholz Cut-1" and values:
            return buchholz - min(worth for worth, _ in values)
        return buchholz

    shown = {p: tuple(value(n, p) for n in names) for p in players}
    keys = {
        p: tuple(
            direct[p] if n == "Head-to-head" and direct[p] else (v,)
            for n, v in zip(names, shown[p], strict=True)
        )
        for p in players
    }
    return shown, keys


def standings(
    fmt: str,
    players: Sequence[int],
    history: Sequence[Game],
    *,
    withdrawn: Collection[int] = (),
    tiebreaks: Sequence[str] | None = None,
) -> list[Standing]:
    """The standings of `players` (withdrawn ones too, if the caller lists them, and names
    them in `withdrawn`), best first. `fmt` is "swiss" or "round-robin"; TIEBREAKS[fmt]
    names the default tie-breaks; `tiebreaks` chooses others, in order, among CHOICES.
    Running games count nothing yet. A round robin's free round scores nothing."""
    if fmt not in TIEBREAKS:
        raise ValueError(f"Unknown format {fmt!r}: choose one of {', '.join(FORMATS)}.")
    names = TIEBREAKS[fmt] if tiebreaks is None else tuple(tiebreaks)
    check_tiebreaks(names)
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
                if g.second is not None or fmt == "swiss":  # no point for a free round
                    points[seat] += g.points_of(seat)
    rounds = max((g.round for g in history), default=0)
    shown, keys = _tiebreaks(fmt, names, players, by_round, points, rounds, frozenset(withdrawn))

    def key(p: int) -> tuple[object, ...]:
        return (-points[p], *(tuple(-v for v in level) for level in keys[p]))

    ordered = sorted(players, key=lambda p: (*key(p), p))
    out: list[Standing] = []
    for i, p in enumerate(ordered):
        mine = by_round[p]
        rank = i + 1
        if out and key(out[-1].player) == key(p):
            rank = out[-1].rank
        out.append(
            Standing(
                player=p,
                rank=rank,
                points=points[p],
                tiebreaks=shown[p],
                results=tuple(
                    _result_code(mine[r], p) if r in mine else "-" for r in range(1, rounds + 1)
                ),
                opponents=tuple(
                    mine[r].opponent(p) if r in mine else None for r in range(1, rounds + 1)
                ),
            )
        )
    return out
