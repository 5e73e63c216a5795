"""What the tournament service returns: a tournament with its entrants, and its pairings."""

from __future__ import annotations

from dataclasses import dataclass

from bot.wording import player_name
from engine.api import MatchSpec
from engine.phrases import Phrase, say, say_in, say_n

# The formats in words (Phrases: the front says them with `lang.localise`).
FORMATS: dict[str, Phrase] = {
    "swiss": say_in("tournament format", "Swiss"),
    "round-robin": say_in("tournament format", "round robin"),
}

# The tie-break orders an organiser chooses among (`/schotten-admin tournament create`): the
# formats' defaults and FIDE's usual lists (C.07: Buchholz Cut-1 and the number of wins).
# A key is stored; the names are tiebreaks.CHOICES, compared in this order.
TIEBREAK_ORDERS: dict[str, tuple[tuple[str, ...], Phrase]] = {
    "buchholz": (
        ("Buchholz", "Sonneborn-Berger"),
        say_in("tie-break order", "Buchholz, Sonneborn-Berger"),
    ),
    "buchholz-cut": (
        ("Buchholz Cut-1", "Buchholz", "Sonneborn-Berger", "Wins"),
        say_in("tie-break order", "Buchholz Cut-1, Buchholz, Sonneborn-Berger, wins"),
    ),
    "head-to-head": (
        ("Head-to-head", "Sonneborn-Berger"),
        say_in("tie-break order", "head-to-head, Sonneborn-Berger"),
    ),
    "head-to-head-wins": (
        ("Head-to-head", "Wins", "Sonneborn-Berger"),
        say_in("tie-break order", "head-to-head, wins, Sonneborn-Berger"),
    ),
}
DEFAULT_ORDER = {"swiss": "buchholz", "round-robin": "head-to-head"}


@dataclass(frozen=True, slots=True)
class Entrant:
    """A member signed up for a tournament; `seed` orders the pairings once it started."""

    user_id: int
    name: str
    seed: int | None
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of a round (a bye when `second_id` is None) and its result once decided:
    (first's points, second's points), `forfeit` when the deadline or a withdrawal decided
    it rather than a game played to its end."""

    tournament_id: int
    round: int
    board: int
    first_id: int
    second_id: int | None
    match_id: int | None
    points: tuple[float, float] | None
    forfeit: bool
    channel_id: int | None = None  # its match's thread, once started

    @property
    def decided(self) -> bool:
        return self.points is not None


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    name: str
    spec: MatchSpec
    format: str  # "swiss" or "round-robin"
    rounds: int  # planned; a round robin's is fixed when it starts (0 until then)
    round_hours: float
    status: str  # open running finished cancelled
    round: int  # the round under way, 0 before the start
    round_deadline: float | None
    created_at: float
    message_id: int | None
    announced: int  # rounds announced; rounds + 1 once the end was
    entrants: tuple[Entrant, ...]
    tiebreak_order: str | None = None  # a TIEBREAK_ORDERS key; None: the format's default

    @property
    def tiebreaks(self) -> tuple[str, ...]:
        """The tie-breaks' names, in the order they decide."""
        return TIEBREAK_ORDERS[self.tiebreak_order or DEFAULT_ORDER[self.format]][0]

    @property
    def active(self) -> list[Entrant]:
        """The entrants still in, in seed order (join order before the start)."""
        return [e for e in self.entrants if not e.withdrawn]

    def entrant(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    def name_of(self, user_id: int | None) -> str:
        if user_id is None:
            # TRANSLATORS: in a list of pairings, the "opponent" of a player who sits out.
            return say_in("tournament pairing", "bye")
        e = self.entrant(user_id)
        return e.name if e is not None else player_name(user_id)

    def describe(self) -> Phrase:
        """ "Friday Swiss (Swiss, 3 rounds, Schotten Totten, Tactics)"."""
        if self.rounds:
            # TRANSLATORS: a tournament: its name, format (Swiss, round robin), rounds and game
            # (e.g. "Schotten Totten, Tactics").
            return say_n(
                "{name} ({format}, {count} round, {game})",
                "{name} ({format}, {count} rounds, {game})",
                self.rounds,
                name=self.name,
                format=FORMATS[self.format],
                game=self.spec.describe(),
            )
        # TRANSLATORS: a tournament: its name, format (Swiss, round robin) and game (e.g.
        # "Schotten Totten, Tactics").
        return say(
            "{name} ({format}, {game})",
            name=self.name,
            format=FORMATS[self.format],
            game=self.spec.describe(),
        )
