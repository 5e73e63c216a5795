"""The revenge match (RULINGS ST2-9): two games of Schotten Totten 2 with roles swapped.

The same player winning both is the champion. If each wins once: both as Attacker, the one
who won with more cards left in the deck; both as Defender, the one with more intact tiles
plus unused cauldrons. Still tied, the match is drawn (and the bot offers a rematch). A
single game is a match of one game, so the bot drives every siege the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.events import Event
from engine.matchplay import MatchPlay
from engine.outcome import Outcome
from engine.phrases import say, say_in
from engine.rng import Rng
from engine.st2.board import Options
from engine.st2.game import Game
from engine.st2.view import RevengeInfo, View


@dataclass(frozen=True, slots=True)
class SiegeResult:
    """One finished siege: roles, winner, and the figures the revenge tie-breaks use."""

    attacker: int
    outcome: Outcome
    deck_left: int
    intact_tiles: int
    cauldrons_left: int

    @property
    def defender_score(self) -> int:
        """Intact tiles plus unused cauldrons (RULINGS ST2-9)."""
        return self.intact_tiles + self.cauldrons_left

    def to_json(self) -> dict[str, object]:
        return {
            "attacker": self.attacker,
            "outcome": self.outcome.to_json(),
            "deck_left": self.deck_left,
            "intact_tiles": self.intact_tiles,
            "cauldrons_left": self.cauldrons_left,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> SiegeResult:
        return SiegeResult(
            int(data["attacker"]),
            Outcome.from_json(data["outcome"]),
            int(data["deck_left"]),
            int(data["intact_tiles"]),
            int(data["cauldrons_left"]),
        )


@dataclass(frozen=True, slots=True)
class SiegeEnded(Event):
    """The first game of a revenge match is over; roles swap for the second."""

    number: int
    result: SiegeResult

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        new_attacker = 1 - self.result.attacker
        if new_attacker == you:
            return say(
                "Game {game} of the revenge match is over. Roles swap: you now attack.",
                game=self.number,
            )
        return say(
            "Game {game} of the revenge match is over. Roles swap: {player} now attacks.",
            game=self.number,
            player=names[new_attacker],
        )

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "number": self.number, "result": self.result.to_json()}


@dataclass(frozen=True, slots=True)
class RevengeEnded(Event):
    """The revenge match is decided, and how."""

    outcome: Outcome
    how: str

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        winner = self.outcome.winner
        if winner is None:
            # TRANSLATORS: {how} says why, as "each won once, one as Attacker and one as
            # Defender".
            return say(
                "The revenge match is drawn ({how}): play a rematch to settle it!", how=self.how
            )
        if winner == you:
            return say("You win the revenge match ({how})!", how=self.how)
        # TRANSLATORS: {how} says how the winner won, as "won both games".
        return say("{player} wins the revenge match ({how})!", player=names[winner], how=self.how)

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "outcome": self.outcome.to_json(), "how": self.how}


def decide(results: Sequence[SiegeResult]) -> tuple[int | None, str]:
    """RULINGS ST2-9: the winner of a two-game revenge match, and the reason in words."""
    a, b = results
    wa, wb = a.outcome.winner, b.outcome.winner
    if wa is not None and wa == wb:
        return wa, say_in("revenge", "won both games")
    if wa is None or wb is None:
        # A drawn game cannot happen in a siege; count the other game alone.
        w = wa if wa is not None else wb
        return w, say_in("revenge", "won the only decided game")
    won_as_attacker = [r.outcome.winner == r.attacker for r in (a, b)]
    if all(won_as_attacker):
        if a.deck_left != b.deck_left:
            better = a if a.deck_left > b.deck_left else b
            return better.outcome.winner, say_in(
                "revenge", "won as Attacker with more cards left in the deck"
            )
        return None, say_in("revenge", "both won as Attacker with as many cards left in the deck")
    if not any(won_as_attacker):
        if a.defender_score != b.defender_score:
            better = a if a.defender_score > b.defender_score else b
            return better.outcome.winner, say_in(
                "revenge", "won as Defender with more intact tiles and cauldrons"
            )
        return None, say_in(
            "revenge", "both won as Defender with as many intact tiles and cauldrons"
        )
    # One won as Attacker and one as Defender: the rulebook gives no tie-break.
    return None, say_in("revenge", "each won once, one as Attacker and one as Defender")


def result_of(game: Game) -> SiegeResult:
    assert game.outcome is not None
    intact = sum(1 for t in game.tiles if not t.damaged)
    return SiegeResult(game.attacker, game.outcome, len(game.deck), intact, game.cauldrons)


class Match(MatchPlay):
    """A single siege or a revenge match, driven like a single game."""

    kind = "st2"

    def __init__(self, options: Options, revenge: bool, seed: int) -> None:
        self.options = options
        self.revenge = revenge
        self.seed = seed
        self.results: list[SiegeResult] = []
        self.outcome: Outcome | None = None
        self._earlier_log: list[tuple[int, str]] = []
        self.game: Game = Game.new(options, seed)

    @classmethod
    def new(cls, options: Options | None = None, *, revenge: bool = False, seed: int = 0) -> Match:
        return cls(options or Options(), revenge, seed)

    @classmethod
    def replay(
        cls, options: Options, revenge: bool, seed: int, log: Iterable[tuple[int, str]]
    ) -> Match:
        m = cls(options, revenge, seed)
        for player, text in log:
            m.play(text, player)
        return m

    def game_results(self) -> list[dict[str, Any]]:
        """Each finished siege: winner seat, termination name, and the tie-break figures."""
        return [
            {
                "winner": r.outcome.winner,
                "termination": r.outcome.termination.name,
                "detail": {
                    "attacker": r.attacker,
                    "deck_left": r.deck_left,
                    "intact_tiles": r.intact_tiles,
                    "cauldrons_left": r.cauldrons_left,
                },
            }
            for r in self.results
        ]

    def _game_over(self, events: list[Event], *, walked_away: bool) -> None:
        result = result_of(self.game)
        self.results.append(result)
        if walked_away or not self.revenge:
            self.outcome = self.game.outcome
            if self.revenge:
                events.append(
                    RevengeEnded(result.outcome, say_in("revenge", "the other player walked away"))
                )
            return
        if len(self.results) == 1:
            events.append(SiegeEnded(1, result))
            # The second game: roles swapped, a fresh shuffle from the match's seed.
            opts = dataclasses.replace(self.options, attacker=1 - result.attacker)
            self._next_game(Game.new(opts, Rng(self.seed).next_u64()))
            return
        winner, how = decide(self.results)
        self.outcome = Outcome(winner, result.outcome.termination)
        events.append(RevengeEnded(self.outcome, how))

    def view(self, player: int | None) -> View:
        # Game.view is typed Any (its View is imported late, against an import circle).
        view: View = self.game.view(player)
        if not self.revenge:
            return view
        first = self.results[0].outcome.winner if self.results else None
        info = RevengeInfo(min(len(self.results) + 1, 2), first)
        return dataclasses.replace(view, revenge=info)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.kind,
            "options": self.options.to_json(),
            "revenge": self.revenge,
            "seed": self.seed,
            "results": [r.to_json() for r in self.results],
            "outcome": self.outcome.to_json() if self.outcome else None,
            "earlier_log": [[p, t] for p, t in self._earlier_log],
            "current": self.game.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        m = cls.__new__(cls)
        m.options = Options.from_json(data["options"])
        m.revenge = bool(data["revenge"])
        m.seed = int(data["seed"])
        m.results = [SiegeResult.from_json(r) for r in data["results"]]
        m.outcome = Outcome.from_json(data["outcome"]) if data["outcome"] else None
        m._earlier_log = [(int(p), str(t)) for p, t in data["earlier_log"]]
        m.game = Game.from_json(data["current"])
        return m
