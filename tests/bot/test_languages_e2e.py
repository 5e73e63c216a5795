"""End to end in French and German: a French member and a German member play each other
through the real discord.py client and the emulator, from the challenge to the leaderboard.
Each reads their own language in private (replies, DMs, hand pictures) and the server's
language in public, and no text of the game falls back to English."""

import asyncio
import random

import pytest

from bot.sandbox import SimPlayer, button_of, play_to_the_end, running_bot, wait_for_game
from engine.api import new_match
from lang import catalogs
from render import render_board, render_turn
from tests.bot.words import assert_in


def command_names(emu, guild, locale):
    """The names a client in `locale` shows for /schotten's subcommands and their options,
    as the bot registered them (English name -> localised name)."""
    (schotten,) = [c for c in emu.commands() if c.name == "schotten"]
    names = {}

    def walk(options):
        for o in options or []:
            names.setdefault(o["name"], (o.get("name_localizations") or {}).get(locale))
            walk(o.get("options"))

    walk(schotten.payload.get("options"))
    return names


@pytest.mark.parametrize("server", ["fr", "de"])
async def test_a_french_and_a_german_member_play_without_english(tmp_path, server):
    from discord_loopback import Emulator

    catalogs.MISSES.clear()
    async with Emulator() as emu, emu.point_discord():
        guild = emu.create_guild("Le Château", locale=server)
        amelie = guild.add_member("Amélie", locale="fr")
        bernd = guild.add_member("Bernd", locale="de")
        channel = guild.default_channel
        async with running_bot(emu, tmp_path / "bot.sqlite3", seed=11) as bot:
            fr_names = command_names(emu, guild, "fr")
            de_names = command_names(emu, guild, "de")
            # Every subcommand and option has its French and German name.
            assert all(fr_names.values()) and all(de_names.values())
            assert fr_names["challenge"] != "challenge"
            assert de_names["challenge"] != "challenge"

            # Amélie challenges in French words: /schotten défier adversaire:@Bernd ...
            handle = await amelie.slash(
                ("schotten", fr_names["challenge"]),
                where=channel,
                options={fr_names["opponent"]: bernd, fr_names["game"]: "tactics"},
            )
            challenge = await handle.reply(timeout=15)
            assert not challenge.ephemeral
            # The chat shows the command as her client does: in French, the game by its name.
            summary = handle.record.summary
            assert summary.startswith(f"/schotten {fr_names['challenge']} {fr_names['opponent']}:")
            assert "tactics" not in summary and "Schotten Totten" in summary, summary
            accept = await bernd.click(challenge, button_of(challenge, "sch:a:"))
            await accept.ack(timeout=15)
            info = await wait_for_game(bot, guild.id, amelie.id)
            players = {
                amelie.id: SimPlayer(amelie, random.Random(1), typed_as_shown=True),
                bernd.id: SimPlayer(bernd, random.Random(2), typed_as_shown=True),
            }
            final = await play_to_the_end(bot, emu, players, info.id)
            assert final.is_over

            # The move suggestions read in each member's words, and typed back they work.
            # (Both typed what they read; the game got to its end.)
            moves = [r["text"] for r in await bot.service.store.moves(info.id)]
            assert any(m.startswith(("draw", "claim")) for m in moves)

            # Looking back: the leaderboard and stats, asked in each member's words.
            for member, names in ((amelie, fr_names), (bernd, de_names)):
                handle = await member.slash(("schotten", names["leaderboard"]), where=channel)
                await handle.reply(timeout=15)
                handle = await member.slash(("schotten", names["stats"]), where=channel)
                await handle.reply(timeout=15)
                handle = await member.slash(("schotten", names["rules"]), where=channel)
                await handle.reply(timeout=15)
            await asyncio.sleep(0.3)

            # Every message each member read: public ones in the server's language, private
            # ones (ephemeral replies, DMs) in their own.
            seen = 0
            for ch in [*guild.channels.values()]:
                for message in ch.messages:
                    if message.author.id != emu.bot.id:
                        continue
                    if message.visible_to is None:
                        assert_in(server, message, f"public #{ch.name}")
                    else:
                        who = message.visible_to.id
                        assert_in("fr" if who == amelie.id else "de", message, "ephemeral")
                    seen += 1
            for member, language in ((amelie, "fr"), (bernd, "de")):
                for message in member.dms:
                    assert_in(language, message, f"DM to {member.name}")
                    seen += 1
            assert seen > 40

            # No text of the game fell back to English.
            missed = {k: v for k, v in catalogs.MISSES.items() if k[0] in ("fr", "de")}
            assert missed == {}

            # The pictures too: the final board in the server's language, and every hand
            # Bernd was sent by DM in German, as it was at its position.
            names = tuple(final.names)
            boards = [
                m
                for m in _threads(guild) + channel.public_history()
                if any(a.filename.startswith("board-") for a in m.attachments)
            ]
            final_board = max(boards, key=lambda m: m.id).attachment_bytes()[0]
            view = final.match.view(None)
            assert final_board == render_board(view, names=names, locale=server)
            assert final_board != render_board(view, names=names, locale="en")
            seat = final.seat_of(bernd.id)
            log = [(int(r["seat"]), r["text"]) for r in await bot.service.store.moves(info.id)]
            hands = [m for m in bernd.dms if m.attachments]
            assert hands
            for message in hands[-3:]:
                version = int(message.attachments[0].filename.split("-")[2].split(".")[0])
                match = new_match(final.spec, final.seed)
                for mover, text in log[:version]:
                    match.apply(match.parse_move(text, mover), mover)
                mine = match.view(seat)  # the hand's picture: the board and that hand
                german = render_turn(mine, names=names, name=names[seat], locale="de")
                assert message.attachment_bytes()[0] == german
                assert german != render_turn(mine, names=names, name=names[seat], locale="en")


def _threads(guild):
    return [m for ch in guild.channels.values() if ch.is_thread for m in ch.public_history()]
