"""Events particular to Schotten Totten."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.cards import AnyCard, card_named
from engine.events import Event
from engine.formations import Formation
from engine.phrases import Phrase, say


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card went onto a player's side of a stone."""

    player: int
    card: AnyCard
    stone: int

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        card = card_named(self.card)
        if self.player == you:
            return say("You played {card} on stone {stone}.", card=card, stone=self.stone)
        return say(
            # TRANSLATORS: {card} is a card code (R7) or a tactic card ("the Joker").
            "{player} played {card} on stone {stone}.",
            player=names[self.player],
            card=card,
            stone=self.stone,
        )


@dataclass(frozen=True, slots=True)
class StoneClaimed(Event):
    """A stone was claimed: with which formation, against which (None: by proof, RULINGS
    ST1-4, the opponent's side being incomplete)."""

    player: int
    stone: int
    formation: Formation
    against: Formation | None
    modes: tuple[str, ...] = ()  # the combat modes on the stone, by title

    def describe(self, names: Sequence[str], *, you: int | None = None) -> str:
        values: dict[str, str | int] = {
            "player": names[self.player],
            "other": names[1 - self.player],
            "stone": self.stone,
            "formation": self.formation.describe(after_with=True),
        }
        if self.against is None:
            how = "proof"
        else:
            how = "tie" if self.against.key == self.formation.key else "beats"
            values["against"] = self.against.describe()
        mine = self.player == you
        if not self.modes:
            return _CLAIMED[(how, mine)](values)
        values["modes"] = both(self.modes)
        return _CLAIMED_WITH_MODES[(how, mine)](values)


def both(words: Sequence[str]) -> str:
    """Words joined with "and" ("Mud Fight and Blind-Man's Bluff"), as a Phrase."""
    out = words[0]
    for word in words[1:]:
        # TRANSLATORS: two names joined, such as two tactic cards on one stone.
        out = say("{first} and {second}", first=out, second=word)
    return out


# How a claim is told: (how it was won, said to the claimant?) -> the sentence. "proof": the
# opponent's side is incomplete and no completion beats it; "tie": equal, won by completing
# first; "beats": the stronger formation. {formation} and {against} are formations ("colour
# run G5 G6 G7 (18)").
_Say = Callable[[dict[str, "str | int"]], Phrase]
_CLAIMED: dict[tuple[str, bool], _Say] = {
    ("proof", False): lambda v: say(
        "{player} claimed stone {stone} with {formation}; {other} cannot beat it, whatever they"
        " add.",
        **v,
    ),
    ("proof", True): lambda v: say(
        "You claimed stone {stone} with {formation}; {other} cannot beat it, whatever they add.",
        **v,
    ),
    ("tie", False): lambda v: say(
        "{player} claimed stone {stone} with {formation} against {against}: a tie, won by"
        " {player}, who completed their side first.",
        **v,
    ),
    ("tie", True): lambda v: say(
        "You claimed stone {stone} with {formation} against {against}: a tie, won by you: you"
        " completed first.",
        **v,
    ),
    ("beats", False): lambda v: say(
        "{player} claimed stone {stone} with {formation} against {against}.", **v
    ),
    ("beats", True): lambda v: say(
        "You claimed stone {stone} with {formation} against {against}.", **v
    ),
}
# The same, on a stone with combat modes: {modes} is "Mud Fight" or "Mud Fight and
# Blind-Man's Bluff".
_CLAIMED_WITH_MODES: dict[tuple[str, bool], _Say] = {
    ("proof", False): lambda v: say(
        "{player} claimed stone {stone} (with {modes}) with {formation}; {other} cannot beat"
        " it, whatever they add.",
        **v,
    ),
    ("proof", True): lambda v: say(
        "You claimed stone {stone} (with {modes}) with {formation}; {other} cannot beat it,"
        " whatever they add.",
        **v,
    ),
    ("tie", False): lambda v: say(
        "{player} claimed stone {stone} (with {modes}) with {formation} against {against}: a"
        " tie, won by {player}, who completed their side first.",
        **v,
    ),
    ("tie", True): lambda v: say(
        "You claimed stone {stone} (with {modes}) with {formation} against {against}: a tie,"
        " won by you: you completed first.",
        **v,
    ),
    ("beats", False): lambda v: say(
        "{player} claimed stone {stone} (with {modes}) with {formation} against {against}.", **v
    ),
    ("beats", True): lambda v: say(
        "You claimed stone {stone} (with {modes}) with {formation} against {against}.", **v
    ),
}
