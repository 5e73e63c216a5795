"""The play flow speaks French and German: every sentence of the front is in the catalogs,
each reader gets their own language (the member, the DM's recipient, the server), and every
translated slash command name is one Discord accepts."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

import lang
from bot.front import texts
from bot.front.app import Front
from bot.front.controls import controls_view, step_view
from bot.front.picker import build_picker
from bot.front.relay import Relay
from bot.front.replies import SORRY
from bot.front.translator import NAME, CommandTranslator, translate
from bot.records import Announcement, MatchInfo, Reminder
from engine.api import MatchSpec
from lang.catalogs import MISSES
from langtools.tools import po_path, read

from .conftest import ALICE, BOB, CHANNEL, GUILD

TEMPLATES = Path(lang.__file__).parent / "templates"
LANGUAGES = ("fr", "de")


def _ids(domain: str) -> set[tuple[str | None, str]]:
    catalog = read(TEMPLATES / f"{domain}.pot")
    return {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in catalog if m.id}


FRONT = _ids("front")


def _front_misses(language: str) -> list[tuple[str | None, str]]:
    """The front's messages looked up in `language` without a translation."""
    return [(c, m) for (lg, c, m) in MISSES if lg == language and (c, m) in FRONT]


async def _game(service: Any, spec: MatchSpec | None = None) -> MatchInfo:
    challenge = await service.challenge(GUILD, CHANNEL, ALICE, BOB, spec or MatchSpec("tactics"))
    return await service.accept(challenge.id, BOB.id)


def _all_texts(info: MatchInfo) -> list[str]:
    seat = info.to_decide
    assert seat is not None
    challenge = SimpleNamespace(
        opponent=BOB,
        challenger=ALICE,
        expires_at=1_900_000_000.0,
        ai_level=None,
        describe=lambda: "Alice challenges Bob to Schotten Totten, Tactics",
        clock_hours=24.0,
    )
    out = [
        texts.turn_line(info),
        texts.board_caption(info, [texts.started(info)]),
        texts.hand_caption(info, seat),
        texts.hand_caption(info, 1 - seat),
        texts.hand_moved_on(info),
        texts.dm_failed(ALICE.id),
        texts.challenge_text(challenge),  # type: ignore[arg-type]
        texts.computer_game(challenge),  # type: ignore[arg-type]
        texts.accepted(challenge, "<#5>"),  # type: ignore[arg-type]
        texts.accepted(challenge),  # type: ignore[arg-type]
        texts.declined(challenge),  # type: ignore[arg-type]
        texts.expired(challenge),  # type: ignore[arg-type]
        texts.thread_name(challenge),  # type: ignore[arg-type]
        texts.reminder(Reminder(info.id, CHANNEL, ALICE.id, 25.0, 47.0)),
        texts.reminder(Reminder(info.id, CHANNEL, ALICE.id, 25.0, None)),
        lang._(SORRY),
    ]
    out += [texts.phase_words(p) for p in ("play", "claim", "draw", "prepare", "exchange")]
    return out


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_play_flow_texts_are_translated(service, language):
    info = await _game(service)
    english = _all_texts(info)
    MISSES.clear()
    with lang.speaking(language):
        translated = _all_texts(info)
    assert _front_misses(language) == []
    for en, other in zip(english, translated, strict=True):
        assert other and other != en, en
    # Markup and mentions survive translation.
    assert f"<@{ALICE.id}>" in translated[5]
    assert "<t:1900000000:R>" in translated[6]


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_move_is_told_to_its_mover_in_their_language(service, language):
    info = await _game(service)
    user = info.players[info.to_decide]
    play = next(str(m) for m in info.match.legal_moves() if str(m)[0] in "RBGYOP")
    result = await service.play(info.id, user, play)
    card, stone = play.split()
    assert texts.what_you_did(result) == f"You played {card} on stone {stone}."
    with lang.speaking(language):
        said = texts.what_you_did(result)
    # The engine's second-person sentence, said in the mover's language (the engine's
    # catalog translates it).
    (event,) = result.events
    phrase = event.describe(info.names, you=result.seat)
    assert isinstance(phrase, lang.Phrase)
    assert said == lang.localise(phrase, language) and card in said


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_revenge_line_and_ratings_speak_the_language(language):
    from engine.api import new_match

    names = ("Alice", "Bob")
    for seed in range(40):
        match = new_match(MatchSpec("siege", revenge=True), seed)
        while not match.results and not match.is_over:
            match.apply(match.legal_moves()[0], match.to_decide)
        if match.results and not match.is_over:
            break
    english = texts.revenge_line(match, names)
    assert english.startswith("To beat:")
    MISSES.clear()
    with lang.speaking(language):
        line = texts.revenge_line(match, names)
    assert line and line != english and "Alice" in line and "Bob" in line
    assert _front_misses(language) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_controls_are_labelled_in_the_members_language(language):
    legal = [
        "R7 3",
        "R7 5",
        "claim 4",
        "done",
        "draw tactic",
        "traitor 3:G5 6",
        "strategist 2:R1 discard",
        "retreat 2",
        "retreat 2 5",
    ]
    english = build_picker("st1", legal)
    MISSES.clear()
    with lang.speaking(language):
        picker = build_picker("st1", legal)
        view = controls_view(1, 1, "st1", legal, hand=["R7", "B2"], blocked={"B2": "full"})
        prompts = [
            step_view(1, 1, "st1", legal, ("card", "R7"))[0],
            step_view(1, 1, "st1", legal, ("family", "traitor"))[0],
            step_view(1, 1, "st1", legal, ("taking", "traitor 3:G5"))[0],
        ]
    assert _front_misses(language) == []
    assert picker.cards["R7"][0].label != english.cards["R7"][0].label
    assert [c.label for c in picker.words] != [c.label for c in english.words]
    assert view is not None
    labels = [
        getattr(i.item, "label", None) or getattr(i.item, "placeholder", "") for i in view.children
    ]
    assert all(label for label in labels)
    assert "R7" in prompts[0] and "3:G5" in prompts[2]


