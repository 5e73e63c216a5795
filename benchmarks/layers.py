"""Which layer a stack of frames is working in, for the e2e benchmark's CPU shares
(`CpuSampler`) and for py-spy profiles (`benchmarks/profile_layers.py`).

A stack goes to the layer of its innermost frame that belongs to a known layer: libraries in
between are skipped, so Pillow under render/ counts as render, under discord_loopback/ as
the emulator's. A stack under the benchmark's own player code counts as the players', what
ever it called (the players poll the game through the bot's service), unless the bot's front
is in it. A thread waiting for work is idle and counts nowhere.
"""

from __future__ import annotations

import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Sequence

# (a part of the frame's file path, layer): the first that matches, innermost frame first.
LAYERS = [
    ("discord_loopback/", "emulator"),
    ("jsonschema/", "emulator"),
    ("jsonschema_specifications/", "emulator"),
    ("referencing/", "emulator"),
    ("rpds/", "emulator"),
    ("bot/front/relay.py", "relay"),
    ("bot/front/texts.py", "lang"),
    ("bot/front/translator.py", "lang"),
    ("lang/", "lang"),
    ("gettext.py", "lang"),
    ("render/", "render"),
    ("bot/store/", "store"),
    ("aiosqlite/", "store"),
    ("sqlite3/", "store"),
    ("engine/", "engine"),
    ("bot/service.py", "service"),
    ("bot/", "bot front"),
    ("discord/", "discord.py"),
]
PLAYER_CODE = ("one_move", "paced_moves", "start_games", "on_chat")
# The innermost frame of a thread waiting for work rather than working.
IDLE = re.compile(
    r"^(_worker \(concurrent/futures/thread\.py|_connection_worker_thread \(aiosqlite/core\.py:59"
    r"|EpollSelector\.select|_PollLikeSelector\.select|ThreadedChildWatcher\._do_waitpid"
    r"|Condition\.wait|Event\.wait"
    r"|Thread\._wait_for_tstate_lock|CpuSampler\._run)"
)
LEAF_IDLE = {
    ("selectors.py", "select"),
    ("threading.py", "wait"),
    ("threading.py", "_wait_for_tstate_lock"),
    ("queue.py", "get"),
    ("thread.py", "_worker"),
    ("core.py", "_connection_worker_thread"),
    ("unix_events.py", "_do_waitpid"),
}

# One frame: (function name, file path as py-spy shows it or in full).
Frame = tuple[str, str]


def layer_of(frames: Sequence[Frame]) -> str:
    """The layer of one sample, its frames outermost first."""
    paths = ["/" + path.lstrip("/") for _, path in frames]
    front = any("/bot/front/" in p for p in paths)
    if not front and any(
        p.endswith("/e2e.py") and fn in PLAYER_CODE  # in benchmarks/, or a copy of it
        for (fn, _), p in zip(frames, paths, strict=True)
    ):
        return "players"
    for path in reversed(paths):
        for part, layer in LAYERS:
            if "/" + part in path:
                return layer
    if any("/aiohttp/web" in p for p in paths):
        return "emulator"  # its HTTP server, before a handler runs
    return "event loop, other"


class CpuSampler:
    """Samples every thread's stack every `interval` seconds while running: how many samples
    of working threads went to each layer. An estimate of where the CPU goes (a thread that
    holds the GIL delays the sample), cheap enough to run during a benchmark."""

    def __init__(self, interval: float = 0.005) -> None:
        self.interval = interval
        self.samples: Counter[str] = Counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cpu-sampler", daemon=True)

    def __enter__(self) -> CpuSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def share(self, layer: str) -> float:
        total = sum(self.samples.values())
        return self.samples[layer] / total if total else 0.0

    def _run(self) -> None:
        me = threading.get_ident()
        while not self._stop.wait(self.interval):
            started = time.perf_counter()
            for ident, top in sys._current_frames().items():
                if ident == me:
                    continue
                frames: list[Frame] = []
                frame = top
                while frame is not None:
                    frames.append((frame.f_code.co_name, frame.f_code.co_filename))
                    frame = frame.f_back
                frames.reverse()
                name, path = frames[-1]
                if (path.rsplit("/", 1)[-1], name) in LEAF_IDLE:
                    continue
                self.samples[layer_of(frames)] += 1
            # Never more than a tenth of the time sampling, however many threads there are.
            time.sleep(9 * (time.perf_counter() - started))
