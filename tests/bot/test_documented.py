"""README.md and config.example.toml name every setting the code reads and every rules
topic it has: a setting or a topic added to the code without its line fails here."""

import inspect
import re
from pathlib import Path

from bot.config import _KEYS, load_config
from bot.front.admin_commands import AdminCommands
from bot.front.commands import SchottenCommands
from bot.front.rules import TOPICS

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
EXAMPLE = ROOT / "config.example.toml"


def readme_settings() -> set[tuple[str, str]]:
    """The (section, key) pairs of README's configuration table: rows such as
    "| `[bot] shards`, `shard_count` | ..." name one or more keys of one section."""
    found = set()
    for row in re.findall(r"^\| (`\[\w+\][^|]*)\|", README, re.MULTILINE):
        section = re.match(r"`\[(\w+)\]", row).group(1)
        for key in re.findall(r"`(?:\[\w+\] )?(\w+)`", row):
            found.add((section, key))
    return found


def example_settings() -> set[tuple[str, str]]:
    """The (section, key) pairs config.example.toml shows, commented out or not."""
    found = set()
    section = None
    for line in EXAMPLE.read_text().splitlines():
        header = re.match(r"^\[(\w+)\]", line)
        if header:
            section = header.group(1)
            continue
        key = re.match(r"^#? ?(\w+) = ", line)
        if key and section is not None:
            found.add((section, key.group(1)))
    return found


CODE_SETTINGS = {(section, key) for section, keys in _KEYS.items() for key in keys}


def test_the_readme_lists_every_setting_of_the_config_file():
    listed = readme_settings()
    assert CODE_SETTINGS - listed == set(), "settings the code reads but README does not list"
    assert listed - CODE_SETTINGS == set(), "settings README lists but the code does not read"


def test_config_example_shows_every_setting_and_loads():
    shown = example_settings()
    assert CODE_SETTINGS - shown == set(), "settings missing from config.example.toml"
    assert shown - CODE_SETTINGS == set(), "config.example.toml shows unknown settings"
    config = load_config(EXAMPLE, environ={})  # as it stands, a valid file
    assert config.defaults.language is None  # "auto"


def test_the_readme_lists_every_option_of_both_settings_commands():
    """The members' `/schotten settings` first, then the managers' `/schotten-admin
    settings`: each README row lists its command's options in order."""
    rows = re.findall(r"^\| `settings ([^|]*)` \|", README, re.MULTILINE)
    listed = [re.findall(r"\[(\w+)\]", row) for row in rows]
    commands = (SchottenCommands.settings, AdminCommands.settings)
    options = [list(inspect.signature(c.callback).parameters)[2:] for c in commands]
    assert listed == options


def test_the_readme_lists_every_rules_topic():
    (row,) = re.findall(r"^\| `rules \[topic\]` \| ([^|]*)\|", README, re.MULTILINE)
    listed = [t.strip() for t in row.split(":", 1)[1].split(",")]
    assert listed == list(TOPICS)
