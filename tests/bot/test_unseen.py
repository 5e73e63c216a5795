"""The hand's Unseen cards button (bot/front/unseen.py): its words, its store, and a member
pressing it through the emulated Discord."""

from __future__ import annotations

import random
import re

import pytest

from bot.front.unseen import MARK, unseen_line, without_unseen
from bot.sandbox import SimPlayer, running_bot, wait_for_announcements, wait_for_version
from engine.api import MatchSpec, new_match
from lang import speaking
from tests.engine.test_unseen import SEEDS, expected_from_view, play_whole, twin_log
from tests.engine.twins import replayed, twin_start

from .conftest import ALICE
from .test_e2e import start_game
from .test_hidden_information import Recorder


@pytest.fixture
def bot_database(database):
    """The end-to-end test runs on both backends: the choice is kept in the store."""
    return database


GROUP = re.compile(r"\*\*([ROYGBP])\*\*((?: \d+)+)")
TACTICS = re.compile(r"(\d+) tactic cards?")


def listed(line: str) -> tuple[list[str], int | None]:
    """The cards an unseen line lists (`R1`, `R4`...), and its count of tactic cards."""
    cards = [f"{letter}{v}" for letter, values in GROUP.findall(line) for v in values.split()]
    count = TACTICS.search(line)
    return cards, int(count.group(1)) if count else None


def unseen_of(content: str) -> str | None:
    lines = [line for line in content.split("\n") if line.startswith(MARK)]
    assert len(lines) <= 1, content
    return lines[0] if lines else None


def assert_right(line: str | None, view) -> None:
    """The line lists exactly the variant's cards minus what this view shows."""
    assert line is not None
    clan, tactics = expected_from_view(view)
    cards, count = listed(line)
    assert cards == clan  # by colour, then value
    assert count == (len(tactics) if view.tactic_deck_size is not None else None)


# The words ------------------------------------------------------------------------------------


def test_the_line_groups_the_cards_by_colour_in_the_members_language():
    match = new_match(MatchSpec("tactics"), 3)
    view = match.view(0)
    line = unseen_line(view, "Alice")
    assert line.startswith(f"{MARK} Unseen, in the deck or Alice's hand: **R** ")
    assert_right(line, view)
    assert line.endswith(" · 10 tactic cards")  # none was seen yet
    with speaking("fr"):
        french = unseen_line(view, "Alice")
    with speaking("de"):
        german = unseen_line(view, "Alice")
    assert "d'Alice" in french and "de Alice" not in french
    assert "cartes Tactique" in french and "Taktikkarten" in german
    # The cards' letters and values are the notation's, the same in every language.
    assert GROUP.findall(french) == GROUP.findall(german) == GROUP.findall(line)


def test_the_siege_has_no_orange_and_no_tactic_cards_without_its_variant():
    match = new_match(MatchSpec("siege"), 3)
    line = unseen_line(match.view(1), "Bob")
    assert_right(line, match.view(1))
    assert "**O**" not in line and "tactic" not in line
    assert " 0" in line and " 11" in line  # the Chicken and the Chef are siege cards too


def test_the_line_comes_out_of_a_message_and_nothing_else():
    content = "You played R7 on stone 3.\nYour hand in game #4.\n" + f"{MARK} Unseen: **R** 1"
    assert without_unseen(content) == "You played R7 on stone 3.\nYour hand in game #4."


def test_the_words_are_the_same_between_twin_deals():
    """A Tactical siege dealt twice, differing only in cards Bob never saw: his line reads
    the same after every move, in every language."""
    spec, seed, watcher = MatchSpec("siege-tactics"), SEEDS["siege-tactics"], 1
    start, whole = play_whole("siege-tactics", seed)
    log = twin_log(spec, seed, start, whole, watcher)
    twin = twin_start(spec, seed, log, watcher)
    assert twin is not None and twin.to_json() != start.to_json()
    a, b = replayed(start, []), replayed(twin, [])
    for seat, text in log:
        a.play(text, seat)
        b.play(text, seat)
        for language in ("en", "fr", "de"):
            with speaking(language):
                assert unseen_line(a.view(watcher), "Ann") == unseen_line(b.view(watcher), "Ann")


def test_the_button_never_takes_a_moves_place():
    """On every position of whole games of each variant, the hand's controls keep every
    move they had without the button, and the button finds room."""
    from bot.front.controls import UnseenButton, controls_view
    from engine.api import VARIANTS

    def custom_ids(view) -> set[str]:
        return {str(c.custom_id) for c in view.children} if view is not None else set()

    placed = total = 0
    for variant in VARIANTS:
        match = new_match(MatchSpec(variant), 8)
        rng = random.Random(8)
        while not match.is_over:
            legal = [str(m) for m in match.legal_moves()]
            view = match.view(match.to_decide)
            hand = [str(c) for c in view.hand or ()]
            plain = controls_view(1, 1, match.kind, legal, hand=hand)
            button = UnseenButton(1, 1, True)
            both = controls_view(1, 1, match.kind, legal, hand=hand, tail=[button])
            assert custom_ids(plain) <= custom_ids(both)
            placed += button.custom_id in custom_ids(both)
            total += 1
            match.play(rng.choice(legal), match.to_decide)
    assert placed == total


