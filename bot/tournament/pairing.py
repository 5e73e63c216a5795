"""Tournament pairing and standings: pure functions, no I/O. This module gathers what the
service uses from the small modules that do the work: results.py (the values), swiss.py,
roundrobin.py and tiebreaks.py.

Rules notes (what the service and the README rely on):

- Points: win 1, draw ½, loss 0, Swiss bye 1 (a round robin's free round: no game, 0).
  A forfeit is a `Game` with `forfeit=True`, scored by its points: (1, 0) or (0, 1) is
  a win for one side and a loss for the other, (0, 0) a double forfeit (neither moved
  before the deadline: 0 for both). A bye recorded as (0, 0) with `forfeit=True` is the
  bye of a player who had withdrawn: 0 points.
- Seat 0 (`first`) starts in Schotten Totten and attacks in Schotten Totten 2.
- Round robin: FIDE Berger tables; with an odd number of players one sits out each round.
- Swiss (swiss.py): score group by score group, each a maximum-weight matching over the
  rematch-free pairs: the bye to the lowest score group's lowest-ranked player who has had
  neither a bye nor a forfeit win, then no third same seat in a row and no seat
  difference beyond ±2, the fewest moves out of score groups from the top down, the
  smallest moves, seat wishes, then the Dutch order. A forfeited game was not played:
  it does not count as having met, nor for seats.
- Tie-breaks, Swiss: Buchholz, then Sonneborn-Berger; round robin: head-to-head (points
  among the players tied, applied again to those still tied), then Sonneborn-Berger.
  Unplayed rounds by FIDE's 2023 tie-break rules (tiebreaks.py): in a Swiss one's own
  count as games against a virtual opponent with one's own score, and an opponent's
  rounds after the one they left in count as draws; in a round robin forfeits are games.
- Order: points, then the tie-breaks, then player id; players equal on points and every
  tie-break share a rank ("1, 2, 2, 4": competition ranking).
- Withdrawn players are simply left out of the next pairing; their games keep counting.
"""

from __future__ import annotations

from bot.tournament.results import Game, Standing
from bot.tournament.roundrobin import round_robin
from bot.tournament.swiss import NoPairing, swiss_round
from bot.tournament.tiebreaks import FORMATS, TIEBREAKS, UNPLAYED_RULE, standings

__all__ = [
    "FORMATS",
    "TIEBREAKS",
    "UNPLAYED_RULE",
    "Game",
    "NoPairing",
    "Standing",
    "round_robin",
    "standings",
    "swiss_round",
]
