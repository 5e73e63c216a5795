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
    """Scores, byes, seat differences and meetings, computed here independently. Only games
    played count as having met and for seats; a bye or a forfeit win bars the bye."""

    def __init__(self, history: list[Game]) -> None:
        self.score: defaultdict[int, float] = defaultdict(float)
        self.byes: Counter[int] = Counter()
        self.no_bye: set[int] = set()
        self.diff: Counter[int] = Counter()
        self.seats: defaultdict[int, list[int]] = defaultdict(list)
        self.met: set[Pair] = set()
        for g in sorted(history, key=lambda g: g.round):
            if g.second is None:
                self.byes[g.first] += 1
                self.no_bye.add(g.first)
                self.score[g.first] += g.points[0]
                continue
            self.score[g.first] += g.points[0]
            self.score[g.second] += g.points[1]
            if g.forfeit:
                self.no_bye |= {
                    p for p, x in zip((g.first, g.second), g.points, strict=True) if x == 1.0
                }
                continue
            self.diff[g.first] += 1
            self.diff[g.second] -= 1
            self.seats[g.first].append(0)
            self.seats[g.second].append(1)
            self.met.add(frozenset((g.first, g.second)))

    def free(self, a: int, b: int) -> bool:
        return frozenset((a, b)) not in self.met

    def seat_bad(self, p: int, seat: int) -> bool:
        """Whether `seat` breaks an absolute seat rule for p: a third same seat in a row,
        or a seat difference beyond ±2 (FIDE C.04.1 f)."""
        third = self.seats[p][-2:] == [seat, seat]
        return third or abs(self.diff[p] + (1 if seat == 0 else -1)) > 2

    def seats_allow(self, a: int, b: int) -> bool:
        """Some seating of a and b keeps both within the absolute seat rules."""
        return not (
            (self.seat_bad(a, 0) or self.seat_bad(b, 1))
            and (self.seat_bad(a, 1) or self.seat_bad(b, 0))
        )

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
    """Everyone present exactly once, a bye only for an odd count and only to a player who
    has had neither a bye nor a forfeit win (FIDE C.04.1), no rematch of a game played."""
    seen = [p for pair in pairs for p in pair if p is not None]
    assert sorted(seen) == sorted(players)
    byes = [a for a, b in pairs if b is None]
    assert len(byes) == len(players) % 2
    assert all(b not in past.no_bye for b in byes)
    assert all(past.free(a, b) for a, b in pairs if b is not None)


def check_against_brute_force(
    players: list[int], past: Past, pairs: list[tuple[int, int | None]]
) -> None:
    score = past.score
    byes = [a for a, b in pairs if b is None]
    due = [
        p for p in players if p not in past.no_bye and past.pairable([q for q in players if q != p])
    ]
    if byes:  # the lowest score among those due a bye who leave the others pairable
        assert score[byes[0]] == min(score[p] for p in due)
    # nobody moves out of their score group when a pairing exists with every pair inside
    # its group and within the seat rules, the bye going to the lowest score it can go to
    lowest = [p for p in due if score[p] == min((score[q] for q in due), default=0)]

    def inside(a: int, b: int) -> bool:
        return past.free(a, b) and score[a] == score[b] and past.seats_allow(a, b)

    for bye in lowest or [None]:
        rest = [p for p in players if p != bye]
        same = next(matchings(rest, inside), None)
        if same is not None:
            assert all(score[a] == score[b] for a, b in pairs if b is not None)
            break


def check_refusal(players: list[int], past: Past) -> None:
    """swiss_round refused: truly no rematch-free pairing with a permitted bye."""
    if len(players) % 2 == 0:
        assert not past.pairable(players)
    else:
        for p in players:
            assert p in past.no_bye or not past.pairable([q for q in players if q != p])


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
            assert "cannot be paired" in str(e) or "has had one or won" in str(e)
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
            allowed = [p for p in players if p not in past.no_bye]
            assert past.score[byes[0]] == min(past.score[p] for p in allowed)
        play(history, pairs, rnd, rng)
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
                    assert p in past.no_bye or not perfectly_pairable(rest, past.free)
            return
        check_basics(players, past, pairs)
        play(history, pairs, rnd, rng)
    # (a forfeited game was not played, so its two players may meet again: even an even
    # field can last beyond n - 1 rounds)


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


