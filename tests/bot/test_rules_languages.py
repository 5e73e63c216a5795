"""The rules pages in French and German: every page translated, in Discord's limits, with the
notation (topic names, moves, card codes) and the markup of the English page."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bot.front.rules import TOPICS, rules_topic
from lang import speaking
from lang.catalogs import MISSES

LANGUAGES = ("fr", "de")
# Card codes: ST1 R1..P9, ST2 R0..P11.
CARD = re.compile(r"\b[ROYGBP](?:1[01]|[0-9])\b")
BACKTICKED = re.compile(r"`[^`]+`")


def page(topic: str | None, language: str) -> tuple[tuple[str, str], Counter]:
    """The page in `language`, and the catalog misses its lookup added."""
    before = Counter(MISSES)
    with speaking(language):
        out = rules_topic(topic)
    return out, Counter(MISSES) - before


def test_english_is_the_source():
    with speaking("en"):
        for topic, (title, body) in TOPICS.items():
            assert rules_topic(topic) == (title, body)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("topic", sorted(TOPICS))
def test_each_page_is_translated(topic, language):
    en_title, en_body = TOPICS[topic]
    (title, body), misses = page(topic, language)
    assert not misses, misses
    assert title != en_title and body != en_body


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("topic", sorted(TOPICS))
def test_each_page_fits_an_embed(topic, language):
    (title, body), _ = page(topic, language)
    assert 0 < len(title) <= 256 and 0 < len(body) <= 4096
    assert len(title) + len(body) <= 6000


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("topic", sorted(TOPICS))
def test_each_page_keeps_notation_and_markup(topic, language):
    en_title, en_body = TOPICS[topic]
    (title, body), _ = page(topic, language)
    for en, text in ((en_title, title), (en_body, body)):
        # Topic names, move notation and card codes are what members type: never translated.
        assert Counter(BACKTICKED.findall(text)) == Counter(BACKTICKED.findall(en))
        assert Counter(CARD.findall(text)) == Counter(CARD.findall(en))
        # The same bold and italic spans, and the same lines.
        assert text.count("**") == en.count("**")
        assert text.replace("**", "").count("*") == en.replace("**", "").count("*")
        assert text.count("\n") == en.count("\n")


@pytest.mark.parametrize("language", LANGUAGES)
def test_overview_lists_every_topic(language):
    (_, overview), _ = page(None, language)
    for topic in TOPICS:
        if topic != "overview":
            assert f"`{topic}`" in overview, topic


@pytest.mark.parametrize("language", LANGUAGES)
def test_unknown_topic_is_answered_in_the_language(language):
    with speaking("en"):
        en = rules_topic("nowhere")
    (title, body), misses = page("nowhere", language)
    assert not misses, misses
    assert title != en[0] and body != en[1]
    assert "'nowhere'" in body
    assert all(topic in body for topic in TOPICS)
