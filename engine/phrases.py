"""Sentences the engine (and the bot's services) say, kept translatable.

A `Phrase` is English text, so every caller that treats it as a string keeps working, that
also remembers how it was made: its message id (the English template with `{name}`
placeholders, the key of the message catalogs in `lang/`), its plural and count, its
context, and the values put into it, which may be Phrases themselves. The bot says it in a
reader's language with `lang.localise`. Nothing here reads a catalog: the engine has no I/O.

Write `say("{card} is not in your hand.", card=card)`, never an f-string, so that the
catalog extractor (`python -m langtools extract`) finds the template.
"""

from __future__ import annotations

from typing import Any

# A value put into a phrase: words (maybe a Phrase) or a number.
Value = str | int | float


class Phrase(str):
    """English text with what a translation needs (see the module's docstring)."""

    # (A str subclass cannot have __slots__: the attributes live in the instance's dict.)
    msgid: str
    plural: str | None
    context: str | None
    values: dict[str, Value]

    def __new__(
        cls,
        msgid: str,
        plural: str | None = None,
        context: str | None = None,
        values: dict[str, Value] | None = None,
    ) -> Phrase:
        values = dict(values or {})
        template = msgid
        if plural is not None and values.get("count") != 1:
            template = plural
        self = super().__new__(cls, template.format(**values) if values else template)
        self.msgid = msgid
        self.plural = plural
        self.context = context
        self.values = values
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:
        # Pickled (process pools, copies) with its template, not only its English text.
        return (self.msgid, self.plural, self.context, self.values)

    # Shadows str.count on purpose: a phrase is asked for its plural's number, never to count
    # substrings (the catalogs and renderers read `.count`).
    @property
    def count(self) -> int | None:  # type: ignore[override]
        """The number that picks the plural form, when the phrase has one."""
        n = self.values.get("count")
        return n if self.plural is not None and isinstance(n, int) else None

    def to_json(self) -> dict[str, Any]:
        """A JSON form, for phrases stored until they are said (the outbox)."""
        out: dict[str, Any] = {"m": self.msgid}
        if self.plural is not None:
            out["p"] = self.plural
        if self.context is not None:
            out["c"] = self.context
        if self.values:
            out["v"] = {k: to_json(v) for k, v in self.values.items()}
        return out


def to_json(text: Value) -> Any:
    """A phrase as `Phrase.to_json`; plain text and numbers as they are."""
    return text.to_json() if isinstance(text, Phrase) else text


def from_json(data: Any) -> Any:
    """The inverse of `to_json`: plain strings (stored before phrases existed) stay strings."""
    if isinstance(data, dict) and "m" in data:
        values = {k: from_json(v) for k, v in data.get("v", {}).items()}
        return Phrase(data["m"], data.get("p"), data.get("c"), values)
    return data


# The marks the extractor looks for (langtools/tools.py KEYWORDS): keep their signatures.


def say(msgid: str, /, **values: Value) -> Phrase:
    """A sentence with placeholders: `say("{player} claimed stone {stone}.", ...)`."""
    return Phrase(msgid, None, None, values)


def say_n(singular: str, plural: str, count: int, /, **values: Value) -> Phrase:
    """A sentence whose form depends on `count`, which is also its `{count}` placeholder."""
    return Phrase(singular, plural, None, {"count": count, **values})


def say_in(context: str, msgid: str, /, **values: Value) -> Phrase:
    """A sentence whose words need a context to translate ("stone" the place, not the rock)."""
    return Phrase(msgid, None, context, values)


def N_(msgid: str) -> str:
    """Mark a constant for the catalogs without translating it here (it is translated where it
    is used, with `lang._`): module-level tables are built before anyone's language is known."""
    return msgid
