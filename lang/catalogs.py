"""Loading the message catalogs, once per language, into memory.

Each language has one catalog per domain (engine, render, front, bot, rules, commands); they
are merged into one lookup. A compiled `.mo` (written by `python -m langtools compile`) is used
when it is at least as new as its `.po`; otherwise the `.po` is compiled in memory, so a fresh
clone or a translator's edit works without a build step. Fuzzy entries are not used.

A lookup that finds no translation falls back to the English text, and is counted in
`MISSES` (language, context, message) so that tests can insist a game was played without one.
"""

from __future__ import annotations

import functools
import gettext
import io
import logging
import threading
from collections import Counter
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

log = logging.getLogger("schotten.lang")

LOCALES = Path(__file__).parent / "locales"
MISSES: Counter[tuple[str, str | None, str]] = Counter()
_lock = threading.Lock()


class _English(gettext.NullTranslations):
    """The last resort of every catalog: the English text, with the miss counted."""

    def __init__(self, language: str) -> None:
        super().__init__()
        self.language = language

    def _miss(self, context: str | None, message: str) -> None:
        if self.language != "en":
            with _lock:
                MISSES[(self.language, context, message)] += 1

    def gettext(self, message: str) -> str:
        self._miss(None, message)
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self._miss(None, msgid1)
        return msgid1 if n == 1 else msgid2

    def pgettext(self, context: str, message: str) -> str:
        self._miss(context, message)
        return message

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        self._miss(context, msgid1)
        return msgid1 if n == 1 else msgid2


def catalog_files(language: str) -> list[Path]:
    """The `.po` files of a language, one per domain."""
    return sorted((LOCALES / language / "LC_MESSAGES").glob("*.po"))


def _load(po: Path) -> Translations:
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as f:
            return Translations(f, domain=po.stem)
    with po.open("rb") as f:
        catalog = read_po(f, locale=po.parent.parent.name, domain=po.stem)
    buf = io.BytesIO()
    write_mo(buf, catalog)  # fuzzy entries left out, as msgfmt does
    buf.seek(0)
    return Translations(buf, domain=po.stem)


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """Every domain's catalog of `language`, merged, falling back to English."""
    fallback = _English(language)
    if language == "en":
        return fallback
    merged: Translations | None = None
    for po in catalog_files(language):
        one = _load(po)
        if merged is None:
            merged = one
        else:
            merged.merge(one)
    if merged is None:
        log.warning("no catalogs for language %r: English is used", language)
        return fallback
    merged.add_fallback(fallback)
    return merged


def reload() -> None:
    """Forget the loaded catalogs (after `python -m langtools compile`, or in tests)."""
    translations.cache_clear()
