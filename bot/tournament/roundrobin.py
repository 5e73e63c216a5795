"""Round robins by FIDE's Berger tables (Handbook C.05, Annex 1). Pure: no I/O.

The published rule, for an even number n of pairing numbers: round 1 pairs 1-n, 2-(n-1),
..., n/2-(n/2+1), the lower number taking seat 0. Every later round keeps the boards and
the seat of each board's two places and adds n/2 to every number but n, counting 1 to n-1
round and round (n/2 + n/2 = n - 1 + 1: a number comes back to itself after n - 1 rounds).
Number n stays on board 1 and changes seat every round: seat 1 in odd rounds, seat 0 in
even ones. An odd field adds a number n that means "sits out"."""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournament.results import check_players


def berger_table(n: int) -> list[list[tuple[int, int]]]:
    """Every round of the Berger table for an even n: per round, the boards' (seat 0,
    seat 1) pairing numbers, 1-based."""
    if n < 2 or n % 2:
        raise ValueError(f"A Berger table is for an even number of players, not {n}.")
    ring = n - 1  # the numbers that turn: 1..n-1
    step = n // 2
    first = [(board, n + 1 - board) for board in range(1, step + 1)]  # 1-n, 2-(n-1), ...
    table = []
    for r in range(1, n):
        shift = (r - 1) * step

        def moved(k: int, shift: int = shift) -> int:
            return k if k == n else (k - 1 + shift) % ring + 1

        boards = [(moved(a), moved(b)) for a, b in first]
        head, fixed = boards[0]  # board 1 holds the fixed number n
        boards[0] = (head, fixed) if r % 2 else (fixed, head)
        table.append(boards)
    return table


def round_robin(players: Sequence[int]) -> list[list[tuple[int, int | None]]]:
    """Every round of a round robin (Berger tables, players numbered in the given order):
    per round, (first, second) pairs, second None = a bye, listed last."""
    check_players(players)
    ids: list[int | None] = list(players)
    if len(ids) % 2:
        ids.append(None)  # the fixed number: whoever meets it sits out
    rounds = []
    for boards in berger_table(len(ids)):
        games: list[tuple[int, int | None]] = []
        bye: list[tuple[int, int | None]] = []
        for a, b in boards:
            first, second = ids[a - 1], ids[b - 1]
            if first is None or second is None:
                sitting = first if second is None else second
                assert sitting is not None
                bye.append((sitting, None))
            else:
                games.append((first, second))
        rounds.append(games + bye)
    return rounds
