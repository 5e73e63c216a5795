"""Swiss pairing: score group by score group, each one maximum-weight matching
(networkx) whose weights encode the pairing rules in strict priority. Pure: no I/O.

The order of the rules (FIDE C.04.1 and the Dutch system's criteria, C.04.3):

1. no rematch of a game played (a forfeit was not played): such pairs are no edges;
2. the bye: one per player, never to a player who won a game by forfeit (C.04.1 d), to the
   lowest score group that has a player allowed it, its lowest-ranked such player;
3. FIDE's absolute seat rules (C.04.1 f): no player has the same seat a third time in a
   row, then no seat difference beyond ±2. Two players who would break one whichever
   way they sit are no pair inside a score group (one moves down instead); only the
   bottom's one matching may break them, when no pairing of what is left avoids it;
4. as many pairs as can be inside each score group, from the top down, the players who
   cannot be paired in theirs moving down to the nearest score free for them (FIDE
   C.04.1 e): in one matching, the fewest pairs across the top boundary between score
   groups, then across the next, and so on;
5. the smallest score differences;
6. each player's seat wish (to even out, then to alternate);
7. the Dutch order inside a group: its top half against its bottom half in order, a
   player moving down meeting the top of the group below.

An edge's cost is a tuple in that order; it becomes one integer weight (each level worth
more than every lower level can add up to over the matching), and a maximum-weight
matching of maximum cardinality minimises the sum lexicographically. A group (with the
players moving down into it) is one matching, with a vertex "down" for the player who
moves on when their number is odd.

Pairing group by group cannot see how its choice of who moves down leaves the groups
below, so a field of up to ONE_MATCHING players is paired as one matching of everyone:
the exact best. In a bigger field, pairing group by group is safe only while the players
below can still be paired without a rematch whoever comes down: Dirac's theorem promises
it while they are at least 2k + 2, k being the most games any player has played. The
groups at the bottom, where that fails, are paired together as one matching of all that
is left (bye included), a big first group of them in parts (`bottom`).

networkx's matching is pure Python and costs about players times edges, so a group of
more than GROUP_WHOLE players is paired in parts: slices of its top and bottom halves
together (each player's Dutch partner is in the same part), whoever a part leaves unpaired
going on to the next. Every round of 1,000 players pairs in well under a second.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

import networkx as nx

from bot.tournament.results import Game, check_history, check_players, played

SEAT_LIMIT: Final = 2  # the largest |seat-0 games - seat-1 games| wished for
GROUP_WHOLE: Final = 24  # a bigger score group is paired in parts of about this many
ONE_MATCHING: Final = 64  # a field up to this many is paired as one matching (exact)
BYE: Final = -1  # the bye's vertex


@dataclass(slots=True)
class Past:
    """What a player's earlier rounds mean for pairing them."""

    score: float = 0.0
    no_bye: bool = False  # had the bye, or won a game by forfeit
    seats: list[int] = field(default_factory=list)  # 0 or 1 per game played, oldest first

    @property
    def seat_diff(self) -> int:
        """Seat-0 games minus seat-1 games."""
        return len(self.seats) - 2 * sum(self.seats)

    def denied(self, seat: int) -> tuple[int, int, int, int]:
        """What giving this player `seat` breaks: (a third same seat in a row, a seat
        difference beyond the limit, the wish to even out, the wish to alternate)."""
        diff = self.seat_diff
        after = diff + (1 if seat == 0 else -1)
        third = int(len(self.seats) >= 2 and self.seats[-1] == self.seats[-2] == seat)
        beyond = int(abs(after) > SEAT_LIMIT)
        even = int(diff != 0 and abs(after) > abs(diff))
        alternate = int(diff == 0 and bool(self.seats) and self.seats[-1] == seat)
        return third, beyond, even, alternate


