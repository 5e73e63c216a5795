"""An animated GIF replay of a finished game, as a spectator saw it.

    replay = replay_gif(MatchSpec("tactics"), seed, match.log, names=("Alice", "Bob"))
    replay.data        # GIF bytes, at most max_bytes (8 MiB by default)

Frame 0 is the opening position, then one frame after every logged move. Each frame is the
board exactly as `render_board` draws the spectator's view (`match.view(None)`: both hands
hidden), under a caption band: the move number and what happened, from the move's public
events. Plain draws pass quickly, claims and round ends hold longer, the last frame longest.

Why it looks the way it does:

- One fixed palette for the whole GIF, in the global header: every flat colour of the board
  is in it exactly (the theme's colours, and the colours covering large areas of a few sample
  frames, which catches dimmed cards and other blends), so cards keep their true colours from
  frame to frame; the remaining entries cover anti-aliased edges. Frames are mapped to it
  without dithering, so flat areas stay flat (and compress well). One limit: Pillow cannot
  keep apart two colours within a few levels of each other (see `_keep_exact`).
- Pillow's GIF writer crops each frame to the rectangle that changed and, with `optimize`,
  makes unchanged pixels inside it transparent; one palette index is left free for that.
- A round's last move: the match has already dealt the next round, so the frame shows the
  finished round's board instead (the match's previous `game`, read before the move), with the
  match score after that round.

This is the one render module that drives a match (a copy of the caller's, through
engine.api): it hands the drawing code nothing but spectator views and public events, so a
replay shows no more than a spectator saw (tests/render/test_replay.py swaps hidden cards and
gets the same bytes). Nothing is kept between calls; a replay can be rendered in a thread
(`asyncio.to_thread`).
"""

from __future__ import annotations

import dataclasses
import io
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal, cast

from PIL import Image, ImageColor, ImageDraw

from engine.api import MatchSpec, Playable, load_match, new_match
from engine.events import Event
from engine.moves import public_text
from engine.st1.view import View as St1View
from engine.st2.view import View as St2View
from lang import _, localise, speaking
from render import png, st1_board, st2_board, text
from render.frame import FRAME_WIDTH
from render.theme import DEFAULT_THEME, Theme

__all__ = [
    "HOLD_MS",
    "Hold",
    "Replay",
    "ReplayFrame",
    "caption_height",
    "caption_words",
    "render_replay",
    "render_replay_frame",
    "replay_frame",
    "replay_frames",
    "replay_gif",
]

AnyView = St1View | St2View
Hold = Literal["move", "draw", "claim", "final"]

# How long each kind of frame stays up. A plain draw changes little but a count; a claim or a
# round's end deserves a look; the last frame holds the result. GIF stores hundredths.
HOLD_MS: MappingProxyType[str, int] = MappingProxyType(
    {"move": 1100, "draw": 600, "claim": 2500, "final": 6000}
)

# Shrinking steps when the GIF is too big. Half size (380 pixels wide) is about the width a
# phone shows anyway; below it the smallest text could no longer be read.
SCALES = (1.0, 0.85, 0.7, 0.6, 0.5)

# A caption is at most two lines in the band: about 60 characters each at the smallest size.
MAX_CAPTION_CHARS = 116

# Events by importance, for a caption that cannot say everything: the match's or game's end
# first, then claims, then the card played, then draws and the next round's deal (the next
# frames show those). Known by their kind (class name): the match modules that define some of
# them hold hidden cards, and render modules do not import them (tests/render/test_privacy.py).
_ENDS = frozenset({"MatchEnded", "RevengeEnded"})
_GAME_ENDS = frozenset({"GameEnded", "RoundEnded", "SiegeEnded", "Resigned"})
_CLAIMS = frozenset({"StoneClaimed", "ControlDeclared"})
_MINOR = frozenset({"CardDrawn", "NothingDrawn", "RoundStarted"})
_DRAWS = frozenset({"CardDrawn", "NothingDrawn"})