def test_the_leaders_group_moves_rather_than_three_groups():
    # Issue 31's minimal case, round 4 of 6 players: 4 is alone on 3 points, 3 and 6 on 2,
    # 1, 2 and 5 on 1. A greedy walk from the top paired 3-2, 4-5, 1-6 (three pairs
    # across groups); one optimisation moves only the leader's group: 4-6, 3-5, 1-2.
    history = [
        Game(*g)
        for g in [
            (1, 1, 4, (0.0, 1.0)),
            (1, 5, 2, (0.0, 1.0)),
            (1, 3, 6, (0.5, 0.5)),
            (2, 2, 4, (0.0, 1.0)),
            (2, 1, 3, (0.0, 1.0)),
            (2, 6, 5, (0.5, 0.5)),
            (3, 4, 3, (0.0, 1.0)),
            (3, 6, 2, (1.0, 0.0)),
            (3, 5, 1, (0.0, 1.0)),
        ]
    ]
    pairs = swiss_round([1, 2, 3, 4, 5, 6], history, 4)
    assert {frozenset(p) for p in pairs} == {frozenset(p) for p in [(4, 6), (3, 5), (1, 2)]}


RESULTS = {"W": (1.0, 0.0), "L": (0.0, 1.0), "D": (0.5, 0.5), "N": (0.0, 0.0)}


def games(*rounds: str) -> list[Game]:
    """A history, one string a round: "first-second result" games, comma-separated; the
    result W, L, D (first's win, loss, draw) or N (0-0), then f for a forfeit."""
    out = []
    for r, text in enumerate(rounds, 1):
        for game in text.split(","):
            pair, result = game.split()
            first, second = map(int, pair.split("-"))
            out.append(Game(r, first, second, RESULTS[result[0]], result.endswith("f")))
    return out


def opponent_scores(players: list[int], history: list[Game], rnd: int) -> dict[int, float]:
    """Each player's opponent's score in round `rnd` of swiss_round."""
    score = Past(history).score
    pairs = swiss_round(players, history, rnd)
    return {a: score[b] for pair in pairs for a, b in (pair, pair[::-1]) if None not in pair}


def test_the_bottom_sends_a_floater_to_the_nearest_group_free():
    # Issue 41, 10 players, round 3 (a simulated event): 7, 8, 9 on 2 points (7-8 the
    # only pair), 1, 2, 5 on 1, 3 and 6 on ½, 4 and 10 on 0. Counting only pairs across
    # groups sent 9 down to a ½ (3); FIDE C.04.1 e: to the 1-point group, free for it.
    history = games(
        "1-6 W, 7-2 W, 3-8 L, 9-4 Wf, 5-10 W",
        "9-1 W, 8-5 W, 10-7 L, 2-4 W, 6-3 D",
    )
    assert opponent_scores(list(range(1, 11)), history, 3)[9] == 1.0


def test_the_leader_meets_the_nearest_score_free():
    # Issue 41, 16 players, round 6 (a simulated event): 7, on 4 points, has met 9 (4½)
    # and must move down; 13 (3½) is free for it. Counting only pairs across groups gave
    # 7 a 2-point player, three groups down.
    history = games(
        "1-9 L, 10-2 Lf, 3-11 W, 12-4 W, 5-13 L, 14-6 W, 7-15 W, 16-8 W",
        "2-12 D, 13-3 W, 7-14 W, 9-16 W, 8-1 W, 4-10 W, 11-5 L, 15-6 L",
        "9-7 W, 12-13 D, 16-2 W, 6-3 L, 14-4 W, 5-8 W, 1-11 W, 10-15 W",
        "13-9 L, 3-12 L, 5-14 L, 7-16 W, 4-2 L, 6-1 D, 8-10 W, 15-11 D",
        "14-9 D, 12-7 L, 2-13 L, 3-8 L, 16-5 L, 1-15 W, 10-6 W, 11-4 W",
    )
    assert opponent_scores(list(range(1, 17)), history, 6)[7] == 3.5


