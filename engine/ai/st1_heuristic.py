"""The heuristic Schotten Totten player: rules of thumb, one move at a time, no lookahead.

It claims every stone it can, puts each card where it best fits the cards already there
(colour runs first, then same strength, colour, runs), finishes formations that can be
claimed at once, does not put a card face-up when that lets the opponent prove a stone,
dumps low cards on stones already lost, and plays tactic cards when a simple test says
they help: an Elite Troop where it makes a strong formation, Mud Fight or Blind-Man's
Bluff against an opponent's better formation, the Banshee and Traitor against the
opponent's most dangerous side, the Strategist to rescue a card from a lost stone.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.st1_policy import auto_move, fit
from engine.cards import AnyCard, Card, Tactic, TacticCard
from engine.claims import check_place
from engine.formations import FormationType, Slot
from engine.moves import Pass, Play
from engine.proof import Pool, best_completion, evaluate
from engine.st1.board import ELITE, Phase, Stone, as_slot
from engine.st1.game import Game
from engine.st1.moves import Banshee, Move, Recruit, Return, Strategist, Traitor

# Weights of the rules, in units of "fit" (0 to 1).
CLAIMS_NOW = 0.6  # the card completes a formation that can be claimed at once
FEEDS_PROOF = 0.8  # the card, face-up, lets the opponent claim a stone
LOST = 0.6  # the stone is lost whatever comes: only worth a low card
TACTIC_COST = 0.25  # a tactic card is kept for when it matters most


def choose(game: Game, moves: Sequence[Move]) -> Move:
    """The heuristic's move among `moves` (the legal moves of the player to decide)."""
    chosen = auto_move(game, moves)
    if chosen is not None:
        return chosen
    p = game.turn
    if game.phase is Phase.RECRUIT_RETURN:
        return max(moves, key=lambda m: _keep_score(game, p, m))
    ctx = _Context(game, p)
    scored = [(ctx.score(m), i, m) for i, m in enumerate(moves)]
    scored.sort(key=lambda t: (-t[0], t[1]))
    return scored[0][2]


def _keep_score(game: Game, p: int, move: Move) -> float:
    """Return the cards that fit nowhere: the lowest clan cards, tactic cards last."""
    if not isinstance(move, Return):
        return -100.0
    return -sum(_usefulness(game, p, c) for c in move.cards)


def _usefulness(game: Game, p: int, card: AnyCard) -> float:
    if isinstance(card, TacticCard):
        return 1.5
    fits = [
        fit(s.sides[p], s.sides[1 - p], card, s.size, s.rules.types)
        for s in game.stones
        if s.has_room(p)
    ]
    return max(fits, default=0.0)