# The store -------------------------------------------------------------------------------------


async def test_the_choice_is_kept_per_member(service):
    assert await service.unseen_shown(ALICE.id) is False  # hidden until asked for
    await service.show_unseen(ALICE.id, True)
    assert await service.unseen_shown(ALICE.id) is True
    assert await service.unseen_shown(ALICE.id + 1) is False
    await service.show_unseen(ALICE.id, True)  # pressed twice: still shown
    assert await service.unseen_shown(ALICE.id) is True
    await service.show_unseen(ALICE.id, False)
    assert await service.unseen_shown(ALICE.id) is False


# Through Discord -----------------------------------------------------------------------------


async def test_the_button_shows_and_hides_the_unseen_cards_for_its_player_only(world):
    emu, guild, alice, bob, carol, db = world
    # Every message each member could see, as created and after every edit.
    recorder = Recorder(emu, [alice, bob, carol])
    async with running_bot(emu, db) as bot:
        info = await start_game(bot, emu, guild, alice, bob, game="tactics")
        thread = emu.world.channel(info.channel_id)
        mover = alice if info.deciding_user == alice.id else bob
        other = bob if mover is alice else alice
        seat = info.seat_of(mover.id)
        dm = mover.last_dm
        assert dm is not None and unseen_of(dm.content) is None
        picture = dm.attachments[0].filename
        # Shown: the same hand message gets the line, its picture and controls stay.
        handle = await mover.click(dm, label="Unseen cards")
        await handle.ack(timeout=10)
        dm = await handle.update(timeout=10)
        assert_right(unseen_of(dm.content), info.match.view(seat))
        assert dm.content.startswith("Your hand in game")
        assert dm.attachments[0].filename == picture and dm.selects()
        assert dm.button("Hide unseen cards")
        first_dm = dm
        # Moving with the hand's controls: the same message shows each step, line included.
        while info.deciding_user == mover.id:  # a turn of several steps (play, then draw)
            await SimPlayer(mover, random.Random(1), clicks=1.0).move_by_clicks(
                thread, info.id, info.version
            )
            info = await wait_for_version(bot, emu, info.id, info.version)
            await wait_for_announcements(bot, info.id)
            assert_right(unseen_of(first_dm.content), info.match.view(seat))
        assert first_dm.attachments[0].filename == f"hand-{info.id}-{info.version}.png"
        # The opponent's choice is their own: their hand has the button, not the line.
        theirs = other.last_dm
        assert theirs is not None and unseen_of(theirs.content) is None
        assert theirs.button("Unseen cards")
        while info.deciding_user == other.id:
            await SimPlayer(other, random.Random(2)).move_by_command(thread)
            info = await wait_for_version(bot, emu, info.id, info.version)
            await wait_for_announcements(bot, info.id)
        # The mover's next hand shows it at once: the choice was kept.
        dm = mover.last_dm
        assert dm is not None and dm is not first_dm
        assert_right(unseen_of(dm.content), info.match.view(seat))
        # Hidden from an earlier hand: that message becomes the hand now, without the line.
        handle = await mover.click(first_dm, label="Hide unseen cards")
        await handle.ack(timeout=10)
        old = await handle.update(timeout=10)
        assert unseen_of(old.content) is None and old.button("Unseen cards")
        assert old.attachments[0].filename == f"hand-{info.id}-{info.version}.png"
        assert await bot.service.unseen_shown(mover.id) is False
        # Shown again (the buttons say what they do: each message keeps its own), then the
        # bot restarts.
        assert dm.button("Hide unseen cards")
        handle = await mover.click(old, label="Unseen cards")
        await handle.ack(timeout=10)
        assert unseen_of((await handle.update(timeout=10)).content) is not None
    async with running_bot(emu, db) as bot:
        info = await bot.service.match(info.id)
        # Show my hand on the board: the private answer shows the line too.
        board = thread.public_history()[-1]
        handle = await mover.click(board, label="Show my hand")
        reply = await handle.reply(timeout=10)
        assert reply.ephemeral and reply.is_visible_to(mover.user)
        assert_right(unseen_of(reply.content), info.match.view(seat))
        # And its button hides it there.
        handle = await mover.click(reply, label="Hide unseen cards")
        await handle.ack(timeout=10)
        reply = await handle.update(timeout=10)
        assert unseen_of(reply.content) is None and reply.ephemeral
        await emu.assert_all_acknowledged()
    recorder.unsubscribe()
    seen = {i: [item.text for item in items] for i, items in recorder.seen.items()}
    # The lines were the mover's alone: the opponent and the bystander never got one.
    assert any(MARK in text for text in seen[mover.id])
    assert not any(MARK in text for text in seen[other.id] + seen[carol.id])
    assert not any(MARK in m.content for m in thread.public_history())
