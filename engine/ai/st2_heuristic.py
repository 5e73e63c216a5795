"""The heuristic Schotten Totten 2 player: rules of thumb, one move at a time, no lookahead.

As Attacker it declares control whenever it can, builds the formation each tile's rules
reward, finishes sides that can be controlled at once, and retreats from a tile it has
lost. As Defender it builds strong sides, never puts a card face-up that lets the Attacker
prove a tile, and pours oil on the Attacker's most dangerous side. Both dump low cards
(high ones on lower-sum-wins tiles) where nothing can be won, and play tactic cards when a
simple test says they help.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.st2_policy import auto_move, fit, usefulness
from engine.cards import AnyCard, Card, TacticCard
from engine.claims import check_place
from engine.formations import Slot
from engine.moves import Pass, Play
from engine.proof import Pool, best_completion, evaluate
from engine.st2.board import Phase, Tile, as_slot
from engine.st2.game import Game
from engine.st2.moves import (
    Desert,
    Exchange,
    Explode,
    Give,
    Move,
    Oil,
    Recruit,
    Redeploy,
    Retreat,
    Support,
    Treason,
)

CONTROLS_NOW = 0.6  # the Attacker's card completes a side that can be controlled at once
FEEDS_PROOF = 0.8  # the Defender's card, face-up, lets the Attacker prove a tile
LOST = 0.6  # the tile is lost whatever comes: only worth the least useful card
TACTIC_COST = 0.25  # a tactic card is kept for when it matters most


def choose(game: Game, moves: Sequence[Move]) -> Move:
    """The heuristic's move among `moves` (the legal moves of the player to decide)."""
    chosen = auto_move(game, moves)
    if chosen is not None:
        return chosen
    p = game.to_decide
    assert p is not None
    if game.phase is Phase.EXCHANGE:
        # Give away what fits least; keep tactic cards.
        return max(moves, key=lambda m: -_given(game, p, m))
    ctx = _Context(game, p)
    scored = [(ctx.score(m), i, m) for i, m in enumerate(moves)]
    scored.sort(key=lambda t: (-t[0], t[1]))
    return scored[0][2]


def _given(game: Game, p: int, move: Move) -> float:
    if not isinstance(move, Give):
        return 100.0
    return sum(usefulness(game, p, c) for c in move.cards)


