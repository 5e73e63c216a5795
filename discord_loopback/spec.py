"""Discord's OpenAPI description as the law of the loopback Discord.

``discord_spec/openapi.json`` (see its SOURCE.md) is loaded once per process, adjusted by the
two tables (``limits.LIMITS``, the documented limits the file leaves out; ``LENIENCIES``
below, where the real Discord accepts more than the file says) and put in a ``referencing``
registry. A request is matched to its operation by method and path (``/api/v10`` stripped;
routes outside ``/api/``, the gateway and the CDN, are not Discord's REST API and are not
checked), and its path and query parameters (query strings coerced to the schema's type) and
its body (a multipart body's ``payload_json``) are validated with python-jsonschema (Draft
2020-12) against the operation's schemas. One validator per schema is compiled on first use,
with a quick check of the same schema (``quick_check.py``): a request it passes is valid, and
only one it does not pass is walked by python-jsonschema, where every error comes from.

A violation becomes Discord's answer, 400 ``{"code": 50035, "message": "Invalid Form Body",
"errors": {...}}``, the tree following the path of each error in the request. In a union of
objects told apart by ``type`` (components, callbacks, options), the error reported is the
one of the branch whose ``type`` matches, not python-jsonschema's ``best_match``.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import referencing
from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.protocols import Validator
from referencing.jsonschema import DRAFT202012

from .errors import FieldError
from .limits import CHECKS, CODES, INTEGER_TEXT, LIMITS
from .quick_check import quick_check

SPEC_URI = "urn:discord:openapi"
API_PREFIX = re.compile(r"^/api(?:/v\d+)?(?=/)")
JSON = dict[str, Any]


# -- where the real Discord accepts more than the file says --------------------------------


def _snowflakes_admit_integers(spec: JSON) -> None:
    snowflake = spec["components"]["schemas"]["SnowflakeType"]
    snowflake["type"] = ["string", "integer"]
    snowflake["minimum"] = 0


def _admits_strings(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    kinds = schema.get("type")
    return kinds == "string" or (isinstance(kinds, list) and "string" in kinds) or "$ref" in schema


def _integers_admit_strings(spec: JSON) -> None:
    """Every integer-typed schema also takes a string of an integer (its range still
    applies), except an enumeration (component, style and callback types stay integers) and
    a branch of a union that has a string branch of its own, where the string means the
    other branch (a nonce ``"123"`` is a string nonce)."""

    def visit(node: Any, *, in_string_union: bool = False) -> None:
        if isinstance(node, list):
            for item in node:
                visit(item, in_string_union=in_string_union)
            return
        if not isinstance(node, dict):
            return
        kinds = node.get("type")
        is_integer = kinds == "integer" or (isinstance(kinds, list) and "integer" in kinds)
        # A field that takes strings already (a snowflake) needs nothing more.
        string_too = isinstance(kinds, list) and "string" in kinds
        if (
            is_integer
            and not string_too
            and not in_string_union
            and not {"enum", "const"} & set(node)
        ):
            node["type"] = [*(kinds if isinstance(kinds, list) else [kinds]), "string"]
            node["x-integer-string"] = True
        for key, value in node.items():
            if key in ("oneOf", "anyOf") and isinstance(value, list):
                union = any(_admits_strings(branch) for branch in value)
                for branch in value:
                    visit(branch, in_string_union=union)
            elif key != "x-integer-string":
                visit(value)

    visit(spec["components"]["schemas"])


def _error_codes_are_strings(spec: JSON) -> None:
    inner = spec["components"]["schemas"]["InnerErrors"]["properties"]["_errors"]
    inner["items"] = {
        "type": "object",
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        "required": ["code", "message"],
    }


@dataclass(frozen=True)
class Leniency:
    reason: str
    apply: Callable[[JSON], None]


LENIENCIES: tuple[Leniency, ...] = (
    Leniency(
        "A snowflake may be sent as a JSON integer: discord.py sends a new upload's attachment "
        'as {"id": 0, ...} (its files[n] index), which Discord accepts.',
        _snowflakes_admit_integers,
    ),
    Leniency(
        "Integer fields accept strings parseable as integers (discord-api-spec README, 'Spec "
        "conventions': 'Our API accepts strings for int fields if they are parseable as "
        "ints').",
        _integers_admit_strings,
    ),
    Leniency(
        "A field error's code is a string such as BASE_TYPE_REQUIRED (discord-api-docs, "
        "Reference, Error Messages); the file types it as an integer. (Responses only.)",
        _error_codes_are_strings,
    ),
)


# -- the same rules, quicker to check ------------------------------------------------------


def _simplify(spec: JSON) -> None:
    """Rewrites that keep every rule of the file and make python-jsonschema's work smaller
    (a message validates about 3.5 times faster):

    * a ``oneOf`` of constants (the file's enumerations: component, button style, callback
      types...) becomes an ``enum`` of them;
    * a ``oneOf`` of objects told apart by a required ``type`` property with disjoint values
      becomes an ``anyOf``: at most one branch can match, so the validator may stop at the
      first that does instead of trying all the others.
    """
    schemas = spec["components"]["schemas"]

    def resolve(node: Any) -> Any:
        while isinstance(node, dict) and "$ref" in node:
            node = _pointer(spec, node["$ref"].removeprefix("#"))
        return node

    def discriminator(branch: Any) -> set[Any] | None:
        branch = resolve(branch)
        if not isinstance(branch, dict) or "type" not in branch.get("required", []):
            return None
        kind = resolve(branch.get("properties", {}).get("type"))
        if not isinstance(kind, dict):
            return None
        if "enum" in kind:
            return set(kind["enum"])
        return {kind["const"]} if "const" in kind else None

    def visit(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                visit(item)
            return
        if not isinstance(node, dict):
            return
        branches = node.get("oneOf")
        if isinstance(branches, list) and branches:
            if all(isinstance(b, dict) and "const" in b for b in branches):
                node["enum"] = [b["const"] for b in branches]
                del node["oneOf"]
            else:
                kinds = [discriminator(b) for b in branches]
                known = [k for k in kinds if k]  # all of them when every branch has one
                if len(known) == len(kinds) and sum(map(len, known)) == len(set().union(*known)):
                    node["anyOf"] = node.pop("oneOf")
        for value in node.values():
            visit(value)

    visit(schemas)


def _merge_limits(spec: JSON) -> None:
    for limit in LIMITS:
        for place in limit.places:
            _pointer(spec, place).update(limit.rule)


def _pointer(document: Any, pointer: str) -> Any:
    node = document
    for part in pointer.lstrip("/").split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


# -- custom keywords -------------------------------------------------------------------------

NUMERIC_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def _integer_string(
    validator: Any, _: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    """The int-parseable-string leniency: a string in an integer field is read as the
    integer, which must then be in the field's range."""
    if not isinstance(instance, str) or "string" in _declared_types(schema):
        return
    if not INTEGER_TEXT.match(instance):
        yield ValidationError(f'Value "{instance}" is not int.')
        return
    numeric = {k: schema[k] for k in NUMERIC_KEYWORDS if k in schema}
    yield from validator.descend(int(instance), numeric)


