"""Commands named in messages as the reader's Discord shows them. Every client shows a
command mention (`</schotten move:ID>`, the ids the sync returned) with the command's
default, English names (behaviour `default_command_names`), so English readers get
clickable mentions and French or German readers the names their own client lists, as text
(`/schotten jouer`); options named beside them, or alone, by their names in the reader's
language; and until the ids are known, the command as text. The loopback's rendering of
each message, as its reader's client shows it, is the judge."""

from __future__ import annotations

import random
import re

import pytest

from bot.sandbox import SimPlayer, button_of, play_to_the_end, running_bot, wait_for_game
from engine.phrases import from_json, say, to_json
from lang import command, localise, mention, option, speaking
from lang.mentions import COMMAND, drop_mentions, use_mentions

# Discord's mention of a (sub)command.
MENTION = re.compile(r"</(schotten(?:-admin)?(?: [-_\w]+){1,2}):([0-9]+)>")


@pytest.fixture
def ids():
    """Mentions for every command, as if the bot had synced (one fake id)."""

    def mentions(name: str) -> str | None:
        return f"</{name}:4242>" if name.startswith("schotten") else None

    use_mentions(mentions)
    yield mentions
    drop_mentions(mentions)


def test_a_command_is_text_until_its_id_is_known():
    for language, shown in (
        ("en", "`/schotten history game_id:N`"),
        ("fr", "`/schotten historique partie:N`"),
        ("de", "`/schotten verlauf partienummer:N`"),
    ):
        assert localise(command("history", game_id="N"), language) == shown
    assert str(command("move")) == "`/schotten move`"  # the English text, for logs
    # The managers' command, named by its own top-level name.
    admin = command("/schotten-admin settings", public_analysis="True")
    assert localise(admin, "fr") == "`/schotten-admin réglages analyse_publique:True`"


def test_a_known_command_is_a_mention_for_english_readers_only(ids):
    assert localise(command("move"), "en") == "</schotten move:4242>"
    assert localise(command("history", game_id="N"), "en") == "</schotten history:4242> `game_id:N`"
    # A mention would show its English names to them: their client's names, as text.
    assert localise(command("tournament join"), "fr") == "`/schotten tournoi rejoindre`"
    start = command("/schotten-admin tournament start")
    assert localise(start, "fr") == "`/schotten-admin tournoi lancer`"
    assert localise(command("history", game_id="N"), "fr") == "`/schotten historique partie:N`"
    with speaking("de"):
        assert mention("/schotten-admin settings", public_analysis="True") == (
            "`/schotten-admin einstellungen öffentliche_analyse:True`"
        )


def test_an_option_named_alone_is_in_the_readers_words():
    assert localise(option("rounds", 2), "en") == "`rounds:2`"
    assert localise(option("rounds", 2), "fr") == "`manches:2`"
    assert localise(option("rounds_of_match", 1), "de") == "`runden_pro_partie:1`"
    # The tournament's rounds are French "rondes", not a match's "manches".
    assert localise(option("rounds", meaning="tournament"), "fr") == "`rondes`"


def test_a_sentence_names_the_command_in_every_language_english_too(ids):
    refusal = say(
        "Only the clock ends a game on time. To give up, use {resign} (or type `resign`),"
        " which asks you to confirm first.",
        resign=command("resign"),
    )
    assert "`/schotten resign`" in refusal  # its English text, before anyone reads it
    text = localise(refusal, "en")
    assert "</schotten resign:4242>" in text and "`/schotten" not in text, text
    for language, name in (("fr", "abandonner"), ("de", "aufgeben")):
        text = localise(refusal, language)
        assert f"`/schotten {name}`" in text and "</" not in text, text
    # Stored (the outbox) and read back, it is still a command.
    again = from_json(to_json(refusal))
    assert again.values["resign"].context == COMMAND
    assert "`/schotten aufgeben`" in localise(again, "de")
    assert "</schotten resign:4242>" in localise(again, "en")


def plain_commands(text: str) -> list[str]:
    """Commands named as text rather than as mentions."""
    return re.findall(r"/schotten\b[^`>]*", MENTION.sub(" ", text))


# A command named as a client shows it: /schotten (or /schotten-admin) and its names.
SHOWN = re.compile(r"/(schotten(?:-admin)?)((?: [-_\w]+){1,2})")


def english_only_names(emu, language: str) -> set[str]:
    """The subcommand names of the bot's commands whose `language` name differs: a reader in
    that language who sees one of these sees a name their own client does not list."""
    found: set[str] = set()

    def walk(options) -> None:
        for o in options or []:
            if o.get("type") in (1, 2):
                local = (o.get("name_localizations") or {}).get(language)
                if local and local != o["name"]:
                    found.add(o["name"])
                walk(o.get("options"))

    for registered in emu.commands():
        walk(registered.payload.get("options"))
    return found


def as_shown(emu, text: str, locale: str) -> str:
    """`text` as a client in `locale` shows it (the loopback's rendering of mentions)."""
    return MENTION_ANY.sub(lambda m: emu.world.commands.mention_text(m.group(0), locale), text)


MENTION_ANY = re.compile(r"</[-_\w]+(?: [-_\w]+){0,2}:[0-9]+>")


def texts(message) -> list[str]:
    return [message.content, message.embed_text(), *message.revisions]