class _Context:
    """What the rules look at, worked out once per decision."""

    def __init__(self, game: Game, p: int) -> None:
        self.game = game
        self.p = p
        self.attacking = p == game.attacker
        self.pool = game.unseen()
        mine = {c for c in game.hands[p] if isinstance(c, Card)}
        self.hidden = Pool([c for c in self.pool.desc if c not in mine])
        a = game.attacker
        # The Attacker's complete sides that cannot be taken yet: a Defender's card put
        # face-up may change that.
        self.watch = [
            t for t in game.tiles if t.complete(a) and not check_place(t, a, self.pool).allowed
        ]

    def score(self, move: Move) -> float:
        if isinstance(move, Play):
            tile = self.game.tiles[move.place - 1]
            score = self._place(tile, move.card)
            return score - TACTIC_COST if isinstance(move.card, TacticCard) else score
        if isinstance(move, Retreat):
            return self._retreat(move)
        if isinstance(move, Oil):
            return self._danger(self.game.tiles[move.tile - 1]) - 0.3
        if isinstance(move, Desert | Treason):
            return self._strike(move)
        if isinstance(move, Explode):
            tile = self.game.tiles[move.tile - 1]
            theirs = self._danger(tile) if self.attacking is False else self._threat(tile)
            return theirs - 0.2 * len(tile.sides[self.p]) - TACTIC_COST
        if isinstance(move, Redeploy):
            return self._rescue(move)
        if isinstance(move, Recruit):
            return self._recruit(move)
        if isinstance(move, Support | Exchange):
            return -0.6
        if isinstance(move, Pass):
            return -2.0
        return -1.0

    # Plays -------------------------------------------------------------------------------------

    def _place(self, tile: Tile, card: AnyCard) -> float:
        p = self.p
        side = tile.slots(p)
        if isinstance(card, Card):
            score = fit(tile.sides[p], tile.sides[1 - p], card, tile.rules)
        else:
            score = self._wild_fit(side, as_slot(card), tile)
        pool = self._without(card)
        if self._lost(tile, [*side, as_slot(card)], pool):
            useful = usefulness(self.game, p, card) if isinstance(card, Card) else 1.5
            return -LOST + 0.5 - useful / 2
        if self.attacking and len(side) + 1 == tile.size:
            tile.sides[p].append(card)
            try:
                if check_place(tile, p, pool).allowed:
                    score += CONTROLS_NOW
            finally:
                tile.sides[p].pop()
        if not self.attacking and isinstance(card, Card) and self._feeds(pool):
            score -= FEEDS_PROOF
        return score

    def _without(self, card: AnyCard) -> Pool:
        if not isinstance(card, Card):
            return self.pool
        return Pool.presorted([c for c in self.pool.desc if c != card])

    def _lost(self, tile: Tile, side: list[Slot], pool: Pool) -> bool:
        """Whether the other side is complete and beats anything this side can become."""
        other = 1 - self.p
        if not tile.complete(other):
            return False
        theirs = evaluate(tile.slots(other), tile.rules).key
        if len(side) >= tile.size:
            mine = evaluate(side, tile.rules).key
            # The Defender keeps a tile on equal keys when it completed first.
            return mine < theirs or (mine == theirs and self.attacking)
        return best_completion(side, pool, tile.rules, beat=theirs) is None

    def _feeds(self, pool: Pool) -> bool:
        a = self.game.attacker
        return any(check_place(t, a, pool).allowed for t in self.watch)

    def _wild_fit(self, side: list[Slot], wild: Slot, tile: Tile) -> float:
        best = best_completion([*side, wild], self.pool, tile.rules)
        if best is None:
            return 0.0
        kind = 0 if tile.rules.lower_sum_wins else int(best.formation.type)
        return 0.3 + 0.2 * kind + (0.2 if len(side) >= tile.size - 1 else 0.0)

    # Preparations and actions ---------------------------------------------------------------------

    def _threat(self, tile: Tile) -> float:
        """How strong the Defender's side of a tile is, 0 to about 1 (for the Attacker)."""
        d = self.game.defender
        side = tile.slots(d)
        if not side:
            return 0.0
        best = best_completion(side, self.hidden, tile.rules)
        kind = 0 if best is None or tile.rules.lower_sum_wins else int(best.formation.type)
        return (kind + len(side)) / (4 + tile.size)

    def _danger(self, tile: Tile) -> float:
        """How close the Attacker is to taking a tile, 0 to about 1 (for the Defender)."""
        a = self.game.attacker
        side = tile.slots(a)
        if not side:
            return 0.0
        if tile.complete(a):
            return 1.0
        best = best_completion(side, self.hidden, tile.rules)
        kind = 0 if best is None or tile.rules.lower_sum_wins else int(best.formation.type)
        return (kind + len(side)) / (4 + tile.size)

    def _retreat(self, move: Retreat) -> float:
        """Retreat from one tile already lost, where a new side could still win."""
        if len(move.tiles) != 1:
            return -1.0
        tile = self.game.tiles[move.tiles[0] - 1]
        return 0.4 if self._lost(tile, tile.slots(self.p), self.pool) else -1.0

    def _strike(self, move: Desert | Treason) -> float:
        assert move.source is not None
        tile = self.game.tiles[move.source - 1]
        danger = self._danger(tile) if not self.attacking else self._threat(tile)
        score = danger - TACTIC_COST
        if isinstance(move, Treason) and isinstance(move.card, Card):
            target = self.game.tiles[move.target - 1]
            score += 0.5 * fit(
                target.sides[self.p], target.sides[1 - self.p], move.card, target.rules
            )
        return score

    def _rescue(self, move: Redeploy) -> float:
        assert move.source is not None
        tile = self.game.tiles[move.source - 1]
        if not self._lost(tile, tile.slots(self.p), self.pool):
            return -1.0
        if move.target is None or not isinstance(move.card, Card):
            return 0.1 - TACTIC_COST
        target = self.game.tiles[move.target - 1]
        gain = fit(target.sides[self.p], target.sides[1 - self.p], move.card, target.rules)
        return gain - TACTIC_COST

    def _recruit(self, move: Recruit) -> float:
        if not isinstance(move.card, Card):
            return 0.3 - TACTIC_COST
        target = self.game.tiles[move.target - 1]
        gain = fit(target.sides[self.p], target.sides[1 - self.p], move.card, target.rules)
        return gain - TACTIC_COST
