"""A game of Schotten Totten: setup, turns, claims, the end, and replay.

The game is a state object. `legal_moves()` lists what the player who must decide now may
do, `apply(move)` does it and returns public events, `view(player)` is what one player may
see. Steps that need no decision (drawing from the only deck, passing when no card can be
played, ending a turn with nothing left to claim) happen by themselves, so every move the
game waits for is a real choice.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from engine.cardgame import CardGame, deck_empty, game_over, not_your_turn, with_hint
from engine.cards import (
    ST1_VALUES,
    AnyCard,
    Card,
    TacticCard,
    bits_of,
    card_code,
    card_from_code,
    clan_deck,
    shuffled,
    sort_cards,
)
from engine.claims import explained
from engine.errors import ClaimRejectedError, IllegalMoveError, InvalidMoveError
from engine.events import CardDrawn, Event, NothingDrawn, Passed
from engine.moves import no_such_value, real_card_plays
from engine.outcome import Outcome, Termination
from engine.phrases import Phrase, say
from engine.proof import evaluate
from engine.rng import Rng
from engine.st1 import tactics
from engine.st1.board import (
    PLAYERS,
    ST1_TACTICS,
    STONE_RULES,
    STONES,
    Options,
    Phase,
    Stone,
    claimed_by,
    side_full,
    tactic_deck,
)
from engine.st1.claims import ClaimCheck, check_claim
from engine.st1.events import CardPlayed, StoneClaimed
from engine.st1.moves import (
    Banshee,
    Claim,
    Done,
    Draw,
    Move,
    Pass,
    Play,
    Recruit,
    Resign,
    Return,
    Strategist,
    Traitor,
    parse_move,
)

# All clan cards in the order the proof wants them (value descending), so that the pool of
# unseen cards is a filter of this list rather than a fresh sort on every move.
_CLAN_BY_VALUE = tuple(sorted(clan_deck(), key=lambda c: (-c.value, c.color.index)))


class Game(CardGame):
    """One game of Schotten Totten (any variant)."""

    kind = "st1"
    OVER = Phase.OVER
    CARDS_BY_VALUE = _CLAN_BY_VALUE
    RULE_SETS = STONE_RULES
    ALL_BITS = bits_of(_CLAN_BY_VALUE)
    NOUN = "stone"
    VERB = "claim"

    def __init__(self, options: Options, seed: int) -> None:
        """A game before the deal; use `Game.new`."""
        self.options = options
        self.seed = seed
        self.rng = Rng(seed)
        self.deck: list[Card] = []  # the top card is the last
        self.tactic_deck: list[TacticCard] = []
        self.hands: tuple[list[AnyCard], list[AnyCard]] = ([], [])
        self.stones = [Stone(n) for n in range(1, STONES + 1)]
        self.discard: list[AnyCard] = []
        self.first_player = 0
        self.turn = 0
        self.phase = Phase.PLAY
        self.clock = 0
        self.tactics_played = [0, 0]
        self.joker_played = [False, False]  # RULINGS ST1-11: one Joker each, for the game
        self.recruit_left = 0  # Recruiter draws still to make
        self.recruited: list[AnyCard] = []  # what the Recruiter drew, until the return
        self.last_claimer: int | None = None
        self.outcome: Outcome | None = None
        self.log: list[tuple[int, str]] = []
        self._claims: dict[tuple[int, int], list[int]] = {}  # keyed by (clock, player)
        self._init_caches()

    @property
    def places(self) -> list[Stone]:
        return self.stones

    # Setting up --------------------------------------------------------------------------

    @classmethod
    def new(cls, options: Options | None = None, seed: int = 0) -> Game:
        """Shuffle and deal from `seed`; the same options and seed always give the same game."""
        game = cls(options or Options(), seed)
        rng = game.rng
        first = options.first_player if options and options.first_player is not None else None
        game.first_player = rng.below(2) if first is None else first
        game.deck = shuffled(clan_deck(), rng)
        if game.options.tactics:
            game.tactic_deck = shuffled(tactic_deck(), rng)
        size = game.options.hand_size
        for _ in range(size):
            for p in PLAYERS:
                game.hands[p].append(game.deck.pop())
        game.turn = game.first_player
        game._advance([])
        return game

    # What may happen now ---------------------------------------------------------------------

    @property
    def to_decide(self) -> int | None:
        """The player whose decision the game waits for, or None when it is over."""
        return None if self.outcome is not None else self.turn

    def legal_moves(self) -> list[Move]:
        """Every move the deciding player may make now (claims listed are ones that hold)."""
        if self.outcome is not None:
            return []
        p = self.turn
        if self.phase is Phase.PLAY:
            moves: list[Move] = []
            if self.options.expert:
                moves.extend([_CLAIMS[n] for n in self.claimable(p)])
            plays = self._plays(p)
            moves += plays
            if self.options.tactics:
                moves += tactics.tactic_moves(self, p)
            if self._may_pass(p, plays):
                moves.append(_PASS)
            return moves
        if self.phase is Phase.CLAIM:
            return [*[_CLAIMS[n] for n in self.claimable(p)], *self._turn_enders(p)]
        if self.phase is Phase.DRAW:
            return [_DRAWS[d] for d in self._draw_choices(p)]
        if self.phase is Phase.RECRUIT_DRAW:
            return [_DRAWS[d] for d in self._decks_with_cards()]
        if self.phase is Phase.RECRUIT_RETURN:
            return tactics.return_moves(self, p)
        return []

    def _turn_enders(self, p: int) -> list[Move]:
        """How a claiming phase ends: the choice of deck when there is one, else `done`."""
        choices = self._draw_choices(p)
        if len(choices) > 1:
            return [_DRAWS[d] for d in choices]
        return [_DONE]

    def _open(self, p: int) -> list[int]:
        """The stones where p has room for a card."""
        return [
            s.number
            for s in self.stones
            if s.claimed_by is None and len(s.sides[p]) < s.size  # Stone.has_room, inlined
        ]

    def _plays(self, p: int) -> list[Play]:
        return real_card_plays(self.hands[p], self._open(p))

    def _can_play_clan(self, p: int) -> bool:
        return any(c.__class__ is Card for c in self.hands[p]) and any(
            s.claimed_by is None and len(s.sides[p]) < s.size for s in self.stones
        )

    def _may_pass(self, p: int, plays: Sequence[Play]) -> bool:
        # RULINGS ST1-9: pass only when no clan card can be played.
        return not plays

    def claimable(self, player: int) -> list[int]:
        """Stones `player` could claim now, were it their moment to claim."""
        key = (self.clock, player)
        found = self._claims.get(key)
        if found is None:
            if len(self._claims) > 8:
                self._claims.clear()
            found = []
            for s in self.stones:
                # `_claim_check`, inlined: this runs after every card played.
                if (
                    s.claimed_by is None
                    and len(s.sides[player]) >= s.size
                    and self._allowed(s, player)
                ):
                    found.append(s.number)
            self._claims[key] = found
        return found

    def check_claim(self, stone: int, player: int | None = None) -> ClaimCheck:
        """Whether a claim would hold, and why (for "why can't I claim?" questions)."""
        p = self.turn if player is None else player
        return check_claim(self.stone(stone), p, self.unseen())

    def _claim_check(self, stone: Stone, player: int) -> ClaimCheck:
        if stone.claimed_by is not None or not stone.complete(player):
            return _NO_CLAIM
        return self._proof(stone, player)

    # Making moves ------------------------------------------------------------------------------

    def parse_move(self, text: str, player: int | None = None) -> Move:
        """Read a move. Cards are resolved to the real ones: a Joker in the text is a Joker
        in the player's hand, and a card on the table gets its stone (`traitor G5 6` is
        `traitor 3:G5 6`), so that the log holds one canonical text per move."""
        move = parse_move(text)
        p = self.turn if player is None else player
        if isinstance(move, Play):
            move = Play(self.own_card(move.card, p), move.place)
        elif isinstance(move, Return):  # one canonical text whatever the order written
            hand = list(self.hands[p])
            own = []
            for c in move.cards:
                card = self.own_card(c, p, hand=hand)
                hand.remove(card)
                own.append(card)
            move = Return(tuple(sort_cards(own)))
        elif isinstance(move, Strategist | Banshee | Traitor):
            side = p if isinstance(move, Strategist) else 1 - p
            whose = "your" if side == p else "your opponent's"
            stone, card = tactics.find_on_side(self, move.card, side, move.source, whose)
            move = dataclasses.replace(move, card=card, source=stone.number)
        return move

    def apply(self, move: Move, player: int | None = None) -> list[Event]:
        """Apply a move for `player` (default: whoever must decide). Raises a GameError,
        changing nothing, when the move is not allowed."""
        if self.outcome is not None:
            raise IllegalMoveError(game_over())
        p = self.turn if player is None else player
        if isinstance(move, Resign):
            return self._resign(p, move)
        if p != self.turn:
            raise IllegalMoveError(not_your_turn())
        handler = _HANDLERS.get(type(move))
        if handler is None:
            raise InvalidMoveError(say("{move} is not a Schotten Totten move.", move=str(move)))
        events: list[Event] = []
        handler(self, p, move, events)  # validates, then changes
        self.clock += 1
        self.log.append((p, str(move)))
        self._advance(events)
        return events

    def _apply_play(self, p: int, move: Play, events: list[Event]) -> None:
        if self.phase is not Phase.PLAY:
            raise IllegalMoveError(self._phase_hint(say("You cannot play a card now.")))
        card = move.card
        hand = self.hands[p]
        if card.__class__ is not Card or card not in hand:  # a card in hand is a real one
            card = self.own_card(card, p)
        if isinstance(card, TacticCard):
            tactics.apply_tactic_card(self, p, card, move.place, events)
            return
        stone = self.stone(move.place)
        self._check_room(stone, p)
        hand.remove(card)
        stone.sides[p].append(card)
        stone.refresh(self.clock)
        events.append(CardPlayed(p, card, stone.number))
        self.after_play()

    def _apply_ruse(self, p: int, move: Move, events: list[Event]) -> None:
        if self.phase is not Phase.PLAY:
            raise IllegalMoveError(self._phase_hint(say("You cannot play a card now.")))
        if isinstance(move, Recruit):
            tactics.apply_recruit(self, p, move, events)
        elif isinstance(move, Strategist):
            tactics.apply_strategist(self, p, move, events)
        elif isinstance(move, Banshee):
            tactics.apply_banshee(self, p, move, events)
        elif isinstance(move, Traitor):
            tactics.apply_traitor(self, p, move, events)

    def _apply_return(self, p: int, move: Return, events: list[Event]) -> None:
        tactics.apply_return(self, p, move, events)

    def after_play(self) -> None:
        """The card of the turn is played: claims (or, in the Expert variant, the draw) next."""
        self.phase = Phase.DRAW if self.options.expert else Phase.CLAIM

    def _apply_claim(self, p: int, move: Claim, events: list[Event]) -> None:
        expert = self.options.expert
        stone = self.stone(move.stone)  # first: "there is no stone 99" whatever the phase
        if self.phase is not (Phase.PLAY if expert else Phase.CLAIM):
            if expert:
                when = say("In this game you claim stones before you play a card.")
            else:
                when = say("In this game you claim stones after you play a card.")
            raise IllegalMoveError(self._phase_hint(when))
        check = self._claim_check(stone, p)
        if not check.allowed:
            # Asked again for the reason: the refusal shows the strongest completion.
            check = check_claim(stone, p, self.unseen())
            check = explained(check, stone, p, self.unseen(), self.hands[p])
            raise ClaimRejectedError(check.reason, completion=check.completion)
        stone.claimed_by = p
        self.last_claimer = p
        assert check.formation is not None
        modes = tuple(m.kind.title for m in stone.modes)
        events.append(StoneClaimed(p, stone.number, check.formation, check.against, modes))
        self._check_win(p, events)

    def _apply_pass(self, p: int, move: Pass, events: list[Event]) -> None:
        if self.phase is not Phase.PLAY:
            raise IllegalMoveError(self._phase_hint(say("You cannot pass now.")))
        plays = self._plays(p)
        if not self._may_pass(p, plays):
            raise IllegalMoveError(
                say(
                    "You can still play a clan card, so you cannot pass; for example `{move}`.",
                    move=str(plays[0]),
                )
            )
        events.append(Passed(p, forced=False))
        self.after_play()

    def _apply_done(self, p: int, move: Done, events: list[Event]) -> None:
        if self.phase is not Phase.CLAIM:
            raise IllegalMoveError(self._phase_hint(say("You cannot end your turn now.")))
        if len(self._draw_choices(p)) > 1:
            raise IllegalMoveError(
                say("Choose a deck to draw from to end your turn: `draw clan` or `draw tactic`.")
            )
        self.phase = Phase.DRAW

    def _apply_draw(self, p: int, move: Draw, events: list[Event]) -> None:
        if self.phase is Phase.RECRUIT_DRAW:
            choices = self._decks_with_cards()
        elif self.phase in (Phase.DRAW, Phase.CLAIM):
            choices = self._draw_choices(p)
        else:
            raise IllegalMoveError(self._phase_hint(say("You cannot draw now.")))
        if move.deck not in choices:
            if not choices:
                raise IllegalMoveError(say("There is nothing to draw: your hand is full."))
            raise IllegalMoveError(deck_empty(move.deck, choices[0]))
        self._draw(p, move.deck, events)
        if self.phase is Phase.RECRUIT_DRAW:
            self.recruit_left -= 1
        else:
            self._end_turn()

    # What happens by itself --------------------------------------------------------------------

    def _advance(self, events: list[Event]) -> None:
        """Carry out every step that needs no decision, until one does or the game ends."""
        while self.outcome is None:
            p = self.turn
            if self.phase is Phase.DRAW:
                choices = self._draw_choices(p)
                if len(choices) > 1:
                    return
                if choices:
                    self._draw(p, choices[0], events)
                elif len(self.hands[p]) < self.options.hand_size:
                    events.append(NothingDrawn(p))
                self._end_turn()
            elif self.phase is Phase.CLAIM:
                if self.claimable(p):
                    return
                self.phase = Phase.DRAW
            elif self.phase is Phase.RECRUIT_DRAW:
                decks = self._decks_with_cards()
                if self.recruit_left == 0 or not decks:
                    self.recruit_left = 0
                    self.phase = Phase.RECRUIT_RETURN
                elif len(decks) > 1:
                    return
                else:
                    self._draw(p, decks[0], events)
                    self.recruit_left -= 1
            elif self.phase is Phase.RECRUIT_RETURN:
                if tactics.return_count(self, p):
                    return
                self.recruited = []
                self.after_play()
            elif self.phase is Phase.PLAY:
                if self._can_play(p):
                    return
                if self._nobody_can_move():
                    self._finish(self._stalemate(), events)
                    return
                if self.options.expert and self.claimable(p):
                    return
                events.append(Passed(p, forced=True))
                self.phase = Phase.DRAW if self.options.expert else Phase.CLAIM
            else:
                return

    def _has_choice_without_plays(self, p: int) -> bool:
        """Whether a player with no clan card to play still has a card they may play."""
        return bool(tactics.tactic_moves(self, p))

    def _can_play(self, p: int) -> bool:
        return self._can_play_clan(p) or self._has_choice_without_plays(p)

    def _nobody_can_move(self) -> bool:
        """RULINGS ST1-9: neither player can play a card nor claim a stone."""
        return all(not self._can_play(q) and not self.claimable(q) for q in PLAYERS)

    def _stalemate(self) -> Outcome:
        """RULINGS ST1-9's result, naming the rule that decided it (more stones, or equal
        stones and the last stone claimed), so the players read why the winner won."""
        counts = [sum(1 for s in self.stones if s.claimed_by == q) for q in PLAYERS]
        if counts[0] != counts[1]:
            return Outcome(0 if counts[0] > counts[1] else 1, Termination.NO_MOVES_MORE_STONES)
        if self.last_claimer is None:  # no stone was ever claimed: a draw
            return Outcome(None, Termination.NO_MOVES)
        return Outcome(self.last_claimer, Termination.NO_MOVES_LAST_CLAIM)

    def _draw_choices(self, p: int) -> list[str]:
        """Decks to refill from (rules notes R-1: only while the hand is short)."""
        if len(self.hands[p]) >= self.options.hand_size:
            return []
        return self._decks_with_cards()

    def _decks_with_cards(self) -> list[str]:
        """RULINGS ST1-10: an empty deck cannot be chosen."""
        choices = []
        if self.deck:
            choices.append("clan")
        if self.tactic_deck:
            choices.append("tactic")
        return choices

    def _draw(self, p: int, deck: str, events: list[Event]) -> None:
        card = self.deck.pop() if deck == "clan" else self.tactic_deck.pop()
        self.hands[p].append(card)
        if self.phase is Phase.RECRUIT_DRAW:
            self.recruited.append(card)
        events.append(CardDrawn(p, deck))

    def _end_turn(self) -> None:
        self.turn = 1 - self.turn
        self.phase = Phase.PLAY

    def _check_win(self, p: int, events: list[Event]) -> None:
        """RULINGS ST1-7: three adjacent stones or five stones end the game at once."""
        mine = [s.claimed_by == p for s in self.stones]
        three = [i for i in range(STONES - 2) if all(mine[i : i + 3])]
        if three:
            first = three[0] + 1
            self._finish(
                Outcome(p, Termination.THREE_ADJACENT), events, (first, first + 1, first + 2)
            )
        elif sum(mine) >= 5:
            won = tuple(i + 1 for i, m in enumerate(mine) if m)
            self._finish(Outcome(p, Termination.FIVE_STONES), events, won)

    # Checks shared by moves ---------------------------------------------------------------

    def stone(self, number: int) -> Stone:
        if not 1 <= number <= STONES:
            raise IllegalMoveError(
                say("There is no stone {stone}; stones are numbered 1 to 9.", stone=number)
            )
        return self.stones[number - 1]

    def _check_room(self, stone: Stone, p: int) -> None:
        if stone.claimed_by is not None:
            raise IllegalMoveError(claimed_by(stone.number, stone.claimed_by == p))
        if not stone.has_room(p):
            raise IllegalMoveError(side_full(stone.number, stone.size))

    def check_card(self, card: AnyCard) -> None:
        if isinstance(card, Card) and card.value not in ST1_VALUES:
            raise InvalidMoveError(no_such_value(str(card), "stone"))
        if isinstance(card, TacticCard) and card.kind not in ST1_TACTICS:
            raise InvalidMoveError(say("{card} is a Schotten Totten 2 card.", card=card.kind.title))

    def _phase_hint(self, refusal: Phrase) -> Phrase:
        """`refusal`, followed by what the player may do now."""
        match self.phase:
            case Phase.PLAY if self.options.expert:
                now = say("Now play a card or claim a stone.")
            case Phase.PLAY:
                now = say("Now play a card.")
            case Phase.CLAIM:
                now = say("Now claim stones, or say `done` to end your turn.")
            case Phase.DRAW:
                now = say("Now choose a deck to draw from: `draw clan` or `draw tactic`.")
            case Phase.RECRUIT_DRAW:
                now = say("Now draw for the Recruiter: `draw clan` or `draw tactic`.")
            case Phase.RECRUIT_RETURN:
                now = say("Now return two cards for the Recruiter, as `return R3 joker`.")
            case _:
                return refusal
        return with_hint(refusal, now)

    # Views and storage -----------------------------------------------------------------------

    def view(self, player: int | None) -> Any:
        """What `player` may see (None: what anyone watching may see)."""
        from engine.st1.view import make_view

        return make_view(self, player)

    def to_json(self) -> dict[str, Any]:
        """The whole state (hidden cards included) as JSON-ready data."""
        return {
            "game": self.kind,
            "options": self.options.to_json(),
            "seed": self.seed,
            "rng": self.rng.state,
            "first_player": self.first_player,
            "deck": [card_code(c) for c in self.deck],
            "tactic_deck": [card_code(c) for c in self.tactic_deck],
            "hands": [[card_code(c) for c in h] for h in self.hands],
            "stones": [
                {
                    "sides": [[card_code(c) for c in side] for side in s.sides],
                    "modes": [card_code(c) for c in s.modes],
                    "claimed_by": s.claimed_by,
                    "completed_at": list(s.completed_at),
                }
                for s in self.stones
            ],
            "discard": [card_code(c) for c in self.discard],
            "turn": self.turn,
            "phase": self.phase.value,
            "clock": self.clock,
            "tactics_played": list(self.tactics_played),
            "joker_played": list(self.joker_played),
            "recruit_left": self.recruit_left,
            "recruited": [card_code(c) for c in self.recruited],
            "last_claimer": self.last_claimer,
            "outcome": self.outcome.to_json() if self.outcome else None,
            "log": [[p, text] for p, text in self.log],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        game = cls(Options.from_json(data["options"]), int(data["seed"]))
        game.rng.state = int(data["rng"])
        game.first_player = int(data["first_player"])
        # The codes are what `to_json` wrote from these very lists: each holds the kind it held.
        game.deck = [card_from_code(c) for c in data["deck"]]  # type: ignore[misc]
        game.tactic_deck = [card_from_code(c) for c in data["tactic_deck"]]  # type: ignore[misc]
        game.hands = tuple([card_from_code(c) for c in h] for h in data["hands"])  # type: ignore[assignment]
        for stone, s in zip(game.stones, data["stones"], strict=True):
            stone.sides = tuple([card_from_code(c) for c in side] for side in s["sides"])  # type: ignore[assignment]
            stone.set_modes([card_from_code(c) for c in s["modes"]])  # type: ignore[misc]
            stone.claimed_by = s["claimed_by"]
            stone.completed_at = list(s["completed_at"])
        game.discard = [card_from_code(c) for c in data["discard"]]
        game.turn = int(data["turn"])
        game.phase = Phase(data["phase"])
        game.clock = int(data["clock"])
        game.tactics_played = list(data["tactics_played"])
        game.joker_played = [bool(x) for x in data["joker_played"]]
        game.recruit_left = int(data["recruit_left"])
        # Games stored before the Recruiter's draws were kept have none to mark.
        game.recruited = [card_from_code(c) for c in data.get("recruited", [])]
        game.last_claimer = data["last_claimer"]
        game.outcome = Outcome.from_json(data["outcome"]) if data["outcome"] else None
        game.log = [(int(p), str(t)) for p, t in data["log"]]
        return game

    def formation(self, stone: int, player: int) -> Any:
        """The formation a complete side makes (wild cards at their best), or None."""
        s = self.stone(stone)
        return evaluate(s.slots(player), s.rules) if s.complete(player) else None


_NO_CLAIM = ClaimCheck(False, "")

# Moves listed again and again, made once.
_CLAIMS = tuple(Claim(n) for n in range(STONES + 1))  # by stone number (0 unused)
_DRAWS = {d: Draw(d) for d in ("clan", "tactic")}
_PASS = Pass()
_DONE = Done()

# How `apply` carries out each kind of move.
_HANDLERS: dict[type, Callable[[Game, int, Any, list[Event]], None]] = {
    Play: Game._apply_play,
    Claim: Game._apply_claim,
    Pass: Game._apply_pass,
    Done: Game._apply_done,
    Draw: Game._apply_draw,
    Recruit: Game._apply_ruse,
    Return: Game._apply_return,
    Strategist: Game._apply_ruse,
    Banshee: Game._apply_ruse,
    Traitor: Game._apply_ruse,
}