# The palette: 255 colours, so that index 255 stays free for Pillow to mark unchanged pixels
# transparent. A colour covering at least FLAT_MIN pixels of one sample counts as flat: the
# smallest flat part of a card, the hatching of one dimmed card, covers about 700; the
# anti-aliased edge colours of glyphs and rounded corners cover far fewer.
PALETTE_SIZE = 255
MAX_FLAT = 160
FLAT_MIN = 300
SAMPLES = 6  # frames besides the first, the last and the ends of rounds

CAPTION_PAD = 12


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """One picture of the replay: the spectator's view after `number` moves of `total`."""

    number: int
    total: int
    view: AnyView
    words: str  # what happened, in a sentence or two
    hold: Hold

    @property
    def caption(self) -> str:
        return f"{self.counter} · {self.words}"

    @property
    def counter(self) -> str:
        return f"{self.number}/{self.total}"


@dataclass(frozen=True, slots=True)
class Replay:
    """The GIF and what it holds."""

    data: bytes
    frames: int
    size: tuple[int, int]
    scale: float  # 1.0 unless it was shrunk to fit max_bytes
    duration_ms: int


# ---- frames: the views and captions ------------------------------------------------------


def replay_frames(
    start: Playable,
    log: Sequence[tuple[int, str]],
    names: Sequence[str],
    *,
    locale: str | None = None,
) -> list[ReplayFrame]:
    """The opening position of `start`, then the position after each move of `log`: one
    frame more than moves, captioned in `locale`'s language (English by default). `start`
    is copied, never changed; a move that cannot be played raises the engine's GameError."""
    with speaking(locale):
        return _replay_frames(start, log, names)


def _replay_frames(
    start: Playable, log: Sequence[tuple[int, str]], names: Sequence[str]
) -> list[ReplayFrame]:
    if len(names) != 2:
        raise ValueError("names: the display names of seat 0 and seat 1")
    match = load_match(start.to_json())
    total = len(log)
    frames = [ReplayFrame(0, total, match.view(None), _opening(names), "move")]
    for number, (seat, move) in enumerate(log, start=1):
        before = getattr(match, "game", None)
        events = match.play(move, seat)
        hold: Hold = "final" if number == total else _hold(events)
        words = caption_words(events, names, seat, move)
        frames.append(ReplayFrame(number, total, _view_after(match, before), words, hold))
    return frames


def _opening(names: Sequence[str]) -> str:
    # TRANSLATORS: the caption of a replay's first frame.
    return _("Start: {player0} against {player1}.").format(player0=names[0], player1=names[1])


def replay_frame(
    start: Playable,
    log: Sequence[tuple[int, str]],
    names: Sequence[str],
    number: int,
    *,
    locale: str | None = None,
) -> ReplayFrame:
    """The replay's frame after `number` moves of `log` (0: the opening position; clamped to
    the moves there are): the same view and caption as that frame of `replay_frames`, with
    only the moves up to it played."""
    if len(names) != 2:
        raise ValueError("names: the display names of seat 0 and seat 1")
    number = max(0, min(number, len(log)))
    with speaking(locale):
        match = load_match(start.to_json())
        total = len(log)
        if number == 0:
            return ReplayFrame(0, total, match.view(None), _opening(names), "move")
        before: Any = None
        events: Sequence[Event] = ()
        for seat, move in log[: number - 1]:
            match.play(move, seat)
        seat, move = log[number - 1]
        before = getattr(match, "game", None)
        events = match.play(move, seat)
        hold: Hold = "final" if number == total else _hold(events)
        words = caption_words(events, names, seat, move)
        return ReplayFrame(number, total, _view_after(match, before), words, hold)


