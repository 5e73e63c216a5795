"""Tournament pairing and standings (bot/tournament/pairing.py): properties checked against
brute force on small events, hand-computed standings, and the refusals."""

import functools
import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.pairing import TIEBREAKS, Game, round_robin, standings, swiss_round

Pair = frozenset[int]

# Brute force ------------------------------------------------------------------------------


def matchings(players: list[int], ok: Callable[[int, int], bool]) -> Iterator[set[Pair]]:
    """Every perfect matching of `players` using only pairs `ok` allows."""
    if not players:
        yield set()
        return
    a, rest = players[0], players[1:]
    for i, b in enumerate(rest):
        if ok(a, b):
            for m in matchings(rest[:i] + rest[i + 1 :], ok):
                yield {frozenset((a, b)), *m}


class Past:
    """Scores, byes, seat differences and meetings, computed here independently."""

    def __init__(self, history: list[Game]) -> None:
        self.score: defaultdict[int, float] = defaultdict(float)
        self.byes: Counter[int] = Counter()
        self.diff: Counter[int] = Counter()
        self.met: set[Pair] = set()
        for g in history:
            if g.second is None:
                self.byes[g.first] += 1
                self.score[g.first] += g.points[0]
                continue
            self.score[g.first] += g.points[0]
            self.score[g.second] += g.points[1]
            self.diff[g.first] += 1
            self.diff[g.second] -= 1
            self.met.add(frozenset((g.first, g.second)))

    def free(self, a: int, b: int) -> bool:
        return frozenset((a, b)) not in self.met

    def seats_fit(self, a: int, b: int) -> bool:
        da, db = self.diff[a], self.diff[b]
        return not ((da >= 2 and db >= 2) or (da <= -2 and db <= -2))

    def pairable(self, players: list[int]) -> bool:
        return next(matchings(players, self.free), None) is not None


def play(history: list[Game], pairs: list[tuple[int, int | None]], rnd: int, rng: random.Random):
    """Random results: wins, draws, forfeits and double forfeits."""
    for a, b in pairs:
        if b is None:
            history.append(Game(rnd, a, None, (1.0, 0.0)))
            continue
        kind = rng.random()
        if kind < 0.1:
            history.append(Game(rnd, a, b, rng.choice([(1.0, 0.0), (0.0, 1.0)]), True))
        elif kind < 0.15:
            history.append(Game(rnd, a, b, (0.0, 0.0), True))
        else:
            history.append(Game(rnd, a, b, rng.choice([(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)])))


# Swiss: properties --------------------------------------------------------------------------


def check_basics(players: list[int], past: Past, pairs: list[tuple[int, int | None]]) -> None:
    """Everyone present exactly once, a bye only for an odd count and only a first one, no
    rematch."""
    seen = [p for pair in pairs for p in pair if p is not None]
    assert sorted(seen) == sorted(players)
    byes = [a for a, b in pairs if b is None]
    assert len(byes) == len(players) % 2
    assert all(past.byes[b] == 0 for b in byes)
    assert all(past.free(a, b) for a, b in pairs if b is not None)


def check_against_brute_force(
    players: list[int], past: Past, pairs: list[tuple[int, int | None]]
) -> None:
    score = past.score
    byes = [a for a, b in pairs if b is None]
    if byes:  # the lowest score among those due a bye who leave the others pairable
        due = [
            p
            for p in players
            if past.byes[p] == 0 and past.pairable([q for q in players if q != p])
        ]
        assert score[byes[0]] == min(score[p] for p in due)
    rest = [p for p in players if p not in byes]
    tight = list(matchings(rest, lambda a, b: past.free(a, b) and past.seats_fit(a, b)))
    allowed = tight or list(matchings(rest, past.free))
    games = [(a, b) for a, b in pairs if b is not None]
    if tight:  # seat balance holds whenever a rematch-free pairing allows it
        assert all(past.seats_fit(a, b) for a, b in games)
    # nobody floats when a pairing exists with every pair inside its score group
    if any(all(len({score[p] for p in pair}) == 1 for pair in m) for m in allowed):
        assert all(score[a] == score[b] for a, b in games)
    # from the top of the standings down, each player gets the nearest score possible
    # given the pairs above them
    partner = {a: b for a, b in games} | {b: a for a, b in games}
    order = sorted(rest, key=lambda p: (-score[p], players.index(p)))
    fixed: set[Pair] = set()
    for p in order:
        if frozenset((p, partner[p])) in fixed:
            continue
        options = [m for m in allowed if fixed <= m]
        nearest = min(
            abs(score[p] - score[next(iter(pair - {p}))])
            for m in options
            for pair in m
            if p in pair
        )
        assert abs(score[p] - score[partner[p]]) == nearest
        fixed.add(frozenset((p, partner[p])))


