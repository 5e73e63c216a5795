"""No hidden information of a running game leaves the bot, by any path.

For each variant a game is played to mid-game through the emulator (private moves
included: the Recruiter's `return` in the Tactics variants, the Exchange's `give` in the
Tactical siege). Then the bystander and each player run every command and use every
button and menu the bot offers them, and everything each of them could see is checked:
every message as it was created and after every edit (content, embeds, buttons, menus,
files), every autocomplete suggestion. None may contain:

- the game's seed (it deals every hand and the deck order);
- a card the member could not know: one never shown on the table or in the discard pile
  and never in their own hand (for the bystander: never shown at all);
- the text of another player's private move (`return R3 P8`, `give ...`);

and every picture must be exactly the one drawn from the view the member may see: a board
from the public view at its version, a hand from that member's own view. The unseen cards
(the hand's Unseen cards line, which names cards by colour and value, `**R** 1 4 9`) must be
exactly the game's cards minus what that member saw at one position: the table, the discard
pile and their own hand; a bystander never gets one.

Static text is not a leak: the rules pages and hints name example cards (`R7 3`,
`traitor 3:G5 6`). A card code (or private move text) is excused only where it lies in the
literal part of a string written in the bot's source (bot/ and engine/, read with `ast`,
f-strings with their placeholders as wildcards): such text is the same in every game, so
it cannot depend on the hidden cards. Anything a placeholder filled in is checked.
"""

from __future__ import annotations

import ast
import asyncio
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.front.rules import TOPICS
from bot.front.unseen import MARK as UNSEEN_MARK
from bot.sandbox import SimPlayer, running_bot, wait_for_version
from discord_loopback import ChatEvent, Emulator, SimMember, SimMessage
from engine import st1
from engine.api import VARIANTS, game_of
from engine.errors import GameError
from render import render_board, render_turn
from tests.engine.test_unseen import expected_from_view

from .test_e2e import start_game

UNSEEN_GROUP = re.compile(r"\*\*([ROYGBP])\*\*((?: \d+)+)")
UNSEEN_TACTICS = re.compile(r"(\d+) tactic cards?")

ROOT = Path(__file__).resolve().parents[2]
CARD = re.compile(r"(?<![A-Za-z0-9])([ROYGBP])(1[01]|[0-9])(?![0-9])")
PRIVATE = ("return", "give")
# Seeds whose games reach a private move by mid-game with the policy below.
# Large, as real seeds are (62 bits): a seed of 1000 would "leak" in every new rating of 1000.
SEEDS = {v: 734_001_234_567 + i for i, v in enumerate(VARIANTS)}


# Static text --------------------------------------------------------------------------------


def _templates() -> list[re.Pattern[str]]:
    """Every string literal of the bot's source that names a card, as a regex whose groups
    are its literal parts (f-string placeholders match anything)."""
    out = []
    for path in [*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("engine").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.JoinedStr):
                parts = [
                    v.value if isinstance(v, ast.Constant) else None
                    for v in node.values
                    if not (isinstance(v, ast.Constant) and v.value == "")
                ]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                parts = [node.value]
            else:
                continue
            literal = "".join(p for p in parts if p is not None)
            if not CARD.search(literal):
                continue
            pattern = "".join(
                f"({re.escape(p)})" if p is not None else "(?:.{0,300}?)" for p in parts
            )
            out.append(re.compile(pattern, re.DOTALL))
    return out


TEMPLATES = _templates()