def render_replay_frame(
    frame: ReplayFrame,
    names: Sequence[str],
    *,
    theme: Theme = DEFAULT_THEME,
    locale: str | None = None,
) -> bytes:
    """One frame of a replay as a PNG: the caption band (its number and what happened) over
    the spectator's board, as the GIF shows it, for stepping through a game."""
    pair = (str(names[0]), str(names[1]))
    with speaking(locale):
        board = _board(frame.view, pair, theme)
        band = _caption(frame, board.width, theme)
    out = Image.new("RGB", (board.width, band.height + board.height), theme.background)
    out.paste(band, (0, 0))
    out.paste(board, (0, band.height))
    return png.encode(out)


def _view_after(match: Playable, before: Any) -> AnyView:
    """The spectator's view after a move. When the move ended a round of a match (or the
    first game of a revenge match), the match has already dealt the next one: the finished
    game's board is shown instead, with the match's standing after it."""
    now: AnyView = match.view(None)
    if before is None or getattr(match, "game", None) is before:
        return now
    finished: AnyView = before.view(None)
    if isinstance(now, St1View) and isinstance(finished, St1View) and now.match is not None:
        return dataclasses.replace(
            finished, match=dataclasses.replace(now.match, round=now.match.round - 1)
        )
    if isinstance(now, St2View) and isinstance(finished, St2View) and now.revenge is not None:
        return dataclasses.replace(
            finished,
            revenge=dataclasses.replace(now.revenge, game=now.revenge.game - 1, first_winner=None),
        )
    return finished


def _hold(events: Sequence[Event]) -> Hold:
    kinds = {e.kind for e in events}
    if kinds & (_ENDS | _GAME_ENDS | _CLAIMS):
        return "claim"
    if kinds and kinds <= _DRAWS:
        return "draw"
    return "move"


def _rank(event: Event) -> int:
    for rank, kinds in ((4, _ENDS), (3, _GAME_ENDS), (2, _CLAIMS), (0, _MINOR)):
        if event.kind in kinds:
            return rank
    return 1


def caption_words(events: Sequence[Event], names: Sequence[str], seat: int, move: str) -> str:
    """What a move did, from its public events, at most MAX_CAPTION_CHARS long: the most
    important events that fit, in the order they happened; the first one shortened if it
    alone is too long."""
    said = [localise(e.describe(names)) for e in events]
    if not said:
        # A move without an event: its text as a spectator may read it.
        # TRANSLATORS: a replay caption for a move with no description; {move} is notation.
        words = _("{player}: {move}.").format(
            player=names[seat], move=public_text(move, seat, None)
        )
        return _shorten(words)
    by_rank = sorted(range(len(events)), key=lambda i: (-_rank(events[i]), i))
    chosen: set[int] = set()
    for i in by_rank:
        joined = " ".join(said[j] for j in sorted(chosen | {i}))
        if not chosen or len(joined) <= MAX_CAPTION_CHARS:
            chosen.add(i)
    return _shorten(" ".join(said[j] for j in sorted(chosen)))


def _shorten(words: str, limit: int = MAX_CAPTION_CHARS) -> str:
    """`words` cut after a whole word, with an ellipsis, if longer than `limit`."""
    if len(words) <= limit:
        return words
    cut = words[: limit - 1]
    if " " in cut:
        cut = cut[: cut.rindex(" ")]
    shown = cut.rstrip(" ,;:") + "…"
    text.note_cut(shown, words)
    return shown


# ---- pictures ----------------------------------------------------------------------------


def _board(view: AnyView, names: tuple[str, str], theme: Theme) -> Image.Image:
    """The board as `render_board` draws it (before PNG encoding), default orientation."""
    if isinstance(view, St1View):
        return st1_board.render(view, names, theme, None)
    return st2_board.render(view, names, theme, None)


def caption_height(theme: Theme = DEFAULT_THEME) -> int:
    """The caption band's height: two lines at the label size. The board is drawn below it."""
    return 2 * round(theme.label_size * 1.25) + 2 * CAPTION_PAD


