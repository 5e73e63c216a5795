"""The unseen cards (engine/unseen.py), after every move of whole games.

Three checks, each from a different side than the code under test: the whole card list of
the variant written out here minus everything the view shows (walked here, field by field);
the game's hidden state itself (the deck, the tactic deck and the other hand, which is
exactly where an unseen card can be); and twin games that differ only in cards the viewer
never saw, which must give the same answer at every move.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.api import MatchSpec, Playable, new_match
from engine.cards import card_code
from engine.errors import GameError
from engine.unseen import unseen
from tests.engine.twins import replayed, twin_start

# Every card of each game, written out (not read from the engine's decks).
ST1_CLAN = [f"{c}{v}" for c in "ROYGBP" for v in range(1, 10)]
ST2_SIEGE = [f"{c}{v}" for c in "RYGBP" for v in range(0, 12)]
ST1_TACTICS = ["joker1", "joker2", "spy", "shield", "blind", "mud"]
ST1_TACTICS += ["recruiter", "strategist", "banshee", "traitor"]
ST2_TACTICS = ["joker1", "joker2", "spy", "shield", "redeploy", "recruit", "desert"]
ST2_TACTICS += ["treason", "explode", "support", "exchange"]
SEEDS = {"tactics": 0, "siege-tactics": 21, "classic": 2, "siege": 5}


def choose(legal: list[str], rng: random.Random) -> str:
    """Random, but keen on tactic cards (and the private moves they lead to), so that a whole
    game goes through most of them."""
    tactic = [m for m in legal if not m[:1].isupper() and m.split()[0] not in ("claim", "pass")]
    if "draw tactic" in legal and rng.random() < 0.6:
        return "draw tactic"
    if tactic and rng.random() < 0.5:
        return rng.choice(tactic)
    return rng.choice(legal)


def play_whole(variant: str, seed: int) -> tuple[Playable, list[tuple[int, str]]]:
    match = new_match(MatchSpec(variant), seed)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    while not match.is_over:
        seat = match.to_decide
        text = choose([str(m) for m in match.legal_moves()], rng)
        match.play(text, seat)
        log.append((seat, text))
    return new_match(MatchSpec(variant), seed), log


def codes(cards) -> Counter[str]:
    return Counter(card_code(c) for c in cards)


def visible(view) -> Counter[str]:
    """Everything this view shows, walked here: the table, the discard pile, the hand."""
    shown: Counter[str] = codes(view.discard) + codes(view.hand or ())
    if view.game == "st1":
        for stone in view.stones:
            shown += codes(stone.sides[0]) + codes(stone.sides[1]) + codes(stone.modes)
    else:
        for tile in view.tiles:
            shown += codes(tile.sides[0]) + codes(tile.sides[1])
        shown += codes(view.actions[0]) + codes(view.actions[1])
    return shown


def expected_from_view(view) -> tuple[list[str], list[str]]:
    """The variant's full card list minus what the view shows."""
    st1 = view.game == "st1"
    clan = ST1_CLAN if st1 else ST2_SIEGE
    tactics = (ST1_TACTICS if st1 else ST2_TACTICS) if view.tactic_deck_size is not None else []
    shown = visible(view)
    assert all(n == 1 for n in shown.values()), shown  # no card is shown twice
    return [c for c in clan if c not in shown], [t for t in tactics if t not in shown]


def hidden_state(match: Playable, seat: int) -> Counter[str]:
    """Where the cards out of the viewer's sight really are: the decks and the other hand."""
    state = match.to_json()["current"]
    return Counter([*state["deck"], *state["tactic_deck"], *state["hands"][1 - seat]])


