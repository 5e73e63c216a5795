"""Reading a move never crashes: any text gives a move or the engine's own error, with a
short message that quotes at most a short piece of what was typed."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import st1, st2
from engine.api import VARIANTS, MatchSpec, load_match, new_match
from engine.errors import GameError, IllegalMoveError, InvalidMoveError, quote

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
]
HUGE = ["9" * 5000, "4" * 4301, "1" + "0" * 40]

texts = st.one_of(
    st.text(max_size=60),
    st.lists(st.sampled_from(WORDS + HUGE), max_size=7).map(" ".join),
    st.lists(st.sampled_from(WORDS + HUGE), max_size=4).map("".join),
)


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
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 40), text=texts)
def test_a_match_reads_and_applies_any_text_or_refuses_it(variant, seed, moves, text):
    match = _position(variant, seed, moves)
    if match.is_over:
        return
    before = json.dumps(match.to_json(), sort_keys=True)
    for seat in (match.to_decide, 1 - match.to_decide):
        trial = load_match(match.to_json())
        try:
            move = trial.parse_move(text, seat)
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
    with pytest.raises(InvalidMoveError, match="no place"):
        st1.parse_move("traitor 3:G5 " + "7" * 4400)
    # Written with up to three digits, a number is read, and the game says it is no stone.
    match = new_match(MatchSpec("classic"), 1)
    with pytest.raises(IllegalMoveError):
        match.apply(match.parse_move("claim 999", match.to_decide), match.to_decide)


def test_quote_is_short_plain_and_safe_in_markdown():
    assert quote("R7 3") == "'R7 3'"
    assert quote("  a\n\tb  ") == "'a b'"
    assert quote("x" * 100) == "'" + "x" * 23 + "…'"
    assert quote("`**bold**` <@123> @everyone \x00\x07") == "'bold 123 everyone'"
    assert quote("r7 ⑨", limit=8) == "'r7 ⑨'"