def _caption(frame: ReplayFrame, width: int, theme: Theme) -> Image.Image:
    """The band above the board: the move number in bold, then what happened, wrapped on at
    most two lines at a size a phone can read (theme.small_size at the least)."""
    h = caption_height(theme)
    img = Image.new("RGB", (width, h), theme.background)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, width - 1, h - 1), outline=theme.frame, width=3)
    m = theme.margin
    fb = text.bold(theme, theme.label_size)
    # As wide as the largest number of this replay, so the words do not shift between frames.
    counter_w = round(fb.getlength(f"{frame.total}/{frame.total}"))
    x = m + counter_w + 14
    room_w = width - x - m
    f, rows = text.lines(
        frame.words, theme, (theme.label_size, theme.small_size), room_w, 2, strong=False
    )
    if len(rows) > 2:
        rows = text.wrap(" ".join(rows), f, room_w, 2)
    step = round(theme.label_size * 1.25)
    y = (h - len(rows) * step) / 2
    room = (m, y, x, y + step)
    text.draw(d, (m, y + step / 2), frame.counter, fb, theme.result, "lm", room=room)
    for row in rows:
        room = (x, y, x + room_w, y + step)
        text.draw(d, (x, y + step / 2), row, f, theme.text, "lm", room=room)
        y += step
    return img


def _theme_colors(theme: Theme) -> list[tuple[int, int, int]]:
    """Every colour the theme names (its flat fills, inks and lines)."""
    names: list[str] = []
    for f in dataclasses.fields(theme):
        value = getattr(theme, f.name)
        if isinstance(value, str) and value.startswith("#"):
            names.append(value)
    names.extend(theme.seat)
    for _color, look in theme.card_colors:
        names.extend((look.fill, look.ink))
    return list(dict.fromkeys(_rgb(name) for name in names))


def _rgb(name: str) -> tuple[int, int, int]:
    r, g, b = ImageColor.getrgb(name)[:3]
    return (r, g, b)


def _flat(rgb: Sequence[tuple[int, int, int]]) -> list[int]:
    return [c for color in rgb for c in color]


def _palette(samples: Iterable[Image.Image], theme: Theme) -> list[tuple[int, int, int]]:
    """The replay's palette: the theme's colours and the samples' flat colours exactly
    (ranked by the most pixels they cover in one sample, so that a card dimmed in one frame
    only counts as much as the table seen in all), then colours for the anti-aliased rest,
    chosen by median cut."""
    most: Counter[tuple[int, int, int]] = Counter()
    for img in samples:
        for n, color in img.getcolors(img.width * img.height) or ():
            # The samples are RGB images: each colour is an (r, g, b) tuple.
            rgb = cast(tuple[int, int, int], color)
            most[rgb] = max(most[rgb], n)
    flat = [c for c, n in most.most_common(MAX_FLAT) if n >= FLAT_MIN]
    forced = list(dict.fromkeys([*_theme_colors(theme), *flat]))
    chosen = set(forced)
    rest = [c for c in most if c not in chosen]
    # More than the room left: some forced colours will go (see _keep_exact).
    wanted = min(256, PALETTE_SIZE - len(forced) + 64, len(rest))
    extra: list[tuple[int, int, int]] = []
    if wanted > 0:
        # Each colour weighted a little by how often it is seen (up to 4 pixels).
        weighted = [c for c in rest for _ in range(min(most[c], 4))]
        strip = Image.new("RGB", (len(weighted), 1))
        strip.putdata(weighted)
        pal = strip.quantize(wanted, method=Image.Quantize.MEDIANCUT).getpalette() or []
        found = [(pal[i], pal[i + 1], pal[i + 2]) for i in range(0, len(pal) - 2, 3)]
        extra = [c for c in dict.fromkeys(found) if c not in chosen]
    return _keep_exact(forced, extra)