class _Context:
    """What the rules look at, worked out once per decision."""

    def __init__(self, game: Game, p: int) -> None:
        self.game = game
        self.p = p
        self.pool = game.unseen()  # clan cards not face-up: the proof's pool
        mine = {c for c in game.hands[p] if isinstance(c, Card)}
        self.hidden = Pool([c for c in self.pool.desc if c not in mine])
        self.open = [s for s in game.stones if s.claimed_by is None]
        # Opponent's complete sides that cannot be claimed yet: a card put face-up may
        # change that.
        self.watch = [
            s
            for s in self.open
            if s.complete(1 - p) and not check_place(s, 1 - p, self.pool).allowed
        ]

    def score(self, move: Move) -> float:
        if isinstance(move, Play):
            card = move.card
            stone = self.game.stones[move.place - 1]
            if isinstance(card, TacticCard) and card.kind not in ELITE:
                return self._mode(stone, card)
            score = self._place(stone, card)
            return score - TACTIC_COST if isinstance(card, TacticCard) else score
        if isinstance(move, Banshee | Traitor):
            return self._strike(move)
        if isinstance(move, Strategist):
            return self._rescue(move)
        if isinstance(move, Recruit):
            hand = self.game.hands[self.p]
            best = max((_usefulness(self.game, self.p, c) for c in hand), default=0.0)
            return 0.3 if best < 0.4 else -0.5
        if isinstance(move, Pass):
            return -2.0
        return -1.0

    # Plays ------------------------------------------------------------------------------------

    def _place(self, stone: Stone, card: AnyCard) -> float:
        p = self.p
        side = stone.slots(p)
        slot = as_slot(card)
        if isinstance(card, Card):
            score = fit(stone.sides[p], stone.sides[1 - p], card, stone.size, stone.rules.types)
        else:
            score = self._wild_fit(side, slot, stone)
        pool = self._without(card)
        if self._lost(stone, [*side, slot], pool):
            # Nothing will win this stone: give it the lowest card there is.
            value = card.value if isinstance(card, Card) else 10
            return -LOST + (0.5 - value / 20)
        if len(side) + 1 == stone.size:
            stone.sides[p].append(card)
            try:
                if check_place(stone, p, pool).allowed:
                    score += CLAIMS_NOW
            finally:
                stone.sides[p].pop()
        if isinstance(card, Card) and self._feeds(card, pool):
            score -= FEEDS_PROOF
        # Middle stones take part in more runs of three adjacent stones.
        return score + 0.02 * (4 - abs(stone.number - 5))

    def _without(self, card: AnyCard) -> Pool:
        if not isinstance(card, Card):
            return self.pool
        return Pool.presorted([c for c in self.pool.desc if c != card])

    def _lost(self, stone: Stone, side: list[Slot], pool: Pool) -> bool:
        """Whether the opponent's complete side beats anything this side can become."""
        other = 1 - self.p
        if not stone.complete(other):
            return False
        theirs = evaluate(stone.slots(other), stone.rules).key
        if len(side) >= stone.size:
            return evaluate(side, stone.rules).key <= theirs
        best = best_completion(side, pool, stone.rules, beat=theirs)
        return best is None

    def _feeds(self, card: Card, pool: Pool) -> bool:
        """Whether putting `card` face-up lets the opponent claim a stone they cannot now."""
        return any(check_place(s, 1 - self.p, pool).allowed for s in self.watch)

    def _wild_fit(self, side: list[Slot], wild: Slot, stone: Stone) -> float:
        """An Elite Troop is worth playing where it completes (or nearly) a strong side."""
        best = best_completion([*side, wild], self.pool, stone.rules)
        if best is None:
            return 0.0
        kind = best.formation.type
        return 0.3 + 0.2 * int(kind) + (0.2 if len(side) >= stone.size - 1 else 0.0)

    def _mode(self, stone: Stone, card: TacticCard) -> float:
        """Mud Fight or Blind-Man's Bluff: worth it against an opponent's formation that
        beats what this side can become now, when the change turns the tables."""
        p = self.p
        if not self._lost(stone, stone.slots(p), self.pool):
            return -1.0
        if card.kind is Tactic.BLIND:
            theirs = evaluate(stone.slots(1 - p), stone.rules)
            mine = sum(c.value for c in stone.sides[p] if isinstance(c, Card))
            gaining = theirs.type > FormationType.SUM and mine >= theirs.total - 10
            return 0.7 if gaining else -1.0
        # Mud Fight reopens both sides to a fourth card.
        return 0.5 if len(stone.sides[p]) >= 2 else -1.0

    # Ruses --------------------------------------------------------------------------------------

    def _danger(self, stone: Stone) -> float:
        """How dangerous the opponent's side of a stone is, 0 to about 1."""
        other = 1 - self.p
        side = stone.slots(other)
        if not side or stone.claimed_by is not None:
            return 0.0
        best = best_completion(side, self.hidden, stone.rules)
        if best is None:
            return 0.2 * len(side)
        return (int(best.formation.type) + len(side)) / (4 + stone.size)

    def _strike(self, move: Banshee | Traitor) -> float:
        """Banshee and Traitor: take a card from the opponent's most dangerous side."""
        assert move.source is not None
        stone = self.game.stones[move.source - 1]
        score = self._danger(stone) - TACTIC_COST
        if isinstance(move, Traitor) and isinstance(move.card, Card):
            target = self.game.stones[move.target - 1]
            side = target.sides[self.p]
            score += 0.5 * fit(
                side, target.sides[1 - self.p], move.card, target.size, target.rules.types
            )
        return score

    def _rescue(self, move: Strategist) -> float:
        """The Strategist: move a card off a lost stone to where it fits."""
        assert move.source is not None
        stone = self.game.stones[move.source - 1]
        if not self._lost(stone, stone.slots(self.p), self.pool):
            return -1.0
        if move.target is None or not isinstance(move.card, Card):
            return 0.1 - TACTIC_COST
        target = self.game.stones[move.target - 1]
        gain = fit(
            target.sides[self.p],
            target.sides[1 - self.p],
            move.card,
            target.size,
            target.rules.types,
        )
        return gain - TACTIC_COST
