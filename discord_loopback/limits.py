"""Discord's documented limits that its OpenAPI description leaves out (or states otherwise).

``LIMITS`` is the one table: each row says what it applies to, the JSON Schema rule it adds
(its value), the places in the description it is added to, and the discord-api-docs page
that documents it. ``spec.py`` merges every row into the loaded description before compiling
validators, so these limits are checked by the same validator, in the same pass, with the
same error tree as the file's own. Rows restating a limit the file already has keep the
table complete against the docs, should a later file drop one.

Rules JSON Schema cannot say are custom keywords (``x-...``), implemented in ``CHECKS``
below; each yields errors at the offending value, with the Discord code of its row.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import emoji
from jsonschema import ValidationError

DOCS = "https://discord.com/developers/docs"
MESSAGE = f"{DOCS}/resources/message"
COMPONENTS = f"{DOCS}/components/reference"
COMMANDS = f"{DOCS}/interactions/application-commands"
RESPONDING = f"{DOCS}/interactions/receiving-and-responding"

MESSAGE_CONTENT = 2000
IS_COMPONENTS_V2 = 1 << 15
INTEGER_TEXT = re.compile(r"^-?[0-9]+$")  # a string Discord reads as an integer
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
SELECTS = frozenset({3, 5, 6, 7, 8})
LINK, PREMIUM = 5, 6
CHAT_INPUT = 1
SUBCOMMANDS = frozenset({1, 2})


def schema(name: str, *properties: str) -> str:
    """The JSON pointer of a component schema of the file, or of nested properties in it."""
    return "/components/schemas/" + "/".join([name, *(f"properties/{p}" for p in properties)])


# The request objects that carry a message (content, embeds, components, flags).
MESSAGE_REQUESTS = (
    "MessageCreateRequest",
    "MessageEditRequestPartial",
    "IncomingWebhookInteractionRequest",
    "IncomingWebhookUpdateForInteractionCallbackRequestPartial",
    "IncomingWebhookRequestPartial",
    "IncomingWebhookUpdateRequestPartial",
)
SELECT_REQUESTS = tuple(
    f"{kind}SelectComponentForMessageRequest"
    for kind in ("String", "User", "Role", "Mentionable", "Channel")
)
COMMAND_REQUESTS = (
    "ApplicationCommandCreateRequest",
    "ApplicationCommandUpdateRequest",
    "ApplicationCommandPatchRequestPartial",
)
OPTION_SCHEMAS = tuple(
    f"ApplicationCommand{kind}Option"
    for kind in (
        "Attachment",
        "Boolean",
        "Channel",
        "Integer",
        "Mentionable",
        "Number",
        "Role",
        "String",
        "SubcommandGroup",
        "Subcommand",
        "User",
    )
)
CHOICE_SCHEMAS = tuple(
    f"ApplicationCommandOption{kind}Choice" for kind in ("String", "Integer", "Number")
)
# Discord's locales, the keys a localisation dictionary may have (the docs' table; the file's
# AvailableLocalesEnum also lists "ar" and "he", which the docs do not offer yet).
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)


@dataclass(frozen=True)
class Limit:
    """One documented limit: ``rule`` (JSON Schema keywords and their values) is merged into
    the schema at each of ``places``; ``code`` is Discord's error code for a custom keyword."""

    what: str
    rule: Mapping[str, Any]
    places: tuple[str, ...]
    url: str
    code: str = "BASE_TYPE_INVALID"


