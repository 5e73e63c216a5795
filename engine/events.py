"""What happened, move by move. Events are public: nothing in them reveals a hidden card.

Each event can describe itself for players, given the players' names, and turns into JSON so
the bot can store or forward it. A description is a `Phrase` (English text that `lang.localise`
says in a reader's language); `describe(names, you=seat)` speaks to the player in that seat in
the second person when they are the one who acted ("You played R7 on stone 3."). Events
shared by both games live here; each game adds its own in its package.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, TacticCard, card_code
from engine.formations import Formation
from engine.outcome import Outcome, Termination
from engine.phrases import say


@dataclass(frozen=True, slots=True)
class Event:
    """Base class: `describe` is one sentence for the channel (a Phrase). With `you`, the
    seat of the reader: when that player acted, the sentence is said to them ("You pass.")."""

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
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

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        if self.player == you:
            if self.deck == "clan":
                return say("You drew a clan card.")
            if self.deck == "tactic":
                return say("You drew a tactic card.")
            if self.deck == "siege":
                return say("You drew a siege card.")
        player = names[self.player]
        if self.deck == "clan":
            return say("{player} drew a clan card.", player=player)
        if self.deck == "tactic":
            return say("{player} drew a tactic card.", player=player)
        return say("{player} drew a siege card.", player=player)


@dataclass(frozen=True, slots=True)
class NothingDrawn(Event):
    """A player would draw, but no deck has cards left."""

    player: int

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        if self.player == you:
            return say("You cannot draw: no cards are left.")
        return say("{player} cannot draw: no cards are left.", player=names[self.player])


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A player played no card this turn (RULINGS ST1-9)."""

    player: int
    forced: bool

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        if self.player == you:
            return say("You cannot play a card and pass.") if self.forced else say("You pass.")
        player = names[self.player]
        if self.forced:
            return say("{player} cannot play a card and passes.", player=player)
        return say("{player} passes.", player=player)


@dataclass(frozen=True, slots=True)
class Resigned(Event):
    """A player resigned, or lost on time."""

    player: int
    timeout: bool = False

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        if self.player == you:
            return say("You ran out of time.") if self.timeout else say("You resigned.")
        player = names[self.player]
        if self.timeout:
            return say("{player} ran out of time.", player=player)
        return say("{player} resigned.", player=player)


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game is over."""

    outcome: Outcome
    places: tuple[int, ...] = ()  # the stones that won it (Schotten Totten)

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        """The result, in the third person for everyone (`you` is accepted and ignored: the
        mover's own reply says the result as the channel does)."""
        why = self.outcome.termination.reason
        winner = self.outcome.winner
        if winner is None:
            # TRANSLATORS: {reason} is why the game ended, such as "neither player can play".
            return say("The game is drawn ({reason}).", reason=why)
        player = names[winner]
        match self.outcome.termination:
            case Termination.RESIGNED:
                # Said right after the Resigned event's "Bob resigned." (or "You resigned."):
                # the reason once is enough.
                return say("{player} wins the game.", player=player)
            case Termination.TIMEOUT:
                return say("{player} wins the game on time.", player=player)
            case Termination.THREE_ADJACENT if self.places:
                # TRANSLATORS: {stones} are the stones' numbers, as "4-5-6".
                return say(
                    "{player} wins the game with three adjacent stones, {stones}!",
                    player=player,
                    stones="-".join(map(str, self.places)),
                )
            case Termination.FIVE_STONES if self.places:
                # TRANSLATORS: {stones} are the stones' numbers, as "1, 3, 5, 7, 9".
                return say(
                    "{player} wins the game with five stones: {stones}!",
                    player=player,
                    stones=", ".join(map(str, self.places)),
                )
        # TRANSLATORS: {reason} is why the game ended, such as "five stones".
        return say("{player} wins the game ({reason})!", player=player, reason=why)
