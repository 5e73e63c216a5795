"""The Schotten Totten heuristic: judge each move by the position it leaves, one move deep.

`rank_moves` scores every move of the player to decide by `st1_eval`'s chance of winning
after it. Plays of a card (clan card, Elite Troop or Combat Mode) are judged without
running the engine: the card is put on the stone, the stone is judged again, and the
supplies without that card are shared by every stone it could go to. Ruses are tried on a
copy of the game. Some decisions are made by rule, without weighing (`auto_move`): claim
every stone that can be claimed, end the turn, choose the deck to draw from.

Only what the player may see is used; a world's hidden cards never change a score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from engine.ai.outlook import Supply
from engine.ai.sides import SideFacts
from engine.ai.st1_eval import Evaluator
from engine.cards import AnyCard, Card, TacticCard
from engine.moves import Done, Draw, Pass, Play
from engine.proof import Pool
from engine.st1.board import MODES, Phase, Stone, as_slot
from engine.st1.game import Game
from engine.st1.moves import Claim, Move, Recruit, Return

# Drawing: a tactic card while holding none and enough clan cards to keep playing.
_MIN_CLAN_FOR_TACTIC = 4


def auto_move(game: Game, moves: Sequence[Move]) -> Move | None:
    """The move made by rule, or None when the moves must be weighed.

    Claiming is never wrong (a claim that holds only closes a won stone), so every claim
    is made; then the turn ends, drawing by `draw_choice`.
    """
    if len(moves) == 1:
        return moves[0]
    for m in moves:
        if isinstance(m, Claim):
            return m
    if game.phase in (Phase.CLAIM, Phase.DRAW, Phase.RECRUIT_DRAW):
        decks = [m.deck for m in moves if isinstance(m, Draw)]
        if decks:
            want = draw_choice(game, game.turn)
            return Draw(want if want in decks else decks[0])
        for m in moves:
            if isinstance(m, Done):
                return m
    return None


def draw_choice(game: Game, p: int) -> str:
    """Which deck to draw from (Tactics variant): a tactic card when holding none."""
    hand = game.hands[p]
    tactic = sum(1 for c in hand if isinstance(c, TacticCard))
    clan = len(hand) - tactic
    return "tactic" if tactic == 0 and clan >= _MIN_CLAN_FOR_TACTIC else "clan"


def rank_moves(
    game: Game, moves: Sequence[Move], judge: Evaluator | None = None
) -> list[tuple[float, Move]]:
    """Each move with the deciding player's chance of winning after it, best first."""
    p = game.turn
    judge = judge if judge is not None and judge.p == p else Evaluator(p)
    if game.phase is Phase.RECRUIT_RETURN:
        scored: list[tuple[float, Move]] = [
            (_after_return(game, judge, m), m) for m in moves if isinstance(m, Return)
        ]
    else:
        scored = _judge(game, judge, moves)
    scored.sort(key=lambda t: -t[0])
    return scored


def best_move(game: Game, moves: Sequence[Move], judge: Evaluator | None = None) -> Move:
    """The heuristic's move: by rule when there is one, else the best-ranked move."""
    chosen = auto_move(game, moves)
    if chosen is not None:
        return chosen
    return rank_moves(game, moves, judge)[0][1]


def _judge(game: Game, judge: Evaluator, moves: Sequence[Move]) -> list[tuple[float, Move]]:
    p = judge.p
    hand = list(game.hands[p])
    pool = game.unseen()
    _, op = judge.supplies(game)
    bases: dict[AnyCard, tuple[Supply, Pool, list[float]]] = {}
    still: float | None = None  # the position as it is, for moves that place nothing
    out: list[tuple[float, Move]] = []
    for move in moves:
        if isinstance(move, Play):
            card = move.card
            base = bases.get(card)
            if base is None:
                base = bases[card] = _without(game, judge, hand, card, op, pool)
            me, card_pool, chances = base
            stone = game.stones[move.place - 1]
            chances = list(chances)
            chances[stone.number - 1] = _with_card(judge, stone, card, me, op, card_pool)
            out.append((judge.combine(chances), move))
        elif isinstance(move, Pass | Recruit):
            if still is None:
                still = judge.value(game)
            # The Recruiter places nothing but swaps cards: a little better than passing.
            out.append((still + (0.01 if isinstance(move, Recruit) else 0.0), move))
        else:
            out.append((_after_on_copy(game, judge, move, hand), move))
    return out


