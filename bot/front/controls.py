"""Buttons and menus that survive a restart.

Every control is a `DynamicItem`: what it does is written in its `custom_id` (the match id,
the version of the position it was made for, and the move or step), so a click after a
restart is understood from the id alone and the state is reloaded from the database. A
click on controls made for an older position is refused by the service's version check.

All callbacks go through `Control.callback`, which speaks the clicking member's language
(and remembers it for later DMs), and sends every refusal and every unexpected error down the
one error path (`bot.front.replies.on_click`, then `report`).

Labels are written when a control is made, in the current language: a board's in the
server's, a hand's in its player's. A control rebuilt from its custom_id to run a click has
no label that anyone sees.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.errors import Refused
from bot.front.picker import (
    Picker,
    SetChoice,
    build_picker,
    card_label,
    set_move,
    tactic_as_object,
    title,
)
from bot.front.ports import ControlsFront
from bot.front.replies import on_click
from bot.store import valid_id
from bot.wording import (
    ACCEPT_BUTTON,
    DECLINE_BUTTON,
    HIDE_UNSEEN_BUTTON,
    JOIN_BUTTON,
    REMATCH_BUTTON,
    SHOW_HAND_BUTTON,
    SHOW_UNSEEN_BUTTON,
)
from lang import _, fill, localise, mention, pgettext

PREFIX = "sch"
# What a custom_id carries after its kind: the match and the version of its position.
AT = r"(?P<match>[0-9]+):(?P<version>[0-9]+)"
FAMILY = r"(?P<family>\w+)"


def front_of(interaction: discord.Interaction) -> ControlsFront:
    # The client is always our SchottenBot, which holds the front; discord.py types a Client.
    return interaction.client.front  # type: ignore[attr-defined,no-any-return]


class Control(discord.ui.DynamicItem[Any], template=r"sch:never"):
    """Base of every control: one error path for all of them."""

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work(front: ControlsFront) -> None:
            read_control(self.custom_id, _values(interaction))  # refuses what cannot be
            await self.run(interaction)

        await on_click(interaction, self.custom_id, work)

    async def run(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


# Moves --------------------------------------------------------------------------------------


class MoveButton(Control, template=rf"sch:m:{AT}:(?P<move>.+)"):
    """One legal move, made when clicked."""

    def __init__(
        self, match_id: int, version: int, move: str, label: str, *, style: Any = None
    ) -> None:
        self.match_id, self.version, self.move = match_id, version, move
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=style or discord.ButtonStyle.primary,
                custom_id=f"{PREFIX}:m:{match_id}:{version}:{move}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveButton:
        return cls(int(match["match"]), int(match["version"]), match["move"], "")

    async def run(self, interaction: discord.Interaction) -> None:
        await front_of(interaction).move_from_control(
            interaction, self.match_id, self.move, self.version
        )


class CardSelect(Control, template=rf"sch:c:{AT}"):
    """Choose a card to play; then the places it can go appear as buttons (or, for a card
    played on its own, such as the Traitor, what it does)."""

    def __init__(
        self,
        match_id: int,
        version: int,
        picker: Picker | None = None,
        hand: Sequence[str] = (),
        blocked: Mapping[str, str] | None = None,
        playable: Collection[str] = (),
    ) -> None:
        self.match_id, self.version = match_id, version
        options = []
        cards = picker.cards if picker else {}
        blocked = blocked or {}
        alone = own_moves(picker, playable) if picker else {}
        # The hand picture's order; a card that cannot be played now is listed, saying why.
        for card in dict.fromkeys([*hand, *cards]):
            label = card_label(card)
            if card in cards and picker is not None:
                where = _places(picker.place_noun, cards[card])
                options.append(discord.SelectOption(label=label, value=card, description=where))
            elif card in alone:
                options.append(
                    discord.SelectOption(
                        label=label,
                        value=card,
                        # TRANSLATORS: under a tactic card played on its own (the Traitor),
                        # in the card menu: choosing it shows what it can do.
                        description=pgettext("card menu", "Played on its own: choose what it does"),
                    )
                )
            elif card in blocked:
                options.append(
                    discord.SelectOption(
                        label=fill(_("{card} (not now)"), card=label),
                        value=f"{BLOCKED}{card}",
                        description=blocked[card][:100],
                    )
                )
        options = options[:25]
        super().__init__(
            discord.ui.Select(
                placeholder=_("Play a card…"),
                options=options or [discord.SelectOption(label="-", value="-")],
                custom_id=f"{PREFIX}:c:{match_id}:{version}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CardSelect:
        return cls(int(match["match"]), int(match["version"]))

    async def run(self, interaction: discord.Interaction) -> None:
        card = _values(interaction)[0]  # read_control made sure there is one
        await front_of(interaction).show_step(
            interaction, self.match_id, self.version, ("card", card)
        )


# A card-menu value for a card that cannot be played now (choosing it says why).
BLOCKED = "!"


def own_moves(picker: Picker, playable: Collection[str]) -> dict[str, str]:
    """The cards of `playable` (what the engine says the hand can play now) that are played
    on their own rather than put on a place: the Recruiter, the Traitor, Redeployment... ->
    the kind of control that plays them ("taking", "places", "sets" or "words")."""
    words = {c.move.split()[0] for c in picker.words}
    out: dict[str, str] = {}
    for card in playable:
        if card in picker.cards:
            continue
        if card in picker.taking:
            out[card] = "taking"
        elif card in picker.places:
            out[card] = "places"
        elif card in picker.sets:
            out[card] = "sets"
        elif card in words:
            out[card] = "words"
    return out


def _places(noun: str, choices: list[Any]) -> str:
    numbers = ", ".join(c.move.split()[-1] for c in choices)
    # TRANSLATORS: under a card in the card menu: the places it can go ("Stones 3, 5, 8").
    if noun == "stone":
        return fill(pgettext("card menu", "Stones {numbers}"), numbers=numbers)[:100]
    return fill(pgettext("card menu", "Tiles {numbers}"), numbers=numbers)[:100]


class StepButton(Control, template=rf"sch:F:{AT}:{FAMILY}"):
    """Open the choices of a move family (Traitor…, Strategist…); `back` returns to all moves."""

    def __init__(self, match_id: int, version: int, family: str, label: str = "") -> None:
        self.match_id, self.version, self.family = match_id, version, family
        style = discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=(label or fill(_("{tactic}…"), tactic=title(family)))[:80],
                style=style,
                custom_id=f"{PREFIX}:F:{match_id}:{version}:{family}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StepButton:
        return cls(int(match["match"]), int(match["version"]), match["family"])

    async def run(self, interaction: discord.Interaction) -> None:
        step = None if self.family == "back" else ("family", self.family)
        await front_of(interaction).show_step(interaction, self.match_id, self.version, step)


class FamilySelect(Control, template=rf"sch:f:{AT}:{FAMILY}"):
    """Which card a Traitor, Banshee... takes; then where it goes."""

    def __init__(
        self, match_id: int, version: int, family: str, picker: Picker | None = None
    ) -> None:
        self.match_id, self.version, self.family = match_id, version, family
        whats = list(picker.taking.get(family, {})) if picker else []
        options = [discord.SelectOption(label=card_label(w), value=w) for w in whats][:25]
        super().__init__(
            discord.ui.Select(
                placeholder=fill(_("{tactic}: which card?"), tactic=title(family)),
                options=options or [discord.SelectOption(label="-", value="-")],
                custom_id=f"{PREFIX}:f:{match_id}:{version}:{family}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FamilySelect:
        return cls(int(match["match"]), int(match["version"]), match["family"])

    async def run(self, interaction: discord.Interaction) -> None:
        what = _values(interaction)[0]
        await front_of(interaction).show_step(
            interaction, self.match_id, self.version, ("taking", f"{self.family} {what}")
        )


class SetSelect(Control, template=rf"sch:s:{AT}:{FAMILY}"):
    """Tick several items at once: cards to give or return, tiles to retreat from."""

    def __init__(
        self,
        match_id: int,
        version: int,
        family: str,
        choice: SetChoice | None = None,
        new: Collection[str] = (),
    ) -> None:
        self.match_id, self.version, self.family = match_id, version, family
        items = list(choice.items) if choice else ["-"]
        least = choice.least if choice else 1
        most = choice.most if choice else 1
        placeholder = _count(choice.title, least, most) if choice else "…"
        super().__init__(
            discord.ui.Select(
                placeholder=placeholder[:150],
                options=[
                    discord.SelectOption(
                        label=card_label(i),
                        value=i,
                        description=_("new: drawn with the Recruiter") if i in new else None,
                    )
                    for i in items
                ][:25],
                min_values=least,
                max_values=min(most, 25, len(items)),
                custom_id=f"{PREFIX}:s:{match_id}:{version}:{family}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SetSelect:
        return cls(int(match["match"]), int(match["version"]), match["family"])

    async def run(self, interaction: discord.Interaction) -> None:
        move = set_move(self.family, _values(interaction))
        await front_of(interaction).move_from_control(
            interaction, self.match_id, move, self.version
        )


class MoveSelect(Control, template=rf"sch:v:{AT}:{FAMILY}"):
    """A menu of whole moves (claim 3, claim 5...), used when buttons would not fit."""

    def __init__(
        self, match_id: int, version: int, family: str, choices: list[Any] | None = None
    ) -> None:
        self.match_id, self.version, self.family = match_id, version, family
        options = [discord.SelectOption(label=c.label, value=c.move) for c in choices or []][:25]
        super().__init__(
            discord.ui.Select(
                placeholder=fill(_("{tactic}…"), tactic=title(family)),
                options=options or [discord.SelectOption(label="-", value="-")],
                custom_id=f"{PREFIX}:v:{match_id}:{version}:{family}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveSelect:
        return cls(int(match["match"]), int(match["version"]), match["family"])

    async def run(self, interaction: discord.Interaction) -> None:
        move = _values(interaction)[0]
        await front_of(interaction).move_from_control(
            interaction, self.match_id, move, self.version
        )


def _count(what: str, least: int, most: int) -> str:
    """A menu's placeholder: what to tick, and how many."""
    if least == most:
        return fill(_("{what} (choose {least})"), what=what, least=least)
    return fill(_("{what} (choose {least} to {most})"), what=what, least=least, most=most)


