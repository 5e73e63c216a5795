"""Commands named in sentences, as Discord's command mentions.

A sentence that names a command puts it in as a value, `command("history", game_id="N")`, a
`Phrase` whose English text is the plain `/schotten history game_id:N` in backticks (what a
log, or a reader without the commands' ids, sees). Said to an English reader
(`lang.localise`), it becomes Discord's mention, `</schotten history:ID>`, which the client
shows clickable, followed by its options (`game_id:N`) in backticks, since a mention cannot
carry options. Every client shows a mention with the command's default (English) names
(discord-api-docs #5518, #7309: "working as intended"; a localised name inside one is not
clickable), so a French or German reader gets the names their own client shows in its
command list instead, as text: `/schotten historique partie:N` in backticks. An option
named alone, `option("rounds", 1)`, is `manches:1` in French.

The ids are the bot's to know (its commands as Discord registered them): the front hands a
function that gives the mention of a command by its qualified name (`use_mentions`). Until
then, or for a command it does not know, the command is written as text, its names in the
reader's language.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.phrases import Phrase, Value

# The context that marks a phrase naming a command (its msgid is the plain text).
COMMAND = "slash command"
# The bot's top-level command for members (managers have /schotten-admin too).
TOP = "schotten"

# Qualified command name ("schotten tournament start") -> its mention, or None if unknown.
Mentions = Callable[[str], str | None]
_mentions: list[Mentions] = []


def command(path: str, /, **options: Value) -> Phrase:
    """`/schotten <path>` named in a sentence, with `options` (name: value shown) if any:
    `command("move")`, `command("history", game_id="N")`; a path that starts with "/" names
    another top-level command: `command("/schotten-admin settings")`."""
    top = [] if path.startswith("/") else [f"/{TOP}"]
    words = [*top, *path.split()] + [f"{name}:{value}" for name, value in options.items()]
    return Phrase(f"`{' '.join(words)}`", None, COMMAND)


def option(name: str, value: Value | None = None, *, meaning: str = "") -> Phrase:
    """A command's option named alone, with its value if any: `option("rounds", 2)`.
    `meaning`: the option's own meaning there, as its command gave it (translator.py's
    `MEANING`: `option("rounds", meaning="tournament")` is French `rondes`)."""
    text = name if value is None else f"{name}:{value}"
    return Phrase(f"`{text}`", None, COMMAND, {"meaning": meaning} if meaning else None)


def use_mentions(mentions: Mentions | None) -> None:
    """Name commands with `mentions` from now on (None: as plain text). The front calls it
    once its commands' ids are known; one bot (one application) per process."""
    _mentions.clear()
    if mentions is not None:
        _mentions.append(mentions)


def drop_mentions(mentions: Mentions) -> None:
    """Stop using `mentions` (its bot closed), unless another took its place."""
    if _mentions and _mentions[0] is mentions:
        _mentions.clear()


def mention_of(qualified_name: str) -> str | None:
    """The mention of a command (`"schotten move"`), if its id is known."""
    return _mentions[0](qualified_name) if _mentions else None


def name_command(
    text: Phrase, translate: Callable[[str, str], str], *, clickable: bool = True
) -> str:
    """A phrase made by `command` or `option`, for a reader: `translate(context, name)`
    gives a command's or an option's name in the reader's language; `clickable`: a
    mention shows right to this reader (its default names are theirs), else the names as
    text."""
    words = text.msgid.strip("`").split()
    if not words[0].startswith("/"):  # an option alone
        name, colon, value = words[0].partition(":")
        meaning = text.values.get("meaning")
        context = f"option name ({meaning})" if meaning else "option name"
        return f"`{translate(context, name)}{colon}{value}`"
    path = [w for w in words if ":" not in w]
    options = []
    for word in words:
        if ":" in word:
            name, value = word.split(":", 1)
            options.append(f"{translate('option name', name)}:{value}")
    qualified = " ".join(path).lstrip("/")
    mention = mention_of(qualified) if clickable else None
    if mention is None:
        names = [path[0], *(translate("command name", w) for w in path[1:])]
        return f"`{' '.join(names + options)}`"
    return f"{mention} `{' '.join(options)}`" if options else mention
