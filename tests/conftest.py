"""Shared test settings, and PostgreSQL for the tests that run on both backends."""

import itertools
import os

import pytest
from hypothesis import HealthCheck, settings

from tests.pg_cluster import MISSING, Cluster, server_bin

# Property tests run a fixed, generous number of examples; the machine is slow and shared,
# so no per-example deadline (speed is measured by benchmarks, not tests).
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("default")


# PostgreSQL ---------------------------------------------------------------------------------

_databases = itertools.count(1)


@pytest.fixture(scope="session")
def pg_cluster():
    """One PostgreSQL server for the whole run, started on first use."""
    if server_bin() is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the PostgreSQL tests: {MISSING}")
        pytest.skip(MISSING)
    cluster = Cluster()
    cluster.start()
    yield cluster
    cluster.stop()


@pytest.fixture
async def pg_url(pg_cluster):
    """A new, empty database on the test cluster."""
    name = f"t{os.getpid()}_{next(_databases)}"
    yield await pg_cluster.create_database(name)
    await pg_cluster.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """Each backend in turn: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "schotten.sqlite3"
    return request.getfixturevalue("pg_url")


# The suite's longest tests (a minute or so each, measured with --durations), run first:
# the two workers (pytest-xdist) then share out the short ones around them, instead of
# one worker starting a long test near the end while the other sits idle.
LONGEST_FIRST = (
    "tests/bot/test_every_word.py::test_the_sandbox_tour",
    "tests/bot/test_shard_processes.py::",
    "tests/bot/test_every_word.py::test_two_members",
    "tests/bot/test_cli.py::test_the_sandbox_runs_two_bot_processes",
    "tests/bot/test_first_run.py::test_the_sandbox_is_repeatable",
    "tests/bot/test_crashes.py::",
    "tests/render/test_languages.py::",  # one group (see there), about a minute in all
    "tests/bot/test_e2e.py::test_a_full_game",
    "tests/bot/test_languages_e2e.py::",
    "tests/engine/test_proof.py::",
    "tests/bot/test_e2e.py::test_closed_dms",
    "tests/bot/test_acknowledgements.py::",
    "tests/bot/test_hidden_information.py::",
)


def _rank(item: pytest.Item) -> int:
    for rank, prefix in enumerate(LONGEST_FIRST):
        if item.nodeid.startswith(prefix):
            return rank
    return len(LONGEST_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: the rest keep their order
