"""Words a native reader expects, in the front, features, bot and commands catalogs: the
words that name a button are its label, French elides "de" before "Alice", English says
"1 player", German choice labels have their capitals, and no command is named as text."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from babel.messages.pofile import read_po

from bot.errors import Refused
from bot.front import texts as front_texts
from bot.front import tournaments
from bot.front.controls import (
    AcceptButton,
    DeclineButton,
    JoinTournamentButton,
    RematchButton,
    ShowHandButton,
)
from bot.tournament.service import Tournaments
from bot.wording import BUTTONS, JOIN_BUTTON, SHOW_HAND_BUTTON
from engine.phrases import say
from lang import _, fill, localise, message_of, speaking
from lang.grammar import elide, elides
from lang.grammar import fill as fill_in
from langtools.tools import DOMAINS, po_path, read, template_path
from tests.bot.conftest import ALICE, CHANNEL, GUILD
from tests.bot.test_features_languages import tournament

LANGUAGES = ("en", "fr", "de")
BOLD = re.compile(r"\*\*([^*]+)\*\*")


def button_labels(language: str) -> dict[str, str]:
    """The labels the buttons carry in `language`, as the controls build them."""
    with speaking(language):
        return {
            "show hand": ShowHandButton(1).item.label,
            "join": JoinTournamentButton(1).item.label,
            "rematch": RematchButton(1).item.label,
            "accept": AcceptButton(1).item.label,
            "decline": DeclineButton(1).item.label,
        }


# ---- words that must match a button ---------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_buttons_take_their_labels_from_the_shared_words(language):
    labels = button_labels(language)
    shared = {localise(b, language) for b in BUTTONS}
    assert set(labels.values()) == shared
    assert labels["show hand"] == localise(SHOW_HAND_BUTTON, language)
    assert labels["join"] == localise(JOIN_BUTTON, language)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_messages_name_a_button_by_its_label(language, service):
    labels = button_labels(language)
    with speaking(language):
        said = {
            "dm failed": front_texts.dm_failed(1),
            "sign-up": tournaments._sign_up("open"),
        }
    # The tournament service's refusal names the announcement's button too.
    desk = Tournaments(service)
    t = await desk.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        creator=ALICE,
        name="Friday",
        spec=tournament().spec,
        fmt="swiss",
        rounds=None,
        round_hours=None,
        is_manager=True,
    )
    with pytest.raises(Refused) as refused:
        await desk.start(t.id, ALICE.id, is_manager=True)
    with speaking(language):
        said["too few"] = message_of(refused.value)
    for what, text in said.items():
        bold = BOLD.findall(text)
        named = [b for b in bold if b in labels.values()]
        assert named, f"{what}: no button label in bold in {text!r} ({labels})"
    assert f"**{labels['show hand']}**" in said["dm failed"]
    assert f"**{labels['join']}**" in said["sign-up"] and f"**{labels['join']}**" in said["too few"]


def _english_labels() -> set[str]:
    return set(button_labels("en").values())


@pytest.mark.parametrize("domain", [d for d in DOMAINS if d != "commands"])
def test_no_message_writes_a_buttons_label_out(domain):
    """A sentence names a button through its label's placeholder (`**{button}**`), never by
    copying the words, which then drift ("Meine Hand zeigen" beside the button "Meine
    Handkarten zeigen"); and every translation keeps that placeholder in bold."""
    labels = _english_labels()
    template = read(template_path(domain))
    catalogs = {lang: read(po_path(lang, domain), lang) for lang in ("fr", "de")}
    for message in template:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for text in ids:
            copied = [b for b in BOLD.findall(text) if b in labels]
            assert not copied, f"{domain}: {text!r} writes out the label {copied}"
            placeholders = [b for b in BOLD.findall(text) if re.fullmatch(r"\{\w+\}", b)]
            for language, catalog in catalogs.items():
                found = catalog.get(message.id, context=message.context)
                strings = found.string if isinstance(found.string, tuple) else (found.string,)
                for s in strings:
                    for p in placeholders:
                        assert f"**{p}**" in s, f"{language}/{domain}: {s!r} lost **{p}**"


# ---- French elision -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "word", "written"),
    [
        ("de", "Alice", "d'"),
        ("de", "Hélène", "d'"),
        ("de", "Élodie", "d'"),
        ("de", "Bob", "de "),
        ("que", "Ingrid", "qu'"),
        ("que", "Bernd", "que "),
        ("De", "Olivier", "D'"),
        ("le", "Open", "l'"),
        ("la", "Amicale", "l'"),
        ("de", "O5", "de "),  # a card code, not a word
        ("de", "8", "de "),
        ("de", "<@42>", "de "),  # a mention: the client shows the name
        ("pour", "Alice", "pour "),  # nothing to elide
    ],
)
def test_elide(before, word, written):
    assert elide(before, word) == written


