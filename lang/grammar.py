"""Filling a translated template with its values, as a native reader expects.

French elides "de", "que", "le" and "la" before a word that starts with a vowel or an h:
"la main d'Alice", "qu'Hélène", not "de Alice". A translator writes "de {name}" once; which
form the sentence needs depends on the name, so `fill` picks it when the value goes in.
"""

from __future__ import annotations

import re
import string
from typing import Any

# The words French elides before a vowel or a mute h, and their elided forms.
_ELIDED = {
    "de": "d'",
    "que": "qu'",
    "le": "l'",
    "la": "l'",
    "jusque": "jusqu'",
    "lorsque": "lorsqu'",
    "puisque": "puisqu'",
}
_BEFORE = re.compile(r"(?<![\w'])(" + "|".join(_ELIDED) + r") $", re.IGNORECASE)
# A word (not a number, a card code like O5 or a mention) starting with a vowel or an h.
_VOWEL = re.compile(r"^[aeiouhàâäéèêëîïôöûüœæ][a-zàâäéèêëîïôöûüçœæ'-]", re.IGNORECASE)
_FORMATTER = string.Formatter()


def elides(word: str) -> bool:
    """Whether French elides "de", "que", "le" before `word` ("Alice", "Hélène", "une")."""
    return bool(_VOWEL.match(word))


def elide(before: str, word: str) -> str:
    """ "de" / "que" / "le" / "la" (`before`, in its case) as it is written before `word`,
    with its space: `elide("de", "Alice") == "d'"`, `elide("de", "Bob") == "de "`."""
    elided = _ELIDED.get(before.lower())
    if elided is None or not elides(word):
        return before + " "
    return before[0] + elided[1:]


def fill(template: str, language: str, /, **values: Any) -> str:
    """`template.format(**values)`, with French elision before the values that need it."""
    if language != "fr":
        return template.format(**values)
    out: list[str] = []
    for literal, field, spec, conversion in _FORMATTER.parse(template):
        out.append(literal)
        if field is None:
            continue
        value, _ = _FORMATTER.get_field(field, (), values)
        value = _FORMATTER.convert_field(value, conversion)
        text = _FORMATTER.format_field(value, _FORMATTER.vformat(spec or "", (), values))
        so_far = "".join(out)
        before = _BEFORE.search(so_far)
        if before is not None and elides(text):
            out = [so_far[: before.start()], elide(before.group(1), text)]
        out.append(text)
    return "".join(out)