def _palette_image(colors: Sequence[tuple[int, int, int]]) -> Image.Image:
    img = Image.new("P", (1, 1))
    img.putpalette(_flat(colors))
    return img


def _keep_exact(
    forced: list[tuple[int, int, int]], extra: list[tuple[int, int, int]]
) -> list[tuple[int, int, int]]:
    """The first PALETTE_SIZE of `forced + extra` (most important first), less the colours
    that would take a more important forced colour's pixels. Pillow maps a pixel through a
    cache of 4 x 4 x 4 colour cells, to the palette entry nearest the cell's corner: an entry
    close to a forced colour can win its whole cell. Of two such colours, the less important
    one goes (the theme's frame #46505F and slot #47505E share a cell: slot lines, thin and
    anti-aliased, take the frame's colour, one level away)."""
    candidates = forced + extra
    rank = {c: i for i, c in enumerate(candidates)}
    dropped: set[tuple[int, int, int]] = set()
    while True:
        colors = [c for c in candidates if c not in dropped][:PALETTE_SIZE]
        kept = [c for c in forced if c not in dropped]
        probe = Image.new("RGB", (len(kept), 1))
        probe.putdata(kept)
        mapped = probe.quantize(palette=_palette_image(colors), dither=Image.Dither.NONE)
        losers = set()
        for color, index in zip(kept, mapped.tobytes(), strict=True):
            thief = colors[index]
            if thief != color:
                losers.add(max(color, thief, key=rank.__getitem__))
        if not losers:
            return colors
        dropped |= losers


def _sample_numbers(frames: Sequence[ReplayFrame]) -> list[int]:
    """Frames whose colours make the palette: the first, the last, the ends of rounds (the
    fullest boards, with every claimed stone and dimmed card) and a few spread between."""
    n = len(frames)
    picked = {0, n - 1}
    picked.update(i for i, f in enumerate(frames) if f.hold == "claim")
    picked.update(round(k * (n - 1) / (SAMPLES + 1)) for k in range(1, SAMPLES + 1))
    return sorted(picked)


@dataclass(frozen=True, slots=True)
class _Frames:
    """The replay's frames, in palette mode, and what saving them needs."""

    images: list[Image.Image]
    palette: list[tuple[int, int, int]]
    durations: list[int]


def _draw_frames(frames: Sequence[ReplayFrame], names: tuple[str, str], theme: Theme) -> _Frames:
    width = theme.board_width
    samples = {i: _board(frames[i].view, names, theme) for i in _sample_numbers(frames)}
    captions = [_caption(frames[i], width, theme) for i in (0, len(frames) - 1)]
    palette = _palette([*samples.values(), *captions], theme)
    ref = _palette_image(palette)

    def quantized(img: Image.Image) -> Image.Image:
        return img.quantize(palette=ref, dither=Image.Dither.NONE)

    # Boards differ in height (a discard pile grows, a result banner appears): every frame
    # is as tall as the tallest, and a shorter board's frame is drawn down to the picture's
    # bottom (table colour inside it), so no frame ends in a bare strip below its board.
    boards = []
    for i, frame in enumerate(frames):
        rgb = samples.pop(i) if i in samples else _board(frame.view, names, theme)
        boards.append(quantized(rgb))
    band = caption_height(theme)
    size = (width, band + max(b.height for b in boards))
    background = palette.index(_rgb(theme.background))  # the theme's colours come first
    edge = quantized(Image.new("RGB", (1, 1), theme.frame)).getpixel((0, 0))
    images = []
    for frame, board in zip(frames, boards, strict=True):
        img = Image.new("P", size, background)
        img.putpalette(_flat(palette))
        img.paste(quantized(_caption(frame, width, theme)), (0, 0))
        if board.height < size[1] - band:
            # Without its bottom edge: the frame is drawn again around the full height.
            board = board.crop((0, 0, board.width, board.height - FRAME_WIDTH))
            ImageDraw.Draw(img).rectangle(
                (0, band, width - 1, size[1] - 1), outline=edge, width=FRAME_WIDTH
            )
        img.paste(board, (0, band))
        images.append(img)
    return _Frames(images, palette, [HOLD_MS[f.hold] for f in frames])


