"""Controls' custom_ids, read back: parsed or refused with a message, never an exception."""

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import Refused
from bot.front.controls import ALL_CONTROLS, SELECTS, read_control, understood
from bot.store import MAX_ID

KINDS = "mcFfsvhrad"
numbers = st.one_of(
    st.integers(min_value=0, max_value=2**70),
    st.sampled_from([0, 1, MAX_ID, MAX_ID + 1, 2**64, 10**40]),
)
words = st.text(alphabet=string.ascii_letters + string.digits + " :_-", max_size=40)


@st.composite
def custom_ids(draw):
    """Mostly shaped like the bot's own ids, sometimes anything at all."""
    if draw(st.booleans()):
        return draw(st.text(max_size=100))
    kind = draw(st.sampled_from(KINDS))
    parts = ["sch", kind, str(draw(numbers))]
    if kind not in "hrad":
        parts.append(str(draw(numbers)))
    if kind in "mFfsv":
        parts.append(draw(words))
    return ":".join(parts)[:100]


values = st.lists(st.text(max_size=120), max_size=26)


@settings(max_examples=600, deadline=None)
@given(custom_ids(), values)
def test_any_custom_id_is_read_or_refused_with_a_message(custom_id, chosen):
    try:
        request = read_control(custom_id, chosen)
    except Refused as refusal:
        assert 0 < len(str(refusal)) <= 300
        return
    assert understood(custom_id)
    assert 0 <= request.target <= MAX_ID
    assert request.version is None or 0 <= request.version <= MAX_ID
    if request.kind in SELECTS:
        assert request.values and all(len(v) <= 100 for v in request.values)


def test_ids_beyond_sqlite_and_empty_menus_are_refused():
    for custom_id in (f"sch:h:{2**63}", f"sch:m:1:{2**64}:R7 3", f"sch:a:{10**30}"):
        with pytest.raises(Refused, match="does not exist"):
            read_control(custom_id)
    for select in ("sch:c:1:0", "sch:s:1:0:give", "sch:v:1:0:claim", "sch:f:1:0:traitor"):
        with pytest.raises(Refused, match="Choose an option"):
            read_control(select, [])
    with pytest.raises(Refused, match="do not understand"):
        read_control("something else entirely")


def test_the_bots_own_ids_are_read_back():
    assert read_control("sch:m:12:3:claim 4").arg == "claim 4"
    assert read_control("sch:c:12:3", ["R7"]).values == ("R7",)
    assert read_control("sch:a:7").target == 7
    assert {c.__name__ for c in ALL_CONTROLS} >= {"MoveButton", "AcceptButton"}


async def test_the_card_menu_follows_the_hand_and_says_why_a_card_is_out():
    from bot.front.controls import BLOCKED, controls_view
    from bot.front.picker import build_picker
    from bot.front.unplayable import unplayable, why_not
    from engine.api import MatchSpec, new_match
    from engine.st1.position import parse_position

    match = new_match(MatchSpec("tactics"), 1)
    # Alice has played two tactic cards to Bob's one: her Joker must wait.
    match.game = parse_position(
        "variant: tactics\nturn: P1\nhand P1: R7 joker1 B2\nhand P2: Y1\n"
        "stone 1: R1 shield | spy\nstone 2: R2 | - | mud\ntactics played: 2 1\n"
    )
    seat = 0
    legal = [str(m) for m in match.legal_moves()]
    hand = [str(c) for c in match.view(seat).hand]
    playable = set(build_picker("st1", legal).cards)
    assert "joker" in hand and "joker" not in playable
    blocked = unplayable(match, seat, hand, playable)
    assert set(blocked) == {"joker"}
    # The menu's reason is whole within Discord's 100 characters; choosing the card says the
    # engine's whole refusal (why_not).
    limit = "Wait until your opponent has played as many tactic cards as you (2 to 1)."
    assert blocked["joker"] == limit
    assert why_not(match, seat, "joker").startswith("You have played 2 tactic cards and your")
    view = controls_view(1, 0, "st1", legal, hand=hand, blocked=blocked)
    (menu,) = [i for i in view.children if getattr(i, "item", None) is not None][:1]
    options = menu.item.options
    assert [o.value for o in options] == [
        c if c in playable else f"{BLOCKED}{c}" for c in hand
    ]  # the hand picture's order, the Joker included
    joker = next(o for o in options if o.value == f"{BLOCKED}joker")
    assert joker.label == "Joker (not now)" and joker.description == limit


