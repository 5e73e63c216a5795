"""Examples that run: the engine's doctests in engine/api.py, and every ```python block of
README.md and docs/*.md, which is written as a `>>>` session and run as a doctest. An
example that no longer matches the code fails here."""

import doctest
import re
from pathlib import Path

import pytest

import engine.api

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FLAGS = doctest.ELLIPSIS


def test_the_engine_api_examples_run():
    result = doctest.testmod(engine.api, optionflags=FLAGS)
    assert result.attempted >= 10, "engine/api.py lost its examples"
    assert result.failed == 0


def python_blocks() -> list[tuple[str, int, str]]:
    """(doc, line, text) of every ```python block of the docs."""
    blocks = []
    for doc in DOCS:
        text = doc.read_text()
        for found in re.finditer(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
            line = text.count("\n", 0, found.start()) + 1
            blocks.append((doc.relative_to(ROOT).as_posix(), line, found.group(1)))
    return blocks


def test_the_docs_have_python_examples():
    assert python_blocks(), "no ```python block left in the docs: drop this test"


BLOCKS = python_blocks()


@pytest.mark.parametrize(("doc", "line", "text"), BLOCKS, ids=[f"{d}:{n}" for d, n, _ in BLOCKS])
def test_a_docs_python_block_runs(doc: str, line: int, text: str):
    name = f"{doc}:{line}"
    test = doctest.DocTestParser().get_doctest(text, {}, name, doc, line)
    assert test.examples, f"{name}: a ```python block is written as a >>> session"
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0, name
