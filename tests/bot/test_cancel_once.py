"""Issue 39, item 13 e: `/schotten cancel` says "cancelled" once in the channel: the
challenge's message is edited to say so, and the challenger's own answer is private and
short, not the same sentence again."""

from __future__ import annotations

from bot.sandbox import running_bot

from .test_open_challenges import post_open


async def test_a_cancelled_challenge_says_so_once(world):
    emu, guild, alice, _, _, db = world
    async with running_bot(emu, db):
        post = await post_open(alice, guild)
        reply = await (
            await alice.slash(("schotten", "cancel"), where=guild.default_channel)
        ).reply()
        edited = await emu.wait_for_message(
            lambda m: m.id == post.id and "cancelled the challenge" in m.content, timeout=10
        )
        assert "Alice cancelled the challenge: Alice challenges anyone" in edited.content
        assert not edited.buttons()
        # The challenger's answer: private, and not the edited message's sentence again.
        assert reply.ephemeral, reply.content
        assert "cancelled the challenge" not in reply.content and reply.content
        said = [m for m in guild.default_channel.public_history() if "cancelled" in m.content]
        assert [m.id for m in said] == [post.id], [m.content for m in said]
        await emu.assert_all_acknowledged()


async def test_a_declined_challenge_says_so_once(world):
    # `/schotten decline` as cancel: the challenge's message says it for everyone, and the
    # one who declined gets a short private answer, not the same sentence again.
    emu, guild, alice, bob, _, db = world
    channel = guild.default_channel
    async with running_bot(emu, db):
        post = await (
            await alice.slash(("schotten", "challenge"), where=channel, opponent=bob)
        ).reply(timeout=10)
        assert "challenges Bob" in post.content and post.buttons()
        reply = await (await bob.slash(("schotten", "decline"), where=channel)).reply()
        edited = await emu.wait_for_message(
            lambda m: m.id == post.id and "declined" in m.content, timeout=10
        )
        assert "Bob declined: Alice challenges Bob" in edited.content
        assert reply.ephemeral, reply.content
        assert "declined:" not in reply.content and reply.content
        said = [m for m in channel.public_history() if "declined" in m.content]
        assert [m.id for m in said] == [post.id], [m.content for m in said]
        await emu.assert_all_acknowledged()
