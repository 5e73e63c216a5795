"""The Discord front end's behaviour: turning interactions into service calls, and service
results into messages, pictures and DMs. No game rules and no SQL live here.

The Front composes the front's parts: it makes the relay and the tournament desk, and the
client hands it to the commands, the controls and the computer; each part knows it only by
its protocol in `ports.py`, so none imports this module.

Every request is acknowledged before anything that can wait (the database, a picture, a busy
machine): Discord drops an interaction not acknowledged within 3 s. Then the answer follows
up; pictures are drawn in worker threads so the gateway heartbeat never waits.

Who reads decides the language. A request speaks its member's language (`listen`, at its
entry point): replies, refusals, the controls they see privately. What the channel sees (the
board, a challenge, its acceptance) is written inside `speaking(server_language)`; what is
sent later to one member (their hand, a reminder) in the language last seen from them.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import AsyncIterator, Awaitable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import Refused
from bot.front import open_challenges, texts
from bot.front.controls import (
    BLOCKED,
    AcceptButton,
    DeclineButton,
    MoveButton,
    ShowHandButton,
    UnseenButton,
    controls_view,
    step_view,
)
from bot.front.dm_channels import DmChannel, DmChannels, DmsClosed
from bot.front.my_games import with_my_games
from bot.front.one_at_a_time import OneAtATime
from bot.front.pictures import Painter
from bot.front.relay import Relay, locked_to, plainest
from bot.front.replies import MISSING, PING, QUIET, acknowledge, member_of, quietly, report, say
from bot.front.sharing import Answer, Picture, answers, send_private
from bot.front.tournaments import TournamentDesk
from bot.front.unplayable import unplayable, why_not
from bot.front.unseen import MARK as UNSEEN_MARK
from bot.front.unseen import unseen_line, without_unseen
from bot.notation import canonical
from bot.records import ChallengeInfo, MatchInfo, MoveResult
from bot.service import GameService
from bot.tournament.service import Tournaments
from bot.wording import SHOW_HAND_BUTTON
from engine.api import MatchSpec, notation
from engine.errors import GameError
from lang import DEFAULT, _, current, fill, language_of, localise, mention, speaking, use

if TYPE_CHECKING:
    from bot.front.computer import Computer

log = logging.getLogger("schotten.bot")
MAX_CONTENT = 2000  # Discord's limit on a message's text


class Front:
    """What the bot does; the client and its controls call into it."""

    def __init__(self, client: discord.Client, service: GameService) -> None:
        self.client = client
        self.service = service
        self.computer: Computer | None = None
        self.painter = Painter()  # threads; the client sets [render] workers
        # Members' DM channels, opened once and remembered (every DM goes through them).
        self.dms = DmChannels(client, service.store, service.refusals, service.clock)
        self.relay = Relay(self)
        # One replay or analysis at a time, so a burst of them cannot crowd out play.
        self.heavy = asyncio.Semaphore(1)
        self.tournaments = Tournaments(service)
        self.desk = TournamentDesk(self)  # runs the tournaments on Discord
        # Shutting down: new requests are turned away while those under way finish.
        self.draining = False
        self._active = 0
        self._idle = asyncio.Event()
        self._idle.set()
        # Writes no answer waits for (a member's language), kept until done.
        self._later: set[asyncio.Task[None]] = set()
        # Clicks on one challenge, taken in turn (see `accept`).
        self._accepting = OneAtATime()
        # A member's challenge from before it is stored until its message's id is: a
        # /schotten games asked meanwhile waits for the id, to link the message (see `challenge`).
        self.posting_challenge = OneAtATime()

    # Requests under way ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def working(self) -> AsyncIterator[None]:
        """Around every interaction the bot handles: refused while shutting down, counted
        otherwise, so that a shutdown can let the ones under way finish."""
        if self.draining:
            raise Refused(
                _("I am restarting right now; try again in a minute. Nothing was changed.")
            )
        self._active += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._active -= 1
            if self._active == 0:
                self._idle.set()

    async def wait_idle(self, timeout: float) -> bool:
        """Wait until no request is under way, nor a write one started beside it (False if
        some still were after `timeout`)."""

        async def idle() -> None:
            await self._idle.wait()
            await self.writes_done()

        try:
            await asyncio.wait_for(idle(), timeout)
        except TimeoutError:
            return False
        return True

    # Languages --------------------------------------------------------------------------------

    async def listen(self, interaction: discord.Interaction) -> str:
        """At a request's entry point (every command, autocomplete and control): speak the
        member's client language for the rest of the request, and remember it for what is
        sent to them later, beside the request rather than before its acknowledgement.
        Never fails: a language not stored is only a later DM in another language."""
        language = language_of(interaction.locale)
        use(language)
        user = interaction.user
        if user is not None and not user.bot:
            task = asyncio.create_task(self._remember_language(user.id, language))
            self._later.add(task)
            task.add_done_callback(self._later.discard)
        autocomplete = interaction.type is discord.InteractionType.autocomplete
        if user is not None and not user.bot and not autocomplete:  # not at every keystroke
            # Refusals the member's use of the bot lifts (bot/refusals.py), beside it too.
            here, threads = posting_allowed(interaction)
            seen = self.service.refusals.seen(
                user.id,
                interaction.channel_id if interaction.guild_id else None,
                may_post=here,
                may_post_in_threads=threads,
                settings=_is_settings(interaction),
            )
            lifted = asyncio.create_task(_quietly_logged(seen, "refusals lifted"))
            self._later.add(lifted)
            lifted.add_done_callback(self._later.discard)
        return language

    async def writes_done(self) -> None:
        """Until the writes no answer waited for (a member's language) are done: a deletion
        of a member's data waits for them, or the click that asked for it would store their
        language again just after."""
        while self._later:
            await asyncio.wait(set(self._later))

    async def _remember_language(self, user_id: int, language: str) -> None:
        try:
            await self.service.remember_language(user_id, language)
        except Exception:
            log.exception("could not store the language of user %s", user_id)

    async def server_language(self, guild_id: int | None) -> str:
        """The language of a server's public posts: the one its managers chose, else the
        server's Discord language (its community locale), else English."""
        if guild_id is None:
            return DEFAULT
        settings = await self.service.settings(guild_id)
        chosen = getattr(settings, "language", None)
        if chosen:
            return language_of(chosen)
        guild = self.client.get_guild(guild_id)
        if guild is not None:
            return language_of(guild.preferred_locale)
        return DEFAULT

    async def member_language(self, user_id: int, guild_id: int | None) -> str:
        """The language of what is sent to a member later (a DM, a reminder): as last seen
        from them, else their server's."""
        known = await self.service.member_language(user_id)
        return known or await self.server_language(guild_id)

    # Pictures ---------------------------------------------------------------------------------

    async def board_file(self, info: MatchInfo, locale: str | None = None) -> discord.File:
        """The board picture, in `locale` (the current language if None): the server's."""
        png = await self.painter.board(info, locale or current())
        return discord.File(io.BytesIO(png), filename=f"board-{info.id}-{info.version}.png")

    async def hand_file(
        self, info: MatchInfo, seat: int, locale: str | None = None
    ) -> discord.File:
        """A hand picture, in `locale` (the current language if None): its player's."""
        png = await self.painter.hand(info, seat, locale or current())
        return discord.File(io.BytesIO(png), filename=f"hand-{info.id}-{info.version}.png")

    # Channels ---------------------------------------------------------------------------------

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("cannot reach channel %s", channel_id)
                return None
        # Every channel a game is in can take messages; discord.py's union includes categories.
        return channel  # type: ignore[return-value]

    # Hands --------------------------------------------------------------------------------------

    async def hand_payload(
        self, info: MatchInfo, seat: int, note: str = "", *, picture: bool = True
    ) -> dict[str, Any]:
        """The private message of a player's hand: picture, situation, and their controls, in
        the current language (the caller speaks the player's). While the game runs, the
        unseen cards' line if the player chose to see it, and the button that shows or
        hides it. `picture=False`: no file (the message keeps the one it has)."""
        legal = [str(m) for m in info.match.legal_moves()] if info.to_decide == seat else []
        if info.timing is None and info.status == "active":
            await self.service.timing(info)  # the time left, shown with the hand
        tail: list[UnseenButton] = []
        content = texts.hand_caption(info, seat, note)
        if not info.is_over:
            shown = await self.service.unseen_shown(info.players[seat])
            tail.append(UnseenButton(info.id, info.version, not shown))
            line = unseen_line(info.match.view(seat), info.names[1 - seat]) if shown else ""
            if line and len(content) + len(line) < MAX_CONTENT:  # a long note keeps its room
                content += "\n" + line
        view = self._controls(info, seat, info.version, legal, tail)
        view = with_my_games(view, info.id)  # the member's other games, a click away
        file = await self.hand_file(info, seat) if picture else None
        return {"content": content, "file": file, "view": view}

    def _controls(
        self,
        info: MatchInfo,
        seat: int,
        version: int,
        legal: list[str],
        tail: list[UnseenButton] | None = None,
    ) -> discord.ui.View | None:
        """The hand's controls: its card menu in the hand picture's order, with the cards
        that cannot be played now listed too, each saying why; then `tail`, the hand
        message's own buttons."""
        if not legal:
            return controls_view(info.id, version, info.spec.game, [], tail=tail or ())
        view = info.match.view(seat)
        hand = [str(c) for c in view.hand or ()]
        # What the engine says the hand can play now: the hand picture raises the same cards.
        playable = {str(c) for c in view.playable()}
        blocked = unplayable(info.match, seat, hand, playable) if playable else {}
        new = [str(c) for c in getattr(view, "recruited", ())]
        return controls_view(
            info.id,
            version,
            info.spec.game,
            legal,
            hand=hand,
            blocked=blocked,
            new=new,
            playable=playable,
            tail=tail or (),
        )

    async def show_hand(self, interaction: discord.Interaction, match_id: int) -> None:
        await acknowledge(interaction, private=True)
        info = await self.service.match(match_id)
        seat = info.seat_of(interaction.user.id)
        if seat is None:
            a, b = info.names
            raise Refused(
                fill(
                    _("Only the players can see a hand; this game is {first} against {second}."),
                    first=a,
                    second=b,
                )
            )
        payload = await self.hand_payload(info, seat)
        await interaction.followup.send(
            payload["content"],
            file=payload["file"],
            view=payload["view"] or MISSING,
            ephemeral=True,
        )

    async def show_unseen(
        self, interaction: discord.Interaction, match_id: int, version: int, shown: bool
    ) -> None:
        """The hand's Unseen cards button: show or hide the cards the player has not seen,
        on this hand and their later ones. A hand of the current position keeps its picture
        and changes its words; an earlier one becomes the hand now."""
        await interaction.response.defer()  # a click: the hand message itself changes
        message = interaction.message
        private = interaction.guild_id is None or (message is not None and message.flags.ephemeral)
        info = await self.service.match(match_id)
        seat = info.seat_of(interaction.user.id)
        if seat is None or message is None or not private:
            raise Refused(_("Only a player's own hand shows the cards they have not seen."))
        await self.service.show_unseen(interaction.user.id, shown)
        if info.version == version and not info.is_over:
            payload = await self.hand_payload(info, seat, picture=False)
            lines = payload["content"].split("\n")
            line = next((x for x in lines if x.startswith(UNSEEN_MARK)), "")
            content = without_unseen(message.content)  # the hand's words, its note included
            if line and len(content) + len(line) < MAX_CONTENT:
                content += "\n" + line
            await interaction.edit_original_response(content=content, view=payload["view"])
            return
        payload = await self.hand_payload(info, seat)
        await interaction.edit_original_response(
            content=payload["content"], attachments=[payload["file"]], view=payload["view"]
        )

    # Moves ----------------------------------------------------------------------------------------

    async def move_from_command(self, interaction: discord.Interaction, text: str) -> None:
        """`/schotten move`: the game in this channel, answered privately, then announced.
        A typed `resign` asks for the same confirmation as `/schotten resign`."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await self.match_here(interaction)
        text = canonical(text, info.spec.game)  # "revendiquer 3" is "claim 3"
        if _is_resign(info, text):
            await self.confirm_resign(interaction, info)
            return
        result = await self.service.play(info.id, interaction.user.id, text, info=info)
        seat = result.seat
        note = texts.what_you_did(result)
        if result.info.to_decide == seat and not result.finished:
            payload = await self.hand_payload(result.info, seat, note)
            await interaction.followup.send(
                payload["content"],
                file=payload["file"],
                view=payload["view"] or MISSING,
                ephemeral=True,
            )
        else:
            await interaction.followup.send(note, ephemeral=True)
        await self.retire_hand_dm(result, keep=None)
        await self.after_move(result, replied=True)

    async def move_from_control(
        self, interaction: discord.Interaction, match_id: int, text: str, version: int
    ) -> None:
        """A click on a hand's controls: the hand message itself shows the new position."""
        await interaction.response.defer()
        result = await self.service.play(
            match_id, interaction.user.id, text, expected_version=version
        )
        note = texts.what_you_did(result)
        payload = await self.hand_payload(result.info, result.seat, note)
        await interaction.edit_original_response(
            content=payload["content"], attachments=[payload["file"]], view=payload["view"]
        )
        # Clicked on a Show my hand reply rather than on the DM: the DM's controls are old.
        await self.retire_hand_dm(result, keep=interaction.message)
        await self.after_move(result, replied=True)

    async def retire_hand_dm(self, result: MoveResult, *, keep: discord.Message | None) -> None:
        """After a move made elsewhere than in the hand's DM (typed, or on a Show my hand
        reply), that DM's controls are out of date: take them off and say so, rather than
        leave buttons that can only be refused. Best effort: a stale click is still refused
        with an explanation."""
        info = result.info
        message_id = await self.service.old_hand_message(info.id, result.seat, info.version)
        if message_id is None or (keep is not None and keep.id == message_id):
            return

        async def retire(dm: DmChannel) -> discord.Message:
            return await dm.get_partial_message(message_id).edit(
                content=texts.hand_moved_on(info), view=None
            )

        try:
            await self.dms.use(info.players[result.seat], retire)
        except DmsClosed:
            pass  # refused since: not asked
        except discord.HTTPException as e:
            log.info("could not retire the hand DM %s of game %s: %s", message_id, info.id, e)

    async def confirm_resign(self, interaction: discord.Interaction, info: MatchInfo) -> None:
        """Ask before resigning: a private message with one red button."""
        seat = info.seat_of(interaction.user.id)
        if seat is None:
            raise Refused(_("You are not playing in this game."))
        view = discord.ui.View(timeout=None)
        view.add_item(
            MoveButton(
                info.id, info.version, "resign", _("Yes, resign"), style=discord.ButtonStyle.danger
            )
        )
        opponent = info.names[1 - seat]
        if is_match(info.spec):
            question = _("Resign the whole match against {opponent}?")
        else:
            question = _("Resign the game against {opponent}?")
        await say(interaction, fill(question, opponent=opponent), view=view)

    async def show_step(
        self,
        interaction: discord.Interaction,
        match_id: int,
        version: int,
        step: tuple[str, str] | None,
    ) -> None:
        """The second step of a choice (where a card goes), or back to all choices."""
        await interaction.response.defer()  # then the hand's message shows the step
        info = await self.service.match(match_id)
        seat = info.seat_of(interaction.user.id)
        if seat is None:
            raise Refused(_("These controls belong to a player of this game, not to you."))
        if info.status != "active":
            raise Refused(localise(self.service.ended_message(info)))
        if info.version != version:
            raise Refused(
                fill(
                    _(
                        "These controls are from an earlier position: the game has moved on since."
                        " Use **{button}** for the current one."
                    ),
                    button=localise(SHOW_HAND_BUTTON),
                )
            )
        if info.to_decide != seat:
            raise Refused(
                fill(
                    _("It is not your turn: the game is waiting for {player}."),
                    player=info.names[1 - seat],
                )
            )
        legal = [str(m) for m in info.match.legal_moves()]
        if step is None:  # back to all choices, with the hand's own words and buttons
            payload = await self.hand_payload(info, seat, picture=False)
            await interaction.edit_original_response(
                content=payload["content"], view=payload["view"]
            )
            return
        if step[0] == "card" and step[1].startswith(BLOCKED):
            card = step[1].removeprefix(BLOCKED)
            raise Refused(
                fill(
                    _("{card} cannot be played now: {reason}"),
                    card=card,
                    reason=why_not(info.match, seat, card),
                )
            )
        prompt, view = step_view(info.id, version, info.spec.game, legal, step)
        await interaction.edit_original_response(content=prompt, view=view)

    async def after_move(self, result: MoveResult, *, replied: bool = False) -> None:
        """Announce a stored move. What to announce was stored with the move (the outbox);
        here it is sent at once. `replied`: the request's reply showed the mover their hand,
        so the hand owed to them is done. Failures never undo the move: the relay retries."""
        info = result.info
        try:
            if replied and result.hand_row is not None:
                await self.service.announced_by_reply(result.hand_row)
            await self.relay.deliver(info.id)
        except Exception:  # the move and its announcements are stored; the relay retries
            log.exception("announcing move %s of game %s", result.text, info.id)
        if result.finished and await self.tournaments.of_match(info.id) is not None:
            self.desk.tick_soon()  # a tournament game ended: its round may be complete
        nxt = info.to_decide
        computer_next = nxt is not None and not info.is_over and info.ai_seat == nxt
        if computer_next and self.computer is not None:
            self.computer.wake()

    async def board_here(self, interaction: discord.Interaction) -> None:
        """`/schotten board`: this channel's board again, as the interaction's answer, which
        Discord takes even where the bot may no longer post. A member whose game lost its
        channel (deleted, or out of the bot's sight) brings it here, where it goes on."""
        info = None
        moved = False
        if interaction.guild_id is not None and interaction.channel_id is not None:
            info = await self.service.active_match(interaction.channel_id)
            if info is None:
                lost = await self._lost_games(interaction.guild_id, interaction.user.id)
                if len(lost) == 1:
                    info = await self.service.move_match(lost[0].id, interaction.channel_id)
                    moved = True
        if info is None:
            info = await self.match_here(interaction)  # says why there is nothing to show
        if not moved:
            # A personal look-up: privately, in the member's language, with Post in channel.
            await acknowledge(interaction, private=True)  # done by the command already
            await send_private(interaction, await self.board_answer(info), "bo", info.id)
            return
        # The game moved here: its board is for the channel, where the game now goes on.
        await acknowledge(interaction)  # done (privately) by the command already
        found = info
        await interaction.followup.send(texts.moved_here(info), ephemeral=True)

        def view() -> discord.ui.View:
            view = discord.ui.View(timeout=None)
            view.add_item(ShowHandButton(found.id))
            return view

        with speaking(await self.server_language(interaction.guild_id)):
            caption = texts.board_caption(info, [texts.moved_here(info)])
            without = texts.board_without_picture()
            language = current()

        async def send(*, components: bool = True, picture: bool = True) -> discord.Message:
            file = await self.board_file(found, language) if picture else MISSING
            return await interaction.followup.send(
                caption if picture else caption + without,
                file=file,
                view=view() if components else MISSING,
                allowed_mentions=QUIET,
                wait=True,
            )

        await plainest(send, f"board of game {info.id}")

    async def board_answer(self, info: MatchInfo) -> Answer:
        """The board as everyone may see it, with its Show my hand button, in the current
        language: `/schotten board`'s private answer, and what its Post in channel posts."""
        png = await self.painter.board(info, current())
        await self.service.timing(info)  # the time left, shown under the turn
        return Answer(
            texts.board_caption(info, []),
            pictures=[Picture(f"board-{info.id}-{info.version}.png", png)],
            controls=lambda: [ShowHandButton(info.id)],
        )

    async def _lost_games(self, guild_id: int, user_id: int) -> list[MatchInfo]:
        """The member's running games in this server whose channel is gone, or is a
        thread a moderator locked (the bot may not post there)."""
        lost = []
        for info in await self.service.active_matches_of(guild_id, user_id):
            known = self.client.get_channel(info.channel_id)
            if isinstance(known, discord.Thread) and locked_to(known, known.guild.me):
                lost.append(info)
                continue
            if known is not None:
                continue
            try:
                await self.client.fetch_channel(info.channel_id)
            except (discord.NotFound, discord.Forbidden):
                lost.append(info)
            except discord.HTTPException:
                continue  # Discord's trouble: not a reason to move a game
        return lost

    async def match_here(self, interaction: discord.Interaction) -> MatchInfo:
        """The game in this channel (or thread). Where there is none, a member who plays in
        this server is pointed to their game's thread or channel (a game opened from this
        channel is played in a thread of its own)."""
        if interaction.guild_id is not None and interaction.channel_id is not None:
            info = await self.service.active_match(interaction.channel_id)
            if info is None:
                user_id = interaction.user.id
                mine = await self.service.active_matches_of(interaction.guild_id, user_id)
                if mine:
                    raise Refused(texts.games_elsewhere(mine, user_id))
                last = await self.service.last_match(interaction.channel_id)
                if last is not None:
                    # TRANSLATORS: {ended} says how the last game here ended.
                    raise Refused(
                        fill(
                            _("{ended} Start a new one with {challenge}."),
                            ended=localise(self.service.ended_message(last)),
                            challenge=mention("challenge"),
                        )
                    )
                raise Refused(
                    fill(
                        _(
                            "There is no game in progress in this channel."
                            " Start one with {challenge}."
                        ),
                        challenge=mention("challenge"),
                    )
                )
            return info
        raise Refused(_("Use this command in the channel or thread where your game is played."))

    # Challenges -------------------------------------------------------------------------------

    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.abc.User | None,
        spec: MatchSpec,
        *,
        role: str | None,
        level: str | None,
        open_to: int | None = None,
        clock_hours: float | None = None,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise Refused(_("Challenges are made in a server's channel."))
        await acknowledge(interaction)  # the challenge is for the channel; a refusal is not
        await self.check_permissions(interaction)
        async with self.posting_challenge.hold(interaction.user.id):
            against_computer = await self._post_challenge(
                interaction, opponent, spec, role, level, open_to, clock_hours
            )
        if against_computer is not None:  # started at once: no message for the list to link
            await self._start(interaction, against_computer, announce=None)

    async def _post_challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.abc.User | None,
        spec: MatchSpec,
        role: str | None,
        level: str | None,
        open_to: int | None,
        clock_hours: float | None,
    ) -> ChallengeInfo | None:
        """Store the challenge and post it, its message's id stored; a challenge to the
        computer is returned, to be started."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        me = self.client.user
        info = await self.service.challenge(
            interaction.guild_id,
            interaction.channel_id,
            member_of(interaction.user),
            member_of(opponent) if opponent is not None else None,
            spec,
            role=role,
            computer_id=me.id if me else None,
            ai_level=level,
            for_role_id=open_to,
            clock_hours=clock_hours,
        )
        # The challenge is posted for the channel: in the server's language.
        view = discord.ui.View(timeout=None)
        with speaking(await self.server_language(info.guild_id)):
            if info.ai_level is not None:
                content = texts.computer_game(info)
            elif info.for_anyone:  # an open challenge: anyone (of its role) takes it
                content = open_challenges.post(info)
                view.add_item(AcceptButton(info.id))
            else:
                content = texts.challenge_text(info)
                view.add_item(AcceptButton(info.id))
                view.add_item(DeclineButton(info.id))
        if info.ai_level is not None:
            await interaction.followup.send(content, allowed_mentions=QUIET)
            return info
        # The first followup would fill the "thinking…" reply: an edit, which notifies
        # nobody (discord-api-docs #5497). Taken away first, the followup is a message of its
        # own (discord-api-docs #2739), whose mention rings the opponent (a rematch's too).
        await quietly(interaction.delete_original_response())
        message = await interaction.followup.send(
            content, view=view, allowed_mentions=PING, wait=True
        )
        await self.service.set_challenge_message(info.id, message.id)
        return None

    async def accept(self, interaction: discord.Interaction, challenge_id: int) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer()  # a click: its message will say it
        # Two members accepting at once: the click that loses must be refused before its
        # thread is opened, for the bot may not delete one (the invite gives no Manage
        # Threads). Both clicks reach this process (its server's shard's): one at a time.
        async with self._accepting.hold(challenge_id):
            info = await self.service.check_accept(
                challenge_id, interaction.user.id, roles=open_challenges.roles_of(interaction.user)
            )
            await self.check_permissions(interaction)
            if info.opponent is None:  # an open challenge: the member who clicked takes it
                info = replace(info, opponent=member_of(interaction.user))
            await self._start(interaction, info, announce=interaction)

    async def check_permissions(self, interaction: discord.Interaction) -> None:
        """Refuse to start a game where the bot could not show it: what it lacks in this
        channel, read from the interaction (`app_permissions`, overwrites included)."""
        use_threads = False
        if interaction.guild_id is not None and not isinstance(interaction.channel, discord.Thread):
            use_threads = (await self.service.settings(interaction.guild_id)).use_threads
        missing = texts.missing_permissions(
            interaction.app_permissions,
            in_thread=isinstance(interaction.channel, discord.Thread),
            use_threads=use_threads,
        )
        if missing:
            raise Refused(missing)

    async def _start(
        self,
        interaction: discord.Interaction,
        challenge: ChallengeInfo,
        *,
        announce: discord.Interaction | None,
    ) -> None:
        """Open a thread if the server wants and allows it, start the match, post the board
        and send the first player their hand."""
        thread = await self._maybe_thread(interaction, challenge)
        try:
            info = await self.service.accept(
                challenge.id,
                interaction.user.id,
                game_channel_id=thread.id if thread is not None else None,
                taker=member_of(interaction.user),
                roles=open_challenges.roles_of(interaction.user),
            )
        except Exception:
            if thread is not None:  # refused after all (another process took it first):
                # its creator may archive it, not delete it (that takes Manage Threads).
                await quietly(thread.edit(archived=True))
            raise
        if announce is not None:
            # The Accept click came from the challenge message itself, so its interaction
            # edits it, even when the click beat the storing of the message's id.
            with speaking(await self.server_language(challenge.guild_id)):
                where = thread.mention if thread else None
                if challenge.for_anyone:
                    content = open_challenges.taken(challenge, where)
                else:
                    content = texts.accepted(challenge, where)
            await quietly(interaction.edit_original_response(content=content, view=None))
        if thread is not None:
            for user_id in info.players:
                if info.ai_seat is None or user_id != info.players[info.ai_seat]:
                    await quietly(thread.add_user(discord.Object(user_id)))
        try:
            await self.relay.deliver(info.id)
        except Exception:  # stored with the game; the relay retries
            log.exception("announcing the start of game %s", info.id)
        computer_first = info.to_decide is not None and info.ai_seat == info.to_decide
        if computer_first and self.computer is not None:
            self.computer.wake()

    async def _maybe_thread(
        self, interaction: discord.Interaction, challenge: ChallengeInfo
    ) -> discord.Thread | None:
        channel = interaction.channel
        guild = interaction.guild
        if not isinstance(channel, discord.TextChannel) or guild is None or guild.me is None:
            return None
        settings = await self.service.settings(challenge.guild_id)
        perms = channel.permissions_for(guild.me)
        if not (
            settings.use_threads and perms.create_public_threads and perms.send_messages_in_threads
        ):
            return None
        with speaking(await self.server_language(challenge.guild_id)):
            name = texts.thread_name(challenge)
        try:
            return await channel.create_thread(
                name=name,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
        except discord.HTTPException as e:
            log.info("no thread in %s: %s", channel.id, e)
            return None

    async def decline(self, interaction: discord.Interaction, challenge_id: int) -> None:
        await interaction.response.defer()  # a click: its message will say it
        info = await self.service.decline(challenge_id, interaction.user.id)
        with speaking(await self.server_language(info.guild_id)):
            content = texts.declined(info)
        await interaction.edit_original_response(content=content, view=None)

    async def rematch(self, interaction: discord.Interaction, match_id: int) -> None:
        await acknowledge(interaction)  # the new challenge is for the channel
        info = await self.service.match(match_id)
        seat = info.seat_of(interaction.user.id)
        if seat is None:
            raise Refused(_("Only the two players can ask for a rematch."))
        other_seat = 1 - seat
        if info.ai_seat == other_seat:
            opponent: discord.abc.User | None = self.client.user
        else:
            other = info.players[other_seat]
            opponent = self.client.get_user(other) or await self.client.fetch_user(other)
        assert opponent is not None
        spec = MatchSpec(info.spec.variant, info.spec.rounds, info.spec.target, info.spec.revenge)
        await self.challenge(
            interaction,
            opponent,
            spec,
            role=None,
            level=info.ai_level,
            clock_hours=info.clock_hours,
        )

    # Time ----------------------------------------------------------------------------------------

    async def handle_due(self) -> None:
        """Reminders, forfeits and expired challenges (called by the timer loop): the
        service applies them and stores their announcements; the relay sends them."""
        await self.service.due()
        await self.relay.deliver()
        await self.desk.tick()

    async def edit_challenge(self, c: ChallengeInfo, content: str) -> None:
        if c.message_id is None:
            return
        channel = await self.channel(c.channel_id)
        if isinstance(channel, discord.TextChannel | discord.Thread):
            message = channel.get_partial_message(c.message_id)
            await quietly(message.edit(content=content, view=None))

    async def report(
        self, interaction: discord.Interaction, error: BaseException, where: str
    ) -> None:
        await report(interaction, error, where=where)

    async def say(self, interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
        await say(interaction, content, **kwargs)


@answers("bo")
async def _share_board(front: Front, interaction: discord.Interaction, args: list[int]) -> Answer:
    """Post in channel, under a private `/schotten board`: the board now (the spectator's
    view: nothing hidden)."""
    info = await front.service.match(args[0])
    if info.guild_id != interaction.guild_id:
        raise Refused(fill(_("Game #{id} was not played on this server."), id=info.id))
    return await front.board_answer(info)


def posting_allowed(interaction: discord.Interaction) -> tuple[bool, bool]:
    """Whether the interaction's `app_permissions` let the bot post in its channel, and in
    that channel's threads: View Channel, and Send Messages (Send Messages in Threads)."""
    p = interaction.app_permissions
    if not p.view_channel:
        return False, False
    if isinstance(interaction.channel, discord.Thread):
        return p.send_messages_in_threads, False
    return p.send_messages, p.send_messages_in_threads


def _is_settings(interaction: discord.Interaction) -> bool:
    """`/schotten settings`, where a member's DM notifications are."""
    command = interaction.command
    return command is not None and command.qualified_name == "schotten settings"


async def _quietly_logged(work: Awaitable[object], what: str) -> None:
    """Work no answer waits for: an error is logged, never raised."""
    try:
        await work
    except Exception:
        log.exception("%s: failed", what)


def is_match(spec: MatchSpec) -> bool:
    """More than one game: rounds, a points target or the revenge match."""
    return spec.revenge or spec.rounds > 1 or spec.target is not None


def _is_resign(info: MatchInfo, text: str) -> bool:
    try:
        return notation(info.spec.game, text) == "resign"
    except GameError:
        return False
