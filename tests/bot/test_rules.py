"""The rules pages: each fact a new player needs is on its page, in Discord's limits."""

from __future__ import annotations

import pytest

from bot.front.rules import TOPICS, rules_topic

FACTS = {
    "match": ["winner scores 5", "1 per stone", "previous round's winner starts", "last round"],
    "revenge": ["roles swapped", "more cards in the deck", "intact tiles plus unused cauldrons"],
    "tiles": ["2 cards", "4 cards", "same strength and sum", "lower sum", "completed first"],
    "claims": [
        "after playing your card and before drawing",
        "completed first",
        "your own hand included",
        "Unplayed tactic cards are ignored by the proof",
    ],
    "siege": [
        "The Attacker starts",
        "once per turn",
        "complete formation",
        "completed first",
        "ignores the 0/11",
    ],
    "tactics": ["value 1 to 9", "pass", "whole hand"],
    "siege-tactics": ["value 0 to 11", "beside their player", "at least two"],
    "notation": ["no orange"],
    "formations": ["Same strength"],
}


@pytest.mark.parametrize("topic", sorted(FACTS))
def test_each_page_holds_its_facts(topic):
    _, text = rules_topic(topic)
    for fact in FACTS[topic]:
        assert fact in text, (topic, fact)


def test_no_page_says_pair_and_all_fit_an_embed():
    for topic in TOPICS:
        title, text = rules_topic(topic)
        assert "pair" not in text.lower(), topic
        assert len(title) <= 256 and len(text) <= 4096 and len(title) + len(text) <= 6000
    _, overview = rules_topic(None)
    for topic in TOPICS:
        if topic != "overview":
            assert f"`{topic}`" in overview, topic
