"""The board and hand pictures drawn in worker processes (`[render] workers`) are the same
bytes as those drawn in threads, and a bot drawing in processes posts them."""

from __future__ import annotations

import dataclasses
import os
import random
import signal

import pytest

from bot.front.pictures import Painter, draw
from bot.records import MatchInfo
from bot.sandbox import running_bot
from engine.api import MatchSpec, new_match
from tests.bot.test_e2e import start_game


def mid_game(variant: str) -> MatchInfo:
    match = new_match(MatchSpec(variant), seed=11)
    rng = random.Random(4)
    for _ in range(15):
        match.apply(rng.choice(match.legal_moves()))
    spec = MatchSpec(variant)
    return MatchInfo(
        id=1,
        guild_id=1,
        channel_id=1,
        players=(1, 2),
        names=("Amélie", "Bob"),
        spec=spec,
        seed=11,
        version=15,
        status="active",
        match=match,
        created_at=0.0,
        due_since=0.0,
    )


@pytest.mark.parametrize("variant", ["classic", "siege-tactics"])
async def test_processes_draw_the_same_pictures_as_threads(variant):
    info = mid_game(variant)
    painter = Painter(workers=1)
    painter.start()
    try:
        for locale in ("en", "fr"):
            board = await painter.board(info, locale)
            assert board == draw(info.match, None, info.names, locale)
            for seat in (0, 1):
                hand = await painter.hand(info, seat, locale)
                assert hand == draw(info.match, seat, info.names, locale)
            assert board != draw(info.match, 0, info.names, locale)
    finally:
        painter.stop()


async def test_a_bot_drawing_in_processes_posts_its_board_and_hand(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db, render_workers=1) as bot:
        assert bot.front.painter.running
        info = await start_game(bot, emu, guild, alice, bob)  # waits for the board and hand
        board = f"board-{info.id}-0.png"
        posted = [a for m in emu.world.channel(info.channel_id).messages for a in m.attachments]
        assert any(a.filename == board and a.data.startswith(b"\x89PNG") for a in posted)
    assert not bot.front.painter.running  # stopped with the bot


async def test_a_picture_process_that_dies_is_started_again(caplog):
    """If the process drawing the pictures is killed (the machine's memory killer, an
    operator), the next picture starts another and is drawn all the same."""
    info = mid_game("classic")
    painter = Painter(workers=1)
    painter.start()
    try:
        expected = draw(info.match, None, info.names, "en")
        assert await painter.board(info, "en") == expected
        first = painter.pids()
        for pid in first:
            os.kill(pid, signal.SIGKILL)
        assert await painter.board(info, "en") == expected
        assert painter.restarts == 1
        assert await painter.hand(info, 1, "en") == draw(info.match, 1, info.names, "en")
        assert painter.restarts == 1  # the new process stays
        assert painter.pids() and not set(painter.pids()) & set(first)
        assert "starting another" in caplog.text
    finally:
        painter.stop()


def test_the_bot_draws_in_a_process_of_its_own_by_default():
    from bot.config import Config

    assert Config(database=":memory:").render_workers == 1


async def test_a_games_pictures_are_drawn_in_one_of_the_processes():
    """With two picture processes, each game's pictures go to one of them (where its
    board's rows are kept), and both are used."""
    painter = Painter(workers=2)
    painter.start()
    try:
        serving: dict[int, set[int]] = {}
        for game_id in (1, 2, 3, 4):
            info = dataclasses.replace(mid_game("classic"), id=game_id)
            for _ in range(2):
                assert await painter.board(info, "en") == draw(info.match, None, info.names, "en")
                pool = painter.pool_for(info)
                serving.setdefault(game_id, set()).add(pool.submit(os.getpid).result())
        assert all(len(pids) == 1 for pids in serving.values())
        assert set().union(*serving.values()) == set(painter.pids())
        assert len(painter.pids()) == 2
    finally:
        painter.stop()
