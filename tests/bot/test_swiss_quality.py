"""The Swiss pairing's quality over simulated events with fixed seeds (issue 31): 4 to 64
players, draws, forfeits won and double forfeits, withdrawals; over 1,000 rounds in all.

In every round: never a rematch of a game played, never a bye to a player who has had one
or won by forfeit, no pair across score groups when a pairing without any (and without
a third same seat) exists (the group-by-group best, benchmarks/swiss_sim.py `clean`), and a
third same seat in a row only where the pair's two players both had that seat twice (so
one of them must have it again); on these seeds, none at all.
The figures against other libraries: benchmarks/swiss_compare.py."""

import pytest

from benchmarks.swiss_sim import Known, events, measure, run
from bot.tournament.pairing import swiss_round

EVENTS = events(140, seed=31)


@pytest.mark.xdist_group("swiss-quality")
def test_simulated_events_keep_every_rule():
    rounds = moves = thirds = 0
    for event in EVENTS:
        for players, history, pairs, _ in run(event, swiss_round):
            rounds += 1
            m = measure(players, history, pairs)
            assert m.rematches == 0 and m.bad_byes == 0, (event, len(history))
            assert not (m.clean and m.moves), (event, len(history), pairs)
            known = Known.of(history)
            for a, b in pairs:
                if b is None:
                    continue
                if known.third(a, 0) or known.third(b, 1):
                    # unavoidable inside the pair: both had this seat twice in a row
                    seat = 0 if known.third(a, 0) else 1
                    assert known.third(a, seat) and known.third(b, seat), (event, a, b)
            moves += m.moves
            thirds += m.thirds
    assert rounds >= 1000
    # the pairing's figures on these seeds (a change that makes them worse shows here)
    assert moves / rounds < 2.8
    assert thirds == 0
