"""What holding the bot to Discord's description costs the loopback Discord: loading the
description once per process, and validating one board-like message (medians).

`loopback_spec_load_s`: reading the file and compiling its adjustments, once per process.
`loopback_validate_ms`: one message with content, an embed and three rows of components
checked against its operation's request schema and the documented limits.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from benchmarks.timing import figure, median_seconds
from discord_loopback.spec import discord_spec

RUNS = 200


def _message() -> dict[str, Any]:
    button = {"type": 2, "style": 1, "label": "Stone", "custom_id": "m"}
    options = [{"label": f"Card {i}", "value": f"v{i}"} for i in range(9)]
    return {
        "content": "Alice played R7 on stone 3",
        "embeds": [{"title": "Board", "description": "d" * 200}],
        "components": [
            {"type": 1, "components": [button | {"custom_id": f"m{i}"} for i in range(5)]},
            {"type": 1, "components": [{"type": 3, "custom_id": "s", "options": options}]},
            {
                "type": 1,
                "components": [button | {"custom_id": "h", "emoji": {"name": "🃏"}}],
            },
        ],
        "attachments": [{"id": 0, "filename": "board.png"}],
        "nonce": "123.456789",
        "enforce_nonce": True,
    }


def run() -> Iterator[str]:
    discord_spec.cache_clear()  # loaded afresh, even if another suite of this run loaded it
    start = time.perf_counter()
    spec = discord_spec()
    yield figure("loopback_spec_load_s", time.perf_counter() - start, "s")
    found = spec.match("POST", "/api/v10/channels/1/messages")
    assert found is not None
    operation, _ = found
    body = _message()
    assert spec.check_body(operation, "application/json", body) == []  # valid, and warm
    seconds = median_seconds(
        lambda: spec.check_body(operation, "application/json", body), runs=RUNS
    )
    yield figure("loopback_validate_ms", seconds * 1000, "ms")
