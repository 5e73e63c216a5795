"""German wording that a test can express: cards' pronouns and one term per thing.

The expectations are read from the catalogs and from lang/GLOSSARY.md (its German decisions
table), so a translator who changes a term changes it there, not here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.cards import Tactic, TacticCard, card_named
from lang import localise, speaking
from langtools import tools

GLOSSARY = Path(__file__).parents[2] / "lang" / "GLOSSARY.md"
# German third-person pronouns for a thing, by the gender of its article.
PRONOUNS = {"den": {"er", "ihn"}, "der": {"er", "ihn"}, "die": {"sie"}, "das": {"es"}}
ALL_PRONOUNS = {"er", "ihn", "sie", "es"}
# Cards played on their own, with a legal move that chooses them in the card menu.
ALONE = [
    ("st1", "recruiter", ["recruiter"]),
    ("st2", "explode", ["explode 3", "explode 5"]),
    ("st2", "exchange", ["exchange"]),
]


def _allowed_pronouns(kind: Tactic) -> set[str]:
    """The pronouns that agree with the card's name: its gender from the article of its
    "card as object" form ("den Anwerber"); none when that form names another noun ("die
    Karte Tausch": the gender of "Tausch" is not told)."""
    name = localise(kind.title, "de")
    article, _, rest = localise(card_named(TacticCard(kind)), "de").partition(" ")
    return PRONOUNS.get(article, set()) if rest == name else set()


@pytest.mark.parametrize(("game", "code", "legal"), ALONE, ids=[a[1] for a in ALONE])
async def test_a_card_played_alone_is_asked_for_by_its_name_and_its_own_gender(
    game: str, code: str, legal: list[str]
) -> None:
    from bot.front.controls import step_view

    kind = Tactic(code)
    with speaking("de"):
        prompt, _ = step_view(1, 0, game, legal, ("card", code))
    name = localise(kind.title, "de")
    assert prompt.startswith(f"**{name}**"), prompt  # the card's name, not the move's
    words = set(re.findall(r"\w+", prompt.partition("**:")[2]))
    wrong = (words & ALL_PRONOUNS) - _allowed_pronouns(kind)
    assert not wrong, f"{prompt!r}: {wrong} does not agree with {name}"


def _rejected_terms() -> list[tuple[str, str]]:
    """(rejected, chosen) from the glossary's German decisions table (its last section)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    section = text.split("## 9. German: one term each")[1].split("\n## ")[0]
    pairs = []
    for row in section.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("thing", "") or set(cells[0]) <= {"-"}:
            continue
        bold = re.search(r"\*\*(.+?)\*\*", cells[1])
        chosen = bold.group(1) if bold else cells[1]
        pairs += [(r.strip().strip('"'), chosen) for r in cells[2].split(";") if r.strip()]
    return pairs


def test_the_glossary_names_terms_to_avoid() -> None:
    rejected = [r for r, _ in _rejected_terms()]
    assert "Kartenstapel" in rejected and len(rejected) >= 8


def test_no_german_message_uses_a_rejected_term() -> None:
    found = []
    terms = _rejected_terms()
    for domain in tools.DOMAINS:
        for message in tools.read(tools.po_path("de", domain), "de"):
            forms = [message.string] if isinstance(message.string, str) else message.string
            for form in forms:
                for rejected, chosen in terms:
                    if re.search(rf"(?<!\w){re.escape(rejected)}(?!\w)", form or ""):
                        found.append(f"{domain}: {rejected!r} (say {chosen!r}) in {form!r}")
    assert not found, "\n".join(found[:20])
