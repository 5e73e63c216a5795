"""Tournament pairing and standings: pure functions, no I/O.

Rules notes (what the service and the README rely on):

- Points: win 1, draw ½, loss 0, bye 1. A forfeit is a `Game` with `forfeit=True`, scored by
  its points: (1, 0) or (0, 1) is a win for one side and a loss for the other, (0, 0) a
  double forfeit (neither moved before the deadline: 0 for both). A bye recorded as
  (0, 0) with `forfeit=True` is the bye of a player who had withdrawn: 0 points.
- Seat 0 (`first`) starts in Schotten Totten and attacks in Schotten Totten 2.
- Round robin: FIDE Berger tables; with an odd number of players one sits out each round.
- Swiss: no pair meets twice (every pairing counts, forfeits included); players are paired
  inside their score group and float down only when needed; the bye goes to the
  lowest-scored player (then the lowest seed) who has not had one, one bye per player.
  Seats: seat 0 goes to the player with fewer seat-0 games than seat-1 games (their
  difference), then to whoever did not have it in the latest game where the two differ;
  nobody's difference goes beyond ±2 unless no rematch-free pairing allows it.
- Tie-breaks, Swiss: Buchholz (sum of the final points of every opponent paired with, a
  forfeit's included; a bye adds 0), then Sonneborn-Berger (sum of the final points of
  opponents beaten plus half those of opponents drawn; forfeit wins count as wins).
  Round robin: head-to-head (points scored in the games among the players tied on points),
  then Sonneborn-Berger.
- Order: points, then the tie-breaks, then player id; players equal on points and every
  tie-break share a rank ("1, 2, 2, 4": competition ranking).
- Withdrawn players are simply left out of the next pairing; their games keep counting.

The Swiss pairing takes the players from the top of the standings down; each takes the
best partner that still lets every other player be paired without a rematch (an exact
test: a maximum matching, Edmonds' blossom algorithm, kept up to date as pairs are fixed).
"Best" is, in order: the nearest score, a partner whose score group can still pair all of
its members inside itself, compatible seats, then the Dutch order (top half against bottom
half of the group).
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

FORMATS: Final = ("swiss", "round-robin")
TIEBREAKS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "swiss": ("Buchholz", "Sonneborn-Berger"),
        "round-robin": ("Head-to-head", "Sonneborn-Berger"),
    }
)

_RESULTS: Final = frozenset({(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)})
_FORFEITS: Final = frozenset({(1.0, 0.0), (0.0, 1.0), (0.0, 0.0)})
_BYES: Final = frozenset({((1.0, 0.0), False), ((0.0, 0.0), True)})
_SEAT_LIMIT: Final = 2  # the largest |seat-0 games - seat-1 games| the pairing allows


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
                    f"A bye is worth (1, 0), or (0, 0) with forfeit for a player who left;"
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


# Checks ---------------------------------------------------------------------------------


def _check_players(players: Sequence[int]) -> None:
    if len(players) < 2:
        raise ValueError(f"A tournament needs at least 2 players, not {len(players)}.")
    seen: set[int] = set()
    for p in players:
        if p in seen:
            raise ValueError(f"Player {p} is listed twice.")
        seen.add(p)


def _check_history(history: Sequence[Game]) -> None:
    busy: set[tuple[int, int]] = set()
    for g in history:
        for p in (g.first, g.second):
            if p is None:
                continue
            if (g.round, p) in busy:
                raise ValueError(f"Player {p} has two games in round {g.round}.")
            busy.add((g.round, p))


# Round robin ----------------------------------------------------------------------------


def _berger_round(n: int, r: int) -> list[tuple[int, int]]:
    """Round r of the FIDE Berger table for an even n: (seat 0, seat 1) pairing numbers,
    1-based; number n is the fixed one, the others turn around it."""
    if r % 2:
        anchor = (r + 1) // 2
        pairs = [(anchor, n)]
    else:
        anchor = n // 2 + r // 2
        pairs = [(n, anchor)]
    for i in range(1, n // 2):
        pairs.append(((anchor - 1 + i) % (n - 1) + 1, (anchor - 1 - i) % (n - 1) + 1))
    return pairs


def round_robin(players: Sequence[int]) -> list[list[tuple[int, int | None]]]:
    """Every round of a round robin (Berger tables, players numbered in the given order):
    per round, (first, second) pairs, second None = a bye, listed last."""
    _check_players(players)
    ids: list[int | None] = list(players)
    if len(ids) % 2:
        ids.append(None)  # the fixed number: whoever meets it sits out
    n = len(ids)
    rounds = []
    for r in range(1, n):
        games: list[tuple[int, int | None]] = []
        bye: list[tuple[int, int | None]] = []
        for a, b in _berger_round(n, r):
            first, second = ids[a - 1], ids[b - 1]
            if first is None or second is None:
                sitting = first if second is None else second
                assert sitting is not None
                bye.append((sitting, None))
            else:
                games.append((first, second))
        rounds.append(games + bye)
    return rounds


# Maximum matching -----------------------------------------------------------------------


def _blossom_lca(a: int, b: int, base: list[int], mate: list[int], parent: list[int]) -> int:
    """The base of the blossom closed by the edge a-b: their nearest common even ancestor."""
    seen = set()
    while True:
        a = base[a]
        seen.add(a)
        if mate[a] == -1:
            break
        a = parent[mate[a]]
    while True:
        b = base[b]
        if b in seen:
            return b
        b = parent[mate[b]]


def _mark_blossom(
    v: int,
    stem: int,
    child: int,
    base: list[int],
    mate: list[int],
    parent: list[int],
    inside: list[bool],
) -> None:
    while base[v] != stem:
        inside[base[v]] = inside[base[mate[v]]] = True
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]


def _augment(root: int, adj: list[list[int]], mate: list[int], alive: list[bool]) -> bool:
    """Edmonds' search for an augmenting path from the unmatched `root`; applies it to
    `mate` and says whether there was one."""
    n = len(adj)
    parent = [-1] * n
    base = list(range(n))
    even = [False] * n
    even[root] = True
    queue = deque([root])
    while queue:
        v = queue.popleft()
        for u in adj[v]:
            if not alive[u] or base[v] == base[u] or mate[v] == u:
                continue
            if u == root or (mate[u] != -1 and parent[mate[u]] != -1):
                # an odd cycle: contract it, every vertex of it becomes even
                stem = _blossom_lca(v, u, base, mate, parent)
                inside = [False] * n
                _mark_blossom(v, stem, u, base, mate, parent, inside)
                _mark_blossom(u, stem, v, base, mate, parent, inside)
                for i in range(n):
                    if inside[base[i]]:
                        base[i] = stem
                        if not even[i]:
                            even[i] = True
                            queue.append(i)
            elif parent[u] == -1:
                parent[u] = v
                if mate[u] == -1:
                    while u != -1:
                        pv = parent[u]
                        nxt = mate[pv]
                        mate[u], mate[pv] = pv, u
                        u = nxt
                    return True
                even[mate[u]] = True
                queue.append(mate[u])
    return False


@dataclass(slots=True)
class _Trial:
    """A maximum matching without some vertices, and how much smaller it is."""

    drop: int
    mate: list[int]
    alive: list[bool]


class _Matcher:
    """A maximum matching of a graph on 0..n-1, kept maximum as vertices leave. Removing
    vertices can only open augmenting paths that end at their former mates, so a removal
    costs at most two searches (usually none in a dense graph)."""

    __slots__ = ("adj", "alive", "mate", "near", "size")

    def __init__(self, adj: list[list[int]], alive: list[bool]) -> None:
        n = len(adj)
        self.adj = adj
        self.near = [set(a) for a in adj]
        self.alive = list(alive)
        self.mate = [-1] * n
        self.size = 0
        for v in range(n):  # greedy first: cheap, and leaves little for the searches
            if self.alive[v] and self.mate[v] == -1:
                for u in adj[v]:
                    if self.alive[u] and self.mate[u] == -1:
                        self.mate[v], self.mate[u] = u, v
                        self.size += 1
                        break
        for v in range(n):
            if self.alive[v] and self.mate[v] == -1 and _augment(v, adj, self.mate, self.alive):
                self.size += 1

    @property
    def perfect(self) -> bool:
        return 2 * self.size == sum(self.alive)

    def trial(self, gone: tuple[int, ...]) -> _Trial:
        mate, alive = self.mate.copy(), self.alive.copy()
        for v in gone:
            alive[v] = False
        lost, exposed = 0, []
        for v in gone:
            u = mate[v]
            if u == -1:
                continue
            mate[v] = mate[u] = -1
            lost += 1
            if alive[u]:
                exposed.append(u)
        if len(exposed) == 2 and exposed[1] in self.near[exposed[0]]:
            a, b = exposed  # the two orphans can pair each other: nothing to search
            mate[a], mate[b] = b, a
            return _Trial(lost - 1, mate, alive)
        gained = 0
        for u in exposed:
            if mate[u] == -1 and _augment(u, self.adj, mate, alive):
                gained += 1
        return _Trial(lost - gained, mate, alive)

    def commit(self, trial: _Trial) -> None:
        self.mate, self.alive = trial.mate, trial.alive
        self.size -= trial.drop


# Swiss ----------------------------------------------------------------------------------


@dataclass(slots=True)
class _Past:
    """What a player's earlier rounds mean for pairing them."""

    score: float = 0.0
    byes: int = 0
    seats: list[int] = field(default_factory=list)  # 0 or 1 per game, oldest first

    @property
    def seat_diff(self) -> int:
        """Seat-0 games minus seat-1 games."""
        return len(self.seats) - 2 * sum(self.seats)

    def wants(self) -> tuple[int | None, int]:
        """(the seat this player should have next, how strongly: 2 to even out, 1 to
        alternate, 0 no wish)."""
        diff = self.seat_diff
        if diff:
            return (0 if diff < 0 else 1), 2
        if self.seats:
            return 1 - self.seats[-1], 1
        return None, 0