async def test_the_banshee_asks_to_discard_not_where_to():
    from bot.front.controls import step_view

    prompt, _ = step_view(1, 0, "st1", ["banshee 3:G5", "R1 4"], ("taking", "banshee 3:G5"))
    assert prompt == "**Banshee**: discard the G5 on stone 3?"
    prompt, _ = step_view(1, 0, "st1", ["traitor 3:G5 4"], ("taking", "traitor 3:G5"))
    assert prompt.endswith("where to?")


async def test_moves_that_print_alike_make_one_control():
    from bot.front.controls import step_view

    legal = ["treason 2:joker 5", "treason 2:joker 5", "treason 2:joker 6", "R1 3"]
    _, view = step_view(1, 0, "st2", legal, ("taking", "treason 2:joker"))
    ids = [item.item.custom_id for item in view.children]
    assert len(ids) == len(set(ids)) == 3  # tile 5, tile 6, back


def test_cards_the_recruiter_drew_are_marked_in_the_menu_of_cards_to_put_back():
    from bot.front.controls import controls_view

    legal = ["return R1 R2", "return R1 O1", "return R2 O1"]
    view = controls_view(1, 5, "st1", legal, hand=["R1", "R2", "O1"], new=["O1"])
    assert view is not None
    (menu,) = [item for item in view.children if getattr(item, "item", None) is not None]
    options = {o.value: o.description for o in menu.item.options}
    assert options == {"R1": None, "R2": None, "O1": "new: drawn with the Recruiter"}


# Every control the bot sends passes the loopback Discord's checks, emoji included -----------

SAMPLE_ARGUMENTS = {
    "match_id": 12,
    "version": 3,
    "move": "R7 3",
    "label": "Stone 3",
    "family": "claim",
    "tournament_id": 5,
    "challenge_id": 7,
    "show": True,
}


def each_control():
    """One of each persistent control, from its required arguments."""
    import inspect

    for cls in ALL_CONTROLS:
        parameters = inspect.signature(cls.__init__).parameters
        yield cls(
            **{
                name: SAMPLE_ARGUMENTS[name]
                for name, parameter in parameters.items()
                if name != "self" and parameter.default is inspect.Parameter.empty
            }
        )


def position_views():
    """The controls of positions of every variant, as a player sees them."""
    import random

    from bot.front.controls import controls_view, step_view
    from engine.api import VARIANTS, MatchSpec, new_match

    for variant in VARIANTS:
        match = new_match(MatchSpec(variant), 5)
        rng = random.Random(5)
        for _ in range(40):
            if match.is_over:
                break
            legal = [str(m) for m in match.legal_moves()]
            view = controls_view(1, 1, match.kind, legal, hand=["R1", "B2"], new=["B2"])
            if view is not None:
                yield view
                first = legal[0].split()[0]
                yield step_view(1, 1, match.kind, legal, ("card", first))[1]
            match.play(rng.choice(legal), match.to_decide)


def emojis(components):
    for component in components:
        if component.get("emoji"):
            yield component["emoji"]
        for option in component.get("options", []):
            if option.get("emoji"):
                yield option["emoji"]
        yield from emojis(component.get("components", []))


def test_every_control_and_its_emoji_is_one_discord_accepts():
    import discord

    from discord_loopback.limits import is_unicode_emoji
    from discord_loopback.spec import discord_spec

    spec = discord_spec()
    create_message, _ = spec.match("POST", "/api/v10/channels/1/messages")
    views = []
    for control in each_control():
        view = discord.ui.View(timeout=None)
        view.add_item(control)
        views.append(view)
    assert len(views) == len(ALL_CONTROLS)
    views += position_views()
    seen = []
    for view in views:
        components = view.to_components()
        for emoji in emojis(components):
            seen.append(emoji["name"])
            assert emoji.get("id") or is_unicode_emoji(emoji["name"]), emoji
        body = {"content": "x", "components": components}
        assert spec.check_body(create_message, "application/json", body) == []
    assert "🃏" in seen  # the "Show my hand" button


def test_the_emoji_check_is_discords():
    from discord_loopback.limits import is_unicode_emoji

    assert is_unicode_emoji("🃏") and is_unicode_emoji("⚔️") and is_unicode_emoji("👍🏽")
    # U+1F0A0 PLAYING CARD BACK is a character, not an emoji; "⚔" lacks its VS-16.
    assert not is_unicode_emoji("🂠") and not is_unicode_emoji("⚔") and not is_unicode_emoji("x")


