"""What happened, move by move. Events are public: nothing in them reveals a hidden card.

Each event can describe itself for players, given the players' names, and turns into JSON so
the bot can store or forward it. Events shared by both games live here; each game adds its
own in its package.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, TacticCard, card_code
from engine.formations import Formation
from engine.outcome import Outcome, Termination


@dataclass(frozen=True, slots=True)
class Event:
    """Base class: `describe` is one sentence for the channel."""

    def describe(self, names: Sequence[str]) -> str:
        raise NotImplementedError

    @property
    def kind(self) -> str:
        return type(self).__name__

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            out[f.name] = _jsonable(getattr(self, f.name))
        return out


def _jsonable(value: object) -> object:
    if isinstance(value, Formation):
        return value.describe()
    if isinstance(value, Outcome):
        return value.to_json()
    if isinstance(value, Card | TacticCard):
        return card_code(value)
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """A player drew a card (which card stays private)."""

    player: int
    deck: str  # "clan", "tactic" or "siege"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} drew a {self.deck} card."


@dataclass(frozen=True, slots=True)
class NothingDrawn(Event):
    """A player would draw, but no deck has cards left."""

    player: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} cannot draw: no cards are left."


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A player played no card this turn (RULINGS ST1-9)."""

    player: int
    forced: bool

    def describe(self, names: Sequence[str]) -> str:
        if self.forced:
            return f"{names[self.player]} cannot play a card and passes."
        return f"{names[self.player]} passes."


@dataclass(frozen=True, slots=True)
class Resigned(Event):
    """A player resigned, or lost on time."""

    player: int
    timeout: bool = False

    def describe(self, names: Sequence[str]) -> str:
        if self.timeout:
            return f"{names[self.player]} ran out of time."
        return f"{names[self.player]} resigned."


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game is over."""

    outcome: Outcome
    places: tuple[int, ...] = ()  # the stones that won it (Schotten Totten)

    def describe(self, names: Sequence[str]) -> str:
        why = self.outcome.termination.value
        winner = self.outcome.winner
        if winner is None:
            return f"The game is drawn ({why})."
        loser = names[1 - winner]
        won = f"{names[winner]} wins the game"
        match self.outcome.termination:
            case Termination.RESIGNED:  # after the Resigned event's "Bob resigned."
                return f"{won}, as {loser} resigned."
            case Termination.TIMEOUT:
                return f"{won} on time."
            case Termination.THREE_ADJACENT if self.places:
                return f"{won} with three adjacent stones, {'-'.join(map(str, self.places))}!"
            case Termination.FIVE_STONES if self.places:
                return f"{won} with five stones: {', '.join(map(str, self.places))}!"
        return f"{won} ({why})!"
