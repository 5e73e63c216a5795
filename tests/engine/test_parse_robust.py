"""Reading a move never crashes: any text gives a move or the engine's own error, with a
short message that quotes at most a short piece of what was typed."""

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import moves as common_moves
from engine import st1, st2
from engine.api import VARIANTS, MatchSpec, load_match, new_match
from engine.cards import Card, parse_card
from engine.errors import GameError, IllegalMoveError, InvalidMoveError, PositionError, quote
from engine.st1.position import parse_position as st1_position
from engine.st2.position import parse_position as st2_position

MAX_MESSAGE = 300

WORDS = [
    "play",
    "a",
    "the",
    "on",
    "stone",
    "tile",
    "wall",
    "onto",
    "to",
    "at",
    "from",
    "claim",
    "control",
    "declare",
    "oil",
    "retreat",
    "explode",
    "draw",
    "clan",
    "siege",
    "tactic",
    "tactics",
    "recruiter",
    "return",
    "give",
    "support",
    "exchange",
    "strategist",
    "banshee",
    "traitor",
    "redeploy",
    "recruit",
    "desert",
    "treason",
    "discard",
    "joker",
    "joker2",
    "spy",
    "shield",
    "mud",
    "blind",
    "resign",
    "pass",
    "done",
    "end",
    "timeout",
    "R7",
    "G5",
    "P11",
    "B0",
    "Y9",
    "O3",
    "r",
    "7",
    "red",
    "green",
    "3:G5",
    "3:",
    ":G5",
    "0",
    "1",
    "3",
    "7",
    "9",
    "10",
    "11",
    "99",
    "999",
    "1000",
    ",",
    ":",
    "③",
    "٣",
    "߃",
    "¹",
    "²",
    "½",
    "🂠",
    "\u200b",
    "\n",
    "\t",
    "`",
    "*",
    "_",
    "@everyone",
    "<@1>",
    "[x](https://example.com)",
    "🎴",
    "👍🏽",
    "-1",
    "3.5",
    "1e3",
]
HUGE = ["9" * 5000, "4" * 4301, "1" + "0" * 40]
NUMBERS = ["0", "1", "3", "7", "8", "9", "10", "12", "99", "999", "0003", "③", "٣", "¹", *HUGE]

texts = st.one_of(
    st.text(max_size=60),
    st.lists(st.sampled_from(WORDS + HUGE), max_size=7).map(" ".join),
    st.lists(st.sampled_from(WORDS + HUGE), max_size=4).map("".join),
)


@st.composite
def near(draw: st.DrawFn, move: str) -> str:
    """A legal move's text, sometimes bent: other numbers, no `3:` before a card, a word
    dropped or added. These reach the game's checks, which random text rarely does."""
    how = draw(st.sampled_from(["as is", "numbers", "no source", "drop", "add"]))
    if how == "numbers":
        return re.sub(r"[0-9]+", lambda _: draw(st.sampled_from(NUMBERS)), move)
    if how == "no source":
        return re.sub(r"[0-9]+:", "", move)
    words = move.split()
    if how == "drop" and words:
        del words[draw(st.integers(0, len(words) - 1))]
    elif how == "add":
        words.insert(draw(st.integers(0, len(words))), draw(st.sampled_from(WORDS + NUMBERS)))
    return " ".join(words)


def check_error(error: GameError, text: str) -> None:
    message = str(error)
    assert 0 < len(message) <= MAX_MESSAGE, message
    if len(text) > 60:
        assert text.strip()[:60] not in message


@pytest.mark.parametrize("parse", [st1.parse_move, st2.parse_move], ids=["st1", "st2"])
@settings(max_examples=400, deadline=None)
@given(text=texts)
def test_parse_move_gives_a_move_or_the_engines_error(parse, text):
    try:
        move = parse(text)
    except GameError as error:
        check_error(error, text)
    else:
        assert str(move)


def _position(variant: str, seed: int, moves: int):
    match = new_match(MatchSpec(variant), seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if match.is_over:
            break
        match.apply(rng.choice(match.legal_moves()), match.to_decide)
    return match


@pytest.mark.parametrize("variant", list(VARIANTS))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 40), data=st.data())
def test_a_match_reads_and_applies_any_text_or_refuses_it(variant, seed, moves, data):
    match = _position(variant, seed, moves)
    legal = [str(m) for m in match.legal_moves()] or ["R7 3"]
    text = data.draw(st.one_of(texts, st.sampled_from(legal).flatmap(near)), label="text")
    before = json.dumps(match.to_json(), sort_keys=True)
    deciding = match.to_decide if match.to_decide is not None else 0
    for seat in (deciding, 1 - deciding):
        trial = load_match(match.to_json())
        try:
            move = trial.parse_move(text, seat)
            assert str(move)
            trial.apply(move, seat)
        except GameError as error:
            check_error(error, text)
            # A refused move changes nothing.
            assert json.dumps(trial.to_json(), sort_keys=True) == before
    assert json.dumps(match.to_json(), sort_keys=True) == before


