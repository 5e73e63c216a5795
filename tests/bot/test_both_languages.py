"""The French and German review of November 2026, "Both languages" (shared/reviews/
french-german-2026-11.md): what read wrong in either language, and in English too where the
same words were used. Each test names the line it answers."""

import random
import re

import pytest

from bot.front.commands import _history_line
from bot.front.my_games import _summary
from bot.my_games import MyGames
from bot.records import GameSummary
from bot.wording import computer_name, the_computer
from engine.api import MatchSpec, replay_match
from engine.events import GameEnded, Resigned
from engine.outcome import Outcome, Termination
from lang import localise, speaking
from render.st2_board import _flip_side
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD
from tests.bot.test_service import play_random


def test_a_pending_challenge_is_not_counted_as_an_open_one():
    # "1 défi ouvert": "open" is the word for a challenge anyone may take.
    listed = MyGames(entries=[], mine=0, theirs=0, challenges=1)
    said = {}
    for language in ("en", "fr", "de"):
        with speaking(language):
            said[language] = _summary(listed)
    assert said == {
        "en": "1 challenge pending",
        "fr": "1 défi en attente",
        "de": "1 ausstehende Herausforderung",
    }
    with speaking("fr"):
        assert _summary(MyGames(entries=[], mine=0, theirs=0, challenges=2)) == (
            "2 défis en attente"
        )


def test_the_history_embed_dates_a_game_in_the_readers_client():
    # "2026-11-28": Discord's timestamp markup, which each client shows in its own locale.
    game = GameSummary(7, "classic", "Schotten Totten", BOB.id, "Bob", "win", "RESIGNED", 1e9, True)
    for language in ("en", "fr", "de"):
        with speaking(language):
            line = _history_line(game)
        assert "<t:1000000000:d>" in line and "2001-09-09" not in line, line


@pytest.mark.parametrize(
    ("language", "mine", "theirs"),
    [
        (
            "en",
            ["You resigned.", "Alice wins the game."],
            ["Bob resigned.", "Alice wins the game."],
        ),
        (
            "fr",
            ["Vous avez abandonné.", "Alice gagne la partie."],
            ["Bob a abandonné.", "Alice gagne la partie."],
        ),
        (
            "de",
            ["Du hast aufgegeben.", "Alice gewinnt die Partie."],
            ["Bob hat aufgegeben.", "Alice gewinnt die Partie."],
        ),
    ],
)
def test_a_resignation_is_said_once(language, mine, theirs):
    names = ("Alice", "Bob")
    events = [Resigned(1), GameEnded(Outcome(0, Termination.RESIGNED))]
    assert [localise(e.describe(names, you=1), language) for e in events] == mine
    assert [localise(e.describe(names), language) for e in events] == theirs


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_computer_is_named_the_same_way_everywhere(language):
    # "Ordinateur (facile) a joué" but "défie l'ordinateur (facile)": a name, without article
    # (lang/GLOSSARY.md), in every sentence.
    for level in ("easy", "normal", "hard"):
        assert localise(the_computer(level), language) == localise(computer_name(level), language)


@pytest.mark.parametrize(
    ("language", "tactic", "clan"),
    [
        ("en", "Where do you put **the Spy**?", "Where does **B4** go?"),
        ("fr", "Où placez-vous **l'Espion** ?", "Où va **B4** ?"),
        ("de", "Wohin legst du **den Spion**?", "Wohin kommt **B4**?"),
    ],
)
def test_a_tactic_card_to_place_has_its_article(language, tactic, clan):
    from bot.front.controls import _placement_prompt  # (new: imported here, so that the
    # file's other tests ran on the code before it)

    with speaking(language):
        assert _placement_prompt("spy") == tactic
        assert _placement_prompt("B4") == clan


@pytest.mark.parametrize(
    ("language", "move", "shown"),
    [
        ("fr", "spy 5", "Espion 5"),
        ("de", "shield 7", "Schild 7"),
        ("de", "joker blind mud", "Joker Blinde Kuh Schlammschlacht"),
        ("de", "claim 4", "beanspruchen 4"),
        ("en", "mud 4", "Mud Fight 4"),
        ("fr", "R7 3", "R7 3"),
    ],
)
def test_analyses_name_tactic_cards_by_their_printed_names(language, move, shown):
    # "Mieux : **espion 5**", "joker blindekuh schlamm": the typed word stood in for the card.
    from bot.notation import in_words

    game = "st2" if move.startswith("shield") else "st1"
    assert in_words(move, game, language) == shown