def test_no_seat_difference_beyond_two_when_a_pairing_keeps_it():
    # Issue 41, 32 players, round 5 (a simulated event): 11 (4 points) and 32 (3½) both
    # had seat 0 twice more than seat 1; paired together, one of them ended at +3 though
    # a pairing within ±2 exists (FIDE C.04.1 f: an absolute rule).
    history = games(
        "1-17 W, 18-2 W, 3-19 W, 20-4 W, 5-21 Lf, 22-6 W, 7-23 L, 24-8 D, "
        "9-25 L, 26-10 D, 11-27 W, 28-12 W, 13-29 W, 30-14 L, 15-31 D, 32-16 W",
        "1-20 Nf, 21-3 W, 11-22 W, 23-13 L, 14-28 D, 25-18 L, 31-32 L, 8-26 L, "
        "10-24 W, 2-15 L, 4-16 L, 17-5 Wf, 6-19 D, 27-7 W, 29-9 W, 12-30 L",
        "18-11 L, 13-21 W, 32-28 D, 15-10 D, 26-14 W, 22-1 L, 3-23 L, 16-25 L, "
        "17-27 D, 30-20 W, 29-6 W, 19-8 W, 24-31 D, 7-2 L, 9-4 L, 5-12 W",
        "11-13 W, 32-26 W, 23-1 Nf, 10-29 W, 25-15 L, 28-18 W, 21-30 D, 27-14 L, "
        "19-17 L, 2-24 W, 20-3 W, 4-22 L, 31-5 L, 16-9 Nf, 6-8 W, 12-7 L",
    )
    past = Past(history)
    assert past.diff[11] == past.diff[32] == 2
    pairs = swiss_round(list(range(1, 33)), history, 5)
    check_basics(list(range(1, 33)), past, pairs)
    for first, second in pairs:
        assert second is not None
        assert abs(past.diff[first] + 1) <= 2 and abs(past.diff[second] - 1) <= 2


def test_forfeits_were_not_played():
    # A forfeit was never played: its two players may meet again, and it gave nobody a
    # seat (the higher-ranked takes seat 0 on table 1, as in a first round)
    assert swiss_round([1, 2], [Game(1, 1, 2, (0.0, 0.0), True)], 2) == [(1, 2)]
    assert swiss_round([1, 2], [Game(1, 2, 1, (1.0, 0.0), True)], 2) == [(2, 1)]