LIMITS: tuple[Limit, ...] = (
    # -- messages and embeds -------------------------------------------------------------
    Limit(
        "message content, 2,000 characters (the file says 4,000 for channel messages)",
        {"maxLength": MESSAGE_CONTENT},
        tuple(schema(name, "content") for name in MESSAGE_REQUESTS),
        f"{MESSAGE}#create-message",
    ),
    Limit(
        "a nonce, up to 25 characters",
        {"maxLength": 25},
        (schema("MessageCreateRequest", "nonce") + "/oneOf/1",),
        f"{MESSAGE}#create-message",
    ),
    Limit(
        "embeds per message, up to 10",
        {"maxItems": 10},
        tuple(schema(name, "embeds") for name in MESSAGE_REQUESTS),
        f"{MESSAGE}#create-message",
    ),
    Limit(
        "embed title, 256 characters",
        {"maxLength": 256},
        (schema("RichEmbed", "title"),),
        f"{MESSAGE}#embed-object-embed-limits",
    ),
    Limit(
        "embed description, 4,096 characters",
        {"maxLength": 4096},
        (schema("RichEmbed", "description"),),
        f"{MESSAGE}#embed-object-embed-limits",
    ),
    Limit(
        "embed fields, up to 25",
        {"maxItems": 25},
        (schema("RichEmbed", "fields"),),
        f"{MESSAGE}#embed-object-embed-limits",
    ),
    Limit(
        "embed field name, 1-256 characters",
        {"minLength": 1, "maxLength": 256},
        (schema("RichEmbedField", "name"),),
        f"{MESSAGE}#embed-object-embed-limits",
    ),
    Limit(
        "embed field value, 1-1,024 characters",
        {"minLength": 1, "maxLength": 1024},
        (schema("RichEmbedField", "value"),),
        f"{MESSAGE}#embed-object-embed-limits",
    ),
    Limit(
        "embed footer text, 2,048 characters",
        {"maxLength": 2048},
        (schema("RichEmbedFooter", "text"),),
        f"{MESSAGE}#embed-object-embed-limits",
    ),
    Limit(
        "embed author name, 256 characters",
        {"maxLength": 256},
        (schema("RichEmbedAuthor", "name"),),
        f"{MESSAGE}#embed-object-embed-limits",
    ),
    Limit(
        "all embeds of a message: title, description, field names and values, footer text "
        "and author name, 6,000 characters together",
        {"x-embeds-total": 6000},
        tuple(schema(name, "embeds") for name in MESSAGE_REQUESTS),
        f"{MESSAGE}#embed-object-embed-limits",
        "BASE_TYPE_MAX_LENGTH",
    ),
    # -- components ----------------------------------------------------------------------
    Limit(
        "a message without the IS_COMPONENTS_V2 flag: up to 5 top-level components (the file "
        "allows 40)",
        {"x-legacy-components": 5},
        tuple(schema(name) for name in MESSAGE_REQUESTS),
        f"{COMPONENTS}#legacy-message-component-behavior",
        "BASE_TYPE_MAX_LENGTH",
    ),
    Limit(
        "a message without the IS_COMPONENTS_V2 flag: its top-level components are action rows "
        "(containers, sections, text displays need the flag)",
        {"x-legacy-action-rows": True},
        tuple(schema(name) for name in MESSAGE_REQUESTS),
        f"{COMPONENTS}#legacy-message-component-behavior",
        "BASE_TYPE_CHOICES",
    ),
    Limit(
        "an action row: 1-5 buttons",
        {"minItems": 1, "maxItems": 5},
        (schema("ActionRowComponentForMessageRequest", "components"),),
        f"{COMPONENTS}#action-row",
    ),
    Limit(
        "an action row: a select menu fills it, alone",
        {"x-one-select-per-row": True},
        (schema("ActionRowComponentForMessageRequest"),),
        f"{COMPONENTS}#action-row",
        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
    ),
    Limit(
        "custom_id, 1-100 characters",
        {"minLength": 1, "maxLength": 100},
        tuple(
            schema(name, "custom_id")
            for name in ("ButtonComponentForMessageRequest", *SELECT_REQUESTS)
        ),
        f"{COMPONENTS}#anatomy-of-a-component-custom-id",
    ),
    Limit(
        "custom_id, unique within a message (or a modal)",
        {"x-unique-custom-ids": True},
        (
            *(schema(name) for name in MESSAGE_REQUESTS),
            schema("ModalInteractionCallbackRequestData"),
        ),
        f"{COMPONENTS}#anatomy-of-a-component-custom-id",
        "COMPONENT_CUSTOM_ID_DUPLICATED",
    ),
    Limit(
        "a button: a link button has a url and no custom_id, a premium button a sku_id, any "
        "other a custom_id and no url; all but premium ones show a label or an emoji",
        {"x-button-kind": True},
        (schema("ButtonComponentForMessageRequest"),),
        f"{COMPONENTS}#button",
        "BASE_TYPE_REQUIRED",
    ),
    Limit(
        "button label, 80 characters",
        {"maxLength": 80},
        (schema("ButtonComponentForMessageRequest", "label"),),
        f"{COMPONENTS}#button",
    ),
    Limit(
        "select placeholder, 150 characters",
        {"maxLength": 150},
        tuple(schema(name, "placeholder") for name in SELECT_REQUESTS),
        f"{COMPONENTS}#string-select",
    ),
    Limit(
        "select options, 1-25",
        {"minItems": 1, "maxItems": 25},
        (schema("StringSelectComponentForMessageRequest", "options"),),
        f"{COMPONENTS}#string-select",
    ),
    Limit(
        "select min_values 0-25 and max_values 1-25",
        {"minimum": 0, "maximum": 25},
        tuple(schema(name, "min_values") for name in SELECT_REQUESTS),
        f"{COMPONENTS}#string-select",
    ),
    Limit(
        "select max_values 1-25",
        {"minimum": 1, "maximum": 25},
        tuple(schema(name, "max_values") for name in SELECT_REQUESTS),
        f"{COMPONENTS}#string-select",
    ),
    Limit(
        "select min_values at most max_values, and max_values at most the number of options",
        {"x-select-range": True},
        tuple(schema(name) for name in SELECT_REQUESTS),
        f"{COMPONENTS}#string-select",
        "BASE_TYPE_MAX",
    ),
    Limit(
        "select option label, value and description, 100 characters (label and value 1-100)",
        {"maxLength": 100},
        tuple(
            schema("StringSelectOptionForRequest", key) for key in ("label", "value", "description")
        ),
        f"{COMPONENTS}#string-select-select-option-structure",
    ),
    Limit(
        "select option values, unique within the select",
        {"x-unique-option-values": True},
        (schema("StringSelectComponentForMessageRequest"),),
        f"{COMPONENTS}#string-select-select-option-structure",
        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
    ),
    Limit(
        "a component's or select option's emoji without an id: a fully-qualified Unicode emoji "
        "(Discord answers BUTTON_COMPONENT_INVALID_EMOJI for select options too, "
        "github.com/discord/discord-api-docs/issues/8071)",
        {"x-unicode-emoji": True},
        (schema("ComponentEmojiForRequest"),),
        f"{COMPONENTS}#button",
        "BUTTON_COMPONENT_INVALID_EMOJI",
    ),
    # -- interaction responses -----------------------------------------------------------
    Limit(
        "autocomplete choices, up to 25",
        {"maxItems": 25},
        tuple(
            schema(f"InteractionApplicationCommandAutocompleteCallback{kind}Data", "choices")
            for kind in ("Integer", "Number", "String")
        ),
        f"{RESPONDING}#interaction-response-object-autocomplete",
    ),
    Limit(
        "a modal: title 1-45 characters, custom_id 1-100, 1-5 components",
        {"maxItems": 5},
        (schema("ModalInteractionCallbackRequestData", "components"),),
        f"{RESPONDING}#interaction-response-object-modal",
    ),
    # -- application commands ------------------------------------------------------------
    Limit(
        "CHAT_INPUT command names: 1-32 characters matching "
        r"^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$, in lowercase where a letter has "
        "one, localised names too (approximated: see is_command_name); USER and MESSAGE "
        "commands: 1-32 characters of any case (the file's own limit)",
        {"x-command-name": True},
        tuple(schema(name) for name in COMMAND_REQUESTS),
        f"{COMMANDS}#application-command-object-application-command-naming",
        "APPLICATION_COMMAND_INVALID_NAME",
    ),
    Limit(
        "option names: the CHAT_INPUT name rule, localised names too",
        {"x-option-name": True},
        tuple(schema(name) for name in OPTION_SCHEMAS),
        f"{COMMANDS}#application-command-object-application-command-naming",
        "APPLICATION_COMMAND_INVALID_NAME",
    ),
    Limit(
        "CHAT_INPUT command descriptions, 1-100 characters (the file allows empty or null); "
        "option descriptions and localised ones are 1-100 in the file already",
        {"x-chat-input-description": 100},
        tuple(schema(name) for name in COMMAND_REQUESTS),
        f"{COMMANDS}#application-command-object-application-command-structure",
        "BASE_TYPE_BAD_LENGTH",
    ),
    Limit(
        "options per command or subcommand, up to 25",
        {"maxItems": 25},
        tuple(
            schema(name, "options")
            for name in (
                *COMMAND_REQUESTS,
                "ApplicationCommandSubcommandGroupOption",
                "ApplicationCommandSubcommandOption",
            )
        ),
        f"{COMMANDS}#application-command-object-application-command-option-structure",
    ),
    Limit(
        "option names, unique among their siblings",
        {"x-unique-option-names": True},
        tuple(
            schema(name, "options")
            for name in (
                *COMMAND_REQUESTS,
                "ApplicationCommandSubcommandGroupOption",
                "ApplicationCommandSubcommandOption",
            )
        ),
        f"{COMMANDS}#application-command-object-application-command-option-structure",
        "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
    ),
    Limit(
        "required options before optional ones",
        {"x-required-options-first": True},
        tuple(
            schema(name, "options")
            for name in (
                *COMMAND_REQUESTS,
                "ApplicationCommandSubcommandGroupOption",
                "ApplicationCommandSubcommandOption",
            )
        ),
        f"{COMMANDS}#application-command-object-application-command-option-structure",
        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
    ),
    Limit(
        "an option with choices cannot also autocomplete",
        {"x-choices-or-autocomplete": True},
        tuple(
            schema(f"ApplicationCommand{kind}Option") for kind in ("String", "Integer", "Number")
        ),
        f"{COMMANDS}#application-command-object-application-command-option-structure",
    ),
    Limit(
        "choices per option, up to 25",
        {"maxItems": 25},
        tuple(
            schema(f"ApplicationCommand{kind}Option", "choices")
            for kind in ("String", "Integer", "Number")
        ),
        f"{COMMANDS}#application-command-object-application-command-option-structure",
    ),
    Limit(
        "a choice's string value, 100 characters (the file says 6,000)",
        {"maxLength": 100},
        (schema("ApplicationCommandOptionStringChoice", "value"),),
        f"{COMMANDS}#application-command-object-application-command-option-choice-structure",
    ),
    Limit(
        "a CHAT_INPUT command's size: names, descriptions and choice values of the command, its "
        "options and choices, 8,000 characters together (the longest localisation of each)",
        {"x-command-size": 8000},
        tuple(schema(name) for name in COMMAND_REQUESTS),
        f"{COMMANDS}#slash-commands",
        "APPLICATION_COMMAND_TOO_LARGE",
    ),
    Limit(
        "localisation dictionaries: keyed by Discord's locales",
        {"x-locales": True},
        tuple(
            schema(name, key)
            for name in (*COMMAND_REQUESTS, *OPTION_SCHEMAS, *CHOICE_SCHEMAS)
            for key in ("name_localizations", "description_localizations")
            if not (name in CHOICE_SCHEMAS and key == "description_localizations")
        ),
        f"{DOCS}/reference#locales",
        "LOCALE_INVALID",
    ),
    Limit(
        "a bulk overwrite: one command per name and type",
        {"x-unique-command-names": True},
        (
            "/paths/~1applications~1{application_id}~1commands/put/requestBody/content"
            "/application~1json/schema",
            "/paths/~1applications~1{application_id}~1guilds~1{guild_id}~1commands/put"
            "/requestBody/content/application~1json/schema",
        ),
        f"{COMMANDS}#bulk-overwrite-global-application-commands",
        "APPLICATION_COMMANDS_DUPLICATE_NAME",
    ),
)

