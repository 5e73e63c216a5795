"""The docs cannot drift from the code: docs/running.md and config.example.toml name every
setting the code reads, docs/playing.md every command, option of both settings commands and
rules topic, docs/architecture.md's layout every tracked module of the product, and no
README.md or docs/*.md link points at a file or #section that does not exist. Adding a
module, a setting, a command or a topic without its line fails here."""

import fnmatch
import inspect
import re
import subprocess
from pathlib import Path

import discord

from bot.config import _KEYS, load_config
from bot.front.admin_commands import AdminCommands
from bot.front.command_tree import command_tree
from bot.front.commands import SchottenCommands
from bot.front.rules import TOPICS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
RUNNING = (DOCS / "running.md").read_text()
PLAYING = (DOCS / "playing.md").read_text()
ARCHITECTURE = (DOCS / "architecture.md").read_text()
EXAMPLE = ROOT / "config.example.toml"
PRODUCT = ["engine", "render", "lang", "bot", "discord_loopback", "langtools", "benchmarks"]


def documented_settings() -> set[tuple[str, str]]:
    """The (section, key) pairs of docs/running.md's configuration table: rows such as
    "| `[bot] shards`, `shard_count` | ..." name one or more keys of one section."""
    found = set()
    for row in re.findall(r"^\| (`\[\w+\][^|]*)\|", RUNNING, re.MULTILINE):
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


def test_the_running_doc_lists_every_setting_of_the_config_file():
    listed = documented_settings()
    assert CODE_SETTINGS - listed == set(), "settings the code reads but running.md lacks"
    assert listed - CODE_SETTINGS == set(), "settings running.md lists but the code lacks"


def test_config_example_shows_every_setting_and_loads():
    shown = example_settings()
    assert CODE_SETTINGS - shown == set(), "settings missing from config.example.toml"
    assert shown - CODE_SETTINGS == set(), "config.example.toml shows unknown settings"
    config = load_config(EXAMPLE, environ={})  # as it stands, a valid file
    assert config.defaults.language is None  # "auto"


def test_the_playing_doc_lists_every_option_of_both_settings_commands():
    """The members' `/schotten settings` first, then the managers' `/schotten-admin
    settings`: each row of docs/playing.md lists its command's options in order."""
    rows = re.findall(r"^\| `settings ([^|]*)` \|", PLAYING, re.MULTILINE)
    listed = [re.findall(r"\[(\w+)\]", row) for row in rows]
    commands = (SchottenCommands.settings, AdminCommands.settings)
    options = [list(inspect.signature(c.callback).parameters)[2:] for c in commands]
    assert listed == options


def test_the_playing_doc_lists_every_rules_topic():
    (row,) = re.findall(r"^\| `rules \[topic\]` \| ([^|]*)\|", PLAYING, re.MULTILINE)
    listed = [t.strip() for t in row.split(":", 1)[1].split(",")]
    assert listed == list(TOPICS)


def command_rows() -> dict[str, list[set[str]]]:
    """The first cells of docs/playing.md's two command tables, as sets of the words in
    backticks: the `/schotten` table, then the one after "Under `/schotten-admin`"."""
    members, managers = PLAYING.split("Under `/schotten-admin`", 1)
    tables = {}
    for root, text in (("schotten", members), ("schotten-admin", managers)):
        cells = re.findall(r"^\| (`[^|]*)\|", text, re.MULTILINE)
        tables[root] = [
            set(re.findall(r"[\w-]+", " ".join(re.findall(r"`([^`]*)`", c)))) for c in cells
        ]
    return tables


def test_the_playing_doc_lists_every_command():
    """Each command, group commands' subcommands one by one (`tournament join`), has a row
    of its table whose first cell names it."""
    tree = command_tree(discord.Client(intents=discord.Intents.none()))
    tables = command_rows()
    missing = []
    for group in tree.get_commands():
        for command in group.walk_commands():
            if isinstance(command, discord.app_commands.Group):
                continue
            words = set(command.qualified_name.split()[1:])
            if not any(words <= row for row in tables[group.name]):
                missing.append(command.qualified_name)
    assert missing == [], "commands docs/playing.md does not list"


def tracked_modules() -> list[str]:
    """The product's tracked Python modules (as git sees them), a package's __init__.py
    standing for the package."""
    out = subprocess.run(
        ["git", "ls-files", "--", *PRODUCT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return sorted(path for path in out if path.endswith(".py"))


def layout_names() -> tuple[set[str], set[str]]:
    """The files (and globs such as `st2_*.py`) and the folders named in the layout block of
    docs/architecture.md, each with its folder. A line starting with `name/` opens a folder
    for the lines indented more; the words of a folder's own line name files inside it
    (`tournament/  pure: games.py ...`), those of a file's line files beside it."""
    block = ARCHITECTURE.split("## Layout", 1)[1].split("```", 2)[1]
    files, folders = set(), set()
    stack: list[tuple[int, str]] = []  # (indent, folder path)
    context = ""
    for line in block.splitlines()[1:]:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        entry = re.match(r"\s*([\w.*]+/|[\w.*]+\.py)[\s,]", line + " ")
        if entry and indent < 19:  # descriptions continue from column 19 or beyond
            while stack and stack[-1][0] >= indent:
                stack.pop()
            parent = stack[-1][1] if stack else ""
            if entry.group(1).endswith("/"):
                folder = parent + entry.group(1)
                folders.add(folder)
                stack.append((indent, folder))
                context = folder
            else:
                context = parent
        for name in re.findall(r"(?<![\w/.])([\w*]+\.py)\b", line):
            if name != "discord.py":  # the library, not a module of ours
                files.add(context + name)
    return files, folders


def test_the_layout_names_every_tracked_module():
    files, folders = layout_names()
    missing = []
    for path in tracked_modules():
        folder = path.rsplit("/", 1)[0] + "/"
        if path.endswith("/__init__.py") and folder in folders:
            continue  # the package's own line describes it
        if not any(fnmatch.fnmatchcase(path, name) for name in files):
            missing.append(path)
    assert missing == [], "modules docs/architecture.md's layout does not describe"


def test_the_layout_names_no_module_that_is_gone():
    tracked = tracked_modules()
    files, _ = layout_names()
    ours = [n for n in files if n.split("/")[0] in PRODUCT]  # tests/ is described, not held
    gone = [n for n in ours if not any(fnmatch.fnmatchcase(p, n) for p in tracked)]
    assert gone == [], "the layout describes modules that do not exist"


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(), flags=re.DOTALL)
    return {slug(h) for h in re.findall(r"^#+ (.*)$", text, re.MULTILINE)}


def doc_links() -> list[tuple[Path, str]]:
    docs = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    found = []
    for doc in docs:
        text = re.sub(r"```.*?```", "", doc.read_text(), flags=re.DOTALL)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if not re.match(r"[a-z]+:", target):  # not https:, mailto:
                found.append((doc, target))
    return found


def test_every_doc_link_reaches_a_file_and_section():
    assert len(doc_links()) > 20  # the docs link to each other: the test reads them
    broken = []
    for doc, target in doc_links():
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if not file.exists():
            broken.append(f"{doc.name}: {target}")
            continue
        if anchor and anchor not in anchors(file):
            broken.append(f"{doc.name}: {target}")
    assert broken == []
