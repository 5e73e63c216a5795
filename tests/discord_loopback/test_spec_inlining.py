"""The loopback Discord's validators have their schemas' references resolved once
(DiscordSpec._inlined): they find exactly what the same schema with its references
resolved at each validation finds, on bodies Discord accepts and on bodies it refuses."""

from __future__ import annotations

import pytest

from discord_loopback.spec import SPEC_URI, DiscordValidator, discord_spec

MESSAGE = (
    "/paths/~1channels~1{channel_id}~1messages/post/requestBody/content/application~1json/schema"
)
GOOD = {
    "content": "**Schotten Totten** · Ann vs Bo · game #1",
    "components": [
        {
            "type": 1,
            "components": [
                {
                    "type": 2,
                    "style": 2,
                    "label": "Show my hand",
                    "custom_id": "sch:h:1",
                    "emoji": {"id": None, "name": "🃏"},
                }
            ],
        }
    ],
    "nonce": "1.769261166",
    "enforce_nonce": True,
    "allowed_mentions": {"users": [1575795235999449089], "parse": []},
    "attachments": [{"id": 0, "filename": "board-1-0.png"}],
}
BAD = [
    {**GOOD, "content": "x" * 2001},
    {**GOOD, "components": [{"type": 1, "components": [{"type": 2, "style": 9, "label": "x"}]}]},
    {
        **GOOD,
        "components": [{"type": 1, "components": [{"type": 3, "custom_id": "m", "options": []}]}],
    },
    {**GOOD, "allowed_mentions": {"parse": ["everyone", "nobody"]}},
    {**GOOD, "attachments": [{"id": "zero", "filename": 3}]},
    {**GOOD, "embeds": [{"title": "t" * 300, "fields": [{"name": "", "value": ""}]}]},
]


@pytest.mark.parametrize("body", [GOOD, *BAD])
def test_inlined_references_find_the_same_errors(body):
    spec = discord_spec()
    inlined = spec.validator(MESSAGE)
    by_reference = DiscordValidator({"$ref": f"{SPEC_URI}#{MESSAGE}"}, registry=spec.registry)
    found = spec._field_errors(inlined.iter_errors(body))
    assert found == spec._field_errors(by_reference.iter_errors(body))
    assert (found == []) == (body is GOOD)