def pasts(history: Sequence[Game]) -> dict[int, Past]:
    out: dict[int, Past] = {}
    for g in sorted(history, key=lambda g: g.round):
        for seat, p in enumerate((g.first, g.second)):
            if p is None:
                continue
            past = out.setdefault(p, Past())
            past.score += g.points_of(p)
            if g.second is None or (g.forfeit and g.points_of(p) == 1.0):
                past.no_bye = True  # the bye, or a forfeit win (FIDE C.04.1 d)
            if played(g):
                past.seats.append(seat)
    return out


def takes_seat0(a: Past, b: Past, table: int) -> bool:
    """Whether `a`, the higher-ranked of a pair, gets seat 0: whichever way breaks fewer
    seat rules; if equal, fewer seat-0 games (net) first, then whoever had seat 1 in the
    latest game where their seats differ, then alternately by table (round 1)."""
    first, second = _seat_cost(a, b, 0), _seat_cost(a, b, 1)
    if first != second:
        return first < second
    da, db = a.seat_diff, b.seat_diff
    if da != db:
        return da < db
    for k in range(1, max(len(a.seats), len(b.seats)) + 1):
        x = a.seats[-k] if k <= len(a.seats) else None
        y = b.seats[-k] if k <= len(b.seats) else None
        if x != y:
            return x == 1 or y == 0
    return table % 2 == 0


def _seat_cost(a: Past, b: Past, a_seat: int) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a.denied(a_seat), b.denied(1 - a_seat), strict=True))


# The levels of an edge's cost, with the most each can be on one edge.
LEVELS: Final = (
    "bye",
    "third",
    "beyond",
    "cross",
    "moves",
    "distance",
    "even",
    "alternate",
    "order",
)


