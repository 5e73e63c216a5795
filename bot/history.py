"""A match's history: rebuilt from its seed and move log, and exported as text."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime

from bot.aborted import why_aborted
from bot.errors import Refused
from bot.records import MatchInfo
from bot.store import Row, Store
from engine.api import MatchSpec, Playable, replay_match
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


# The record's replay block: the options, the seed and every move in the bot's notation, in a
# fenced block that names itself, the same in every language (what a program reads back).
REPLAY_FENCE = "```schotten-replay"


async def export_text(store: Store, info: MatchInfo) -> str:
    """The whole match as text, for people: the game and who started, every move in words
    as the channel said it ("Bob drew a tactic card."), each game's result; in the current
    language (`lang.use`: the asker's).

    While the match is running, the record is what the board shows: no seed (it deals every
    hand and the deck order) and private moves (cards put back by the Recruiter, given in an
    Exchange) only as the channel said them, the same for everyone, players included. Once
    it has ended, everything is shown, as Board Game Arena reveals the hands after a game: a
    replay block at the end gives the options, the seed and every move in notation, which
    `read_replay` reads back (a running game's record has none: it could not replay)."""
    if not await verify(store, info):
        raise Refused(
            say("Game #{id} does not replay to its stored state; please report it.", id=info.id)
        )
    games = await store.games(info.id)
    names = info.names
    log = await log_of(store, info.id)
    # One replay from the deal: who moves first, then every move said in words.
    replayed = replay_match(info.spec, info.seed, [])
    lines: list[str | Phrase] = [
        # TRANSLATORS: the first line of a game's exported record; {game} is the game and its
        # options, e.g. "Schotten Totten, Expert".
        say("# schotten-bot game #{id}: {game}", id=info.id, game=info.spec.describe()),
        *_players(info, replayed.to_decide or 0),
        # TRANSLATORS: {time} is a date and time, e.g. 2026-03-01 18:30 UTC.
        say("Started: {time}", time=_when(info.created_at)),
        "",
        say("Moves:"),
    ]
    for number, (seat, text) in enumerate(log, 1):
        said = " ".join(localise(e.describe(names)) for e in replayed.play(text, seat))
        lines.append(f"{number:4d}. {said}")
    lines.append("")
    for g in [] if info.aborted else games:  # an aborted game's only round has no result
        # TRANSLATORS: one game (round) of a match in the exported record; {result} says who
        # won, why, and the game's figures.
        lines.append(
            say("Game {number}: {result}", number=g["number"], result=game_result(g, names))
        )
    lines.append(_result(info))
    if info.is_over:
        lines += [
            "",
            # TRANSLATORS: above the record's last block, which a program reads: the game's
            # options, its seed and its moves in the bot's notation (not translated).
            say("To replay this game: its options, seed and moves in the bot's notation."),
            REPLAY_FENCE,
            json.dumps(info.spec.to_json(), sort_keys=True),
            f"seed {info.seed}",
            *(f"{seat + 1} {text}" for seat, text in log),
            "```",
        ]
    return "\n".join(localise(line) for line in lines) + "\n"


def _players(info: MatchInfo, first: int) -> list[Phrase]:
    """Who plays, by what they do first (not "Seat 1", which reads as a ranking): the
    first to move in Schotten Totten; Attacker and Defender of the first game of a siege."""
    starter, other = info.names[first], info.names[1 - first]
    if info.spec.game == "st2":
        # TRANSLATORS: the record's player lines of a siege (the first game's roles).
        return [say("Attacker: {name}", name=starter), say("Defender: {name}", name=other)]
    # TRANSLATORS: the record's player lines: who moved first in the first round, who second.
    return [say("Moves first: {name}", name=starter), say("Moves second: {name}", name=other)]


def _result(info: MatchInfo) -> Phrase:
    outcome = info.match.outcome
    if info.aborted:
        # TRANSLATORS: {why} says who resigned or ran out of time before both had moved.
        return say("Result: aborted ({why}), unrated", why=why_aborted(info.match, info.names))
    if outcome is None:
        return say(
            "Result: in progress (cards put back or given stay private, and the seed is"
            " shown, when the game is over)"
        )
    if outcome.winner is None:
        # TRANSLATORS: {why} is how the game ended, e.g. "resignation".
        return say("Result: drawn ({why})", why=_why(outcome.termination))
    # TRANSLATORS: {why} is how the game ended, e.g. "resignation".
    return say(
        "Result: {name} wins ({why})",
        name=info.names[outcome.winner],
        why=_why(outcome.termination),
    )


def read_replay(record: str) -> tuple[MatchSpec, int, list[tuple[int, str]]]:
    """The options, seed and moves of a finished game's record (`export_text`), in any of
    its languages; ValueError if it has no replay block (a running game's)."""
    lines = record.splitlines()
    if REPLAY_FENCE not in lines:
        raise ValueError("no replay block: the game was still running")
    at = lines.index(REPLAY_FENCE) + 1
    block = lines[at : lines.index("```", at)]
    spec = MatchSpec.from_json(json.loads(block[0]))
    seed = int(block[1].removeprefix("seed "))
    moves = []
    for line in block[2:]:
        seat, text = line.split(" ", 1)
        moves.append((int(seat) - 1, text))
    return spec, seed, moves


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
