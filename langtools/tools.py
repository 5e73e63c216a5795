"""The translators' tools: extract the messages from the code into templates (`.pot`), update
each language's catalogs (`.po`) from them, compile (`.mo`) and check. Built on Babel's
extractor and catalog classes; `python -m langtools --help` lists the commands. They read
every layer's code (the slash commands from the bot's own tree), so they stand outside
`lang/`, whose runtime the engine and the pictures use."""

from __future__ import annotations

import io
import re
import string
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.frontend import parse_keywords
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from lang.catalogs import LOCALES

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = LOCALES.parent / "templates"
PROJECT = "schotten-bot"
COMMENT_TAGS = ("TRANSLATORS:",)

# The marks the extractor reads: lang's gettext functions and engine/phrases.py's.
KEYWORDS = parse_keywords(
    [
        "_",
        "N_",
        "ngettext:1,2",
        "pgettext:1c,2",
        "npgettext:1c,2,3",
        "say",
        "say_n:1,2",
        "say_in:1c,2",
    ]
)

# Domains: which code's messages go into which catalog. One file per domain keeps a
# translator's work (and a diff) to one part of the bot. The rules pages are long texts
# with a domain of their own; `commands` is read from the slash-command tree itself.
DOMAINS: dict[str, tuple[str, ...]] = {
    "engine": ("engine",),
    "render": ("render",),
    "rules": ("bot/front/rules.py",),
    # The move keywords' aliases (bot/notation.py): short words members type.
    "notation": ("bot/notation.py",),
    # The slash commands' answers, looking back at games and tournaments.
    "features": (
        "bot/front/commands.py",
        "bot/front/admin_commands.py",
        "bot/front/match_options.py",
        "bot/front/lookback.py",
        "bot/front/tournaments.py",
    ),
    # Playing: the board and hand messages, buttons, DMs, refusals.
    "front": ("bot/front",),
    "bot": ("bot",),
    "commands": (),
}
# Code that never speaks to players: the Discord emulator (a test double), the tools, and
# what only the bot's operator reads (command line, configuration, database copies, the
# sandbox's narration; the bot's own words in the sandbox chat are translated).
EXCLUDED = (
    "discord_loopback",
    "lang",
    "langtools",
    "bot/cli.py",
    "bot/config.py",
    "bot/store/migrate.py",
    "bot/sandbox/processes.py",
    "bot/sandbox",
)


def domain_of(path: Path) -> str | None:
    """The domain of a source file: the most specific prefix that names it."""
    rel = path.relative_to(ROOT).as_posix()
    if any(rel == e or rel.startswith(e + "/") for e in EXCLUDED):
        return None
    best: tuple[int, str] | None = None
    for domain, prefixes in DOMAINS.items():
        for prefix in prefixes:
            if (rel == prefix or rel.startswith(prefix + "/")) and (
                best is None or len(prefix) > best[0]
            ):
                best = (len(prefix), domain)
    return best[1] if best else None


def sources(domain: str) -> list[Path]:
    files = []
    for top in ("engine", "render", "bot"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if domain_of(path) == domain:
                files.append(path)
    return files


@dataclass(frozen=True)
class Found:
    message: str | tuple[str, ...]
    context: str | None
    where: tuple[str, int]
    comments: tuple[str, ...] = ()


def _from_code(domain: str) -> Iterator[Found]:
    for path in sources(domain):
        rel = path.relative_to(ROOT).as_posix()
        for lineno, message, comments, context in extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=COMMENT_TAGS
        ):
            yield Found(message, context, (rel, lineno), tuple(comments))


def _from_commands() -> Iterator[Found]:
    from bot.front.command_tree import command_strings

    for context, message in command_strings():
        yield Found(message, context, ("bot/front/commands.py", 0))


def template(domain: str) -> Catalog:
    """The messages of `domain`, as found in the code now."""
    catalog = Catalog(project=PROJECT, domain=domain, fuzzy=False)
    found: Iterable[Found] = _from_commands() if domain == "commands" else _from_code(domain)
    for f in found:
        if isinstance(f.message, tuple) and any(not m for m in f.message):
            continue
        if not f.message:
            continue
        catalog.add(
            f.message,
            None,
            [f.where] if f.where[1] else [],
            auto_comments=f.comments,
            context=f.context,
        )
    return catalog


def template_path(domain: str) -> Path:
    return TEMPLATES / f"{domain}.pot"


