"""A quick yes-or-no on a request: is it valid under its schema?

Nearly every request the bot sends is valid, and python-jsonschema's walk, which builds the
errors Discord's answer is made of, spends most of its time on machinery a valid request
does not need (a validator evolved for every schema node, errors built for every union
branch tried). So ``spec.py`` first asks jsonschema-rs, a compiled validator of the same
Draft 2020-12, whether the request is valid, and walks it with python-jsonschema only when
it is not: every error still comes from that walk, and a valid request gets its empty list
several times sooner.

The custom keywords (``limits.CHECKS``, ``x-integer-string``) are python-jsonschema keyword
functions; jsonschema-rs calls each through `_Keyword`, which runs the very function and
fails when it yields an error or raises. tests/discord_loopback/test_spec_fast.py checks
that both validators agree on the bot's requests, on refused ones and on random mutations.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import jsonschema_rs

# A python-jsonschema keyword function: (validator, keyword's value, instance, schema) ->
# its errors.
Keyword = Callable[[Any, Any, Any, Mapping[str, Any]], Iterable[Any]]


def _keyword_class(function: Keyword, validator_class: Any, registry: Any) -> type:
    """A jsonschema-rs custom keyword (a class made per keyword and schema node) running
    python-jsonschema's `function` on a validator of the node's schema, as the walk does."""

    class _Keyword:
        def __init__(self, parent: dict[str, Any], value: Any, _path: list[Any]) -> None:
            self.value = value
            self.parent = parent
            self.validator = validator_class(parent, registry=registry)

        def validate(self, instance: Any) -> None:
            for _error in function(self.validator, self.value, instance, self.parent):
                raise ValueError("refused")  # the walk says what and where

    return _Keyword


def quick_check(
    schema: Any,
    keywords: Mapping[str, Keyword],
    validator_class: Any,
    registry: Any,
    resources: list[tuple[str, Any]],
) -> Callable[[Any], bool]:
    """A function telling whether `schema` (with its custom `keywords`, python-jsonschema
    functions run on `validator_class` validators over `registry`) finds an instance
    valid. `resources`: (URI, document) where the schema's references lead."""
    compiled = jsonschema_rs.Draft202012Validator(
        schema,
        keywords={
            name: _keyword_class(function, validator_class, registry)
            for name, function in keywords.items()
        },
        registry=jsonschema_rs.Registry(resources),
    )

    def passes(instance: Any) -> bool:
        try:
            return bool(compiled.is_valid(instance))
        except Exception:  # something it cannot read: the walk decides (and says why)
            return False

    return passes
