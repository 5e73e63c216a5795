"""Discord's limits on messages, components, embeds and autocomplete choices.

A bot that builds an over-long label or a sixth button row gets a 400 "Invalid Form Body" from
Discord; the emulator answers the same way so such bugs show up in tests, not in production.
Only the limits a card-game bot can plausibly hit are checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import CANNOT_SEND_EMPTY, ApiError, invalid_form
from .models import (
    ACTION_ROW,
    BUTTON,
    FLAG_COMPONENTS_V2,
    JSON,
    SELECT_TYPES,
    STRING_SELECT,
    walk_components,
)

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_FILE_SIZE = 10 * 1024 * 1024
MAX_CHOICES = 25


def _check_len(value: Any, limit: int, where: str, *, minimum: int = 0) -> None:
    if value is None:
        return
    text = str(value)
    if not minimum <= len(text) <= limit:
        raise invalid_form(
            where,
            f"Must be between {minimum} and {limit} in length.",
            "BASE_TYPE_BAD_LENGTH",
        )


def validate_content(content: str | None) -> None:
    _check_len(content, MAX_CONTENT, "content")


def validate_embeds(embeds: Sequence[JSON]) -> None:
    if len(embeds) > MAX_EMBEDS:
        raise invalid_form("embeds", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        where = f"embeds.{i}"
        for key, limit in (("title", 256), ("description", 4096)):
            _check_len(embed.get(key), limit, f"{where}.{key}")
            total += len(str(embed.get(key) or ""))
        fields = embed.get("fields", [])
        if len(fields) > 25:
            raise invalid_form(f"{where}.fields", "Must be 25 or fewer in length.")
        for j, fld in enumerate(fields):
            _check_len(fld.get("name"), 256, f"{where}.fields.{j}.name", minimum=1)
            _check_len(fld.get("value"), 1024, f"{where}.fields.{j}.value", minimum=1)
            total += len(str(fld.get("name", ""))) + len(str(fld.get("value", "")))
        footer = embed.get("footer") or {}
        _check_len(footer.get("text"), 2048, f"{where}.footer.text")
        author = embed.get("author") or {}
        _check_len(author.get("name"), 256, f"{where}.author.name")
        total += len(str(footer.get("text") or "")) + len(str(author.get("name") or ""))
    if total > MAX_EMBED_TOTAL:
        raise invalid_form("embeds", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}")


def validate_components(components: Sequence[JSON], flags: int) -> None:
    if not flags & FLAG_COMPONENTS_V2:
        if len(components) > 5:
            raise invalid_form("components", "Must be 5 or fewer in length.")
        for i, row in enumerate(components):
            if row.get("type") != ACTION_ROW:
                raise invalid_form(f"components.{i}", "Top-level components must be action rows")
            children = row.get("components", [])
            selects = [c for c in children if c.get("type") in SELECT_TYPES]
            if not children or len(children) > 5 or (selects and len(children) > 1):
                raise invalid_form(
                    f"components.{i}.components",
                    "An action row holds 1-5 buttons or exactly one select menu.",
                )
    seen: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is not None:
            _check_len(custom_id, 100, "components.custom_id", minimum=1)
            if custom_id in seen:
                raise invalid_form(
                    "components.custom_id",
                    "Component custom id cannot be duplicated",
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                )
            seen.add(custom_id)
        kind = component.get("type")
        if kind == BUTTON:
            _validate_button(component)
        elif kind in SELECT_TYPES:
            _validate_select(component)


def _validate_button(button: JSON) -> None:
    _check_len(button.get("label"), 80, "components.label")
    style = button.get("style")
    if style == 5:
        if not button.get("url") or button.get("custom_id"):
            raise invalid_form("components.url", "A link button needs a url and no custom_id")
    elif style != 6 and not button.get("custom_id"):
        raise invalid_form("components.custom_id", "This field is required", "BASE_TYPE_REQUIRED")
    if not button.get("label") and not button.get("emoji"):
        raise invalid_form("components.label", "A button needs a label or an emoji")


def _validate_select(select: JSON) -> None:
    _check_len(select.get("placeholder"), 150, "components.placeholder")
    minimum = select.get("min_values", 1)
    maximum = select.get("max_values", 1)
    if not (0 <= minimum <= 25 and 1 <= maximum <= 25 and minimum <= maximum):
        raise invalid_form("components.max_values", "min_values/max_values out of range")
    if select.get("type") == STRING_SELECT:
        options = select.get("options", [])
        if not 1 <= len(options) <= 25:
            raise invalid_form("components.options", "Must be between 1 and 25 in length.")
        if maximum > len(options):
            raise invalid_form("components.max_values", "max_values exceeds the option count")
        values: set[str] = set()
        for option in options:
            _check_len(option.get("label"), 100, "components.options.label", minimum=1)
            _check_len(option.get("value"), 100, "components.options.value", minimum=1)
            _check_len(option.get("description"), 100, "components.options.description")
            if option.get("value") in values:
                raise invalid_form(
                    "components.options.value", "Select option values must be unique"
                )
            values.add(option.get("value"))


def validate_files(sizes: Sequence[int]) -> None:
    if len(sizes) > MAX_FILES:
        raise invalid_form("files", f"Must be {MAX_FILES} or fewer in length.")
    for size in sizes:
        if size > MAX_FILE_SIZE:
            raise ApiError(413, 40005, "Request entity too large")


def validate_not_empty(
    content: str | None, embeds: Sequence[JSON], components: Sequence[JSON], files: int
) -> None:
    if not content and not embeds and not components and not files:
        raise ApiError(400, CANNOT_SEND_EMPTY, "Cannot send an empty message")


def validate_choices(choices: Sequence[JSON]) -> None:
    if len(choices) > MAX_CHOICES:
        raise invalid_form("data.choices", f"Must be {MAX_CHOICES} or fewer in length.")
    for i, choice in enumerate(choices):
        _check_len(choice.get("name"), 100, f"data.choices.{i}.name", minimum=1)
        value = choice.get("value")
        if isinstance(value, str):
            _check_len(value, 100, f"data.choices.{i}.value")
