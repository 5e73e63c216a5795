"""A developer's check, not run by CI: our Swiss pairing against two maintained libraries
(`caissify-pairings`' FIDE Dutch engine and `pairing-core`'s Dutch kernel) and against
two references computed here, on the same simulated rounds (benchmarks/swiss_sim.py).

    pip install caissify-pairings pairing-core
    python -m benchmarks.swiss_compare [events]   # default 150 events, about 1,100 rounds

Each round is played on our pairing; every pairer is asked to pair the same players with
the same history. Per pairer: pairs across score groups per round, rounds with such pairs
where a pairing without any exists ("needless", benchmarks/swiss_sim.py `clean`), players
given the same seat a third time in a row, rematches, byes to players not allowed one, and
the median time. The references:

- group-by-group best: from the top score group down, each group keeps as many of its
  players paired inside it as can be given the groups above (a maximum-weight matching
  whose weights make a pair inside a higher group worth more than every pair below);
- fewest possible: the fewest pairs across groups of any rematch-free pairing.

Both give the bye to the lowest score group with a player allowed it, as FIDE does.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Sequence

import networkx as nx

from benchmarks.swiss_sim import Known, Pairs, events, measure, run
from bot.tournament.pairing import swiss_round
from bot.tournament.results import Game, played


def _floats(history: Sequence[Game], p: int) -> list[str]:
    """Per round: "down", "up" or "none" for p's game that round (scores before it)."""
    score: dict[int, float] = {}
    out = []
    for rnd in sorted({g.round for g in history}):
        games = [g for g in history if g.round == rnd]
        mine = next((g for g in games if p in (g.first, g.second)), None)
        if mine is None or mine.second is None:
            out.append("none")
        else:
            other = mine.opponent(p)
            assert other is not None
            a, b = score.get(p, 0.0), score.get(other, 0.0)
            out.append("down" if a > b else "up" if a < b else "none")
        for g in games:
            for q in (g.first, g.second):
                if q is not None:
                    score[q] = score.get(q, 0.0) + g.points_of(q)
    return out


def _seats(history: Sequence[Game], p: int) -> list[str]:
    out = []
    for rnd in sorted({g.round for g in history}):
        g = next((g for g in history if g.round == rnd and p in (g.first, g.second)), None)
        if g is None or not played(g):
            out.append("none")
        else:
            out.append("white" if g.first == p else "black")
    return out


def caissify(players: list[int], history: list[Game], rnd: int) -> Pairs:
    from caissify_pairings import generate_pairings

    known = Known.of(history)
    entries = [
        {
            "id": p,
            "name": str(p),
            "score": known.score[p],
            "rating": 3000 - i,
            "starting_number": i + 1,
            "color_hist": _seats(history, p),
            "float_history": _floats(history, p),
            "bye_count": known.byes[p],
            "forfeit_win_count": int(p in known.no_bye and not known.byes[p]),
        }
        for i, p in enumerate(players)
    ]
    met = {tuple(sorted(m)) for m in known.met}
    out = generate_pairings("dutch", entries, met, rnd, rnd + 5)
    return [(x["white_id"], x.get("black_id")) for x in out]


def pairing_core(players: list[int], history: list[Game], rnd: int) -> Pairs:
    from pairing_core import (
        DUTCH_TILL2026_COMPAT,
        CanonicalPlayer,
        CanonicalRequest,
        ExecutionBudgets,
        pair_canonical,
    )

    known = Known.of(history)
    code = {"white": "w", "black": "b", "none": "-"}
    drift = {"down": "D", "up": "U", "none": "-"}
    entries = tuple(
        CanonicalPlayer(
            id=p,
            pairing_no=i + 1,
            rating=3000 - i,
            points=known.score[p],
            color_hist="".join(code[s] for s in _seats(history, p)),
            opponents=tuple(q for m in known.met if p in m for q in m if q != p),
            received_bye=(known.byes[p] > 0) or p in known.no_bye,
            float_hist="".join(drift[f] for f in _floats(history, p)),
        )
        for i, p in enumerate(players)
    )
    request = CanonicalRequest(
        players=entries,
        ruleset=DUTCH_TILL2026_COMPAT,
        round_number=rnd,
        budgets=ExecutionBudgets(wall_clock_seconds=2.0),  # past that it counts as failed
    )
    result = pair_canonical(request)
    return [(b.white_id, None if b.is_bye else b.black_id) for b in result.pairings]


