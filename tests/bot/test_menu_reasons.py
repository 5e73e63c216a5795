"""Issue 39, item 13 g: a card menu's "(not now)" reason fits Discord's 100 characters as a
whole sentence in every language (it was cut mid-sentence); choosing the card still says
the whole refusal."""

from __future__ import annotations

import random

import discord
import pytest

from bot.front.controls import BLOCKED, controls_view
from bot.front.unplayable import unplayable, why_not
from engine.api import MatchSpec, new_match
from engine.st1.position import parse_position
from lang import speaking

LANGUAGES = ["en", "fr", "de"]
LIMIT = 100  # Discord's limit on a select option's description


def menu_of(match, seat):
    legal = [str(m) for m in match.legal_moves()]
    hand = [str(c) for c in match.view(seat).hand]
    playable = {str(c) for c in match.view(seat).playable()}
    blocked = unplayable(match, seat, hand, playable) if playable else {}
    view = controls_view(1, 0, match.view(seat).game, legal, hand=hand, blocked=blocked)
    menus = [
        i.item
        for i in view.children
        if isinstance(getattr(i, "item", None), discord.ui.Select)
        and i.item.custom_id.startswith("sch:c:")
    ]
    if not menus:  # no card to play: no card menu (a choice of deck, a claim...)
        return {}
    (menu,) = menus
    return {
        o.value.removeprefix(BLOCKED): o.description
        for o in menu.options
        if o.value.startswith(BLOCKED)
    }


def assert_whole(description: str, match, seat: int, card: str) -> None:
    assert description and len(description) <= LIMIT, description
    assert description.rstrip()[-1] in ".!?", f"cut mid-sentence: {description!r}"
    full = why_not(match, seat, card)
    assert full == description or not full.startswith(description), description


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_joker_that_must_wait_says_why_in_a_whole_sentence(language):
    match = new_match(MatchSpec("tactics"), 1)
    match.game = parse_position(
        "variant: tactics\nturn: P1\nhand P1: R7 joker1 B2\nhand P2: Y1\n"
        "stone 1: R1 shield | spy\nstone 2: R2 | - | mud\ntactics played: 2 1\n"
    )
    with speaking(language):
        menu = menu_of(match, 0)
        assert set(menu) == {"joker"}
        assert_whole(menu["joker"], match, 0, "joker")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", ["tactics", "siege-tactics"])
def test_every_reason_in_whole_games_fits(game, language):
    rng = random.Random(39)
    for seed in (1, 2):
        match = new_match(MatchSpec(game), seed)
        for step in range(400):
            if match.outcome is not None:
                break
            seat = match.to_decide
            if step % 3 == 0:
                with speaking(language):
                    for card, description in menu_of(match, seat).items():
                        assert_whole(description, match, seat, card)
            move = rng.choice(match.legal_moves())
            match.apply(move, seat)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_fixed_reason_fits_at_its_longest(language):
    from bot.front.unplayable import fixed_reasons

    with speaking(language):
        reasons = fixed_reasons()
        assert len(reasons) >= 4
        for reason in reasons:
            assert len(reason) <= LIMIT and reason.endswith("."), reason
