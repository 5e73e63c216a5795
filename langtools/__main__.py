"""`python -m langtools extract|update|compile|check|init|fill`: the translators' commands
(docs/languages.md, "Translating the bot")."""

from __future__ import annotations

import argparse
import json
import sys

from langtools import tools


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m langtools", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, about in (
        ("extract", "write the templates (lang/templates/*.pot) from the code"),
        ("update", "extract, then bring every language's .po files in line with the templates"),
        ("compile", "check and compile every .po into a .mo"),
        ("check", "fail if a message lacks a translation or its placeholders differ"),
    ):
        one = sub.add_parser(name, help=about)
        one.add_argument("--domain", action="append", choices=list(tools.DOMAINS))
        one.add_argument("--language", action="append")
    init = sub.add_parser("init", help="start a new language (its .po files) from the templates")
    init.add_argument("language", help="a Discord locale's language code, e.g. es, it, pl")
    fill = sub.add_parser("fill", help="write translations kept in a JSON file into the catalogs")
    fill.add_argument(
        "file", help='{"fr": [{"id": ..., "context": ..., "string": ...}], "de": ...}'
    )
    args = parser.parse_args(argv)

    if args.command == "init":
        tools.extract(tools.DOMAINS)
        tools.update(tools.DOMAINS, [args.language])
        print(f"lang/locales/{args.language}/LC_MESSAGES: {len(tools.DOMAINS)} catalogs to fill")
        return 0
    if args.command == "fill":
        with open(args.file, encoding="utf-8") as f:
            unknown = tools.fill(json.load(f))
        for u in unknown:
            print(f"no such message: {u}", file=sys.stderr)
        return 1 if unknown else 0
    domains = args.domain or list(tools.DOMAINS)
    langs = args.language or tools.languages()
    if args.command in ("extract", "update"):
        tools.extract(domains)
        if args.command == "update":
            tools.update(domains, langs)
        return 0
    problems = tools.compile_all(langs) if args.command == "compile" else []
    problems += tools.check(langs, domains)
    for p in problems:
        print(p, file=sys.stderr)
    print(f"{len(problems)} problem(s) in {', '.join(langs)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
