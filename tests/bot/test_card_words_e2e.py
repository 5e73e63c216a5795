"""Tactic cards in the member's words, read through the real discord.py client and the
emulator: the card menu names them as the French edition does (not `spy`), the prompt that
follows asks "Où placez-vous **l'Espion** ?", and the move is told to its player in the second
person. The menu and the hand picture agree on which cards can be played now."""

from __future__ import annotations

import json
import sqlite3

from bot.sandbox import button_of, running_bot, wait_for_announcements, wait_for_game
from engine.api import load_match
from engine.st1.position import parse_position
from render.hand import card_places
from render.theme import DEFAULT_THEME

from .test_languages_e2e import command_names

CODES = ("spy", "mud", "recruiter", "joker", "shield", "blind", "traitor")


def _set_position(database, match_id: int, position: str) -> None:
    """Put the game on a position (the test's set-up; the bot reads it afresh from the
    database at every click)."""
    with sqlite3.connect(database) as db:
        (state,) = db.execute("SELECT state FROM matches WHERE id = ?", (match_id,)).fetchone()
        match = load_match(json.loads(state))
        match.game = parse_position(position)
        db.execute(
            "UPDATE matches SET state = ? WHERE id = ?", (json.dumps(match.to_json()), match_id)
        )


def _labels(message) -> list[str]:
    out = []
    for c in message.all_components():
        out += [str(c.get("label", "")), str(c.get("placeholder", ""))]
        out += [str(o.get("label", "")) for o in c.get("options") or []]
    return [t for t in out if t]


async def test_a_french_member_reads_tactic_cards_in_french(tmp_path):
    from discord_loopback import Emulator

    database = tmp_path / "bot.sqlite3"
    async with Emulator() as emu, emu.point_discord():
        guild = emu.create_guild("Le Château", locale="fr")
        amelie = guild.add_member("Amélie", locale="fr")
        bruno = guild.add_member("Bruno", locale="fr")
        async with running_bot(emu, database, seed=5) as bot:
            names = command_names(emu, guild, "fr")
            handle = await amelie.slash(
                ("schotten", names["challenge"]),
                where=guild.default_channel,
                options={names["opponent"]: bruno, names["game"]: "tactics"},
            )
            challenge = await handle.reply(timeout=15)
            accept = await bruno.click(challenge, button_of(challenge, "sch:a:"))
            await accept.ack(timeout=15)
            info = await wait_for_game(bot, guild.id, amelie.id)
            await wait_for_announcements(bot, info.id)
            seat = info.to_decide
            member = amelie if info.players[seat] == amelie.id else bruno
            turn, other = ("P1", "P2") if seat == 0 else ("P2", "P1")
            # The player to move holds three tactic cards; neither has played one yet, so
            # all of them can be played now.
            _set_position(
                database,
                info.id,
                f"variant: tactics\nturn: {turn}\nhand {turn}: R7 spy mud recruiter B2\n"
                f"hand {other}: Y1 G3 traitor\nstone 1: R1 | G5\n",
            )
            channel = emu.world.channel(info.channel_id)
            board = next(
                m
                for m in reversed(channel.public_history())
                if any(str(b.get("custom_id", "")).startswith("sch:h:") for b in m.buttons())
            )
            hand = await member.click(board, button_of(board, "sch:h:"))
            reply = await hand.reply(timeout=15)
            labels = _labels(reply)
            menu = next(s for s in reply.selects() if str(s["custom_id"]).startswith("sch:c:"))
            shown = {o["value"]: o["label"] for o in menu["options"]}
            # French names, card notation of clan cards unchanged, no English code shown.
            assert shown == {
                "R7": "R7",
                "B2": "B2",
                "spy": "Espion",
                "mud": "Combat de Boue",
                "recruiter": "Chasseur de Tête",
            }, shown
            for label in labels:
                assert not any(code in label.split() for code in CODES), label
            # The hand picture raises the same cards the menu offers (the engine's view).
            info = await bot.service.match(info.id)
            view = info.match.view(seat)
            raised = {str(p.card) for p in card_places(view, DEFAULT_THEME) if p.raised}
            assert raised == {v for v in shown if not v.startswith("!")}

            # Choosing the Spy asks where it goes, by its French name with its article.
            step = await member.select(reply, menu["custom_id"], ["spy"])
            prompt = await step.update(timeout=15)
            assert "Où placez-vous **l'Espion** ?" in prompt.content, prompt.content
            stone = next(
                b["custom_id"] for b in prompt.buttons() if str(b["custom_id"]).endswith("spy 3")
            )
            played = await member.click(prompt, stone)
            await played.ack(timeout=15)
            told = await played.update(timeout=15)
            # Told to its player in the second person, with the card's article.
            texts = [told.content, *told.revisions]
            assert any("Vous avez joué l'Espion sur la Borne 3" in t for t in texts), texts
            # The canonical log stays English notation.
            moves = [r["text"] for r in await bot.service.store.moves(info.id)]
            assert moves[-1] == "spy 3"
