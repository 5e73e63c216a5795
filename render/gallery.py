"""Representative positions of both games and every variant, the two charts and two
tournament standings tables, drawn for people to review (`python -m render gallery DIR`:
in English, then in French and German as NAME-fr.png and NAME-de.png), tested, and timed by
the benchmarks.

Positions are written by hand (engine/st1/position.py, engine/st2/position.py) and then
played on with real moves, so that each picture has a last move; the match pictures come from
seeded random play. Everything is deterministic.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.api import MatchSpec, Playable, new_match
from engine.st1.position import parse_position as st1_position
from engine.st2.position import parse_position as st2_position
from render import render_board, render_hand, render_turn
from render.charts import ChancePoint, RatingPoint, render_chance_chart, render_rating_chart
from render.theme import DEFAULT_THEME, Theme
from render.tournament_standings import StandingRow, render_standings

NAMES = ("Aurélie", "Bartholomew")
# The languages of the gallery besides English: their pictures are NAME-fr.png, NAME-de.png.
LANGUAGES = ("fr", "de")
# Discord display names are at most 32 characters: one with spaces, one without any.
LONG_NAMES = ("Maximiliane von Hohenzollern-Eck", "W" * 32)


@dataclass(frozen=True, slots=True)
class Picture:
    """One picture of the gallery: a board (spectator's view), a seat's hand, or a seat's
    turn (the board from their side and their hand: the hand's DM)."""

    name: str
    what: str  # "board", "hand" or "turn"
    view: Any  # an engine View
    names: tuple[str, str] = NAMES

    def render(self, theme: Theme = DEFAULT_THEME, locale: str | None = None) -> bytes:
        if self.what == "board":
            return render_board(self.view, names=self.names, theme=theme, locale=locale)
        name = self.names[self.view.viewer]
        if self.what == "turn":
            return render_turn(self.view, names=self.names, name=name, theme=theme, locale=locale)
        return render_hand(self.view, name=name, theme=theme, locale=locale)


# The mid-game positions the benchmarks time (issue 5): Schotten Totten with Tactics (Mud
# Fight and Blind-Man's Bluff on one stone, a Joker claimed as G7, ruses discarded), and a
# Schotten Totten 2 siege with a damaged tile, an oil cauldron thrown and a discard pile.
ST1_TACTICS_MIDGAME = """
variant: tactics
turn: P1
hand P1: R7 B5 G2 O4 joker2 traitor P1
hand P2: Y1 Y2 Y3 Y4 Y6 B1 B2
stone 1: R1 R2 R3 | B3 B4 B6 | claimed P1
stone 2: G5 G6 joker1 | P4 P5 P6 | claimed P1 first P2
stone 3: G7 | G4 | mud blind
stone 5: O7 O8 | Y7 Y8 Y9 | claimed P2
stone 6: R9 | spy
stone 8: P8 | O3 O2
discard: banshee G1 strategist
tactics played: 2 2
"""

ST2_SIEGE_MIDGAME = """
variant: siege
attacker: P1
turn: P2
hand P1: R7 B5 G2 Y11 P1 B6
hand P2: Y1 Y2 Y3 Y4 Y6 B11
tile 1: R1 R2 R3 | B3 B4
tile 2: G5 G6 G7 G8 | P4 P5 P6
tile 3: P9 | Y9 | damaged
tile 5: P10 B10 | Y10 R10
tile 6: R4 | -
tile 7: B1 B2 | Y0 R0 G1
discard: G0 B0 R11 G11 P3 Y7 Y8 R5
cauldrons: 2
"""


def st1_tactics_midgame() -> Any:
    game = st1_position(ST1_TACTICS_MIDGAME)
    game.play("R7 3")
    return game


def st2_siege_midgame() -> Any:
    game = st2_position(ST2_SIEGE_MIDGAME)
    game.play("oil 2")
    return game


def _st1_opening() -> Iterator[Picture]:
    match = new_match(MatchSpec("classic", first=0), seed=11)
    match.play(str(match.legal_moves()[0]), 0)
    yield Picture("st1-classic-opening-board", "board", match.view(None))
    yield Picture("st1-classic-opening-hand", "hand", match.view(1))


def _st1_classic_claims() -> Iterator[Picture]:
    game = st1_position(
        """
        variant: classic
        turn: P1 claim
        hand P1: O1 O4 G9 B8 P2
        hand P2: Y1 Y2 O3 G3 B6 P6
        stone 2: Y3 Y4 Y5 | P9 P8 O9 | claimed P1
        stone 3: R1 G4 | B1 Y6
        stone 4: R7 R8 R9 | B2 B5 B9 | first P2
        stone 6: G1 G2 | O5 O6 O7 | claimed P2
        stone 7: P1 | B7
        stone 8: - | Y8 Y9
        """
    )
    game.play("claim 4")
    yield Picture("st1-classic-midgame-claims-board", "board", game.view(None))


def _st1_tactics() -> Iterator[Picture]:
    game = st1_position(ST1_TACTICS_MIDGAME)
    yield Picture("st1-tactics-midgame-hand", "hand", game.view(0))
    game.play("R7 3")
    yield Picture("st1-tactics-midgame-board", "board", game.view(None))
    yield Picture("st1-tactics-waiting-hand", "hand", game.view(1))


def _long_names() -> Iterator[Picture]:
    game = st1_tactics_midgame()
    yield Picture("st1-long-names-board", "board", game.view(None), LONG_NAMES)
    yield Picture("st1-long-names-hand", "hand", game.view(1), LONG_NAMES)
    siege = st2_siege_midgame()
    yield Picture("st2-long-names-board", "board", siege.view(None), LONG_NAMES)


def _st1_wild_claims() -> Iterator[Picture]:
    game = st1_position(
        """
        variant: tactics-expert
        turn: P2
        hand P1: R1 O4 G9 B8 P2 traitor recruiter
        hand P2: Y1 Y2 O3 G3 B6 P6 B5
        stone 2: joker1 G5 G6 | O1 O2 Y9 | claimed P1
        stone 4: R6 spy R8 R9 | B1 B2 B3 B4 | claimed P1 mud
        stone 5: Y5 | joker2
        stone 7: shield Y2x | P7 P8 P9 | claimed P2
        """.replace(" Y2x", " Y3 Y4")
    )
    game.play("B5 5")
    yield Picture("st1-tactics-expert-wild-claims-board", "board", game.view(None))


# Seat 0 about to play the Recruiter (drawing three cards, then putting two back).
RECRUITER_POSITION = """
variant: tactics
turn: P1
hand P1: recruiter R1 R2 B4 G7 Y9 P3
hand P2: B1 B2 O5 G3 B6 P6 B5
deck: O1 O2 O3
tactic deck: spy mud
stone 5: Y5 | G9
"""


def _st1_recruiter() -> Iterator[Picture]:
    game = st1_position(RECRUITER_POSITION)
    for move in ("recruiter", "draw clan", "draw tactic", "draw clan"):
        game.play(move)
    yield Picture("st1-recruiter-return-hand", "hand", game.view(0))


def _st1_match() -> Iterator[Picture]:
    match = new_match(MatchSpec("classic", rounds=3, first=0), seed=5)
    _play_until(match, lambda m: m.view(None).match.round == 2)
    start = len(match.log)
    _play_until(match, lambda m: len(m.log) >= start + 16)
    yield Picture("st1-match-round-2-board", "board", match.view(None), ("Chidi", "Ye-jin"))


def _st1_end() -> Iterator[Picture]:
    game = st1_position(
        """
        variant: classic
        turn: P1 claim
        hand P1: O1 O4 G9 R5 P2
        hand P2: Y1 Y2 O3 G3 R6 P6
        stone 1: R1 R2 R3 | B1 B2 B4 | claimed P1
        stone 2: Y3 Y4 Y5 | P9 P8 O9 | claimed P1
        stone 3: G7 G8 G6 | B7 B8 B6 | first P1
        stone 5: - | O5 O6 O7 | claimed P2
        stone 8: P1 | Y8 Y9
        """
    )
    game.play("claim 3")
    yield Picture("st1-end-three-adjacent-board", "board", game.view(None))
    yield Picture("st1-end-hand", "hand", game.view(1))


def _st2_opening() -> Iterator[Picture]:
    match = new_match(MatchSpec("siege", first=0), seed=4)
    _play_until(match, lambda m: len(m.log) >= 2)
    yield Picture("st2-siege-opening-board", "board", match.view(None))
    yield Picture("st2-siege-opening-hand", "hand", match.view(match.to_decide or 0))


def _st2_midgame() -> Iterator[Picture]:
    game = st2_siege_midgame()
    yield Picture("st2-siege-midgame-board", "board", game.view(None))
    yield Picture("st2-siege-defender-hand", "hand", game.view(1))


def _st2_gate() -> Iterator[Picture]:
    game = st2_position(
        """
        variant: siege-tactics
        attacker: P2
        turn: P2
        hand P1: Y1 Y2 Y3 G3 B6 P6 redeploy
        hand P2: R7 B5 G2 Y11 P1 spy treason
        tile 2: P4 P5 | G5 G6 G7 G8
        tile 4: R0 R1 shield | B9 B10 B8 joker | damaged
        tile 5: Y10 | P10 G10
        tile 6: - | R9 | damaged
        discard: G0 B0 R11 G11 Y7 Y8 R5
        actions P1: desert
        actions P2: explode
        cauldrons: 1
        """
    )
    yield Picture("st2-tactical-attacker-hand", "hand", game.view(1))
    game.play("spy 5")
    yield Picture("st2-tactical-damaged-gate-board", "board", game.view(None))


# Every action card shown on the banners (the Defender's four beside the oil cauldrons), in
# each language: the banner's facts once were squeezed beside them into a column a few
# letters wide (issue 39).
ST2_EVERY_ACTION = """
variant: siege-tactics
attacker: P1
turn: P2
hand P1: R7 B5 G2 Y11 P1 B6
hand P2: Y1 Y2 Y3 Y4 Y6 B11
tile 1: R1 R2 | B3 B4 joker
tile 2: G5 G6 G7 G8 | P4 P5 P6
tile 3: P9 | Y9 | damaged
tile 5: P10 B10 | Y10 R10
discard: G0 B0 R11 G11 P3 Y7 Y8 R5
actions P1: explode desert treason
actions P2: recruit exchange redeploy support
cauldrons: 1
"""


def _st2_every_action() -> Iterator[Picture]:
    game = st2_position(ST2_EVERY_ACTION)
    yield Picture("st2-tactical-every-action-board", "board", game.view(None))
    yield Picture("st2-tactical-every-action-turn", "turn", game.view(1))


# The tallest boards (issue 39: every picture at most twice as tall as wide): every tile
# holding cards, long columns of four, three tiles damaged, every action card shown.
ST2_FULL_TILES = """
variant: siege-tactics
attacker: P1
turn: P2
hand P1: R7 B4 G4 Y11 P0 B3 joker
hand P2: Y1 Y2 Y3 G9 R6 B11 spy
tile 1: R1 R2 R3 | B1 B2 | damaged
tile 2: G5 G6 G7 G8 | P4 P5 P6
tile 3: P9 P8 P7 | Y9 Y8
tile 4: R0 G0 B0 Y0 | P1 P2 P3 | damaged
tile 5: R10 B10 G10 | Y10 P10
tile 6: B6 B7 B8 B9 | G1 G2 G3
tile 7: R4 R5 | Y4 Y5 Y6 | damaged
discard: G11 R11 P11 R9 Y7 R8 B5
actions P1: explode desert treason
actions P2: recruit exchange redeploy support
cauldrons: 1
"""
# Every stone holding cards: a Mud Fight's four a side, modes, claimed stones and a tie.
ST1_FULL_STONES = """
variant: tactics
turn: P1
hand P1: R7 B5 G2 O4 joker traitor P1
hand P2: Y1 Y3 Y4 Y6 B1 B2
stone 1: R1 R2 R3 | B3 B4 B6 | claimed P1
stone 2: G5 G6 G4 | P4 P5 P6 | claimed P2
stone 3: G7 G8 G9 R8 | O5 O6 O7 O9 | mud first P1
stone 4: Y5 Y7 Y9 | P7 P8 P9 | first P2
stone 5: O8 O1 O3 | Y8 R9 B9 | blind first P1
stone 6: R6 B7 G3 | B8 R5 G1 | first P2
stone 7: P2 P3 Y2 | R4 spy shield | first P2
stone 8: O2 | -
discard: banshee strategist
tactics played: 1 3
"""


def _tallest() -> Iterator[Picture]:
    st2 = st2_position(ST2_FULL_TILES)
    yield Picture("st2-tactical-full-tiles-board", "board", st2.view(None))
    yield Picture("st2-tactical-full-tiles-turn", "turn", st2.view(1))
    st1 = st1_position(ST1_FULL_STONES)
    yield Picture("st1-tactics-full-stones-board", "board", st1.view(None))
    yield Picture("st1-tactics-full-stones-turn", "turn", st1.view(0))
    recruiter = st1_position(RECRUITER_POSITION)
    for move in ("recruiter", "draw clan", "draw tactic", "draw clan"):
        recruiter.play(move)
    yield Picture("st1-recruiter-return-turn", "turn", recruiter.view(0))
    yield Picture("st1-long-names-turn", "turn", st1_tactics_midgame().view(1), LONG_NAMES)
    siege = st2_siege_midgame()
    yield Picture("st2-long-names-turn", "turn", siege.view(1), LONG_NAMES)


def _st2_end() -> Iterator[Picture]:
    game = st2_position(
        """
        variant: siege
        attacker: P1
        turn: P1
        hand P1: R7 B5 G2 Y11 P1 B6
        hand P2: Y1 Y2 Y3 Y4 Y6 B11
        tile 1: - | B3 B4 | damaged
        tile 3: - | Y9 | damaged
        tile 5: R9 R10 R11 | B0 B1
        tile 7: G3 | - | damaged
        discard: G0 R0 G11 P3 Y7 Y8 R5
        """
    )
    game.play("control 5")
    yield Picture("st2-end-attacker-wins-board", "board", game.view(None))


def _st2_breach() -> Iterator[Picture]:
    game = st2_position(
        """
        variant: siege
        attacker: P1
        turn: P1
        hand P1: R7 B5 G2 Y11 P1 B6
        hand P2: Y1 Y2 Y3 Y4 Y6 B11
        tile 1: - | B3 B4 | damaged
        tile 3: R9 R10 R11 | B0 B1 P2 | damaged first P2
        tile 5: G9 | Y10 P10
        discard: G0 R0 G11 P3 Y7 Y8 R5
        """
    )
    game.play("control 3")
    yield Picture("st2-end-breach-board", "board", game.view(None))


def _st2_revenge() -> Iterator[Picture]:
    match = new_match(MatchSpec("siege", revenge=True, first=0), seed=8)
    _play_until(match, lambda m: m.view(None).revenge.game == 2)
    start = len(match.log)
    _play_until(match, lambda m: len(m.log) >= start + 14)
    yield Picture("st2-revenge-game-2-board", "board", match.view(None), ("Ngozi", "Mateus"))


def _play_until(match: Playable, done: Callable[[Playable], bool], seed: int = 1) -> None:
    """Random legal moves (claims and control first, so that stones get taken) until `done`."""
    rng = random.Random(seed)
    while not done(match) and not match.is_over:
        moves = match.legal_moves()
        taking = [m for m in moves if str(m).split()[0] in ("claim", "control")]
        move = taking[0] if taking else rng.choice(list(moves))
        match.apply(move, match.to_decide)


SECTIONS: tuple[Callable[[], Iterator[Picture]], ...] = (
    _st1_opening,
    _st1_classic_claims,
    _st1_tactics,
    _st1_wild_claims,
    _st1_recruiter,
    _st1_match,
    _st1_end,
    _st2_opening,
    _st2_midgame,
    _st2_gate,
    _st2_every_action,
    _st2_end,
    _st2_breach,
    _st2_revenge,
    _long_names,
    _tallest,
)


# The charts: a member's rating through November 2024 in both games, and one game's winning
# chances with its costliest moves marked (two of them on adjacent moves). Written out here,
# not generated, so that tests/render/test_charts.py compares the same picture for ever.
# Ratings: "DAY.HOUR" (UTC), "+" won, "-" lost or "=" drawn, then the rating after the game.
RATING_ST1 = """
3.15+1024 4.19+1048 5.20-1027 5.21+1055 6.18+1081 7.18-1058 8.19+1077 9.20=1075 10.17-1051
10.18-1030 11.17+1059 12.16+1084 13.19+1103 13.20+1131 14.12+1152 15.19-1134 15.20-1109
16.10+1133 17.21-1114 18.20+1140 19.18-1118 21.12+1146 22.20-1121 23.19+1150 24.21+1178
25.20+1196
"""
RATING_ST2 = """
5.16+1031 6.20+1062 8.19-1039 9.21+1067 10.21-1045 11.20-1027 12.22+1058 14.18+1084
16.20+1099 18.19-1086 20.21+1110 22.18=1111
"""
# Chances: "SEAT:PERCENT" for moves 1, 2, ... (a claim is a second move by the same seat).
CHANCES = """
0:51 1:45 0:57 1:40 0:68 1:34 0:65 1:37 0:65 1:33 0:77 1:16 0:83 1:17 0:88 1:8 0:90 1:7
0:88 1:12 0:87 1:15 0:64 1:27 0:77 1:29 0:70 1:34 0:63 1:40 1:37 0:63 1:34 0:66 1:28 0:71
1:26 0:72 1:26 0:71 1:37 0:62 1:37 0:61 1:39 0:60 0:54 1:50 0:52 1:49 0:53 1:38 0:56 1:56
0:44 1:51 0:39 1:56 0:33 1:64 0:24 1:78
"""
CHANCE_MARKS = ((1, 23), (2, 24), (3, 55))
NOVEMBER_2024 = 1730419200  # 1 Nov 2024 00:00 UTC
RESULT_SIGNS = {"+": "win", "-": "loss", "=": "draw"}


def rating_points(spec: str) -> list[RatingPoint]:
    """RATING_ST1's notation as points."""
    out = []
    for token in spec.split():
        sign = next(ch for ch in token if ch in RESULT_SIGNS)
        when, rating = token.split(sign)
        day, hour = (int(v) for v in when.split("."))
        at = NOVEMBER_2024 + (day - 1) * 86400 + hour * 3600
        out.append(RatingPoint(at, int(rating), RESULT_SIGNS[sign]))
    return out


def rating_series() -> dict[str, list[RatingPoint]]:
    return {
        "Schotten Totten": rating_points(RATING_ST1),
        "Schotten Totten 2": rating_points(RATING_ST2),
    }


def chance_points(spec: str = CHANCES) -> list[ChancePoint]:
    """CHANCES' notation as points, numbered from move 1."""
    out = []
    for move, token in enumerate(spec.split(), start=1):
        seat, percent = token.split(":")
        out.append(ChancePoint(move, int(seat), int(percent) / 100))
    return out


Draw = Callable[..., bytes]  # (theme, locale=None) -> PNG bytes


def chart_pictures() -> dict[str, Draw]:
    """The gallery's charts by name: each draws its picture in a theme (and a language)."""
    points = chance_points()
    return {
        "chart-rating": lambda theme, locale=None: render_rating_chart(
            rating_series(), name=NAMES[0], theme=theme, locale=locale
        ),
        "chart-chances": lambda theme, locale=None: render_chance_chart(
            points,
            names=NAMES,
            total_moves=len(points),
            marks=CHANCE_MARKS,
            theme=theme,
            locale=locale,
        ),
    }


# The standings: a finished Swiss of six (a shared rank, a bye, a forfeit, a player who
# left after round 2) and a round robin of five after three of its five rounds, two players
# sharing the lead. Results name the opponent's row: "+4" won against the player on row 4.
SWISS_STANDINGS = (
    StandingRow(1, "Aurélie", 2.5, (4.5, 2), ("+4", "+5", "=2")),
    StandingRow(2, "Ye-jin", 2, (5, 1), ("=5", "+3", "=1")),
    StandingRow(3, "Bartholomew", 2, (2.5, 2), ("+6", "−2", "+5")),
    StandingRow(3, "Ngozi", 2, (2.5, 2), ("−1", "+F", "bye")),
    StandingRow(5, "Chidi", 0.5, (6.5, 0), ("=2", "−1", "−3")),
    StandingRow(6, "Mateus", 0, (4, 0), ("−3", "−F", "·"), withdrawn=True),
)
ROUND_ROBIN_STANDINGS = (
    StandingRow(1, "Chidi", 2, (2,), ("+5", "−3", "+4")),
    StandingRow(1, "Ye-jin", 2, (2,), ("bye", "+5", "+3")),
    StandingRow(3, "Ngozi", 1.5, (1,), ("=4", "+1", "−2")),
    StandingRow(4, "Mateus", 0.5, (0,), ("=3", "bye", "−1")),
    StandingRow(5, "Łukasz Żółć", 0, (0,), ("−1", "−2", "bye")),
)


# What the bot would pass for the standings' titles, tie-breaks and notes (the caller words
# them, in the reader's language): the words of the tournament pages, written out here.
STANDINGS_WORDS = {
    "en": {
        "swiss": "Autumn Swiss · final standings",
        "buchholz": "Buchholz",
        "wins": "Wins",
        "swiss-note": "Buchholz: sum of opponents' points · Wins count forfeits and byes",
        "robin": "Club round robin · after round 3 of 5",
        "robin-note": "Wins: games won; then the game between the players tied",
        "bye": "bye",
    },
    "fr": {
        "swiss": "Suisse d'automne · classement final",
        "buchholz": "Buchholz",
        "wins": "Victoires",
        "swiss-note": (
            "Buchholz : somme des points des adversaires · Victoires : forfaits et exempts compris"
        ),
        "robin": "Toutes rondes du club · après la ronde 3 sur 5",
        "robin-note": "Victoires : parties gagnées ; puis la partie entre les ex æquo",
        "bye": "exe",  # French pairing tables' short "exempt"
    },
    "de": {
        "swiss": "Herbst-Schweizer · Endstand",
        "buchholz": "Buchholz",
        "wins": "Siege",
        "swiss-note": "Buchholz: Summe der Punkte der Gegner · Siege zählen kampflose und Freilose",
        "robin": "Rundenturnier des Clubs · nach Runde 3 von 5",
        "robin-note": "Siege: gewonnene Partien; dann die Partie zwischen den Gleichstehenden",
        "bye": "frei",
    },
}


def _rows(rows: tuple[StandingRow, ...], words: dict[str, str]) -> tuple[StandingRow, ...]:
    """`rows` with their byes in the caller's words."""
    return tuple(
        dataclasses.replace(r, results=tuple(words["bye"] if c == "bye" else c for c in r.results))
        for r in rows
    )


def standings_pictures() -> dict[str, Draw]:
    """The gallery's standings tables by name: each draws its picture in a theme (and a
    language, with the caller's words in that language too)."""

    def swiss(theme: Theme, locale: str | None = None) -> bytes:
        words = STANDINGS_WORDS.get(locale or "en", STANDINGS_WORDS["en"])
        return render_standings(
            words["swiss"],
            _rows(SWISS_STANDINGS, words),
            tiebreak_names=(words["buchholz"], words["wins"]),
            rounds=3,
            note=words["swiss-note"],
            theme=theme,
            locale=locale,
        )

    def robin(theme: Theme, locale: str | None = None) -> bytes:
        words = STANDINGS_WORDS.get(locale or "en", STANDINGS_WORDS["en"])
        return render_standings(
            words["robin"],
            _rows(ROUND_ROBIN_STANDINGS, words),
            tiebreak_names=(words["wins"],),
            rounds=5,
            note=words["robin-note"],
            theme=theme,
            locale=locale,
        )

    return {"standings-swiss": swiss, "standings-round-robin": robin}


def pictures() -> list[Picture]:
    """Every gallery picture, in order."""
    return [p for section in SECTIONS for p in section()]


def file_name(name: str, locale: str | None = None) -> str:
    """A gallery picture's file: NAME.png in English, NAME-fr.png in French."""
    return f"{name}.png" if locale in (None, "en") else f"{name}-{locale}.png"


def write(directory: Path, theme: Theme = DEFAULT_THEME) -> list[Path]:
    """Render every picture into `directory`, in English as NAME.png and in each of
    `LANGUAGES` as NAME-fr.png...; returns the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for locale in (None, *LANGUAGES):
        for p in pictures():
            path = directory / file_name(p.name, locale)
            path.write_bytes(p.render(theme, locale))
            paths.append(path)
        for name, draw in {**chart_pictures(), **standings_pictures()}.items():
            path = directory / file_name(name, locale)
            path.write_bytes(draw(theme, locale))
            paths.append(path)
    return paths
