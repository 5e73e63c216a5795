"""What both games share as state objects: replay, resigning, the end, reading a card from
a player's hand, the unseen cards, and a cached claim (or control) proof."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Self

from engine import proof_tables
from engine.cards import AnyCard, Card, bits_of, format_cards, sort_cards
from engine.claims import ClaimCheck, check_place
from engine.errors import IllegalMoveError
from engine.events import Event, GameEnded, Resigned
from engine.formations import FormationRules, Slot
from engine.moves import Resign
from engine.outcome import Outcome, Termination
from engine.phrases import Phrase, say, say_n
from engine.places import Place
from engine.proof import Completion, Pool, best_completion, evaluate
from engine.table import pick


class CardGame:
    """Base of `engine.st1.Game` and `engine.st2.Game`. Subclasses set the class attributes
    and hold the state: `log`, `clock`, `outcome`, `phase`, `hands`, `discard`, `places`."""

    kind: ClassVar[str]
    OVER: ClassVar[Any]  # the game's Phase for "over"
    CARDS_BY_VALUE: ClassVar[tuple[Card, ...]]  # the whole deck, value descending
    ALL_BITS: ClassVar[int]  # the same cards as bits
    NOUN: ClassVar[str]  # a place, in refusals: "stone" or "tile"
    RULE_SETS: ClassVar[tuple[FormationRules, ...]]  # every rule set a place may have
    VERB: ClassVar[str]  # what is done to it: "claim" or "take"

    log: list[tuple[int, str]]
    clock: int
    outcome: Outcome | None
    phase: Any
    hands: tuple[list[AnyCard], list[AnyCard]]
    discard: list[AnyCard]

    def _init_caches(self) -> None:
        # The cards face-up (on the table or discarded) as bits, and the proof's pool of the
        # others, both for one `clock`, which moves on after every change to the table.
        self._seen: tuple[int, int] = (-1, 0)
        self._pool: tuple[int, Pool] | None = None
        # The last answer about each (place, player), with what it depends on (`_Verdict`).
        self._verdicts: dict[tuple[int, int], _Verdict] = {}

    @property
    def places(self) -> Sequence[Place]:
        raise NotImplementedError

    @classmethod
    def new(cls, options: Any = None, seed: int = 0) -> Self:
        raise NotImplementedError

    @classmethod
    def replay(cls, options: Any, seed: int, log: Iterable[tuple[int, str]]) -> Self:
        """Rebuild a game from its options, seed and move log."""
        game = cls.new(options, seed)
        for player, text in log:
            game.play(text, player=player)
        return game

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def winner(self) -> int | None:
        return self.outcome.winner if self.outcome else None

    @property
    def to_decide(self) -> int | None:
        raise NotImplementedError

    def legal_moves(self) -> list[Any]:
        raise NotImplementedError

    def parse_move(self, text: str, player: int | None = None) -> Any:
        raise NotImplementedError

    def apply(self, move: Any, player: int | None = None) -> list[Event]:
        raise NotImplementedError

    def play(self, text: str, player: int | None = None) -> list[Event]:
        """Parse and apply a move given as text."""
        return self.apply(self.parse_move(text, player), player)

    def _resign(self, p: int, move: Resign) -> list[Event]:
        self.clock += 1
        self.log.append((p, str(move)))
        events: list[Event] = [Resigned(p, move.timeout)]
        why = Termination.TIMEOUT if move.timeout else Termination.RESIGNED
        self._finish(Outcome(1 - p, why), events)
        return events

    def _finish(self, outcome: Outcome, events: list[Event], places: tuple[int, ...] = ()) -> None:
        self.outcome = outcome
        self.phase = self.OVER
        events.append(GameEnded(outcome, places))

    def check_card(self, card: AnyCard) -> None:
        """Raise InvalidMoveError if `card` does not exist in this game."""
        raise NotImplementedError

    def own_card(self, card: AnyCard, p: int, *, hand: list[AnyCard] | None = None) -> AnyCard:
        """The card from the player's hand that the text names (the lower Joker for
        "joker"), or a player-facing error naming what they do hold."""
        self.check_card(card)
        hand = self.hands[p] if hand is None else hand
        found = pick(card, hand)
        if found is None:
            held = format_cards(sort_cards(hand))
            raise IllegalMoveError(not_in_hand(str(card), held))
        return found

    def seen(self) -> int:
        """The cards face-up, on the table or in the discard pile, as bits (`Card.bit`)."""
        clock, bits = self._seen
        if clock != self.clock:
            bits = bits_of(self.discard)
            for place in self.places:
                bits |= place.mask
            self._seen = (self.clock, bits)
        return bits

    def unseen(self) -> Pool:
        """Cards of the deck not face-up: neither on the table nor in the discard pile
        (RULINGS ST1-4, ST2-4). The hands and the deck, in other words."""
        seen = self.seen()
        if self._pool is None or self._pool[0] != seen:
            self._pool = (seen, Pool.of_bits(self.ALL_BITS & ~seen, self.CARDS_BY_VALUE))
        return self._pool[1]

    @classmethod
    def prepare(cls) -> None:
        """Build the claim tables of every rule set now: otherwise the first claim under
        each rule set builds its table, which takes a few hundred milliseconds (a server
        prepares before its first move)."""
        for rules in cls.RULE_SETS:
            cls._table(rules)

    @classmethod
    def _table(cls, rules: FormationRules) -> proof_tables.Table | None:
        key = (rules, cls.kind)  # equal rules of the two games differ by their decks
        found = _TABLES.get(key, _NONE)
        if found is _NONE:
            found = _TABLES[key] = proof_tables.table(rules, cls.CARDS_BY_VALUE)
        # `_NONE` marks "not looked up yet"; past the test above `found` is a table or None.
        return found  # type: ignore[return-value]

    def _beating(
        self, side: Sequence[Slot], unseen: Pool, rules: FormationRules, beat: int
    ) -> Completion | None:
        """A completion of `side` stronger than `beat` (`claims.Beating`): from the tables
        when the side holds only real cards, else from the proof."""
        table = self._table(rules)
        if table is not None and all(s.__class__ is Card for s in side):
            # Every slot is a Card (checked by class just above, for speed): no wild card.
            return table.beating(side, unseen.bits, beat)  # type: ignore[arg-type]
        return best_completion(side, unseen, rules, beat=beat)

    def _proof(self, place: Place, player: int) -> ClaimCheck:
        """`check_place(place, player, unseen)`, answered again only when a move could have
        changed the answer (`_Verdict.stands`)."""
        key = (place.number, player)
        seen = self.seen()
        known = self._verdicts.get(key)
        if known is not None and known.check is not None and known.stands(place, seen):
            return known.check
        answer = self._check(place, player)
        self._verdicts[key] = _Verdict.of(answer, place.version, seen)
        return answer

    def _check(self, place: Place, player: int) -> ClaimCheck:
        """`check_place` with this game's words and its quicker way to a beating completion."""
        return check_place(
            place, player, self.unseen(), noun=self.NOUN, verb=self.VERB, beating=self._beating
        )

    def _allowed(self, place: Place, player: int) -> bool:
        """`_proof(place, player).allowed`, without the explanation that only a refusal
        shown to a player needs: this runs for every complete side after every move.

        When the completion that beat the claimant loses a card to the table, the search
        for another goes on after it, as long as no card has left the table since."""
        key = (place.number, player)
        seen = self.seen()
        known = self._verdicts.get(key)
        start = 0
        if known is not None and known.version == place.version:
            if known.stands(place, seen):
                return known.allowed
            if known.kind is _WITNESS and known.resume >= 0 and not known.seen & ~seen:
                start = known.resume + 1
        verdict = self._judge(place, player, seen, start)
        self._verdicts[key] = verdict
        return verdict.allowed

    def _judge(self, place: Place, player: int, seen: int, start: int) -> _Verdict:
        """A fresh verdict: by table when the other side is incomplete and holds only real
        cards (the usual case), else from `check_place`."""
        other = 1 - player
        theirs = place.sides[other]  # a real card stands for itself (`Place.slot_of`)
        table = self._table(place.rules)
        if (
            table is not None
            and place.complete(player)
            and not place.complete(other)
            and all(c.__class__ is Card for c in theirs)
        ):
            beat = evaluate(place.slots(player), place.rules).key
            mask = bits_of(theirs)
            j = table.first_beating(mask, self.ALL_BITS & ~seen, beat, start)
            if j < 0:
                return _Verdict(None, True, place.version, _HOLDS, seen, seen)
            witness = table.set_bits(mask, j) & ~mask
            return _Verdict(None, False, place.version, _WITNESS, witness, seen, j)
        return _Verdict.of(self._check(place, player), place.version, seen)