def _reference(players: list[int], history: list[Game], by_group: bool) -> int:
    """The pairs across groups of the group-by-group best or the fewest possible pairing."""
    known = Known.of(history)
    scores = sorted({known.score[p] for p in players}, reverse=True)
    base = len(players) + 1
    graph = nx.Graph()
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if known.free(a, b):
                same = known.score[a] == known.score[b]
                level = len(scores) - scores.index(known.score[a])
                weight = (base**level if by_group else 1) if same else 0
                graph.add_edge(a, b, weight=weight * 4 + 1)
    if len(players) % 2:
        allowed = [p for p in players if p not in known.no_bye]
        lowest = min(known.score[p] for p in allowed)
        for p in allowed:
            if known.score[p] == lowest:
                graph.add_edge(p, "bye", weight=1)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sum(1 for a, b in matching if "bye" not in (a, b) and known.score[a] != known.score[b])


def main(argv: list[str]) -> int:
    """argv: the number of events (150), and optionally "k/m" to play every m-th event from
    the k-th (to share the work between processes; add up their sums)."""
    count = int(argv[0]) if argv else 150
    part, parts = (int(x) for x in argv[1].split("/")) if len(argv) > 1 else (0, 1)
    pairers: dict[str, Callable[[list[int], list[Game], int], Pairs]] = {
        "ours": swiss_round,
        "caissify-pairings": caissify,
        "pairing-core": pairing_core,
    }
    figures: dict[str, dict[str, list[float]]] = {
        name: {"moves": [], "needless": [], "thirds": [], "rematches": [], "bad_byes": []}
        | {"ms": [], "failed": []}
        for name in pairers
    }
    refs: dict[str, list[int]] = {"group-by-group best": [], "fewest possible": []}
    rounds = 0
    for done, event in enumerate(events(count, seed=1)[part::parts], 1):
        if done % 10 == 0:
            _report(done, rounds, figures, refs)
        for players, history, ours, took in run(event, swiss_round, timer=time.perf_counter):
            rounds += 1
            for name, pairer in pairers.items():
                f = figures[name]
                if name == "ours":
                    pairs, ms = ours, took * 1000
                else:
                    start = time.perf_counter()
                    try:
                        pairs = pairer(
                            list(players), list(history), len({g.round for g in history}) + 1
                        )
                    except Exception:  # a library that gives up counts as a failure
                        f["failed"].append(1)
                        continue
                    ms = (time.perf_counter() - start) * 1000
                m = measure(players, history, pairs)
                f["moves"].append(m.moves)
                f["needless"].append(int(m.clean and m.moves > 0))
                f["thirds"].append(m.thirds)
                f["rematches"].append(m.rematches)
                f["bad_byes"].append(m.bad_byes)
                f["ms"].append(ms)
            refs["group-by-group best"].append(_reference(players, history, by_group=True))
            refs["fewest possible"].append(_reference(players, history, by_group=False))
    _report(count, rounds, figures, refs)
    return 0


def _report(
    count: int, rounds: int, figures: dict[str, dict[str, list[float]]], refs: dict[str, list[int]]
) -> None:
    print(f"{count} events, {rounds} rounds (4-64 players; draws, forfeits, withdrawals)")
    print(
        f"{'pairer':22} {'cross/round':>11} {'needless':>8} {'3rd seat':>8} {'rematch':>7}"
        f" {'bad bye':>7} {'median ms':>9} {'max ms':>8} {'failed':>6}"
    )
    for name, f in figures.items():
        n = len(f["moves"]) or 1
        print(
            f"{name:22} {sum(f['moves']) / n:11.3f} {sum(f['needless']):8.0f}"
            f" {sum(f['thirds']):8.0f} {sum(f['rematches']):7.0f} {sum(f['bad_byes']):7.0f}"
            f" {statistics.median(f['ms'] or [0]):9.1f} {max(f['ms'] or [0]):8.1f}"
            f" {len(f['failed']):6d}"
        )
    for name, values in refs.items():
        print(f"{name:22} {sum(values) / max(rounds, 1):11.3f}")
    sums = {name: (len(f["moves"]), sum(f["moves"])) for name, f in figures.items()}
    print("sums (rounds, cross pairs):", sums, {k: sum(v) for k, v in refs.items()}, flush=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