@pytest.mark.parametrize("language", ["en", "fr", "de"])
async def test_the_bot_names_its_commands_as_mentions(tmp_path, language):
    from discord_loopback import Emulator

    async with Emulator() as emu, emu.point_discord():
        guild = emu.create_guild("Server", locale=language)
        alice = guild.add_member("Alice", locale=language)
        bob = guild.add_member("Bob", locale=language)
        channel = guild.default_channel
        async with running_bot(emu, tmp_path / "bot.sqlite3", seed=5) as bot:
            (schotten,) = [c for c in emu.commands() if c.name == "schotten"]
            (admin,) = [c for c in emu.commands() if c.name == "schotten-admin"]
            # The ids came back from the sync, as Discord's do: one per command.
            assert bot.mentions("schotten move") == f"</schotten move:{schotten.id}>"
            assert bot.mentions("schotten-admin tournament start") == (
                f"</schotten-admin tournament start:{admin.id}>"
            )

            english = language == "en"
            # No game here yet: the refusal points to /schotten challenge.
            handle = await alice.slash(("schotten", "hand"), where=channel)
            refusal = await handle.reply(timeout=15)
            challenge_named = {"en": f"</schotten challenge:{schotten.id}>"}
            challenge_named |= {"fr": "`/schotten défier`", "de": "`/schotten herausfordern`"}
            assert challenge_named[language] in refusal.content

            handle = await alice.slash(
                ("schotten", "challenge"), where=channel, options={"opponent": bob}
            )
            challenge = await handle.reply(timeout=15)
            accept_named = {"en": f"</schotten accept:{schotten.id}>"}
            accept_named |= {"fr": "`/schotten accepter`", "de": "`/schotten annehmen`"}
            assert accept_named[language] in challenge.content
            accept = await bob.click(challenge, button_of(challenge, "sch:a:"))
            await accept.ack(timeout=15)
            info = await wait_for_game(bot, guild.id, alice.id)
            players = {
                alice.id: SimPlayer(alice, random.Random(1), clicks=0.5),
                bob.id: SimPlayer(bob, random.Random(2), clicks=0.5),
            }
            await play_to_the_end(bot, emu, players, info.id)

            # The history names the export command with its option in the server's words.
            handle = await alice.slash(("schotten", "history"), where=channel)
            history = await handle.reply(timeout=15)
            history_named = {
                "en": f"</schotten history:{schotten.id}> `game_id:N`",
                "fr": "`/schotten historique partie:N`",
                "de": "`/schotten verlauf partienummer:N`",
            }
            assert history_named[language] in history.embed_text()

            # Every message the members read names commands as their client shows them:
            # English readers get mentions, never text; French and German readers, as the
            # loopback renders their messages, never a name their client does not list.
            named = 0
            english_names = english_only_names(emu, language)
            messages = [m for ch in guild.channels.values() for m in ch.messages]
            messages += alice.dms + bob.dms
            for message in messages:
                if message.author.id != emu.bot.id:
                    continue
                for text in texts(message):
                    if english:
                        assert not plain_commands(text), text
                        for name, command_id in MENTION.findall(text):
                            top = admin if name.startswith("schotten-admin") else schotten
                            assert int(command_id) == top.id
                            named += 1
                        continue
                    for _, words in SHOWN.findall(as_shown(emu, text, language)):
                        assert not set(words.split()) & english_names, (words, text)
                        named += 1
            assert named >= 4  # the refusal, the challenge, the hands' "type /schotten move"


async def test_the_chat_shows_a_french_reader_the_french_command_name(tmp_path):
    """The printed chat (the loopback's rendering): `/schotten défier`, as text, since a
    mention would show `/schotten challenge` to a French reader too."""
    from discord_loopback import Emulator

    async with Emulator() as emu, emu.point_discord():
        guild = emu.create_guild("Serveur", locale="fr")
        alice = guild.add_member("Alice", locale="fr")
        lines: list[str] = []
        emu.print_chat(lines.append)
        async with running_bot(emu, tmp_path / "bot.sqlite3") as bot:
            handle = await alice.slash(("schotten", "hand"), where=guild.default_channel)
            refusal = await handle.reply(timeout=15)
            assert bot.mentions("schotten challenge") not in refusal.content
    shown = [line for line in lines if "Aucune partie" in line]
    assert shown and "/schotten défier" in shown[-1] and "challenge" not in shown[-1], shown


async def test_a_process_that_does_not_sync_asks_discord_for_the_ids(tmp_path):
    """Only the process with shard 0 syncs; one running other shards reads the ids."""
    import asyncio

    from bot.config import Config
    from bot.front.client import SchottenBot
    from discord_loopback import Emulator

    async with Emulator() as emu, emu.point_discord():
        emu.create_guild("Zero", shard=(0, 2))
        emu.create_guild("One", shard=(1, 2))
        async with running_bot(emu, tmp_path / "a.sqlite3") as syncing:
            known = syncing.mentions("schotten-admin tournament start")
            assert known is not None
        config = Config(database=tmp_path / "b.sqlite3", shards=(1, 1), shard_count=2)
        other = SchottenBot(config, guild_ready_timeout=0.1)
        runner = asyncio.create_task(other.start(emu.token))
        try:
            await emu.wait_for_bot(shards=[1])
            await other.wait_until_ready()
            assert other.mentions("schotten-admin tournament start") == known
            assert localise(command("/schotten-admin tournament start"), "en") == known
        finally:
            await other.close()
            await runner
        assert localise(command("move"), "en") == "`/schotten move`"  # closed: text again
