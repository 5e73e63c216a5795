"""Schotten Totten 2, judged one move deep: the search's ranking of moves and its rules.

`rank_moves` scores every move of the player to decide by `st2_eval`'s chance of winning
after it. Plays of a card are judged without running the engine (the card is put on the
tile and the tile judged again); a preparation (retreat, oil) is judged by the best play
that can follow it; actions are tried on a copy of the game. `auto_move` makes the moves
that need no weighing: declare control whenever it holds (the Attacker, RULINGS ST2-7),
end the turn, choose the deck to draw from. `quick_order` is a cheap ordering for moves
deep in a search. Only what the deciding player may see changes a score.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.outlook import Supply
from engine.ai.sides import SideFacts
from engine.ai.st2_eval import Evaluator, attacker_turns
from engine.cards import AnyCard, Card, TacticCard
from engine.formations import FormationRules, FormationType
from engine.moves import Done, Draw, Pass, Play
from engine.proof import Pool
from engine.st2.board import Phase, Tile
from engine.st2.game import Game
from engine.st2.moves import Control, Exchange, Give, Move, Oil, Retreat

_MIN_SIEGE_FOR_TACTIC = 4
LOST_TILE = 0.15  # below this chance a tile of the Attacker's is worth a retreat


def auto_move(game: Game, moves: Sequence[Move]) -> Move | None:
    """The move made by rule, or None when the moves must be weighed."""
    if len(moves) == 1:
        return moves[0]
    for m in moves:
        if isinstance(m, Control):
            return m
    if game.phase in (Phase.AFTER_PLAY, Phase.DRAW):
        decks = [m.deck for m in moves if isinstance(m, Draw)]
        if decks:
            want = draw_choice(game, game.turn)
            return Draw(want if want in decks else decks[0])
        for m in moves:
            if isinstance(m, Done):
                return m
    return None


def draw_choice(game: Game, p: int) -> str:
    """Which deck to draw from (Tactical variant): a tactic card when holding none. The
    siege deck is the clock (RULINGS ST2-8), so the Attacker, who is short of time, also
    takes tactic cards while holding enough siege cards."""
    hand = game.hands[p]
    tactic = sum(1 for c in hand if isinstance(c, TacticCard))
    siege = len(hand) - tactic
    limit = 2 if p == game.attacker else 1
    return "tactic" if tactic < limit and siege >= _MIN_SIEGE_FOR_TACTIC else "siege"


def rank_moves(
    game: Game, moves: Sequence[Move], judge: Evaluator | None = None
) -> list[tuple[float, Move]]:
    """Moves worth weighing with the deciding player's chance of winning after each, best
    first. Retreats and oil are weighed only where a simple test says they may help."""
    p = game.to_decide
    assert p is not None
    judge = judge if judge is not None and judge.p == p else Evaluator(p)
    if game.phase is Phase.EXCHANGE:
        scored: list[tuple[float, Move]] = [
            (_after_give(game, judge, m), m) for m in moves if isinstance(m, Give)
        ]
    else:
        scored = _judge(game, judge, moves)
    scored.sort(key=lambda t: -t[0])
    return scored


def best_move(game: Game, moves: Sequence[Move], judge: Evaluator | None = None) -> Move:
    chosen = auto_move(game, moves)
    if chosen is not None:
        return chosen
    return rank_moves(game, moves, judge)[0][1]


def _judge(game: Game, judge: Evaluator, moves: Sequence[Move]) -> list[tuple[float, Move]]:
    p = judge.p
    hand = list(game.hands[p])
    pool = game.unseen()
    bases: dict[AnyCard, tuple[Supply, Supply, Pool, list[float]]] = {}
    now = judge.chances(game)
    out: list[tuple[float, Move]] = []
    prepare = [m for m in moves if isinstance(m, Retreat | Oil)]
    for move in moves:
        if isinstance(move, Play) and not _meets_counterpart(game, p, move):
            card = move.card
            base = bases.get(card)
            if base is None:
                base = bases[card] = _without(game, judge, hand, card, pool)
            att, dfn, card_pool, chances = base
            tile = game.tiles[move.place - 1]
            chances = list(chances)
            chances[tile.number - 1] = _with_card(game, judge, tile, card, att, dfn, card_pool)
            out.append((judge.combine(game, chances), move))
        elif isinstance(move, Retreat | Oil):
            if _worth_preparing(game, move, now, len(prepare) == len(moves)):
                out.append((_after_preparing(game, judge, move, hand), move))
        elif isinstance(move, Pass):
            out.append((judge.combine(game, now), move))
        elif isinstance(move, Exchange):
            # Three cards for three unknown ones: only when nothing else is worth more.
            out.append((judge.combine(game, now) - 0.01, move))
        else:
            out.append((_after_on_copy(game, judge, move, hand), move))
    if not out:  # nothing passed the tests: weigh every move there is
        out = [(_after_on_copy(game, judge, m, hand), m) for m in moves]
    return out


def _meets_counterpart(game: Game, p: int, move: Play) -> bool:
    """Whether a 0 or 11 lands opposite its counterpart (RULINGS ST2-5): the engine's job."""
    card = move.card
    if not isinstance(card, Card) or card.value not in (0, 11):
        return False
    return Card(card.color, 11 - card.value) in game.tiles[move.place - 1].sides[1 - p]