def _declared_types(schema: Mapping[str, Any]) -> list[str]:
    """The types the file declared, before the leniency added "string"."""
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    return kinds[:-1] if schema.get("x-integer-string") else kinds


# The keywords the file and limits.py add to Draft 2020-12's (python-jsonschema functions).
KEYWORDS = {"x-integer-string": _integer_string, **CHECKS}
# types-jsonschema leaves `extend` unannotated.
DiscordValidator = validators.extend(Draft202012Validator, KEYWORDS)  # type: ignore[no-untyped-call]


# -- the operations --------------------------------------------------------------------------


@dataclass(frozen=True)
class Parameter:
    name: str
    where: str  # "path" or "query"
    required: bool
    pointer: str  # of its schema in the file
    types: tuple[str | None, ...]  # the schema's JSON types (None: none named), to read a query


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    operation_id: str
    pattern: re.Pattern[str]
    pointer: str  # of the operation object in the file
    parameters: tuple[Parameter, ...]
    bodies: Mapping[str, str]  # content type -> pointer of its schema
    body_required: bool
    responses: Mapping[str, str]  # status ("200", "4XX") -> pointer of its JSON schema
    statuses: frozenset[str]  # every status the file describes, with or without a body

    def body_schema(self, content_type: str) -> str | None:
        """JSON bodies and a multipart body's payload_json follow the JSON schema."""
        if content_type == "multipart/form-data" or content_type not in self.bodies:
            content_type = "application/json"
        return self.bodies.get(content_type)

    def describes(self, status: int) -> bool:
        return str(status) in self.statuses or f"{status // 100}XX" in self.statuses

    def response_schema(self, status: int) -> str | None:
        if str(status) in self.statuses:
            return self.responses.get(str(status))
        return self.responses.get(f"{status // 100}XX")