def _pasts(history: Sequence[Game]) -> defaultdict[int, _Past]:
    pasts: defaultdict[int, _Past] = defaultdict(_Past)
    for g in sorted(history, key=lambda g: g.round):
        if g.second is None:
            pasts[g.first].byes += 1
            pasts[g.first].score += g.points_of(g.first)
            continue
        for seat, p in enumerate((g.first, g.second)):
            pasts[p].score += g.points_of(p)
            pasts[p].seats.append(seat)
    return pasts


def _takes_seat0(a: _Past, b: _Past, table: int) -> bool:
    """Whether `a`, the higher-ranked of a pair, gets seat 0: fewer seat-0 games (net)
    first, then whoever had seat 1 in the latest game where their seats differ, then
    alternately by table so that round 1 spreads seat 0 evenly."""
    da, db = a.seat_diff, b.seat_diff
    if da != db:
        return da < db
    for k in range(1, max(len(a.seats), len(b.seats)) + 1):
        x = a.seats[-k] if k <= len(a.seats) else None
        y = b.seats[-k] if k <= len(b.seats) else None
        if x != y:
            return x == 1 or y == 0
    return table % 2 == 0


def _seat_penalty(a: _Past, b: _Past, table: int) -> int:
    """How much the pair's seat wishes are denied (0 when they are compatible)."""
    a_seat = 0 if _takes_seat0(a, b, table) else 1
    penalty = 0
    for past, seat in ((a, a_seat), (b, 1 - a_seat)):
        wish, strength = past.wants()
        if wish is not None and wish != seat:
            penalty += strength
    return penalty


