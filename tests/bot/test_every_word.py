"""Every word right in French and German (issue 28, "Done when"): two members of a French
(or German) server play a Tactics game and a Tactical siege to the end through the real
discord.py client and the emulator, and nothing they read, public or private, has an English
word, an English tactic card code or name, a command named in text rather than by a command
mention, or a word of the other language; no message fell back to English in the catalogs.
And `schotten-bot sandbox --tour` goes through every step, printing its chat, in German.

A failure lists every wrong word, grouped by kind and word, with the messages it is in
(`tests/bot/words.py`).
"""

import random
import re

import pytest

from bot.sandbox import SimPlayer, button_of, play_to_the_end, running_bot, wait_for_game
from bot.sandbox.tour import STEPS
from discord_loopback import Emulator
from lang import catalogs
from tests.bot.words import Problem, problems_of, report, texts_of

MEMBERS = {"fr": ("Amélie", "Benoît"), "de": ("Anke", "Bernd")}
GAMES = ("tactics", "siege-tactics")


def problems_in(emu, guild, members, language: str, names: tuple[str, ...]) -> list[Problem]:
    """Every wrong word in what the bot showed the server's members: public messages,
    ephemeral answers and DMs (all in `language`), and the names of the game threads."""
    found: list[Problem] = []
    for channel in guild.channels.values():
        where = f"#{channel.name}"
        if channel.is_thread:
            found += problems_of(language, [channel.name], f"thread name {where}", names)
        for message in channel.messages:
            if message.author.id != emu.bot.id:
                continue
            seen = "public" if message.visible_to is None else f"only {message.visible_to.name}"
            found += problems_of(language, texts_of(message), f"{where} ({seen})", names)
            found += cut_short(language, message, f"{where} ({seen})")
    for member in members:
        for message in member.dms:
            found += problems_of(language, texts_of(message), f"DM to {member.name}", names)
            found += cut_short(language, message, f"DM to {member.name}")
    return found


def cut_short(language: str, message, where: str) -> list[Problem]:
    """A text cut at Discord's 2,000 characters loses its last words (a long turn's board
    once lost the game's result that way)."""
    texts = [t for t in (*message.revisions, message.content) if len(t) >= 2000]
    return [Problem("text cut at 2,000 characters", language, where, t[-12:], t) for t in texts]


def misses(language: str) -> list[str]:
    """The catalog lookups in `language` that fell back to English."""
    return [
        f"{context + ': ' if context else ''}{message!r} ({count}×)"
        for (lang, context, message), count in catalogs.MISSES.items()
        if lang == language
    ]


# German plays only the siege here: the German tour below plays Tactics between two
# members already, and each game is most of a minute of the suite.
@pytest.mark.parametrize(("language", "games"), [("fr", GAMES), ("de", GAMES[1:])])
async def test_two_members_play_tactics_and_a_tactical_siege_without_a_word_of_english(
    tmp_path, language, games
):
    catalogs.MISSES.clear()
    names = MEMBERS[language]
    async with Emulator() as emu, emu.point_discord():
        guild = emu.create_guild("Schotten", locale=language)
        first = guild.add_member(names[0], locale=language)
        second = guild.add_member(names[1], locale=language)
        channel = guild.default_channel
        async with running_bot(emu, tmp_path / "bot.sqlite3", seed=28) as bot:
            for n, game in enumerate(games):
                handle = await first.slash(
                    ("schotten", "challenge"), where=channel, opponent=second, game=game
                )
                challenge = await handle.reply(timeout=15)
                accept = await second.click(challenge, button_of(challenge, "sch:a:"))
                await accept.ack(timeout=15)
                info = await wait_for_game(bot, guild.id, first.id)
                players = {
                    first.id: SimPlayer(first, random.Random(10 + n), typed_as_shown=True),
                    second.id: SimPlayer(second, random.Random(20 + n), typed_as_shown=True),
                }
                final = await play_to_the_end(bot, emu, players, info.id)
                assert final.is_over, game
        assert emu.refused_requests == [], [r.summary for r in emu.refused_requests]
        found = problems_in(emu, guild, (first, second), language, names)
    fell_back = misses(language)
    assert not found and not fell_back, (
        f"In {language}: {report(found)}\n"
        f"{len(fell_back)} messages fell back to English: {fell_back}"
    )