def not_in_hand(card: str, held: str) -> Phrase:
    """ "R7 is not in your hand; you hold R2 B5 joker." """
    # TRANSLATORS: {card} is a card code (R7, joker); {hand} the card codes in the hand.
    return say("{card} is not in your hand; you hold {hand}.", card=card, hand=held)


def tactic_limit(mine: int, theirs: int) -> Phrase:
    """RULINGS ST1-10, ST2-10: why another tactic card may not be played yet."""
    return say_n(
        "You have played {count} tactic card and your opponent {theirs}; you may play"
        " another only when your opponent has played as many as you.",
        "You have played {count} tactic cards and your opponent {theirs}; you may play"
        " another only when your opponent has played as many as you.",
        mine,
        theirs=theirs,
    )


def game_over() -> Phrase:
    return say("The game is over.")


def not_your_turn() -> Phrase:
    return say("It is not your turn; wait for your opponent's move.")


def with_hint(refusal: Phrase, hint: Phrase) -> Phrase:
    """A refusal followed by what the player may do instead: two sentences."""
    # TRANSLATORS: two sentences one after the other: why a move was refused, then what the
    # player may do now.
    return say("{refusal} {hint}", refusal=refusal, hint=hint)


def deck_empty(deck: str, other: str) -> Phrase:
    """ "The clan deck is empty; draw from the tactic deck." """
    match (deck, other):
        case ("clan", "tactic"):
            return say("The clan deck is empty; draw from the tactic deck.")
        case ("tactic", "clan"):
            return say("The tactic deck is empty; draw from the clan deck.")
        case ("siege", "tactic"):
            return say("The siege deck is empty; draw from the tactic deck.")
        case ("tactic", "siege"):
            return say("The tactic deck is empty; draw from the siege deck.")
    return say("The {deck} deck is empty; draw from the {other} deck.", deck=deck, other=other)