def po_path(language: str, domain: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / f"{domain}.po"


def languages() -> list[str]:
    return sorted(p.name for p in LOCALES.iterdir() if p.is_dir()) if LOCALES.exists() else []


def _write(path: Path, catalog: Catalog) -> None:
    """Write a catalog, unless only its creation date would change (no churn in diffs)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    catalog.fuzzy = False  # the header: the catalog is in use, not a draft
    buf = io.BytesIO()
    # File names without line numbers: a message's place then changes only when it moves to
    # another file, so the catalogs do not churn (nor conflict in merges) at every edit.
    write_po(buf, catalog, width=100, sort_output=False, omit_header=False, include_lineno=False)
    new = buf.getvalue()
    if path.exists() and _undated(path.read_bytes()) == _undated(new):
        return
    path.write_bytes(new)


def _undated(data: bytes) -> bytes:
    return re.sub(rb'"(POT-Creation-Date|PO-Revision-Date): [^"]*"', b"", data)


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=language)


def extract(domains: Iterable[str]) -> None:
    for domain in domains:
        _write(template_path(domain), template(domain))


def update(domains: Iterable[str], langs: Iterable[str]) -> None:
    """Bring each catalog in line with its template: new messages appear untranslated,
    messages gone from the code are dropped (kept as obsolete comments by Babel)."""
    for domain in domains:
        tmpl = read(template_path(domain))
        for language in langs:
            path = po_path(language, domain)
            if path.exists():
                catalog = read(path, language)
            else:
                catalog = Catalog(locale=language, domain=domain, project=PROJECT)
            catalog.update(tmpl, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            _write(path, catalog)


def compile_all(langs: Iterable[str]) -> list[str]:
    """Write each `.mo`; return the problems Babel's checks found (placeholders, plurals)."""
    problems = []
    for language in langs:
        for po in sorted((LOCALES / language / "LC_MESSAGES").glob("*.po")):
            catalog = read(po, language)
            for message, errors in catalog.check():
                for error in errors:
                    problems.append(f"{po.relative_to(ROOT)}: {message.id!r}: {error}")
            with po.with_suffix(".mo").open("wb") as f:
                write_mo(f, catalog)
    return problems


PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?:[!:][^{}]*)?\}(?!\})")


def placeholders(text: str) -> set[str]:
    """The `{name}` fields of a message (doubled braces are literal braces)."""
    return set(PLACEHOLDER.findall(text))


def check(langs: Iterable[str], domains: Iterable[str] = DOMAINS) -> list[str]:
    """Every template message translated in every language, with the same placeholders in
    each form, no fuzzy entry, and the plural forms the language needs."""
    problems = []
    langs = list(langs)
    for domain in domains:
        tmpl = read(template_path(domain))
        for language in langs:
            path = po_path(language, domain)
            if not path.exists():
                problems.append(f"{language}/{domain}.po is missing")
                continue
            catalog = read(path, language)
            for message in tmpl:
                if not message.id:
                    continue
                problems.extend(_check_one(catalog, message, language, domain))
    return problems


def _check_one(catalog: Catalog, message: Message, language: str, domain: str) -> list[str]:
    mid = message.id
    ctx = message.context
    where = f"{language}/{domain}.po: {mid!r}" + (f" ({ctx})" if ctx else "")
    found = catalog.get(mid, context=ctx)
    if found is None:
        return [f"{where}: missing"]
    if found.fuzzy:
        return [f"{where}: fuzzy"]
    sources = list(mid) if isinstance(mid, tuple | list) else [mid]
    given = list(found.string) if isinstance(found.string, tuple | list) else [found.string]
    forms = [form for form in given if form]
    if len(forms) < len(given):
        return [f"{where}: not translated"]
    if isinstance(mid, tuple | list) and len(forms) != catalog.num_plurals:
        return [f"{where}: {len(forms)} plural forms, {catalog.num_plurals} needed"]
    wanted = set().union(*(placeholders(s) for s in sources))
    out = []
    for form in forms:
        got = placeholders(form)
        # A singular form may leave out {count} ("un coup"), nothing else.
        extra, lacking = got - wanted, wanted - got - {"count"}
        if extra or lacking:
            out.append(f"{where}: placeholders {sorted(got)} instead of {sorted(wanted)}")
        try:
            list(string.Formatter().parse(form))
        except ValueError:
            out.append(f"{where}: braces do not pair in {form!r}")
    return out


def fill(entries: dict[str, list[dict[str, object]]]) -> list[str]:
    """Write translations given as data: `{"fr": [{"id": ..., "context": ..., "string": ...}]}`
    (`string` a list of forms for a plural message). Each goes into every domain's catalog of
    that language that holds the message, so several people's translations, kept in such
    files, can be merged by running `update` then `fill` with each. Returns the entries no
    catalog holds."""
    unknown = []
    for language, items in entries.items():
        catalogs = {d: read(po_path(language, d), language) for d in DOMAINS}
        changed: set[str] = set()
        for item in items:
            # The entries are JSON (`fill`'s docstring): the context a string or absent, the
            # translation a string or a list of plural forms.
            mid, ctx, text = str(item["id"]), cast(str | None, item.get("context")), item["string"]
            hit = False
            for domain, catalog in catalogs.items():
                found = catalog.get(mid, context=ctx)
                if found is None:
                    continue
                found.string = tuple(text) if isinstance(text, list) else cast(str, text)
                found.flags.discard("fuzzy")
                changed.add(domain)
                hit = True
            if not hit:
                unknown.append(f"{language}: {mid!r}" + (f" ({ctx})" if ctx else ""))
        for domain in changed:
            _write(po_path(language, domain), catalogs[domain])
    return unknown
