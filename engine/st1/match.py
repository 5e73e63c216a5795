"""Match play (RULINGS ST1-8): rounds of Schotten Totten with points.

The round's winner scores 5 and the loser 1 per stone they hold. The previous round's
winner starts the next round. The match lasts an agreed number of rounds, or until a
player reaches a points target; the higher total wins and a tie goes to the last round's
winner. Resigning (or running out of time) gives up the whole match, not just the round:
that is what a player who walks away means.

A match drives its rounds through the same calls as a single game, so the bot need not know
which it has; a one-round match is a single game with a score.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import GameError
from engine.events import Event
from engine.matchplay import MatchPlay
from engine.outcome import Outcome
from engine.phrases import say, say_n
from engine.rng import Rng
from engine.st1.board import Options
from engine.st1.game import Game
from engine.st1.view import MatchInfo, View

WIN_POINTS = 5


@dataclass(frozen=True, slots=True)
class MatchOptions:
    """How long the match lasts: a number of rounds, or a points target."""

    rounds: int = 1
    target: int | None = None

    def __post_init__(self) -> None:
        if self.target is None and not 1 <= self.rounds <= 15:
            raise GameError(say("A match has 1 to 15 rounds."))
        if self.target is not None and not 5 <= self.target <= 50:
            raise GameError(say("A points target is between 5 and 50."))

    def describe(self) -> str:
        """The match's length: "one round", "3 rounds", "first to 12 points" (a Phrase)."""
        if self.target is not None:
            return say("first to {target} points", target=self.target)
        return say_n("one round", "{count} rounds", self.rounds)

    def to_json(self) -> dict[str, object]:
        return {"rounds": self.rounds, "target": self.target}

    @staticmethod
    def from_json(data: dict[str, Any]) -> MatchOptions:
        return MatchOptions(int(data["rounds"]), data.get("target"))


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One finished round: who started, who won, stones held and points scored."""

    first_player: int
    outcome: Outcome
    stones: tuple[int, int]
    points: tuple[int, int]

    def to_json(self) -> dict[str, object]:
        return {
            "first_player": self.first_player,
            "outcome": self.outcome.to_json(),
            "stones": list(self.stones),
            "points": list(self.points),
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> RoundResult:
        return RoundResult(
            int(data["first_player"]),
            Outcome.from_json(data["outcome"]),
            (int(data["stones"][0]), int(data["stones"][1])),
            (int(data["points"][0]), int(data["points"][1])),
        )


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """A round of a match is over, with its points."""

    number: int
    result: RoundResult
    scores: tuple[int, int]

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        a, b = self.result.points
        v: dict[str, str | int] = {
            "round": self.number,
            "first": names[0],
            "second": names[1],
            "a": a,
            "b": b,
            "score": f"{self.scores[0]}-{self.scores[1]}",
        }
        if you == 0:
            return say(
                "Round {round} is over: you score {a}, {second} scores {b}. Match score {score}.",
                **v,
            )
        if you == 1:
            return say(
                "Round {round} is over: {first} scores {a}, you score {b}. Match score {score}.",
                **v,
            )
        return say(
            # TRANSLATORS: {a} and {b} are the points the two players scored; {score} the
            # match score, as "6-2".
            "Round {round} is over: {first} scores {a}, {second} scores {b}. Match score {score}.",
            **v,
        )

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "number": self.number,
            "result": self.result.to_json(),
            "scores": list(self.scores),
        }


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """The next round of a match was dealt."""

    number: int
    first_player: int

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        if self.first_player == you:
            return say("Round {round} begins; you start.", round=self.number)
        return say(
            "Round {round} begins; {player} starts.",
            round=self.number,
            player=names[self.first_player],
        )


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """The match is over."""

    outcome: Outcome
    scores: tuple[int, int]

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        score = "{}-{}".format(*self.scores)
        winner = self.outcome.winner
        if winner is None:
            # TRANSLATORS: {score} is the match score, as "6-6".
            return say("The match is drawn, {score}.", score=score)
        if winner == you:
            return say("You win the match, {score}!", score=score)
        return say("{player} wins the match, {score}!", player=names[winner], score=score)

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "outcome": self.outcome.to_json(), "scores": list(self.scores)}


def round_points(outcome: Outcome, stones: tuple[int, int]) -> tuple[int, int]:
    """RULINGS ST1-8: 5 to the round's winner, 1 per stone held to the loser."""
    if outcome.winner is None:
        return stones
    return (
        WIN_POINTS if outcome.winner == 0 else stones[0],
        WIN_POINTS if outcome.winner == 1 else stones[1],
    )


