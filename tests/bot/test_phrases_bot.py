"""The services' sentences are Phrases: refusals say themselves in French and German with no
catalog miss, and the events a move stores in the outbox come back as Phrases (plain text
stored by an older bot still reads)."""

import itertools
import json
import random

import pytest

from bot.errors import NotFound, Refused
from bot.service import GameService
from bot.time_source import ManualClock
from bot.tournament.service import Tournaments
from engine.api import MatchSpec
from engine.phrases import Phrase, to_json
from lang import localise, message_of, speaking
from lang.catalogs import MISSES
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ROBOT, both_move


@pytest.fixture
async def service(tmp_path):
    seeds = itertools.count(1000)
    svc = await GameService.open(
        tmp_path / "phrases.sqlite3", clock=ManualClock(), seeds=lambda: next(seeds)
    )
    yield svc
    await svc.close()


def _bot_misses() -> list[tuple[str, str | None, str]]:
    return [key for key in MISSES if key[0] in ("fr", "de")]


async def _refusal(call) -> Phrase:
    with pytest.raises((Refused, NotFound)) as caught:
        await call
    message = caught.value.args[0]
    assert isinstance(message, Phrase), message
    return message


async def test_an_unauthorised_settings_change_is_refused_in_every_language(service):
    MISSES.clear()
    message = await _refusal(service.update_settings(GUILD, is_manager=False, reminder_hours=5))
    english = "Only members who can manage this server can change its settings."
    assert message == english
    assert localise(message, "en") == english
    assert localise(message, "fr") == (
        "Seuls les membres qui peuvent gérer ce serveur peuvent modifier ses réglages."
    )
    assert localise(message, "de") == (
        "Nur Mitglieder, die diesen Server verwalten dürfen, können seine Einstellungen ändern."
    )
    with speaking("de"):
        error = Refused(message)
        assert message_of(error) == localise(message, "de")
    assert _bot_misses() == []


async def test_refusals_with_names_and_numbers_are_translated(service):
    MISSES.clear()
    ch = await service.challenge(GUILD, CHANNEL, ALICE, BOB, MatchSpec("classic"))
    messages = [
        # Only the challenged member may decline; only the challenger may cancel.
        await _refusal(service.decline(ch.id, CAROL.id)),
        await _refusal(service.cancel(ch.id, BOB.id)),
        await _refusal(service.check_accept(ch.id, CAROL.id)),
        await _refusal(service.match(424242)),
        await _refusal(service.leaderboard(GUILD, "st1", 3)),
    ]
    assert messages[0] == "Only Bob can decline this challenge."
    assert messages[3] == "There is no game #424242."
    # English kept its words, now with a proper plural.
    assert messages[4] == "There is 1 page of players."
    french = [localise(m, "fr") for m in messages]
    german = [localise(m, "de") for m in messages]
    assert french[0] == "Ce défi ne peut être refusé que par Bob."
    assert german[1] == "Diese Herausforderung stammt von Alice; nur Alice kann sie abbrechen."
    assert german[3] == "Es gibt keine Partie #424242."
    assert french[4] == "Il y a 1 page de joueurs."
    assert all(f != e for f, e in zip(french, messages, strict=True))
    assert _bot_misses() == []


async def test_tournament_refusals_and_descriptions_are_phrases(service):
    MISSES.clear()
    tournaments = Tournaments(service)
    message = await _refusal(
        tournaments.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            creator=ALICE,
            name="Friday",
            spec=MatchSpec("classic"),
            fmt="swiss",
            rounds=3,
            round_hours=None,
            is_manager=False,
        )
    )
    assert localise(message, "fr") == (
        "Seuls les membres qui peuvent gérer ce serveur peuvent créer des tournois."
    )
    t = await tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        creator=ALICE,
        name="Friday",
        spec=MatchSpec("classic"),
        fmt="swiss",
        rounds=3,
        round_hours=None,
        is_manager=True,
    )
    described = t.describe()
    assert isinstance(described, Phrase)
    assert described.startswith("Friday (Swiss, 3 rounds, ")
    assert localise(described, "de").startswith("Friday (Schweizer System, 3 Runden, ")
    assert localise(described, "fr").startswith("Friday (système suisse, 3 rondes, ")
    assert not [
        m for m in _bot_misses() if m[2] in ("Swiss", "{name} ({format}, {count} round, {game})")
    ]


async def _board_rows(service, match_id):
    rows = await service.pending_announcements(match_id, everything=True)
    return [r for r in rows if r["kind"] == "board"]


