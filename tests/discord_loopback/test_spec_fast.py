"""The quick check (discord_loopback/quick_check.py) changes nothing but the time: every
request gets the errors of python-jsonschema's full walk (DiscordSpec._walk), on bodies the
bot sends (recorded from the end-to-end benchmark), on refused variants of them, on random
mutations, and keyword by keyword on tricky values. Junk the limits.py checks cannot read
gets the schema's errors, never an exception."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
import referencing
from hypothesis import given, settings
from hypothesis import strategies as st
from referencing.jsonschema import DRAFT202012

from discord_loopback.quick_check import quick_check
from discord_loopback.spec import KEYWORDS, SPEC_URI, DiscordValidator, Operation, discord_spec

V2 = 1 << 15  # IS_COMPONENTS_V2


def _operation(method: str, path: str) -> Operation:
    found = discord_spec().match(method, path)
    assert found is not None
    return found[0]


MESSAGE = _operation("POST", "/api/v10/channels/1/messages")
WEBHOOK = _operation("POST", "/api/v10/webhooks/1/token")
CALLBACK = _operation("POST", "/api/v10/interactions/1/token/callback")
EDIT = _operation("PATCH", "/api/v10/channels/1/messages/2")
FOLLOW_UP_EDIT = _operation("PATCH", "/api/v10/webhooks/1/token/messages/@original")
THREAD = _operation("POST", "/api/v10/channels/1/threads")
COMMANDS = _operation("PUT", "/api/v10/applications/1/guilds/2/commands")


# -- bodies the bot sends (recorded from the end-to-end benchmark) --------------------------


def _button(label: str, custom_id: str, emoji: str | None = None, style: int = 2) -> dict:
    button: dict[str, Any] = {
        "type": 2,
        "style": style,
        "disabled": False,
        "label": label,
        "custom_id": custom_id,
    }
    if emoji is not None:
        button["emoji"] = {"id": None, "name": emoji}
    return button


def _select(custom_id: str, placeholder: str, options: list[dict]) -> dict:
    return {
        "type": 3,
        "custom_id": custom_id,
        "min_values": 1,
        "max_values": 1,
        "disabled": False,
        "required": True,
        "placeholder": placeholder,
        "options": options,
    }


def _cards(*cards: str, tiles: str = "Tiles 1, 2, 3, 4, 5, 6, 7") -> list[dict]:
    return [{"label": c, "value": c, "default": False, "description": tiles} for c in cards]


BOARD = {
    "content": "**Schotten Totten** · p0 vs p1 · game #1\n• The game begins: p0 against p1.\n"
    "**<@1575813871510224896>** to play.\n⏱ 3 days left on the clock.",
    "components": [{"type": 1, "components": [_button("Show my hand", "sch:h:1", "🃏")]}],
    "nonce": "1.773704214",
    "enforce_nonce": True,
    "tts": False,
    "allowed_mentions": {"users": [1575813871510224896], "replied_user": True, "parse": []},
    "attachments": [{"id": 0, "filename": "board-1-0.png"}],
}
HAND = {
    "content": "Your hand in game #4 against p6 (<#1575813874442043392>). **Your move.** "
    "Choose below, or type </schotten move:1575813871053045760>.\n⏱ You have 3 days left.",
    "components": [
        {
            "type": 1,
            "components": [
                _select("sch:c:4:1", "Play a card…", _cards("Y5", "Y6", "G2", "B6", "B8", "B11"))
            ],
        },
        {
            "type": 1,
            "components": [
                _button("Oil on tile 7", "sch:m:4:1:oil 7", style=1),
                _button("Unseen cards", "sch:u:4:1:1", "👁️"),
                _button("My games", "sch:y:4", "📋"),
            ],
        },
    ],
    "nonce": "50.773707669",
    "enforce_nonce": True,
    "tts": False,
    "allowed_mentions": {"replied_user": True, "parse": ["users"]},
    "attachments": [{"id": 0, "filename": "hand-4-1.png"}],
}
RETREAT = {
    **HAND,
    "components": [
        HAND["components"][0],
        {
            "type": 1,
            "components": [
                _select(
                    "sch:s:4:2:retreat",
                    "Tiles to retreat from (choose 1)",
                    [{"label": "7", "value": "7", "default": False}],
                )
            ],
        },
        {
            "type": 1,
            "components": [
                _button("Unseen cards", "sch:u:4:2:1", "👁️"),
                _button("My games", "sch:y:4", "📋"),
            ],
        },
    ],
}
MESSAGES = [BOARD, HAND, RETREAT]


def _follow_up(message: dict) -> dict:
    """An interaction follow-up as discord.py sends it: no nonce, ephemeral."""
    body = {k: v for k, v in message.items() if k not in ("nonce", "enforce_nonce")}
    return {**body, "flags": 64}


CALLBACKS = [
    {"type": 4, "data": {"tts": False, "content": "Sent Bob their hand", "flags": 64}},
    {
        "type": 4,
        "data": {"tts": False, "content": HAND["content"], "components": HAND["components"]},
    },
    {"type": 5},
    {"type": 6},
    {"type": 7, "data": {"tts": False, "content": "Game 42 accepted", "components": []}},
    {"type": 7, "data": {"components": RETREAT["components"]}},
    {"type": 8, "data": {"choices": [{"name": "blue-1", "value": "blue-1"}]}},
    {
        "type": 9,
        "data": {
            "custom_id": "1521e901923c84c0d7ecab5c4861bffb",
            "title": "Rename your table",
            "components": [
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 4,
                            "style": 1,
                            "label": "New name",
                            "custom_id": "name",
                            "required": True,
                            "max_length": 20,
                        }
                    ],
                }
            ],
        },
    },
]
EDITS = [
    {"content": "<@1575817641291939846> to play", "tts": False, "flags": 0},
    {"content": "count: 1", "tts": False, "flags": 0, "components": HAND["components"]},
]
COMMAND = {
    "name": "schotten",
    "description": "Play Schotten Totten",
    "options": [
        {
            "type": 1,
            "name": "move",
            "description": "Play a card",
            "options": [{"type": 3, "name": "card", "description": "A card", "required": True}],
        }
    ],
}

# (operation, content type, body): valid requests of every kind the bot makes.
VALID: list[tuple[Operation, str, Any]] = [
    *((MESSAGE, "multipart/form-data", body) for body in MESSAGES),
    *((MESSAGE, "application/json", body) for body in MESSAGES),
    *((WEBHOOK, "multipart/form-data", _follow_up(body)) for body in MESSAGES),
    *((CALLBACK, "application/json", body) for body in CALLBACKS),
    *((EDIT, "application/json", body) for body in EDITS),
    (FOLLOW_UP_EDIT, "application/json", {"content": "Counted", "tts": False}),
    (THREAD, "application/json", {"name": "Game 4", "type": 11, "auto_archive_duration": 1440}),
    (COMMANDS, "application/json", [COMMAND]),
]


def _answer(operation: Operation, content_type: str, body: Any) -> Any:
    """check_body's answer: its errors, or the type of what it raised."""
    try:
        return discord_spec().check_body(operation, content_type, body)
    except Exception as error:
        return type(error)