def static_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` holds literal text of the source that names a card."""
    spans = []
    for template in TEMPLATES:
        for m in template.finditer(text):
            for i in range(1, (m.lastindex or 0) + 1):
                if m.group(i) and CARD.search(m.group(i)):
                    spans.append(m.span(i))
    return spans


def dynamic(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return not any(a <= start and end <= b for a, b in spans)


# What each member saw ----------------------------------------------------------------------


@dataclass
class Seen:
    """One thing a member could see: a message as created or edited, or suggestions."""

    where: str
    text: str
    files: list[tuple[str, bytes]] = field(default_factory=list)


def message_text(m: SimMessage) -> str:
    parts = [m.content, m.embed_text()]
    for c in m.all_components():
        for key in ("label", "placeholder", "custom_id"):
            if c.get(key):
                parts.append(str(c[key]))
        for option in c.get("options", []):
            parts.extend(str(option.get(k) or "") for k in ("label", "value", "description"))
    return "\n".join(p for p in parts if p)


class Recorder:
    """Keeps a copy of every message each time it is created or edited (edits replace
    pictures and buttons, so reading the messages at the end would miss some)."""

    def __init__(self, emu: Emulator, members: list[SimMember]) -> None:
        self.members = members
        self.seen: dict[int, list[Seen]] = {m.id: [] for m in members}
        self.unsubscribe = emu.subscribe(self._on_event)

    def _on_event(self, event: ChatEvent) -> None:
        m = event.message
        if event.kind not in ("message", "edit") or m is None or m.author.bot is False:
            return
        files = [(a.filename, a.data) for a in m.attachments]
        item = Seen(f"{m.channel.label} #{m.id} ({event.kind})", message_text(m), files)
        for member in self.members:
            if self.visible(member, m):
                self.seen[member.id].append(item)

    @staticmethod
    def visible(member: SimMember, m: SimMessage) -> bool:
        if m.visible_to is not None:
            return m.visible_to.id == member.id
        if m.channel.recipient is not None:
            return m.channel.recipient.id == member.id
        return True

    def note(self, member: SimMember, where: str, text: str) -> None:
        self.seen[member.id].append(Seen(where, text))


# The checks ---------------------------------------------------------------------------------


@dataclass
class Knowledge:
    """From the stored states at every version: what was ever public, what each seat ever
    held, the private moves, and the pictures each version should give."""

    states: dict[int, object] = field(default_factory=dict)  # version -> engine match
    names: tuple[str, str] = ("", "")
    seed: int = 0
    private: list[tuple[int, str]] = field(default_factory=list)  # (seat, move text)

    def add(self, info) -> None:
        self.states[info.version] = info.match
        self.names = info.names
        self.seed = info.seed
        self.private = [(s, t) for s, t in info.match.log if t.split()[0] in PRIVATE]

    def public(self) -> set[str]:
        shown: set[str] = set()
        for match in self.states.values():
            view = match.view(None)
            places = view.stones if view.game == "st1" else view.tiles
            for place in places:
                for side in place.sides:
                    shown.update(str(c) for c in side)
            shown.update(str(c) for c in view.discard)
        return shown

    def held(self, seat: int) -> set[str]:
        out: set[str] = set()
        for match in self.states.values():
            out.update(str(c) for c in match.view(seat).hand or ())
        return out


def find_leaks(seen: list[Seen], knowledge: Knowledge, seat: int | None) -> list[str]:
    """What this member (a seat, or None for a bystander) saw that they may not know."""
    allowed = knowledge.public() | (knowledge.held(seat) if seat is not None else set())
    private = [t for s, t in knowledge.private if s != seat]
    seed = str(knowledge.seed)
    leaks = []
    for item in seen:
        texts = [item.text] + [
            data.decode(errors="replace") for name, data in item.files if name.endswith(".txt")
        ]
        for text in texts:
            if seed in text:
                leaks.append(f"the seed in {item.where}")
            spans = None
            for m in CARD.finditer(text):
                if m.group(0) in allowed:
                    continue
                spans = static_spans(text) if spans is None else spans
                if dynamic(text, m.start(), m.end(), spans):
                    around = text[max(0, m.start() - 40) : m.end() + 40]
                    leaks.append(f"hidden card {m.group(0)} in {item.where}: …{around}…")
            for move in private:
                for m in re.finditer(re.escape(move), text):
                    spans = static_spans(text) if spans is None else spans
                    if dynamic(text, m.start(), m.end(), spans):
                        leaks.append(f"private move `{move}` in {item.where}")
    return leaks


def unseen_leaks(seen: list[Seen], knowledge: Knowledge, seat: int | None) -> list[str]:
    """Every unseen cards' line this member got is the complement of what they saw at some
    position (tests/engine/test_unseen.py counts it from the view on its own)."""
    leaks = []
    for item in seen:
        for line in item.text.split("\n"):
            if not line.startswith(UNSEEN_MARK):
                continue
            if seat is None:
                leaks.append(f"a bystander got unseen cards in {item.where}")
                continue
            cards = [f"{c}{v}" for c, values in UNSEEN_GROUP.findall(line) for v in values.split()]
            count = UNSEEN_TACTICS.search(line)
            tactics = int(count.group(1)) if count else None
            complements = []
            for match in knowledge.states.values():
                view = match.view(seat)
                clan, tactic_cards = expected_from_view(view)
                with_tactics = view.tactic_deck_size is not None
                complements.append((clan, len(tactic_cards) if with_tactics else None))
            if (cards, tactics) not in complements:
                leaks.append(f"unseen cards that are not what the member saw in {item.where}")
    return leaks


def picture_leaks(seen: list[Seen], knowledge: Knowledge, seat: int | None) -> list[str]:
    """Every picture is the one drawn from what this member may see."""
    leaks = []
    pictures = [(name, data, item) for item in seen for name, data in item.files]
    for name, data, item in pictures:
        if not name.endswith(".png"):
            continue
        kind, _, version = name[:-4].split("-")
        match = knowledge.states.get(int(version))
        if match is None:
            leaks.append(f"{name} shows a version the test never saw ({item.where})")
            continue
        if kind == "board":
            expected = render_board(match.view(None), names=knowledge.names)
        elif kind == "hand" and seat is not None:
            view = match.view(seat)  # the hand's picture: the board and that hand
            expected = render_turn(view, names=knowledge.names, name=knowledge.names[seat])
        else:
            leaks.append(f"{name}, a hand, was shown to a bystander ({item.where})")
            continue
        if data != expected:
            leaks.append(f"{name} is not the picture of the view this member may see")
    return leaks


def test_the_checker_finds_a_planted_leak():
    """The check can fail: the old export of a running game leaked the seed and the
    Recruiter's cards, and a board caption naming a card in a hand would leak it too."""
    from engine.api import MatchSpec, new_match

    match = new_match(MatchSpec("tactics"), 5)
    k = Knowledge(states={0: match}, names=("Alice", "Bob"), seed=987654321987)
    hand0 = [str(c) for c in match.view(0).hand if CARD.fullmatch(str(c))]
    hand1 = [str(c) for c in match.view(1).hand if CARD.fullmatch(str(c))]
    k.private = [(0, f"return {hand0[0]} {hand0[1]}")]
    export = Seen("export", f"Seed: 987654321987\n  12. Alice: return {hand0[0]} {hand0[1]}")
    leaks = find_leaks([export], k, 1)
    assert any("seed" in leak for leak in leaks)
    assert any(f"hidden card {hand0[0]}" in leak for leak in leaks)
    assert any("private move" in leak for leak in leaks)
    # To Alice, who made the move, only the seed is a leak: the cards were hers.
    assert [leak for leak in find_leaks([export], k, 0)] == ["the seed in export"]
    # The bystander may not see either hand.
    caption = Seen("caption", f"Bob played {hand1[0]} on stone 3.")
    assert find_leaks([caption], k, None) and not find_leaks([caption], k, 1)
    # Hints naming example cards are static text, whoever holds those cards; the same card
    # filled into a sentence is not.
    hints = []
    for text in ("xyz", "traitor", "return"):
        with pytest.raises(GameError) as refusal:
            st1.parse_move(text)
        hints.append(Seen("hint", str(refusal.value)))
    assert CARD.search(hints[0].text) and CARD.search(hints[1].text)
    assert find_leaks(hints, k, None) == []
    assert find_leaks([Seen("x", f"Write it as `traitor 3:{hand1[0]} 6`!")], k, 0) or (
        hand1[0] in k.public()
    )
    # Pictures: a hand picture for a bystander, or a board from the wrong view, is caught.
    board = render_board(match.view(None), names=k.names)
    hand = render_turn(match.view(0), names=k.names, name="Alice")
    assert picture_leaks([Seen("b", "", [("board-1-0.png", board)])], k, None) == []
    assert picture_leaks([Seen("h", "", [("hand-1-0.png", hand)])], k, None)
    assert picture_leaks([Seen("h", "", [("hand-1-0.png", hand)])], k, 1)
    assert picture_leaks([Seen("h", "", [("hand-1-0.png", hand)])], k, 0) == []
    # Unseen cards: the complement of what the member saw is no leak; to the bystander, or
    # naming only the cards of the other hand, it is.
    from bot.front.unseen import unseen_line

    right = Seen("u", "Your hand…\n" + unseen_line(match.view(0), "Bob"))
    assert unseen_leaks([right], k, 0) == []
    assert unseen_leaks([right], k, None) and unseen_leaks([right], k, 1)
    peek = "**" + "** · **".join(f"{c[0]}** {c[1:]}" for c in sorted(hand1)) + " · 10 tactic cards"
    assert unseen_leaks([Seen("u", f"{UNSEEN_MARK} Unseen: {peek}")], k, 0)


# Playing to mid-game, and probing ------------------------------------------------------------


def choose(legal: list[str], rng: random.Random) -> str:
    """Prefer what leads to a private move, so that one happens by mid-game."""
    for head in ("return", "give", "recruiter", "exchange"):
        keen = [m for m in legal if m.split()[0] == head]
        if keen:
            return keen[0]
    if "draw tactic" in legal:
        return "draw tactic"
    claims = [m for m in legal if m.split()[0] in ("claim", "control")]
    return rng.choice(claims or legal)


async def play_one(bot, emu, players, info, rng, knowledge) -> object:
    """The player to decide moves (typed, or by clicking their controls)."""
    member = players[info.deciding_user]
    thread = emu.world.channel(info.channel_id)
    legal = [str(m) for m in info.match.legal_moves()]
    text = choose(legal, rng)
    if text.split()[0] not in (*PRIVATE, "recruiter", "exchange") and rng.random() < 0.4:
        await SimPlayer(member, rng, clicks=1.0).move_by_clicks(thread, info.id, info.version)
    else:
        handle = await member.slash(("schotten", "move"), where=thread, notation=text)
        await handle.reply(timeout=15)
    info = await wait_for_version(bot, emu, info.id, info.version)
    knowledge.add(info)
    await asyncio.sleep(0.02)  # the DM to the next player
    return info


async def probe_commands(bot, emu, member, thread, channel, others, info, recorder, knowledge):
    """Every command the bot offers, with plausible options, answered to `member`. A typed
    move may be legal, and is then played: its position is recorded like any other."""
    seat = info.seat_of(member.id)
    own = [str(c) for c in (info.match.view(seat).hand or ())] if seat is not None else []
    card = next((c for c in own if CARD.fullmatch(c)), "R1")
    typed = [
        f"{card} 3",
        f"{card} 99",
        f"traitor 3:{card} 6",
        f"return {card}",
        f"give {card}",
        "claim 2",
        "control 4",
        "draw tactic",
        "pass",
        "nonsense words",
        "timeout",
        "resign",
    ]
    for text in typed:
        handle = await member.slash(("schotten", "move"), where=thread, notation=text)
        await handle.reply(timeout=10)
        now = await bot.service.match(info.id)
        if now.version != info.version:
            info = await wait_for_version(bot, emu, info.id, info.version)
            knowledge.add(info)
    for partial in ("", "r", "g", "1", "claim", "dr"):
        choices = await member.autocomplete(
            ("schotten", "move"), "notation", where=thread, notation=partial
        )
        recorder.note(member, f"autocomplete {partial!r}", repr(choices))
    other = others[0]
    calls = [
        (thread, ("schotten", "hand"), {}),
        (thread, ("schotten", "board"), {}),
        (thread, ("schotten", "resign"), {}),
        (channel, ("schotten", "history"), {"game_id": info.id}),
        (thread, ("schotten", "history"), {"game_id": info.id}),
        (channel, ("schotten", "history"), {}),
        (channel, ("schotten", "history"), {"member": other}),
        (channel, ("schotten", "stats"), {}),
        (channel, ("schotten", "stats"), {"member": other, "against": member}),
        (channel, ("schotten", "leaderboard"), {"game": "st1"}),
        (channel, ("schotten", "leaderboard"), {"game": "st2"}),
        (channel, ("schotten", "settings"), {}),
        # Looking back is for finished games; hints for games against the computer.
        (channel, ("schotten", "replay"), {"game_id": info.id}),
        (thread, ("schotten", "replay"), {"game_id": info.id}),
        (channel, ("schotten", "analyse"), {"game_id": info.id}),
        (channel, ("schotten", "analyse"), {"game_id": info.id, "player": other}),
        (thread, ("schotten", "hint"), {}),
        (thread, ("schotten", "challenge"), {"opponent": other}),
        (thread, ("schotten", "accept"), {}),
        (thread, ("schotten", "decline"), {}),
        (thread, ("schotten", "cancel"), {}),
        *[(channel, ("schotten", "rules"), {"topic": t}) for t in TOPICS],
    ]
    for where, path, options in calls:
        handle = await member.slash(path, where=where, **options)
        await handle.reply(timeout=10)


async def probe_controls(member, thread, info, bot, decider: bool) -> None:
    """Every button and menu on what the member can see (the latest messages), without
    making a move: the player to decide opens steps (a card, then where; a family) and
    goes back, and clicks nothing that would play; everyone else may click anything but
    Yes, resign, and is refused."""
    messages = [m for m in thread.history(member) if m.author.bot][-8:]
    messages += member.dms[-3:]
    for message in messages:
        tried: set[tuple[str, str]] = set()
        for _ in range(40):  # controls change as steps open; try each one once
            todo = [
                (c, v)
                for c, v in _controls(message, info, decider)
                if (str(c["custom_id"]), str(v)) not in tried
            ]
            if not todo or message.deleted:
                break
            component, value = todo[0]
            custom_id = str(component["custom_id"])
            tried.add((custom_id, str(value)))
            if value is None:
                handle = await member.click(message, custom_id)
            else:
                handle = await member.select(message, custom_id, value)
            await handle.ack(timeout=10)
    assert (await bot.service.match(info.id)).version == info.version  # nothing was played


def _shows_unseen(button) -> bool:
    """The hand's Unseen cards button in its "show" state (its id ends in :1)."""
    custom_id = str(button.get("custom_id", ""))
    return custom_id.startswith("sch:u:") and custom_id.endswith(":1")


def _controls(message, info, decider: bool):
    """(component, None) for a button, (component, values) for a menu choice to try."""
    current = f":{info.id}:{info.version}"
    for button in message.buttons():
        custom_id = str(button.get("custom_id", ""))
        if not custom_id or button.get("label") == "Yes, resign":
            continue
        if custom_id.startswith("sch:r:"):  # Rematch: a new challenge, not needed here
            continue
        if decider and custom_id.startswith("sch:m:") and current + ":" in custom_id:
            continue  # it would play the move
        yield button, None
    for select in message.selects():
        custom_id = str(select["custom_id"])
        if decider and current in custom_id and not custom_id.startswith(("sch:c:", "sch:f:")):
            continue  # these menus make the move itself
        values = [o["value"] for o in select.get("options", [])]
        count = int(select.get("min_values", 1) or 1)
        if count == 1:
            for value in values[:3]:
                yield select, [value]
        else:
            yield select, values[:count]


# The test ----------------------------------------------------------------------------------


# One variant of each game with every rule it has: Tactics with the Expert rules holds all
# that Tactics and Expert hide (and the plain game's hands and deck), the Tactical siege all
# of the siege's; and the plain game once, the commonest. Each is a long game of probes.
@pytest.mark.parametrize("variant", ["classic", "tactics-expert", "siege-tactics"])
async def test_nothing_hidden_reaches_anyone(world, variant):
    emu, guild, alice, bob, carol, db = world
    recorder = Recorder(emu, [alice, bob, carol])
    async with running_bot(emu, db) as bot:
        bot.service.seeds = lambda: SEEDS[variant]
        info = await start_game(bot, emu, guild, alice, bob, game=variant)
        knowledge = Knowledge()
        knowledge.add(info)
        players = {alice.id: alice, bob.id: bob}
        rng = random.Random(SEEDS[variant])
        tactics = variant in ("tactics", "tactics-expert", "siege-tactics")
        for _ in range(150):
            if info.version >= 24 and (not tactics or knowledge.private):
                break
            assert not info.is_over, "the game ended before mid-game"
            info = await play_one(bot, emu, players, info, rng, knowledge)
        if tactics:
            assert knowledge.private, "no private move by mid-game"
        assert not info.is_over
        thread = emu.world.channel(info.channel_id)
        channel = guild.default_channel
        # Every member runs every command and uses every control.
        for member in (carol, alice, bob):
            others = [m for m in (alice, bob, carol) if m is not member]
            await probe_commands(
                bot, emu, member, thread, channel, others, info, recorder, knowledge
            )
            info = await bot.service.match(info.id)
            decider = member.id == info.deciding_user
            await probe_controls(member, thread, info, bot, decider)
        # One more real move, by clicks, and the probes see its position too.
        info = await play_one(bot, emu, players, info, rng, knowledge)
        for member in (carol, alice, bob):
            info = await bot.service.match(info.id)
            await probe_controls(member, thread, info, bot, member.id == info.deciding_user)
        # Each player shows their unseen cards on their latest hand at least once (the
        # probes may have spent their clicks on steps), so the check below has lines to read.
        for member in (alice, bob):
            hands = [
                m
                for m in [*thread.history(member), *member.dms]
                if m.author.bot and any(_shows_unseen(b) for b in m.buttons())
            ]
            if hands:
                (button,) = [b for b in hands[-1].buttons() if _shows_unseen(b)]
                await (await member.click(hands[-1], str(button["custom_id"]))).ack(timeout=10)
        # Every click answered in full (an Unseen cards click edits its message after its
        # acknowledgement) before the bot stops.
        assert await bot.front.wait_idle(30)
        await asyncio.sleep(0.2)
        await emu.assert_all_acknowledged()
    recorder.unsubscribe()
    assert game_of(variant) == info.match.view(None).game
    problems = []
    for member in (carol, alice, bob):
        seat = info.seat_of(member.id)
        seen = recorder.seen[member.id]
        assert len(seen) > 30, f"{member.name} saw almost nothing: the probes did not run"
        for leak in find_leaks(seen, knowledge, seat) + picture_leaks(seen, knowledge, seat):
            problems.append(f"{member.name}: {leak}")
        for leak in unseen_leaks(seen, knowledge, seat):
            problems.append(f"{member.name}: {leak}")
        if seat is not None:  # the probes pressed the hand's Unseen cards button
            assert any(UNSEEN_MARK in item.text for item in seen), member.name
    assert problems == []
