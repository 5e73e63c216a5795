"""A match's history: rebuilt from its seed and move log, and exported as text."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime

from bot.errors import Refused
from bot.records import MatchInfo
from bot.store import Row, Store
from bot.wording import plural
from engine.api import Playable, replay_match
from engine.moves import public_text
from engine.outcome import Termination


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
    everything is shown, as Board Game Arena reveals the hands after a game."""
    if not await verify(store, info):
        raise Refused(f"Game #{info.id} does not replay to its stored state; please report it.")
    moves = await store.moves(info.id)
    games = await store.games(info.id)
    names = info.names
    running = not info.is_over
    lines = [
        f"# schotten-bot game #{info.id}: {info.spec.describe()}",
        f"Seat 1: {names[0]}",
        f"Seat 2: {names[1]}",
        "Seed: shown when the game is over" if running else f"Seed: {info.seed}",
        f"Started: {_when(info.created_at)}",
        f"Options: {json.dumps(info.spec.to_json(), sort_keys=True)}",
        "",
        "Moves (player: move):",
    ]
    for m in moves:
        text = public_text(m["text"], m["seat"], None) if running else m["text"]
        lines.append(f"{m['seq'] + 1:4d}. {names[m['seat']]}: {text}")
    lines.append("")
    for g in games:
        lines.append(f"Game {g['number']}: {game_result(g, names)}")
    outcome = info.match.outcome
    if outcome is None:
        lines.append(
            "Result: in progress (cards put back or given stay private, and the seed is"
            " shown, when the game is over)"
        )
    elif outcome.winner is None:
        lines.append(f"Result: drawn ({outcome.termination.value})")
    else:
        lines.append(f"Result: {names[outcome.winner]} wins ({outcome.termination.value})")
    return "\n".join(lines) + "\n"


def game_result(game: Row, names: Sequence[str]) -> str:
    """One finished game of a match, in words: who won, why, and the figures that count
    (stones and points in Schotten Totten; the siege's tie-break figures in Schotten Totten 2)."""
    why = Termination[game["termination"]].value
    won = "drawn" if game["winner"] is None else f"won by {names[game['winner']]}"
    d = json.loads(game["detail"])
    if "stones" in d:  # Schotten Totten
        first = names[d["first_player"]]
        figures = (
            f"{names[0]} held {plural(d['stones'][0], 'stone')} and scored"
            f" {plural(d['points'][0], 'point')}, {names[1]} held"
            f" {plural(d['stones'][1], 'stone')} and scored {plural(d['points'][1], 'point')};"
            f" {first} started"
        )
    else:  # Schotten Totten 2
        figures = (
            f"{names[d['attacker']]} attacked; {plural(d['deck_left'], 'card')} left in the"
            f" deck, {plural(d['intact_tiles'], 'tile')} intact,"
            f" {plural(d['cauldrons_left'], 'oil cauldron')} left"
        )
    return f"{won} ({why}). {figures}."
