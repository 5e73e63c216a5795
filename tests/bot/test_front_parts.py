"""The front's parts know the front only by the protocols of bot/front/ports.py: the Front
that app.py composes must provide every member of each, or a part would fail at run time."""

import discord
import pytest

from bot.front import ports
from bot.front.app import Front
from bot.front.computer import Computer

PARTS = [
    ports.RelayFront,
    ports.ComputerFront,
    ports.LookbackFront,
    ports.DeskFront,
    ports.CommandsFront,
    ports.ControlsFront,
]


@pytest.mark.parametrize("protocol", PARTS, ids=lambda p: p.__name__)
async def test_the_front_provides_what_each_part_needs(service, protocol):
    client = discord.Client(intents=discord.Intents.none())
    front = Front(client, service)
    front.computer = Computer(front)
    assert isinstance(front, protocol)
    assert isinstance(front.computer, ports.Pool)
    await client.close()


def test_a_front_missing_a_member_is_caught():
    class Partial:
        service = None

        async def after_move(self, result, *, replied=False): ...

    assert not isinstance(Partial(), ports.ComputerFront)  # no channel()
