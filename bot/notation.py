"""Move notation in the member's words: the keywords of the notation (`claim`, `pass`,
`retreat`, ...) have French and German aliases, taken from the catalogs, so that
`revendiquer 3`, `beanspruchen 3` and `claim 3` are the same move. Tactic cards are read in
the member's words too: their short notation word (`espion 3`, `schlamm 4`) and their printed
name (`Porte-Bouclier 2`, `Combat de Boue 4`, `Blinde Kuh 5`) are the card's code (`shield 2`).
Clan card codes (`R7`) and numbers are the same in every language; the log keeps the
canonical English text.

Aliases are matched without case or accents (`défausse` = `defausse`, `rückzug` = `rueckzug`
= `ruckzug`), and per game: the French `revendiquer` is `claim` in Schotten Totten and
`control` in Schotten Totten 2.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from engine.cards import Tactic
from engine.phrases import Phrase, say_in
from engine.st1.board import ST1_TACTICS
from engine.st2.board import ST2_TACTICS
from lang import LANGUAGES, localise

# TRANSLATORS: the move keywords: one lowercase word each, no spaces (members type them).
_BOTH = (
    say_in("move keyword", "pass"),
    say_in("move keyword", "done"),
    say_in("move keyword", "resign"),
    say_in("move keyword", "draw"),
    say_in("move keyword", "tactic"),
    say_in("move keyword", "discard"),
    say_in("move keyword", "on"),
)
_ST1 = (
    say_in("move keyword", "claim"),
    say_in("move keyword", "clan"),
    say_in("move keyword", "recruiter"),
    say_in("move keyword", "return"),
    say_in("move keyword", "strategist"),
    say_in("move keyword", "banshee"),
    say_in("move keyword", "traitor"),
    say_in("move keyword", "stone"),
)
_ST2 = (
    say_in("move keyword", "control"),
    say_in("move keyword", "siege"),
    say_in("move keyword", "retreat"),
    say_in("move keyword", "oil"),
    say_in("move keyword", "redeploy"),
    say_in("move keyword", "recruit"),
    say_in("move keyword", "desert"),
    say_in("move keyword", "treason"),
    say_in("move keyword", "explode"),
    say_in("move keyword", "support"),
    say_in("move keyword", "exchange"),
    say_in("move keyword", "give"),
    say_in("move keyword", "tile"),
)
KEYWORDS: dict[str, tuple[Phrase, ...]] = {"st1": _BOTH + _ST1, "st2": _BOTH + _ST2}
# TRANSLATORS: more words a member may type for a keyword, besides its word above: every
# word the bot shows for that thing ("Mauerplättchen", "Plättchen"), separated by commas.
# Write "-" if there is none.
_MORE = {
    "stone": say_in("more move words", "stone"),
    "tile": say_in("more move words", "tile"),
    "control": say_in("more move words", "control"),
}
# TRANSLATORS: the tactic cards' short notation words, one lowercase word each, members type
# them ("espion 3"): the first word is shown in suggestions; more words may follow, separated
# by commas. The cards' printed names (the engine's "tactic card" messages) are read too.
_CARD_WORDS: dict[Tactic, Phrase] = {
    Tactic.JOKER: say_in("tactic card word", "joker"),
    Tactic.SPY: say_in("tactic card word", "spy"),
    Tactic.SHIELD: say_in("tactic card word", "shield"),
    Tactic.BLIND: say_in("tactic card word", "blind"),
    Tactic.MUD: say_in("tactic card word", "mud"),
}
TACTICS: dict[str, frozenset[Tactic]] = {"st1": ST1_TACTICS, "st2": ST2_TACTICS}
# Articles a member may write ("R7 sur la borne 3"): read as the English filler "the".
_ARTICLES = ("le", "la", "les", "l", "der", "die", "das", "den", "dem")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def fold(word: str) -> str:
    """A word without case or accents; German umlauts also match their `ae` spellings."""
    word = word.lower().replace("ß", "ss")
    for umlaut, spelled in (("ä", "ae"), ("ö", "oe"), ("ü", "ue")):
        word = word.replace(umlaut, spelled)
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _words(text: str) -> list[str]:
    """A translation's words: the first, then any more after commas ("-": none)."""
    return [fold(w.strip()) for w in text.split(",") if w.strip() and w.strip() != "-"]