def _without(
    game: Game, judge: Evaluator, hand: list[AnyCard], card: AnyCard, pool: Pool
) -> tuple[Supply, Supply, Pool, list[float]]:
    rest = list(hand)
    rest.remove(card)
    me, op = judge.supplies(game, rest)
    att, dfn = (me, op) if judge.p == game.attacker else (op, me)
    if isinstance(card, Card):
        pool = Pool.presorted([c for c in pool.desc if c != card])
    turns = attacker_turns(game, played=True)
    chances = [judge.tile(game, t, att, dfn, pool, turns) for t in game.tiles]
    return att, dfn, pool, chances


def _with_card(
    game: Game,
    judge: Evaluator,
    tile: Tile,
    card: AnyCard,
    att: Supply,
    dfn: Supply,
    pool: Pool,
) -> float:
    saved = list(tile.completed_at)
    tile.sides[judge.p].append(card)
    tile.refresh(10**9)  # completed now, after anything already complete
    try:
        return judge.tile(game, tile, att, dfn, pool, attacker_turns(game, played=True))
    finally:
        tile.sides[judge.p].pop()
        tile.completed_at = saved
        tile.touch()


def _worth_preparing(game: Game, move: Retreat | Oil, chances: list[float], only: bool) -> bool:
    """Retreat from one tile the Attacker is losing; oil a tile the Attacker threatens."""
    if only:
        return len(move.tiles) == 1 if isinstance(move, Retreat) else True
    if isinstance(move, Retreat):
        return len(move.tiles) == 1 and chances[move.tiles[0] - 1] < LOST_TILE
    return chances[move.tile - 1] >= 0.3


def _after_preparing(game: Game, judge: Evaluator, move: Move, hand: list[AnyCard]) -> float:
    """A preparation is worth the best play that can follow it."""
    copy = Game.from_json(game.to_json())
    copy.apply(move)
    if copy.is_over or copy.to_decide != judge.p or copy.phase is not Phase.PLAY:
        kept = [c for c in copy.hands[judge.p] if c in hand]
        return judge.value(copy, kept)
    follow = [m for m in copy.legal_moves() if isinstance(m, Play | Pass)]
    if not follow:
        return judge.value(copy)
    return max(v for v, _ in _judge(copy, judge, follow))


