"""The message catalogs: complete, consistent with the code, compilable, and safe to miss."""

import pickle
import re
from pathlib import Path

import pytest

import lang
from engine.phrases import Phrase, from_json, say, say_in, say_n, to_json
from lang import catalogs
from langtools import tools

LANGS = ["fr", "de"]


@pytest.fixture(scope="module")
def fresh_templates():
    """The templates as the code gives them now (not as last written to lang/templates)."""
    return {domain: tools.template(domain) for domain in tools.DOMAINS}


def _ids(catalog):
    return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in catalog if m.id}


def test_every_message_is_translated_with_the_same_placeholders():
    problems = tools.check(LANGS)
    assert problems == [], "\n".join(problems[:40])


def test_templates_match_the_code(fresh_templates):
    # A message added to the code without `python -m langtools update` would silently fall back
    # to English; the written template must hold exactly what the code says.
    for domain, fresh in fresh_templates.items():
        written = tools.read(tools.template_path(domain))
        missing = _ids(fresh) - _ids(written)
        assert not missing, (
            f"{domain}: run `python -m langtools update`; new: {sorted(missing, key=str)[:5]}"
        )
        gone = _ids(written) - _ids(fresh)
        assert not gone, (
            f"{domain}: run `python -m langtools update`; gone: {sorted(gone, key=str)[:5]}"
        )


def test_every_language_has_every_domain():
    for language in LANGS:
        names = {p.stem for p in catalogs.catalog_files(language)}
        assert names == set(tools.DOMAINS)


def test_catalogs_compile_without_babel_errors(tmp_path):
    from babel.messages.mofile import write_mo

    for language in LANGS:
        for po in catalogs.catalog_files(language):
            catalog = tools.read(po, language)
            errors = [(m.id, e) for m, errs in catalog.check() for e in errs]
            assert errors == [], f"{po}: {errors[:3]}"
            with (tmp_path / f"{language}-{po.stem}.mo").open("wb") as f:
                write_mo(f, catalog)


def test_no_fstring_or_concatenation_inside_a_message():
    # The extractor cannot read an f-string: its text would never reach the catalogs.
    root = Path(tools.ROOT)
    pattern = re.compile(r"\b(_|N_|say|say_in|say_n|ngettext|pgettext)\(\s*f[\"']")
    offenders = []
    for top in ("engine", "render", "bot"):
        for path in root.joinpath(top).rglob("*.py"):
            if tools.domain_of(path) is None:  # the operator's modules (langtools/tools.py)
                continue
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if pattern.search(line):
                    offenders.append(f"{path.relative_to(root)}:{n}")
    assert offenders == []


def test_missing_translation_falls_back_to_english_and_is_counted():
    catalogs.MISSES.clear()
    with lang.speaking("fr"):
        assert lang._("A sentence nobody translated") == "A sentence nobody translated"
        assert lang.ngettext("{count} thing", "{count} things", 0) == "{count} things"
        assert lang.pgettext("nowhere", "Thing") == "Thing"
    assert catalogs.MISSES[("fr", None, "A sentence nobody translated")] == 1
    assert catalogs.MISSES[("fr", "nowhere", "Thing")] == 1
    with lang.speaking("en"):
        lang._("Another sentence")
    assert ("en", None, "Another sentence") not in catalogs.MISSES


def test_an_unknown_language_is_english():
    assert lang.language_of("pt-BR") == "en"
    assert lang.language_of(None) == "en"
    assert lang.language_of("fr") == "fr"
    assert lang.language_of("de-AT") == "de"
    assert lang.language_of("en-GB") == "en"
    with lang.speaking("pt-BR"):
        assert lang.current() == "en"


def test_a_phrase_is_its_english_text_and_survives_storage_and_pickling():
    inner = say_in("place", "stone {n}", n=3)
    p = say_n("{count} card on {place}", "{count} cards on {place}", 2, place=inner)
    assert p == "2 cards on stone 3"
    assert isinstance(p, str)
    for copy in (pickle.loads(pickle.dumps(p)), from_json(to_json(p))):
        assert isinstance(copy, Phrase)
        assert copy == p
        assert copy.msgid == p.msgid and copy.plural == p.plural
        assert copy.values["place"].context == "place"
    assert from_json("an old plain line") == "an old plain line"


def test_localise_falls_back_when_a_translation_breaks_its_placeholders(monkeypatch):
    class Broken:
        def gettext(self, message):
            return "{nope} cassé"

    monkeypatch.setattr(lang, "translations", lambda language: Broken())
    p = say("{player} wins", player="Ana")
    assert lang.localise(p, "fr") == "Ana wins"


def test_localise_translates_inner_phrases_and_plural_forms():
    # French counts 0 as singular; German as plural: the catalogs' Plural-Forms decide.
    found = domain = None
    for po in catalogs.catalog_files("fr"):
        for m in tools.read(po, "fr"):
            if isinstance(m.id, tuple | list) and "{count}" in m.id[1] and m.string[0]:
                found, domain = m, po.stem
                break
        if found:
            break
    assert found is not None, "no plural message in the French catalogs"
    values = {name: "x" for name in tools.placeholders(found.id[1])} | {"count": 0}
    phrase = Phrase(found.id[0], found.id[1], found.context, values)
    fr = lang.localise(phrase, "fr")
    assert fr == found.string[0].format(**values)  # 0: the singular form in French
    de_catalog = tools.read(tools.po_path("de", domain), "de")
    de_entry = de_catalog.get(found.id, context=found.context)
    assert lang.localise(phrase, "de") == de_entry.string[1].format(**values)


def test_fill_writes_translations_kept_as_data_into_the_catalog_holding_them(tmp_path, monkeypatch):
    # A copy of the French catalogs, so that the real ones are not touched.
    locales = tmp_path / "locales"
    (locales / "fr" / "LC_MESSAGES").mkdir(parents=True)
    for domain in tools.DOMAINS:
        src = tools.po_path("fr", domain)
        (locales / "fr" / "LC_MESSAGES" / src.name).write_bytes(src.read_bytes())
    monkeypatch.setattr(tools, "LOCALES", locales)
    mid, ctx = "pass", "move keyword"
    unknown = tools.fill(
        {
            "fr": [
                {"id": mid, "context": ctx, "string": "passe"},
                {"id": "no such message in any catalog", "string": "rien"},
            ]
        }
    )
    assert unknown == ["fr: 'no such message in any catalog'"]
    catalog = tools.read(tools.po_path("fr", "notation"), "fr")
    assert catalog.get(mid, context=ctx).string == "passe"