def _reference(operation: Operation, content_type: str, body: Any) -> Any:
    """The full walk's answer, as check_body gave it before the quick check."""
    pointer = operation.body_schema(content_type)
    if pointer is None:
        return []
    spec = discord_spec()
    try:
        return spec._walk(spec.validator(pointer), body)
    except Exception as error:
        return type(error)


def _passes(operation: Operation, content_type: str, body: Any) -> bool:
    spec = discord_spec()
    pointer = operation.body_schema(content_type)
    assert pointer is not None
    spec.check_body(operation, content_type, {})  # compiles the validator and its quick check
    return spec._quick[pointer](body)


def _assert_same(operation: Operation, content_type: str, body: Any) -> Any:
    expected = _reference(operation, content_type, body)
    assert _answer(operation, content_type, body) == expected
    # The verdict agrees both ways: never valid where the walk finds (or raises) anything,
    # and valid wherever it finds nothing (else the quick check would be of no use).
    assert _passes(operation, content_type, body) == (expected == [])
    return expected


@pytest.mark.parametrize(("operation", "content_type", "body"), VALID)
def test_the_bots_requests_pass_quickly(operation, content_type, body):
    assert _assert_same(operation, content_type, body) == []


# -- refused variants --------------------------------------------------------------------


def _row(*components: dict) -> dict:
    return {"type": 1, "components": list(components)}