# What an answer about a place depends on, besides the place itself.
_FINAL = "final"  # two complete sides compared: nothing else
_WITNESS = "witness"  # a completion beats the claimant: while its cards are unseen
_HOLDS = "holds"  # no completion beats it: while every card then face-up still is


class _Verdict:
    """A cached answer about a (place, player): whether the claim holds, the check with its
    explanation when one was made (None when only the answer was needed), the place's
    version it was made for, what kind of answer it is, the cards (as bits) whose
    whereabouts decide whether it still stands, the cards face-up then, and for a
    completion found by table, its place in the table's list (`resume`)."""

    __slots__ = ("allowed", "cards", "check", "kind", "resume", "seen", "version")

    def __init__(
        self,
        check: ClaimCheck | None,
        allowed: bool,
        version: int,
        kind: str,
        cards: int,
        seen: int,
        resume: int = -1,
    ) -> None:
        self.check = check
        self.allowed = allowed
        self.version = version
        self.kind = kind
        self.cards = cards
        self.seen = seen
        self.resume = resume

    @classmethod
    def of(cls, check: ClaimCheck, version: int, seen: int) -> _Verdict:
        if check.completion is not None:
            return cls(check, False, version, _WITNESS, bits_of(check.completion.added), seen)
        if check.against is not None or not check.allowed:
            return cls(check, check.allowed, version, _FINAL, 0, seen)
        return cls(check, True, version, _HOLDS, seen, seen)

    def stands(self, place: Place, seen: int) -> bool:
        """Whether the answer still holds, the cards face-up now being `seen`.

        The answer depends on the place (its `version`) and on the cards not face-up, which
        only get fewer, except when a card goes back into a deck: a claim that held still
        holds while no card face-up then has left the table; a completion that beats the
        claimant still does while its cards are all still unseen; and an answer from two
        complete sides depends on nothing else."""
        if self.version != place.version:
            return False
        if self.kind is _FINAL:
            return True
        if self.kind is _WITNESS:
            return not self.cards & seen
        return not self.cards & ~seen


# The tables of each rule set, by game (each game has its own deck).
_TABLES: dict[tuple[FormationRules, str], proof_tables.Table | None] = {}
_NONE = object()