def check_refusal(players: list[int], past: Past) -> None:
    """swiss_round refused: truly no rematch-free pairing with a permitted bye."""
    if len(players) % 2 == 0:
        assert not past.pairable(players)
    else:
        for p in players:
            assert past.byes[p] or not past.pairable([q for q in players if q != p])


def check_seat_limit(players: list[int], history: list[Game]) -> None:
    diffs = Past(history).diff
    assert all(abs(diffs[p]) <= 2 for p in players), diffs


@settings(max_examples=800, deadline=None)
@given(n=st.integers(2, 10), rounds=st.integers(1, 10), seed=st.integers(0, 10**6))
def test_small_swiss_matches_brute_force(n, rounds, seed):
    rng = random.Random(seed)
    players = list(range(100, 100 + n))
    rng.shuffle(players)  # seeds need not follow ids
    history: list[Game] = []
    for rnd in range(1, rounds + 1):
        past = Past(history)
        try:
            pairs = swiss_round(players, history, rnd)
        except ValueError as e:
            assert "cannot be paired" in str(e) or "has had one" in str(e)
            check_refusal(players, past)
            return
        check_basics(players, past, pairs)
        check_against_brute_force(players, past, pairs)
        play(history, pairs, rnd, rng)
        if len(players) > 3 and rng.random() < 0.2:
            players.remove(rng.choice(players))  # a withdrawal


@settings(max_examples=150, deadline=None)
@given(n=st.integers(11, 40), rounds=st.integers(1, 8), seed=st.integers(0, 10**6))
def test_larger_swiss_pairs_everyone_without_rematches(n, rounds, seed):
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    history: list[Game] = []
    for rnd in range(1, rounds + 1):
        # Dirac: with every player's opponents so far at most (m - 2) // 2, a
        # rematch-free pairing (any bye) exists, so a refusal would be a bug
        if rnd - 1 > (len(players) - 2) // 2:
            return
        past = Past(history)
        pairs = swiss_round(players, history, rnd)
        check_basics(players, past, pairs)
        byes = [a for a, b in pairs if b is None]
        if byes:
            assert past.score[byes[0]] == min(past.score[p] for p in players if not past.byes[p])
        play(history, pairs, rnd, rng)
        check_seat_limit(players, history)
        if rng.random() < 0.3:
            players.remove(rng.choice(players))


def perfectly_pairable(players: list[int], ok: Callable[[int, int], bool]) -> bool:
    """Brute force for medium sizes: memoised over the set of players left."""
    full = (1 << len(players)) - 1

    @functools.cache
    def solve(left: int) -> bool:
        if not left:
            return True
        a = (left & -left).bit_length() - 1
        rest = left & ~(1 << a)
        return any(
            rest >> b & 1 and ok(players[a], players[b]) and solve(rest & ~(1 << b))
            for b in range(len(players))
        )

    return solve(full)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(11, 16), seed=st.integers(0, 10**6))
def test_medium_swiss_runs_until_no_pairing_is_left(n, seed):
    """Late rounds, where the no-rematch rule bites: refused only when brute force agrees."""
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    history: list[Game] = []
    for rnd in range(1, n + 1):
        past = Past(history)
        try:
            pairs = swiss_round(players, history, rnd)
        except ValueError:
            if n % 2 == 0:
                assert not perfectly_pairable(players, past.free)
            else:
                for p in players:
                    rest = [q for q in players if q != p]
                    assert past.byes[p] or not perfectly_pairable(rest, past.free)
            return
        check_basics(players, past, pairs)
        play(history, pairs, rnd, rng)
    assert n % 2  # an even field has n - 1 rounds at most


def test_round_one_is_the_dutch_fold_with_alternating_seats():
    assert swiss_round([1, 2, 3, 4, 5, 6, 7, 8], [], 1) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    assert swiss_round([1, 2, 3, 4, 5], [], 1) == [(1, 3), (4, 2), (5, None)]


