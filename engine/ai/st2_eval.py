"""How good a Schotten Totten 2 position is for one player: the chance they win it.

Only what that player may see is used. Each wall tile gets the chance that the Attacker
takes it: 1 once their complete side is proved (RULINGS ST2-4), else from the outlooks of
both sides under the tile's rules (`engine.ai.outlook`), lowered when the Attacker has too
few turns left to fill the side before the deck runs out (RULINGS ST2-8). Taken as
independent, the tiles give the chance of damaging a fourth tile or taking a damaged one
(RULINGS ST2-7); the Defender's chance is the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.outlook import Dist, Palette, Supply, split_supplies, win_chance
from engine.cards import ST2_COLORS, ST2_VALUES, AnyCard, Card, siege_deck
from engine.claims import check_place
from engine.formations import FormationRules
from engine.proof import Pool, evaluate
from engine.st2.board import DAMAGED_TO_WIN, Phase, Tile
from engine.st2.game import Game

PALETTE = Palette(ST2_COLORS, tuple(ST2_VALUES))
_SIEGE_CODES = [c.code for c in siege_deck()]


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's few tunable numbers."""

    hand: float = 0.7  # availability of a card in one's own hand (it may be needed elsewhere)
    reach: float = 0.6  # share of the cards still to be drawn that arrive while they matter
    tiles: float = 0.2  # weight of the tiles' mean chance beside the chance to win
    pace: float = 2.0  # Attacker turns needed per missing card, for the time left


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
        self._pools: dict[int, tuple[Pool, frozenset[int]]] = {}

    def supplies(self, game: Game, hand: Sequence[AnyCard] | None = None) -> tuple[Supply, Supply]:
        """Availabilities of siege cards for p and for the opponent, as p sees them.

        `hand` replaces p's hand, to judge a position before the cards drawn after it.
        """
        p, w = self.p, self.weights
        seen = game.unseen().codes  # siege cards neither on the wall nor discarded
        held = game.hands[p] if hand is None else hand
        mine = frozenset(c.code for c in held if isinstance(c, Card))
        hidden = tuple(code for code in _SIEGE_CODES if code in seen and code not in mine)
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
        """For each tile, the chance that the Attacker takes it."""
        me, op = self.supplies(game, hand)
        att, dfn = (me, op) if self.p == game.attacker else (op, me)
        pool = game.unseen()
        played = game.phase in (Phase.AFTER_PLAY, Phase.DRAW)
        turns = attacker_turns(game, played=played)
        return [self.tile(game, t, att, dfn, pool, turns) for t in game.tiles]

    def value(self, game: Game, hand: Sequence[AnyCard] | None = None) -> float:
        """The chance that p wins, as p sees the game (1 or 0 once it is over)."""
        if game.outcome is not None:
            w = game.outcome.winner
            return 0.5 if w is None else 1.0 if w == self.p else 0.0
        return self.combine(game, self.chances(game, hand))

    def combine(self, game: Game, chances: Sequence[float]) -> float:
        """From each tile's chance, p's chance of winning, blended with the tiles' mean
        chance so that a lost or won game still tells better moves from worse."""
        attack = assault(chances, [t.damaged for t in game.tiles], game.damaged_tiles)
        mean = sum(chances) / len(chances)
        blend = (1.0 - self.weights.tiles) * attack + self.weights.tiles * mean
        return blend if self.p == game.attacker else 1.0 - blend

    def tile(
        self, game: Game, tile: Tile, att: Supply, dfn: Supply, pool: Pool, turns: int
    ) -> float:
        """The chance that the Attacker takes this tile, with `turns` turns left to do it
        (`attacker_turns`); a side proved now is taken at once."""
        a, d = game.attacker, game.defender
        a_done, d_done = tile.complete(a), tile.complete(d)
        if a_done and d_done:
            ka = evaluate(tile.slots(a), tile.rules).key
            kd = evaluate(tile.slots(d), tile.rules).key
            if ka > kd or (ka == kd and tile.first_complete() == a):
                return 1.0
            return 0.0  # only a retreat and a new formation can still take it
        if a_done and self._provable(tile, a, pool):
            now = game.turn == a and game.phase is not Phase.DRAW
            return 1.0 if now or turns > 0 else 0.0
        if turns <= 0:
            return 0.0
        mine = att.outlook(tile.slots(a), tile.rules)
        theirs = dfn.outlook(tile.slots(d), tile.rules)
        tie = 1.0 if a_done else 0.0 if d_done else 0.5
        key = (id(mine), id(theirs), tie)
        found = self._duels.get(key)
        if found is None:
            if len(self._duels) > 50000:
                self._duels.clear()
            found = self._duels[key] = (mine, theirs, win_chance(mine, theirs, tie))
        chance = found[2]
        # The deck is the clock: a side that needs more turns than are left is lost. Against
        # an incomplete side, a complete one still waits for its proof.
        need = tile.size - len(tile.sides[a]) + (0 if d_done else 1)
        return chance * min(1.0, turns / (self.weights.pace * need))

    def _signature(self, pool: Pool) -> frozenset[int]:
        found = self._pools.get(id(pool))
        if found is None:
            if len(self._pools) > 4096:
                self._pools.clear()
            found = self._pools[id(pool)] = (pool, frozenset(pool.codes))
        return found[1]

    def _provable(self, tile: Tile, owner: int, pool: Pool) -> bool:
        key: tuple[object, ...] = (tuple(tile.sides[0]), tuple(tile.sides[1]), tile.rules, owner)
        key += (self._signature(pool),)
        found = self._proofs.get(key)
        if found is None:
            if len(self._proofs) > 20000:
                self._proofs.clear()
            found = self._proofs[key] = check_place(tile, owner, pool).allowed
        return found


def attacker_turns(game: Game, *, played: bool) -> int:
    """The Attacker's turns still to come before the deck runs out (RULINGS ST2-8, README
    R-13: the player who must draw from an empty deck ends the game), counting the current
    one if the Attacker is on turn and has not played yet."""
    d = len(game.deck)
    if game.turn == game.attacker:
        return d // 2 + (0 if played else 1)
    return 1 + (d - 1) // 2 if d >= 1 else 0  # after the Defender's own draw


def assault(chances: Sequence[float], damaged: Sequence[bool], already: int) -> float:
    """P(the Attacker damages a fourth tile or takes a damaged one), tiles independent."""
    hold = 1.0  # P(no damaged tile is taken)
    counts = [1.0]  # P(exactly j more tiles damaged)
    for q, was_damaged in zip(chances, damaged, strict=True):
        if was_damaged:
            hold *= 1.0 - q
            continue
        nxt = [0.0] * (len(counts) + 1)
        for j, w in enumerate(counts):
            nxt[j] += w * (1.0 - q)
            nxt[j + 1] += w * q
        counts = nxt
    short = sum(w for j, w in enumerate(counts) if already + j < DAMAGED_TO_WIN)
    return 1.0 - hold * short
