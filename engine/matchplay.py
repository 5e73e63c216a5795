"""What both games' matches share: a match drives its current game through the same calls
as a single game, and moves on to the next game when one ends."""

from __future__ import annotations

from typing import Any

from engine.cardgame import CardGame
from engine.errors import GameError
from engine.events import Event
from engine.moves import Resign
from engine.outcome import Outcome
from engine.phrases import say


class MatchPlay:
    """Base of `engine.st1.match.Match` (rounds) and `engine.st2.match.Match` (revenge)."""

    game: CardGame
    outcome: Outcome | None
    _earlier_log: list[tuple[int, str]]  # moves of the games already finished

    @property
    def to_decide(self) -> int | None:
        return None if self.outcome is not None else self.game.to_decide

    @property
    def winner(self) -> int | None:
        return self.outcome.winner if self.outcome else None

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def log(self) -> list[tuple[int, str]]:
        """Every move of the match, games one after another."""
        return self._earlier_log + self.game.log

    def legal_moves(self) -> list[Any]:
        return [] if self.outcome is not None else self.game.legal_moves()

    def parse_move(self, text: str, player: int | None = None) -> Any:
        return self.game.parse_move(text, player)

    def play(self, text: str, player: int | None = None) -> list[Event]:
        return self.apply(self.parse_move(text, player), player)

    def apply(self, move: Any, player: int | None = None) -> list[Event]:
        if self.outcome is not None:
            raise GameError(say("The match is over."))
        events = self.game.apply(move, player)
        if self.game.outcome is not None:
            # rules notes R-4: resigning (or running out of time) gives up the whole match.
            self._game_over(events, walked_away=isinstance(move, Resign))
        return events

    def _game_over(self, events: list[Event], *, walked_away: bool) -> None:
        raise NotImplementedError

    def _next_game(self, game: CardGame) -> None:
        self._earlier_log = self.log
        self.game = game
