"""The e2e benchmark's split of its CPU by layer (benchmarks/layers.py)."""

from __future__ import annotations

from benchmarks.layers import layer_of


def frames(*paths: str) -> list[tuple[str, str]]:
    return [(f"f{i}", path) for i, path in enumerate(paths)]


def test_a_library_counts_for_the_layer_that_called_it():
    pil = "/v/site-packages/PIL/Image.py"
    assert layer_of(frames("/w/render/png.py", pil)) == "render"
    assert layer_of(frames("/w/discord_loopback/media.py", pil)) == "emulator"
    assert layer_of(frames("discord/http.py", "aiohttp/client.py")) == "discord.py"


def test_the_innermost_known_layer_wins():
    stack = frames("discord/app_commands/tree.py", "/w/bot/front/app.py", "/w/bot/store/sql.py")
    assert layer_of(stack) == "store"
    assert layer_of(frames("/w/bot/front/app.py", "/w/bot/front/relay.py")) == "relay"
    assert layer_of(frames("aiohttp/web_protocol.py", "asyncio/events.py")) == "emulator"


def test_the_players_own_code_counts_as_theirs_unless_the_bot_runs_under_it():
    player = ("one_move", "/w/benchmarks/e2e.py")
    assert layer_of([player, ("match", "/w/bot/service.py")]) == "players"
    assert layer_of([player, ("move", "/w/bot/front/app.py")]) == "bot front"
