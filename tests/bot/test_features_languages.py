"""The slash commands' answers, the look-back and the tournament texts (the `features`
domain) in French and German, and the server's language setting."""

import pytest
from babel.messages.pofile import read_po

from bot.front import commands, lookback, tournaments
from bot.records import GameSummary
from bot.sandbox import running_bot
from bot.service import GameService
from bot.time_source import ManualClock
from bot.tournament.records import Entrant, Pairing, TournamentInfo
from engine.api import MatchSpec
from lang import speaking
from lang.catalogs import MISSES
from langtools.tools import template_path

GUILD = 10


def _features() -> set[tuple[str | None, str]]:
    with template_path("features").open("rb") as f:
        catalog = read_po(f)
    return {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in catalog if m.id}


FEATURES = _features()


def features_misses() -> list[tuple[str, str | None, str]]:
    """Lookups of this domain's messages that found no translation."""
    return [m for m in MISSES if (m[1], m[2]) in FEATURES]


def tournament(status: str = "open", fmt: str = "swiss") -> TournamentInfo:
    return TournamentInfo(
        id=1,
        guild_id=GUILD,
        channel_id=100,
        creator_id=1,
        name="Friday Swiss",
        spec=MatchSpec("classic"),
        format=fmt,
        rounds=3,
        round_hours=48.0,
        status=status,
        round=1 if status == "running" else 0,
        round_deadline=None,
        created_at=0.0,
        message_id=None,
        announced=0,
        entrants=(Entrant(1, "Alice", None, False), Entrant(2, "Bob", None, False)),
    )


def pairing(second: int | None, points: tuple[float, float] | None, forfeit: bool) -> Pairing:
    return Pairing(1, 1, 1, 1, second, None, points, forfeit)


def texts() -> dict[str, str]:
    """Texts of each kind built here, in the current language."""
    t = tournament()
    summary = GameSummary(7, "classic", "Schotten Totten", 2, "Bob", "loss", "", 0.0, False)
    return {
        "bye": tournaments.pairing_line(t, pairing(None, None, False), ping=False),
        "free": tournaments.pairing_line(
            tournament(fmt="round-robin"), pairing(None, None, False), ping=False
        ),
        "forfeit": tournaments.pairing_line(t, pairing(2, (1.0, 0.0), True), ping=False),
        "streak": commands._streak("loss", 2),
        "streak1": commands._streak("win", 1),
        "history": commands._history_line(summary),
        "result": commands.result_word("draw"),
        "level": lookback.level_word("hard"),
        "winners": tournaments._winners(["Alice", "Bob"]),
        "note": tournaments._note("head-to-head"),
        "cell": tournaments._cell("B", None),
        "sign-up": tournaments._sign_up("running"),
        "format": tournaments.format_name("round-robin"),
        "announcement": tournaments.announcement(t),
    }


EXPECTED = {
    "en": {
        "bye": "• Alice: bye (1 point)",
        "free": "• Alice: free round (no game, no point)",
        "forfeit": "• Alice vs Bob: 1–0 (forfeit)",
        "streak": "Current streak: 2 losses",
        "streak1": "Current streak: 1 win",
        "history": "#7 · <t:0:d> · Schotten Totten vs Bob: **loss** (unrated)",
        "result": "draw",
        "level": "hard",
        "winners": "Alice and Bob",
        "cell": "bye",
        "format": "round robin",
    },
    "fr": {
        "bye": "• Alice : exempt (1 point)",
        "free": "• Alice : exempt (pas de partie, pas de point)",
        "forfeit": "• Alice contre Bob : 1–0 (forfait)",
        "streak": "Série en cours : 2 défaites",
        "streak1": "Série en cours : 1 victoire",
        "history": "#7 · <t:0:d> · Schotten Totten contre Bob : **défaite** (non classée)",
        "result": "match nul",
        "level": "difficile",
        "winners": "Alice et Bob",
        "cell": "exempt",
        "format": "toutes rondes",
    },
    "de": {
        "bye": "• Alice: spielfrei (1 Punkt)",
        "free": "• Alice: spielfrei (keine Partie, kein Punkt)",
        "forfeit": "• Alice gegen Bob: 1–0 (kampflos)",
        "streak": "Aktuelle Serie: 2 Niederlagen",
        "streak1": "Aktuelle Serie: 1 Sieg",
        "history": "#7 · <t:0:d> · Schotten Totten gegen Bob: **Niederlage** (ungewertet)",
        "result": "Unentschieden",
        "level": "schwer",
        "winners": "Alice und Bob",
        "cell": "frei",
        "format": "Rundenturnier",
    },
}


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_texts_in_each_language_without_misses(language):
    MISSES.clear()
    with speaking(language):
        made = texts()
    for key, text in EXPECTED[language].items():
        assert made[key] == text, key
    assert features_misses() == []
    if language != "en":
        with speaking("en"):
            english = texts()
        # Every text is translated (the announcement keeps the Join button's word in bold).
        assert all(made[k] != english[k] for k in made), [k for k in made if made[k] == english[k]]


