"""One interface for both games: what the bot and the renderer use.

Every game is a *match* (a single game is a match of one), created from a `MatchSpec` and a
seed, and driven through the same few calls whichever game it is. These examples run as
doctests in the suite (tests/test_examples.py):

>>> match = new_match(MatchSpec("classic"), seed=42)
>>> seat = match.to_decide  # the seat (0 or 1) whose decision the game waits for
>>> seat
1
>>> [str(move) for move in match.legal_moves()][:3]  # str(move) is the notation
['Y3 1', 'Y3 2', 'Y3 3']
>>> view = match.view(seat)  # what that seat may see: its own hand, never the other's
>>> view.game, [str(card) for card in view.hand]
('st1', ['R3', 'R6', 'O9', 'Y3', 'P2', 'P9'])
>>> events = match.play("Y3 1", player=seat)  # parse and apply
>>> [event.describe(["Alice", "Bob"]) for event in events]
['Bob played Y3 on stone 1.', 'Bob drew a clan card.']
>>> match.to_decide, match.log, match.is_over, match.winner, match.outcome
(0, [(1, 'Y3 1')], False, None, None)
>>> match.play("R9 2", player=0)  # a GameError changes nothing
Traceback (most recent call last):
  ...
engine.errors.IllegalMoveError: R9 is not in your hand; you hold O4 O8 Y2 Y9 B7 P8.
>>> data = match.to_json()  # the whole state, hidden cards included
>>> load_match(data).to_json() == data
True
>>> replay_match(MatchSpec("classic"), 42, match.log).to_json() == data  # from the moves
True

Schotten Totten 2 answers the same calls (`view.game` is then "st2"):

>>> siege = new_match(MatchSpec("siege-tactics", revenge=True), seed=42)
>>> siege.view(siege.to_decide).game, [str(move) for move in siege.legal_moves()][:2]
('st2', ['B7 1', 'B7 2'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine import st1, st2
from engine.errors import GameError, InvalidMoveError, quote
from engine.events import Event
from engine.outcome import Outcome
from engine.phrases import N_, Phrase, say
from engine.st1.match import Match as St1Match
from engine.st1.match import MatchOptions
from engine.st2.match import Match as St2Match

# The variants players choose from, with their names for people. The names are English,
# marked for the catalogs: say them with `lang._(VARIANTS[key])` or `variant_name(key)`.
VARIANTS: dict[str, str] = {
    "classic": N_("Schotten Totten"),
    "tactics": N_("Schotten Totten, Tactics"),
    "expert": N_("Schotten Totten, Expert"),
    "tactics-expert": N_("Schotten Totten, Tactics + Expert"),
    "siege": N_("Schotten Totten 2"),
    "siege-tactics": N_("Schotten Totten 2, Tactical"),
}
GAME_NAMES = {"st1": N_("Schotten Totten"), "st2": N_("Schotten Totten 2")}


def variant_name(variant: str) -> Phrase:
    """A variant's name for people, as a Phrase ("Schotten Totten, Tactics")."""
    return Phrase(VARIANTS[variant])


def game_name(game: str) -> Phrase:
    """A game's name for people ("st1": "Schotten Totten"), as a Phrase."""
    return Phrase(GAME_NAMES[game])