def check(match: Playable, seat: int) -> None:
    view = match.view(seat)
    u = unseen(view)
    clan, tactics = expected_from_view(view)
    assert sorted(card_code(c) for c in u.cards) == sorted(clan)
    assert sorted(card_code(t) for t in u.tactics) == sorted(tactics)
    assert codes([*u.cards, *u.tactics]) == hidden_state(match, seat)
    # The counts everyone sees add up: the deck, the tactic deck and the other hand.
    assert len(u.cards) + len(u.tactics) == u.deck_size + u.tactic_deck_size + u.other_hand
    assert u.other_hand == view.hand_sizes[1 - seat]
    # Grouped by colour, in value order, every card once.
    grouped = [f"{color.letter}{v}" for color, values in u.by_color() for v in values]
    assert grouped == [str(c) for c in u.cards]
    assert all(list(values) == sorted(values) for _, values in u.by_color())


@pytest.mark.parametrize("variant", ["tactics", "siege-tactics", "classic", "siege"])
def test_unseen_cards_are_right_after_every_move_of_a_whole_game(variant):
    match, log = play_whole(variant, SEEDS[variant])
    heads = {text.split()[0] for _, text in log}
    if variant == "tactics":
        # The Recruiter puts cards back under the decks: unseen again (engine/unseen.py).
        assert {"recruiter", "return", "traitor", "banshee", "strategist"} <= heads, heads
    if variant == "siege-tactics":
        assert {"exchange", "give", "support", "treason"} <= heads, heads
    for seat in (0, 1):
        check(match, seat)
    for seat, text in log:
        match.play(text, seat)
        for viewer in (0, 1):
            check(match, viewer)
    assert match.is_over


def test_the_whole_card_lists_are_the_games():
    tactics = unseen(new_match(MatchSpec("tactics"), 1).view(None))
    assert len(tactics.cards) + len(tactics.tactics) == 54 + 10
    siege = unseen(new_match(MatchSpec("siege-tactics"), 1).view(None))
    assert len(siege.cards) + len(siege.tactics) == 60 + 11
    assert [c.letter for c in siege.colors] == list("RYGBP")
    assert unseen(new_match(MatchSpec("siege"), 1).view(0)).tactics == ()
    assert "tactic" not in unseen(new_match(MatchSpec("classic"), 1).view(0)).to_text()


def hidden(match: Playable) -> tuple[object, object]:
    state = match.to_json()["current"]
    return state["hands"], state["deck"]


def twin_log(spec, seed, start, whole, watcher) -> list[tuple[int, str]]:
    for end in range(len(whole), 0, -1):
        log = whole[:end]
        twin = twin_start(spec, seed, log, watcher)
        if twin is None:
            continue
        a, b = replayed(start, []), replayed(twin, [])
        try:
            for seat, text in log:
                a.play(text, seat)
                b.play(text, seat)
                assert a.view(watcher) == b.view(watcher)
        except (GameError, AssertionError):
            continue  # a card swapped went through the watcher's hands (an Exchange)
        return log
    return []


@pytest.mark.parametrize("variant", ["tactics", "siege-tactics"])
@pytest.mark.parametrize("watcher", [0, 1])
def test_twin_games_show_the_watcher_the_same_unseen_cards(variant, watcher):
    """Two deals that agree on everything the watcher ever saw give the same unseen cards
    after every move, though the hidden cards differ."""
    spec = MatchSpec(variant)
    start, whole = play_whole(variant, SEEDS[variant])
    # The longest part of the game after which some card the watcher never saw is still
    # hidden in both places (the other hand since the deal, the deck since the deal), and
    # which the twin plays through showing the watcher the very same views.
    log = twin_log(spec, SEEDS[variant], start, whole, watcher)
    assert len(log) > 20
    twin = twin_start(spec, SEEDS[variant], log, watcher)
    assert twin is not None
    assert twin.to_json() != start.to_json()  # the hidden cards really differ
    a, b = replayed(start, []), replayed(twin, [])
    differing = 0
    for i, (seat, text) in enumerate([(None, ""), *log]):
        if seat is not None:
            a.play(text, seat)
            b.play(text, seat)
        ua, ub = unseen(a.view(watcher)), unseen(b.view(watcher))
        assert ua == ub, i
        differing += hidden(a) != hidden(b)
    # The hidden cards stayed apart for most of the game (the Recruiter may bring them
    # back together: a card returned under the deck).
    assert differing > len(log) // 2, (differing, len(log))
