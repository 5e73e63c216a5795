"""The Recruiter draws three cards at once: its player reads "You drew 3 clan cards.", not
"You drew a clan card." three times over, in every language."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.front import texts
from engine.events import CardDrawn
from lang import speaking

SAID = {
    "en": ("You drew 2 clan cards.", "You drew a tactic card."),
    "fr": ("Vous avez pioché 2 cartes Clan.", "Vous avez pioché une carte Tactique."),
    "de": ("Du hast 2 Clankarten gezogen.", "Du hast eine Taktikkarte gezogen."),
}


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_cards_drawn_together_are_counted_once(language):
    draws = [CardDrawn(0, "clan"), CardDrawn(0, "clan"), CardDrawn(0, "tactic")]
    result = SimpleNamespace(info=SimpleNamespace(names=("Alice", "Bob")), seat=0, events=draws)
    with speaking(language):
        said = texts.what_you_did(result)  # type: ignore[arg-type]
    assert said == " ".join(SAID[language])
    # A single draw reads as before.
    result.events = [CardDrawn(0, "clan")]
    with speaking(language):
        assert texts.what_you_did(result).count(".") == 1  # type: ignore[arg-type]