def _with(body: dict, **changes: Any) -> dict:
    return {**copy.deepcopy(body), **changes}


def _refused(message: dict) -> Iterator[dict]:
    button = _button("Go", "go")
    yield _with(message, content=42)
    yield _with(message, content="x" * 2001)
    yield _with(message, content=None, tts="yes")
    yield _with(message, components=[_row(_button("Go", f"b{i}")) for i in range(6)])
    yield _with(message, components=[_row(*(_button("Go", f"b{i}") for i in range(6)))])
    yield _with(message, components=[_row()])
    yield _with(message, components=[_row(_button("Go", "go", "not an emoji"))])
    yield _with(message, components=[_row(_button("Go", "go", "🃏🃏"))])
    yield _with(message, components=[_row({**button, "emoji": {"id": "x", "name": 3}})])
    yield _with(message, components=[_row({k: v for k, v in button.items() if k != "custom_id"})])
    yield _with(message, components=[_row({"type": 2, "style": 1})])
    yield _with(message, components=[_row({**button, "style": 5})])
    yield _with(message, components=[_row({**button, "type": 99})])
    yield _with(message, components=[_row({**button, "type": True})])
    yield _with(message, components=[{**_row(button), "type": 3}])
    yield _with(message, components=[_row(_row(button))])
    yield _with(message, components=[{"components": [button]}])
    yield _with(message, components=[_row(button, button)])
    yield _with(message, components=[_row(_select("s", "p", []))])
    yield _with(message, components=[_row(_select("s", "p", _cards("A", "A")))])
    yield _with(message, components=[_row(_select("s", "p", [{"label": "A"}]))])
    yield _with(message, components=[_row({**_select("s", "p", _cards("A")), "max_values": 3})])
    yield _with(message, components=[_row(_select("s", "p", _cards("A")), button)])
    yield _with(message, components=[{"type": 10, "content": "V2 only"}])
    yield _with(message, components={"type": 1})
    yield _with(message, nonce="n" * 26)
    yield _with(message, nonce=1.5)
    yield _with(message, allowed_mentions={"parse": ["everyone", "nobody"]})
    yield _with(message, allowed_mentions={"users": ["x"], "parse": ["users", "users"]})
    yield _with(message, attachments=[{"id": "zero", "filename": 3}])
    yield _with(message, embeds=[{"title": "t" * 300, "fields": [{"name": "", "value": ""}]}])
    yield _with(message, embeds=[{"fields": [{"value": "v"}]}, {"color": "red"}])
    yield _with(message, embeds=[{"description": "d" * 4000} for _ in range(2)])
    yield _with(message, flags="64", sticker_ids=["1", "2", "3", "4"])
    yield [message]
    yield None


REFUSED = [*_refused(BOARD), *_refused(HAND)]
# Accepted, by the file as by the quick check: it does not forbid unknown fields, and 2.0 is
# an integer to JSON Schema.
ODDITIES = [
    (MESSAGE, _with(BOARD, bogus_field=1)),
    (MESSAGE, _with(BOARD, components=[_row({**_button("Go", "go"), "type": 2.0})])),
    (CALLBACK, {"type": 4}),
]


@pytest.mark.parametrize("body", REFUSED)
def test_refused_messages_get_the_full_walks_errors(body):
    assert _assert_same(MESSAGE, "multipart/form-data", body) != []


