"""Simulated Swiss events and the measures of a pairing's quality, shared by the tests
(tests/bot/test_swiss_quality.py), the benchmark (benchmarks/tournament.py) and the
comparison with other libraries (benchmarks/swiss_compare.py).

An event: 4 to 64 players, random results (wins, draws, forfeits won, double forfeits),
players withdrawing now and then. A pairer is any function (players in seed order,
history, round) -> pairs, like `swiss_round`; the next round is played on its pairs, so
each pairer meets the rounds its own earlier pairings lead to.

The measures of one round, from the players' scores and the pairs alone:

- `moves`: pairs of players on different scores (the bye is not a pair);
- `clean`: whether some pairing keeps every pair inside its score group (no rematch, no
  third same seat in a row, the bye to a player allowed it): each group must have a
  perfect matching of its own, the bye's group without one of its players. This is the
  group-by-group best when it has no move at all, so a pairing with moves in a clean round
  has needless ones;
- `thirds`: players given the same seat a third time in a row;
- `beyond`: players whose seat difference ends beyond ±2 (FIDE C.04.1 f);
- `profile`: for each boundary between score groups, top first, the pairs across it (the
  players above it who are not paired among themselves). Pairing score groups from the top,
  each with as many pairs as can be (FIDE C.04.1 e, the Dutch system) is the smallest
  profile in lexicographic order; it also fixes the total score difference of the pairs.
  `best_profile` finds that smallest one with the seat rules (one big matching whose
  weights put each boundary above all those below it), to compare a pairer's with.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import networkx as nx

from bot.tournament.results import Game, played

Pairs = list[tuple[int, int | None]]
Pairer = Callable[[list[int], list[Game], int], Pairs]


@dataclass(slots=True)
class Known:
    """Scores, meetings, byes and seats from a history, computed here independently."""

    score: defaultdict[int, float] = field(default_factory=lambda: defaultdict(float))
    met: set[frozenset[int]] = field(default_factory=set)
    no_bye: set[int] = field(default_factory=set)
    seats: defaultdict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    byes: defaultdict[int, int] = field(default_factory=lambda: defaultdict(int))

    @classmethod
    def of(cls, history: Sequence[Game]) -> Known:
        k = cls()
        for g in sorted(history, key=lambda g: g.round):
            if g.second is None:
                k.score[g.first] += g.points_of(g.first)
                k.byes[g.first] += 1
                k.no_bye.add(g.first)
                continue
            for seat, p in enumerate((g.first, g.second)):
                k.score[p] += g.points_of(p)
                if g.forfeit and g.points_of(p) == 1.0:
                    k.no_bye.add(p)
                if played(g):
                    k.seats[p].append(seat)
            if played(g):
                k.met.add(frozenset((g.first, g.second)))
        return k

    def free(self, a: int, b: int) -> bool:
        return frozenset((a, b)) not in self.met

    def third(self, p: int, seat: int) -> bool:
        s = self.seats[p]
        return len(s) >= 2 and s[-1] == s[-2] == seat

    def beyond(self, p: int, seat: int) -> bool:
        """Whether `seat` would leave p's seat difference beyond ±2."""
        s = self.seats[p]
        return abs(len(s) - 2 * sum(s) + (1 if seat == 0 else -1)) > 2

    def bad_seat(self, p: int, seat: int) -> bool:
        return self.third(p, seat) or self.beyond(p, seat)

    def pairs_well(self, a: int, b: int) -> bool:
        """Not met yet, and some seating gives neither a third same seat in a row nor a
        seat difference beyond ±2 (FIDE's absolute seat rules)."""
        if not self.free(a, b):
            return False
        first = self.bad_seat(a, 0) or self.bad_seat(b, 1)
        second = self.bad_seat(a, 1) or self.bad_seat(b, 0)
        return not (first and second)


def _perfect(players: Sequence[int], ok: Callable[[int, int], bool]) -> bool:
    if len(players) % 2:
        return False
    if not players:
        return True
    g = nx.Graph()
    g.add_nodes_from(players)
    g.add_edges_from((a, b) for i, a in enumerate(players) for b in players[i + 1 :] if ok(a, b))
    return 2 * len(nx.max_weight_matching(g, maxcardinality=True)) == len(players)


def clean(players: Sequence[int], known: Known) -> bool:
    """Whether a pairing exists with every pair inside its score group, the bye (if any)
    going to the lowest score group that has a player allowed it, as FIDE's rule has it."""
    groups: defaultdict[float, list[int]] = defaultdict(list)
    for p in players:
        groups[known.score[p]].append(p)
    bye_group = None
    if len(players) % 2:
        allowed = [known.score[p] for p in players if p not in known.no_bye]
        if not allowed:
            return False
        bye_group = min(allowed)
    for s, g in groups.items():
        if s == bye_group:
            if not any(
                p not in known.no_bye and _perfect([q for q in g if q != p], known.pairs_well)
                for p in g
            ):
                return False
        elif not _perfect(g, known.pairs_well):
            return False
    return True


