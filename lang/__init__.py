"""The bot's languages: English (the source, and the fallback), French and German.

Every sentence is written in English in the code and translated through gettext catalogs
(`lang/locales/<language>/LC_MESSAGES/<domain>.po`, managed with Babel: see `python -m langtools`).
A missing translation falls back to the English text, never to an error or an empty string.

Who reads decides the language: the code that answers a member (a command, a button) sets
theirs with `use`, a public post is written inside `speaking(server_language)`. The language
lives in a context variable, so it follows a request's task and its worker threads, but not
timers or the outbox: those read the language stored with the member or the server.

- `_`, `ngettext`, `pgettext`, `npgettext`: translate now, in the current language; format
  afterwards (`_("{player} wins").format(player=name)`).
- `localise(text)`: a `Phrase` (engine/phrases.py, made before anyone's language was known)
  in the current language; plain text is returned as it is.
- `fill(template, **values)`: `str.format` with the grammar a value asks of its template
  (French elision: "de {name}" gives "d'Alice"; `lang/grammar.py`). Phrases are filled so.
- `command("move")`, `option("rounds", 2)`, `mention("move")`: a command named in a sentence,
  as Discord's mention once the bot knows its id (`lang/mentions.py`), in every language.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from engine.phrases import N_, Phrase, say, say_in, say_n
from lang import grammar
from lang.catalogs import translations
from lang.mentions import COMMAND, command, name_command, option

__all__ = [
    "LANGUAGES",
    "NAMES",
    "N_",
    "Phrase",
    "_",
    "command",
    "current",
    "fill",
    "language_of",
    "localise",
    "mention",
    "message_of",
    "ngettext",
    "npgettext",
    "option",
    "pgettext",
    "say",
    "say_in",
    "say_n",
    "speaking",
    "use",
]

# English first: it is the source language and the fallback.
LANGUAGES = ("en", "fr", "de")
# Each language in its own words, for menus.
NAMES = {"en": "English", "fr": "Français", "de": "Deutsch"}
DEFAULT = "en"

_language: ContextVar[str] = ContextVar("language", default=DEFAULT)


def language_of(locale: object) -> str:
    """Our language for a Discord locale ("fr", "de", "en-GB", a `discord.Locale`), or for one
    of our own codes; English for anything else (and for None)."""
    if locale is None:
        return DEFAULT
    code = str(getattr(locale, "value", locale)).lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else DEFAULT


def current() -> str:
    """The language of the text being written now."""
    return _language.get()


def use(language: str | None) -> None:
    """Speak `language` for the rest of this task (a request's entry point calls it)."""
    _language.set(language_of(language))


@contextmanager
def speaking(language: str | None) -> Iterator[str]:
    """Speak `language` inside the block (a public post amid a private answer)."""
    token = _language.set(language_of(language))
    try:
        yield _language.get()
    finally:
        _language.reset(token)


def _(message: str) -> str:
    return translations(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations(current()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return translations(current()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return translations(current()).npgettext(context, singular, plural, n)


def localise(text: object, language: str | None = None) -> str:
    """`text` in `language` (the current one if None): a Phrase is translated, with the
    phrases inside it; anything else is returned as text. A translation that does not fit its
    values (a translator's typo) gives the English text rather than an error."""
    if not isinstance(text, Phrase):
        return "" if text is None else str(text)
    lang = language_of(language) if language is not None else current()
    catalog = translations(lang)
    if text.context == COMMAND:  # a command named: its mention, or its names as text
        # A mention shows the default (English) names in every client: for English only.
        return name_command(text, catalog.pgettext, clickable=lang == DEFAULT)
    if lang == DEFAULT and not any(isinstance(v, Phrase) for v in text.values.values()):
        return str.__str__(text)  # made in English
    values: dict[str, Any] = {
        k: localise(v, lang) if isinstance(v, Phrase) else v for k, v in text.values.items()
    }
    if lang == DEFAULT:  # English, said again for the phrases inside (a command's mention)
        plural = text.plural is not None and text.values.get("count") != 1
        english = text.plural if plural and text.plural is not None else text.msgid
        return _fill(text, english, values, lang)
    if text.plural is None:
        if text.context is None:
            template = catalog.gettext(text.msgid)
        else:
            template = catalog.pgettext(text.context, text.msgid)
    else:
        count = text.count if text.count is not None else 0
        if text.context is None:
            template = catalog.ngettext(text.msgid, text.plural, count)
        else:
            template = catalog.npgettext(text.context, text.msgid, text.plural, count)
    return _fill(text, template, values, lang)


def _fill(text: Phrase, template: str, values: dict[str, Any], language: str) -> str:
    try:
        return grammar.fill(template, language, **values) if values else template
    except (KeyError, IndexError, ValueError, AttributeError):
        return str.__str__(text)


def fill(template: str, /, **values: Any) -> str:
    """A translated template filled with its values in the current language, with what its
    grammar asks of them (French elision: "d'Alice", "qu'Hélène"), unlike `str.format`.
    A value that is a Phrase (the computer's name, "Computer (easy)") is put in the current
    language too, where `str.format` would put its English text."""
    language = current()
    shown = {k: localise(v, language) if isinstance(v, Phrase) else v for k, v in values.items()}
    return grammar.fill(template, language, **shown)


def mention(path: str, /, **options: Any) -> str:
    """A command named in the current language: for English, its mention once the bot
    knows its id (`lang.mentions`), `/schotten move` as text until then; for French or
    German, its names as their client shows them, as text (`/schotten jouer`)."""
    return localise(command(path, **options))


def message_of(error: BaseException) -> str:
    """A refusal's message in the current language: its Phrase translated, or its text."""
    first = error.args[0] if error.args else ""
    return localise(first) if isinstance(first, Phrase) else str(error)
