"""Small helpers for the bot's sentences, shared by the service and the front."""

from __future__ import annotations

from engine.phrases import Phrase, say, say_in

# The computer's levels in words (the stored and typed codes stay English).
LEVELS: dict[str, Phrase] = {
    "easy": say_in("computer level", "easy"),
    "normal": say_in("computer level", "normal"),
    "hard": say_in("computer level", "hard"),
}


def level_name(level: str | None) -> str:
    """A computer level in words ("normal" when none is stored)."""
    key = level or "normal"
    return LEVELS.get(key, key)


def computer_name(level: str | None) -> Phrase:
    """The computer as a player of a game: "Computer (hard)"."""
    # TRANSLATORS: the computer's name as a player; {level} is easy, normal or hard.
    return say("Computer ({level})", level=level_name(level))


def the_computer(level: str | None) -> Phrase:
    """The computer as an opponent in a sentence: its name, "Computer (hard)", as in every
    other sentence ("Computer (hard) played…"): a name takes no article, and one word for
    it everywhere (lang/GLOSSARY.md, section 8)."""
    return computer_name(level)


def player_name(user_id: int) -> Phrase:
    """The name of a member the bot never saw (no name stored)."""
    # TRANSLATORS: a member whose name is unknown; {id} is their Discord id.
    return say("player {id}", id=user_id)


def deleted_member() -> Phrase:
    """A player who had the bot delete their data (/schotten privacy)."""
    # TRANSLATORS: shown instead of the name of a player who had their data deleted.
    return say("deleted member")


def shown_name(name: str | None, user_id: int) -> str | Phrase:
    """A player's name as stored: '' for a deleted member, None for one never seen."""
    if name is None:
        return player_name(user_id)
    return name or deleted_member()


# Buttons that sentences name ("use **Show my hand**"): the button and the sentence take
# the label from here, so that in every language the words match what the member sees.
SHOW_HAND_BUTTON = say_in("button", "Show my hand")
JOIN_BUTTON = say_in("tournament button", "Join")
REMATCH_BUTTON = say_in("button", "Rematch")
ACCEPT_BUTTON = say_in("challenge button", "Accept")
DECLINE_BUTTON = say_in("challenge button", "Decline")
# The hand's button that shows or hides the cards its player has not seen (issue 29).
SHOW_UNSEEN_BUTTON = say_in("button", "Unseen cards")
HIDE_UNSEEN_BUTTON = say_in("button", "Hide unseen cards")
BUTTONS = (SHOW_HAND_BUTTON, JOIN_BUTTON, REMATCH_BUTTON, ACCEPT_BUTTON, DECLINE_BUTTON)
