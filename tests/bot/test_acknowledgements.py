"""Discord drops an interaction not acknowledged within 3 s, however busy the machine: the bot
acknowledges every request before it asks its database anything. Here every query is made
slower than the emulator's deadline, and every command and every control is still
acknowledged in time, then answered (a refusal still privately); suggestions, which cannot
be deferred, come back empty rather than late.

"Every" is read from the code: each leaf of the command tree (slash commands of every group,
context menus) and each control class the bot defines (its `DynamicItem`s, and any `Modal`
or `View` subclass) must have a case in COMMAND_CASES or CONTROL_CASES, or
`test_every_command_and_control_has_a_case` names the one without.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.http import handle_message_parameters

from bot.front.command_tree import command_tree
from bot.records import MatchInfo
from bot.sandbox import running_bot, wait_for_game
from bot.store import Row, Store, Tx
from discord_loopback import (
    Emulator,
    InteractionHandle,
    SimChannel,
    SimGuild,
    SimMember,
    SimMessage,
)

DEADLINE = 1.0  # the emulator's, for Discord's 3 s: the database below is slower still
SLOW = 1.5  # seconds added to every query


def slow_down(store: Store, delay: float) -> None:
    """Every read and every transaction of `store` waits `delay` seconds first."""
    one, every, transaction = store._one, store._all, store.transaction

    async def _one(sql: str, params: Sequence[Any] = ()) -> Row | None:
        await asyncio.sleep(delay)
        return await one(sql, params)

    async def _all(sql: str, params: Sequence[Any] = ()) -> list[Row]:
        await asyncio.sleep(delay)
        return await every(sql, params)

    @asynccontextmanager
    async def _transaction() -> AsyncIterator[Tx]:
        await asyncio.sleep(delay)
        async with transaction() as tx:
            yield tx

    slowed: dict[str, Callable[..., Awaitable[Any] | AbstractAsyncContextManager[Tx]]] = {
        "_one": _one,
        "_all": _all,
        "transaction": _transaction,
    }
    for name, method in slowed.items():
        setattr(store, name, method)


async def challenge(
    challenger: SimMember, opponent: SimMember, channel: SimChannel, **options: Any
) -> InteractionHandle:
    return await challenger.slash(
        ("schotten", "challenge"), where=channel, opponent=opponent, **options
    )


async def game_of(
    bot: Any, guild: SimGuild, channel: SimChannel, a: SimMember, b: SimMember
) -> MatchInfo:
    """A challenges B, who accepts: their game, once its first hand is out."""
    offer = await (await challenge(a, b, channel)).reply(timeout=10)
    await (await b.click(offer, label="Accept")).ack(timeout=10)
    info = await wait_for_game(bot, guild.id, a.id)
    mover = a if info.deciding_user == a.id else b
    for _ in range(200):
        if mover.last_dm is not None and mover.last_dm.selects():
            return info
        await asyncio.sleep(0.05)
    raise AssertionError("the first hand did not come")


def commands_of_the_tree() -> list[str]:
    """The qualified name of every command a member can use: each leaf of the tree the bot
    syncs (slash commands in every group and subgroup, and context menus)."""

    async def walk() -> list[str]:
        client = discord.Client(intents=discord.Intents.none())
        tree = command_tree(client)
        names = [
            c.qualified_name for c in tree.walk_commands() if isinstance(c, app_commands.Command)
        ]
        for kind in (discord.AppCommandType.user, discord.AppCommandType.message):
            names += [c.qualified_name for c in tree.walk_commands(type=kind)]
        await client.close()
        return names

    return asyncio.run(walk())


def _subclasses(base: type) -> Iterator[type]:
    for cls in base.__subclasses__():
        yield cls
        yield from _subclasses(cls)


def controls_of_the_code() -> list[str]:
    """Every control class the bot defines: its DynamicItems (but the bare base, whose
    template matches nothing) and any Modal or View of its own."""
    import bot.front.client  # noqa: F401  (imports every part of the front)

    found = [
        cls
        for base in (discord.ui.DynamicItem, discord.ui.Modal, discord.ui.View)
        for cls in _subclasses(base)
        if cls.__module__.startswith("bot.")
    ]
    bases = {
        cls
        for cls in found
        if getattr(cls, "__discord_ui_compiled_template__", None) is not None
        and cls.__discord_ui_compiled_template__.pattern == "sch:never"
    }
    return sorted({cls.__name__ for cls in found if cls not in bases})


@dataclass
class Scene:
    """What the cases act on: a game under way between `mover` and `waiting` in `table`,
    two open challenges, a manager, and the messages holding every control."""

    bot: Any
    guild: SimGuild
    lobby: SimChannel
    table: SimChannel
    info: MatchInfo
    mover: SimMember
    waiting: SimMember
    members: dict[str, SimMember]
    hand: SimMessage
    to_accept: SimMessage
    to_decline: SimMessage
    controls: dict[str, SimMessage] = field(default_factory=dict)

    def __getattr__(self, name: str) -> SimMember:
        try:
            return self.members[name]
        except KeyError:
            raise AttributeError(name) from None


Case = Callable[[Scene], Awaitable[InteractionHandle]]


def slash(who: str, *path: str, where: str = "lobby", **options: Any) -> Case:
    """`who` (a member's name, or "mover"/"waiting") uses /path in `where` (lobby or table)."""

    async def case(scene: Scene) -> InteractionHandle:
        member = getattr(scene, who)
        channel = getattr(scene, where)
        values = {k: (v(scene) if callable(v) else v) for k, v in options.items()}
        return await member.slash(path, where=channel, **values)

    return case


def game_id(scene: Scene) -> int:
    return scene.info.id


# Each leaf of the command tree, by its qualified name; "name | what" for a second case.
COMMAND_CASES: dict[str, Case] = {
    "schotten challenge": slash("grace", "schotten", "challenge", opponent=lambda s: s.henry),
    "schotten challenge | yourself": slash(
        "henry", "schotten", "challenge", opponent=lambda s: s.henry
    ),
    "schotten accept": slash("ivy", "schotten", "accept"),
    "schotten decline": slash("ivy", "schotten", "decline"),
    "schotten cancel": slash("ivy", "schotten", "cancel"),
    "schotten move": slash(
        "mover",
        "schotten",
        "move",
        where="table",
        notation=lambda s: str(s.info.match.legal_moves()[0]),
    ),
    "schotten hand": slash("mover", "schotten", "hand", where="table"),
    "schotten board": slash("mover", "schotten", "board", where="table"),
    "schotten board | no game here": slash("mover", "schotten", "board"),
    "schotten resign": slash("waiting", "schotten", "resign", where="table"),
    "schotten privacy": slash("carol", "schotten", "privacy"),
    "schotten games": slash("mover", "schotten", "games"),
    "schotten leaderboard": slash("carol", "schotten", "leaderboard"),
    "schotten stats": slash("carol", "schotten", "stats"),
    "schotten replay": slash("carol", "schotten", "replay", game_id=game_id),
    "schotten analyse": slash("carol", "schotten", "analyse", game_id=game_id),
    "schotten hint": slash("waiting", "schotten", "hint", where="table"),
    "schotten history": slash("carol", "schotten", "history"),
    "schotten rules": slash("carol", "schotten", "rules"),
    "schotten settings": slash("carol", "schotten", "settings"),
    "schotten tournament join": slash("erin", "schotten", "tournament", "join"),
    "schotten tournament leave": slash("erin", "schotten", "tournament", "leave"),
    "schotten tournament standings": slash("erin", "schotten", "tournament", "standings"),
    "schotten tournament pairings": slash("erin", "schotten", "tournament", "pairings"),
    "schotten tournament list": slash("erin", "schotten", "tournament", "list"),
    "schotten vacation start": slash("frank", "schotten", "vacation", "start", days=2),
    "schotten vacation end": slash("grace", "schotten", "vacation", "end"),
    "schotten vacation status": slash("henry", "schotten", "vacation", "status"),
    "schotten-admin settings": slash("ivy", "schotten-admin", "settings", use_threads=True),
    "schotten-admin privacy": slash("ivy", "schotten-admin", "privacy", member=lambda s: s.carol),
    "schotten-admin tournament create": slash(
        "ivy", "schotten-admin", "tournament", "create", name="Cup"
    ),
    "schotten-admin tournament start": slash("ivy", "schotten-admin", "tournament", "start"),
    "schotten-admin tournament cancel": slash("ivy", "schotten-admin", "tournament", "cancel"),
}


def click(who: str, message: Callable[[Scene], SimMessage], custom_id: str = "") -> Case:
    async def case(scene: Scene) -> InteractionHandle:
        on = message(scene)
        return await getattr(scene, who).click(on, custom_id or on.buttons()[0]["custom_id"])

    return case


def choose(who: str, kind: str) -> Case:
    """`who` chooses the first option of the select on the message made for `kind`."""

    async def case(scene: Scene) -> InteractionHandle:
        on = scene.controls[kind]
        (menu,) = on.selects()
        return await getattr(scene, who).select(
            on, menu["custom_id"], [menu["options"][0]["value"]]
        )

    return case


async def hand_card(scene: Scene) -> InteractionHandle:
    cards = next(s for s in scene.hand.selects() if s["custom_id"].startswith("sch:c:"))
    return await scene.mover.select(scene.hand, cards["custom_id"], [cards["options"][0]["value"]])


def posted(kind: str) -> Callable[[Scene], SimMessage]:
    return lambda scene: scene.controls[kind]


# The custom_id each control is posted with (by the bot, before the database slows down),
# for the controls no message of a game shows by then; {g} the game, {v} its version,
# {u} the mover, {s} the server.
POSTED: dict[str, str] = {
    "MoveButton": "sch:m:{g}:{v}:pass",
    "StepButton": "sch:F:{g}:{v}:back",
    "FamilySelect": "sch:f:{g}:{v}:traitor",
    "SetSelect": "sch:s:{g}:{v}:give",
    "MoveSelect": "sch:v:{g}:{v}:claim",
    "ShowHandButton": "sch:h:{g}",
    "UnseenButton": "sch:u:{g}:{v}:1",
    "RematchButton": "sch:r:{g}",
    "JoinTournamentButton": "sch:j:1",
    "GamesPageButton": "sch:G:{u}:{s}:1:n",
    "MyGamesButton": "sch:y:{g}",
    "ShareButton": "sch:S:st:{u}:0",
    "ReplayStepButton": "sch:R:{g}:0:n",
    "HandsButton": "sch:A:{g}:0:1",
    "PrivacyButton": "sch:pv:{u}:{s}",
}

# Each control class, by name.
CONTROL_CASES: dict[str, Case] = {
    "AcceptButton": click("dave", lambda s: s.to_accept, ""),
    "DeclineButton": click("frank", lambda s: s.to_decline, ""),
    "CardSelect": hand_card,
    "MoveButton": click("mover", posted("MoveButton")),
    "StepButton": click("mover", posted("StepButton")),
    "FamilySelect": choose("mover", "FamilySelect"),
    "SetSelect": choose("mover", "SetSelect"),
    "MoveSelect": choose("mover", "MoveSelect"),
    "ShowHandButton": click("waiting", posted("ShowHandButton")),
    "UnseenButton": click("mover", posted("UnseenButton")),
    "RematchButton": click("waiting", posted("RematchButton")),
    "JoinTournamentButton": click("carol", posted("JoinTournamentButton")),
    "GamesPageButton": click("mover", posted("GamesPageButton")),
    "MyGamesButton": click("mover", posted("MyGamesButton")),
    "ShareButton": click("mover", posted("ShareButton")),
    "ReplayStepButton": click("carol", posted("ReplayStepButton")),
    "HandsButton": click("mover", posted("HandsButton")),
    "PrivacyButton": click("mover", posted("PrivacyButton")),
}


def test_every_command_and_control_has_a_case() -> None:
    covered = {name.split(" | ")[0] for name in COMMAND_CASES}
    missing = [name for name in commands_of_the_tree() if name not in covered]
    assert not missing, f"commands with no acknowledgement case in COMMAND_CASES: {missing}"
    stale = sorted(covered - set(commands_of_the_tree()))
    assert not stale, f"COMMAND_CASES names commands the tree does not have: {stale}"
    controls = controls_of_the_code()
    missing = [name for name in controls if name not in CONTROL_CASES]
    assert not missing, f"controls with no acknowledgement case in CONTROL_CASES: {missing}"
    stale = sorted(set(CONTROL_CASES) - set(controls))
    assert not stale, f"CONTROL_CASES names controls the bot does not define: {stale}"


async def post_controls(scene: Scene) -> None:
    """Each control of POSTED on a message of its own in the game's channel, sent by the bot
    as it sends them (built from its custom_id, as after a restart)."""
    from bot.front.client import SchottenBot

    classes = {
        cls.__name__: cls
        for cls in _subclasses(discord.ui.DynamicItem)
        if cls.__module__.startswith("bot.")
    }
    bot: SchottenBot = scene.bot
    values = {"g": scene.info.id, "v": scene.info.version, "u": scene.mover.id}
    values["s"] = scene.guild.id
    for name, template in POSTED.items():
        custom_id = template.format(**values)
        cls = classes[name]
        match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert match is not None, (name, custom_id)
        item = await cls.from_custom_id(None, None, match)  # type: ignore[arg-type]
        button = item.item
        if isinstance(button, discord.ui.Button) and not (button.label or button.emoji):
            button.label = name  # rebuilt from its custom_id alone, as on a click
        view = discord.ui.View(timeout=None)
        view.add_item(item)
        with handle_message_parameters(content=name, view=view) as params:
            await bot.http.send_message(scene.table.id, params=params)
        scene.controls[name] = await _wait_control(scene, custom_id)


async def _wait_control(scene: Scene, custom_id: str) -> SimMessage:
    for _ in range(200):
        found = [m for m in scene.table.messages if m.component(custom_id) is not None]
        if found:
            return found[-1]
        await asyncio.sleep(0.02)
    raise AssertionError(f"the bot did not post {custom_id}")


BATCH = 26  # requests at once: every one is slow; two batches in one bot start


async def test_every_request_is_acknowledged_before_the_database_answers(tmp_path: Path):
    async with Emulator(interaction_deadline=DEADLINE) as emu, emu.point_discord():
        guild = emu.create_guild("Test Server")
        names = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Henry", "Ivy")
        members = {n.lower(): guild.add_member(n) for n in names}
        members["ivy"].manage_guild = True  # the server's manager: /schotten-admin
        lobby, other, elsewhere = (guild.create_text_channel(n) for n in ("lobby", "b", "c"))
        alice, bob = members["alice"], members["bob"]
        async with running_bot(emu, tmp_path / "bot.sqlite3") as bot:
            assert bot.service is not None
            info = await game_of(bot, guild, guild.default_channel, alice, bob)
            mover = alice if info.deciding_user == alice.id else bob
            hand = mover.last_dm
            assert hand is not None
            scene = Scene(
                bot=bot,
                guild=guild,
                lobby=lobby,
                table=emu.world.channel(info.channel_id),
                info=info,
                mover=mover,
                waiting=bob if mover is alice else alice,
                members=members,
                hand=hand,
                to_accept=await (await challenge(members["carol"], members["dave"], other)).reply(
                    timeout=10
                ),
                to_decline=await (
                    await challenge(members["erin"], members["frank"], elsewhere)
                ).reply(timeout=10),
            )
            await post_controls(scene)

            slow_down(bot.service.store, SLOW)
            # The controls first: the hand's card menu is gone once a move is made.
            cases = [*CONTROL_CASES.items(), *COMMAND_CASES.items()]
            handles: dict[str, InteractionHandle] = {}
            for first in range(0, len(cases), BATCH):
                batch = cases[first : first + BATCH]
                started = await asyncio.gather(*(case(scene) for _, case in batch))
                handles.update(zip([name for name, _ in batch], started, strict=True))
                # Acknowledged inside the front's count of work under way: then idle.
                await asyncio.gather(*(h.ack(timeout=10) for h in started))
                assert await bot.front.wait_idle(180)  # type: ignore[union-attr]
            await emu.assert_all_acknowledged()
            late = [
                n for n, h in handles.items() if h.ack_latency is None or h.ack_latency >= DEADLINE
            ]
            assert not late, f"acknowledged too late: {late}"
            # Each was answered: a message, or its own message updated (a move made by a
            # control is answered by the game's new board, which is no reply).
            unanswered = [
                n for n, h in handles.items() if not h.record.responses and h.ack_type != 6
            ]
            assert not unanswered, f"acknowledged but never answered: {unanswered}"

            challenged = await handles["schotten challenge"].reply()
            yourself = await handles["schotten challenge | yourself"].reply()
            no_game = await handles["schotten board | no game here"].reply()
            assert "challenges" in challenged.content and not challenged.ephemeral
            assert yourself.ephemeral and "cannot challenge yourself" in yourself.content
            # No game here: the mover is pointed to theirs.
            assert no_game.ephemeral and f"<#{scene.table.id}>" in no_game.content
            # The refusals' public "thinking…" messages are gone, not left spinning.
            assert not [m for m in lobby.messages if m.loading]


async def test_suggestions_come_back_empty_rather_than_late(tmp_path: Path):
    async with Emulator() as emu, emu.point_discord():
        guild = emu.create_guild("Test Server")
        alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
        async with running_bot(emu, tmp_path / "bot.sqlite3") as bot:
            assert bot.service is not None
            info = await game_of(bot, guild, guild.default_channel, alice, bob)
            table = emu.world.channel(info.channel_id)
            mover = alice if info.deciding_user == alice.id else bob
            move = ("schotten", "move")
            assert await mover.autocomplete(move, "notation", where=table, notation="")
            slow_down(bot.service.store, 5.0)  # longer than Discord waits
            assert await mover.autocomplete(move, "notation", where=table, notation="") == []
            await emu.assert_all_acknowledged()
            assert bot.front is not None and await bot.front.wait_idle(60)