@pytest.mark.parametrize("body", REFUSED)
@pytest.mark.parametrize("operation", [WEBHOOK, EDIT, FOLLOW_UP_EDIT])
def test_the_same_bodies_elsewhere_get_the_full_walks_answer(operation, body):
    _assert_same(operation, "application/json", body)


@pytest.mark.parametrize(("operation", "body"), ODDITIES)
def test_what_the_file_allows_passes(operation, body):
    assert _assert_same(operation, "application/json", body) == []


@pytest.mark.parametrize(
    "body",
    [
        {"type": 4, "data": {"content": "x" * 2001}},
        {"type": 4, "data": {"components": [_row(_button("Go", "go", "nope"))]}},
        {"type": 7, "data": {"components": [_row(*(_button("Go", f"b{i}") for i in range(6)))]}},
        {"type": 9, "data": {"custom_id": "m", "title": "t" * 46, "components": []}},
        {"type": 8, "data": {"choices": [{"name": "c", "value": "v" * 101}]}},
        {"type": 42},
        {"type": "4", "data": {"content": "x"}},
        {"data": {"content": "x"}},
    ],
)
def test_refused_callbacks_get_the_full_walks_errors(body):
    assert _assert_same(CALLBACK, "application/json", body) != []


@pytest.mark.parametrize(
    "body",
    [
        # What a limits.py check cannot read (a list for a type, flags that are no number,
        # fields that are no list) is left to the schema, which refuses it; the first only
        # in a union branch the body does not take (an action row's): accepted as the text
        # display it is.
        _with(
            BOARD,
            flags=V2,
            components=[{"type": 10, "content": "x", "components": [{"type": []}, {}]}],
        ),
        _with(BOARD, flags="abc"),
        _with(BOARD, flags=float(V2), components=[{"type": 10, "content": "x"}]),
        _with(BOARD, flags=str(V2), components=[{"type": 10, "content": "x"}]),
        _with(BOARD, embeds=[{"fields": 5}]),
        _with(BOARD, components=[_row({"type": [3]}, _button("Go", "go"))]),
    ],
)
def test_what_a_check_cannot_read_gets_the_schemas_answer(body):
    answer = _assert_same(MESSAGE, "application/json", body)
    assert isinstance(answer, list)  # not an exception
    if body.get("flags") in (V2, float(V2), str(V2)):
        assert answer == []
    else:
        assert answer != []


@pytest.mark.parametrize(
    ("path_params", "query"),
    [
        ({"channel_id": "1575813871669608448"}, {"limit": "50"}),
        ({"channel_id": "1575813871669608448"}, {"limit": "500", "before": "x"}),
        ({"channel_id": "chan"}, {"limit": "abc", "around": "-1"}),
    ],
)
def test_parameters_get_the_same_errors(monkeypatch, path_params, query):
    spec = discord_spec()
    operation = _operation("GET", "/api/v10/channels/1/messages")
    found = spec.check_parameters(operation, path_params, query)
    key = f"{operation.pointer}/parameters"
    assert key in spec._quick
    monkeypatch.setitem(spec._quick, key, lambda _: False)  # the full walk alone
    assert found == spec.check_parameters(operation, path_params, query)


# -- random mutations of the bot's requests ----------------------------------------------

KEYS = [
    "type", "style", "custom_id", "label", "emoji", "name", "id", "components", "options",
    "value", "min_values", "max_values", "flags", "content", "url", "sku_id", "embeds", "title",
    "fields", "data", "choices", "accessory", "parse", "users", "attachments", "nonce",
]  # fmt: skip
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=40),
    st.sampled_from([1.0, 2.5, 10**20, 2**31, 32768, 64, 16777216]),
    st.text(max_size=8),
    st.sampled_from(["🃏", "👁️", "not an emoji", "x" * 101, "x" * 2001, "123", "-1", "1.5", ""]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)


