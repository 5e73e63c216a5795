"""The rules pages in French and German: every page translated, in Discord's limits, with the
notation (moves, card codes) and the markup of the English page, and the topics named as the
command's menu names them in the reader's language."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bot.front.rules import _SIEGE_WORDS as SIEGE_WORDS
from bot.front.rules import TOPICS, rules_topic
from bot.notation import canonical
from lang import pgettext, speaking
from lang.catalogs import MISSES

LANGUAGES = ("fr", "de")
# Card codes: ST1 R1..P9, ST2 R0..P11.
CARD = re.compile(r"\b[ROYGBP](?:1[01]|[0-9])\b")
BACKTICKED = re.compile(r"`[^`]+`")
OTHER_WORDS = (
    "The keywords also have French and German words: `revendiquer 4`, `beanspruchen 4`,"
    " `piocher tactique`, `rückzug 2 5`."
)


def page(topic: str | None, language: str) -> tuple[tuple[str, str], Counter]:
    """The page in `language`, and the catalog misses its lookup added."""
    before = Counter(MISSES)
    with speaking(language):
        out = rules_topic(topic)
    return out, Counter(MISSES) - before


def test_english_is_the_source():
    with speaking("en"):
        for topic, (title, body) in TOPICS.items():
            if topic == "overview":  # the list of topics follows the text
                body += "\nTopics: " + ", ".join(f"`{t}`" for t in TOPICS if t != topic) + "."
            if topic == "notation":  # the command, named where Discord shows a mention
                body = "Type moves with `/schotten move`.\n" + body + "\n" + OTHER_WORDS
            assert rules_topic(topic) == (title, body)


def without_topics(topic: str, text: str) -> str:
    """A page without the list of topics that ends the overview, nor the line naming the
    command that opens the notation page."""
    if topic == "notation":  # and the last line, on the other languages' words
        return text.partition("\n")[2].rpartition("\n")[0]
    return text.rpartition("\n")[0] if topic == "overview" else text


def menu_names(language: str) -> list[str]:
    """The topics as the `topic` option's menu names them in `language`."""
    with speaking(language):
        return [pgettext("choice", t) for t in TOPICS if t != "overview"]


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
    for en, text in ((en_title, title), (en_body, without_topics(topic, body))):
        # Move notation and card codes are what members type: never translated, but the
        # notation page's examples are in the reader's words, the same moves read back.
        if topic == "notation":
            examples = BACKTICKED.findall(en)
            shown = BACKTICKED.findall(text)
            assert len(shown) == len(examples)
            for example, local in zip(examples, shown, strict=True):
                game = "st2" if example.strip("`").split(" ")[0] in SIEGE_WORDS else "st1"
                assert canonical(local, game) == example, (local, example)
        else:
            assert Counter(BACKTICKED.findall(text)) == Counter(BACKTICKED.findall(en))
        assert Counter(CARD.findall(text)) == Counter(CARD.findall(en))
        # The same bold and italic spans, and the same lines.
        assert text.count("**") == en.count("**")
        assert text.replace("**", "").count("*") == en.replace("**", "").count("*")
        assert text.count("\n") == en.count("\n")


@pytest.mark.parametrize("language", LANGUAGES)
def test_overview_lists_every_topic_by_its_menu_name(language):
    (_, overview), misses = page(None, language)
    assert not misses, misses
    with speaking("en"):
        _, english = rules_topic(None)
    names = menu_names(language)
    assert len(set(names)) == len(TOPICS) - 1
    topics_line = overview.rsplit("\n", 1)[1]
    assert topics_line.count("`") == 2 * len(names)
    for name in names:
        assert f"`{name}`" in topics_line, name
    # Translated names (most differ from English): the menu and the page agree.
    assert sum(f"`{name}`" not in english for name in names) >= len(names) // 2


@pytest.mark.parametrize("language", LANGUAGES)
def test_unknown_topic_is_answered_in_the_language(language):
    with speaking("en"):
        en = rules_topic("nowhere")
    (title, body), misses = page("nowhere", language)
    assert not misses, misses
    assert title != en[0] and body != en[1]
    assert "'nowhere'" in body
    assert all(f"`{name}`" in body for name in menu_names(language))