class Match(MatchPlay):
    """A match of Schotten Totten rounds, driven like a single game."""

    kind = "st1"

    def __init__(self, options: Options, match: MatchOptions, seed: int) -> None:
        self.options = options
        self.match = match
        self.seed = seed
        self.rounds: list[RoundResult] = []
        self.outcome: Outcome | None = None
        self._earlier_log: list[tuple[int, str]] = []  # moves of the finished rounds
        self.game: Game = Game.new(options, self._round_seed(0))

    @classmethod
    def new(
        cls, options: Options | None = None, match: MatchOptions | None = None, seed: int = 0
    ) -> Match:
        return cls(options or Options(), match or MatchOptions(), seed)

    @classmethod
    def replay(
        cls, options: Options, match: MatchOptions, seed: int, log: Iterable[tuple[int, str]]
    ) -> Match:
        m = cls(options, match, seed)
        for player, text in log:
            m.play(text, player)
        return m

    def _round_seed(self, index: int) -> int:
        rng = Rng(self.seed)
        for _ in range(index):
            rng.next_u64()
        return rng.next_u64() if index else self.seed

    @property
    def scores(self) -> tuple[int, int]:
        return (sum(r.points[0] for r in self.rounds), sum(r.points[1] for r in self.rounds))

    @property
    def round_number(self) -> int:
        return len(self.rounds) + (0 if self.outcome is not None else 1)

    def game_results(self) -> list[dict[str, Any]]:
        """Each finished round: winner seat, termination name, and what it scored."""
        return [
            {
                "winner": r.outcome.winner,
                "termination": r.outcome.termination.name,
                "detail": {"first_player": r.first_player, "stones": r.stones, "points": r.points},
            }
            for r in self.rounds
        ]

    def _game_over(self, events: list[Event], *, walked_away: bool) -> None:
        g = self.game
        assert g.outcome is not None
        stones = (
            sum(1 for s in g.stones if s.claimed_by == 0),
            sum(1 for s in g.stones if s.claimed_by == 1),
        )
        result = RoundResult(g.first_player, g.outcome, stones, round_points(g.outcome, stones))
        self.rounds.append(result)
        scores = self.scores
        if self.match.rounds > 1 or self.match.target is not None:
            events.append(RoundEnded(len(self.rounds), result, scores))
        if walked_away:
            self.outcome = Outcome(g.outcome.winner, g.outcome.termination)
        elif self._finished():
            self.outcome = Outcome(self._leader(), g.outcome.termination)
        if self.outcome is not None:
            if self.match.rounds > 1 or self.match.target is not None:
                events.append(MatchEnded(self.outcome, scores))
            return
        # RULINGS ST1-8: the round's winner starts the next; after a drawn round, the other
        # player starts.
        winner = g.outcome.winner
        first = winner if winner is not None else 1 - g.first_player
        opts = Options(self.options.tactics, self.options.expert, first)
        self._next_game(Game.new(opts, self._round_seed(len(self.rounds))))
        events.append(RoundStarted(len(self.rounds) + 1, first))

    def _finished(self) -> bool:
        if self.match.target is not None:
            return max(self.scores) >= self.match.target
        return len(self.rounds) >= self.match.rounds

    def _leader(self) -> int | None:
        a, b = self.scores
        if a != b:
            return 0 if a > b else 1
        return self.rounds[-1].outcome.winner  # RULINGS ST1-8: the last round's winner

    def view(self, player: int | None) -> View:
        info = MatchInfo(self.match.describe(), self.round_number, self.scores)
        # Game.view is typed Any (its View is imported late, against an import circle).
        view: View = self.game.view(player)
        return dataclasses.replace(view, match=info)

    # Storage -------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.kind,
            "options": self.options.to_json(),
            "match": self.match.to_json(),
            "seed": self.seed,
            "rounds": [r.to_json() for r in self.rounds],
            "outcome": self.outcome.to_json() if self.outcome else None,
            "earlier_log": [[p, t] for p, t in self._earlier_log],
            "current": self.game.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        m = cls.__new__(cls)
        m.options = Options.from_json(data["options"])
        m.match = MatchOptions.from_json(data["match"])
        m.seed = int(data["seed"])
        m.rounds = [RoundResult.from_json(r) for r in data["rounds"]]
        m.outcome = Outcome.from_json(data["outcome"]) if data["outcome"] else None
        m._earlier_log = [(int(p), str(t)) for p, t in data["earlier_log"]]
        m.game = Game.from_json(data["current"])
        return m
