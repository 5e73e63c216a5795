"""No internal reference reaches a member: the rulings' numbers ("RULINGS ST1-11") belong in
code comments, never in a message of any catalog, in English or in a translation."""

from __future__ import annotations

import re

import pytest

from langtools.tools import DOMAINS, po_path, read, template_path

INTERNAL = re.compile(r"RULINGS|\bST[12]-\d+\b")


def _texts(message) -> list[str]:
    ids = message.id if isinstance(message.id, tuple) else (message.id,)
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return [t for t in (*ids, *strings) if t]


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_no_message_cites_the_rulings(domain):
    found = [m.id for m in read(template_path(domain)) if m.id and INTERNAL.search(str(m.id))]
    for language in ("fr", "de"):
        catalog = read(po_path(language, domain), language)
        found += [t for m in catalog if m.id for t in _texts(m) if INTERNAL.search(t)]
    assert found == []


def test_the_joker_refusal_says_no_ruling():
    from engine.errors import IllegalMoveError
    from engine.st1.position import parse_position

    game = parse_position(
        "variant: tactics\nturn: P1\nhand P1: joker2 R1\nhand P2: Y1\n"
        "stone 1: joker1 | -\ntactics played: 1 1\n"
    )
    with pytest.raises(IllegalMoveError) as refused:
        game.play("joker 2")
    assert "You have already played a Joker" in str(refused.value)
    assert not INTERNAL.search(str(refused.value))
