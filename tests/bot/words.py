"""What a French or German member reads, checked word by word: shared by the language
end-to-end tests (test_languages_e2e.py, test_every_word.py).

A message's readable texts (`texts_of`: every version of its content, its embeds, its
components' labels and options) are checked for
- English words (`english_words`): common words of the bot's English sentences, minus the
  few that are also words of the language read ("in" is German, "on" French);
- English tactic card codes and names (`tactic_codes`): the engine's codes and printed
  English names, minus those the language writes the same ("Joker", "Banshee");
- commands shown with English names (`commands_in`): `/schotten move` in text, or Discord's
  command mention `</schotten move:123>`, which every client shows with the command's
  default, English names (behaviour `default_command_names`), where the reader's client
  lists `/schotten jouer`;
- words of the other language (a French text in a German member's DM).

Names, mentions, links and card notation (R7, 3:G5) are not words; backticked text is
notation for the English-word check, but not for the card codes (a French member types
`espion 3`, not `spy 3`).
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from babel.messages import pofile

from engine.cards import Tactic
from lang import localise, speaking
from lang.catalogs import translations

LANG = Path(__file__).parents[2] / "lang"
CONTEXTS = ("command name", "option name")

# Words every English sentence of the bot is full of, and no French or German one has.
ENGLISH = frozenset(
    """
    the a your you yours my me our we they them their his her its it this that these those
    and or but if so then than not no yes also only still again already yet too very
    of to for from with without by at on in into out over under up about after before
    since until while when where which who what why how here there now
    is are was were be been has have had will would can cannot could may must should need
    needs
    game games move moves turn turns play plays played playing wins win won lose loses lost
    stone stones tile tiles wall claim claims claimed claiming control controls draw draws
    drew drawn card cards deck hand hands discard discarded pass passes passed resign
    resigned waiting wait against rating ratings player players attacker defender round
    rounds match matches tactic tactics clan siege cauldron cauldrons oil retreat
    show shows accept accepted decline declined cancel challenge challenges rematch
    leaderboard stats history replay analysis hint rules settings tournament
    standings pairings bye forfeit swiss robin join joined leave start started starts
    over ended end finished winner loser draw tie
    easy hard computer thinking best better worse estimated chance winning
    hours minutes days seconds every each all any more most less first last next new old
    nobody someone something nothing open closed private public share button board
    picture channel thread server link post
    """.split()  # noqa: SIM905 - read as prose, one set of words
)
# English words that are also words of a language, and so not proof of English there.
ALSO = {
    "fr": {"a", "as", "but", "chance", "clan", "match", "me", "minutes", "on", "or", "public"},
    "de": {
        "also",
        "button",
        "chance",
        "clan",
        "computer",
        "hand",
        "hands",
        "in",
        "last",
        "link",
        "match",
        "post",
        "server",
        "siege",
        "so",
        "start",
        "still",
        "thread",
        "was",
        "will",
    },
}
# Words that show a text is in the other of our two languages.
# (Words both languages share, "Partie", "Hand", "points", are left out.)
FRENCH = re.compile(r"\b(vous|votre|borne|bornes|coup|joué|contre)\b", re.IGNORECASE)
# (Not "du": French has it too, "du côté du Défenseur".)
GERMAN = re.compile(r"\b(dein|deine|deinen|Stein|Steine|Zug|gegen|gespielt)\b")

WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")  # letters, accented too: "höhere" is one word
MENTION = re.compile(r"</[^>]+:\d+>|<[@#t:a][^>]*>|https?://\S+")
NOTATION = re.compile(r"\b(?:\d+:)?[ROYGBP](?:1[01]|\d)\b")
NAMES = ("Schotten", "Totten")


def texts_of(message) -> list[str]:
    """Everything a member reads on a message: each version of its text, its embeds, and its
    components' labels, placeholders and options."""
    out = [*message.revisions, message.content, message.embed_text()]
    for c in message.all_components():
        out += [str(c.get(k, "")) for k in ("label", "placeholder")]
        for o in c.get("options") or []:
            out += [str(o.get("label", "")), str(o.get("description", ""))]
    return [t for t in out if t]


def readable(text: str, names: tuple[str, ...] = ("Amélie", "Bernd")) -> str:
    """What is read as words: not the names, mentions, move notation in backticks, codes."""
    text = MENTION.sub(" ", text)
    text = re.sub(r"`[^`]*`", " ", text)
    return _without_names(text, names)


def _without_names(text: str, names: tuple[str, ...]) -> str:
    for name in (*NAMES, *names):
        text = re.sub(rf"\b{re.escape(name)}\b", " ", text)
    return text


def english_words(text: str, language: str, names: tuple[str, ...] = ()) -> list[str]:
    """The English words of `text` read in `language` (names and notation left out)."""
    shared = ALSO.get(language, set())
    words = (w.lower().removesuffix("'s") for w in WORD.findall(readable(text, names)))
    return [w for w in words if w in ENGLISH and w not in shared]


