"""Ratings with openskill (Weng-Lin, Plackett-Luce), per server and per game.

Players are ranked by openskill's `ordinal`, the conservative estimate mu - 3 sigma: a new
player starts at 0 and one lucky win does not put anyone at the top. People see it on a
familiar scale (rules notes R-22): 1000 + 40 x ordinal, so a new player shows 1000, a first win
about 1100 and a first loss about 940; never below 0. A rating is provisional (rules notes R-29)
for about its first five games.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from engine.phrases import say

_MODEL = PlackettLuce()
BASE = 1000  # what a new player shows
SCALE = 40  # shown points per unit of ordinal

# Provisional (rules notes R-29): openskill's uncertainty sigma starts at 25/3 (8.33) and falls with
# each game: about 7.39 after four games between new players, 7.18 after five. Above this
# threshold a rating is provisional, marked "1100?" on the leaderboard and in stats.
PROVISIONAL_SIGMA = 7.25
PROVISIONAL_GAMES = 5  # the games it takes two new players to settle (tests hold it to this)

# Said once wherever ratings are listed (stats, leaderboard).
MEANING = say(
    "Ratings start at 1000, rise with wins and fall with losses; they grow as the bot grows"
    " surer of a player, so a few lucky wins do not top the board."
)

# The footnote under a list that shows a provisional rating.
PROVISIONAL_NOTE = say(
    "A rating marked ? is provisional: its player has not yet played enough rated games"
    " (about five) for it to settle."
)


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate used for ranking."""
        return self.mu - 3 * self.sigma

    @property
    def points(self) -> int:
        """The rating as shown: the ordinal on a scale where a new player has 1000."""
        return max(0, round(BASE + SCALE * self.ordinal))

    def display(self) -> str:
        return str(self.points)

    @property
    def provisional(self) -> bool:
        """Still too uncertain to trust: too few games yet (rules notes R-29)."""
        return self.sigma > PROVISIONAL_SIGMA

    def marked(self) -> str:
        """The rating as lists show it: "1100?" while provisional, as lichess does."""
        return f"{self.points}?" if self.provisional else str(self.points)


def initial() -> Rating:
    r = _MODEL.rating()
    return Rating(r.mu, r.sigma)


def after_game(a: Rating, b: Rating, winner: int | None) -> tuple[Rating, Rating]:
    """New ratings of seat 0 (`a`) and seat 1 (`b`) after a result (None: a draw)."""
    ranks: list[float] = [0, 0] if winner is None else ([0, 1] if winner == 0 else [1, 0])
    teams = [[_MODEL.rating(mu=a.mu, sigma=a.sigma)], [_MODEL.rating(mu=b.mu, sigma=b.sigma)]]
    [[na], [nb]] = _MODEL.rate(teams, ranks=ranks)
    return Rating(na.mu, na.sigma), Rating(nb.mu, nb.sigma)
