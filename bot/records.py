"""What the game service returns: plain values, no database rows and no Discord objects."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.aborted import ABORTED
from bot.game_clock import Timing
from bot.ratings import Rating
from bot.wording import the_computer
from engine.api import MatchSpec, Playable
from engine.events import Event
from engine.outcome import Outcome
from engine.phrases import Phrase, say, say_n


@dataclass(frozen=True, slots=True)
class Member:
    """A person (or a bot account) as the service knows them: an id and a display name."""

    id: int
    name: str
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class ChallengeInfo:
    id: int
    guild_id: int
    channel_id: int
    challenger: Member
    opponent: Member | None  # None: an open challenge that nobody has taken yet
    spec: MatchSpec
    status: str  # open accepted declined cancelled expired
    expires_at: float
    ai_level: str | None = None
    match_id: int | None = None
    message_id: int | None = None
    # An open challenge (named no opponent): the first member to accept it plays; only a
    # member of the Discord role `for_role_id`, if it has one.
    for_anyone: bool = False
    for_role_id: int | None = None
    created_at: float | None = None
    # Hours per move for the game (bot/game_clock.py); None: the server's reminder and forfeit.
    clock_hours: float | None = None
    # Its clock is the server's forfeit time, none chosen: reminded after `reminder_hours`.
    server_clock: bool = False

    def describe(self) -> Phrase:
        """For the channel: "Alice challenges Bob to Schotten Totten, Tactics, 3 rounds"."""
        if self.opponent is None and not self.ai_level:
            if self.for_role_id is not None:
                # TRANSLATORS: {role} is a Discord role (a mention, shown as "@Experts");
                # {game} as in "{challenger} challenges {opponent} to {game}".
                return say(
                    "{challenger} challenges any member of {role} to {game}",
                    challenger=self.challenger.name,
                    role=f"<@&{self.for_role_id}>",
                    game=self.spec.describe(),
                )
            # TRANSLATORS: an open challenge, that any member may take; {game} as in
            # "{challenger} challenges {opponent} to {game}".
            return say(
                "{challenger} challenges anyone to {game}",
                challenger=self.challenger.name,
                game=self.spec.describe(),
            )
        if self.ai_level:
            against: str | Phrase = the_computer(self.ai_level)
        else:
            against = self.opponent.name if self.opponent is not None else "?"
        # TRANSLATORS: {opponent} is a member's name or "Computer (level)" (a name); {game} is the
        # game and its options, e.g. "Schotten Totten, Tactics, 3 rounds".
        return say(
            "{challenger} challenges {opponent} to {game}",
            challenger=self.challenger.name,
            opponent=against,
            game=self.spec.describe(),
        )


@dataclass(slots=True)
class MatchInfo:
    """A match as stored, with its engine state loaded."""

    id: int
    guild_id: int
    channel_id: int
    players: tuple[int, int]  # user ids by seat
    names: tuple[str, str]
    spec: MatchSpec
    seed: int
    version: int
    status: str
    match: Playable
    created_at: float
    due_since: float
    ai_seat: int | None = None
    ai_level: str | None = None
    board_message_id: int | None = None
    # The turn its newest board left: JSON [actor, open, events] (see migration 5).
    turn: str | None = None
    tournament_id: int | None = None  # a tournament's game
    # Hours per move (None: the server's settings; bot/game_clock.py), and its clock as last
    # read (`GameService.timing`; None until then).
    clock_hours: float | None = None
    timing: Timing | None = None
    termination: str | None = None  # as stored once finished (ABORTED: bot/aborted.py)

    @property
    def aborted(self) -> bool:
        """Ended before both players moved: no result, no rating change (rules notes R-28)."""
        return self.termination == ABORTED

    def seat_of(self, user_id: int) -> int | None:
        if self.players[0] == user_id and self.ai_seat != 0:
            return 0
        if self.players[1] == user_id and self.ai_seat != 1:
            return 1
        return None

    @property
    def to_decide(self) -> int | None:
        return self.match.to_decide

    @property
    def deciding_user(self) -> int | None:
        seat = self.match.to_decide
        return None if seat is None else self.players[seat]

    @property
    def is_over(self) -> bool:
        return self.match.is_over


@dataclass(frozen=True, slots=True)
class RatingChange:
    user_id: int
    before: Rating
    after: Rating

    def describe(self, name: str) -> Phrase:
        delta = self.after.points - self.before.points
        # TRANSLATORS: a player's new rating after a game, e.g. "Alice: 1100 (+100)".
        return say(
            "{name}: {rating} ({change})",
            name=name,
            rating=self.after.display(),
            change=f"{delta:+d}",
        )

    def to_json(self) -> list[float]:
        b, a = self.before, self.after
        return [self.user_id, b.mu, b.sigma, a.mu, a.sigma]

    @staticmethod
    def from_json(data: Sequence[float]) -> RatingChange:
        user, mu0, sigma0, mu1, sigma1 = data
        return RatingChange(int(user), Rating(mu0, sigma0), Rating(mu1, sigma1))


@dataclass(frozen=True, slots=True)
class RatingStep:
    """A member's rating right after one of their rated matches, and how it went for them."""

    game: str  # st1 or st2
    match_id: int
    at: float  # when the match ended
    rating: Rating
    result: str  # "win", "loss" or "draw"