def _menu_and_picture(position: str, variant: str = "tactics"):
    """The card menu's playable cards and the hand picture's raised cards, for the player to
    move, built as the bot builds them (from the engine's view)."""
    from bot.front.controls import BLOCKED, controls_view
    from bot.front.unplayable import unplayable
    from engine.api import MatchSpec, new_match
    from engine.st1.position import parse_position
    from render.hand import card_places
    from render.theme import DEFAULT_THEME

    match = new_match(MatchSpec(variant), 1)
    match.game = parse_position(position)
    seat = 0
    view = match.view(seat)
    legal = [str(m) for m in match.legal_moves()]
    hand = [str(c) for c in view.hand]
    playable = {str(c) for c in view.playable()}
    blocked = unplayable(match, seat, hand, playable)
    menu = controls_view(1, 0, "st1", legal, hand=hand, blocked=blocked, playable=playable)
    assert menu is not None
    (cards,) = [
        i for i in menu.children if str(getattr(i.item, "custom_id", "")).startswith("sch:c:")
    ]
    offered = {o.value for o in cards.item.options if not o.value.startswith(BLOCKED)}
    out = {o.value[1:]: o for o in cards.item.options if o.value.startswith(BLOCKED)}
    raised = {str(p.card) for p in card_places(view, DEFAULT_THEME) if p.raised}
    return offered, out, raised


def test_the_menu_and_the_hand_picture_agree_when_a_ruse_can_be_played():
    # Tactic cards level (1 each): the Recruiter and the Traitor can be played now. The
    # picture raises them, and the menu offers them (not "recruiter (not now)").
    offered, out, raised = _menu_and_picture(
        "variant: tactics\nturn: P1\nhand P1: R7 recruiter traitor B2\nhand P2: Y1\n"
        "stone 1: R1 shield | spy G5\ntactics played: 1 1\n"
    )
    assert offered == raised == {"R7", "B2", "recruiter", "traitor"}
    assert out == {}


def test_the_menu_and_the_hand_picture_agree_when_a_tactic_card_must_wait():
    # One tactic card ahead: the Recruiter and the Joker must wait. Both say so.
    offered, out, raised = _menu_and_picture(
        "variant: tactics\nturn: P1\nhand P1: R7 recruiter joker1 B2\nhand P2: Y1\n"
        "stone 1: R1 shield | spy\nstone 2: R2 | - | mud\ntactics played: 2 1\n"
    )
    assert offered == raised == {"R7", "B2"}
    assert set(out) == {"recruiter", "joker"}
    assert out["recruiter"].label == "Recruiter (not now)"
    assert out["recruiter"].description.startswith("Wait until your opponent has played as many")


async def test_a_ruse_chosen_in_the_card_menu_shows_what_it_does():
    from bot.front.controls import step_view

    legal = ["R7 1", "recruiter", "traitor 1:G5 2", "traitor 1:G5 3"]
    prompt, view = step_view(1, 0, "st1", legal, ("card", "recruiter"))
    assert prompt == "**Recruiter**: what does it do?"
    assert view.children[0].item.custom_id == "sch:m:1:0:recruiter"
    prompt, view = step_view(1, 0, "st1", legal, ("card", "traitor"))
    assert prompt == "**Traitor**: which card?"
    assert view.children[0].item.custom_id == "sch:f:1:0:traitor"


def test_the_card_menu_and_prompts_name_tactic_cards_in_the_members_language():
    import lang
    from bot.front.controls import controls_view, step_view

    legal = ["R7 3", "spy 3", "spy 4", "mud 5", "banshee 2:joker", "redeploy 2:R5 3"]
    hand = ["R7", "spy", "mud", "banshee"]
    for language, spy, mud, banshee in (
        ("fr", "Espion", "Combat de Boue", "Banshee"),
        ("de", "Spion", "Schlammschlacht", "Banshee"),
        ("en", "Spy", "Mud Fight", "Banshee"),
    ):
        with lang.speaking(language):
            view = controls_view(1, 0, "st1", legal, hand=hand, playable=set(hand))
            menu = view.children[0].item
            labels = {o.value: o.label for o in menu.options}
            where, _ = step_view(1, 0, "st1", legal, ("card", "spy"))
            taking, _ = step_view(1, 0, "st1", legal, ("taking", "banshee 2:joker"))
            which, _ = step_view(1, 0, "st2", legal, ("family", "redeploy"))
        assert labels == {"R7": "R7", "spy": spy, "mud": mud, "banshee": banshee}
        assert spy in where and "spy" not in where  # with its article: "**l'Espion**"
        assert "Joker" in taking and "joker" not in taking
        assert "redeploy" not in which.lower() or language == "en"
