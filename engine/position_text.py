"""Reading hand-written positions: the `key: value` lines both games' formats share."""

from __future__ import annotations

import re
from collections.abc import Collection

from engine.cards import AnyCard, parse_card
from engine.errors import InvalidMoveError, PositionError

_PLAYER = {"p1": 0, "p2": 1, "1": 0, "2": 1}


class PositionText:
    """The lines of a position: named fields, and numbered places ("stone 3", "tile 4")."""

    def __init__(self, text: str, *, place: str, count: int, known: Collection[str]) -> None:
        self.fields: dict[str, str] = {}
        self.places: dict[int, str] = {}
        for raw in text.splitlines():
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if ":" not in line:
                raise PositionError(f"{line!r}: expected `key: value`")
            key = re.sub(r"\s+", " ", line.split(":", 1)[0].strip().lower())
            m = re.fullmatch(rf"{place} ([0-9]+)", key)
            if m:
                n = whole(m.group(1), digits=3)
                if n is None or not 1 <= n <= count:
                    raise PositionError(f"{line!r}: {place}s are numbered 1 to {count}")
                self.places[n] = line
            elif key not in known:
                raise PositionError(f"unknown line {line!r}")
            elif key in self.fields:
                raise PositionError(f"{key!r} is given twice")
            else:
                self.fields[key] = line

    def value(self, key: str, default: str = "") -> str:
        line = self.fields.get(key)
        return line.split(":", 1)[1].strip() if line is not None else default

    def line(self, key: str) -> str:
        return self.fields.get(key, key)

    def seed(self) -> int:
        text = self.value("seed", "0")
        n = whole(text, digits=20)
        if n is None:
            raise PositionError(f"the seed must be a whole number, not {text!r}")
        return n


def whole(text: str, *, digits: int) -> int | None:
    """A whole number written in at most `digits` ASCII digits, or None. (`str.isdigit`
    accepts `③`, which `int` refuses, and `int` refuses more than 4,300 digits.)"""
    return int(text) if re.fullmatch(rf"[0-9]{{1,{digits}}}", text) else None


def player(word: str, line: str) -> int:
    if word.lower() not in _PLAYER:
        raise PositionError(f"{line!r}: players are P1 and P2, not {word!r}")
    return _PLAYER[word.lower()]


def cards(text: str, line: str) -> list[AnyCard]:
    """Cards separated by spaces; `-` (or nothing, or `empty`) for none."""
    text = text.strip()
    if text in ("", "-", "empty"):
        return []
    try:
        return [parse_card(w) for w in text.split()]
    except InvalidMoveError as e:
        raise PositionError(f"{line!r}: {e}") from None
