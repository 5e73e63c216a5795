"""The bot's words: they agree with the pictures and read as sentences."""

from __future__ import annotations

import pytest

from bot.front import texts
from render.words import _PHASE_BADGES, phase_badge


@pytest.mark.parametrize("phase", sorted(_PHASE_BADGES))
def test_the_turn_line_uses_the_words_of_the_pictures_badge(phase):
    badge = phase_badge(phase).lower()
    assert badge in texts.phase_words(phase).lower()


async def test_the_movers_reply_says_what_they_did_in_the_second_person(service):
    from engine.api import MatchSpec

    from .conftest import ALICE, BOB, CHANNEL, GUILD

    ch = await service.challenge(GUILD, CHANNEL, ALICE, BOB, MatchSpec("tactics"))
    info = await service.accept(ch.id, BOB.id)
    user = info.players[info.to_decide]
    name = info.names[info.to_decide]
    play = next(str(m) for m in info.match.legal_moves() if str(m)[0] in "RBGYOP")
    result = await service.play(info.id, user, play)
    card, stone = play.split()
    assert texts.what_you_did(result) == f"You played {card} on stone {stone}."
    info = await service.match(info.id)
    if info.match.view(None).phase == "claim":
        result = await service.play(info.id, user, "done")
    result = await service.play(info.id, user, "draw tactic")
    assert texts.what_you_did(result) == "You drew a tactic card."
    assert name not in texts.what_you_did(result)


def test_ratings_read_on_a_familiar_scale():
    from bot.ratings import Rating, after_game, initial

    new = initial()
    assert new.display() == "1000"
    won, lost = after_game(new, new, 0)
    assert 1050 < won.points < 1150 and 900 < lost.points < 1000
    assert Rating(0.0, 10.0).points == 0  # 1000 + 40 x (-30) would be negative
    assert (won.ordinal > lost.ordinal) == (won.points > lost.points)


def test_game_two_of_a_revenge_match_gives_the_figure_to_beat():
    import random

    from engine.api import MatchSpec, new_match

    names = ("Alice", "Bob")
    seen = set()
    for seed in range(40):
        match = new_match(MatchSpec("siege", revenge=True), seed)
        assert texts.revenge_line(match, names) == ""  # game 1: nothing to beat yet
        rng = random.Random(seed)
        while not match.results and not match.is_over:
            seat = match.to_decide
            legal = match.legal_moves()
            control = [m for m in legal if str(m).startswith("control")]
            match.apply(control[0] if control and seed % 2 else rng.choice(legal), seat)
        if match.is_over:
            continue
        first = match.results[0]
        line = texts.revenge_line(match, names)
        winner, other = names[first.outcome.winner], names[1 - first.outcome.winner]
        if first.outcome.winner == first.attacker:
            figure = first.deck_left
            assert line.startswith(f"To beat: {winner} took the wall in game 1 with")
        else:
            figure = first.defender_score
            assert line.startswith(f"To beat: {winner} held the wall in game 1 with {figure}")
        assert f"{other} wins the match by" in line and f"more than {figure}" in line
        seen.add(first.outcome.winner == first.attacker)
    assert seen == {True, False}  # both kinds of first game were met


def test_a_board_too_long_for_discord_drops_its_oldest_events_not_its_result():
    head = "**Schotten Totten** · Alice vs Computer (easy) · game #7"
    events = [f"• Alice passes, turn {n}." for n in range(200)]
    result = "🏆 **Computer (easy) wins** (three adjacent stones)."
    text = texts.fit_message(head, events, result)
    assert len(text) <= 2000
    lines = text.split("\n")
    assert lines[0] == head and lines[1] == "• …" and lines[-1] == result
    assert lines[-2] == events[-1]  # the newest events stay
    # Short enough: nothing dropped.
    assert texts.fit_message(head, events[:3], result) == "\n".join([head, *events[:3], result])