async def test_outbox_events_are_stored_as_phrases_and_read_back(service):
    ch = await service.challenge(GUILD, CHANNEL, ALICE, BOB, MatchSpec("classic"))
    info = await service.accept(ch.id, BOB.id)
    seat = info.match.to_decide
    move = str(random.Random(5).choice(info.match.legal_moves()))
    result = await service.play(info.id, info.players[seat], move)
    described = [e.describe(info.names) for e in result.events]
    assert described and all(isinstance(d, Phrase) for d in described)

    row = (await _board_rows(service, info.id))[-1]
    stored = json.loads(row["payload"])["events"]
    assert stored == [to_json(d) for d in described]
    assert all(isinstance(e, dict) for e in stored)  # a phrase, not its English text
    # The match's turn keeps the same stored form, for the next board of the same turn.
    assert json.loads((await service.match(info.id)).turn)[2] == stored

    announcement = await service.announcement(row)
    assert announcement.lines == described  # the same English text...
    for line, original in zip(announcement.lines, described, strict=True):
        assert isinstance(line, Phrase)  # ...and still translatable
        assert (line.msgid, line.plural, line.context) == (
            original.msgid,
            original.plural,
            original.context,
        )
        assert line.values == original.values
        for language in ("fr", "de"):
            assert localise(line, language) == localise(original, language)


async def test_the_computers_name_inside_stored_events_is_translated(service):
    ch = await service.challenge(
        GUILD, CHANNEL, ALICE, ROBOT, MatchSpec("classic"), computer_id=ROBOT.id, ai_level="hard"
    )
    assert localise(ch.describe(), "fr").startswith("Alice défie Ordinateur (difficile) à ")
    info = await service.accept(ch.id, ALICE.id)
    assert info.names[1] == "Computer (hard)" and isinstance(info.names[1], Phrase)
    rng = random.Random(2)
    for _ in range(6):
        info = await service.match(info.id)
        seat = info.match.to_decide
        move = str(rng.choice(info.match.legal_moves()))
        if seat == info.ai_seat:
            await service.computer_move(info.id, move, expected_version=info.version)
        else:
            await service.play(info.id, info.players[seat], move)
    lines = [
        line
        for row in await _board_rows(service, info.id)
        for line in (await service.announcement(row)).lines
    ]
    computer = [line for line in lines if "Computer (hard)" in line]
    assert computer, lines
    MISSES.clear()
    for line in computer:
        assert isinstance(line, Phrase)
        assert "Ordinateur (difficile)" in localise(line, "fr")
        assert "Computer (schwer)" in localise(line, "de")
    assert not [m for m in _bot_misses() if m[2] in ("Computer ({level})", "hard")]


async def test_plain_text_events_stored_by_an_older_bot_still_read(service):
    ch = await service.challenge(GUILD, CHANNEL, ALICE, BOB, MatchSpec("classic"))
    info = await service.accept(ch.id, BOB.id)
    payload = {
        "state": info.match.to_json(),
        "events": ["Alice played R7 on stone 3.", "Alice drew a clan card."],
        "ratings": [],
        "started": False,
    }
    async with service.store.transaction() as tx:
        await tx.run(
            "INSERT INTO outbox (kind, match_id, version, payload, created_by, created_at,"
            " next_try) VALUES ('board', ?, ?, ?, 'old', 0, 0)",
            (info.id, info.version, json.dumps(payload)),
        )
    row = (await _board_rows(service, info.id))[-1]
    assert json.loads(row["payload"])["events"] == payload["events"]
    announcement = await service.announcement(row)
    assert announcement.lines == payload["events"]
    assert all(type(line) is str for line in announcement.lines)
    # Plain text has no translation: it is said as it was written.
    assert [localise(line, "fr") for line in announcement.lines] == payload["events"]


async def test_the_history_export_speaks_the_askers_language(service):
    ch = await service.challenge(GUILD, CHANNEL, ALICE, BOB, MatchSpec("classic"))
    info = await service.accept(ch.id, BOB.id)
    await both_move(service, info.id)  # before that, a resignation aborts (rules notes R-28)
    await service.resign(info.id, ALICE.id)
    english = await service.export(info.id)
    assert "Alice" in english.splitlines()[1] and "Bob" in english.splitlines()[2]
    assert "Result: Bob wins (resignation)" in english.splitlines()
    MISSES.clear()
    with speaking("fr"):
        french = await service.export(info.id)
    assert "Résultat : Bob gagne (abandon)" in french.splitlines()
    (game,) = [line for line in french.splitlines() if line.startswith("Manche 1 : ")]
    assert "gagnée par Bob (abandon). Alice contrôlait 0 Borne" in game
    with speaking("de"):
        german = await service.export(info.id)
    assert "Ergebnis: Bob gewinnt" in german
    assert _bot_misses() == []