def test_a_group_pairs_inside_itself_rather_than_float():
    # 1, 2, 3, 4 on 1.5 points. Top half against bottom half, with compatible seats, is
    # 1-3, which leaves 2-4, who met: two players would float. 1-4 and 2-3 keep everyone
    # in their group (every seat difference is 0, so the seat limit rules nothing out)
    win, draw = (1.0, 0.0), (0.5, 0.5)
    history = [
        *(Game(1, 1, 5, win), Game(1, 2, 6, win), Game(1, 7, 3, (0.0, 1.0))),
        Game(1, 8, 4, (0.0, 1.0)),
        *(Game(2, 4, 2, draw), Game(2, 6, 1, draw), Game(2, 3, 5, draw), Game(2, 7, 8, draw)),
    ]
    pairs = swiss_round(list(range(1, 9)), history, 3)
    assert {frozenset(pair) for pair in pairs} >= {frozenset((1, 4)), frozenset((2, 3))}
    assert all({a, b} <= {5, 6, 7, 8} for a, b in pairs[2:])


def test_seat_zero_goes_to_who_had_it_less_then_not_last():
    history = [Game(1, 1, 2, (1.0, 0.0)), Game(1, 3, 4, (1.0, 0.0))]
    # 1 and 3 both had seat 0, and so equal on everything: by table, the higher-ranked
    # player has seat 0 on table 1, seat 1 on table 2
    assert swiss_round([1, 2, 3, 4], history, 2) == [(1, 3), (4, 2)]
    history += [Game(2, 3, 1, (0.0, 1.0)), Game(2, 4, 2, (0.0, 1.0))]
    # round 3: 1 (seats 0, 1) meets 4 (seats 1, 0): even balance, 1 had seat 1 last;
    # 2 (seat 1 twice) takes seat 0 from 3 (seat 0 twice)
    assert swiss_round([1, 2, 3, 4], history, 3) == [(1, 4), (2, 3)]


def test_the_bye_goes_to_the_lowest_score_without_one():
    history = [Game(1, 1, 2, (1.0, 0.0)), Game(1, 3, 4, (1.0, 0.0)), Game(1, 5, None, (1.0, 0.0))]
    pairs = swiss_round([1, 2, 3, 4, 5], history, 2)
    assert pairs[-1] == (4, None)  # 2 and 4 have 0 points; 4 is the lower seed
    assert swiss_round([1, 4, 3, 2, 5], history, 2)[-1] == (2, None)  # now 2 is


def test_a_withdrawn_player_is_left_out_and_their_games_count():
    history = [Game(1, 1, 3, (1.0, 0.0)), Game(1, 4, 2, (1.0, 0.0))]
    pairs = swiss_round([1, 2, 3], history, 2)  # 4 left
    assert pairs == [(2, 1), (3, None)]
    table = standings("swiss", [1, 2, 3, 4], history)
    assert {s.player: s.points for s in table} == {1: 1.0, 4: 1.0, 2: 0.0, 3: 0.0}


def test_swiss_refusals():
    full = [
        Game(r, a, b, (1.0, 0.0))
        for r, rnd in enumerate(round_robin([1, 2, 3, 4]), 1)
        for a, b in rnd
    ]
    with pytest.raises(ValueError, match="at most 3 rounds"):
        swiss_round([1, 2, 3, 4], full, 4)
    with pytest.raises(ValueError, match="at least 2 players"):
        swiss_round([1], [], 1)
    with pytest.raises(ValueError, match="listed twice"):
        swiss_round([1, 2, 1], [], 1)
    with pytest.raises(ValueError, match="not next"):
        swiss_round([1, 2, 3, 4], full, 3)
    with pytest.raises(ValueError, match="still has games running"):
        swiss_round([1, 2, 3, 4], [Game(1, 1, 2, None), Game(1, 3, 4, (1.0, 0.0))], 2)
    with pytest.raises(ValueError, match="two games in round 1"):
        swiss_round([1, 2, 3], [Game(1, 1, 2, (1.0, 0.0)), Game(1, 2, 3, (1.0, 0.0))], 2)
    byes = [
        Game(1, 1, None, (1.0, 0.0)),
        Game(2, 2, None, (1.0, 0.0)),
        Game(3, 3, None, (1.0, 0.0)),
    ]
    with pytest.raises(ValueError, match="has had one"):
        swiss_round([1, 2, 3], byes, 4)