def _encode(frames: _Frames) -> bytes:
    out = io.BytesIO()
    first, *rest = frames.images
    first.save(
        out,
        format="GIF",
        save_all=True,
        append_images=rest,
        duration=frames.durations,
        loop=0,  # forever
        palette=bytes(_flat(frames.palette)),  # one global palette, no local tables
        optimize=True,  # crop to what changed, unchanged pixels transparent
        disposal=1,  # each frame is drawn over the previous one
        interlace=False,
    )
    return out.getvalue()


def _scaled(frames: _Frames, scale: float) -> _Frames:
    """The frames shrunk by `scale`, mapped to the same palette. BOX (area averaging): no
    ringing, so flat areas stay flat; it gave the smallest files and the quickest resize
    (LANCZOS made them 40% larger)."""
    ref = _palette_image(frames.palette)
    w, h = frames.images[0].size
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    images = [
        img.convert("RGB")
        .resize(size, Image.Resampling.BOX)
        .quantize(palette=ref, dither=Image.Dither.NONE)
        for img in frames.images
    ]
    return _Frames(images, frames.palette, frames.durations)


def _next_scale(scale: float, size: int, max_bytes: int) -> float | None:
    """The next step down: the largest one expected to fit, else the smallest; None when
    already at the smallest. The size falls more slowly than the area (measured: about as
    the width to the power 1.3, shrunk edges being new colours)."""
    smaller = [s for s in SCALES if s < scale]
    if not smaller:
        return None
    expected = scale * (max_bytes / size) ** (1 / 1.3) * 0.97
    fitting = [s for s in smaller if s <= expected]
    return max(fitting) if fitting else min(smaller)


def render_replay(
    start: Playable,
    log: Sequence[tuple[int, str]],
    names: Sequence[str],
    *,
    max_bytes: int = 8 * 1024 * 1024,
    theme: Theme = DEFAULT_THEME,
    locale: str | None = None,
) -> Replay:
    """The replay of `log` played from `start` (which is not changed) as an animated GIF of
    at most `max_bytes`, shrunk if it must be, its words in `locale`'s language (our
    language code or a Discord locale; English by default). Raises ValueError if it cannot
    fit even at the smallest scale."""
    with speaking(locale):
        return _render_replay(start, log, names, max_bytes, theme)


def _render_replay(
    start: Playable,
    log: Sequence[tuple[int, str]],
    names: Sequence[str],
    max_bytes: int,
    theme: Theme,
) -> Replay:
    frames = _replay_frames(start, log, names)
    pair = (str(names[0]), str(names[1]))
    drawn = _draw_frames(frames, pair, theme)
    scale = 1.0
    data = _encode(drawn)
    current = drawn
    while len(data) > max_bytes:
        step = _next_scale(scale, len(data), max_bytes)
        if step is None:
            raise ValueError(
                f"the replay takes {len(data) / 1024:.0f} KiB even at {scale:.0%} size,"
                f" more than the {max_bytes / 1024:.0f} KiB allowed"
            )
        scale = step
        current = _scaled(drawn, scale)
        data = _encode(current)
    return Replay(
        data=data,
        frames=len(current.images),
        size=current.images[0].size,
        scale=scale,
        duration_ms=sum(current.durations),
    )


def replay_gif(
    spec: MatchSpec, seed: int, log: Sequence[tuple[int, str]], names: Sequence[str], **kw: Any
) -> Replay:
    """The replay of a match dealt from `spec` and `seed`: see `render_replay` (whose keywords,
    `locale` among them, it takes)."""
    return render_replay(new_match(spec, seed), log, names, **kw)