def card_words(game: str, language: str) -> dict[str, str]:
    """The words of `language` for the tactic cards of `game` (folded; a printed name of
    several words joined by single spaces) -> the card's code."""
    table: dict[str, str] = {}
    for kind in sorted(TACTICS[game], key=lambda k: k.value):
        words = _CARD_WORDS.get(kind)
        if words is not None:
            for word in _words(localise(words, language)):
                table.setdefault(word, kind.value)
        name = " ".join(_WORD.findall(fold(localise(kind.title, language))))
        if name:
            table.setdefault(name, kind.value)
            table.setdefault(name.replace(" ", ""), kind.value)
    return table


@functools.cache
def aliases(game: str) -> dict[str, str]:
    """Every language's word for each keyword and tactic card of `game` (folded) -> the English
    keyword or card code. A tactic card's name of several words is one key, its words joined
    by single spaces ("combat de boue")."""
    table: dict[str, str] = {}
    for keyword in KEYWORDS[game]:
        for language in LANGUAGES[1:]:
            word = fold(localise(keyword, language))
            if word and word not in table:  # "siège" folds to "siege": kept, to read back
                table[word] = keyword.msgid
    for language in LANGUAGES[1:]:
        for english, more in _MORE.items():
            if english in {k.msgid for k in KEYWORDS[game]}:
                for word in _words(localise(more, language)):
                    table.setdefault(word, english)
    for language in LANGUAGES:
        for word, code in card_words(game, language).items():
            table.setdefault(word, code)
    for article in _ARTICLES:
        table.setdefault(article, "the")
    # An umlaut typed as the bare vowel ("ruckzug") is common on keyboards without it.
    for word, english in list(table.items()):
        bare = word.replace("ae", "a").replace("oe", "o").replace("ue", "u")
        table.setdefault(bare, english)
    return table


@functools.cache
def _longest(game: str) -> int:
    return max(key.count(" ") + 1 for key in aliases(game))


# A word and what follows it up to the next word: a space, a hyphen, an apostrophe.
_SPAN = re.compile(r"([^\W\d_]+)([\s\-'’]*)", re.UNICODE)


def canonical(text: str, game: str) -> str:
    """`text` with every French or German keyword or tactic card name replaced by the English
    one (the longest name that matches: "combat de boue" before "boue")."""
    table = aliases(game)
    longest = _longest(game)
    out: list[str] = []
    at = 0
    while at < len(text):
        first = _SPAN.match(text, at)
        if first is None or not _starts_word(text, at):
            out.append(text[at])
            at += 1
            continue
        spans = [first]
        while len(spans) < longest and spans[-1].group(2):
            nxt = _SPAN.match(text, spans[-1].end())
            if nxt is None:
                break
            spans.append(nxt)
        for n in range(len(spans), 0, -1):
            key = " ".join(fold(m.group(1)) for m in spans[:n])
            if key in table:
                out.append(table[key] + spans[n - 1].group(2))
                at = spans[n - 1].end()
                break
        else:
            out.append(first.group(0))
            at = first.end()
    return "".join(out)


def _starts_word(text: str, at: int) -> bool:
    """Whether a word starts at `at` (not in the middle of one, such as "R7" or "joker2")."""
    return at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_")


def in_language(text: str, game: str, language: str) -> str:
    """A canonical move's keywords and tactic cards in `language` (for suggestions a member
    reads): `claim 3` -> `revendiquer 3`, `spy 3` -> `espion 3`."""
    if language == LANGUAGES[0]:
        return text
    words = {k.msgid: localise(k, language) for k in KEYWORDS[game]}
    for kind in TACTICS[game]:
        phrase = _CARD_WORDS.get(kind)
        shown = _words(localise(phrase, language)) if phrase is not None else []
        if shown and kind.value not in words:
            words[kind.value] = shown[0]
    return _WORD.sub(lambda m: words.get(m.group(), m.group()), text)


def in_words(text: str, game: str, language: str) -> str:
    """A canonical move (or a hand's codes) for reading rather than typing, as analyses and
    hints show it: tactic cards by their printed names (`spy 5` -> `Espion 5`, `joker blind
    mud` -> `Joker Blindekuh Schlammschlacht`), in English too; the keywords as in
    `in_language` (`claim 4` -> `beanspruchen 4`)."""
    typed = {k.msgid: localise(k, language) for k in KEYWORDS[game]}
    names = {kind.value: localise(kind.title, language) for kind in TACTICS[game]}
    words = typed | names if language != LANGUAGES[0] else names
    return _WORD.sub(lambda m: words.get(m.group(), m.group()), text)