@dataclass
class DiscordSpec:
    """The loaded description: operations by method, validators compiled on first use."""

    document: JSON
    registry: referencing.Registry[Any]
    operations: dict[str, list[Operation]] = field(default_factory=dict)
    _validators: dict[str, Validator] = field(default_factory=dict)
    # A quick verdict per validator (same keys).
    _quick: dict[str, Callable[[Any], bool]] = field(default_factory=dict)

    @classmethod
    def load(cls) -> DiscordSpec:
        text = resources.files(__package__).joinpath("discord_spec/openapi.json").read_text()
        document = json.loads(text)
        _merge_limits(document)
        _simplify(document)
        for leniency in LENIENCIES:
            leniency.apply(document)
        resource = referencing.Resource.from_contents(document, default_specification=DRAFT202012)
        spec = cls(document, referencing.Registry().with_resource(SPEC_URI, resource))
        spec._index()
        return spec

    def _index(self) -> None:
        for template, item in self.document["paths"].items():
            shared = item.get("parameters", [])
            for method, operation in item.items():
                if method == "parameters":
                    continue
                base = f"/paths/{_escape(template)}/{method}"
                body = self._deref(operation.get("requestBody") or {})
                bodies = {
                    kind: self._schema_pointer(f"{base}/requestBody", kind)
                    for kind in body.get("content", {})
                }
                responses = {}
                for status, response in operation.get("responses", {}).items():
                    found = self._response_pointer(f"{base}/responses/{_escape(status)}", response)
                    if found is not None:
                        responses[status] = found
                self.operations.setdefault(method.upper(), []).append(
                    Operation(
                        method=method.upper(),
                        template=template,
                        operation_id=operation.get("operationId", ""),
                        pattern=_compile(template),
                        pointer=base,
                        parameters=self._parameters(
                            [
                                f"/paths/{_escape(template)}/parameters/{i}"
                                for i in range(len(shared))
                            ]
                            + [
                                f"{base}/parameters/{i}"
                                for i in range(len(operation.get("parameters", [])))
                            ]
                        ),
                        bodies=bodies,
                        body_required=bool(body.get("required")),
                        responses=responses,
                        statuses=frozenset(operation.get("responses", {})),
                    )
                )
        for operations in self.operations.values():
            # A literal segment (/users/@me) wins over a parameter (/users/{user_id}).
            operations.sort(key=lambda op: op.template.count("{"))

    def _parameters(self, pointers: list[str]) -> tuple[Parameter, ...]:
        found = []
        for pointer in pointers:
            node = _pointer(self.document, pointer)
            if "$ref" in node:
                pointer = node["$ref"].removeprefix("#")
                node = self._deref(node)
            if node.get("in") not in ("path", "query"):
                continue
            kinds = self._resolve(node.get("schema", {})).get("type")
            found.append(
                Parameter(
                    name=node["name"],
                    where=node["in"],
                    required=bool(node.get("required")),
                    pointer=f"{pointer}/schema",
                    types=tuple(kinds if isinstance(kinds, list) else [kinds]),
                )
            )
        return tuple(found)

    def _deref(self, node: JSON) -> JSON:
        while "$ref" in node:
            node = _pointer(self.document, node["$ref"].removeprefix("#"))
        return node

    def _schema_pointer(self, base: str, content_type: str) -> str:
        node = _pointer(self.document, base)
        if "$ref" in node:
            base = node["$ref"].removeprefix("#")
        return f"{base}/content/{_escape(content_type)}/schema"

    def _response_pointer(self, base: str, response: JSON) -> str | None:
        if "$ref" in response:
            base = response["$ref"].removeprefix("#")
            response = self._deref(response)
        if "application/json" not in response.get("content", {}):
            return None
        return f"{base}/content/application~1json/schema"

    # -- matching and validating -------------------------------------------------------

    def match(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        """The operation serving ``path`` (a full ``/api/v10/...`` path) and its path
        parameters; None outside the REST API or for a route the file does not describe."""
        prefix = API_PREFIX.match(path)
        if prefix is None:
            return None
        route = path[prefix.end() :]
        for operation in self.operations.get(method.upper(), []):
            found = operation.pattern.match(route)
            if found:
                return operation, found.groupdict()
        return None

    def validator(self, pointer: str) -> Validator:
        validator = self._validators.get(pointer)
        if validator is None:
            schema = self._inlined({"$ref": f"{SPEC_URI}#{pointer}"})
            validator = DiscordValidator(schema, registry=self.registry)
            self._validators[pointer] = validator
        return validator

    def _inlined(self, node: Any, within: tuple[str, ...] = ()) -> Any:
        """`node` with each `$ref` replaced by the schema it names, except where a schema
        refers to itself (components inside components), which stays a `$ref` resolved
        through the registry. The same schema for the validator, with its references
        resolved once instead of at every validation (half of a message's checking time).
        A reference with keywords beside it becomes an `allOf` of the two, as Draft 2020-12
        applies them."""
        if isinstance(node, list):
            return [self._inlined(item, within) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if not isinstance(ref, str) or "#" not in ref or ref.split("#", 1)[0] not in ("", SPEC_URI):
            return {key: self._inlined(value, within) for key, value in node.items()}
        pointer = ref.split("#", 1)[1]
        if pointer in within:
            target: Any = {"$ref": f"{SPEC_URI}#{pointer}"}
        else:
            target = self._inlined(_pointer(self.document, pointer), (*within, pointer))
        beside = {key: self._inlined(value, within) for key, value in node.items() if key != "$ref"}
        return {**beside, "allOf": [target]} if beside else target

    def check_parameters(
        self, operation: Operation, path_params: Mapping[str, str], query: Mapping[str, str]
    ) -> list[FieldError]:
        if not operation.parameters:
            return []
        values: dict[str, Any] = {}
        for parameter in operation.parameters:
            source = path_params if parameter.where == "path" else query
            raw = source.get(parameter.name)
            if raw is not None:
                values[parameter.name] = _coerce(raw, parameter.types)
        key = f"{operation.pointer}/parameters"
        validator = self._validators.get(key)
        if validator is None:
            schema = {
                "type": "object",
                "properties": {
                    p.name: {"$ref": f"{SPEC_URI}#{p.pointer}"} for p in operation.parameters
                },
                "required": [p.name for p in operation.parameters if p.required],
            }
            validator = DiscordValidator(self._inlined(schema), registry=self.registry)
            self._validators[key] = validator
        return self._errors(key, validator, values)

    def check_body(self, operation: Operation, content_type: str, body: Any) -> list[FieldError]:
        pointer = operation.body_schema(content_type)
        if pointer is None:
            return []
        return self._errors(pointer, self.validator(pointer), body)

    def check_response(self, operation: Operation, status: int, body: Any) -> list[FieldError]:
        if not operation.describes(status):
            return [((), "UNDESCRIBED_STATUS", f"the file describes no {status} response")]
        pointer = operation.response_schema(status)
        if pointer is None:
            return [] if body is None else [((), "UNDESCRIBED_BODY", "the file describes none")]
        # The full walk alone: a response schema is much larger than a request's (compiling
        # one quick check can take 0.2 s), and responses are only checked in some tests.
        return self._walk(self.validator(pointer), body)

    def _errors(self, key: str, validator: Validator, instance: Any) -> list[FieldError]:
        """The errors of ``instance`` under ``validator`` (kept under ``key``): none if the
        quick check (quick_check.py) passes it, else those of the full walk. Nearly every
        request is valid, and the quick check tells so several times faster."""
        passes = self._quick.get(key)
        if passes is None:
            passes = self._quick[key] = quick_check(
                validator.schema,
                KEYWORDS,
                DiscordValidator,
                self.registry,
                [(SPEC_URI, self.document)],
            )
        if passes(instance):
            return []
        return self._walk(validator, instance)

    def _walk(self, validator: Validator, instance: Any) -> list[FieldError]:
        """python-jsonschema's full walk, where every error comes from (all there was before
        the quick check)."""
        return self._field_errors(validator.iter_errors(instance))

    # -- Discord's error tree ------------------------------------------------------------

    def _field_errors(self, errors: Iterable[ValidationError]) -> list[FieldError]:
        found: list[FieldError] = []
        for error in errors:
            for leaf in _leaves(error):
                found.extend(_as_field_errors(leaf, self._branch_types))
        return found

    def _branch_types(self, error: ValidationError) -> list[Any]:
        """The ``type`` values the branches of a failed union accept."""
        allowed: list[Any] = []
        # A validator's error always carries its keyword's value (Unset: hand-made errors).
        branches: Any = error.validator_value
        for branch in branches:
            properties = self._resolve(branch).get("properties", {})
            kind = self._resolve(properties.get("type", {}))
            allowed.extend(kind.get("enum", [kind["const"]] if "const" in kind else []))
        return allowed

    def _resolve(self, schema: Any) -> JSON:
        while isinstance(schema, dict) and "$ref" in schema:
            schema = _pointer(self.document, schema["$ref"].split("#", 1)[1])
        return schema if isinstance(schema, dict) else {}


def _coerce(raw: str, types: Sequence[str | None]) -> Any:
    """A query string as its schema's type (Discord's boolean query strings are true/false,
    True/False and 1/0)."""
    if "boolean" in types and raw in ("true", "True", "1", "false", "False", "0"):
        return raw in ("true", "True", "1")
    if "integer" in types and INTEGER_TEXT.match(raw):
        return int(raw)
    if "number" in types:
        try:
            return float(raw)
        except ValueError:
            return raw
    return raw


def _compile(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    regex = "".join(
        re.escape(part) if i % 2 == 0 else f"(?P<{part}>[^/]+)" for i, part in enumerate(parts)
    )
    return re.compile(f"^{regex}$")


@functools.cache
def discord_spec() -> DiscordSpec:
    """The description, loaded once per process."""
    return DiscordSpec.load()


# -- from python-jsonschema's errors to Discord's ------------------------------------------

UNIONS = ("oneOf", "anyOf")


def _other_kind(errors: Sequence[ValidationError]) -> bool:
    """A union branch written for another kind of value: the value's JSON type, a constant,
    or its discriminating ``type`` property does not match."""
    for error in errors:
        path = list(error.relative_path)
        if not path and error.validator in ("type", "const", "enum"):
            return True
        if path == ["type"] and error.validator in ("type", "const", "enum", "oneOf"):
            return True
    return False


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The errors to report for ``error``: inside a union, those of the branch meant for the
    value (the one whose ``type`` matches), else the union's own error."""
    if error.validator not in UNIONS or not error.context:
        yield error
        return
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    meant = [errors for _, errors in sorted(branches.items()) if not _other_kind(errors)]
    if not meant:
        yield error
        return
    # Of the branches left, the one where the value went wrong least: fewest values of the
    # wrong JSON type, then fewest errors (the earliest on a tie).
    candidates = [[leaf for sub in errors for leaf in _leaves(sub)] for errors in meant]
    yield from min(candidates, key=lambda leaves: (sum(map(_wrong_type, leaves)), len(leaves)))


def _wrong_type(error: ValidationError) -> bool:
    return error.validator in ("type", "x-integer-string")


def _as_field_errors(
    error: ValidationError, branch_types: Callable[[ValidationError], list[Any]]
) -> list[FieldError]:
    path = list(error.absolute_path)
    instance = error.instance
    keyword = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}
    # A validator's error always carries its keyword's value (Unset: hand-made errors).
    value: Any = error.validator_value
    if keyword in CODES:
        return [(path, CODES[str(keyword)], error.message)]
    if keyword == "x-integer-string":
        return [(path, "NUMBER_TYPE_COERCE", error.message)]
    if keyword == "required":
        missing = [p for p in value if isinstance(instance, dict) and p not in instance]
        return [([*path, p], "BASE_TYPE_REQUIRED", "This field is required") for p in missing]
    if keyword in UNIONS:
        if isinstance(instance, dict) and "type" in instance:
            allowed = sorted(set(branch_types(error)), key=str)
            if allowed and instance["type"] not in allowed:
                return [([*path, "type"], "BASE_TYPE_CHOICES", _choices(allowed))]
        consts = [b["const"] for b in value if isinstance(b, dict) and "const" in b]
        if consts and len(consts) == len(value):
            return [(path, "BASE_TYPE_CHOICES", _choices(consts))]
        return [(path, "BASE_TYPE_INVALID", "Invalid Form Body")]
    return [(path, *_code(str(keyword), value, instance, schema))]


def _choices(values: Iterable[Any]) -> str:
    return "Value must be one of {" + ", ".join(repr(v) for v in values) + "}."


def _code(keyword: str, value: Any, instance: Any, schema: Mapping[str, Any]) -> tuple[str, str]:
    if keyword in ("maxLength", "minLength", "maxItems", "minItems"):
        kind = "Length" if keyword.endswith("Length") else "Items"
        low, high = schema.get(f"min{kind}"), schema.get(f"max{kind}")
        if low is not None and high is not None and low > 0:
            return "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."
        if keyword.startswith("max"):
            return "BASE_TYPE_MAX_LENGTH", f"Must be {value} or fewer in length."
        return "BASE_TYPE_MIN_LENGTH", f"Must be {value} or more in length."
    if keyword in ("maximum", "exclusiveMaximum"):
        return "NUMBER_TYPE_MAX", f"int value should be less than or equal to {value}."
    if keyword in ("minimum", "exclusiveMinimum"):
        return "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {value}."
    if keyword in ("enum", "const"):
        return "BASE_TYPE_CHOICES", _choices(value if keyword == "enum" else [value])
    if keyword == "pattern" and schema.get("format") == "snowflake":
        return "NUMBER_TYPE_COERCE", f'Value "{instance}" is not snowflake.'
    if keyword == "type":
        kinds = value if isinstance(value, list) else [value]
        if "integer" in kinds or "number" in kinds:
            return "NUMBER_TYPE_COERCE", f'Value "{instance}" is not int.'
        if "string" in kinds:
            return "STRING_TYPE_CONVERT", "Could not interpret value as string."
        if "boolean" in kinds:
            return "BOOLEAN_TYPE_COERCE", f'Value "{instance}" is not a valid boolean.'
        if "object" in kinds:
            return "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"
        if "array" in kinds:
            return "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType"
    return "BASE_TYPE_INVALID", "Invalid Form Body"
