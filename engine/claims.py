"""Deciding a claim (Schotten Totten) or a declaration of control (Schotten Totten 2).

Both are the same question about one place on the board: is the claimant's complete side
stronger than the other side, or, when the other side is incomplete, can no completion of it
from the unseen cards beat the claimant strictly (RULINGS ST1-4, ST2-4)?
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from engine.cards import AnyCard, Card
from engine.formations import Formation, FormationRules, Slot
from engine.phrases import Phrase, say, say_n
from engine.proof import Completion, Pool, best_completion, evaluate


class Place(Protocol):
    """A stone or a wall tile: two sides judged under one rule set."""

    number: int

    @property
    def rules(self) -> FormationRules: ...

    def complete(self, player: int) -> bool: ...

    def slots(self, player: int) -> list[Slot]: ...

    def first_complete(self) -> int | None: ...


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """The answer to "may this player claim this place now?" and why."""

    allowed: bool
    why: str  # a sentence, or a code that `reason` spells out (claims are checked every move,
    # and most answers are never shown, so the sentence is only written when asked for)
    place: int = 0
    formation: Formation | None = None  # the claimant's, when complete
    against: Formation | None = None  # the opponent's, when complete
    completion: Completion | None = None  # how the opponent could still beat the claimant
    noun: str = "stone"
    verb: str = "claim"
    # Cards of the claimant's own hand that the counter-example needs (there was no other).
    own: tuple[Card, ...] = ()

    @property
    def reason(self) -> str:
        """Why the claim fails, for the claimant (a Phrase)."""
        mine, theirs = self.formation, self.against
        tile = self.noun == "tile"
        v: dict[str, str | int] = {"place": self.place}
        if self.why == "tie-lost" and mine is not None:
            v["formation"] = mine.describe()
            if tile:
                return say(
                    "You cannot take tile {place}: both sides make {formation}, and your"
                    " opponent completed theirs first.",
                    **v,
                )
            return say(
                "You cannot claim stone {place}: both sides make {formation}, and your"
                " opponent completed theirs first.",
                **v,
            )
        if self.why == "weaker" and mine is not None and theirs is not None:
            v["mine"] = mine.describe(article=False)
            v["theirs"] = theirs.describe(article=False)
            if tile:
                # TRANSLATORS: {theirs} and {mine} are formations without an article
                # ("colour run G5 G6 G7 (18)", "lower sum R1 B2 (3)").
                return say(
                    "You cannot take tile {place}: your opponent's {theirs} beats your {mine}.",
                    **v,
                )
            return say(
                # TRANSLATORS: {theirs} and {mine} are formations without an article
                # ("colour run G5 G6 G7 (18)").
                "You cannot claim stone {place}: your opponent's {theirs} beats your {mine}.",
                **v,
            )
        if self.why == "beatable" and mine is not None and self.completion is not None:
            v["cards"] = " ".join(str(c) for c in self.completion.added)
            v["formation"] = self.completion.formation.describe()
            v["mine"] = mine.describe(article=False)
            if tile:
                refusal = say(
                    "You cannot take tile {place} yet: your opponent could still add {cards}"
                    " and make {formation}, which beats your {mine}.",
                    **v,
                )
            else:
                refusal = say(
                    # TRANSLATORS: {cards} are card codes ("R5 R6"); {formation} is a formation
                    # with its article, {mine} one without ("colour run G5 G6 G7 (18)").
                    "You cannot claim stone {place} yet: your opponent could still add {cards}"
                    " and make {formation}, which beats your {mine}.",
                    **v,
                )
            if not self.own:
                return refusal
            held = " ".join(str(c) for c in self.own)
            note = _own_cards_note(held, len(self.own))
            # TRANSLATORS: two sentences one after the other: a refusal, then a note on it.
            return say("{refusal} {note}", refusal=refusal, note=note)
        return self.why


def _own_cards_note(held: str, count: int) -> Phrase:
    """Why the claimant's own cards count against them (the proof does not look into hands)."""
    return say_n(
        # TRANSLATORS: {cards} are card codes from the player's own hand ("R5", "R5 R6").
        "{cards} is in your own hand, but a claim must hold against every card not face-up on"
        " the table, your hand included, since the proof does not look into hands.",
        "{cards} are in your own hand, but a claim must hold against every card not face-up on"
        " the table, your hand included, since the proof does not look into hands.",
        count,
        cards=held,
    )