def test_the_word_checks_find_what_they_look_for():
    """The checks themselves: each kind of wrong word is found, and right texts pass."""
    names = ("Anke", "Bernd")
    wrong = {
        "fr": [
            ("Où va **blind** ?", "English card code", "blind"),
            ("Y7(spy) sur la Borne 3", "English card code", "spy"),
            ("recruiter (pas maintenant)", "English card code", "recruiter"),
            ("Tapez `/schotten move` pour jouer.", "English command", "/schotten move"),
            ("Tapez </schotten move:123> pour jouer.", "English command", "/schotten move"),
            ("En attente de the computer.", "English word", "the"),
            ("Computer (easy) réfléchit…", "English word", "easy"),
            ("Anke gegen Bernd", "other language", "gegen"),
        ],
        "de": [
            ("redeploy (nicht jetzt)", "English card code", "redeploy"),
            ("Anke spielt Shield-Bearer", "English card code", "shield"),
            ("Siehe /schotten history game_id:3", "English command", "/schotten history game_id"),
            ("Replay: 90 moves", "English word", "moves"),
        ],
    }
    for language, cases in wrong.items():
        for text, kind, word in cases:
            found = problems_of(language, [text], "test", names)
            assert any(p.kind == kind and p.word == word for p in found), (text, found)
    right = {
        "fr": [
            "Alice a joué la carte Joker sur la Borne 2 : suite Y4 R5(joker) B6.",
            "Tapez `/schotten jouer` ou `R7 3`, et <@42> <#7> <t:1:R>.",
            "Vous avez joué le Porte-Bouclier ; on attend la Banshee et l'Explosion.",
        ],
        "de": [
            "Anke hat in der Partie die Karte Joker gespielt: 3 Siege, Server, Thread.",
            "Nutze `/schotten zug` oder tippe `spion 3`.",
            "Gleicher Typ: die höhere Summe gewinnt. Analyse von Partie #1 in 12 Zügen.",
        ],
    }
    for language, texts in right.items():
        assert problems_of(language, texts, "test", names) == [], texts


async def test_the_sandbox_tour_goes_through_every_step_and_prints_its_chat(tmp_path, capsys):
    from bot.sandbox import run_sandbox

    out = tmp_path / "sandbox-out"
    async with Emulator() as emu, emu.point_discord():
        code = await run_sandbox("tactics", out, seed=3, language="de", tour=True, emulator=emu)
        guild = emu.guilds[0]
        members = [guild.member(n) for n in ("Alice", "Bob", "Carol")]
        problems = problems_in(emu, guild, members, "de", ("Alice", "Bob", "Carol"))
    printed = capsys.readouterr().out
    assert code == 0, printed[-2000:]
    # Each step under its heading, in order, each followed by its part of the chat.
    headings = [printed.index(f": {step} ==") for step in STEPS]
    assert headings == sorted(headings)
    parts = re.split(r"\n== Tour \d+/\d+: [a-z]+ ==\n", printed)
    assert len(parts) == len(STEPS) + 1
    assert all("Schotten Bot" in part for part in parts[1:])  # the bot answered each
    asked = {
        "stats": "rating-",
        "replay": "schotten-1-replay.gif",
        "analyse": "chances-1.png",
        "hint": "Schotten Bot → only @Alice",
        "tournament": "standings-1.png",
    }
    for step, seen in asked.items():
        assert seen in parts[STEPS.index(step) + 1], step
    assert f"Tour over: {len(STEPS)} of {len(STEPS)} steps done" in printed
    assert printed.rstrip().endswith("fit Discord's published API description.")
    # Every picture saved, in the folder named after the game, the language and the seed.
    (run,) = out.iterdir()
    assert run.name == "tactics-de-seed3"
    saved = [p.name for p in run.iterdir()]
    for kind in ("board-", "hand-", "rating-", "replay.gif", "chances-", "move-", "standings-"):
        assert any(kind in name for name in saved), kind
    # What the tour showed the German members reads in German.
    assert not problems, report(problems)
