"""How good a Schotten Totten position is for one player: the chance they win it.

Only what that player may see is used: the table, their own hand, and how many cards are
elsewhere. Each stone gets the chance that the player wins it: 1 or 0 once it is claimed
or a complete side is proved unbeatable (RULINGS ST1-4), else from the outlooks of both
sides (`engine.ai.outlook`). The stones, taken as independent, give the chance of holding
three adjacent stones or five (RULINGS ST1-7) before the opponent does.

An `Evaluator` serves one decision: it keeps supplies, outlooks and proofs it has worked
out, because a search judges many positions that differ in a card or two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.outlook import Dist, Palette, Supply, split_supplies, win_chance
from engine.cards import ST1_COLORS, ST1_VALUES, AnyCard, Card, clan_deck
from engine.claims import check_place
from engine.formations import FormationRules
from engine.proof import Pool, evaluate
from engine.st1.board import STONES, Stone
from engine.st1.game import Game

PALETTE = Palette(ST1_COLORS, tuple(ST1_VALUES))
_CLAN_CODES = [c.code for c in clan_deck()]


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's few tunable numbers."""

    hand: float = 0.85  # availability of a card in one's own hand (it may be needed elsewhere)
    reach: float = 0.6  # share of the cards still to be drawn that arrive while they matter
    stones: float = 0.25  # weight of the expected share of stones beside the chance to win


DEFAULT = Weights()


