"""The analysis of a finished game: judged from each player's own view, never hidden cards."""

from __future__ import annotations

import random

import pytest

from engine.ai import SEARCH, choose_move
from engine.ai.analysis import Judgement, analyse, costliest, decisions, hint, judge
from engine.ai.search import search_root
from engine.ai.st1_search import St1SearchRules
from engine.api import MatchSpec, Playable, new_match
from tests.engine.twins import twin_start


def _played(spec: MatchSpec, seed: int, levels: tuple[str, str] = ("easy", "normal")) -> Playable:
    match = new_match(spec, seed)
    n = 0
    while not match.is_over:
        seat = match.to_decide
        assert seat is not None
        match.play(choose_move(match.view(seat), levels[seat], seed=seed * 1000 + n), seat)
        n += 1
    return match


def _twin(variant: str, watcher: int) -> tuple[MatchSpec, int, Playable, Playable]:
    """A finished game and the opening of a twin whose hidden cards differ for `watcher`."""
    spec = MatchSpec(variant)
    for seed in range(40):
        log = _played(spec, seed).log
        twin = twin_start(spec, seed, log, watcher)
        if twin is not None:
            return spec, seed, new_match(spec, seed), twin
    raise AssertionError("no game with a card kept in hand and one left in the deck")


@pytest.mark.parametrize(("variant", "watcher"), [("classic", 0), ("tactics", 1), ("siege", 0)])
def test_the_analysis_never_reads_hidden_cards(variant, watcher):
    spec, seed, start, twin = _twin(variant, watcher)
    log = _played(spec, seed).log
    # The twin really is another deal, and the other player's views show it ...
    assert start.to_json() != twin.to_json()
    theirs = [d.view for d in decisions(start, log) if d.seat != watcher]
    twins = [d.view for d in decisions(twin, log) if d.seat != watcher]
    assert theirs != twins
    # ... while the watcher's views, and so their analysis, are the same.
    mine = [d.view for d in decisions(start, log) if d.seat == watcher]
    assert mine == [d.view for d in decisions(twin, log) if d.seat == watcher]
    a = [j for j in analyse(start, log) if j.seat == watcher]
    b = [j for j in analyse(twin, log) if j.seat == watcher]
    assert a and a == b


def test_the_same_game_gets_the_same_analysis():
    game = _played(MatchSpec("tactics"), 3)
    start = new_match(MatchSpec("tactics"), 3)
    first = analyse(start, game.log)
    assert first == analyse(start, game.log)
    # Judging a part of the decisions gives the same verdicts on those.
    some = [j.index for j in first[::3]]
    assert analyse(start, game.log, indices=some) == first[::3]


def test_every_weighed_decision_is_judged_and_rule_moves_are_not():
    game = _played(MatchSpec("tactics"), 5)
    start = new_match(MatchSpec("tactics"), 5)
    judged = {j.index for j in analyse(start, game.log)}
    for d in decisions(start, game.log):
        made_by_rule = d.played.startswith(("draw", "claim")) or len(d.view.legal_moves) == 1
        if made_by_rule:
            assert d.index not in judged, d.played
    # A turn is a card played and a card drawn: about half the log is weighed.
    assert len(judged) >= len(game.log) // 3


def test_judgements_are_chances_and_the_best_move_is_legal():
    game = _played(MatchSpec("siege-tactics"), 2)
    start = new_match(MatchSpec("siege-tactics"), 2)
    views = {d.index: d.view for d in decisions(start, game.log)}
    for j in analyse(start, game.log):
        assert 0.0 <= j.after <= 1.0 and 0.0 <= j.before <= 1.0
        assert j.best in views[j.index].legal_moves
        assert game.log[j.index] == (j.seat, j.played)
        assert Judgement.from_json(j.to_json()) == j


def test_a_move_the_search_would_not_weigh_is_still_valued():
    # A random player's moves are often ones the search's ranking leaves out at the root.
    spec = MatchSpec("classic")
    match = new_match(spec, 9)
    rng = random.Random(1)
    outside = 0
    while not match.is_over and outside < 3:
        seat = match.to_decide
        assert seat is not None
        view = match.view(seat)
        move = rng.choice(sorted(view.legal_moves))
        plain = search_root(view, St1SearchRules(seat, view.hand), SEARCH, random.Random(7))
        if plain.values and move not in plain.values:
            widened = search_root(
                view, St1SearchRules(seat, view.hand), SEARCH, random.Random(7), include=move
            )
            assert move in widened.values
            outside += 1
        match.play(move, seat)
    assert outside == 3


def test_the_costliest_moves_of_a_weak_player():
    spec = MatchSpec("classic")
    game = _played(spec, 11, levels=("easy", "normal"))
    js = analyse(new_match(spec, 11), game.log)
    worst = costliest(js, seat=0)
    assert 1 <= len(worst) <= 3
    assert all(j.seat == 0 and j.played != j.best for j in worst)
    costs = [j.cost for j in worst]
    assert costs == sorted(costs, reverse=True) and costs[0] > 0
    assert max(j.cost for j in js if j.seat == 0) == costs[0]


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="not an analysis level"):
        analyse(new_match(MatchSpec("classic"), 1), [], level="easy")


def test_a_decision_made_by_rule_is_not_judged():
    start = new_match(MatchSpec("tactics"), 4)
    game = _played(MatchSpec("tactics"), 4)
    draw = next(d for d in decisions(start, game.log) if d.played.startswith("draw"))
    assert judge(draw) is None


def test_a_hint_is_a_legal_move_with_a_chance_even_for_a_move_made_by_rule():
    match = new_match(MatchSpec("tactics"), 6)
    seen_rule = seen_weighed = False
    n = 0
    while not match.is_over and n < 40:
        seat = match.to_decide
        assert seat is not None
        view = match.view(seat)
        h = hint(view, seed=n)
        assert h.move in view.legal_moves and 0.0 <= h.chance <= 1.0
        assert h == hint(view, seed=n)
        if h.move.startswith("draw"):
            seen_rule = True
        else:
            seen_weighed = True
        match.play(h.move, seat)
        n += 1
    assert seen_rule and seen_weighed
    with pytest.raises(ValueError, match="no decision"):
        hint(match.view(None))