@pytest.mark.parametrize("language", LANGUAGES)
def test_translated_command_names_follow_discords_rules(language):
    catalog = read(po_path(language, "commands"), language)
    where = {
        "command name": Where.command_name,
        "option name": Where.parameter_name,
        "command description": Where.command_description,
        "option description": Where.parameter_description,
        "choice": Where.choice_name,
    }
    names = 0
    for m in catalog:
        if not m.id:
            continue
        assert m.string, (m.context, m.id)
        # "option name (tournament)": a name with a meaning of its own in one command.
        context, _, meaning = m.context.partition(" (")
        got = translate(m.id, where[context], language, meaning=meaning.rstrip(")") or None)
        if m.string == m.id:
            assert got is None  # the same word: Discord shows the English one
            continue
        assert got == m.string, (m.context, m.id, m.string)  # translate() refuses bad ones
        if context in ("command name", "option name"):
            names += 1
            assert NAME.match(got) and got == got.lower() and " " not in got
        else:
            assert len(got) <= 100
    assert names > 20
    assert translate("schotten", Where.group_name, language) is None  # the group keeps its name


async def test_the_tree_sends_french_and_german_names_discord_accepts():
    from bot.front.commands import SchottenCommands

    front = SimpleNamespace(service=None, tournaments=None)
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    tree.add_command(SchottenCommands(front))  # type: ignore[arg-type]
    translator = CommandTranslator()

    def check(options: list[dict[str, Any]]) -> None:
        for locale in ("fr", "de"):
            seen = [o.get("name_localizations", {}).get(locale, o["name"]) for o in options]
            assert len(seen) == len(set(seen)), seen  # siblings keep distinct names
        for o in options:
            for name in o.get("name_localizations", {}).values():
                assert NAME.match(name) and name == name.lower()
            check(o.get("options", []))

    payloads = [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]
    await client.close()
    (group,) = payloads
    assert "fr" not in group.get("name_localizations", {})  # /schotten stays /schotten
    assert group["options"]
    check(group["options"])
    move = next(o for o in group["options"] if o["name"] == "move")
    assert move["name_localizations"]["fr"] == "jouer"
    # Accents stay, as in `règles` and `réglages`: Discord takes lowercase letters of any script.
    privacy = next(o for o in group["options"] if o["name"] == "privacy")
    assert privacy["name_localizations"]["fr"] == "confidentialité"


