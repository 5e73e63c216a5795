"""Turning legal moves into controls (pure: no Discord needed)."""

import random

from bot.front.controls import controls_view
from bot.front.picker import build_picker, set_move
from engine.api import VARIANTS, MatchSpec, new_match


def test_cards_then_places_and_words():
    p = build_picker("st1", ["R7 3", "R7 5", "B2 3", "claim 4", "done"])
    assert list(p.cards) == ["R7", "B2"]
    assert [c.move for c in p.cards["R7"]] == ["R7 3", "R7 5"]
    assert [c.label for c in p.cards["R7"]] == ["Stone 3", "Stone 5"]
    assert [c.move for c in p.places["claim"]] == ["claim 4"]
    assert [c.label for c in p.words] == ["Done: end my turn"]


def test_families_take_a_card_then_a_place():
    p = build_picker("st1", ["traitor 3:G5 6", "traitor 3:G5 7", "strategist 2:R1 discard"])
    assert [c.label for c in p.taking["traitor"]["3:G5"]] == ["Onto stone 6", "Onto stone 7"]
    assert [c.label for c in p.taking["strategist"]["2:R1"]] == ["Discard it"]


def test_sets_are_ticked_at_once():
    p = build_picker("st2", ["retreat 2", "retreat 5", "retreat 2 5", "give R1 R2 R3"])
    assert p.sets["retreat"].items == ("2", "5") and (
        p.sets["retreat"].least,
        p.sets["retreat"].most,
    ) == (1, 2)
    assert p.sets["give"].least == p.sets["give"].most == 3
    assert set_move("retreat", ["2", "5"]) == "retreat 2 5"


def test_every_legal_move_is_reachable_and_the_controls_fit():
    # Random positions of every variant: each legal move is made by some control, and the
    # controls never need more than Discord's five rows of five.
    for variant in VARIANTS:
        match = new_match(MatchSpec(variant), 11)
        rng = random.Random(11)
        for _ in range(120):
            if match.is_over:
                break
            legal = [str(m) for m in match.legal_moves()]
            view = controls_view(1, 1, match.kind, legal)
            assert view is not None
            assert len(view.children) <= 25
            rows: dict[int, list] = {}
            for item in view.children:
                rows.setdefault(item.item.row, []).append(item)
            assert max(rows) <= 4
            assert all(len(items) <= 5 for items in rows.values())
            reachable = _reachable(view, match.kind, legal)
            assert set(legal) <= reachable, set(legal) - reachable
            match.play(rng.choice(legal), match.to_decide)


def _reachable(view, game, legal):
    from bot.front.controls import CardSelect, MoveButton, MoveSelect, SetSelect, StepButton

    picker = build_picker(game, legal)
    out = set()
    for item in view.children:
        if isinstance(item, MoveButton):
            out.add(item.move)
        elif isinstance(item, MoveSelect):
            out |= {o.value for o in item.item.options}
        elif isinstance(item, CardSelect):
            for o in item.item.options:
                out |= {c.move for c in picker.cards[o.value]}
        elif isinstance(item, StepButton):
            for choices in picker.taking[item.family].values():
                out |= {c.move for c in choices}
        elif isinstance(item, SetSelect):
            out |= {m for m in legal if m.split()[0] == item.family}
    return out