def tactic_codes(language: str) -> dict[str, Tactic]:
    """The English words that name a tactic card (its code, "spy", and the words of its
    printed name, "Shield-Bearer"), except those the language writes the same way."""
    found: dict[str, Tactic] = {}
    for tactic in Tactic:
        english = {tactic.value, *_name_words(str(tactic.title))}
        with speaking(language):
            local = set(_name_words(localise(tactic.title)))
        found.update((w, tactic) for w in english - local - {"man"})  # "man" is German
    return found


def _name_words(name: str) -> list[str]:
    return [w.lower().removesuffix("'s") for w in re.findall(r"[^\W\d_]+(?:'s)?", name)]


def tactic_codes_in(text: str, language: str, names: tuple[str, ...] = ()) -> list[str]:
    """English tactic card codes or names in `text` read in `language` (backticks count:
    a member types the notation in their words)."""
    codes = tactic_codes(language)
    text = _without_names(MENTION.sub(" ", text), names)
    return [w for w in (m.lower() for m in re.findall(r"[^\W\d_]+", text)) if w in codes]


def commands_in(text: str, language: str) -> list[str]:
    """Commands a `language` reader sees with names their client does not list: in text
    (`/schotten move`), or as a mention (`</schotten move:123>`, shown `/schotten move`)."""
    shown = re.sub(r"</([^>:]+):\d+>", r"`/\1`", text)  # as the client shows it
    names = english_command_names()
    catalog = translations(language)
    localised = {catalog.pgettext(context, n) for n, context in english_names_in_context()}

    def english(word: str) -> bool:
        # A name the reader's language shares with English ("notation") is their own.
        return word in names and word not in localised

    found = re.finditer(r"/schotten(?:-admin)?((?: [a-zäöüéèàç_-]+){0,2})", shown)
    return [m.group(0) for m in found if any(english(w) for w in m.group(1).split())]


@functools.cache
def english_command_names() -> frozenset[str]:
    """The commands' and options' English names, read from the commands' template (not
    looked up in a catalog: a lookup of a French word would count as a missing message)."""
    return frozenset(name for name, _ in english_names_in_context())


@functools.cache
def english_names_in_context() -> frozenset[tuple[str, str]]:
    """Each English command or option name with its catalog context."""
    with (LANG / "templates" / "commands.pot").open("rb") as f:
        catalog = pofile.read_po(f)
    return frozenset(
        (m.id, m.context)
        for m in catalog
        if isinstance(m.id, str) and m.id and m.context in CONTEXTS
    )


@dataclass(frozen=True)
class Problem:
    """One wrong word: what kind, in which language, where, the word, and the text."""

    kind: str  # "English word", "English card code", "English command", "other language"
    language: str
    where: str
    word: str
    text: str

    def __str__(self) -> str:
        return f"[{self.language}] {self.where}: {self.kind} {self.word!r} in {self.text!r}"


def problems_of(
    language: str, texts: list[str], where: str, names: tuple[str, ...] = ()
) -> list[Problem]:
    """Every wrong word in `texts`, read by a member of `language` (fr or de)."""
    found: list[Problem] = []
    other = GERMAN if language == "fr" else FRENCH
    for text in texts:
        for word in english_words(text, language, names):
            found.append(Problem("English word", language, where, word, text))
        for word in tactic_codes_in(text, language, names):
            found.append(Problem("English card code", language, where, word, text))
        for command in commands_in(text, language):
            found.append(Problem("English command", language, where, command, text))
        for word in other.findall(readable(text, names)):
            found.append(Problem("other language", language, where, word, text))
    return found


def report(found: list[Problem], limit: int = 6) -> str:
    """The problems grouped by kind and word, each with a few of the texts it is in."""
    groups: dict[tuple[str, str, str], list[Problem]] = defaultdict(list)
    for p in found:
        groups[(p.language, p.kind, p.word)].append(p)
    lines = [f"{len(found)} wrong words in {len({p.text for p in found})} texts:"]
    for (language, kind, word), ps in sorted(groups.items()):
        texts = list(dict.fromkeys((p.where, p.text) for p in ps))
        lines.append(f"[{language}] {kind} {word!r}: {len(ps)} times, in {len(texts)} texts")
        for where, text in texts[:limit]:
            short = text if len(text) <= 300 else text[:300] + "…"
            lines.append(f"    {where}: {short!r}")
    return "\n".join(lines)


def assert_in(language: str, message, where: str) -> None:
    """A message a member of `language` reads has no English word and no word of the other
    language (the names of test_languages_e2e.py's members left out)."""
    for text in texts_of(message):
        english = english_words(text, language, ("Amélie", "Bernd"))
        assert not english, f"{where}: English {english} in {language} text: {text!r}"
        other = GERMAN if language == "fr" else FRENCH
        assert not other.findall(readable(text)), f"{where}: wrong language in {language}: {text!r}"