# How a check finds a completion of the other side that beats the claimant (the proof's
# `best_completion`, or a game's faster way to the same answer).
Beating = Callable[[Sequence[Slot], Pool, FormationRules, int], Completion | None]


def _strongest(
    side: Sequence[Slot], pool: Pool, rules: FormationRules, beat: int
) -> Completion | None:
    return best_completion(side, pool, rules, beat=beat)


def check_place(
    place: Place,
    player: int,
    unseen: Pool,
    *,
    noun: str = "stone",
    verb: str = "claim",
    beating: Beating = _strongest,
) -> ClaimCheck:
    """May `player` claim `place`, given the cards that could still complete the other side?

    A refusal's counter-example is the strongest completion, unless `beating` (which must
    give an answer exactly when `best_completion` does) finds another."""
    n = place.number
    rules = place.rules
    if not place.complete(player):
        return ClaimCheck(False, _incomplete(place, player, noun, verb), n, noun=noun, verb=verb)
    mine = evaluate(place.slots(player), rules)
    other = 1 - player
    if place.complete(other):
        theirs = evaluate(place.slots(other), rules)
        if mine.key > theirs.key:
            return ClaimCheck(True, "stronger", n, mine, theirs, noun=noun, verb=verb)
        if mine.key == theirs.key and place.first_complete() == player:
            return ClaimCheck(True, "equal, completed first", n, mine, theirs, noun=noun, verb=verb)
        lost = "tie-lost" if mine.key == theirs.key else "weaker"
        return ClaimCheck(False, lost, n, mine, theirs, noun=noun, verb=verb)
    # The other side completes later, so it must beat the claimant strictly.
    found = beating(place.slots(other), unseen, rules, mine.key)
    if found is None:
        return ClaimCheck(True, "no completion beats it", n, mine, noun=noun, verb=verb)
    return ClaimCheck(False, "beatable", n, mine, None, found, noun=noun, verb=verb)


def explained(
    check: ClaimCheck, place: Place, player: int, unseen: Pool, hand: Sequence[AnyCard]
) -> ClaimCheck:
    """A refusal to show the claimant: its counter-example uses cards they do not hold when
    there is one, and otherwise says which of their own cards it needs and why they count."""
    if check.why != "beatable" or check.completion is None or check.formation is None:
        return check
    held = {c.code for c in hand if isinstance(c, Card)}
    if not any(c.code in held for c in check.completion.added):
        return check
    others = Pool(c for c in unseen.desc if c.code not in held)
    rules = place.rules
    other = best_completion(place.slots(1 - player), others, rules, beat=check.formation.key)
    if other is not None:
        return replace(check, completion=other)
    own = tuple(sorted((c for c in check.completion.added if c.code in held), key=_card_order))
    return replace(check, own=own)


def _card_order(card: Card) -> tuple[int, int]:
    return card.sort_key()


def _incomplete(place: Place, player: int, noun: str, verb: str) -> str:
    v: dict[str, str | int] = {
        "have": len(place.slots(player)),
        "place": place.number,
    }
    need = place.rules.size
    if noun == "tile":
        return say_n(
            "You need {count} card on your side of tile {place} to take it; you have {have}.",
            "You need {count} cards on your side of tile {place} to take it; you have {have}.",
            need,
            **v,
        )
    return say_n(
        "You need {count} card on your side of stone {place} to claim it; you have {have}.",
        "You need {count} cards on your side of stone {place} to claim it; you have {have}.",
        need,
        **v,
    )