@dataclass(slots=True)
class _Round:
    """One Swiss round being paired; players are indices in ranking order."""

    ids: list[int]
    pasts: list[_Past]
    graph: _Matcher  # pairs without a rematch (and within the seat limit when possible)
    groups: _Matcher  # the same pairs inside score groups only
    pairs: list[tuple[int, int]] = field(default_factory=list)

    def score(self, v: int) -> float:
        return self.pasts[v].score

    def fold_key(self, group: list[int], j: int, same: bool) -> tuple[int, int]:
        """Dutch order: in p's own group, the middle of the rest first (top half against
        bottom half), then down, then up; in a lower group, from its top."""
        if not same:
            return 0, j
        mid = (len(group) + 1) // 2  # p stands before group[0]
        return (0, j) if j + 1 >= mid else (1, -j)

    def candidates(self, p: int, group: list[int], same: bool) -> list[int]:
        table = len(self.pairs)
        near = self.graph.near[p]
        keyed = [
            (
                _seat_penalty(self.pasts[p], self.pasts[q], table),
                self.fold_key(group, j, same),
                q,
            )
            for j, q in enumerate(group)
            if q in near
        ]
        return [q for *_, q in sorted(keyed)]

    def partner(self, p: int, rest: list[int]) -> int:
        """The best partner for p (the top unpaired player) that keeps the rest pairable."""
        start = 0
        while start < len(rest):
            end = start
            while end < len(rest) and self.score(rest[end]) == self.score(rest[start]):
                end += 1
            group = rest[start:end]
            same = self.score(group[0]) == self.score(p)
            # inside p's group the pair itself costs the group one internal pair
            least = 1 if same else 0
            best: tuple[int, _Trial, _Trial, int] | None = None
            for q in self.candidates(p, group, same):
                whole = self.graph.trial((p, q))
                if whole.drop != 1:
                    continue  # the others could not all be paired without a rematch
                inner = self.groups.trial((p, q))
                if inner.drop == least:
                    best = (inner.drop, whole, inner, q)
                    break
                if best is None or inner.drop < best[0]:
                    best = (inner.drop, whole, inner, q)
            if best is not None:
                _, whole, inner, q = best
                self.graph.commit(whole)
                self.groups.commit(inner)
                return q
            start = end
        raise AssertionError("the matching said a pairing exists")

    def pair_all(self) -> None:
        remaining = [v for v in range(len(self.ids)) if self.graph.alive[v]]
        while remaining:
            p = remaining[0]
            q = self.partner(p, remaining[1:])
            self.pairs.append((p, q))
            remaining = [v for v in remaining if v not in (p, q)]

    def seated(self) -> list[tuple[int, int | None]]:
        out: list[tuple[int, int | None]] = []
        for table, (p, q) in enumerate(self.pairs):
            if _takes_seat0(self.pasts[p], self.pasts[q], table):
                out.append((self.ids[p], self.ids[q]))
            else:
                out.append((self.ids[q], self.ids[p]))
        return out


