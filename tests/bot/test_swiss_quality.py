"""The Swiss pairing's quality over simulated events with fixed seeds (issue 31): 4 to 64
players, draws, forfeits won and double forfeits, withdrawals; over 1,000 rounds in all.

In every round: never a rematch of a game played, never a bye to a player who has had one
or won by forfeit, no pair across score groups when a pairing without any (and without
a third same seat) exists (the group-by-group best, benchmarks/swiss_sim.py `clean`), and a
third same seat in a row only where the pair's two players both had that seat twice (so
one of them must have it again); on these seeds, one: 9 players in a round where the bye,
due to the lowest score group, leaves no pairing within the seat rules. Where some pairing keeps
every seat within the rules (no third same seat, no difference beyond ±2; issue 41), the
round keeps them too, and is no worse than the group-by-group best: its pairs across each
boundary between score groups, top first, are the fewest (benchmarks/swiss_sim.py
`best_profile`, FIDE C.04.1 e).
The figures against other libraries: benchmarks/swiss_compare.py."""

import pytest

from benchmarks.swiss_sim import Known, best_profile, events, measure, run
from bot.tournament.pairing import swiss_round

EVENTS = events(140, seed=31)


@pytest.mark.xdist_group("swiss-quality")
def test_simulated_events_keep_every_rule():
    rounds = moves = thirds = compared = 0
    for event in EVENTS:
        for players, history, pairs, _ in run(event, swiss_round):
            rounds += 1
            m = measure(players, history, pairs)
            assert m.rematches == 0 and m.bad_byes == 0, (event, len(history))
            assert not (m.clean and m.moves), (event, len(history), pairs)
            known = Known.of(history)
            best = best_profile(players, known)
            if best is not None:  # a pairing within the seat rules exists
                compared += 1
                assert m.beyond == 0 and m.thirds == 0, (event, len(history), pairs)
                assert m.profile <= best, (event, len(history), m.profile, best)
            for a, b in pairs:
                if b is None:
                    continue
                if known.third(a, 0) or known.third(b, 1):
                    # unavoidable inside the pair: both had this seat twice in a row
                    seat = 0 if known.third(a, 0) else 1
                    assert known.third(a, seat) and known.third(b, seat), (event, a, b)
            moves += m.moves
            thirds += m.thirds  # only where no pairing avoids them (asserted above)
    assert rounds >= 1000 and compared >= 1000
    # the pairing's figures on these seeds (a change that makes them worse shows here).
    # Pairs across groups: 3.20 a round, up from 2.16 when their count came before the
    # score differences: FIDE wants two moves of ½ point rather than one of 1 (issue 41).
    assert moves / rounds < 3.3
    assert thirds <= 1