def test_a_forfeit_win_bars_the_bye():
    # FIDE C.04.1: 1 had the bye, 3 won by forfeit; all on 1 point, so the bye goes to 2
    # although 3 is ranked lower
    history = [
        Game(1, 2, 3, (1.0, 0.0)),
        Game(1, 1, None, (1.0, 0.0)),
        Game(2, 3, 2, (1.0, 0.0), True),
        Game(2, 1, None, (0.0, 0.0), True),
    ]
    assert swiss_round([1, 2, 3], history, 3)[-1] == (2, None)


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
    with pytest.raises(ValueError, match="has had one or won a game by forfeit"):
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
    # points 1: 3, 2: 1, 3: 1.5, 4: 1.5, 5: 1. FIDE 2023: an unplayed round (a bye, a
    # forfeit either way) is a game against a virtual opponent with one's own score.
    # Buchholz: 1: 1 + 1.5 + 3 (forfeit); 2: 3 + 1 + 1 (double forfeit); 3: 1.5 + 3 + 1.5
    # (bye); 4: 1.5 + 1.5 (bye) + 1.5; 5: 1 (bye) + 1 + 1 (forfeit lost)
    # Sonneborn-Berger: 1: 1 + 1.5 + 3; 2: beat 5 (1); 3: ½·1.5 + 1.5 (bye);
    # 4: ½·1.5 + 1.5 (bye); 5: 1 (bye)
    assert [(s.player, s.rank, s.points, s.tiebreaks) for s in table] == [
        (1, 1, 3.0, (5.5, 5.5)),
        (3, 2, 1.5, (6.0, 2.25)),
        (4, 3, 1.5, (4.5, 2.25)),
        (2, 4, 1.0, (5.0, 1.0)),
        (5, 5, 1.0, (3.0, 1.0)),
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


def test_a_withdrawn_opponents_later_rounds_count_as_draws():
    # 1 beat 3 and 2 beat 4; then 3 left (not paired in round 2), 1 and 2 drew, 4 had the bye
    w = (1.0, 0.0)
    history = [Game(1, 1, 3, w), Game(1, 2, 4, w), Game(2, 1, 2, (0.5, 0.5)), Game(2, 4, None, w)]
    buchholz = {s.player: s.tiebreaks[0] for s in standings("swiss", [1, 2, 3, 4], history)}
    assert buchholz[1] == 0 + 1.5  # 3 is worth their 0 points
    left = standings("swiss", [1, 2, 3, 4], history, withdrawn=[3])
    buchholz = {s.player: s.tiebreaks[0] for s in left}
    assert buchholz[1] == 0.5 + 1.5  # 3's round after leaving counts as a draw (FIDE 2023)
    assert buchholz[2] == 1 + 1.5  # 4 is worth their points, the bye's included
    assert buchholz[3] == 1.5 + 0  # 1, then the round not paired: a virtual 0 (3's own)
    assert buchholz[4] == 1.5 + 1.0  # 2, then the bye: a virtual opponent on 4's own 1


def test_the_round_a_player_leaves_in_counts_for_its_result():
    # FIDE C.07 16.2.4, 16.3.1: 3 leaves during round 2 (lost by forfeit to 4, who was
    # there); that round counts as played for the 0 it gave, only round 3 (not paired) as
    # a draw: 3 is worth 0 + ½, not 0 + ½ + ½.
    w, d = (1.0, 0.0), (0.5, 0.5)
    history = [
        *(Game(1, 1, 3, w), Game(1, 2, 4, w)),
        *(Game(2, 1, 2, d), Game(2, 4, 3, w, True)),
        *(Game(3, 1, 4, d), Game(3, 2, None, w)),
    ]
    table = standings("swiss", [1, 2, 3, 4], history, withdrawn=[3])
    buchholz = {s.player: s.tiebreaks[0] for s in table}
    assert buchholz[1] == 0.5 + 2.5 + 1.5  # 3, then 2 and 4 on their points


def test_round_robin_forfeits_are_games_and_a_free_round_no_point():
    # FIDE C.07 15.2: a round robin has no virtual opponent: 3 won round 1 by forfeit
    # against 2 and that counts as a game against 2 on 2's points; 4's free round scores
    # nothing and adds nothing (three players: one sits out each round).
    w, d = (1.0, 0.0), (0.5, 0.5)
    history = [
        *(Game(1, 3, 2, w, True), Game(1, 1, None, w)),
        *(Game(2, 1, 3, d), Game(2, 2, None, w)),
        *(Game(3, 2, 1, w), Game(3, 3, None, w)),
    ]
    table = standings("round-robin", [1, 2, 3], history)
    # points: 1: ½, 2: 1, 3: 1½ (no point for any free round)
    # Sonneborn-Berger: 3: 1·1 (2, forfeit) + ½·½ (1); 2: 1·½ (1); 1: ½·1½ (3)
    assert [(s.player, s.points, s.tiebreaks[1]) for s in table] == [
        (3, 1.5, 1.25),
        (2, 1.0, 0.5),
        (1, 0.5, 0.75),
    ]
    assert {s.player: s.results for s in table}[1] == ("B", "D", "L")


def test_direct_encounter_is_applied_again_to_those_still_tied():
    # FIDE C.07 Art. 6.2: 1, 2, 3, 4 all on 3 points. Among them 1 and 2 scored 2, 3 and 4
    # scored 1; applied again, 1 beat 2 and 4 beat 3: 1, 2, 4, 3, although
    # Sonneborn-Berger would put 2 before 1 and cannot part 3 and 4.
    results = {
        (1, 2): 1, (4, 3): 1, (2, 3): 1, (2, 4): 1, (3, 1): 1, (1, 4): 1,
        (3, 5): 1, (3, 6): 1, (4, 5): 1, (4, 6): 1, (1, 6): 1, (5, 1): 1,
        (2, 5): 1, (6, 2): 1, (5, 6): 1,
    }  # fmt: skip
    history = [Game(r, a, b, (1.0, 0.0)) for r, (a, b) in enumerate(results, 1)]
    table = standings("round-robin", [1, 2, 3, 4, 5, 6], history)
    assert [(s.player, s.rank, s.points) for s in table][:4] == [
        (1, 1, 3.0),
        (2, 2, 3.0),
        (4, 3, 3.0),
        (3, 4, 3.0),
    ]
    # the heading's head-to-head is the mini-table of the four
    assert [s.tiebreaks[0] for s in table][:4] == [2.0, 2.0, 1.0, 1.0]


def test_buchholz_cut_1_and_wins_in_the_order_chosen():
    # FIDE's usual lists: Buchholz Cut-1 drops the lowest opponent's score; Wins counts
    # the rounds that gave a win's point (a forfeit won and a bye included).
    w = (1.0, 0.0)
    history = [
        *(Game(1, 1, 2, w), Game(1, 3, 4, w), Game(1, 5, None, w)),
        *(Game(2, 1, 3, (0.5, 0.5)), Game(2, 5, 2, w, True), Game(2, 4, None, w)),
    ]
    # points: 1: 1.5, 2: 0, 3: 1.5, 4: 1, 5: 2
    chosen = ("Buchholz Cut-1", "Buchholz", "Wins")
    table = standings("swiss", [1, 2, 3, 4, 5], history, tiebreaks=chosen)
    by = {s.player: s.tiebreaks for s in table}
    assert by[1] == (1.5, 0 + 1.5, 1.0)  # 2 (0) and 3 (1.5): the 0 is cut
    assert by[3] == (1.5, 1 + 1.5, 1.0)  # 4 (1) and 1 (1.5)
    assert by[5] == (2.0, 2 + 2, 2.0)  # two virtual opponents on 5's own 2: a bye, a forfeit
    assert [s.player for s in table] == [5, 3, 1, 4, 2]  # 3 and 1 equal on Cut-1: Buchholz
    with pytest.raises(ValueError, match="Unknown tie-break"):
        standings("swiss", [1, 2], [], tiebreaks=("Median",))


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
    table = standings("round-robin", [1, 2, 3, 4, 5], history, withdrawn=[5])
    # FIDE C.07 15.2: in a round robin the forfeits count as games, against the real
    # opponent on their points (no virtual opponent, no draws for rounds after leaving),
    # and a free round is no game: no point, nothing in the tie-breaks.
    # Points: 1 and 4 on 2.5 (three draws, a forfeit won), 2 and 3 on 2 (four draws), 5 on 1.
    # Sonneborn-Berger: 1: ½·(2 + 2 + 2.5) + 1 (5, forfeit) = 4.25, 4 the same; 2: ½·(1 +
    # 2.5 + 2 + 2.5) = 4, 3 the same: two shared ranks, "1, 1, 3, 3, 5". 5: ½·(2 + 2).
    assert [(s.player, s.rank, s.points, s.tiebreaks) for s in table] == [
        (1, 1, 2.5, (0.5, 4.25)),
        (4, 1, 2.5, (0.5, 4.25)),
        (2, 3, 2.0, (0.5, 4.0)),
        (3, 3, 2.0, (0.5, 4.0)),
        (5, 5, 1.0, (0.0, 2.0)),
    ]
    by = {s.player: s for s in table}
    assert by[5].results == ("D", "D", "f", "-", "f")
    assert by[5].opponents == (2, 3, 4, None, 1)
    assert by[1].results == ("B", "D", "D", "D", "F")
    # mid-event: the rounds to come are simply not there yet
    # (5's two draws are ahead of 1's bye, which scores nothing, and draw)
    assert [s.results for s in standings("round-robin", [1, 5], history[:6])] == [
        ("D", "D"),
        ("B", "D"),
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
