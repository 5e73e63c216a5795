"""Move notation in the member's words: the keywords of the notation (`claim`, `pass`,
`retreat`, ...) have French and German aliases, taken from the catalogs, so that
`revendiquer 3`, `beanspruchen 3` and `claim 3` are the same move. Card codes (`R7`) and
numbers are the same in every language; the log keeps the canonical English text.

Aliases are matched without case or accents (`défausse` = `defausse`, `rückzug` = `rueckzug`
= `ruckzug`), and per game: the French `revendiquer` is `claim` in Schotten Totten and
`control` in Schotten Totten 2.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from engine.phrases import Phrase, say_in
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


@functools.cache
def aliases(game: str) -> dict[str, str]:
    """Every language's word for each keyword of `game` (folded) -> the English keyword."""
    table: dict[str, str] = {}
    for keyword in KEYWORDS[game]:
        for language in LANGUAGES[1:]:
            word = fold(localise(keyword, language))
            if word and word not in table:  # "siège" folds to "siege": kept, to read back
                table[word] = keyword.msgid
    for article in _ARTICLES:
        table.setdefault(article, "the")
    # An umlaut typed as the bare vowel ("ruckzug") is common on keyboards without it.
    for word, keyword in list(table.items()):
        bare = word.replace("ae", "a").replace("oe", "o").replace("ue", "u")
        table.setdefault(bare, keyword)
    return table


def canonical(text: str, game: str) -> str:
    """`text` with every French or German keyword replaced by the English one."""
    table = aliases(game)
    return _WORD.sub(lambda m: table.get(fold(m.group()), m.group()), text)


def in_language(text: str, game: str, language: str) -> str:
    """A canonical move's keywords in `language` (for suggestions a member reads)."""
    if language == LANGUAGES[0]:
        return text
    words = {k.msgid: localise(k, language) for k in KEYWORDS[game]}
    return _WORD.sub(lambda m: words.get(m.group(), m.group()), text)
