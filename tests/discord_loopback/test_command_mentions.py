"""Command mentions (`</schotten move:ID>`) as a client shows them: the registered command's
default names for every reader (behaviour `default_command_names`; its names in the reader's
language without it); a mention Discord could not resolve stays as written."""

from discord_loopback import Emulator
from discord_loopback.commands import CommandRegistry
from discord_loopback.ids import SnowflakeGenerator

COMMAND = {
    "name": "schotten",
    "description": "Play",
    "name_localizations": {"fr": "schotten"},
    "options": [
        {
            "type": 1,
            "name": "move",
            "description": "Move",
            "name_localizations": {"fr": "jouer", "de": "zug"},
        },
        {
            "type": 2,
            "name": "tournament",
            "description": "Tournaments",
            "name_localizations": {"fr": "tournoi"},
            "options": [
                {
                    "type": 1,
                    "name": "start",
                    "description": "Start",
                    "name_localizations": {"fr": "lancer"},
                }
            ],
        },
    ],
}


def registry() -> tuple[CommandRegistry, int]:
    commands = CommandRegistry(SnowflakeGenerator(), 1, lambda: (), lambda: None)
    (registered,) = commands.put_commands(None, [COMMAND])
    return commands, registered.id


def test_the_sync_gives_each_command_an_id_kept_across_syncs():
    commands, first = registry()
    (again,) = commands.put_commands(None, [COMMAND])
    assert again.id == first and again.to_payload()["id"] == str(first)


def test_a_mention_shows_the_default_names_to_every_reader():
    """Behaviour `default_command_names`: every client shows a command mention with the
    command's default names, whatever its locale (discord-api-docs #5518, #7309)."""
    commands, cid = registry()
    for locale in ("fr", "de", "en-US"):
        assert commands.mention_text(f"</schotten move:{cid}>", locale) == "/schotten move"
        assert commands.mention_text(f"</schotten tournament start:{cid}>", locale) == (
            "/schotten tournament start"
        )


def test_without_the_behaviour_a_mention_shows_in_the_readers_language():
    commands = CommandRegistry(
        SnowflakeGenerator(), 1, lambda: (), lambda: None, localised_mentions=lambda: True
    )
    (registered,) = commands.put_commands(None, [COMMAND])
    cid = registered.id
    assert commands.mention_text(f"</schotten move:{cid}>", "fr") == "/schotten jouer"
    assert commands.mention_text(f"</schotten move:{cid}>", "de") == "/schotten zug"
    assert commands.mention_text(f"</schotten move:{cid}>", "en-US") == "/schotten move"
    assert commands.mention_text(f"</schotten tournament start:{cid}>", "fr") == (
        "/schotten tournoi lancer"
    )


async def test_the_emulator_plays_default_names_unless_switched_off():
    async with Emulator() as emu:
        assert not emu.world.commands.localised_mentions()
    async with Emulator(without={"default_command_names"}) as emu:
        assert emu.world.commands.localised_mentions()


def test_a_mention_discord_cannot_resolve_stays_as_written():
    commands, cid = registry()
    for wrong in (f"</schotten move:{cid + 1}>", f"</schotten fly:{cid}>", f"</other:{cid}>"):
        assert commands.mention_text(wrong, "fr") == wrong