# Who reads decides the language ------------------------------------------------------------


class _Sent:
    def __init__(self, channel_id: int = 0) -> None:
        self.id = channel_id
        self.messages: list[dict[str, Any]] = []

    async def send(self, content: str, **kwargs: Any) -> Any:
        self.messages.append({"content": content, **kwargs})
        return SimpleNamespace(id=len(self.messages))

    def get_partial_message(self, message_id: int) -> Any:
        return self


class _Client:
    def __init__(self, guild_locale: str = "en-US") -> None:
        self.dm = _Sent(500)  # a DM channel: opened once, then known by its id
        self.channel = _Sent()
        self.guild_locale = guild_locale

    def get_guild(self, guild_id: int) -> Any:
        return SimpleNamespace(preferred_locale=discord.Locale(self.guild_locale))

    async def create_dm(self, user: Any) -> _Sent:
        return self.dm

    def get_partial_messageable(self, channel_id: int, *, type: Any = None) -> _Sent:
        return self.dm if type == discord.ChannelType.private else self.channel


def _interaction(user_id: int, locale: str) -> Any:
    """A slash command in a server's channel, with what `Front.listen` reads of it."""
    return SimpleNamespace(
        locale=discord.Locale(locale),
        user=SimpleNamespace(id=user_id, bot=False),
        type=discord.InteractionType.application_command,
        app_permissions=discord.Permissions(view_channel=True, send_messages=True),
        channel=None,
        channel_id=CHANNEL,
        guild_id=GUILD,
        command=None,
    )


async def test_a_request_speaks_its_members_language_and_remembers_it(service):
    front = Front(_Client(), service)  # type: ignore[arg-type]
    with lang.speaking("en"):
        assert await front.listen(_interaction(ALICE.id, "fr")) == "fr"
        assert lang.current() == "fr"
    assert await front.wait_idle(5)  # stored beside the request, not before its answer
    assert await service.member_language(ALICE.id) == "fr"
    assert await front.member_language(BOB.id, GUILD) == "en"  # never seen: the server's


async def test_the_server_language_is_the_setting_else_the_servers_locale(service):
    front = Front(_Client("de"), service)  # type: ignore[arg-type]
    assert await front.server_language(GUILD) == "de"
    assert await front.server_language(None) == "en"
    await service.update_settings(GUILD, is_manager=True, language="fr")
    assert await front.server_language(GUILD) == "fr"


async def test_the_board_speaks_the_servers_language_and_the_hand_its_players(service):
    client = _Client("en-US")
    front = Front(client, service)  # type: ignore[arg-type]
    relay = Relay(front)
    await service.update_settings(GUILD, is_manager=True, language="fr")
    info = await _game(service)
    seat = info.to_decide
    user = info.players[seat]
    await service.remember_language(user, "de")
    board = Announcement(1, "board", "n1", 0, match=info, started=True)
    with lang.speaking("en"):
        await relay._board(info, board)
        await relay._hand(info, seat, "n2")
    caption = client.channel.messages[0]["content"]
    assert "La partie commence" in caption and "contre" in caption
    hand = client.dm.messages[0]
    assert "Deine Handkarten in Partie" in hand["content"] and "Du bist am Zug" in hand["content"]
    placeholders = [getattr(i.item, "placeholder", None) for i in hand["view"].children]
    assert "Karte spielen…" in placeholders
