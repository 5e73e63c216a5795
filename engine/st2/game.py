"""A game of Schotten Totten 2: the siege of a castle wall.

The same calls as Schotten Totten: `new(options, seed)`, `legal_moves()`, `apply(move)`,
`view(player)`, `to_json()` / `from_json()`, `replay(...)`. Seats 0 and 1 are the players;
`attacker` says which seat attacks (the Attacker takes the first turn). As in Schotten
Totten, steps that need no decision happen by themselves.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations
from typing import Any

from engine.cardgame import CardGame, deck_empty, game_over, not_your_turn, with_hint
from engine.cards import (
    ST2_VALUES,
    AnyCard,
    Card,
    TacticCard,
    bits_of,
    card_code,
    card_from_code,
    shuffled,
    siege_deck,
    sort_cards,
)
from engine.claims import ClaimCheck, check_place, explained
from engine.errors import ClaimRejectedError, IllegalMoveError, InvalidMoveError
from engine.events import CardDrawn, Event, Passed
from engine.moves import Done, Draw, Pass, Play, Resign, no_such_value, real_card_plays
from engine.outcome import Outcome, Termination
from engine.phrases import Phrase, say
from engine.proof import evaluate
from engine.rng import Rng
from engine.st2 import tactics
from engine.st2.board import (
    CAULDRONS,
    DAMAGED_TO_WIN,
    PLAYERS,
    ST2_TACTICS,
    TILE_RULES,
    TILES,
    Options,
    Phase,
    Tile,
    tactic_deck,
)
from engine.st2.events import (
    CardPlayed,
    ChickenVersusChef,
    ControlDeclared,
    OilThrown,
    Retreated,
)
from engine.st2.moves import (
    Control,
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
    parse_move,
)

# Siege cards in the order the proof wants them (value descending, then colour).
_SIEGE_BY_VALUE = tuple(sorted(siege_deck(), key=lambda c: (-c.value, c.color.index)))


class Game(CardGame):
    """One game of Schotten Totten 2 (base or Tactical variant)."""

    kind = "st2"
    OVER = Phase.OVER
    CARDS_BY_VALUE = _SIEGE_BY_VALUE
    ALL_BITS = bits_of(_SIEGE_BY_VALUE)
    NOUN = "tile"
    VERB = "take"
    RULE_SETS = tuple(dict.fromkeys(rules for tile in TILE_RULES for rules in tile))

    def __init__(self, options: Options, seed: int) -> None:
        """A game before the deal; use `Game.new`."""
        self.options = options
        self.seed = seed
        self.rng = Rng(seed)
        self.attacker = 0
        self.deck: list[Card] = []  # the top card is the last
        self.tactic_deck: list[TacticCard] = []
        self.hands: tuple[list[AnyCard], list[AnyCard]] = ([], [])
        self.tiles = [Tile(n) for n in range(1, TILES + 1)]
        self.discard: list[AnyCard] = []
        self.actions: tuple[list[TacticCard], list[TacticCard]] = ([], [])  # played actions
        self.cauldrons = CAULDRONS
        self.turn = 0
        self.phase = Phase.PREPARE
        self.clock = 0
        self.tactics_played = [0, 0]
        # Exchange: whose choice is owed, and the cards the first chooser set aside.
        self.exchange_giver: int | None = None
        self.exchange_first: list[AnyCard] = []
        # The last tile taken and the cards that were on it (public: they lay face-up), so
        # that the final board can show the cards that won the game (issue 13).
        self.last_taken: tuple[int, tuple[list[AnyCard], list[AnyCard]]] | None = None
        self.outcome: Outcome | None = None
        self.log: list[tuple[int, str]] = []
        self._controls: dict[int, list[int]] = {}  # keyed by clock
        self._init_caches()

    @property
    def places(self) -> list[Tile]:
        return self.tiles

    @property
    def defender(self) -> int:
        return 1 - self.attacker

    # Setting up ----------------------------------------------------------------------------------

    @classmethod
    def new(cls, options: Options | None = None, seed: int = 0) -> Game:
        """Shuffle and deal from `seed`; the same options and seed always give the same game."""
        game = cls(options or Options(), seed)
        rng = game.rng
        chosen = game.options.attacker
        game.attacker = rng.below(2) if chosen is None else chosen
        game.deck = shuffled(siege_deck(), rng)
        if game.options.tactics:
            game.tactic_deck = shuffled(tactic_deck(), rng)
        for _ in range(game.options.hand_size):
            for p in PLAYERS:
                game.hands[p].append(game.deck.pop())
        game.turn = game.attacker  # the Attacker takes the first turn
        game._advance([])
        return game

    # What may happen now -------------------------------------------------------------------------

    @property
    def to_decide(self) -> int | None:
        """The player whose decision the game waits for: usually the player on turn, but the
        other player during their half of an Exchange."""
        if self.outcome is not None:
            return None
        if self.phase is Phase.EXCHANGE and self.exchange_giver is not None:
            return self.exchange_giver
        return self.turn

    @property
    def damaged_tiles(self) -> int:
        return sum(1 for t in self.tiles if t.damaged)

    def legal_moves(self) -> list[Move]:
        if self.outcome is not None:
            return []
        p = self.turn
        attacking = p == self.attacker
        moves: list[Move] = []
        if self.phase is Phase.EXCHANGE:
            giver = self.to_decide
            assert giver is not None
            return [
                Give(c)
                for c in combinations(sort_cards(self.hands[giver]), self._give_count(giver))
            ]
        if self.phase in (Phase.PREPARE, Phase.PLAY):
            if attacking:
                moves.extend([_CONTROLS[n] for n in self.controllable()])
            if self.phase is Phase.PREPARE:
                moves.extend(self._preparations(p))
            plays = self._plays(p)
            moves += plays
            if self.options.tactics:
                moves += tactics.tactic_moves(self, p)
            if self._may_pass(p, plays):
                moves.append(_PASS)
            return moves
        if self.phase is Phase.AFTER_PLAY:
            return [*[_CONTROLS[n] for n in self.controllable()], *self._turn_enders(p)]
        if self.phase is Phase.DRAW:
            return [_DRAWS[d] for d in self._draw_choices(p)]
        return []

    def _preparations(self, p: int) -> list[Move]:
        if p == self.attacker:
            held = [t.number for t in self.tiles if t.sides[p]]
            return [Retreat(c) for r in range(1, len(held) + 1) for c in combinations(held, r)]
        if self.cauldrons:
            return [Oil(t.number) for t in self.tiles if t.sides[self.attacker]]
        return []

    def _room(self, p: int) -> list[int]:
        """The tiles where p has room for a card."""
        return [t.number for t in self.tiles if len(t.sides[p]) < _SIZES[t.number][t.damaged]]

    def _plays(self, p: int) -> list[Play]:
        return real_card_plays(self.hands[p], self._room(p))

    def _must_pass(self) -> bool:
        """Whether passing is the only move left to the player on turn: cheaply settled
        when they have a siege card and a tile with room for it, by every move if not."""
        p = self.turn
        if any(c.__class__ is Card for c in self.hands[p]) and self._room(p):
            return False
        return self.legal_moves() == [_PASS]

    def _may_pass(self, p: int, plays: Sequence[Play]) -> bool:
        """rules notes R-14: pass only when no siege card can be played, and for the Attacker only
        when no retreat could make room either."""
        if plays:
            return False
        if p == self.attacker and self.phase is Phase.PREPARE:
            return not any(t.sides[p] for t in self.tiles) or not any(
                isinstance(c, Card) for c in self.hands[p]
            )
        return True

    def _turn_enders(self, p: int) -> list[Move]:
        choices = self._draw_choices(p)
        return [_DRAWS[d] for d in choices] if len(choices) > 1 else [_DONE]

    def controllable(self) -> list[int]:
        """Tiles the Attacker could take now (RULINGS ST2-4)."""
        found = self._controls.get(self.clock)
        if found is None:
            a = self.attacker
            found = [
                t.number
                for t in self.tiles
                # `_control_check`, inlined: this runs after every card played.
                if len(t.sides[a]) >= _SIZES[t.number][t.damaged] and self._allowed(t, a)
            ]
            self._controls = {self.clock: found}
        return found

    def check_control(self, tile: int) -> ClaimCheck:
        """Whether the Attacker may take a tile now, and why (for "why not?" questions)."""
        return check_place(self.tile(tile), self.attacker, self.unseen(), noun="tile", verb="take")

    def _control_check(self, tile: Tile) -> ClaimCheck:
        if not tile.complete(self.attacker):
            return _NO_CONTROL
        return self._proof(tile, self.attacker)

    # Making moves -----------------------------------------------------------------------------

    def parse_move(self, text: str, player: int | None = None) -> Move:
        """Read a move, resolving its cards to the real ones (a Joker in the text is one in
        the hand; a card on the wall gets its tile), so the log holds canonical texts."""
        move = parse_move(text)
        p = self.to_decide if player is None else player
        p = self.turn if p is None else p
        if isinstance(move, Play):
            move = Play(self.own_card(move.card, p), move.place)
        elif isinstance(move, Redeploy | Desert | Treason):
            side = p if isinstance(move, Redeploy) else 1 - p
            whose = "your" if side == p else "your opponent's"
            tile, card = tactics.find_on_side(self, move.card, side, move.source, whose)
            move = dataclasses.replace(move, card=card, source=tile.number)
        elif isinstance(move, Recruit | Support):
            cards = [move.card] if isinstance(move, Recruit) else list(move.cards)
            found = tactics.find_in_discard(self, cards)
            if isinstance(move, Recruit):
                move = Recruit(found[0], move.target)
            else:  # one canonical text whatever the order written
                move = Support(tuple(sort_cards(found)))
        elif isinstance(move, Give):
            q = self.to_decide if player is None else player
            hand = list(self.hands[q if q is not None else p])
            own = []
            for c in move.cards:
                card = self.own_card(c, q if q is not None else p, hand=hand)
                hand.remove(card)
                own.append(card)
            move = Give(tuple(sort_cards(own)))
        return move

    def apply(self, move: Move, player: int | None = None) -> list[Event]:
        """Apply a move for `player` (default: whoever must decide). Raises a GameError,
        changing nothing, when the move is not allowed."""
        if self.outcome is not None:
            raise IllegalMoveError(game_over())
        decider = self.to_decide
        p = decider if player is None else player
        assert p is not None
        if isinstance(move, Resign):
            return self._resign(p, move)
        if p != decider:
            if self.phase is Phase.EXCHANGE:
                raise IllegalMoveError(say("Wait: your opponent is choosing the cards to give."))
            raise IllegalMoveError(not_your_turn())
        handler = _HANDLERS.get(type(move))
        if handler is None:
            raise InvalidMoveError(say("{move} is not a Schotten Totten 2 move.", move=str(move)))
        events: list[Event] = []
        handler(self, p, move, events)  # validates, then changes
        self.clock += 1
        self.log.append((p, str(move)))
        self._advance(events)
        return events

    def _apply_retreat(self, p: int, move: Retreat, events: list[Event]) -> None:
        if p != self.attacker:
            raise IllegalMoveError(
                say("Only the Attacker retreats; the Defender throws oil instead.")
            )
        if self.phase is not Phase.PREPARE:
            raise IllegalMoveError(
                say("Retreat only at the start of your turn, before you play a card.")
            )
        if not move.tiles:
            raise InvalidMoveError(say("Say which tiles to retreat from, as `retreat 2 5`."))
        tiles = [self.tile(n) for n in move.tiles]
        for t in tiles:
            if not t.sides[p]:
                raise IllegalMoveError(
                    say("You have no cards on tile {tile} to retreat.", tile=t.number)
                )
        gone: list[AnyCard] = []
        for t in tiles:
            gone.extend(t.sides[p])
            self.discard.extend(t.sides[p])
            t.sides[p].clear()
            t.refresh(self.clock)
        events.append(Retreated(p, move.tiles, tuple(gone)))
        self.phase = Phase.PLAY

    def _apply_oil(self, p: int, move: Oil, events: list[Event]) -> None:
        if p != self.defender:
            raise IllegalMoveError(say("Only the Defender has oil cauldrons."))
        if self.phase is not Phase.PREPARE:
            raise IllegalMoveError(
                say("Oil is thrown only at the start of your turn, once, before you play a card.")
            )
        if not self.cauldrons:
            raise IllegalMoveError(say("You have used all three oil cauldrons."))
        tile = self.tile(move.tile)
        side = tile.sides[self.attacker]
        if not side:
            raise IllegalMoveError(
                say("The Attacker has no card on tile {tile} to burn.", tile=move.tile)
            )
        card = side.pop(0)  # RULINGS ST2-6: the card closest to the wall, played first
        tile.refresh(self.clock)
        self.discard.append(card)
        self.cauldrons -= 1
        events.append(OilThrown(p, move.tile, card, self.cauldrons))
        self.phase = Phase.PLAY

    def _apply_play(self, p: int, move: Play, events: list[Event]) -> None:
        if self.phase not in (Phase.PREPARE, Phase.PLAY):
            raise IllegalMoveError(self._phase_hint(say("You cannot play a card now.")))
        card = self.own_card(move.card, p)
        if isinstance(card, TacticCard):
            tactics.apply_elite(self, p, card, move.place, events)
            return
        tile = self.tile(move.place)
        self.check_room(tile, p)
        self.hands[p].remove(card)
        events.append(CardPlayed(p, card, tile.number))
        self.place_card(tile, p, card, events)
        self.after_play()

    def place_card(self, tile: Tile, p: int, card: AnyCard, events: list[Event]) -> None:
        """Put a card on p's side of a tile; a 0 meeting the 11 of its colour across the tile
        (or an 11 meeting the 0) discards both (RULINGS ST2-5, rules notes R-15)."""
        tile.sides[p].append(card)
        if isinstance(card, Card) and card.value in (0, 11):
            match = Card(card.color, 11 - card.value)
            other = tile.sides[1 - p]
            if match in other:
                other.remove(match)
                tile.sides[p].remove(card)
                self.discard.extend([card, match])
                events.append(ChickenVersusChef(tile.number, (card, match)))
        tile.refresh(self.clock)

    def _apply_action(self, p: int, move: Move, events: list[Event]) -> None:
        if self.phase not in (Phase.PREPARE, Phase.PLAY):
            raise IllegalMoveError(self._phase_hint(say("You cannot play a card now.")))
        tactics.apply_action(self, p, move, events)

    def after_play(self) -> None:
        """The card of the turn is played: the Attacker may still take tiles, then the draw."""
        self.phase = Phase.AFTER_PLAY if self.turn == self.attacker else Phase.DRAW

    def _apply_control(self, p: int, move: Control, events: list[Event]) -> None:
        if p != self.attacker:
            raise IllegalMoveError(say("Only the Attacker declares control of a tile."))
        if self.phase not in (Phase.PREPARE, Phase.PLAY, Phase.AFTER_PLAY):
            raise IllegalMoveError(self._phase_hint(say("You cannot declare control now.")))
        tile = self.tile(move.tile)
        check = self._control_check(tile)
        if not check.allowed:
            # Asked again for the reason: the refusal shows the strongest completion.
            check = self.check_control(move.tile)
            check = explained(check, tile, p, self.unseen(), self.hands[p])
            raise ClaimRejectedError(check.reason, completion=check.completion)
        assert check.formation is not None
        was_damaged = tile.damaged
        self.last_taken = (tile.number, (list(tile.sides[0]), list(tile.sides[1])))
        for side in tile.sides:
            self.discard.extend(side)
            side.clear()
        tile.damaged = True
        tile.refresh(self.clock)
        damaged = self.damaged_tiles
        events.append(
            ControlDeclared(p, tile.number, check.formation, check.against, was_damaged, damaged)
        )
        if was_damaged:
            self._finish(Outcome(p, Termination.DAMAGED_TILE_TAKEN), events)
        elif damaged >= DAMAGED_TO_WIN:
            self._finish(Outcome(p, Termination.FOURTH_TILE_DAMAGED), events)

    def _apply_pass(self, p: int, move: Pass, events: list[Event]) -> None:
        if self.phase not in (Phase.PREPARE, Phase.PLAY):
            raise IllegalMoveError(self._phase_hint(say("You cannot pass now.")))
        plays = self._plays(p)
        if not self._may_pass(p, plays):
            if plays:
                raise IllegalMoveError(
                    say(
                        "You can still play a siege card, so you cannot pass; for example"
                        " `{move}`.",
                        move=str(plays[0]),
                    )
                )
            raise IllegalMoveError(say("Retreat to make room first, as `retreat 2`; then play."))
        events.append(Passed(p, forced=False))
        self.after_play()

    def _apply_done(self, p: int, move: Done, events: list[Event]) -> None:
        if self.phase is not Phase.AFTER_PLAY:
            raise IllegalMoveError(self._phase_hint(say("You cannot end your turn now.")))
        if len(self._draw_choices(p)) > 1:
            raise IllegalMoveError(
                say("Choose a deck to draw from to end your turn: `draw siege` or `draw tactic`.")
            )
        self.phase = Phase.DRAW

    def _apply_draw(self, p: int, move: Draw, events: list[Event]) -> None:
        if self.phase not in (Phase.DRAW, Phase.AFTER_PLAY):
            raise IllegalMoveError(self._phase_hint(say("You cannot draw now.")))
        choices = self._draw_choices(p)
        if move.deck not in choices:
            if not choices:
                raise IllegalMoveError(say("There is nothing to draw."))
            raise IllegalMoveError(deck_empty(move.deck, choices[0]))
        self._draw(p, move.deck, events)
        self._end_turn()

    def _give_count(self, p: int) -> int:
        return min(tactics.EXCHANGED, len(self.hands[p]))

    def _apply_give(self, p: int, move: Give, events: list[Event]) -> None:
        if self.phase is not Phase.EXCHANGE:
            raise IllegalMoveError(say("You give cards only during an Exchange."))
        tactics.apply_give(self, p, move, events)

    # What happens by itself -------------------------------------------------------------------

    def _advance(self, events: list[Event]) -> None:
        while self.outcome is None:
            p = self.turn
            if self.phase is Phase.PREPARE:
                if p == self.defender and not self._room(p):
                    # RULINGS ST2-8: the Defender cannot play a siege card anywhere.
                    self._finish(Outcome(p, Termination.DEFENDER_CANNOT_PLAY), events)
                    return
                if not self._must_pass():
                    return
                events.append(Passed(p, forced=True))
                self.after_play()
            elif self.phase is Phase.PLAY:
                if not self._must_pass():
                    return
                events.append(Passed(p, forced=True))
                self.after_play()
            elif self.phase is Phase.AFTER_PLAY:
                if self.controllable():
                    return
                self.phase = Phase.DRAW
            elif self.phase is Phase.DRAW:
                if len(self.hands[p]) < self.options.hand_size and not self.deck:
                    # RULINGS ST2-8, rules notes R-13: drawing from an empty siege deck ends it.
                    self._finish(Outcome(self.defender, Termination.DECK_EMPTY), events)
                    return
                choices = self._draw_choices(p)
                if len(choices) > 1:
                    return
                if choices:
                    self._draw(p, choices[0], events)
                self._end_turn()
            else:
                return

    def _draw_choices(self, p: int) -> list[str]:
        if len(self.hands[p]) >= self.options.hand_size or not self.deck:
            return []
        return ["siege", "tactic"] if self.tactic_deck else ["siege"]

    def _draw(self, p: int, deck: str, events: list[Event]) -> None:
        source: list[Any] = self.deck if deck == "siege" else self.tactic_deck
        self.hands[p].append(source.pop())
        events.append(CardDrawn(p, deck))

    def _end_turn(self) -> None:
        self.turn = 1 - self.turn
        self.phase = Phase.PREPARE

    # Checks shared by moves ---------------------------------------------------------------------

    def tile(self, number: int) -> Tile:
        if not 1 <= number <= TILES:
            raise IllegalMoveError(
                say("There is no tile {tile}; the wall tiles are numbered 1 to 7.", tile=number)
            )
        return self.tiles[number - 1]

    def check_room(self, tile: Tile, p: int) -> None:
        if not tile.has_room(p):
            raise IllegalMoveError(
                say(
                    "Your side of tile {tile} is full: it takes {size} cards.",
                    tile=tile.number,
                    size=tile.size,
                )
            )

    def check_card(self, card: AnyCard) -> None:
        if isinstance(card, Card) and card.value not in ST2_VALUES:
            raise InvalidMoveError(no_such_value(str(card), "tile"))
        if isinstance(card, Card) and card.color.letter == "O":
            raise InvalidMoveError(say("There are no orange cards in Schotten Totten 2."))
        if isinstance(card, TacticCard) and card.kind not in ST2_TACTICS:
            raise InvalidMoveError(
                say("{card} is a Schotten Totten (first game) card.", card=card.kind.title)
            )

    def _phase_hint(self, refusal: Phrase) -> Phrase:
        """`refusal`, followed by what the player may do now."""
        attacking = self.turn == self.attacker
        match self.phase:
            case Phase.PREPARE if attacking:
                now = say("Now retreat, declare control or play a card.")
            case Phase.PREPARE:
                now = say("Now throw oil or play a card.")
            case Phase.PLAY if attacking:
                now = say("Now play a card or declare control.")
            case Phase.PLAY:
                now = say("Now play a card.")
            case Phase.AFTER_PLAY:
                now = say("Now declare control of a tile, or say `done` to draw.")
            case Phase.DRAW:
                now = say("Now choose a deck to draw from: `draw siege` or `draw tactic`.")
            case Phase.EXCHANGE:
                now = say("Now choose the cards to give, as `give R3 B5 Y7`.")
            case _:
                return refusal
        return with_hint(refusal, now)

    # Views and storage --------------------------------------------------------------------------

    def view(self, player: int | None) -> Any:
        from engine.st2.view import make_view

        return make_view(self, player)

    def to_json(self) -> dict[str, Any]:
        def codes(cards: Iterable[AnyCard]) -> list[str]:
            return [card_code(c) for c in cards]

        return {
            "game": self.kind,
            "options": self.options.to_json(),
            "seed": self.seed,
            "rng": self.rng.state,
            "attacker": self.attacker,
            "deck": codes(self.deck),
            "tactic_deck": codes(self.tactic_deck),
            "hands": [codes(h) for h in self.hands],
            "tiles": [
                {
                    "damaged": t.damaged,
                    "sides": [codes(s) for s in t.sides],
                    "completed_at": list(t.completed_at),
                }
                for t in self.tiles
            ],
            "discard": codes(self.discard),
            "actions": [codes(a) for a in self.actions],
            "cauldrons": self.cauldrons,
            "turn": self.turn,
            "phase": self.phase.value,
            "clock": self.clock,
            "tactics_played": list(self.tactics_played),
            "exchange_giver": self.exchange_giver,
            "exchange_first": codes(self.exchange_first),
            "outcome": self.outcome.to_json() if self.outcome else None,
            "last_taken": None
            if self.last_taken is None
            else [self.last_taken[0], [codes(s) for s in self.last_taken[1]]],
            "log": [[p, t] for p, t in self.log],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        def cards(codes: list[str]) -> list[Any]:
            return [card_from_code(c) for c in codes]

        g = cls(Options.from_json(data["options"]), int(data["seed"]))
        g.rng.state = int(data["rng"])
        g.attacker = int(data["attacker"])
        g.deck = cards(data["deck"])
        g.tactic_deck = cards(data["tactic_deck"])
        g.hands = (cards(data["hands"][0]), cards(data["hands"][1]))
        for tile, t in zip(g.tiles, data["tiles"], strict=True):
            tile.damaged = bool(t["damaged"])
            tile.sides = (cards(t["sides"][0]), cards(t["sides"][1]))
            tile.completed_at = list(t["completed_at"])
        g.discard = cards(data["discard"])
        g.actions = (cards(data["actions"][0]), cards(data["actions"][1]))
        g.cauldrons = int(data["cauldrons"])
        g.turn = int(data["turn"])
        g.phase = Phase(data["phase"])
        g.clock = int(data["clock"])
        g.tactics_played = list(data["tactics_played"])
        g.exchange_giver = data["exchange_giver"]
        g.exchange_first = cards(data["exchange_first"])
        g.outcome = Outcome.from_json(data["outcome"]) if data["outcome"] else None
        taken = data.get("last_taken")  # absent from games stored before issue 13
        if taken is not None:
            g.last_taken = (int(taken[0]), (cards(taken[1][0]), cards(taken[1][1])))
        g.log = [(int(p), str(t)) for p, t in data["log"]]
        return g

    def formation(self, tile: int, player: int) -> Any:
        """The formation a complete side makes (wild cards at their best), or None."""
        t = self.tile(tile)
        return evaluate(t.slots(player), t.rules) if t.complete(player) else None


_NO_CONTROL = ClaimCheck(False, "")

# Cards a side needs, by tile number (0 unused) and damaged (Tile.size, without a property).
_SIZES = ((0, 0), *((intact.size, damaged.size) for intact, damaged in TILE_RULES))

# Moves listed again and again, made once.
_CONTROLS = tuple(Control(n) for n in range(TILES + 1))  # by tile number (0 unused)
_DRAWS = {d: Draw(d) for d in ("siege", "tactic")}
_PASS = Pass()
_DONE = Done()

# How `apply` carries out each kind of move.
_HANDLERS: dict[type, Callable[[Game, int, Any, list[Event]], None]] = {
    Play: Game._apply_play,
    Retreat: Game._apply_retreat,
    Oil: Game._apply_oil,
    Control: Game._apply_control,
    Pass: Game._apply_pass,
    Done: Game._apply_done,
    Draw: Game._apply_draw,
    Give: Game._apply_give,
    Redeploy: Game._apply_action,
    Recruit: Game._apply_action,
    Desert: Game._apply_action,
    Treason: Game._apply_action,
    Explode: Game._apply_action,
    Support: Game._apply_action,
    Exchange: Game._apply_action,
}