def test_the_announcement_in_french_and_german():
    MISSES.clear()
    with speaking("fr"):
        fr = tournaments.announcement(tournament())
    with speaking("de"):
        de = tournaments.announcement(tournament())
    assert fr.startswith("🏆 **Friday Swiss** : un tournoi au système suisse de ")
    assert "en 3 rondes ; chaque ronde dure 48 h." in fr
    # The button's own label, the word of the command `rejoindre` and "Vous avez rejoint".
    assert "Joueurs (2) : Alice, Bob." in fr and "**Rejoindre**" in fr
    assert de.startswith("🏆 **Friday Swiss**: ein Turnier im Schweizer System in ")
    assert "Spieler (2): Alice, Bob." in de and "**Beitreten**" in de
    assert features_misses() == []


def test_the_stats_embed_in_german():
    from bot.records import PlayerStats, Record

    stats = PlayerStats(
        user_id=1,
        name="Alice",
        overall=Record(3, 1, 0),
        streak=("win", 3),
        ratings={},
        per_variant={},
        against=None,
        recent=[GameSummary(7, "classic", "Schotten Totten", 2, "Bob", "win", "", 0.0, True)],
        active=1,
    )
    MISSES.clear()
    with speaking("de"):
        embed = commands._stats_embed(stats, "Alice")
    assert embed.title == "Alice: Statistik"
    assert embed.description is not None
    lines = embed.description.splitlines()
    assert lines[0].startswith("4 beendete Partien: ")
    assert lines[1:] == ["Aktuelle Serie: 3 Siege", "Laufende Partien: 1"]
    recent = [f for f in embed.fields if f.name == "Zuletzt"]
    assert recent and recent[0].value == "#7 gegen Bob: Sieg"
    assert features_misses() == []


async def test_the_language_setting_is_stored_and_read_back(tmp_path):
    path = tmp_path / "settings.sqlite3"
    service = await GameService.open(path, clock=ManualClock())
    try:
        assert (await service.settings(GUILD)).language is None
        await service.update_settings(GUILD, is_manager=True, language="fr")
    finally:
        await service.close()
    service = await GameService.open(path, clock=ManualClock())
    try:
        assert (await service.settings(GUILD)).language == "fr"
        await service.update_settings(GUILD, is_manager=True, language=None)
        assert (await service.settings(GUILD)).language is None
    finally:
        await service.close()


async def test_the_settings_command_sets_the_language_of_public_posts(world):
    emu, guild, alice, bob, _carol, db = world
    async with running_bot(emu, db) as bot:
        channel = guild.default_channel
        alice.manage_guild = True
        handle = await alice.slash(("schotten-admin", "settings"), where=channel, language="fr")
        reply = await handle.reply()
        # Alice's own answer is in her language (English); it names the new setting.
        assert reply.ephemeral and reply.content.startswith("Settings updated.\n")
        assert reply.content.endswith("\n• language of my posts: French")
        assert (await bot.service.settings(guild.id)).language == "fr"
        # A public post now speaks the server's language.
        board = await (await bob.slash(("schotten", "leaderboard"), where=channel)).reply()
        assert not board.ephemeral
        assert "Personne n'a encore terminé de partie classée" in board.embed_text()
        # A member who may not change them still sees the settings, in their language.
        shown = await (await bob.slash(("schotten", "settings"), where=channel)).reply()
        assert shown.content.startswith("Settings of this server (its managers change them with")
        assert "• language of my posts: French" in shown.content
        # "server default" follows the server's Discord language (English here).
        handle = await alice.slash(("schotten-admin", "settings"), where=channel, language="auto")
        reply = await handle.reply()
        assert reply.content.endswith("\n• language of my posts: the server's (English)")
        assert (await bot.service.settings(guild.id)).language is None
        board = await (await bob.slash(("schotten", "leaderboard"), where=channel)).reply()
        assert "Nobody has finished a rated game yet" in board.embed_text()
        await emu.assert_all_acknowledged()
