"""Issue 39, item 13 b and c: the CLI's usage line names every command, and every doc
section config.example.toml points at exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]


def commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return list(sub.choices)


def test_the_usage_line_names_every_command(capsys):
    assert {"run", "sandbox", "migrate-db", "backup", "restore", "check"} <= set(commands())
    with pytest.raises(SystemExit):
        main(["--help"])
    usage = capsys.readouterr().out.split("\n\n")[0]
    listed = re.search(r"\{([^}]*)\}", usage)
    assert listed is not None, usage
    assert listed.group(1).split(",") == commands(), usage


def test_every_doc_section_the_example_config_names_exists():
    """config.example.toml points at sections as (docs/running.md, "Heading")."""
    example = (ROOT / "config.example.toml").read_text()
    named = re.findall(r'\((README\.md|docs/[\w-]+\.md),\s*"([^"]+)"', example)
    assert named, "config.example.toml names no doc section any more: drop this test"
    missing = []
    for doc, heading in named:
        text = (ROOT / doc).read_text()
        headings = {line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")}
        if heading not in headings:
            missing.append((doc, heading))
    assert missing == []
