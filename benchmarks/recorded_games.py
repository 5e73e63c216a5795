"""Finished games the benchmarks replay: stored as moves, so that they stay the same
whatever the computer player (which played them) becomes."""

from __future__ import annotations

from engine.api import MatchSpec, Playable, new_match, replay_match

# A Schotten Totten Tactics game of 60 moves (turns of a card played and a card drawn, three
# claims), played by the normal computer on both sides from seed 57; seat 1 won with three
# adjacent stones.
TACTICS_60_SPEC = MatchSpec("tactics")
TACTICS_60_SEED = 57
TACTICS_60_LOG: list[tuple[int, str]] = [
    (1, "Y8 3"),
    (1, "draw tactic"),
    (0, "P8 7"),
    (0, "draw tactic"),
    (1, "strategist 3:Y8 5"),
    (1, "draw tactic"),
    (0, "mud 1"),
    (0, "draw tactic"),
    (1, "joker 3"),
    (1, "draw tactic"),
    (0, "spy 6"),
    (0, "draw tactic"),
    (1, "G7 4"),
    (1, "draw clan"),
    (0, "blind 3"),
    (0, "draw tactic"),
    (1, "P9 3"),
    (1, "draw clan"),
    (0, "Y9 3"),
    (0, "draw clan"),
    (1, "O8 7"),
    (1, "draw clan"),
    (0, "Y3 4"),
    (0, "draw clan"),
    (1, "Y6 5"),
    (1, "draw clan"),
    (0, "G5 9"),
    (0, "draw clan"),
    (1, "O3 1"),
    (1, "draw clan"),
    (0, "P6 7"),
    (0, "draw clan"),
    (1, "Y7 5"),
    (1, "draw clan"),
    (0, "R4 8"),
    (0, "draw clan"),
    (1, "G8 4"),
    (1, "draw clan"),
    (0, "Y1 4"),
    (0, "draw clan"),
    (1, "G6 4"),
    (1, "claim 4"),
    (1, "draw clan"),
    (0, "R1 5"),
    (0, "draw clan"),
    (1, "B5 8"),
    (1, "claim 5"),
    (1, "draw clan"),
    (0, "B8 6"),
    (0, "draw clan"),
    (1, "P4 2"),
    (1, "draw clan"),
    (0, "R7 2"),
    (0, "draw clan"),
    (1, "P3 2"),
    (1, "draw clan"),
    (0, "O2 1"),
    (0, "draw clan"),
    (1, "O9 3"),
    (1, "claim 3"),
]
NAMES = ("Aurélie", "Bartholomew")


def tactics_60() -> tuple[Playable, list[tuple[int, str]]]:
    """The 60-move Tactics game: its opening match and its log (checked to replay to the end)."""
    end = replay_match(TACTICS_60_SPEC, TACTICS_60_SEED, TACTICS_60_LOG)
    assert end.is_over and len(TACTICS_60_LOG) == 60
    return new_match(TACTICS_60_SPEC, TACTICS_60_SEED), list(TACTICS_60_LOG)