def profile(scores: Sequence[float], pairs: Sequence[tuple[float, float]]) -> tuple[int, ...]:
    """The pairs across each boundary between the score groups `scores`, top first."""
    levels = sorted(set(scores), reverse=True)
    out = [0] * (len(levels) - 1)
    for x, y in pairs:
        hi, lo = levels.index(max(x, y)), levels.index(min(x, y))
        for k in range(hi, lo):
            out[k] += 1
    return tuple(out)


def best_profile(players: Sequence[int], known: Known) -> tuple[int, ...] | None:
    """The smallest profile of a pairing that keeps the seat rules (pairs_well), the bye
    (if any) to some player allowed it in the lowest score group that has one; None when
    no such pairing exists."""
    scores = [known.score[p] for p in players]
    levels = sorted(set(scores), reverse=True)
    weight = len(players) // 2 + 1  # more pairs than can cross one boundary
    byes: list[int | None] = [None]
    if len(players) % 2:
        allowed = [p for p in players if p not in known.no_bye]
        if not allowed:
            return None
        lowest = min(known.score[p] for p in allowed)
        byes = [p for p in allowed if known.score[p] == lowest]
    best = None
    for bye in byes:
        rest = [p for p in players if p != bye]
        g = nx.Graph()
        for i, a in enumerate(rest):
            for b in rest[i + 1 :]:
                if known.pairs_well(a, b):
                    hi = levels.index(max(known.score[a], known.score[b]))
                    lo = levels.index(min(known.score[a], known.score[b]))
                    cost = sum(weight ** (len(levels) - 2 - k) for k in range(hi, lo))
                    g.add_edge(a, b, weight=weight ** len(levels) - cost)
        m = nx.max_weight_matching(g, maxcardinality=True)
        if 2 * len(m) != len(rest):
            continue
        got = profile(scores, [(known.score[a], known.score[b]) for a, b in m])
        best = got if best is None else min(best, got)
    return best


@dataclass(slots=True)
class Measure:
    """One round's figures."""

    moves: int
    clean: bool
    thirds: int
    rematches: int
    bad_byes: int
    beyond: int = 0
    profile: tuple[int, ...] = ()
    seconds: float = 0.0


def measure(players: Sequence[int], history: Sequence[Game], pairs: Pairs) -> Measure:
    known = Known.of(history)
    moves = thirds = rematches = bad_byes = beyond = 0
    for a, b in pairs:
        if b is None:
            bad_byes += a in known.no_bye
            continue
        moves += known.score[a] != known.score[b]
        thirds += known.third(a, 0) + known.third(b, 1)
        beyond += known.beyond(a, 0) + known.beyond(b, 1)
        rematches += not known.free(a, b)
    games = [(known.score[a], known.score[b]) for a, b in pairs if b is not None]
    shape = profile([known.score[p] for p in players], games)
    return Measure(moves, clean(players, known), thirds, rematches, bad_byes, beyond, shape)


def play(history: list[Game], pairs: Pairs, rnd: int, rng: random.Random) -> None:
    """Random results: wins, draws, forfeits won and double forfeits."""
    for a, b in pairs:
        if b is None:
            history.append(Game(rnd, a, None, (1.0, 0.0)))
            continue
        kind = rng.random()
        if kind < 0.06:
            history.append(Game(rnd, a, b, rng.choice([(1.0, 0.0), (0.0, 1.0)]), True))
        elif kind < 0.08:
            history.append(Game(rnd, a, b, (0.0, 0.0), True))
        else:
            result = rng.choice([(1.0, 0.0), (0.0, 1.0), (1.0, 0.0), (0.0, 1.0), (0.5, 0.5)])
            history.append(Game(rnd, a, b, result))


@dataclass(frozen=True, slots=True)
class Event:
    """One simulated event's set-up: its players and rounds, and the seed of its results."""

    players: int
    rounds: int
    seed: int


def events(count: int, seed: int = 0, *, smallest: int = 4, largest: int = 64) -> list[Event]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.randint(smallest, largest)
        most = max(1, min(n - 1, 4 + n.bit_length()))  # about log2(n) + 3, as events are
        out.append(Event(n, rng.randint(max(1, most - 3), most), rng.randrange(10**9)))
    return out


def run(
    event: Event, pairer: Pairer, *, timer: Callable[[], float] | None = None
) -> Iterator[tuple[list[int], list[Game], Pairs, float]]:
    """Play an event with `pairer`: per round, (players in, history before, pairs, seconds
    to pair). Stops early when the pairer refuses (no rematch-free pairing left)."""
    rng = random.Random(event.seed)
    players = list(range(1, event.players + 1))
    history: list[Game] = []
    for rnd in range(1, event.rounds + 1):
        before = list(history)
        start = timer() if timer else 0.0
        try:
            pairs = pairer(list(players), before, rnd)
        except ValueError:
            return
        took = (timer() - start) if timer else 0.0
        yield players, before, pairs, took
        play(history, pairs, rnd, rng)
        if len(players) > 4 and rng.random() < 0.15:
            players.remove(rng.choice(players))  # a withdrawal
