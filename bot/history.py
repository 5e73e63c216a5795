"""A match's history: rebuilt from its seed and move log, and exported as text."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime

from bot.aborted import why_aborted
from bot.errors import Refused
from bot.records import MatchInfo
from bot.store import Row, Store
from engine.api import Playable, replay_match
from engine.moves import public_text
from engine.outcome import Termination
from engine.phrases import Phrase, say, say_n
from lang import localise


async def rebuild(store: Store, info: MatchInfo) -> Playable:
    """The match replayed from its spec, seed and stored moves."""
    return replay_match(info.spec, info.seed, await log_of(store, info.id))


async def verify(store: Store, info: MatchInfo) -> bool:
    """Whether replaying the log gives exactly the stored state."""
    return replays_to(info, await log_of(store, info.id))


async def log_of(store: Store, match_id: int) -> list[tuple[int, str]]:
    """The match's moves as (seat, text), in order."""
    return [(int(m["seat"]), str(m["text"])) for m in await store.moves(match_id)]


def replays_to(info: MatchInfo, log: Sequence[tuple[int, str]]) -> bool:
    """Whether `log` played from the match's seed gives exactly its stored state."""
    rebuilt = replay_match(info.spec, info.seed, log)
    return json.dumps(rebuilt.to_json(), sort_keys=True) == json.dumps(
        info.match.to_json(), sort_keys=True
    )


def _when(t: float | None) -> str:
    if t is None:
        return "-"
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC")


async def export_text(store: Store, info: MatchInfo) -> str:
    """The whole match as text: options, players, every move in notation, the result.

    While the match is running, the record is what the board shows: no seed (it deals every
    hand and the deck order) and private moves (cards put back by the Recruiter, given in an
    Exchange) only as counts, the same for everyone, players included. Once it has ended,
    everything is shown, as Board Game Arena reveals the hands after a game.

    The headings and sentences are in the current language (`lang.use`: the asker's); the
    moves stay in notation."""
    if not await verify(store, info):
        raise Refused(
            say("Game #{id} does not replay to its stored state; please report it.", id=info.id)
        )
    moves = await store.moves(info.id)
    games = await store.games(info.id)
    names = info.names
    running = not info.is_over
    lines: list[str] = [
        # TRANSLATORS: the first line of a game's exported record; {game} is the game and its
        # options, e.g. "Schotten Totten, Expert".
        say("# schotten-bot game #{id}: {game}", id=info.id, game=info.spec.describe()),
        say("Seat 1: {name}", name=names[0]),
        say("Seat 2: {name}", name=names[1]),
        say("Seed: shown when the game is over")
        if running
        else say("Seed: {seed}", seed=info.seed),
        # TRANSLATORS: {time} is a date and time, e.g. 2026-03-01 18:30 UTC.
        say("Started: {time}", time=_when(info.created_at)),
        # TRANSLATORS: {options} is the game's options in JSON (not translated).
        say("Options: {options}", options=json.dumps(info.spec.to_json(), sort_keys=True)),
        "",
        say("Moves (player: move):"),
    ]
    for m in moves:
        text = public_text(m["text"], m["seat"], None) if running else m["text"]
        lines.append(f"{m['seq'] + 1:4d}. {localise(names[m['seat']])}: {text}")
    lines.append("")
    for g in [] if info.aborted else games:  # an aborted game's only round has no result
        # TRANSLATORS: one game (round) of a match in the exported record; {result} says who
        # won, why, and the game's figures.
        lines.append(
            say("Game {number}: {result}", number=g["number"], result=game_result(g, names))
        )
    outcome = info.match.outcome
    if info.aborted:
        # TRANSLATORS: {why} says who resigned or ran out of time before both had moved.
        lines.append(say("Result: aborted ({why}), unrated", why=why_aborted(info.match, names)))
    elif outcome is None:
        lines.append(
            say(
                "Result: in progress (cards put back or given stay private, and the seed is"
                " shown, when the game is over)"
            )
        )
    elif outcome.winner is None:
        # TRANSLATORS: {why} is how the game ended, e.g. "resignation".
        lines.append(say("Result: drawn ({why})", why=_why(outcome.termination)))
    else:
        # TRANSLATORS: {why} is how the game ended, e.g. "resignation".
        lines.append(
            say(
                "Result: {name} wins ({why})",
                name=names[outcome.winner],
                why=_why(outcome.termination),
            )
        )
    return "\n".join(localise(line) for line in lines) + "\n"


def _why(termination: Termination) -> str:
    """How a game ended, in words (the engine's Phrase)."""
    return termination.reason


def game_result(game: Row, names: Sequence[str]) -> Phrase:
    """One finished game of a match, in words: who won, why, and the figures that count
    (stones and points in Schotten Totten; the siege's tie-break figures in Schotten Totten 2)."""
    why = _why(Termination[game["termination"]])
    winner = game["winner"]
    d = json.loads(game["detail"])
    if "stones" in d:  # Schotten Totten
        figures = {
            "name0": names[0],
            "name1": names[1],
            "stones0": say_n("{count} stone", "{count} stones", d["stones"][0]),
            "stones1": say_n("{count} stone", "{count} stones", d["stones"][1]),
            "points0": say_n("{count} point", "{count} points", d["points"][0]),
            "points1": say_n("{count} point", "{count} points", d["points"][1]),
            "first": names[d["first_player"]],
        }
        if winner is None:
            # TRANSLATORS: a drawn round in a game's record; {why} is how it ended, {stones0}
            # and {stones1} are "3 stones" (stones held), {points0} and {points1} "5 points".
            return say(
                "drawn ({why}). {name0} held {stones0} and scored {points0}, {name1} held"
                " {stones1} and scored {points1}; {first} started.",
                why=why,
                **figures,
            )
        # TRANSLATORS: a round in a game's record; {why} is how it ended, {stones0} and
        # {stones1} are "3 stones" (stones held), {points0} and {points1} "5 points".
        return say(
            "won by {winner} ({why}). {name0} held {stones0} and scored {points0}, {name1}"
            " held {stones1} and scored {points1}; {first} started.",
            winner=names[winner],
            why=why,
            **figures,
        )
    # Schotten Totten 2
    figures = {
        "attacker": names[d["attacker"]],
        "cards": say_n(
            "{count} card left in the deck", "{count} cards left in the deck", d["deck_left"]
        ),
        "tiles": say_n("{count} tile intact", "{count} tiles intact", d["intact_tiles"]),
        "cauldrons": say_n(
            "{count} oil cauldron left", "{count} oil cauldrons left", d["cauldrons_left"]
        ),
    }
    if winner is None:
        # TRANSLATORS: a drawn game of a siege in its record; {why} is how it ended; {cards},
        # {tiles} and {cauldrons} are "5 cards left in the deck", "3 tiles intact" and "2 oil
        # cauldrons left".
        return say(
            "drawn ({why}). {attacker} attacked; {cards}, {tiles}, {cauldrons}.", why=why, **figures
        )
    # TRANSLATORS: a game of a siege in its record; {why} is how it ended; {cards}, {tiles}
    # and {cauldrons} are "5 cards left in the deck", "3 tiles intact" and "2 oil cauldrons
    # left".
    return say(
        "won by {winner} ({why}). {attacker} attacked; {cards}, {tiles}, {cauldrons}.",
        winner=names[winner],
        why=why,
        **figures,
    )