def game_of(variant: str) -> str:
    """ "st1" or "st2": the game a variant belongs to (ratings are kept per game)."""
    return "st2" if variant.startswith("siege") else "st1"


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """What two players agreed to play.

    `first` is the seat that starts (Schotten Totten) or attacks (Schotten Totten 2); None
    lets the seed decide. `rounds`/`target` apply to Schotten Totten, `revenge` to 2.
    """

    variant: str = "classic"
    rounds: int = 1
    target: int | None = None
    revenge: bool = False
    first: int | None = None

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            names = ", ".join(VARIANTS)
            raise InvalidMoveError(
                # TRANSLATORS: {name} is what was asked for, in quotes; {variants} the
                # variants' keys (classic, tactics...), which stay as they are.
                say(
                    "{name} is not a game here; choose one of {variants}.",
                    name=quote(self.variant),
                    variants=names,
                )
            )
        if self.game == "st1":
            if self.revenge:
                raise GameError(say("The revenge match is for Schotten Totten 2 (siege) games."))
            MatchOptions(self.rounds, self.target)  # checks the length
        elif self.rounds != 1 or self.target is not None:
            raise GameError(
                say("Schotten Totten 2 is played as one game or as a revenge match, not in rounds.")
            )
        if self.first not in (None, 0, 1):
            raise GameError(say("The first player is seat 0 or seat 1."))

    @property
    def game(self) -> str:
        return game_of(self.variant)

    def describe(self) -> str:
        """For people: "Schotten Totten, Tactics, 3 rounds", "Schotten Totten 2, revenge match"
        (a Phrase)."""
        name = variant_name(self.variant)
        if self.game == "st2":
            # TRANSLATORS: {game} is the game's name ("Schotten Totten 2, Tactical").
            return say("{game}, revenge match", game=name) if self.revenge else name
        options = MatchOptions(self.rounds, self.target)
        if options.target is None and options.rounds == 1:
            return name
        # TRANSLATORS: {game} is the game's name, {length} "3 rounds" or "first to 12 points".
        return say("{game}, {length}", game=name, length=options.describe())

    def to_json(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "rounds": self.rounds,
            "target": self.target,
            "revenge": self.revenge,
            "first": self.first,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> MatchSpec:
        return MatchSpec(
            str(data["variant"]),
            int(data.get("rounds", 1)),
            data.get("target"),
            bool(data.get("revenge", False)),
            data.get("first"),
        )


class Playable(Protocol):
    """The calls every match answers, whichever game it is."""

    kind: str
    outcome: Outcome | None

    @property
    def to_decide(self) -> int | None: ...

    @property
    def winner(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def log(self) -> list[tuple[int, str]]: ...

    def legal_moves(self) -> Sequence[Any]: ...

    def game_results(self) -> list[dict[str, Any]]: ...

    def parse_move(self, text: str, player: int | None = None) -> Any: ...

    def play(self, text: str, player: int | None = None) -> list[Event]: ...

    def apply(self, move: Any, player: int | None = None) -> list[Event]: ...

    def view(self, player: int | None) -> Any: ...

    def to_json(self) -> dict[str, Any]: ...


def notation(game: str, text: str) -> str:
    """The canonical text of a move as written, without a game to resolve it against (so
    `traitor G5 6` stays without its stone). Raises InvalidMoveError if it cannot be read.

    >>> notation("st1", "play red 7 on stone 3"), notation("st1", "traitor G5 6")
    ('R7 3', 'traitor G5 6')
    >>> notation("st2", "oil 4")
    'oil 4'
    """
    parse = st1.parse_move if game == "st1" else st2.parse_move
    return str(parse(text))


def prepare() -> None:
    """Build now what the engine otherwise builds on first use (the claim tables of each
    game, a few hundred milliseconds each): a server calls it before its first move, so
    that no request waits for it."""
    st1.Game.prepare()
    st2.Game.prepare()


def new_match(spec: MatchSpec, seed: int) -> Playable:
    """A new match, dealt from `seed`."""
    if spec.game == "st1":
        options = st1.Options.from_variant(spec.variant, first_player=spec.first)
        return St1Match.new(options, MatchOptions(spec.rounds, spec.target), seed)
    options2 = st2.Options.from_variant(spec.variant, attacker=spec.first)
    return St2Match.new(options2, revenge=spec.revenge, seed=seed)


def load_match(data: dict[str, Any]) -> Playable:
    """A match from its `to_json()` data."""
    if data.get("game") == "st1":
        return St1Match.from_json(data)
    if data.get("game") == "st2":
        return St2Match.from_json(data)
    raise ValueError(f"not a stored match: {data.get('game')!r}")


def replay_match(spec: MatchSpec, seed: int, log: Iterable[tuple[int, str]]) -> Playable:
    """The match rebuilt from its spec, seed and move log."""
    match = new_match(spec, seed)
    for player, text in log:
        match.play(text, player)
    return match