def _impossible(round: int, n: int, why: str) -> ValueError:
    return ValueError(
        f"Swiss round {round} cannot be paired: {why}. {n} players can play at most"
        f" {n - 1 if n % 2 == 0 else n} rounds without a rematch, and fewer when earlier"
        " pairings close the way; end the event or play it as a round robin."
    )


def _choose_bye(round: int, n: int, pasts: list[_Past], plain: _Matcher) -> tuple[int, _Trial]:
    """The lowest-ranked player without a bye whose sitting out leaves the others pairable."""
    if 2 * plain.size < n - 1:
        raise _impossible(round, n, "whoever sits out, two players would meet again")
    eligible = [v for v in reversed(range(n)) if pasts[v].byes == 0]
    if not eligible:
        raise ValueError(
            f"Swiss round {round} needs a bye, but each of the {n} players has had one"
            " (one bye per player per event)."
        )
    for v in eligible:
        trial = plain.trial((v,))
        if trial.drop == 0:
            return v, trial
    raise _impossible(round, n, "every player still due a bye would leave a rematch")


def _seat_limited(adj: list[list[int]], pasts: list[_Past]) -> list[list[int]] | None:
    """The pairs that keep everyone's seat difference within the limit; None when that
    rules out nothing."""
    diffs = [p.seat_diff for p in pasts]
    if all(abs(d) < _SEAT_LIMIT for d in diffs):
        return None

    def clash(a: int, b: int) -> bool:
        return (diffs[a] >= _SEAT_LIMIT and diffs[b] >= _SEAT_LIMIT) or (
            diffs[a] <= -_SEAT_LIMIT and diffs[b] <= -_SEAT_LIMIT
        )

    return [[b for b in near if not clash(a, b)] for a, near in enumerate(adj)]