@pytest.mark.parametrize(
    "game",
    [
        lambda: Game(0, 1, 2, None),
        lambda: Game(1, 1, 1, None),
        lambda: Game(1, 1, 2, (0.0, 0.0)),
        lambda: Game(1, 1, 2, (0.5, 0.5), True),
        lambda: Game(1, 1, 2, (1.0, 1.0)),
        lambda: Game(1, 1, 2, None, True),
        lambda: Game(1, 1, None, None),
        lambda: Game(1, 1, None, (0.5, 0.0)),
    ],
)
def test_nonsense_games_are_refused(game):
    with pytest.raises(ValueError):
        game()


# Round robin ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 41))
def test_round_robin_meets_everyone_once_with_balanced_seats(n):
    players = [7 * i + 3 for i in range(n)]
    rounds = round_robin(players)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter()
    firsts = Counter()
    byes = Counter()
    for rnd in rounds:
        seen = [p for pair in rnd for p in pair if p is not None]
        assert sorted(seen) == sorted(players)
        for a, b in rnd:
            if b is None:
                byes[a] += 1
            else:
                met[frozenset((a, b))] += 1
                firsts[a] += 1
    assert set(met) == {frozenset(c) for c in combinations(players, 2)}
    assert set(met.values()) == {1}
    assert all(byes[p] == n % 2 for p in players)
    counts = [firsts[p] for p in players]
    assert max(counts) - min(counts) <= 1


def test_round_robin_is_the_fide_berger_table():
    assert round_robin([1, 2, 3, 4, 5, 6]) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]
    assert round_robin([1, 2, 3])[0] == [(2, 3), (1, None)]


def test_round_robin_refusals():
    with pytest.raises(ValueError, match="at least 2"):
        round_robin([5])
    with pytest.raises(ValueError, match="twice"):
        round_robin([5, 6, 5])


# Standings ----------------------------------------------------------------------------------


def test_swiss_standings_by_hand():
    history = [
        Game(1, 1, 2, (1.0, 0.0)),
        Game(1, 3, 4, (0.5, 0.5)),
        Game(1, 5, None, (1.0, 0.0)),
        Game(2, 1, 3, (1.0, 0.0)),
        Game(2, 5, 2, (0.0, 1.0)),
        Game(2, 4, None, (1.0, 0.0)),
        Game(3, 1, 5, (1.0, 0.0), True),  # 5 did not move: 1 wins by forfeit
        Game(3, 2, 4, (0.0, 0.0), True),  # nobody moved
        Game(3, 3, None, (1.0, 0.0)),
    ]
    table = standings("swiss", [1, 2, 3, 4, 5], history)
    # points 1: 3, 2: 1, 3: 1.5, 4: 1.5, 5: 1
    # Buchholz (a bye adds 0): 1: 1 + 1.5 + 1; 2: 3 + 1 + 1.5; 3: 1.5 + 3; 4: 1.5 + 1; 5: 1 + 3
    # Sonneborn-Berger: 1 beat 2, 3, 5; 2 beat 5; 3 and 4 drew each other
    assert [(s.player, s.rank, s.points, s.tiebreaks) for s in table] == [
        (1, 1, 3.0, (3.5, 3.5)),
        (3, 2, 1.5, (4.5, 0.75)),
        (4, 3, 1.5, (2.5, 0.75)),
        (2, 4, 1.0, (5.5, 1.0)),
        (5, 5, 1.0, (4.0, 0.0)),
    ]
    by = {s.player: s for s in table}
    assert by[1].results == ("W", "W", "F")
    assert by[2].results == ("L", "W", "f")
    assert by[3].results == ("D", "L", "B")
    assert by[4].results == ("D", "B", "f")
    assert by[5].results == ("B", "L", "f")
    assert by[4].opponents == (3, None, 2)
    assert by[5].opponents == (None, 2, 1)
    assert TIEBREAKS["swiss"] == ("Buchholz", "Sonneborn-Berger")


def test_equal_on_everything_shares_a_rank():
    table = standings("swiss", [4, 3, 2, 1], [Game(1, 1, 2, (1.0, 0.0)), Game(1, 3, 4, (1.0, 0.0))])
    assert [(s.player, s.rank) for s in table] == [(1, 1), (3, 1), (2, 3), (4, 3)]


