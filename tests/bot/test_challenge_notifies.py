"""A challenge and a rematch ring the member they are for (behaviour
``edit_never_notifies``): filling the deferred "thinking…" reply is an edit, which notifies
nobody (discord-api-docs #5497), so the challenge must be a message of its own. Real bot,
real discord.py client, the loopback's `member.notifications`."""

from __future__ import annotations

from bot.sandbox import running_bot, wait_for_game, wait_for_version


async def test_a_challenge_and_a_rematch_notify_their_opponent_once(world):
    emu, guild, alice, bob, _, db = world
    async with running_bot(emu, db) as bot:
        channel = guild.default_channel
        handle = await alice.slash(("schotten", "challenge"), where=channel, opponent=bob)
        challenge = await handle.reply(timeout=10)
        assert bob.mention in challenge.content and challenge.buttons()
        assert [m.id for m in bob.notifications(channel)] == [challenge.id]
        assert alice.notifications(channel) == []
        await (await bob.click(challenge, label="Accept")).ack(timeout=10)
        info = await wait_for_game(bot, guild.id, alice.id)
        thread = emu.world.channel(info.channel_id)
        # Bob resigns; on the last board, Alice asks for a rematch.
        confirm = await (await bob.slash(("schotten", "resign"), where=thread)).reply()
        await (await bob.click(confirm, label="Yes, resign")).ack(timeout=10)
        await wait_for_version(bot, emu, info.id, 0)
        last = await emu.wait_for_message(
            lambda m: m.channel is thread and any(b["label"] == "Rematch" for b in m.buttons()),
            timeout=10,
        )
        before = len(bob.notifications(thread))
        rematch = await alice.click(last, label="Rematch")
        again = await rematch.reply(timeout=10)
        assert bob.mention in again.content and again.buttons() and not again.ephemeral
        rung = bob.notifications(thread)[before:]
        assert [m.id for m in rung] == [again.id]
        assert [m.id for m in bob.notifications(channel)] == [challenge.id]  # still once
        await emu.assert_all_acknowledged()