def _without(
    game: Game, judge: Evaluator, hand: list[AnyCard], card: AnyCard, op: Supply, pool: Pool
) -> tuple[Supply, Pool, list[float]]:
    """Supplies, pool and stone chances once `card` has left the hand."""
    rest = list(hand)
    rest.remove(card)
    me, _ = judge.supplies(game, rest)
    if isinstance(card, Card):
        # Face-up, the card no longer completes anything in a proof (RULINGS ST1-4).
        pool = Pool.presorted([c for c in pool.desc if c != card])
    chances = [judge.stone(s, me, op, pool) for s in game.stones]
    return me, pool, chances


def _with_card(
    judge: Evaluator, stone: Stone, card: AnyCard, me: Supply, op: Supply, pool: Pool
) -> float:
    """The stone's chance with the card played there, the stone restored afterwards."""
    p = judge.p
    saved = list(stone.completed_at)
    if isinstance(card, TacticCard) and card.kind in MODES:
        modes = list(stone.modes)
        stone.set_modes([*modes, card])
        stone.refresh(10**9)
        try:
            return judge.stone(stone, me, op, pool)
        finally:
            stone.set_modes(modes)
            stone.completed_at = saved
            stone.touch()
    as_slot(card)  # only cards that stand on a side get here
    stone.sides[p].append(card)
    stone.refresh(10**9)  # completed now, after anything already complete
    try:
        return judge.stone(stone, me, op, pool)
    finally:
        stone.sides[p].pop()
        stone.completed_at = saved
        stone.touch()


def _after_on_copy(game: Game, judge: Evaluator, move: Move, hand: list[AnyCard]) -> float:
    """A ruse tried on a copy of the game, judged before the cards drawn after it."""
    copy = Game.from_json(game.to_json())
    copy.apply(move)
    kept = [c for c in copy.hands[judge.p] if c in hand]
    return judge.value(copy, kept)


def _after_return(game: Game, judge: Evaluator, move: Return) -> float:
    rest = list(game.hands[judge.p])
    for c in move.cards:
        rest.remove(c)
    return judge.value(game, rest)


# A cheap ordering, for moves deep in a search ----------------------------------------------------


def quick_order(game: Game, moves: Sequence[Move]) -> list[Move]:
    """Moves best first by a rough score that needs no outlook: how well a card fits the
    cards already on its side. Searches use it to choose which moves to look at."""
    p = game.turn
    sides: dict[int, Side] = {}
    scored = [(_quick_score(game, p, m, sides), i, m) for i, m in enumerate(moves)]
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [m for _, _, m in scored]


def _quick_score(game: Game, p: int, move: Move, sides: dict[int, Side]) -> float:
    """`move`'s rough score; `sides` keeps each stone's `Side` for the other moves judged."""
    if move.__class__ is Play:
        card = move.card
        if card.__class__ is Card:
            side = sides.get(move.place)
            if side is None:
                stone = game.stones[move.place - 1]
                side = sides[stone.number] = Side(
                    stone.sides[p], stone.sides[1 - p], stone.size, stone.rules.types
                )
            return side.fit(card)
        # Not a Card (checked by class above, for speed), so AnyCard's other member.
        return 0.3 if cast(TacticCard, card).kind in MODES else 0.7
    if isinstance(move, Claim):
        return 10.0
    if isinstance(move, Return):  # keep the best cards: give back the lowest
        return -sum(c.value if isinstance(c, Card) else 10 for c in move.cards) / 10
    return 0.2 if isinstance(move, Pass | Done | Draw) else 0.4


class Side(SideFacts):
    """What `fit` needs to know of a stone's side, worked out once for every card it judges."""

    __slots__ = ("size", "sums")

    def __init__(
        self, side: Sequence[AnyCard], other: Sequence[AnyCard], size: int, types: frozenset[object]
    ) -> None:
        super().__init__(side, other, size)
        self.size = size
        self.sums = len(types) == 1

    def fit(self, card: Card) -> float:
        """How well `card` goes with the cards already on the side, roughly 0 to 1."""
        v = card.value
        high = v / 30
        values = self.values
        if self.sums:  # sums only: high cards
            score = 0.2 + 2 * high
        elif not values:
            score = 0.35 + high
        else:
            mono = self.color is card.color
            lo = v if v < self.lo else self.lo
            hi = v if v > self.hi else self.hi
            runs = v not in values and hi - lo < self.size
            if runs and mono:
                score = 1.0
            elif self.same == v:
                score = 0.85 + high
            elif mono:
                score = 0.6 + high
            elif runs:
                score = 0.5 + high / 2
            else:
                score = 0.1 + high / 2
        if self.done:
            score -= 0.2  # the other side is done: little left to gain here
        return score


def fit(
    side: Sequence[AnyCard],
    other: Sequence[AnyCard],
    card: Card,
    size: int,
    types: frozenset[object],
) -> float:
    """How well `card` goes with the cards already on a side, roughly 0 to 1."""
    return Side(side, other, size, types).fit(card)