class Evaluator:
    """Judges positions for player `p`, remembering what it worked out along the way."""

    def __init__(self, p: int, weights: Weights = DEFAULT) -> None:
        self.p = p
        self.weights = weights
        self._supplies: dict[tuple[object, ...], tuple[Supply, Supply]] = {}
        self._empties: dict[tuple[object, FormationRules], Dist] = {}
        self._proofs: dict[tuple[object, ...], bool] = {}
        self._duels: dict[tuple[int, int, float], tuple[object, object, float]] = {}
        # Pools by identity, holding the pool so that its id stays its own.
        self._pools: dict[int, tuple[Pool, frozenset[int]]] = {}

    def supplies(self, game: Game, hand: Sequence[AnyCard] | None = None) -> tuple[Supply, Supply]:
        """Availabilities of clan cards for p and for the opponent, as p sees them.

        `hand` replaces p's hand, to judge a position before the cards drawn after it.
        """
        p, w = self.p, self.weights
        seen = game.unseen().codes  # clan cards not face-up on the table
        held = game.hands[p] if hand is None else hand
        mine = frozenset(c.code for c in held if isinstance(c, Card))
        hidden = tuple(code for code in _CLAN_CODES if code in seen and code not in mine)
        theirs_in_hand = sum(1 for c in game.hands[1 - p] if isinstance(c, Card))
        key = (mine, hidden, len(game.deck), theirs_in_hand)
        found = self._supplies.get(key)
        if found is not None:
            return found
        found = self._supplies[key] = split_supplies(
            mine,
            hidden,
            len(game.deck),
            theirs_in_hand,
            hand=w.hand,
            reach=w.reach,
            palette=PALETTE,
            empties=self._empties,
        )
        return found

    def chances(self, game: Game, hand: Sequence[AnyCard] | None = None) -> list[float]:
        """For each stone, the chance that p wins it."""
        me, op = self.supplies(game, hand)
        pool = game.unseen()
        return [self.stone(s, me, op, pool) for s in game.stones]

    def value(self, game: Game, hand: Sequence[AnyCard] | None = None) -> float:
        """The chance that p wins, as p sees the game (1 or 0 once it is over)."""
        if game.outcome is not None:
            w = game.outcome.winner
            return 0.5 if w is None else 1.0 if w == self.p else 0.0
        return self.combine(self.chances(game, hand))

    def combine(self, chances: Sequence[float]) -> float:
        """From each stone's chance, the chance of winning the game, blended with the share
        of stones expected, so that a lost or won game still tells better moves from worse."""
        share = sum(chances) / STONES
        return (1.0 - self.weights.stones) * race(chances) + self.weights.stones * share

    def stone(self, stone: Stone, me: Supply, op: Supply, pool: Pool) -> float:
        """The chance that p wins this stone, given both supplies and the cards not face-up
        (`pool`), with which a complete side may already be proved unbeatable."""
        p = self.p
        if stone.claimed_by is not None:
            return 1.0 if stone.claimed_by == p else 0.0
        mine_done, theirs_done = stone.complete(p), stone.complete(1 - p)
        if mine_done and theirs_done:
            a = evaluate(stone.slots(p), stone.rules).key
            b = evaluate(stone.slots(1 - p), stone.rules).key
            if a != b:
                return 1.0 if a > b else 0.0
            return 1.0 if stone.first_complete() == p else 0.0
        if mine_done or theirs_done:
            owner = p if mine_done else 1 - p
            if self._provable(stone, owner, pool):
                return 1.0 if owner == p else 0.0
        mine = me.outlook(stone.slots(p), stone.rules)
        theirs = op.outlook(stone.slots(1 - p), stone.rules)
        tie = 1.0 if mine_done else 0.0 if theirs_done else 0.5
        # Outlooks live as long as their supplies, which this evaluator keeps: their ids
        # are theirs alone while the entry exists (it holds them too).
        key2 = (id(mine), id(theirs), tie)
        found = self._duels.get(key2)
        if found is None:
            if len(self._duels) > 50000:
                self._duels.clear()
            found = self._duels[key2] = (mine, theirs, win_chance(mine, theirs, tie))
        return found[2]

    def _signature(self, pool: Pool) -> frozenset[int]:
        """The cards of a pool, as a key: games make one pool per table and reuse it."""
        found = self._pools.get(id(pool))
        if found is None:
            if len(self._pools) > 4096:
                self._pools.clear()
            found = self._pools[id(pool)] = (pool, frozenset(pool.codes))
        return found[1]

    def _provable(self, stone: Stone, owner: int, pool: Pool) -> bool:
        """Whether the owner's complete side could be claimed now (RULINGS ST1-4)."""
        key = (
            tuple(stone.sides[0]),
            tuple(stone.sides[1]),
            stone.rules,
            owner,
            self._signature(pool),
        )
        found = self._proofs.get(key)
        if found is None or len(self._proofs) > 20000:
            found = check_place(stone, owner, pool).allowed
            if len(self._proofs) > 20000:
                self._proofs.clear()
            self._proofs[key] = found
        return found


def race(chances: Sequence[float]) -> float:
    """P(three adjacent stones, or five, before the opponent), stones independent.

    A state is (stones won, capped at five; my current run; their current run), packed in
    one int; a run of 3 means three adjacent stones were reached. When both reach three
    adjacent, it is a coin toss.
    """
    states: dict[int, float] = {0: 1.0}  # n * 16 + my run * 4 + their run
    for q in chances:
        nxt: dict[int, float] = {}
        get = nxt.get
        for state, w in states.items():
            n, rm, ro = state >> 4, (state >> 2) & 3, state & 3
            if q > 0.0:
                key = (
                    (min(n + 1, 5) << 4) | ((3 if rm >= 2 else rm + 1) << 2) | (3 if ro == 3 else 0)
                )
                nxt[key] = get(key, 0.0) + w * q
            if q < 1.0:
                key = (n << 4) | ((3 if rm == 3 else 0) << 2) | (3 if ro >= 2 else ro + 1)
                nxt[key] = get(key, 0.0) + w * (1.0 - q)
        states = nxt
    total = 0.0
    for state, w in states.items():
        n, rm, ro = state >> 4, (state >> 2) & 3, state & 3
        if rm == 3 and ro == 3:
            total += 0.5 * w
        elif rm == 3 or (ro != 3 and n >= 5):
            total += w
    return total