def _after_on_copy(game: Game, judge: Evaluator, move: Move, hand: list[AnyCard]) -> float:
    """A move tried on a copy of the game, judged before the cards drawn after it."""
    copy = Game.from_json(game.to_json())
    copy.apply(move)
    kept = [c for c in copy.hands[judge.p] if c in hand]
    return judge.value(copy, kept)


def _after_give(game: Game, judge: Evaluator, move: Give) -> float:
    rest = list(game.hands[judge.p])
    for c in move.cards:
        rest.remove(c)
    return judge.value(game, rest)


# A cheap ordering, for moves deep in a search ----------------------------------------------------


def quick_order(game: Game, moves: Sequence[Move]) -> list[Move]:
    """Moves best first by a rough score that needs no outlook."""
    p = game.to_decide
    assert p is not None
    sides: dict[int, Side] = {}
    scored = [(_quick_score(game, p, m, sides), i, m) for i, m in enumerate(moves)]
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [m for _, _, m in scored]


def _quick_score(game: Game, p: int, move: Move, sides: dict[int, Side]) -> float:
    """`move`'s rough score; `sides` keeps each tile's `Side` for the other moves judged."""
    if move.__class__ is Play:
        card = move.card
        if card.__class__ is not Card:
            return 0.7
        side = sides.get(move.place)
        if side is None:
            tile = game.tiles[move.place - 1]
            side = sides[tile.number] = Side(tile.sides[p], tile.sides[1 - p], tile.rules)
        return side.fit(card)
    if isinstance(move, Control):
        return 10.0
    if isinstance(move, Give):  # give away what fits least
        return -sum(usefulness(game, p, c) for c in move.cards)
    if isinstance(move, Retreat):
        return -0.5 * len(move.tiles)
    if isinstance(move, Oil):
        return 0.25 * len(game.tiles[move.tile - 1].sides[game.attacker])
    return 0.2 if isinstance(move, Pass | Done | Draw) else 0.4


class Side(SideFacts):
    """What `fit` needs to know of a tile's side, worked out once for every card it judges."""

    __slots__ = ("rules",)

    def __init__(
        self, side: Sequence[AnyCard], other: Sequence[AnyCard], rules: FormationRules
    ) -> None:
        super().__init__(side, other, rules.size)
        self.rules = rules

    def fit(self, card: Card) -> float:
        """How well `card` goes with the cards already on the side under the tile's rules."""
        rules = self.rules
        types = rules.types
        v = card.value
        if rules.lower_sum_wins:
            score = 0.2 + (11 - v) / 15
        elif types == _SUM_ONLY:
            score = 0.2 + v / 15
        else:
            high = v / 35
            values = self.values
            if not values:
                score = 0.35 + high
            else:
                mono = self.color is card.color
                lo = v if v < self.lo else self.lo
                hi = v if v > self.hi else self.hi
                runs = v not in values and hi - lo < rules.size
                if runs and mono and FormationType.COLOR_RUN in types:
                    score = 1.0
                elif self.same == v and FormationType.SAME_STRENGTH in types:
                    score = 0.85 + high
                elif mono and FormationType.COLOR in types:
                    score = 0.6 + high
                elif runs and FormationType.RUN in types:
                    score = 0.5 + high / 2
                else:
                    score = 0.1 + high / 2
        if self.done:
            score -= 0.2  # the other side is done: little left to gain here
        return score


_SUM_ONLY = frozenset({FormationType.SUM})


def usefulness(game: Game, p: int, card: AnyCard) -> float:
    """How well a card fits the best tile it could go to (tactic cards count as good)."""
    if isinstance(card, TacticCard):
        return 1.2
    return max(
        (fit(t.sides[p], t.sides[1 - p], card, t.rules) for t in game.tiles if t.has_room(p)),
        default=0.0,
    )


def fit(
    side: Sequence[AnyCard], other: Sequence[AnyCard], card: Card, rules: FormationRules
) -> float:
    """How well `card` goes with the cards already on a side under the tile's rules."""
    return Side(side, other, rules).fit(card)
