"""The loopback Discord refuses what Discord refuses, as Discord answers it.

Each case sends one request through the real discord.py client (its HTTP client, so that
payloads discord.py's own builders would stop can be sent too) and expects 400 / 50035
"Invalid Form Body" with Discord's code at the right place of the ``errors`` tree.
(tests/bot/test_discord_contract.py plays a game with the emulator checking its own
responses against the description.)
"""

from typing import Any

import discord
import pytest
from discord.http import Route

from discord_loopback import Emulator
from discord_loopback.limits import LIMITS, command_size_of
from discord_loopback.spec import LENIENCIES, discord_spec


def button(custom_id: str = "b", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id, **extra}


def option(value: str = "v", **extra: Any) -> dict[str, Any]:
    return {"label": "Option", "value": value, **extra}


def select(custom_id: str = "s", **extra: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id, "options": [option()], **extra}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def command(name: str = "play", **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "Play a game", "type": 1, **extra}


def string_option(name: str = "move", **extra: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": "A move", **extra}


MESSAGES = "/channels/{channel_id}/messages"
COMMANDS = "/applications/{application_id}/guilds/{guild_id}/commands"
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
WEBHOOK = "/webhooks/{application_id}/{interaction_token}"

# (name, method, route, body, query, where the error is, Discord's code there)
# fmt: off
CASES: list[tuple[str, str, str, Any, dict[str, Any], tuple[str, ...], str]] = [
    # -- messages ------------------------------------------------------------------------
    ("content 2,001", "POST", MESSAGES, {"content": "x" * 2001}, {}, ("content",),
     "BASE_TYPE_MAX_LENGTH"),
    ("11 embeds", "POST", MESSAGES, {"embeds": [{"title": "t"}] * 11}, {}, ("embeds",),
     "BASE_TYPE_MAX_LENGTH"),
    ("embed title 257", "POST", MESSAGES, {"embeds": [{"title": "t" * 257}]}, {},
     ("embeds", "0", "title"), "BASE_TYPE_MAX_LENGTH"),
    ("embed description 4,097", "POST", MESSAGES, {"embeds": [{"description": "d" * 4097}]},
     {}, ("embeds", "0", "description"), "BASE_TYPE_MAX_LENGTH"),
    ("embeds total 6,001", "POST", MESSAGES,
     {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, {}, ("embeds",),
     "BASE_TYPE_MAX_LENGTH"),
    ("26 embed fields", "POST", MESSAGES,
     {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, {},
     ("embeds", "0", "fields"), "BASE_TYPE_MAX_LENGTH"),
    ("embed field value 1,025", "POST", MESSAGES,
     {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, {},
     ("embeds", "0", "fields", "0", "value"), "BASE_TYPE_BAD_LENGTH"),
    ("embed footer 2,049", "POST", MESSAGES, {"embeds": [{"footer": {"text": "f" * 2049}}]},
     {}, ("embeds", "0", "footer", "text"), "BASE_TYPE_MAX_LENGTH"),
    ("6 action rows", "POST", MESSAGES,
     {"components": [row(button(f"b{i}")) for i in range(6)]}, {}, ("components",),
     "BASE_TYPE_MAX_LENGTH"),
    ("6 buttons in a row", "POST", MESSAGES,
     {"components": [row(*(button(f"b{i}") for i in range(6)))]}, {},
     ("components", "0", "components"), "BASE_TYPE_BAD_LENGTH"),
    ("a select and a button in one row", "POST", MESSAGES,
     {"components": [row(select(), button())]}, {}, ("components", "0", "components", "0"),
     "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
    ("custom_id 101", "POST", MESSAGES, {"components": [row(button("c" * 101))]}, {},
     ("components", "0", "components", "0", "custom_id"), "BASE_TYPE_BAD_LENGTH"),
    ("custom_id twice", "POST", MESSAGES, {"components": [row(button("a")), row(button("a"))]},
     {}, ("components", "1", "components", "0", "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED"),
    ("button label 81", "POST", MESSAGES, {"components": [row(button(label="L" * 81))]}, {},
     ("components", "0", "components", "0", "label"), "BASE_TYPE_MAX_LENGTH"),
    ("a button without a style", "POST", MESSAGES,
     {"components": [row({"type": 2, "label": "Go", "custom_id": "b"})]}, {},
     ("components", "0", "components", "0", "style"), "BASE_TYPE_REQUIRED"),
    ("a button without a custom_id", "POST", MESSAGES,
     {"components": [row({"type": 2, "style": 1, "label": "Go"})]}, {},
     ("components", "0", "components", "0", "custom_id"), "BASE_TYPE_REQUIRED"),
    ("a button of style 9", "POST", MESSAGES, {"components": [row(button(style=9))]}, {},
     ("components", "0", "components", "0", "style"), "BASE_TYPE_CHOICES"),
    ("a component of type 99", "POST", MESSAGES, {"components": [row({"type": 99})]}, {},
     ("components", "0", "components", "0", "type"), "BASE_TYPE_CHOICES"),
    ("placeholder 151", "POST", MESSAGES, {"components": [row(select(placeholder="p" * 151))]},
     {}, ("components", "0", "components", "0", "placeholder"), "BASE_TYPE_MAX_LENGTH"),
    ("26 options", "POST", MESSAGES,
     {"components": [row(select(options=[option(f"v{i}") for i in range(26)]))]}, {},
     ("components", "0", "components", "0", "options"), "BASE_TYPE_BAD_LENGTH"),
    ("option label 101", "POST", MESSAGES,
     {"components": [row(select(options=[option(label="l" * 101)]))]}, {},
     ("components", "0", "components", "0", "options", "0", "label"), "BASE_TYPE_BAD_LENGTH"),
    ("option value twice", "POST", MESSAGES,
     {"components": [row(select(options=[option("v"), option("v")]))]}, {},
     ("components", "0", "components", "0", "options", "1", "value"),
     "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED"),
    ("max_values above the options", "POST", MESSAGES,
     {"components": [row(select(max_values=2))]}, {},
     ("components", "0", "components", "0", "max_values"), "BASE_TYPE_MAX"),
    ("a button's emoji U+1F0A0", "POST", MESSAGES,
     {"components": [row(button(emoji={"name": "🂠"}))]}, {},
     ("components", "0", "components", "0", "emoji", "name"), "BUTTON_COMPONENT_INVALID_EMOJI"),
    ("an option's emoji without its VS-16", "POST", MESSAGES,
     {"components": [row(select(options=[option(emoji={"name": "⚔"})]))]}, {},
     ("components", "0", "components", "0", "options", "0", "emoji", "name"),
     "BUTTON_COMPONENT_INVALID_EMOJI"),
    ("a container without IS_COMPONENTS_V2", "POST", MESSAGES,
     {"components": [{"type": 17, "components": [{"type": 10, "content": "hi"}]}]}, {},
     ("components", "0", "type"), "BASE_TYPE_CHOICES"),
    ("a nonce of 26 characters", "POST", MESSAGES, {"content": "x", "nonce": "n" * 26}, {},
     ("nonce",), "BASE_TYPE_MAX_LENGTH"),
    ("content that is a number", "POST", MESSAGES, {"content": 5}, {}, ("content",),
     "STRING_TYPE_CONVERT"),
    ("a channel id that is no snowflake", "POST", "/channels/general/messages",
     {"content": "x"}, {}, ("channel_id",), "NUMBER_TYPE_COERCE"),
    ("history of 101", "GET", MESSAGES, None, {"limit": 101}, ("limit",), "NUMBER_TYPE_MAX"),
    # -- application commands ------------------------------------------------------------
    ("a command name with capitals", "PUT", COMMANDS, [command("Play")], {}, ("0", "name"),
     "APPLICATION_COMMAND_INVALID_NAME"),
    ("a command name with a space", "PUT", COMMANDS, [command("play now")], {}, ("0", "name"),
     "APPLICATION_COMMAND_INVALID_NAME"),
    ("a command name of 33", "PUT", COMMANDS, [command("p" * 33)], {}, ("0", "name"),
     "BASE_TYPE_BAD_LENGTH"),
    ("a description of 101", "PUT", COMMANDS, [command(description="d" * 101)], {},
     ("0", "description"), "BASE_TYPE_MAX_LENGTH"),
    ("an empty description", "PUT", COMMANDS, [command(description="")], {},
     ("0", "description"), "BASE_TYPE_BAD_LENGTH"),
    ("26 options in a command", "PUT", COMMANDS,
     [command(options=[string_option(f"o{i}") for i in range(26)])], {}, ("0", "options"),
     "BASE_TYPE_MAX_LENGTH"),
    ("26 choices", "PUT", COMMANDS,
     [command(options=[string_option(choices=[{"name": f"c{i}", "value": f"{i}"}
                                               for i in range(26)])])], {},
     ("0", "options", "0", "choices"), "BASE_TYPE_MAX_LENGTH"),
    ("an option name with capitals", "PUT", COMMANDS, [command(options=[string_option("Move")])],
     {}, ("0", "options", "0", "name"), "APPLICATION_COMMAND_INVALID_NAME"),
    ("an option name twice", "PUT", COMMANDS,
     [command(options=[string_option("a"), string_option("a")])], {},
     ("0", "options", "1", "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"),
    ("a required option after an optional one", "PUT", COMMANDS,
     [command(options=[string_option("a"), string_option("b", required=True)])], {},
     ("0", "options", "1", "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"),
    ("choices and autocomplete", "PUT", COMMANDS,
     [command(options=[string_option(autocomplete=True, choices=[{"name": "a", "value": "a"}])])],
     {}, ("0", "options", "0", "autocomplete"), "BASE_TYPE_INVALID"),
    ("a locale Discord does not have", "PUT", COMMANDS,
     [command(name_localizations={"xx": "jouer"})], {}, ("0", "name_localizations", "xx"),
     "LOCALE_INVALID"),
    ("a localised name with capitals", "PUT", COMMANDS,
     [command(name_localizations={"fr": "Jouer"})], {}, ("0", "name_localizations", "fr"),
     "APPLICATION_COMMAND_INVALID_NAME"),
    ("a command over 8,000 characters", "PUT", COMMANDS,
     [command(options=[string_option(f"o{n}", choices=[
         {"name": "c" * 100, "value": f"{i}" * 100} for i in range(5)]) for n in range(9)])],
     {}, ("0",), "APPLICATION_COMMAND_TOO_LARGE"),
    ("two commands of one name", "PUT", COMMANDS, [command(), command()], {}, ("1", "name"),
     "APPLICATION_COMMANDS_DUPLICATE_NAME"),
    # -- interaction callbacks and followups ---------------------------------------------
    ("callback type 42", "POST", CALLBACK, {"type": 42}, {}, ("type",), "BASE_TYPE_CHOICES"),
    ("callback without a type", "POST", CALLBACK, {"data": {"content": "x"}}, {}, ("type",),
     "BASE_TYPE_REQUIRED"),
    ("a reply of 2,001", "POST", CALLBACK, {"type": 4, "data": {"content": "x" * 2001}}, {},
     ("data", "content"), "BASE_TYPE_MAX_LENGTH"),
    ("an update with a bad emoji", "POST", CALLBACK,
     {"type": 7, "data": {"components": [row(button(emoji={"name": "x"}))]}}, {},
     ("data", "components", "0", "components", "0", "emoji", "name"),
     "BUTTON_COMPONENT_INVALID_EMOJI"),
    ("26 autocomplete choices", "POST", CALLBACK,
     {"type": 8, "data": {"choices": [{"name": f"c{i}", "value": f"{i}"} for i in range(26)]}},
     {}, ("data", "choices"), "BASE_TYPE_MAX_LENGTH"),
    ("an autocomplete choice of 101", "POST", CALLBACK,
     {"type": 8, "data": {"choices": [{"name": "c", "value": "v" * 101}]}}, {},
     ("data", "choices", "0", "value"), "BASE_TYPE_MAX_LENGTH"),
    ("a modal title of 46", "POST", CALLBACK,
     {"type": 9, "data": {"custom_id": "m", "title": "t" * 46, "components": [
         row({"type": 4, "custom_id": "i", "style": 1, "label": "Name"})]}}, {},
     ("data", "title"), "BASE_TYPE_BAD_LENGTH"),
    ("with_response=maybe", "POST", CALLBACK, {"type": 6}, {"with_response": "maybe"},
     ("with_response",), "BOOLEAN_TYPE_COERCE"),
    ("a followup of 2,001", "POST", WEBHOOK, {"content": "x" * 2001}, {}, ("content",),
     "BASE_TYPE_MAX_LENGTH"),
    ("an @original edit with 6 rows", "PATCH", WEBHOOK + "/messages/@original",
     {"components": [row(button(f"b{i}")) for i in range(6)]}, {}, ("components",),
     "BASE_TYPE_MAX_LENGTH"),
]
# fmt: on


def codes_at(tree: dict[str, Any], path: tuple[str, ...]) -> list[str]:
    node: Any = tree
    for part in path:
        node = node.get(part, {})
    return [e["code"] for e in node.get("_errors", [])]


@pytest.fixture
async def rest():
    """An emulator and a discord.py client logged in to it over REST (no gateway)."""
    async with Emulator(check_responses=True) as emu, emu.point_discord():
        guild = emu.create_guild("Spec Server")
        client = discord.Client(intents=discord.Intents.none())
        await client.login(emu.token)
        try:
            yield emu, guild, client
        finally:
            await client.close()
        assert emu.server_errors == [] and emu.unhandled_requests == []
        assert emu.undescribed_requests == []
        # The refusals themselves are answers the description admits (its ErrorResponse).
        assert emu.response_mismatches == [], emu.response_mismatches


def test_at_least_25_kinds_of_violation_are_planted():
    assert len({name for name, *_ in CASES}) == len(CASES) >= 25
    assert len({code for *_, code in CASES}) >= 15


@pytest.mark.parametrize(
    ("method", "route", "body", "query", "where", "code"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
async def test_a_violation_is_refused_as_discord_refuses_it(
    rest, method, route, body, query, where, code
):
    emu, guild, client = rest
    route_params = {
        "channel_id": guild.default_channel.id,
        "application_id": emu.application_id,
        "guild_id": guild.id,
        "interaction_id": 1,
        "interaction_token": "some-token",
    }
    with pytest.raises(discord.HTTPException) as caught:
        await client.http.request(
            Route(method, route, **{k: v for k, v in route_params.items() if f"{{{k}}}" in route}),
            json=body,
            params=query or None,
        )
    assert (caught.value.status, caught.value.code) == (400, 50035)
    [refused] = emu.refused_requests
    assert refused.method == method and refused.code == 50035
    assert code in codes_at(refused.errors, where), refused.summary
    assert any(e.kind == "failure" and "refused" in e.text for e in emu.chat_log)


async def test_discord_pys_own_sends_are_refused_too(rest):
    emu, guild, client = rest
    channel = client.get_partial_messageable(guild.default_channel.id)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("x" * 2001)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Hand", emoji="🂠", custom_id="hand"))
    with pytest.raises(discord.HTTPException, match="Invalid emoji"):
        await channel.send("Your turn", view=view)
    paths = [codes_at(r.errors, ("content",)) for r in emu.refused_requests]
    assert paths[0] == ["BASE_TYPE_MAX_LENGTH"]
    emoji = ("components", "0", "components", "0", "emoji", "name")
    assert codes_at(emu.refused_requests[1].errors, emoji) == ["BUTTON_COMPONENT_INVALID_EMOJI"]
    # What Discord accepts goes through: a file, with discord.py's {"id": 0} attachment.
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Hand", emoji="🃏", custom_id="hand"))
    file = discord.File(__file__, filename="test.py")
    sent = await channel.send("Your turn", view=view, file=file, nonce="n" * 25)
    assert emu.message(sent.id).attachments[0].filename == "test.py"
    assert len(emu.refused_requests) == 2


def test_every_limit_names_its_page_and_every_leniency_its_reason():
    spec = discord_spec()
    for limit in LIMITS:
        assert limit.url.startswith("https://discord.com/developers/docs/"), limit
        assert limit.rule and limit.places and limit.what
        for place in limit.places:  # each place exists in the file, and got the rule
            node = spec.document
            for part in place.strip("/").split("/"):
                part = part.replace("~1", "/").replace("~0", "~")
                node = node[int(part)] if isinstance(node, list) else node[part]
            assert all(node.get(k) == v for k, v in limit.rule.items()), (limit.what, place)
    assert all(len(leniency.reason) > 40 for leniency in LENIENCIES)


def test_the_leniencies_admit_what_discord_accepts():
    spec = discord_spec()
    put, _ = spec.match("PUT", "/api/v10/applications/1/guilds/2/commands")
    create, _ = spec.match("POST", "/api/v10/channels/1/messages")
    # An integer field takes a string of an integer, within its range.
    assert (
        spec.check_body(put, "application/json", [command(default_member_permissions="32")]) == []
    )
    [(where, code, _)] = spec.check_body(
        put, "application/json", [command(default_member_permissions="32x")]
    )
    assert (where, code) == ([0, "default_member_permissions"], "NUMBER_TYPE_COERCE")
    [(where, code, _)] = spec.check_body(
        put, "application/json", [command(default_member_permissions="-1")]
    )
    assert (where, code) == ([0, "default_member_permissions"], "NUMBER_TYPE_MIN")
    # ...but where a union has a string branch, a string is that branch's: a nonce "123" is
    # a string nonce, not a second match that would make the union fail.
    for nonce in ("123", 123, "n" * 25):
        assert spec.check_body(create, "application/json", {"content": "x", "nonce": nonce}) == []
    # A snowflake may be a JSON integer (discord.py's {"id": 0} for a new upload).
    body = {"content": "x", "attachments": [{"id": 0, "filename": "a.png"}]}
    assert spec.check_body(create, "application/json", body) == []
    [(where, code, _)] = spec.check_body(
        create, "application/json", {"content": "x", "attachments": [{"id": -1}]}
    )
    assert (where, code) == (["attachments", 0, "id"], "NUMBER_TYPE_MIN")


def test_a_commands_size_counts_its_longest_localisations():
    body = command(
        "play",
        name_localizations={"de": "spielen"},
        options=[string_option(choices=[{"name": "ab", "value": "abc"}])],
    )
    # "spielen" (7) + "Play a game" (11) + "move" (4) + "A move" (6) + "ab" (2) + "abc" (3)
    assert command_size_of(body) == 33