@pytest.mark.parametrize("parse", [st1.parse_move, st2.parse_move], ids=["st1", "st2"])
def test_the_inputs_that_used_to_crash(parse):
    for filler in ("play", "a", "the", "on the", "stone", "tile", "wall", "play the stone"):
        with pytest.raises(InvalidMoveError, match="Say which card to play and where"):
            parse(filler)
    for text in ("R7 ③", "R7 ٣", "claim ③", "R7 ¹"):
        with pytest.raises(InvalidMoveError):
            parse(text)
    long = "R7 " + "9" * 4301
    with pytest.raises(InvalidMoveError) as caught:
        parse(long)
    assert len(str(caught.value)) < 100 and "9" * 20 not in str(caught.value)
    with pytest.raises(InvalidMoveError) as caught:
        parse("x" * 2000)
    assert "x" * 30 not in str(caught.value) and "…" in str(caught.value)


def test_numbers_too_long_for_any_place_are_refused_without_reading_them():
    with pytest.raises(InvalidMoveError, match="no stone"):
        st1.parse_move("claim " + "9" * 5000)
    with pytest.raises(InvalidMoveError, match="no such tile"):
        st2.parse_move("oil 99999999999999999999")
    with pytest.raises(InvalidMoveError, match="no stone"):
        st1.parse_move("traitor 3:G5 " + "7" * 4400)
    with pytest.raises(InvalidMoveError, match="no tile"):
        st2.parse_move("treason " + "3" * 4400 + ":G5 6")
    with pytest.raises(InvalidMoveError, match="no tile"):
        st2.parse_move("desert G5 from 99999")
    # Written with up to three digits, a number is read, and the game says it is no stone.
    match = new_match(MatchSpec("classic"), 1)
    with pytest.raises(IllegalMoveError):
        match.apply(match.parse_move("claim 999", match.to_decide), match.to_decide)


@pytest.mark.parametrize(
    "text",
    ["R7 ③", "R7 " + "9" * 4301, "claim ③", "oil 99999999999999999999", "oil ③", "retreat 2 ③"],
)
def test_bad_numbers_are_the_engines_errors_in_a_match(text):
    for variant in VARIANTS:
        match = new_match(MatchSpec(variant), 3)
        with pytest.raises((InvalidMoveError, IllegalMoveError)) as caught:
            match.apply(match.parse_move(text, match.to_decide), match.to_decide)
        assert 0 < len(str(caught.value)) <= 120


def test_cards_and_variants_quote_a_short_prefix():
    with pytest.raises(InvalidMoveError) as caught:
        parse_card("q" * 5000)
    assert "q" * 30 not in str(caught.value) and len(str(caught.value)) < 200
    with pytest.raises(InvalidMoveError, match="tactic card, not a clan card"):
        Card.parse("joker")
    with pytest.raises(InvalidMoveError) as caught:
        MatchSpec("v" * 5000)
    assert "v" * 30 not in str(caught.value) and len(str(caught.value)) < 300


def test_positions_refuse_unicode_and_endless_numbers():
    with pytest.raises(PositionError, match="unknown line"):
        st1_position("stone ③: R1 | B1\n")
    with pytest.raises(PositionError, match="numbered 1 to 9"):
        st1_position("stone " + "9" * 5000 + ": R1 | B1\n")
    for text in ("seed: ③\n", "seed: " + "9" * 5000 + "\n", "tactics played: ③ 1\n"):
        with pytest.raises(PositionError):
            st1_position(text)
    for text in ("cauldrons: ③\n", "cauldrons: " + "9" * 5000 + "\n", "tactics played: 1 ¹\n"):
        with pytest.raises(PositionError):
            st2_position(text)
    assert st2_position("cauldrons: 2\n").cauldrons == 2


def test_quote_is_short_plain_and_safe_in_markdown():
    assert quote("R7 3") == "'R7 3'"
    assert quote("  a\n\tb  ") == "'a b'"
    assert quote("x" * 100) == "'" + "x" * 23 + "…'"
    assert quote("`**bold**` <@123> @everyone \x00\x07") == "'bold 123 everyone'"
    assert quote("r7 ⑨", limit=8) == "'r7 ⑨'"
    assert quote("[x](https://e.vil) ||spoiler|| ~~s~~ _i_ \\") == "'x(https://e.vil) spoile…'"
    assert quote("a\u200bb\u202ec\x1b[31m") == "'abc31m'"
    assert quote("") == "''"
    assert common_moves.quote is quote  # importable from the moves module too


@pytest.mark.parametrize(
    ("variant", "text", "says"),
    [
        ("classic", "R12 3", "R12 is not a Schotten Totten card; values run 1 to 9."),
        ("tactics", "3 r 12", "R12 is not a Schotten Totten card; values run 1 to 9."),
        ("siege", "R12 3", "R12 is not a Schotten Totten 2 card; values run 0 to 11."),
        ("siege-tactics", "B40 2", "B40 is not a Schotten Totten 2 card; values run 0 to 11."),
        ("classic", "claim 99", "There is no stone 99; stones are numbered 1 to 9."),
        ("siege", "control 99", "There is no tile 99; the wall tiles are numbered 1 to 7."),
    ],
)
def test_impossible_cards_and_places_are_named(variant, text, says):
    match = new_match(MatchSpec(variant), 1)
    seat = match.to_decide
    with pytest.raises(GameError) as err:
        match.apply(match.parse_move(text, seat), seat)
    assert str(err.value) == says