@pytest.mark.parametrize(
    ("language", "lower", "same"),
    [
        ("en", "then 4 · lower sum", "then 2 · same strength"),
        ("fr", "puis 4 · plus petite somme", "puis 2 · même force"),
        ("de", "dann 4 · niedrigere Summe", "dann 2 · gleiche Stärke"),
    ],
)
def test_a_tiles_damaged_side_says_what_wins_there(language, lower, same):
    # "puis 4 · plus petite" (smaller than what?), "puis 2 · paire" where the rules say
    # "même force".
    with speaking(language):
        assert _flip_side(4) == lower
        assert _flip_side(2) == same


# The game record ------------------------------------------------------------------------------


async def _finished(service, variant: str):
    ch = await service.challenge(GUILD, CHANNEL, ALICE, BOB, MatchSpec(variant))
    info = await service.accept(ch.id, BOB.id)
    await play_random(service, info.id, random.Random(4), until_over=False, moves=40)
    await service.resign(info.id, BOB.id)
    return await service.match(info.id)


def _reading_part(record: str) -> str:
    """The record above its replay block (the part written for people)."""
    return record.split("```", 1)[0]


@pytest.mark.parametrize(
    ("language", "first", "words"),
    [
        ("fr", "Joue en premier : ", ("a pioché une carte", "a abandonné", "gagne la partie.")),
        ("de", "Beginnt: ", ("hat eine", "hat aufgegeben", "gewinnt die Partie.")),
    ],
)
async def test_the_game_record_reads_in_the_readers_language(service, language, first, words):
    # `Options : {"first": null …}`, `Seed:`, `Bob: draw tactic`, "Place 1 : Alice".
    info = await _finished(service, "tactics")
    with speaking(language):
        record = await service.export(info.id)
    reading = _reading_part(record)
    for english in ('{"', "Seed", "draw tactic", "draw clan", "Place 1", "Platz 1", ": resign"):
        assert english not in reading, (english, reading)
    starter = replay_match(info.spec, info.seed, []).to_decide
    assert f"{first}{info.names[starter]}" in reading, reading
    assert all(word in reading for word in words), reading
    # Every move is there, in the order played, numbered.
    assert f"{len(info.match.log):4d}. " in reading


@pytest.mark.parametrize("variant", ["tactics", "siege-tactics"])
async def test_a_finished_games_record_still_replays(service, variant):
    from bot.history import read_replay

    info = await _finished(service, variant)
    for language in ("en", "fr", "de"):
        with speaking(language):
            record = await service.export(info.id)
        spec, seed, log = read_replay(record)
        assert (spec, seed, log) == (info.spec, info.seed, info.match.log)
        assert replay_match(spec, seed, log).to_json() == info.match.to_json()


async def test_a_running_games_record_has_no_replay_block(service):
    ch = await service.challenge(GUILD, CHANNEL, ALICE, BOB, MatchSpec("tactics"))
    info = await service.accept(ch.id, BOB.id)
    await play_random(service, info.id, random.Random(4), until_over=False, moves=10)
    info = await service.match(info.id)
    record = await service.export(info.id)
    from bot.history import read_replay

    assert "```" not in record and str(info.seed) not in record
    with pytest.raises(ValueError):
        read_replay(record)
    assert re.search(r"^ +1\. \w+ played ", record, re.M), record


@pytest.mark.parametrize(
    ("language", "named"),
    [("en", "</schotten move:4242>"), ("fr", "`/schotten jouer`"), ("de", "`/schotten zug`")],
)
def test_the_rules_page_on_notation_names_the_command_as_the_readers_client_does(language, named):
    # "</schotten move:ID>" showed Discord's English names in every client (Rules › notation;
    # already answered by lang.mentions: kept here with the review's other lines).
    from bot.front.rules import rules_topic
    from lang.mentions import use_mentions

    use_mentions(lambda qualified: f"</{qualified}:4242>")
    try:
        with speaking(language):
            _, page = rules_topic("notation")
    finally:
        use_mentions(None)
    assert named in page.splitlines()[0], page
    assert language == "en" or "</" not in page


@pytest.mark.parametrize(
    ("language", "none"),
    [("en", "no challenge pending"), ("fr", "aucun défi en attente"), ("de", "keine ausstehende")],
)
def test_an_empty_games_list_says_no_challenge_is_pending(language, none):
    from bot.front.my_games import games_embed

    for in_dm in (True, False):
        with speaking(language):
            embed, _ = games_embed(
                MyGames(entries=[], mine=0, theirs=0, challenges=0), 1, in_dm=in_dm
            )
        assert none in embed.description and "ouvert" not in embed.description, embed.description
        assert "offene" not in embed.description and "open" not in embed.description