def swiss_round(
    players: Sequence[int], history: Sequence[Game], round: int
) -> list[tuple[int, int | None]]:
    """The pairs of the next Swiss round for the players still in, ordered by seed (earlier
    = stronger). History may hold games of withdrawn players; they count for scores.
    Pairs are (first, second), top boards first; the bye, if any, is last as (player, None).
    """
    _check_players(players)
    _check_history(history)
    last = max((g.round for g in history), default=0)
    if round <= last:
        raise ValueError(f"Round {round} is not next: the history reaches round {last}.")
    running = sorted({g.round for g in history if g.points is None})
    if running:
        raise ValueError(f"Round {running[0]} still has games running.")
    by_id = _pasts(history)
    seed = {p: i for i, p in enumerate(players)}
    ids = sorted(players, key=lambda p: (-by_id[p].score, seed[p]))
    pasts = [by_id[p] for p in ids]
    met = {(g.first, g.second) for g in history if g.second is not None}
    met |= {(b, a) for a, b in met}
    n = len(ids)
    adj = [[b for b in range(n) if b != a and (ids[a], ids[b]) not in met] for a in range(n)]
    graph = _Matcher(adj, [True] * n)
    bye = None
    if n % 2:
        bye, trial = _choose_bye(round, n, pasts, graph)
        graph.commit(trial)
    elif not graph.perfect:
        raise _impossible(round, n, "any pairing would repeat a game")
    limited = _seat_limited(adj, pasts)
    if limited is not None:
        # seat balance as a hard rule when the rematch-free pairings allow it
        tighter = _Matcher(limited, graph.alive)
        if tighter.perfect:
            adj, graph = limited, tighter
    inner = [[b for b in near if pasts[b].score == pasts[a].score] for a, near in enumerate(adj)]
    state = _Round(ids, pasts, graph, _Matcher(inner, graph.alive))
    state.pair_all()
    out = state.seated()
    if bye is not None:
        out.append((ids[bye], None))
    return out


# Standings ------------------------------------------------------------------------------


def _result_code(g: Game, player: int) -> str:
    if g.second is None:
        return "B" if g.points == (1.0, 0.0) else "-"
    if g.points is None:
        return "?"
    mine = g.points_of(player)
    if g.forfeit:
        return "F" if mine == 1.0 else "f"
    return {1.0: "W", 0.5: "D"}.get(mine, "L")


def _tiebreaks(
    fmt: str, players: Sequence[int], games: Mapping[int, list[Game]], points: Mapping[int, float]
) -> dict[int, tuple[float, ...]]:
    def opponents(p: int) -> list[tuple[int, float]]:
        """(opponent, p's points) of p's decided games."""
        out = []
        for g in games.get(p, []):
            opp = g.opponent(p)
            if opp is not None and g.points is not None:
                out.append((opp, g.points_of(p)))
        return out

    def sonneborn(p: int) -> float:
        return sum(mine * points[opp] for opp, mine in opponents(p))

    if fmt == "swiss":
        return {p: (sum(points[o] for o, _ in opponents(p)), sonneborn(p)) for p in players}
    tied: defaultdict[float, set[int]] = defaultdict(set)
    for p in players:
        tied[points[p]].add(p)
    return {
        p: (sum(m for o, m in opponents(p) if o in tied[points[p]]), sonneborn(p)) for p in players
    }


def standings(fmt: str, players: Sequence[int], history: Sequence[Game]) -> list[Standing]:
    """The standings of `players` (withdrawn ones too, if the caller lists them), best first.
    `fmt` is "swiss" or "round-robin"; TIEBREAKS[fmt] names the tie-breaks for headings.
    Running games count nothing yet."""
    if fmt not in TIEBREAKS:
        raise ValueError(f"Unknown format {fmt!r}: choose one of {', '.join(FORMATS)}.")
    _check_players(players)
    _check_history(history)
    games: defaultdict[int, list[Game]] = defaultdict(list)
    points: defaultdict[int, float] = defaultdict(float)
    for g in history:
        for p in (g.first, g.second):
            if p is not None:
                games[p].append(g)
                points[p] += g.points_of(p)
    tiebreaks = _tiebreaks(fmt, players, games, points)
    rounds = max((g.round for g in history), default=0)
    ordered = sorted(players, key=lambda p: (-points[p], *(-t for t in tiebreaks[p]), p))
    out: list[Standing] = []
    for i, p in enumerate(ordered):
        by_round = {g.round: g for g in games[p]}
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
                    _result_code(by_round[r], p) if r in by_round else "-"
                    for r in range(1, rounds + 1)
                ),
                opponents=tuple(
                    by_round[r].opponent(p) if r in by_round else None for r in range(1, rounds + 1)
                ),
            )
        )
    return out