def _places(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _places(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _places(value, (*path, i))


def _mutate(body: Any, data: st.DataObject) -> Any:
    """One change at a random place: a new value, a key or item removed, a key added, an item
    repeated."""
    path = data.draw(st.sampled_from(list(_places(body))))
    change = data.draw(st.sampled_from(["replace", "remove", "add", "repeat"]))
    if not path:
        return data.draw(VALUES) if change == "replace" else body
    parent = body
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    if change == "replace":
        parent[last] = data.draw(VALUES)
    elif change == "remove":
        del parent[last]
    elif change == "add" and isinstance(parent[last], dict):
        parent[last][data.draw(st.sampled_from(KEYS))] = data.draw(VALUES)
    elif change == "repeat" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    return body


@settings(max_examples=400)
@given(data=st.data())
def test_mutated_requests_get_the_full_walks_answer(data):
    operation, content_type, body = data.draw(st.sampled_from(VALID))
    body = copy.deepcopy(body)
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        body = _mutate(body, data)
    expected = _reference(operation, content_type, body)
    assert _answer(operation, content_type, body) == expected
    assert _passes(operation, content_type, body) == (expected == [])


# -- keyword by keyword, on tricky values ------------------------------------------------

DOCUMENT = {
    "node": {
        "type": "object",
        "properties": {"next": {"$ref": "#/node"}, "n": {"type": "integer"}},
        "required": ["n"],
    }
}
SCHEMAS = [
    {"type": "integer"},
    {"type": ["number", "null"], "minimum": 1, "exclusiveMaximum": 3},
    {"type": "integer", "maximum": 2, "exclusiveMinimum": 0},
    {"enum": [1, 2, "a"]},
    {"enum": [True, None, [1], {"a": 1}, 1.5]},
    {"const": 1},
    {"const": [False]},
    {"type": "string", "minLength": 2, "maxLength": 3, "pattern": "^a"},
    {"items": {"type": "integer"}, "minItems": 1, "maxItems": 2, "uniqueItems": True},
    {"prefixItems": [{"type": "string"}, {"type": "boolean"}], "items": False},
    {"prefixItems": [{"const": 1}], "items": {"type": "string"}},
    {"required": ["a"], "minProperties": 1, "maxProperties": 2},
    {"properties": {"a": {"type": "string"}}, "additionalProperties": False},
    {"properties": {"a": True}, "patternProperties": {"^b": {"type": "integer"}}},
    {"patternProperties": {"^b": False}, "additionalProperties": {"type": "string"}},
    {"allOf": [{"type": "integer"}, {"minimum": 2}]},
    {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 5}]},
    {"oneOf": [{"type": "integer"}, {"type": "number"}]},
    {"oneOf": [{"type": "null"}, {"type": "array", "items": {"$ref": f"{SPEC_URI}#/node"}}]},
    {"$ref": f"{SPEC_URI}#/node", "format": "uri", "description": "ignored"},
    {"x-unicode-emoji": True, "x-button-kind": True},
    {"type": ["integer", "string"], "minimum": 0, "maximum": 9, "x-integer-string": True},
    {"not": {"type": "string"}},
    {"properties": {"a": {"if": {"type": "string"}, "then": {"minLength": 2}}}},
    {"properties": {"a": True}, "unevaluatedProperties": False},
    True,
    False,
]
TRICKY = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.sampled_from([0, 1, 2, 3, 5, 1.0, 2.0, 2.5, -1, 10, "a", "ab", "abcd", "b", "5", "x"]),
    ),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["a", "b", "bc", "n", "next", "name", "style"]), inner)
    ),
    max_leaves=5,
)
REGISTRY = referencing.Registry().with_resource(
    SPEC_URI, referencing.Resource.from_contents(DOCUMENT, default_specification=DRAFT202012)
)


@pytest.mark.parametrize("schema", SCHEMAS)
@settings(max_examples=150)
@given(instance=TRICKY)
def test_each_keyword_as_python_jsonschema_reads_it(schema, instance):
    validator = DiscordValidator(schema, registry=REGISTRY)
    passes = quick_check(schema, KEYWORDS, DiscordValidator, REGISTRY, [(SPEC_URI, DOCUMENT)])
    assert passes(instance) == validator.is_valid(instance)
