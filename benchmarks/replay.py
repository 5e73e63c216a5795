"""Replay figures: seconds to render the animated GIF of the stored 60-move Schotten Totten
Tactics game (benchmarks/recorded_games.py; median of 3, sprites and fonts warmed first), its
size in MiB (as `max_bytes` counts; target: at most 3 s and 8 MB) and its number of frames."""

from __future__ import annotations

from collections.abc import Iterator

from benchmarks.recorded_games import NAMES, tactics_60
from benchmarks.timing import figure, median_seconds
from render.replay import render_replay

RUNS = 3


def run() -> Iterator[str]:
    start, log = tactics_60()
    replay = render_replay(start, log, NAMES)  # warms the sprite caches and fonts
    seconds = median_seconds(lambda: render_replay(start, log, NAMES), runs=RUNS)
    yield figure("replay_gif_s", seconds, "s")
    yield figure("replay_gif_mb", len(replay.data) / (1024 * 1024), "MB")
    yield figure("replay_gif_frames", replay.frames, "frames")