@dataclass(slots=True)
class MoveResult:
    """A move that was stored: its events and the new state."""

    info: MatchInfo
    seat: int
    text: str  # canonical notation, as logged
    events: list[Event]
    rating_changes: list[RatingChange] = field(default_factory=list)
    # The outbox row of the mover's new hand, when the decision stays with them and the
    # request's reply is to show it (see GameService.announced_by_reply).
    hand_row: int | None = None

    @property
    def finished(self) -> bool:
        return self.info.match.is_over

    @property
    def outcome(self) -> Outcome | None:
        return self.info.match.outcome

    def describe(self) -> list[str]:
        """The events in words (Phrases, once the engine's events give them)."""
        return [e.describe(self.info.names) for e in self.events]


@dataclass(frozen=True, slots=True)
class Reminder:
    """A player who has kept a game waiting past the server's reminder time."""

    match_id: int
    channel_id: int
    user_id: int
    waiting_hours: float
    forfeit_in_hours: float | None  # None: this server has no forfeit on time


@dataclass(slots=True)
class Announcement:
    """One row of the outbox, read back: what to post, send or edit, and where.

    `match` is the match as the board showed it when the row was written (a board), or as
    it is now (a hand, a reminder: `current` says whether it is still worth sending).
    `nonce` is stable for the row, so that Discord drops a second send of it."""

    id: int
    kind: str  # board hand reminder challenge
    nonce: str
    attempts: int
    version: int | None = None
    seat: int | None = None
    match: MatchInfo | None = None
    challenge: ChallengeInfo | None = None
    # The board's events in words: Phrases (or plain English text stored by an older bot),
    # for the front to say in the server's language with `lang.localise`.
    lines: list[str] = field(default_factory=list)
    ratings: list[RatingChange] = field(default_factory=list)
    started: bool = False
    edit_message_id: int | None = None  # a board that continues its turn's message
    # The seats this board names with a mention, notified if its message is a new one, and
    # whether it is posted afresh though it continues a turn (that message then deleted).
    ping: list[int] = field(default_factory=list)
    repost: bool = False
    held: bool = False  # a member's turn goes on: its board waits for the step ending it
    reminder: Reminder | None = None
    current: bool = True


@dataclass(slots=True)
class DueWork:
    """What time brought: reminders to send, forfeits applied, challenges that expired."""

    reminders: list[Reminder] = field(default_factory=list)
    forfeits: list[MoveResult] = field(default_factory=list)
    expired: list[ChallengeInfo] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: int
    user_id: int
    name: str
    rating: Rating
    rated_games: int


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    game: str
    page: int
    pages: int
    entries: Sequence[LeaderboardEntry]


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One finished match, from one player's side."""

    match_id: int
    variant: str
    description: str
    opponent_id: int
    opponent_name: str
    result: str  # "win", "loss" or "draw"
    termination: str
    finished_at: float
    rated: bool


@dataclass(frozen=True, slots=True)
class Record:
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    def add(self, result: str) -> Record:
        return Record(
            self.wins + (result == "win"),
            self.losses + (result == "loss"),
            self.draws + (result == "draw"),
        )

    def describe(self) -> Phrase:
        # Each count agrees with its own noun ("0 victoire, 2 défaites"): a French "victoires :
        # 0" after the stats' own colon read as stacked colons.
        # TRANSLATORS: a player's record: games won ("3 won"), then lost and drawn.
        wins = say_n("{count} won", "{count} won", self.wins)
        losses = say_n("{count} lost", "{count} lost", self.losses)
        if self.draws:
            draws = say_n("{count} drawn", "{count} drawn", self.draws)
            # TRANSLATORS: a player's record: "3 won, 1 lost, 2 drawn" (each part translated).
            return say("{wins}, {losses}, {draws}", wins=wins, losses=losses, draws=draws)
        # TRANSLATORS: a player's record: "3 won, 1 lost" (each part translated).
        return say("{wins}, {losses}", wins=wins, losses=losses)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    name: str
    overall: Record
    streak: tuple[str, int] | None  # ("win", 3): three wins in a row, most recent first
    ratings: dict[str, tuple[Rating, int, int]]  # game -> (rating, rank, rated players)
    per_variant: dict[str, Record]
    against: tuple[str, Record] | None  # the opponent's name and the record against them
    recent: Sequence[GameSummary]
    active: int  # matches in progress


JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class MemberData:
    """What the bot keeps about a member (/schotten privacy)."""

    named: bool  # their Discord display name, to show in games and standings
    language: bool  # their Discord client's language, for DMs
    unseen: bool  # whether their hands show the unseen cards
    notifications: bool  # their own notification choices (/schotten settings)
    finished: int  # finished games, everywhere
    active: int  # games under way, everywhere
    active_here: int  # games under way in the server asked from
    rated_servers: int  # servers where they have a rating
    challenges: int  # open challenges made or received