def test_elides_words_not_codes():
    assert elides("une") and elides("Yves") is False and elides("Hugo")
    assert not elides("") and not elides("A7") and not elides("1")


def test_fill_elides_in_french_only():
    template = "En attente de {player} ; ce que {player} voit."
    assert fill_in(template, "fr", player="Alice") == "En attente d'Alice ; ce qu'Alice voit."
    assert fill_in(template, "fr", player="Bob") == "En attente de Bob ; ce que Bob voit."
    assert fill_in("de {a} de {b}", "fr", a="Ana", b="Bo") == "d'Ana de Bo"
    assert fill_in("{n:>3} de {x}", "fr", n=7, x="Eve") == "  7 d'Eve"
    assert fill_in("Tag de {player}", "de", player="Alice") == "Tag de Alice"  # not French
    with speaking("fr"):
        assert fill("Le classement de {name}", name="Été 2026") == "Le classement d'Été 2026"


def test_french_sentences_elide_before_names():
    with speaking("fr"):
        assert fill(_("Waiting for {player}."), player="Alice") == "En attente d'Alice."
        assert fill(_("Waiting for {player}."), player="Bob") == "En attente de Bob."
    # A phrase of the services, said in French.
    owned = say("This game against the computer is {name}'s.", name="Ingrid")
    assert localise(owned, "fr") == "Cette partie contre l'ordinateur est celle d'Ingrid."
    assert localise(owned, "en") == "This game against the computer is Ingrid's."


# ---- English plurals ------------------------------------------------------------------------


def test_english_counts_players_and_rounds():
    with speaking("en"):
        assert tournaments.player_count(1) == "1 player"
        assert tournaments.player_count(5) == "5 players"
        assert tournaments.tournament_rounds(1) == "1 round"
        text = tournaments._kind(_with(tournament(), rounds=1))
        assert "1 round;" in text and "1 rounds" not in text
    with speaking("fr"):
        assert tournaments.tournament_rounds(1) == "1 ronde"
        assert tournaments.tournament_rounds(3) == "3 rondes"
        assert tournaments.player_count(0) == "0 joueur"


def _with(t, **changes):
    return replace(t, **changes)


def test_no_message_says_s_in_brackets():
    for domain in ("front", "features", "bot"):
        for message in read(template_path(domain)):
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            for text in ids:
                assert "(s)" not in text and "(es)" not in text, text


# ---- commands named, German capitals --------------------------------------------------------


@pytest.mark.parametrize("domain", ["front", "features", "bot", "rules"])
def test_no_message_names_a_command_as_text(domain):
    """Commands are named through `lang.command`, which becomes Discord's mention."""
    for message in read(template_path(domain)):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for text in ids:
            assert "/schotten" not in text, text


def test_german_choice_labels_start_with_a_capital():
    with po_path("de", "commands").open("rb") as f:
        catalog = read_po(f)
    labels = [m.string for m in catalog if m.context == "choice" and m.string]
    assert len(labels) > 20
    lower = [s for s in labels if s[:1].islower()]
    assert lower == []


# ---- the tournament's rounds, and ½ ---------------------------------------------------------


async def test_the_tournaments_rounds_are_rondes_beside_the_matchs_manches():
    import discord

    from bot.front.command_tree import command_tree
    from bot.front.translator import CommandTranslator

    client = discord.Client(intents=discord.Intents.none())
    tree = command_tree(client)
    payloads = {
        c.name: await c.get_translated_payload(tree, CommandTranslator())
        for c in tree.get_commands()
    }
    await client.close()

    def option(path: list[str]) -> dict:
        top = "schotten-admin" if path[:2] == ["tournament", "create"] else "schotten"
        options = payloads[top]["options"]
        for name in path[:-1]:
            options = next(o for o in options if o["name"] == name)["options"]
        return next(o for o in options if o["name"] == path[-1])

    def names(path: list[str]) -> dict:
        return option(path).get("name_localizations") or {}

    assert names(["challenge", "rounds"])["fr"] == "manches"
    assert names(["tournament", "create", "rounds"])["fr"] == "rondes"
    assert names(["tournament", "create", "rounds_of_match"])["fr"] == "manches_par_match"
    assert names(["tournament", "create", "round_hours"])["fr"] == "heures_par_ronde"
    assert names(["tournament", "pairings", "round"])["fr"] == "ronde"
    assert names(["tournament", "create", "rounds"])["de"] == "runden"


def test_a_drawn_pairing_scores_a_half_not_zero_and_a_half():
    from tests.bot.test_features_languages import pairing

    with speaking("en"):
        line = tournaments.pairing_line(tournament(), pairing(2, (0.5, 0.5), False), ping=False)
    assert "½–½" in line and "0½" not in line