@dataclass(slots=True)
class _Round:
    """One Swiss round being paired; players are indices in ranking order."""

    ids: list[int]
    pasts: list[Past]
    met: set[tuple[int, int]]
    groups: list[list[int]]  # indices by score group, top first
    group_of: list[int]
    place: list[int]  # the index's place in its group
    bye_allowed: list[int]  # the players who may get the bye, lowest-ranked first
    odd: bool
    safe: int = 2  # the fewest players that any history lets pair (Dirac), set per round
    denials: list[tuple[tuple[int, ...], tuple[int, ...]]] = field(init=False)

    def __post_init__(self) -> None:
        self.denials = [(p.denied(0), p.denied(1)) for p in self.pasts]

    def free(self, a: int, b: int) -> bool:
        return (self.ids[a], self.ids[b]) not in self.met

    def seat_bad_either_way(self, a: int, b: int) -> bool:
        """Whether either seating of a and b breaks an absolute seat rule for one of them:
        the same seat a third time in a row, or a seat difference beyond ±2."""
        (a0, a1), (b0, b1) = self.denials[a], self.denials[b]
        return a0[0] + b1[0] + a0[1] + b1[1] > 0 and a1[0] + b0[0] + a1[1] + b0[1] > 0

    def cost(self, a: int, b: int) -> tuple[int, ...]:
        """The cost of pairing a and b (a ranked above b)."""
        pa, pb = self.pasts[a], self.pasts[b]
        ga, gb = self.group_of[a], self.group_of[b]
        distance = round(2 * (pa.score - pb.score))
        if ga == gb:
            size = len(self.groups[ga])
            half = size // 2
            i, j = self.place[a], self.place[b]
            order = min(abs(j - i - half), 2) if i < half <= j else 3
        else:  # the lowest of the group above meets the top of the group below
            below = len(self.groups[ga]) - 1 - self.place[a]
            order = min(below, 1) + min(self.place[b], 2)
        (a0, a1), (b0, b1) = self.denials[a], self.denials[b]
        seats = min(
            (a0[0] + b1[0], a0[1] + b1[1], a0[2] + b1[2], a0[3] + b1[3]),
            (a1[0] + b0[0], a1[1] + b0[1], a1[2] + b0[2], a1[3] + b0[3]),
        )
        return (0, *seats[:2], 0, int(ga != gb), distance * distance, *seats[2:], order)

    def solve(self, vertices: list[int], *, bye: bool) -> dict[int, int] | None:
        """The best pairing of `vertices` over every rematch-free pair (None: none pairs
        everyone): each player's partner, BYE for the bye.

        The score groups are paired from the top (FIDE C.04.1 e): a pair's "cross" cost
        counts each boundary between score groups it crosses, a boundary outweighing all
        those below it together, so that the fewest pairs cross the top boundary, then the
        next, and so on; which also keeps those who move down as close as can be."""
        first = self.group_of[vertices[0]]
        span = self.group_of[vertices[-1]] - first  # the boundaries inside `vertices`
        unit = (len(vertices) + 1) // 2 + 1  # more pairs than can cross one boundary
        weight = [unit ** (span - 1 - k) for k in range(span)]
        costs = {}
        for i, a in enumerate(vertices):
            for b in vertices[i + 1 :]:
                if self.free(a, b):
                    c = self.cost(a, b)
                    ga, gb = self.group_of[a] - first, self.group_of[b] - first
                    # no count of moves here: their crossings are counted, and
                    # then the smaller score differences come first (FIDE's PSD)
                    costs[(a, b)] = (*c[:3], sum(weight[ga:gb]), 0, *c[5:])
        if bye:
            bottom = self.group_of[vertices[-1]]
            for p in self.bye_allowed:
                if p in vertices:
                    # the lowest score group first, then the lowest-ranked in it
                    above = len(self.groups[self.group_of[p]]) - 1 - self.place[p]
                    costs[(p, BYE)] = (bottom - self.group_of[p], *_ZERO[2:], min(above, 3))
        partner = _match(costs, (len(vertices) + 1) // 2)
        return partner if len(partner) == len(vertices) + bye else None

    def bracket(
        self, floaters: list[int], residents: list[int]
    ) -> tuple[dict[int, int], list[int]]:
        """One score group with the players moving down into it: as many pairs as can be
        (floaters first), the rest moving down. Only called where the players below are
        enough for any choice to leave them pairable (Dirac's theorem).

        A big group is paired in parts that keep the Dutch order: its top half and its
        bottom half cut in slices, slice k of each half together (where each player's
        Dutch partner is), whoever a part leaves unpaired going on to the next part. A
        matching costs about the number of its players times its edges, so parts of
        GROUP_WHOLE players keep a group of 200 at a few tenths of a second."""
        if len(residents) <= GROUP_WHOLE:
            return self._pair_part(floaters, residents)
        half = (len(residents) + 1) // 2
        top, bottom = residents[:half], residents[half:]
        parts = -(-2 * half // GROUP_WHOLE)
        step = -(-half // parts)
        partner: dict[int, int] = {}
        carry = floaters
        for start in range(0, half, step):
            pairs, carry = self._pair_part(
                carry, top[start : start + step] + bottom[start : start + step]
            )
            partner.update(pairs)
        return partner, carry

    def _pair_part(
        self, floaters: list[int], residents: list[int]
    ) -> tuple[dict[int, int], list[int]]:
        vertices = sorted(floaters + residents)  # by rank: cost() wants the higher first
        moving = set(floaters)
        costs: dict[tuple[int, int], tuple[int, ...]] = {}
        for i, a in enumerate(vertices):
            for b in vertices[i + 1 :]:
                # A pair that would give one of them a third same seat or a difference
                # beyond ±2 is no pair in a score group (FIDE's absolute seat rules): they
                # move down instead; only the bottom's one matching may, when nothing
                # else can.
                if self.free(a, b) and not self.seat_bad_either_way(a, b):
                    costs[(a, b)] = self.cost(a, b)
        if len(vertices) % 2:
            for a in vertices:  # DOWN: who moves on down; a floater again, last
                below = len(self.groups[self.group_of[a]]) - 1 - self.place[a]
                again = int(a in moving)
                costs[(a, DOWN)] = (0, 0, 0, 0, 2 * again, *_ZERO[6:], min(below, 3))
        partner = _match(costs, (len(vertices) + 1) // 2)
        down = [v for v in vertices if partner.get(v, DOWN) == DOWN]
        return {a: b for a, b in partner.items() if DOWN not in (a, b)}, down

    def bottom(
        self, floaters: list[int], groups: list[list[int]], *, bye: bool
    ) -> dict[int, int] | None:
        """The bottom of the field: the players moving down, the group `groups[0]` and the
        few below it, where pairing group by group might leave the last ones unpairable.
        One matching (`solve`), except that more than ONE_MATCHING players with a big first
        group are paired in parts as in `bracket`, the last part taking everything left, at
        least `safe` players (Dirac: any choice before leaves them pairable); one matching
        of 1,000 would take seconds."""
        members = groups[0] if groups else []
        below = [v for g in groups[1:] for v in g]
        everyone = floaters + members + below
        if bye or len(members) <= 2 * GROUP_WHOLE or len(everyone) <= ONE_MATCHING:
            return self.solve(everyone, bye=bye) if everyone else {}
        half = (len(members) + 1) // 2
        top, low = members[:half], members[half:]
        step = -(-half // -(-2 * half // GROUP_WHOLE))
        partner: dict[int, int] = {}
        carry = floaters
        for start in range(0, half, step):
            end = start + step
            if end >= half or 2 * (half - end) - 1 + len(below) < self.safe:
                tail = self.solve(sorted(carry + top[start:] + low[start:] + below), bye=False)
                if tail is None:
                    return None
                partner.update(tail)
                break
            pairs, carry = self._pair_part(carry, top[start:end] + low[start:end])
            partner.update(pairs)
        return partner

    def choose_bye(self) -> int:
        """The bye up front, where any choice leaves the others pairable: the lowest score
        group with a player allowed it; in it, the lowest-ranked such player whose going
        leaves the rest of the group able to pair inside itself (when it is small enough
        to check), else its lowest-ranked."""
        lowest = self.group_of[self.bye_allowed[0]]
        allowed = [p for p in self.bye_allowed if self.group_of[p] == lowest]
        group = self.groups[lowest]
        if len(group) <= GROUP_WHOLE:
            for p in allowed:
                others = [v for v in group if v != p]
                if self.pairable(others):
                    return p
        return allowed[0]

    def pairable(self, vertices: list[int]) -> bool:
        if len(vertices) % 2:
            return False
        graph: nx.Graph[int] = nx.Graph()
        graph.add_nodes_from(vertices)
        graph.add_edges_from(
            (a, b) for i, a in enumerate(vertices) for b in vertices[i + 1 :] if self.free(a, b)
        )
        return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(vertices)


_ZERO: Final = (0,) * len(LEVELS)
DOWN: Final = -2  # a bracket's vertex for the player who moves on down


def _match(costs: dict[tuple[int, int], tuple[int, ...]], pairs: int) -> dict[int, int]:
    weights = _weights(costs, pairs)
    graph: nx.Graph[int] = nx.Graph()
    graph.add_weighted_edges_from((a, b, w) for (a, b), w in weights.items())
    partner: dict[int, int] = {}
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        partner[a], partner[b] = b, a
    return partner


def _weights(
    costs: dict[tuple[int, int], tuple[int, ...]], pairs: int
) -> dict[tuple[int, int], int]:
    """One integer per edge, larger for a smaller cost, each level outweighing all the
    lower levels' costs over a whole round."""
    most = [max((c[k] for c in costs.values()), default=0) for k in range(len(LEVELS))]
    scale = [1] * len(LEVELS)
    for k in range(len(LEVELS) - 2, -1, -1):
        scale[k] = scale[k + 1] * (pairs * most[k + 1] + 1)
    top = scale[0] * (pairs * most[0] + 1)
    return {e: top - sum(x * s for x, s in zip(c, scale, strict=True)) for e, c in costs.items()}


class NoPairing(ValueError):
    """No pairing of the round keeps the absolute rules (no rematch, one bye each): the
    event cannot go on as a Swiss."""


def _impossible(round: int, n: int, why: str) -> NoPairing:
    return NoPairing(
        f"Swiss round {round} cannot be paired: {why}. {n} players can play at most"
        f" {n - 1 if n % 2 == 0 else n} rounds without a rematch, and fewer when earlier"
        " pairings close the way; end the event or play it as a round robin."
    )


def swiss_round(
    players: Sequence[int], history: Sequence[Game], round: int
) -> list[tuple[int, int | None]]:
    """The pairs of the next Swiss round for the players still in, ordered by seed (earlier
    = stronger). History may hold games of withdrawn players; they count for scores.
    Pairs are (first, second), top boards first; the bye, if any, is last as (player, None).
    """
    check_players(players)
    check_history(history)
    last = max((g.round for g in history), default=0)
    if round <= last:
        raise ValueError(f"Round {round} is not next: the history reaches round {last}.")
    running = sorted({g.round for g in history if g.points is None})
    if running:
        raise ValueError(f"Round {running[0]} still has games running.")
    state = _state(players, history)
    n = len(state.ids)
    if state.odd and not state.bye_allowed:
        raise NoPairing(
            f"Swiss round {round} needs a bye, but each of the {n} players has had one or"
            " won a game by forfeit (one bye per player per event)."
        )
    # Dirac: a set of m players, each of whom has played at most `most` of the others, has
    # a pairing without a rematch when m >= 2 * most + 2 (and m is even)
    most = max((len(p.seats) for p in state.pasts), default=0)
    safe = state.safe = 2 * most + 2
    # A small field is one matching, the exact best from the top: group by group cannot
    # see how its choice of who moves down leaves the groups below.
    whole = n <= ONE_MATCHING
    partner: dict[int, int] = {}
    odd = state.odd
    if odd and not whole and n - 1 >= safe:
        bye = state.choose_bye()
        partner[bye], partner[BYE] = BYE, bye
        odd = False
    groups = [[v for v in g if v not in partner] for g in state.groups]
    floaters: list[int] = []
    tail = None
    for k, members in enumerate(groups):  # the last group at the latest ends the loop
        if whole or sum(len(g) for g in groups[k + 1 :]) < safe:
            tail = state.bottom(floaters, [g for g in groups[k:] if g], bye=odd)
            break
        pairs, floaters = state.bracket(floaters, members)
        partner.update(pairs)
    if tail is None:
        if state.odd:
            raise _impossible(round, n, "every player still due a bye would leave a rematch")
        raise _impossible(round, n, "any pairing would repeat a game")
    partner.update(tail)
    return _seated(state, partner)


def _state(players: Sequence[int], history: Sequence[Game]) -> _Round:
    by_id = pasts(history)
    seed = {p: i for i, p in enumerate(players)}
    ids = sorted(players, key=lambda p: (-by_id.get(p, Past()).score, seed[p]))
    ranked = [by_id.get(p, Past()) for p in ids]
    groups: list[list[int]] = []
    for v, past in enumerate(ranked):
        if not groups or ranked[groups[-1][0]].score != past.score:
            groups.append([])
        groups[-1].append(v)
    group_of = [0] * len(ids)
    place = [0] * len(ids)
    for g, members in enumerate(groups):
        for i, v in enumerate(members):
            group_of[v], place[v] = g, i
    met = {(g.first, g.second) for g in history if played(g) and g.second is not None}
    met |= {(b, a) for a, b in met}
    odd = len(ids) % 2 == 1
    allowed = [v for v in reversed(range(len(ids))) if odd and not ranked[v].no_bye]
    return _Round(ids, ranked, met, groups, group_of, place, allowed, odd)


def _seated(state: _Round, partner: dict[int, int]) -> list[tuple[int, int | None]]:
    pairs = sorted((a, b) for a, b in partner.items() if a != BYE and b != BYE and a < b)
    out: list[tuple[int, int | None]] = []
    for table, (a, b) in enumerate(pairs):
        if takes_seat0(state.pasts[a], state.pasts[b], table):
            out.append((state.ids[a], state.ids[b]))
        else:
            out.append((state.ids[b], state.ids[a]))
    if BYE in partner:
        out.append((state.ids[partner[BYE]], None))
    return out