def test_round_robin_standings_head_to_head_before_sonneborn_berger():
    history = [
        Game(1, 1, 2, (1.0, 0.0)),
        Game(1, 3, 4, (0.0, 1.0)),
        Game(2, 3, 1, (1.0, 0.0)),
        Game(2, 2, 4, (1.0, 0.0)),
        Game(3, 1, 4, (1.0, 0.0)),
        Game(3, 2, 3, (1.0, 0.0)),
    ]
    table = standings("round-robin", [1, 2, 3, 4], history)
    # 1 and 2 on 2 points: 1 beat 2. 3 and 4 on 1: 4 beat 3, although 3's
    # Sonneborn-Berger (beat 1: 2) is above 4's (beat 3: 1)
    assert [(s.player, s.rank, s.points, s.tiebreaks) for s in table] == [
        (1, 1, 2.0, (1.0, 3.0)),
        (2, 2, 2.0, (0.0, 2.0)),
        (4, 3, 1.0, (1.0, 1.0)),
        (3, 4, 1.0, (0.0, 2.0)),
    ]
    assert TIEBREAKS["round-robin"] == ("Head-to-head", "Sonneborn-Berger")


def test_round_robin_with_a_withdrawal_mid_event():
    d = (0.5, 0.5)
    # round_robin([1, 2, 3, 4, 5]); every game played is a draw; 5 leaves after round 2:
    # their games are forfeited, their bye is worth nothing
    history = [
        *(Game(1, 2, 5, d), Game(1, 3, 4, d), Game(1, 1, None, (1.0, 0.0))),
        *(Game(2, 5, 3, d), Game(2, 1, 2, d), Game(2, 4, None, (1.0, 0.0))),
        *(Game(3, 3, 1, d), Game(3, 4, 5, (1.0, 0.0), True), Game(3, 2, None, (1.0, 0.0))),
        *(Game(4, 1, 4, d), Game(4, 2, 3, d), Game(4, 5, None, (0.0, 0.0), True)),
        *(Game(5, 4, 2, d), Game(5, 5, 1, (0.0, 1.0), True), Game(5, 3, None, (1.0, 0.0))),
    ]
    assert [[(g.first, g.second) for g in history[i : i + 3]] for i in range(0, 15, 3)] == [
        sorted(r, key=lambda pair: pair[1] is None) for r in round_robin([1, 2, 3, 4, 5])
    ]
    table = standings("round-robin", [1, 2, 3, 4, 5], history)
    # 1 and 4 on 3.5 drew each other and have equal Sonneborn-Berger (½·(3 + 3 + 3.5) + 1);
    # so have 2 and 3 on 3 (½·(1 + 3.5 + 3 + 3.5)): two shared ranks, "1, 1, 3, 3, 5".
    # 5 keeps the points and the Sonneborn-Berger of the draws before leaving.
    assert [(s.player, s.rank, s.points, s.tiebreaks) for s in table] == [
        (1, 1, 3.5, (0.5, 5.75)),
        (4, 1, 3.5, (0.5, 5.75)),
        (2, 3, 3.0, (0.5, 5.5)),
        (3, 3, 3.0, (0.5, 5.5)),
        (5, 5, 1.0, (0.0, 3.0)),
    ]
    by = {s.player: s for s in table}
    assert by[5].results == ("D", "D", "f", "-", "f")
    assert by[5].opponents == (2, 3, 4, None, 1)
    assert by[1].results == ("B", "D", "D", "D", "F")
    # mid-event: the rounds to come are simply not there yet
    assert [s.results for s in standings("round-robin", [1, 5], history[:6])] == [
        ("B", "D"),
        ("D", "D"),
    ]


def test_running_games_count_nothing_yet():
    table = standings("swiss", [1, 2, 3], [Game(1, 1, 2, None), Game(1, 3, None, (1.0, 0.0))])
    by = {s.player: s for s in table}
    assert by[1].results == ("?",) and by[1].points == 0.0 and by[1].tiebreaks == (0.0, 0.0)
    assert by[3].results == ("B",) and by[3].rank == 1


def test_standings_refusals():
    with pytest.raises(ValueError, match="Unknown format"):
        standings("knockout", [1, 2], [])
    with pytest.raises(ValueError, match="at least 2"):
        standings("swiss", [1], [])
    with pytest.raises(ValueError, match="twice"):
        standings("swiss", [1, 2, 2], [])