def _values(interaction: discord.Interaction) -> list[str]:
    # discord.py types `data` as a union of TypedDicts; read here as a plain dict (.get).
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    return [str(v) for v in data.get("values") or []]


# Game-level buttons -------------------------------------------------------------------------


class ShowHandButton(Control, template=r"sch:h:(?P<match>[0-9]+)"):
    """On the board: answers the clicking player, privately, with their hand and controls."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        super().__init__(
            discord.ui.Button(
                label=localise(SHOW_HAND_BUTTON),
                emoji="🃏",
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}:h:{match_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ShowHandButton:
        return cls(int(match["match"]))

    async def run(self, interaction: discord.Interaction) -> None:
        await front_of(interaction).show_hand(interaction, self.match_id)


class UnseenButton(Control, template=rf"sch:u:{AT}:(?P<show>[01])"):
    """On a player's hand: show (1) or hide (0) the cards they have not seen, on this hand
    and on their later ones (bot/front/unseen.py)."""

    def __init__(self, match_id: int, version: int, show: bool) -> None:
        self.match_id, self.version, self.show = match_id, version, show
        super().__init__(
            discord.ui.Button(
                label=localise(SHOW_UNSEEN_BUTTON if show else HIDE_UNSEEN_BUTTON),
                emoji="👁️",
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}:u:{match_id}:{version}:{int(show)}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> UnseenButton:
        return cls(int(match["match"]), int(match["version"]), match["show"] == "1")

    async def run(self, interaction: discord.Interaction) -> None:
        await front_of(interaction).show_unseen(interaction, self.match_id, self.version, self.show)


class RematchButton(Control, template=r"sch:r:(?P<match>[0-9]+)"):
    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        super().__init__(
            discord.ui.Button(
                label=localise(REMATCH_BUTTON),
                style=discord.ButtonStyle.success,
                custom_id=f"{PREFIX}:r:{match_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RematchButton:
        return cls(int(match["match"]))

    async def run(self, interaction: discord.Interaction) -> None:
        await front_of(interaction).rematch(interaction, self.match_id)


class JoinTournamentButton(Control, template=r"sch:j:(?P<tournament>[0-9]+)"):
    """Sign up for a tournament, on its announcement."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(
            discord.ui.Button(
                label=localise(JOIN_BUTTON),
                style=discord.ButtonStyle.success,
                custom_id=f"{PREFIX}:j:{tournament_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> JoinTournamentButton:
        return cls(int(match["tournament"]))

    async def run(self, interaction: discord.Interaction) -> None:
        await front_of(interaction).desk.join(interaction, self.tournament_id)


class AcceptButton(Control, template=r"sch:a:(?P<challenge>[0-9]+)"):
    def __init__(self, challenge_id: int) -> None:
        self.challenge_id = challenge_id
        super().__init__(
            discord.ui.Button(
                label=localise(ACCEPT_BUTTON),
                style=discord.ButtonStyle.success,
                custom_id=f"{PREFIX}:a:{challenge_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AcceptButton:
        return cls(int(match["challenge"]))

    async def run(self, interaction: discord.Interaction) -> None:
        await front_of(interaction).accept(interaction, self.challenge_id)


class DeclineButton(Control, template=r"sch:d:(?P<challenge>[0-9]+)"):
    def __init__(self, challenge_id: int) -> None:
        self.challenge_id = challenge_id
        super().__init__(
            discord.ui.Button(
                label=localise(DECLINE_BUTTON),
                style=discord.ButtonStyle.danger,
                custom_id=f"{PREFIX}:d:{challenge_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DeclineButton:
        return cls(int(match["challenge"]))

    async def run(self, interaction: discord.Interaction) -> None:
        await front_of(interaction).decline(interaction, self.challenge_id)


SELECTS = ("c", "f", "s", "v")
MAX_VALUE_LENGTH = 100  # Discord's limit on a select option's value


@dataclass(frozen=True, slots=True)
class ControlRequest:
    """What a control's custom_id (and a menu's chosen values) ask for, checked."""

    kind: str  # the letter after "sch:"
    target: int  # a match id, or a challenge id for Accept and Decline
    version: int | None
    arg: str | None  # the move or the family
    values: tuple[str, ...]


def understood(custom_id: str) -> bool:
    """Whether one of the controls reads this custom_id (else nothing would answer it)."""
    return any(c.__discord_ui_compiled_template__.fullmatch(custom_id) for c in ALL_CONTROLS)


def read_control(custom_id: str, values: Sequence[str] = ()) -> ControlRequest:
    """Read a control's custom_id and chosen values, or refuse them with a message.

    Discord only sends custom_ids the bot put on its messages, but those may come from an
    older version of the bot, name a game that is gone, or be damaged; none of that may end
    in anything but a clear refusal."""
    for cls in ALL_CONTROLS:
        found = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        if found is not None:
            break
    else:
        raise Refused(
            fill(
                _(
                    "I do not understand this button or menu (it may be from an older version of"
                    " me). Use {hand} for your current controls."
                ),
                hand=mention("hand"),
            )
        )
    groups = found.groupdict()
    kind = custom_id.split(":", 2)[1]
    target = int(groups.get("match") or groups.get("challenge") or groups.get("tournament") or "0")
    version = int(groups["version"]) if groups.get("version") is not None else None
    if not valid_id(target) or (version is not None and not valid_id(version)):
        raise Refused(_("This control names a game or challenge that does not exist."))
    if kind in SELECTS:
        if not values:
            raise Refused(_("Choose an option in the menu first."))
        if any(len(v) > MAX_VALUE_LENGTH for v in values):
            raise Refused(_("That menu choice is not one I offered."))
    arg = groups.get("move") or groups.get("family")
    return ControlRequest(kind, target, version, arg, tuple(values))


ALL_CONTROLS = (
    MoveButton,
    MoveSelect,
    CardSelect,
    StepButton,
    FamilySelect,
    SetSelect,
    ShowHandButton,
    UnseenButton,
    RematchButton,
    AcceptButton,
    DeclineButton,
    JoinTournamentButton,
)


# Building the controls for a position -------------------------------------------------------


def controls_view(
    match_id: int,
    version: int,
    game: str,
    legal: list[str],
    *,
    hand: Sequence[str] = (),
    blocked: Mapping[str, str] | None = None,
    new: Collection[str] = (),
    playable: Collection[str] = (),
    tail: Sequence[Control] = (),
) -> discord.ui.View | None:
    """All the player's choices now: a card menu (in `hand` order, with the `blocked` cards
    and why), buttons, and menus for move families (`new`: cards the Recruiter just drew,
    marked in the menu of cards to put back). `playable` is what the engine says the hand
    can play now (`view.playable()`, which the hand picture raises): the menu lists those
    cards as playable, the ones played on their own (the Traitor) included. `tail`: the
    hand message's own buttons (Unseen cards), after the moves, with room kept for them
    where the moves' menus can make it."""
    picker = build_picker(game, legal)
    if picker.empty:
        return _tail_only(tail)
    view = discord.ui.View(timeout=None)
    rows_used = 0
    if picker.cards or own_moves(picker, playable):
        menu = CardSelect(match_id, version, picker, hand, blocked, playable)
        view.add_item(_row(menu, rows_used))
        rows_used += 1
    for family, choice in picker.sets.items():
        if rows_used < 4:
            view.add_item(_row(SetSelect(match_id, version, family, choice, new), rows_used))
            rows_used += 1
    # Places (claim 3, oil 4...) are buttons; a family that would not fit becomes a menu.
    places = dict(picker.places)
    extra = len(picker.taking) + len(picker.words) + len(tail)
    while places and sum(map(len, places.values())) + extra > (5 - rows_used) * 5 and rows_used < 4:
        family = max(places, key=lambda f: len(places[f]))
        view.add_item(_row(MoveSelect(match_id, version, family, places.pop(family)), rows_used))
        rows_used += 1
    buttons: list[Control] = []
    for choices in places.values():
        buttons.extend(MoveButton(match_id, version, c.move, c.label) for c in choices)
    for family in picker.taking:
        buttons.append(StepButton(match_id, version, family))
    for c in picker.words:
        style = discord.ButtonStyle.success if c.move.startswith(("done", "draw")) else None
        buttons.append(MoveButton(match_id, version, c.move, c.label, style=style))
    free_rows = 5 - rows_used
    # The moves first; the hand's own buttons where room is left (the menus above keep some).
    buttons = buttons[: free_rows * 5]
    buttons += list(tail)[: free_rows * 5 - len(buttons)]
    for i, button in enumerate(buttons):
        view.add_item(_row(button, rows_used + i // 5))
    return view


def _tail_only(tail: Sequence[Control]) -> discord.ui.View | None:
    """A hand with no move to make: only its own buttons, if any."""
    if not tail:
        return None
    view = discord.ui.View(timeout=None)
    for item in tail:
        view.add_item(item)
    return view


def _placement_prompt(code: str) -> str:
    """Asks where a chosen card goes: a tactic card named with its article, as the object
    of the question ("Où placez-vous **l'Espion** ?"); a clan or siege card by its code."""
    tactic = tactic_as_object(code)
    if tactic is not None:
        # TRANSLATORS: {card} is a tactic card with its article, as the object of a
        # sentence ("the Spy"; French "l'Espion", German accusative "den Spion").
        return fill(_("Where do you put **{card}**?"), card=tactic)
    return fill(_("Where does **{card}** go?"), card=card_label(code))


def step_view(
    match_id: int, version: int, game: str, legal: list[str], step: tuple[str, str]
) -> tuple[str, discord.ui.View]:
    """The second step of a choice: where a card goes, or which card a family takes."""
    picker = build_picker(game, legal)
    kind, value = step
    view = discord.ui.View(timeout=None)
    alone = own_moves(picker, [value]) if kind == "card" else {}
    if kind == "card" and alone.get(value) == "taking":
        kind = "family"  # the Traitor chosen in the card menu: which card it takes
    if kind == "card" and value in alone:
        # A card played on its own (the Recruiter, Explosion...): its moves as buttons.
        # Headed by the card's own name ("Explosion"), not the move's ("Explode tile").
        prompt = fill(_("**{tactic}**: what does it do?"), tactic=card_label(value))
        if alone[value] == "sets":
            view.add_item(_row(SetSelect(match_id, version, value, picker.sets[value]), 0))
        else:
            if alone[value] == "places":
                choices = picker.places[value]
            else:
                choices = [c for c in picker.words if c.move.split()[0] == value]
            for i, c in enumerate(choices[:20]):
                view.add_item(_row(MoveButton(match_id, version, c.move, c.label), i // 5))
    elif kind == "card":
        choices = picker.cards.get(value, [])
        prompt = _placement_prompt(value)
        for i, c in enumerate(choices):
            view.add_item(_row(MoveButton(match_id, version, c.move, c.label), i // 5))
    elif kind == "family":
        prompt = fill(_("**{tactic}**: which card?"), tactic=title(value))
        view.add_item(_row(FamilySelect(match_id, version, value, picker), 0))
    else:  # "taking": "traitor 3:G5" -> where it goes
        family, what = value.split(" ", 1)
        choices = picker.taking.get(family, {}).get(what, [])
        place, _colon, card = what.partition(":")
        if all(len(c.move.split()) == 2 for c in choices):  # the Banshee: no "where"
            if picker.place_noun == "stone":
                prompt = _("**{tactic}**: discard the {card} on stone {place}?")
            else:
                prompt = _("**{tactic}**: discard the {card} on tile {place}?")
            prompt = fill(prompt, tactic=title(family), card=card_label(card), place=place)
        else:
            prompt = fill(
                _("**{tactic}** {card}: where to?"), tactic=title(family), card=card_label(what)
            )
        for i, c in enumerate(choices):
            view.add_item(_row(MoveButton(match_id, version, c.move, c.label), i // 5))
    rows = max((item.row or 0 for item in view.children), default=0)
    view.add_item(_row(StepButton(match_id, version, "back", _("← Back")), min(rows + 1, 4)))
    return prompt, view


def _row(item: Control, row: int) -> Control:
    item.row = row
    return item
