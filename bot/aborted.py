"""Aborted games (rules notes R-28): a game between two members that ends by resignation or on
time before both have made a move of their own is aborted, as correspondence sites do: no
winner, no rating change, not a win or a loss. A game abandoned unplayed (a tournament's
deadline when nobody moved, a server that removed the bot) counts the same way."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.api import Playable
from engine.outcome import Termination
from engine.phrases import Phrase, say

ABORTED = "ABORTED"  # matches.termination of an aborted game (winner NULL, rated 0)
ABANDONED = "ABANDONED"  # matches.termination of a game ended unplayed (bot/refusals.py)
# Stored terminations of games that are no result: no win, loss or draw in a record.
NO_RESULT = frozenset({ABORTED, ABANDONED})
# The log's entries that are not a move of the player's own (rules notes R-28).
_NOT_A_MOVE = frozenset({"resign", "timeout"})


def both_moved(log: Iterable[tuple[int, str]]) -> bool:
    """Whether both seats made a move of their own. The log holds only the moves a player
    chose (the automatic steps of rules notes R-3 are not logged); a resignation or the clock's
    `timeout` is not a move of one's own."""
    return {seat for seat, text in log if text not in _NOT_A_MOVE} >= {0, 1}


def aborts(match: Playable, ai_seat: int | None) -> bool:
    """Whether the move just applied ends `match` aborted: a game between two members (a
    game against the computer is never rated, and keeps its result) ended by resignation or
    on time before both players moved."""
    o = match.outcome
    if ai_seat is not None or o is None:
        return False
    return o.termination in (Termination.RESIGNED, Termination.TIMEOUT) and not both_moved(
        match.log
    )


def why_aborted(match: Playable, names: Sequence[str]) -> Phrase:
    """Why an aborted game has no result: who resigned or ran out of time, and when."""
    o = match.outcome
    if o is None or o.winner is None:  # ended unplayed, from outside the game
        return say("nobody had moved")
    name = names[1 - o.winner]
    if o.termination is Termination.TIMEOUT:
        # TRANSLATORS: why a game was aborted (no result, no rating change).
        return say("{name} ran out of time before both players had moved", name=name)
    # TRANSLATORS: why a game was aborted (no result, no rating change).
    return say("{name} resigned before both players had moved", name=name)
