"""A short week (benchmarks/week.py): fewer members, games and days, the same events (an
archived and a locked thread, Send Messages taken and given back, closed DMs, members
leaving, a Discord outage, the bot removed from a server with its Swiss under way), on both
stores. The targets of the full week hold here too."""

import pytest

from benchmarks.week import run_week
from benchmarks.week_scenario import WeekPlan

SHORT = WeekPlan(
    members=12,
    games=12,
    days=2.5,
    swiss_players=4,
    swiss_rounds=2,
    swiss_round_hours=12.0,
    second_swiss_players=4,
    second_swiss_rounds=2,
    second_swiss_round_hours=12.0,
    second_swiss_at=0.5,
)


@pytest.fixture
def bot_database(database):
    """The week runs on both backends: a SQLite file and PostgreSQL."""
    return database


async def test_a_short_week_meets_the_targets(bot_database):
    found = await run_week(SHORT, bot_database)
    counts, troubles = found["counts"], found["troubles"]
    assert counts["week_stalled_games"] == 0, troubles
    assert counts["week_lost_announcements"] == 0, troubles
    assert counts["week_orphan_threads"] == 0
    assert counts["week_invalid_requests_per_10min_max"] <= 100
    assert counts["week_games"] >= 6 and counts["week_moves"] > 0
    assert counts["week_games_finished"] >= 1
    assert counts["week_outage_answers"] > 0  # the outage met the bot's requests
    assert troubles == []  # every member's turn was taken by the bot
    assert found["missed"] == []  # every event found what it acts on