# Files: checked on the resolved attachments (world.py), with Discord's own statuses.
MAX_FILES = 10  # f"{MESSAGE}#create-message": files[n], up to 10
MAX_FILE_SIZE = 10 * 1024 * 1024  # f"{DOCS}/reference#uploading-files": 10 MiB, else 413


# -- the custom keywords ----------------------------------------------------------------

Check = Callable[[Any, Any, Any, Mapping[str, Any]], Iterator[ValidationError]]
Path = Sequence[str | int]


def _error(message: str, path: Path = ()) -> ValidationError:
    return ValidationError(message, path=list(path))


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def embeds_total(
    _: Any, limit: int, embeds: Any, __: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not isinstance(embeds, list):
        return
    total = 0
    for embed in embeds:
        if not isinstance(embed, dict):
            continue
        total += len(_text(embed.get("title"))) + len(_text(embed.get("description")))
        for part, key in (("footer", "text"), ("author", "name")):
            holder = embed.get(part)
            if isinstance(holder, dict):
                total += len(_text(holder.get(key)))
        fields = embed.get("fields")
        for field in fields if isinstance(fields, list) else []:
            if isinstance(field, dict):
                total += len(_text(field.get("name"))) + len(_text(field.get("value")))
    if total > limit:
        yield _error(f"Embed size exceeds maximum size of {limit}")


def _flags(message: Mapping[str, Any]) -> int:
    """A message's flags, an integer or a string of one; 0 when unreadable (the schema says
    what is wrong with them)."""
    flags = message.get("flags")
    if isinstance(flags, str) and INTEGER_TEXT.match(flags):
        return int(flags)
    if isinstance(flags, float) and flags.is_integer():  # JSON Schema's integer 2.0
        return int(flags)
    return flags if isinstance(flags, int) else 0


def _kind(component: Mapping[str, Any]) -> int | None:
    """A component's or an option's `type`, if it is an integer (the schema checks it)."""
    kind = component.get("type")
    return kind if isinstance(kind, int) else None


def _legacy_components(message: Any) -> list[Any]:
    """A message's top-level components when it does not set IS_COMPONENTS_V2."""
    if not isinstance(message, dict) or _flags(message) & IS_COMPONENTS_V2:
        return []
    components = message.get("components")
    return components if isinstance(components, list) else []


def legacy_components(
    _: Any, limit: int, message: Any, __: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if len(_legacy_components(message)) > limit:
        yield _error(f"Must be {limit} or fewer in length.", ["components"])


def legacy_action_rows(
    _: Any, __: Any, message: Any, ___: Mapping[str, Any]
) -> Iterator[ValidationError]:
    for i, component in enumerate(_legacy_components(message)):
        if isinstance(component, dict) and component.get("type") != ACTION_ROW:
            yield _error("Value must be one of {1}.", ["components", i, "type"])


def one_select_per_row(
    _: Any, __: Any, row: Any, ___: Mapping[str, Any]
) -> Iterator[ValidationError]:
    children = row.get("components") if isinstance(row, dict) else None
    if not isinstance(children, list) or len(children) < 2:
        return
    for i, child in enumerate(children):
        if isinstance(child, dict) and _kind(child) in SELECTS:
            yield _error("The specified component exceeds the maximum width", ["components", i])


def _components(
    components: Any, path: list[str | int]
) -> Iterator[tuple[list[str | int], dict[str, Any]]]:
    """Every component under ``components`` with its path: rows, containers, sections'
    accessories, labels' components."""
    if not isinstance(components, list):
        return
    for i, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        here = [*path, i]
        yield here, component
        yield from _components(component.get("components"), [*here, "components"])
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield [*here, key], child
                yield from _components(child.get("components"), [*here, key, "components"])


def unique_custom_ids(
    _: Any, __: Any, body: Any, ___: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not isinstance(body, dict):
        return
    seen: set[str] = set()
    for path, component in _components(body.get("components"), ["components"]):
        custom_id = component.get("custom_id")
        if not isinstance(custom_id, str):
            continue
        if custom_id in seen:
            yield _error("Component custom id cannot be duplicated", [*path, "custom_id"])
        seen.add(custom_id)


def button_kind(_: Any, __: Any, button: Any, ___: Mapping[str, Any]) -> Iterator[ValidationError]:
    if not isinstance(button, dict):
        return
    style = button.get("style")
    if style == LINK:
        if not button.get("url"):
            yield _error("This field is required", ["url"])
        if button.get("custom_id") is not None:
            yield _error("A link button cannot have a custom_id", ["custom_id"])
    elif style == PREMIUM:
        if not button.get("sku_id"):
            yield _error("This field is required", ["sku_id"])
    else:
        if not button.get("custom_id"):
            yield _error("This field is required", ["custom_id"])
        if button.get("url") is not None:
            yield _error("Only link buttons can have a url", ["url"])
    if style != PREMIUM and not button.get("label") and not button.get("emoji"):
        yield _error("A button needs a label or an emoji", ["label"])


def select_range(_: Any, __: Any, select: Any, ___: Mapping[str, Any]) -> Iterator[ValidationError]:
    if not isinstance(select, dict):
        return
    low, high = select.get("min_values"), select.get("max_values")
    low = 1 if low is None else low
    high = 1 if high is None else high
    if not (isinstance(low, int) and isinstance(high, int)):
        return
    if low > high:
        yield _error(f"min_values ({low}) must be at most max_values ({high})", ["min_values"])
    options = select.get("options")
    if select.get("type") == STRING_SELECT and isinstance(options, list) and high > len(options):
        yield _error(
            f"max_values ({high}) must be at most the number of options ({len(options)})",
            ["max_values"],
        )


def unique_option_values(
    _: Any, __: Any, select: Any, ___: Mapping[str, Any]
) -> Iterator[ValidationError]:
    options = select.get("options") if isinstance(select, dict) else None
    if not isinstance(options, list):
        return
    seen: set[str] = set()
    for i, option in enumerate(options):
        value = option.get("value") if isinstance(option, dict) else None
        if isinstance(value, str):
            if value in seen:
                yield _error("Select option values must be unique", ["options", i, "value"])
            seen.add(value)


def is_unicode_emoji(text: str) -> bool:
    """A fully-qualified Unicode emoji, as the emoji package's Unicode data lists it."""
    data = emoji.EMOJI_DATA.get(text)
    return data is not None and data["status"] == emoji.STATUS["fully_qualified"]


def unicode_emoji(_: Any, __: Any, value: Any, ___: Mapping[str, Any]) -> Iterator[ValidationError]:
    if not isinstance(value, dict) or value.get("id") is not None:
        return
    name = value.get("name")
    if isinstance(name, str) and not is_unicode_emoji(name):
        yield _error("Invalid emoji", ["name"])


NAME_PUNCTUATION = frozenset("-_'")


def is_command_name(name: str) -> bool:
    """Discord's CHAT_INPUT name rule, ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` in
    lowercase. Approximated without the ``regex`` module (not a dependency): letters and
    digits by ``str.isalnum``, plus the combining marks (Mn, Mc) that Devanagari and Thai
    words need; lowercase where a letter has a lowercase form."""
    return (
        1 <= len(name) <= 32
        and name == name.lower()
        and all(
            c.isalnum() or c in NAME_PUNCTUATION or unicodedata.category(c) in ("Mn", "Mc")
            for c in name
        )
    )


def _names(body: Mapping[str, Any]) -> Iterator[tuple[Path, Any]]:
    yield ["name"], body.get("name")
    localized = body.get("name_localizations")
    if isinstance(localized, dict):
        for locale, text in localized.items():
            yield ["name_localizations", locale], text


def _bad_names(body: Any) -> Iterator[ValidationError]:
    if not isinstance(body, dict):
        return
    for path, name in _names(body):
        if isinstance(name, str) and not is_command_name(name):
            yield _error(f"Invalid name: {name!r}", path)


def command_name(_: Any, __: Any, body: Any, ___: Mapping[str, Any]) -> Iterator[ValidationError]:
    if isinstance(body, dict) and body.get("type") in (None, CHAT_INPUT):
        yield from _bad_names(body)


def option_name(_: Any, __: Any, body: Any, ___: Mapping[str, Any]) -> Iterator[ValidationError]:
    yield from _bad_names(body)


def chat_input_description(
    _: Any, limit: int, body: Any, __: Mapping[str, Any]
) -> Iterator[ValidationError]:
    """Checked when present (a partial edit may leave it out)."""
    if not isinstance(body, dict) or body.get("type") not in (None, CHAT_INPUT):
        return
    if "description" in body:
        text = body["description"]
        if not isinstance(text, str) or not 1 <= len(text) <= limit:
            yield _error(f"Must be between 1 and {limit} in length.", ["description"])


def _option_list(options: Any) -> list[tuple[int, dict[str, Any]]]:
    if not isinstance(options, list):
        return []
    return [(i, o) for i, o in enumerate(options) if isinstance(o, dict)]


def unique_option_names(
    _: Any, __: Any, options: Any, ___: Mapping[str, Any]
) -> Iterator[ValidationError]:
    seen: set[Any] = set()
    for i, option in _option_list(options):
        name = option.get("name")
        if not isinstance(name, Hashable):  # junk: the schema's error
            continue
        if name in seen:
            yield _error("Option names must be unique", [i, "name"])
        seen.add(name)


def required_options_first(
    _: Any, __: Any, options: Any, ___: Mapping[str, Any]
) -> Iterator[ValidationError]:
    optional_seen = False
    for i, option in _option_list(options):
        if _kind(option) in SUBCOMMANDS:
            continue
        if not option.get("required"):
            optional_seen = True
        elif optional_seen:
            yield _error(
                "Required options must be placed before non-required options", [i, "required"]
            )


def choices_or_autocomplete(
    _: Any, __: Any, option: Any, ___: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if isinstance(option, dict) and option.get("choices") and option.get("autocomplete"):
        yield _error("Autocomplete cannot be set with choices", ["autocomplete"])


def _longest(body: Mapping[str, Any], key: str) -> int:
    """A field's size: its longest form, the default or a localisation."""
    sizes = [len(body[key]) if isinstance(body.get(key), str) else 0]
    localized = body.get(f"{key}_localizations")
    if isinstance(localized, dict):
        sizes += [len(text) for text in localized.values() if isinstance(text, str)]
    return max(sizes)


def command_size_of(body: Mapping[str, Any]) -> int:
    """Names, descriptions and choice values of a command, its options and their choices."""
    size = _longest(body, "name") + _longest(body, "description")
    for _, option in _option_list(body.get("options")):
        size += command_size_of(option)
    for _, choice in _option_list(body.get("choices")):
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size


def command_size(_: Any, limit: int, body: Any, __: Mapping[str, Any]) -> Iterator[ValidationError]:
    if not isinstance(body, dict) or body.get("type") not in (None, CHAT_INPUT):
        return
    size = command_size_of(body)
    if size > limit:
        yield _error(f"Command exceeds maximum size ({size} > {limit})")


def locales(_: Any, __: Any, table: Any, ___: Mapping[str, Any]) -> Iterator[ValidationError]:
    if isinstance(table, dict):
        for locale in table:
            if locale not in LOCALES:
                yield _error(f"Invalid locale {locale!r}", [locale])


def unique_command_names(
    _: Any, __: Any, commands: Any, ___: Mapping[str, Any]
) -> Iterator[ValidationError]:
    seen: set[tuple[Any, Any]] = set()
    for i, command in _option_list(commands):
        key = (command.get("name"), command.get("type") or CHAT_INPUT)
        if not isinstance(key[0], Hashable) or not isinstance(key[1], Hashable):
            continue  # junk: the schema's error
        if key in seen:
            yield _error("Application command names must be unique", [i, "name"])
        seen.add(key)


CHECKS: dict[str, Check] = {
    "x-embeds-total": embeds_total,
    "x-legacy-components": legacy_components,
    "x-legacy-action-rows": legacy_action_rows,
    "x-one-select-per-row": one_select_per_row,
    "x-unique-custom-ids": unique_custom_ids,
    "x-button-kind": button_kind,
    "x-select-range": select_range,
    "x-unique-option-values": unique_option_values,
    "x-unicode-emoji": unicode_emoji,
    "x-command-name": command_name,
    "x-option-name": option_name,
    "x-chat-input-description": chat_input_description,
    "x-unique-option-names": unique_option_names,
    "x-required-options-first": required_options_first,
    "x-choices-or-autocomplete": choices_or_autocomplete,
    "x-command-size": command_size,
    "x-locales": locales,
    "x-unique-command-names": unique_command_names,
}
# Discord's error code for each custom keyword, from its row.
CODES: dict[str, str] = {
    keyword: limit.code for limit in LIMITS for keyword in limit.rule if keyword in CHECKS
}
