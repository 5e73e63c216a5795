"""Checks shared by the tests that crash, kill and restart bot processes: that what the
database holds was announced in the emulated chat exactly once, on either backend."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from bot.records import MatchInfo
from bot.sandbox import board_posts
from bot.service import GameService
from discord_loopback import Emulator, SimChannel, SimMember


async def settled(
    service: GameService,
    timeout: float = 20,
    *,
    alive: Callable[[], bool] = lambda: True,
    log: Callable[[], str] = lambda: "",
) -> None:
    """Until the outbox is empty (everything announced, or skipped as stale). `alive` says
    whether the bots that should announce still run; `log` what to show when they fail."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while await service.store.pending_announcements(float("inf")):
        if not alive() or loop.time() > deadline:
            rows = await service.store.pending_announcements(float("inf"))
            pending = [(r["id"], r["kind"], r["match_id"], r["version"]) for r in rows]
            raise AssertionError(f"announcements still pending: {pending}; the log:\n{log()}")
        await asyncio.sleep(0.05)


async def board_rows(service: GameService, match_id: int) -> list[Any]:
    """The match's board announcements in order: version, status, message, whether the
    board continues the turn of the one before (then it edits that message, or replaces
    it when `repost`), and whether it was held back (a member's turn going on)."""
    store = service.store
    flags = ", ".join(
        f"{store.json_bool('payload', key)} AS {key}" for key in ("continues", "repost", "held")
    )
    rows = await store._all(
        f"SELECT id, version, status, message_id, payload, {flags}"
        " FROM outbox WHERE match_id = ? AND kind = 'board' ORDER BY id",
        (match_id,),
    )
    return rows


async def check_everything_announced(
    emu: Emulator,
    service: GameService,
    channel: SimChannel,
    members: Mapping[int, SimMember],
    match_id: int,
) -> MatchInfo:
    """Every stored version's board was shown, in one message per turn: the boards of a
    member's turn that goes on are held back, the one that ends it is posted exactly once,
    and the later versions of its turn (the computer's reply) edit that message, which
    ends showing the turn's last board; a board that must notify replaces its turn's
    message (posted afresh, the earlier one deleted). The player to decide has their hand."""
    info = await service.match(match_id)
    rows = await board_rows(service, match_id)
    assert [r["version"] for r in rows] == list(range(info.version + 1)), match_id
    shows: dict[int, int] = {}  # message id -> the last version it must show
    last: int | None = None  # the message of the board before, if it was posted
    for row in rows:
        if row["held"]:
            assert row["status"] == "skipped", (match_id, row["id"], row["status"])
            last = None
            continue
        assert row["status"] == "sent" and row["message_id"] is not None, (match_id, row["id"])
        message_id = int(row["message_id"])
        version = f"game {match_id} version {row['version']}"
        if row["continues"] and last is not None and not row["repost"]:
            assert message_id == last, f"{version} posted afresh"
        elif row["continues"] and last is not None:
            assert message_id != last, f"{version} edited, though it must notify"
            del shows[last]  # replaced: the earlier message was deleted
        else:
            assert message_id not in shows, f"{version} edited"
        shows[message_id] = int(row["version"])
        last = message_id
    posts = board_posts(channel)
    assert sorted(m.id for m in posts) == sorted(shows), (
        f"game {match_id}: a board posted twice, or not at all"
    )
    for message in posts:
        name = f"board-{match_id}-{shows[message.id]}.png"
        assert [a.filename for a in message.attachments] == [name]
    if info.is_over:
        return info
    decider = members[info.deciding_user]  # type: ignore[index]
    hand = f"hand-{match_id}-{info.version}.png"
    seen = [
        m
        for ch in (channel, decider.dm_channel)
        for m in ch.messages
        if m.is_visible_to(decider.user) and any(a.filename == hand for a in m.attachments)
    ]
    assert seen, f"{decider.name} has no hand for version {info.version} of game {match_id}"
    return info
