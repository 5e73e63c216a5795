"""Every behaviour of Discord the loopback plays is a row of its README's table, with its
tests named, and the names can only be switched off one by one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import discord_loopback
from discord_loopback import Emulator
from discord_loopback.behaviours import BEHAVIOURS

README = Path(discord_loopback.__file__).with_name("README.md")
ROOT = Path(discord_loopback.__file__).parent.parent


def table_rows() -> dict[str, list[str]]:
    """The README's behaviour table: name -> its other cells."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Discord's behaviours", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        match = re.match(r"\|\s*`([a-z_]+)`\s*\|(.*)\|\s*$", line)
        if match:
            rows[match[1]] = [cell.strip() for cell in match[2].split("|")]
    return rows


def test_every_behaviour_has_one_row_and_every_row_a_behaviour() -> None:
    assert sorted(table_rows()) == sorted(BEHAVIOURS)


def test_every_row_says_the_rule_how_it_is_played_and_names_tests_that_exist() -> None:
    for name, cells in table_rows().items():
        assert len(cells) == 3 and all(cells), f"{name}: {cells}"
        files = re.findall(r"(tests/[\w/]+\.py)", cells[2])
        # One test that fails if the loopback stops playing it, one if the bot mishandles it.
        assert any(f.startswith("tests/discord_loopback/") for f in files), name
        assert any(f.startswith("tests/bot/") for f in files), name
        for file in files:
            assert (ROOT / file).is_file(), f"{name}: {file} does not exist"
        for test in re.findall(r"::(test_\w+)", cells[2]):
            sources = " ".join((ROOT / f).read_text(encoding="utf-8") for f in files)
            assert f"def {test}(" in sources, f"{name}: {test} not found in {files}"


def test_all_behaviours_are_played_by_default() -> None:
    emu = Emulator()
    assert all(emu.plays(name) for name in BEHAVIOURS)


def test_a_behaviour_is_switched_off_only_by_its_name() -> None:
    emu = Emulator(without={"token_expiry"})
    assert not emu.plays("token_expiry")
    assert all(emu.plays(name) for name in BEHAVIOURS if name != "token_expiry")
    with pytest.raises(ValueError, match="no such behaviour"):
        Emulator(without={"tokens_expire"})
    with pytest.raises(KeyError):
        emu.plays("tokens_expire")
