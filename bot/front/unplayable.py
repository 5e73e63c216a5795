"""Why a card in a player's hand cannot be played now, in the engine's own words, for the
card menu (a dimmed card says why) and for a click on it.

Which cards can be played now is the engine's to say (`view.playable()`, which the hand
picture raises too); this module only explains the others."""

from __future__ import annotations

from collections.abc import Sequence

from engine.api import Playable, load_match
from engine.cardgame import tactic_limit
from engine.cards import Tactic, TacticCard, card_from_code
from engine.errors import GameError
from engine.st2.board import ACTIONS as ST2_ACTIONS
from lang import _, fill, localise, message_of

# Errors about one place (full, claimed) do not say why the card is out everywhere.
_PLACE_WORDS = ("full", "claimed", "already", "no stone", "no tile")
# Tactic cards played on their own, not on a place: a ruse or an action.
_ON_ITS_OWN = (
    frozenset({Tactic.RECRUITER, Tactic.STRATEGIST, Tactic.BANSHEE, Tactic.TRAITOR}) | ST2_ACTIONS
)
# Of those, the ones whose whole move is the card's name.
_WHOLE_MOVE = frozenset({Tactic.RECRUITER, Tactic.EXCHANGE})


def _kind(card: str) -> Tactic | None:
    try:
        parsed = card_from_code(card)
    except (GameError, ValueError):
        return None
    return parsed.kind if isinstance(parsed, TacticCard) else None


def why_not(match: Playable, seat: int, card: str) -> str:
    """The engine's refusal of `card` at the first place where the refusal is about the card
    rather than the place; a generic sentence if every place is simply full. In the current
    language (the refusal's English words decide which one is about the place). A card played
    on its own (the Traitor) is out either because of the tactic-card limit or because it has
    nothing to act on."""
    state = match.to_json()
    kind = _kind(card)
    if kind in _ON_ITS_OWN:
        view = match.view(seat)
        mine, theirs = view.tactics_played[seat], view.tactics_played[1 - seat]
        if mine > theirs:  # RULINGS ST1-10, ST2-10
            return localise(tactic_limit(mine, theirs))
        if kind in _WHOLE_MOVE:
            trial = load_match(state)
            try:
                trial.apply(trial.parse_move(card, seat), seat)
            except GameError as e:
                return message_of(e)
        return _("It has nothing to act on now.")
    first = ""
    places = 9 if match.view(seat).game == "st1" else 7
    for place in range(1, places + 1):
        trial = load_match(state)
        try:
            trial.apply(trial.parse_move(f"{card} {place}", seat), seat)
        except GameError as e:
            text = message_of(e)
            first = first or text
            if not any(w in str(e).lower() for w in _PLACE_WORDS):
                return text
        else:
            return ""  # playable after all (the menu's list of moves is what counts)
    return first or _("It cannot be played now.")


# Discord's limit on a select option's description: the card menu's reason.
MENU_LIMIT = 100
# The most tactic cards a player can have played (the tactic deck's ten).
MOST_TACTICS = 10


def limit_reason(mine: int, theirs: int) -> str:
    """RULINGS ST1-10, ST2-10 in the card menu, shorter than the engine's refusal."""
    # TRANSLATORS: under a tactic card in the card menu, at most 100 characters with the
    # numbers (up to 10 and 9): {mine} and {theirs} are the tactic cards each has played.
    return fill(
        _("Wait until your opponent has played as many tactic cards as you ({mine} to {theirs})."),
        mine=mine,
        theirs=theirs,
    )


def _read_why() -> str:
    # TRANSLATORS: under a card in the card menu when the reason is too long for Discord's
    # 100 characters; choosing the card shows the whole reason.
    return _("Choose it to read why it cannot be played now.")


def fixed_reasons() -> list[str]:
    """The menu's own reasons, each at its longest (the test holds them to MENU_LIMIT)."""
    return [
        limit_reason(MOST_TACTICS, MOST_TACTICS - 1),
        _read_why(),
        _("It has nothing to act on now."),
        _("It cannot be played now."),
    ]


def menu_reason(match: Playable, seat: int, card: str) -> str:
    """Why not, for the card menu: a whole sentence within Discord's 100 characters (cut,
    it would stop mid-word). The engine's refusal where it fits, else a shorter sentence;
    choosing the card shows the whole refusal (why_not)."""
    if _kind(card) is not None:
        view = match.view(seat)
        mine, theirs = view.tactics_played[seat], view.tactics_played[1 - seat]
        if mine > theirs:  # RULINGS ST1-10, ST2-10: the engine's sentence is too long
            return limit_reason(mine, theirs)
    why = why_not(match, seat, card)
    return why if len(why) <= MENU_LIMIT else _read_why()


def unplayable(
    match: Playable, seat: int, hand: Sequence[str], playable: set[str]
) -> dict[str, str]:
    """For each card of the hand that the engine does not let be played now (`playable` is
    `view.playable()` as codes), why, as the card menu says it (menu_reason)."""
    return {c: menu_reason(match, seat, c) for c in dict.fromkeys(hand) if c not in playable}
