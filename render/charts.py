"""Charts in the boards' look: a member's rating after each rated game, and both players'
estimated chances of winning over one game.

Like the boards they are opaque, `theme.board_width` wide and readable on a phone (no words
under `theme.small_size`). Nothing depends on colour alone: the two lines also differ by
dash (solid, dashed) and by marker shape (circle, square), a legend names them in words, and
results are shapes (a filled up-triangle won, a hollow down-triangle lost, a diamond drawn).

Lines, markers and panels are drawn `supersample` times larger and shrunk, as the cards are;
the words are drawn afterwards at their final size, through render.text, so that the phone
check sees them. Nothing is shared between calls but fonts (per thread) and constants.

    render_rating_chart({"Schotten Totten": points}, name="Aurélie")
    render_chance_chart(points, names=("Aurélie", "Bartholomew"), total_moves=61,
                        marks=[(1, 23)])
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw
from PIL.ImageFont import FreeTypeFont

from lang import pgettext, speaking
from render import png, text
from render.frame import finish
from render.theme import DEFAULT_THEME, Theme

Point = tuple[float, float]
Box = tuple[float, float, float, float]

# Okabe and Ito's sky blue and orange: told apart with every common colour-vision
# deficiency, and over 5:1 against the table. Not the seat colours: a rating belongs to a
# game, not to a side of the table.
GAME_COLORS: tuple[str, str] = ("#56B4E9", "#E69F00")

RESULTS = ("win", "loss", "draw")
CIRCLE, SQUARE, UP, DOWN, DIAMOND = "circle", "square", "up", "down", "diamond"
# A result's marker: its shape, and whether it is hollow (filled and hollow also differ).
RESULT_MARKS: dict[str, tuple[str, bool]] = {
    "win": (UP, False),
    "loss": (DOWN, True),
    "draw": (DIAMOND, False),
}

LINE_W = 4  # final pixels: 2 on a phone
DASH = (14, 9)  # the second line's dashes and gaps, in final pixels
RESULT_SIZE = 18  # result markers; thinned out or smaller when the games are dense
RESULT_SMALL = 14
SERIES_SIZE = 14  # circles and squares on the chance lines and in the legends
BADGE = 30  # a numbered mark's disc
RING = SERIES_SIZE / 2 + 5  # around the point a mark pins
TITLE_TOP, TITLE_H = 12, 44
ROW_H = 32  # a legend row
PLOT_H = 280
AXIS_H = 70  # under the plot: the numbers, then the caption and the dates
PAD_X = 16  # inside the plot panel, so that markers at the ends stay inside it
PAD_Y = 14
MIN_SPAN = 40  # rating points: a flat line is drawn in a range at least this tall


def month(number: int) -> str:
    """A month's short name (1 = January) in the current language, for the charts' dates."""
    names = (
        pgettext("month, short", "Jan"),
        pgettext("month, short", "Feb"),
        pgettext("month, short", "Mar"),
        pgettext("month, short", "Apr"),
        pgettext("month, short", "May"),
        pgettext("month, short", "Jun"),
        pgettext("month, short", "Jul"),
        pgettext("month, short", "Aug"),
        pgettext("month, short", "Sep"),
        pgettext("month, short", "Oct"),
        pgettext("month, short", "Nov"),
        pgettext("month, short", "Dec"),
    )
    return names[number - 1]


def result_word(result: str) -> str:
    """ "win", "loss" or "draw" in the current language, for the rating chart's legend."""
    if result == "win":
        return pgettext("chart legend: a game's result", "win")
    if result == "loss":
        return pgettext("chart legend: a game's result", "loss")
    return pgettext("chart legend: a game's result", "draw")


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A member's shown rating after one rated game."""

    at: float  # unix time the rated game ended
    rating: int  # the shown rating after that game (e.g. 1000, 1104, 987)
    result: str  # "win", "loss" or "draw"


@dataclass(frozen=True, slots=True)
class ChancePoint:
    """One player's estimate of their chance of winning, when deciding one move."""

    move: int  # 1-based number of the move in the game's log
    seat: int  # 0 or 1: whose estimate
    chance: float  # that player's estimated chance of winning, 0..1, when deciding it


@dataclass(frozen=True, slots=True)
class LineStyle:
    """How one line looks: never told apart by colour alone."""

    color: str
    dashed: bool
    shape: str  # CIRCLE or SQUARE


def line_styles(colors: tuple[str, str]) -> tuple[LineStyle, LineStyle]:
    """The first line solid with circles, the second dashed with squares."""
    return LineStyle(colors[0], False, CIRCLE), LineStyle(colors[1], True, SQUARE)


@dataclass(frozen=True, slots=True)
class Chart:
    """A chart as drawn, before encoding: the picture and where its plot panel is."""

    image: Image.Image
    plot: Box
    badges: tuple[Point, ...] = ()  # the centres of the numbered marks, in `marks` order


# ---- the public API ---------------------------------------------------------------------


def render_rating_chart(
    series: Mapping[str, Sequence[RatingPoint]],
    *,
    name: str,
    start: int | None = None,
    theme: Theme = DEFAULT_THEME,
    locale: str | None = None,
) -> bytes:
    """A member's rating after each rated game, one line per game (keys are the games'
    names, e.g. "Schotten Totten", "Schotten Totten 2"; one or two series), wins and losses
    marked. `start`: the rating before a game's first rated game (a new player's), drawn as
    each line's first point, at game 0, so that even one game draws a line from the start.
    PNG bytes. `locale`: the language of its words (our code or a Discord locale; English
    by default)."""
    with speaking(locale):
        return png.encode(rating_chart(series, name=name, start=start, theme=theme).image)


def render_chance_chart(
    points: Sequence[ChancePoint],
    *,
    names: Sequence[str],
    total_moves: int,
    marks: Sequence[tuple[int, int]] = (),
    theme: Theme = DEFAULT_THEME,
    locale: str | None = None,
) -> bytes:
    """Each player's estimated chance of winning over the game (0-100 %), both players on
    one chart; `marks` are (label, move) pairs, e.g. (1, 23) for the costliest move, drawn
    as a numbered marker on the line of the player who made that move. PNG bytes.
    `locale`: as for `render_rating_chart`."""
    with speaking(locale):
        chart = chance_chart(points, names=names, total_moves=total_moves, marks=marks, theme=theme)
        return png.encode(chart.image)


# ---- the rating chart -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Series:
    """One game's points in time order, with their places on the shared game axis."""

    label: str
    style: LineStyle
    points: tuple[RatingPoint, ...]
    numbers: tuple[int, ...]  # each game's number among all the member's rated games


def rating_chart(
    series: Mapping[str, Sequence[RatingPoint]],
    *,
    name: str,
    start: int | None = None,
    theme: Theme = DEFAULT_THEME,
    colors: tuple[str, str] = GAME_COLORS,
) -> Chart:
    """The rating chart as a picture (see `render_rating_chart`); `colors` are the two
    games' line colours."""
    lines = _rating_series(series, line_styles(colors))
    count = sum(len(s.points) for s in lines)
    ratings = [p.rating for s in lines for p in s.points]
    if start is not None:
        ratings.append(start)
    y_lo, y_hi, y_ticks = _rating_ticks(min(ratings), max(ratings))
    w, m = theme.board_width, theme.margin
    f_tick = text.regular(theme, theme.small_size)
    f_end = text.bold(theme, theme.label_size)
    label_w = max(f_tick.getlength(str(t)) for t in y_ticks)
    end_w = SERIES_SIZE + 12 + max(f_end.getlength(str(s.points[-1].rating)) for s in lines)
    plot_top = TITLE_TOP + TITLE_H + 2 * ROW_H + 10  # two legend rows: lines, results
    box = (m + label_w + 10, plot_top, w - m - end_w - 14, plot_top + PLOT_H)
    first = 1 if start is None else 0  # game 0: before the first rated game
    axes = _Axes(box, (first, count), (y_lo, y_hi))
    c = _Canvas.new(w, round(box[3]) + AXIS_H, theme)

    stride, size = _result_thinning(lines, axes)
    # TRANSLATORS: the rating chart's title; {player} is the member's name.
    y = _title(c, pgettext("chart title", "{player} · rating"), name, theme)
    _series_legend(c, [(s.label, s.style) for s in lines], y)
    _result_legend(c, lines, y + ROW_H, stride)
    _panel(c, box)
    for t in y_ticks:
        _grid_y(c, axes, t, str(t), f_tick)
    caption = pgettext("chart axis", "rated game")
    _x_axis(c, axes, _game_ticks(count, first), f_tick, caption, _dates(lines))
    for s in lines:
        pts = [(axes.x(n), axes.y(p.rating)) for n, p in zip(s.numbers, s.points, strict=True)]
        if start is not None:
            # The start, just before this game's first rated game (where the line leaves).
            pts.insert(0, (axes.x(s.numbers[0] - 1), axes.y(start)))
        c.polyline(pts, s.style.color, LINE_W, dashed=s.style.dashed)
        if start is not None:
            # Hollow and small: a rating, not a game's result.
            c.marker(s.style.shape, pts[0], SERIES_SIZE - 2, s.style.color, hollow=True)
    for s in lines:
        _result_markers(c, s, axes, stride, size)
    _end_labels(c, lines, axes, f_end)
    return Chart(c.finish(), box)


def _rating_series(
    series: Mapping[str, Sequence[RatingPoint]], styles: tuple[LineStyle, LineStyle]
) -> list[_Series]:
    """The games with points, each styled by its place in `series` (so a game keeps its
    look whether or not the other has games), numbered along one time axis."""
    if len(series) > 2:
        raise ValueError(f"a rating chart shows one or two games, not {len(series)}")
    for points in series.values():
        for p in points:
            if p.result not in RESULTS:
                raise ValueError(f"a rated game's result is win, loss or draw, not {p.result!r}")
    kept = [(k, label, pts) for k, (label, pts) in enumerate(series.items()) if pts]
    if not kept:
        raise ValueError("no rated games to draw: every series is empty")
    # All the member's rated games in time order: ties keep the series' and the input's order.
    order = sorted((p.at, k, i) for k, _label, pts in kept for i, p in enumerate(pts))
    number = {(k, i): n for n, (_at, k, i) in enumerate(order, start=1)}
    out = []
    for k, label, pts in kept:

        def rank(i: int, k: int = k) -> int:
            return number[(k, i)]

        idx = sorted(range(len(pts)), key=rank)
        out.append(
            _Series(
                label=str(label),
                style=styles[k],
                points=tuple(pts[i] for i in idx),
                numbers=tuple(number[(k, i)] for i in idx),
            )
        )
    return out


def _rating_ticks(lo: int, hi: int) -> tuple[int, int, list[int]]:
    """The y range (round numbers, a little wider than the ratings, at least MIN_SPAN) and
    its ticks: at most six intervals."""
    span = max(hi - lo, MIN_SPAN)
    mid = (lo + hi) / 2
    lo_f, hi_f = min(lo, mid - span / 2) - span * 0.1, max(hi, mid + span / 2) + span * 0.1
    for step in _nice_steps():
        a, b = math.floor(lo_f / step) * step, math.ceil(hi_f / step) * step
        if (b - a) / step <= 6:
            return a, b, list(range(a, b + 1, step))
    raise AssertionError("unreachable: steps grow without bound")


def _nice_steps() -> Iterable[int]:
    """1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, ..."""
    for exp in itertools.count():
        k = 10**exp
        yield from (k, 2 * k) if exp == 0 else (k, 2 * k, 25 * k // 10)
        yield 5 * k


def _game_ticks(count: int, first: int = 1) -> list[int]:
    """Game numbers to label: the first (0: the start), the last, and round numbers between."""
    step = next(s for s in _nice_steps() if count / s <= 7)
    return sorted({first, count, *range(step, count, step)})


def _dates(lines: Sequence[_Series]) -> tuple[str, str]:
    """The first and the last game's days, in UTC (the member's zone is not known); with
    the year when they are not in the same one."""
    first = min(s.points[0].at for s in lines)
    last = max(s.points[-1].at for s in lines)
    a, b = time.gmtime(first), time.gmtime(last)
    year = a.tm_year != b.tm_year
    return _day(a, year), _day(b, year)


def _day(t: time.struct_time, year: bool) -> str:
    if year:
        # TRANSLATORS: a date under the rating chart: "3 Nov 2024".
        day = pgettext("chart date", "{day} {month} {year}")
    else:
        # TRANSLATORS: a date under the rating chart: "3 Nov".
        day = pgettext("chart date", "{day} {month}")
    return day.format(day=t.tm_mday, month=month(t.tm_mon), year=t.tm_year)


def _result_thinning(lines: Sequence[_Series], axes: _Axes) -> tuple[int, int]:
    """(stride, size): results marked on every `stride`-th game of each line, at `size`,
    so that markers never overlap; the densest line decides for both, so the legend's note
    is true of both."""
    gaps = [
        (axes.x(s.numbers[-1]) - axes.x(s.numbers[0])) / (len(s.numbers) - 1)
        for s in lines
        if len(s.numbers) > 1
    ]
    gap = min(gaps, default=math.inf)
    if gap >= RESULT_SIZE + 3:
        return 1, RESULT_SIZE
    size = RESULT_SMALL
    return (1 if gap >= size + 3 else math.ceil((size + 3) / gap)), size


def _result_markers(c: _Canvas, s: _Series, axes: _Axes, stride: int, size: int) -> None:
    last = len(s.points) - 1
    for i, (n, p) in enumerate(zip(s.numbers, s.points, strict=True)):
        if (last - i) % stride:
            continue  # counted from the last game, so the latest result is always shown
        shape, hollow = RESULT_MARKS[p.result]
        c.marker(shape, (axes.x(n), axes.y(p.rating)), size, s.style.color, hollow=hollow)


def _end_labels(c: _Canvas, lines: Sequence[_Series], axes: _Axes, f: FreeTypeFont) -> None:
    """Each line's latest rating right of the plot, beside its line's shape: the number
    people look for first, and a second cue to which line is which."""
    x = axes.box[2] + 10 + SERIES_SIZE / 2
    ys = _spread([axes.y(s.points[-1].rating) for s in lines], 30, axes.box[1], axes.box[3])
    for s, y in zip(lines, ys, strict=True):
        c.marker(s.style.shape, (x, y), SERIES_SIZE, s.style.color, halo=c.theme.background)
        c.word((x + SERIES_SIZE / 2 + 6, y), str(s.points[-1].rating), f, c.theme.text, "lm")


def _spread(ys: list[float], gap: float, top: float, bottom: float) -> list[float]:
    """Two label heights pushed apart to at least `gap`, kept between `top` and `bottom`."""
    if len(ys) == 2 and abs(ys[0] - ys[1]) < gap:
        mid = min(max((ys[0] + ys[1]) / 2, top + gap / 2), bottom - gap / 2)
        sign = 1 if ys[0] >= ys[1] else -1
        return [mid + sign * gap / 2, mid - sign * gap / 2]
    return ys


def _result_legend(c: _Canvas, lines: Sequence[_Series], y: float, stride: int) -> None:
    """▲ win  ▽ loss  (◆ draw, if any), and a note when not every game is marked."""
    theme = c.theme
    f = text.regular(theme, theme.label_size)
    shown = [
        r for r in RESULTS if r != "draw" or any(p.result == r for s in lines for p in s.points)
    ]
    x: float = theme.margin + 4
    cy = y + ROW_H / 2
    for r in shown:
        shape, hollow = RESULT_MARKS[r]
        c.marker(
            shape,
            (x + RESULT_SIZE / 2, cy),
            RESULT_SIZE,
            theme.text,
            hollow=hollow,
            halo=theme.background,
        )
        x += RESULT_SIZE + 6
        word = result_word(r)
        c.word((x, cy), word, f, theme.text, "lm")
        x += f.getlength(word) + 22
    if stride > 1:
        # TRANSLATORS: beside the results' legend when only some games are marked;
        # {ordinal} is "2nd", "3rd"...
        note = pgettext("chart legend", "results of every {ordinal} game")
        note = note.format(ordinal=_ordinal(stride))
        fs = text.regular(theme, theme.small_size)
        right = theme.board_width - theme.margin
        c.word((right, cy), note, fs, theme.text_muted, "rm", room=(x - 8, y, right, y + ROW_H))


def _ordinal(n: int) -> str:
    """ "2nd", "3rd", "11th" (each translated: "2e", "2.")."""
    last = 0 if n % 100 in (11, 12, 13) else n % 10
    if last == 1:
        # TRANSLATORS: these four make the {ordinal} of "results of every {ordinal} game"
        # (a number of 2 or more): write the number as your sentence needs it ("{n}.").
        return pgettext("ordinal", "{n}st").format(n=n)
    if last == 2:
        return pgettext("ordinal", "{n}nd").format(n=n)
    if last == 3:
        return pgettext("ordinal", "{n}rd").format(n=n)
    return pgettext("ordinal", "{n}th").format(n=n)


# ---- the chance chart -------------------------------------------------------------------


def chance_chart(
    points: Sequence[ChancePoint],
    *,
    names: Sequence[str],
    total_moves: int,
    marks: Sequence[tuple[int, int]] = (),
    theme: Theme = DEFAULT_THEME,
    colors: tuple[str, str] | None = None,
) -> Chart:
    """The chance chart as a picture (see `render_chance_chart`); `colors` are the two
    seats' line colours, by default the theme's seat colours."""
    _check_chances(points, names, total_moves, marks)
    styles = line_styles(colors or (theme.seat[0], theme.seat[1]))
    seats = {
        seat: sorted((p for p in points if p.seat == seat), key=lambda p: p.move) for seat in (0, 1)
    }
    w, m = theme.board_width, theme.margin
    f_tick = text.regular(theme, theme.small_size)
    label_w = f_tick.getlength("100 %")
    plot_top = TITLE_TOP + TITLE_H + ROW_H + 10
    box = (m + label_w + 10, plot_top, w - m - 6, plot_top + PLOT_H)
    axes = _Axes(box, (1, total_moves), (0.0, 1.0))
    c = _Canvas.new(w, round(box[3]) + AXIS_H, theme)

    y = _title(c, pgettext("chart title", "Winning chances"), "", theme)
    shown = [(str(names[seat]), styles[seat]) for seat in (0, 1) if seats[seat]]
    _series_legend(c, shown, y, strong=True)
    _panel(c, box)
    for t in (0.25, 0.75):
        _grid_y(c, axes, t, "", f_tick)
    for t in (0.0, 0.5, 1.0):
        _grid_y(c, axes, t, f"{round(t * 100)} %", f_tick, strong=t == 0.5)
    _x_axis(c, axes, _move_ticks(total_moves), f_tick, pgettext("chart axis", "move"), None)
    for seat in (0, 1):
        pts = [(axes.x(p.move), axes.y(p.chance)) for p in seats[seat]]
        c.polyline(pts, styles[seat].color, LINE_W, dashed=styles[seat].dashed)
    for seat in (0, 1):
        _chance_markers(c, [(axes.x(p.move), axes.y(p.chance)) for p in seats[seat]], styles[seat])
    badges = _marks(c, axes, points, marks)
    return Chart(c.finish(), box, tuple(badges))


def _check_chances(
    points: Sequence[ChancePoint],
    names: Sequence[str],
    total_moves: int,
    marks: Sequence[tuple[int, int]],
) -> None:
    if len(names) != 2:
        raise ValueError("names: the display names of seat 0 and seat 1")
    if total_moves < 1:
        raise ValueError(f"total_moves must be at least 1, not {total_moves}")
    if not points:
        raise ValueError("no estimates to draw: points is empty")
    for p in points:
        if p.seat not in (0, 1):
            raise ValueError(f"a chance point's seat is 0 or 1, not {p.seat!r}")
        if not 1 <= p.move <= total_moves:
            raise ValueError(f"move {p.move} is outside the game's moves 1..{total_moves}")
        if not 0.0 <= p.chance <= 1.0:  # also refuses NaN
            raise ValueError(f"a chance is between 0 and 1, not {p.chance!r}")
    for label, move in marks:
        if not 1 <= move <= total_moves:
            raise ValueError(f"mark {label} is on move {move}, outside 1..{total_moves}")


def _move_ticks(total: int) -> list[int]:
    step = next(s for s in _nice_steps() if total / s <= 8)
    return sorted({1, total, *range(step, total, step)})


def _chance_markers(c: _Canvas, pts: Sequence[Point], style: LineStyle) -> None:
    """The line's shape on its points, on fewer of them where they would overlap (the
    shapes only say which line this is: no point's value is lost)."""
    if not pts:
        return
    gap = (pts[-1][0] - pts[0][0]) / (len(pts) - 1) if len(pts) > 1 else math.inf
    stride = 1 if gap >= SERIES_SIZE + 3 else math.ceil((SERIES_SIZE + 3) / max(gap, 0.1))
    last = len(pts) - 1
    for i, xy in enumerate(pts):
        if (last - i) % stride == 0:
            c.marker(style.shape, xy, SERIES_SIZE, style.color)


def _marks(
    c: _Canvas, axes: _Axes, points: Sequence[ChancePoint], marks: Sequence[tuple[int, int]]
) -> list[Point]:
    """Numbered discs, each on a pin from the estimate of the move it marks (the estimate of
    the player who made it), placed where they overlap no other disc or marked point. A move
    with no estimate is pinned to the bottom of the plot at its place."""
    at: dict[int, ChancePoint] = {}
    for p in points:
        at.setdefault(p.move, p)
    targets = []
    for _, move in marks:
        hit = at.get(move)
        targets.append((axes.x(move), axes.y(hit.chance) if hit else axes.box[3]))
    dots = [(axes.x(p.move), axes.y(p.chance)) for p in points]
    placed: list[Point] = []
    theme = c.theme
    f = text.bold(theme, theme.label_size)
    for (label, _), xy in zip(marks, targets, strict=True):
        words = str(label)
        bw = max(BADGE, f.getlength(words) + 14)  # a pill when the number is long
        centre = _badge_place(xy, bw / 2, targets, placed, dots, axes)
        placed.append(centre)
        c.line([_towards(xy, centre, RING), centre], theme.highlight, 2)
        c.ring(xy, RING, theme.highlight, 3)
        c.pill(centre, bw, BADGE, theme.highlight, theme.background)
        c.word(centre, words, f, theme.text_dark, "mm")
    return placed


def _towards(a: Point, b: Point, d: float) -> Point:
    """The point `d` pixels from `a` towards `b` (a pin starts at its ring, not inside)."""
    length = math.dist(a, b) or 1.0
    return a[0] + (b[0] - a[0]) * d / length, a[1] + (b[1] - a[1]) * d / length


def _badge_place(
    xy: Point,
    r: float,
    targets: Sequence[Point],
    placed: Sequence[Point],
    dots: Sequence[Point],
    axes: _Axes,
) -> Point:
    """The first free spot for a disc of radius `r`: above or below its point (away from
    the middle first, where the other line tends to be), then diagonally, then further
    out; clear of the other discs and of every marked point's ring, and if it can be, of
    the lines' points too."""
    x, y = xy
    x0, y0, x1, y1 = axes.box
    outward = -1 if y < (y0 + y1) / 2 else 1
    directions = ((0, 1), (0, -1), (-0.8, 1), (0.8, 1), (-0.8, -1), (0.8, -1))
    candidates = [
        (x + dx * dist, y + dy * outward * dist) for dist in (40, 62, 84) for dx, dy in directions
    ]

    def free(cx: float, cy: float, *, strict: bool) -> bool:
        inside = x0 + r + 2 <= cx <= x1 - r - 2 and y0 + r + 2 <= cy <= y1 - r - 2
        clear = all(math.dist((cx, cy), p) >= 2 * r + 4 for p in placed)
        off_rings = all(math.dist((cx, cy), t) >= r + RING + 4 for t in targets)
        off_dots = not strict or all(
            math.dist((cx, cy), p) >= r + SERIES_SIZE / 2 + 2 for p in dots
        )
        return inside and clear and off_rings and off_dots

    for strict in (True, False):
        for cx, cy in candidates:
            if free(cx, cy, strict=strict):
                return cx, cy
    return min(max(x, x0 + r), x1 - r), y0 + r + 2  # nowhere free: along the top


# ---- shared parts -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Axes:
    """Where values land: the plot panel, and the ranges its inside shows."""

    box: Box
    xs: tuple[float, float]
    ys: tuple[float, float]

    def x(self, v: float) -> float:
        x0, _, x1, _ = self.box
        lo, hi = self.xs
        if hi == lo:
            return (x0 + x1) / 2  # one game, or a game of one move: in the middle
        return x0 + PAD_X + (v - lo) / (hi - lo) * (x1 - x0 - 2 * PAD_X)

    def y(self, v: float) -> float:
        _, y0, _, y1 = self.box
        lo, hi = self.ys
        return y1 - PAD_Y - (v - lo) / (hi - lo) * (y1 - y0 - 2 * PAD_Y)


@dataclass(frozen=True, slots=True)
class _Word:
    xy: Point
    words: str
    font: FreeTypeFont
    fill: str
    anchor: str
    room: Box | None = None


@dataclass
class _Canvas:
    """A picture being drawn: shapes on a layer `supersample` times larger (shrunk at the
    end, for smooth edges), and words drawn at their final size over the result. Made
    afresh for each chart and never shared."""

    theme: Theme
    big: Image.Image
    d: ImageDraw.ImageDraw
    words: list[_Word] = field(default_factory=list)

    @classmethod
    def new(cls, w: int, h: int, theme: Theme) -> _Canvas:
        big = Image.new("RGB", (w * theme.supersample, h * theme.supersample), theme.background)
        return cls(theme, big, ImageDraw.Draw(big))

    def _big(self, pts: Iterable[Point]) -> list[Point]:
        s = self.theme.supersample
        return [(x * s, y * s) for x, y in pts]

    def line(self, pts: Sequence[Point], color: str, width: float) -> None:
        s = self.theme.supersample
        self.d.line(self._big(pts), fill=color, width=round(width * s), joint="curve")

    def polyline(self, pts: Sequence[Point], color: str, width: float, *, dashed: bool) -> None:
        if len(pts) < 2:
            return  # one point: its marker is the line
        runs = _dashes(pts, *DASH) if dashed else [list(pts)]
        for run in runs:
            self.line(run, color, width)

    def ring(self, xy: Point, radius: float, color: str, width: float) -> None:
        s = self.theme.supersample
        x, y = xy
        box = ((x - radius) * s, (y - radius) * s, (x + radius) * s, (y + radius) * s)
        self.d.ellipse(box, outline=color, width=round(width * s))

    def pill(self, xy: Point, w: float, h: float, fill: str, outline: str) -> None:
        s = self.theme.supersample
        x, y = xy
        box = ((x - w / 2) * s, (y - h / 2) * s, (x + w / 2) * s, (y + h / 2) * s)
        self.d.rounded_rectangle(box, h / 2 * s, fill=fill, outline=outline, width=2 * s)

    def marker(
        self,
        shape: str,
        xy: Point,
        size: float,
        color: str,
        *,
        hollow: bool = False,
        halo: str | None = None,
    ) -> None:
        """A marker `size` pixels across, on a thin halo (the plot panel's colour, so that
        it stands out from the lines under it); hollow ones show the halo inside."""
        halo = halo or self.theme.surface
        r = size / 2
        self._shape(shape, xy, r + 2, halo)
        self._shape(shape, xy, r, color)
        if hollow:
            # Triangles lose more of their inside to an even border than other shapes.
            border = 3.2 if shape in (UP, DOWN) else 2.6
            self._shape(shape, xy, r - border, halo)

    def _shape(self, shape: str, xy: Point, r: float, fill: str) -> None:
        s = self.theme.supersample
        x, y = xy
        if shape == CIRCLE:
            self.d.ellipse(((x - r) * s, (y - r) * s, (x + r) * s, (y + r) * s), fill=fill)
        else:
            self.d.polygon(self._big(_outline(shape, x, y, r)), fill=fill)

    def word(
        self,
        xy: Point,
        words: str,
        f: FreeTypeFont,
        fill: str,
        anchor: str,
        room: Box | None = None,
    ) -> None:
        """Words drawn over the finished shapes; `room` is the box they must stay in."""
        self.words.append(_Word(xy, words, f, fill, anchor, room))

    def finish(self) -> Image.Image:
        s = self.theme.supersample
        # A box filter: at a whole factor it smooths edges as well as the cards' LANCZOS
        # does here, in a tenth of the time (2.5 ms against 28 for the whole chart).
        img = self.big.reduce(s)
        d = ImageDraw.Draw(img)
        for w in self.words:
            text.draw(d, w.xy, w.words, w.font, w.fill, w.anchor, room=w.room)
        return finish(img, img.height, self.theme)


def _outline(shape: str, x: float, y: float, r: float) -> list[Point]:
    """A polygon marker around (x, y), about as heavy as a circle of radius `r`."""
    if shape == SQUARE:
        h = r * 0.9
        return [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
    if shape == DIAMOND:
        a, b = r * 1.05, r * 1.3
        return [(x, y - b), (x + a, y), (x, y + b), (x - a, y)]
    if shape in (UP, DOWN):
        # An equilateral triangle centred on its centroid, larger than the circle: a
        # triangle fills less of its box.
        R = r * 1.3
        start = -90 if shape == UP else 90
        return [
            (
                x + R * math.cos(math.radians(start + k * 120)),
                y + R * math.sin(math.radians(start + k * 120)),
            )
            for k in range(3)
        ]
    raise ValueError(f"unknown marker shape {shape!r}")


def _dashes(pts: Sequence[Point], on: float, off: float) -> list[list[Point]]:
    """The runs of a dashed polyline, the pattern carried on across its corners."""
    runs: list[list[Point]] = []
    drawing, left = True, on
    current: list[Point] = [pts[0]]
    for a, b in itertools.pairwise(pts):
        length = math.dist(a, b)
        done = 0.0
        while length - done > left:
            done += left
            t = done / length
            cut = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            if drawing:
                current.append(cut)
                runs.append(current)
            else:
                current = [cut]
            drawing = not drawing
            left = on if drawing else off
        left -= length - done
        if drawing:
            current.append(b)
    if drawing and len(current) > 1:
        runs.append(current)
    return runs


def _printed(name: str, theme: Theme) -> str:
    return text.printable(name, theme.font_bold) or "?"


def _title(c: _Canvas, template: str, name: str, theme: Theme) -> float:
    """The title (`template`, with `name` as its `{player}` if it has a name), shrunk or (its
    name only) shortened to fit. Returns the y below."""
    width = theme.board_width - 2 * theme.margin
    printed = _printed(name, theme) if name else ""
    title = template.format(player=printed) if name else template
    for size in (theme.title_size, 26, 24):
        f = text.bold(theme, size)
        if f.getlength(title) <= width:
            break
    else:
        if name:
            before, _mark, after = template.partition("{player}")
            room = width - round(f.getlength(before + after))
            # Pillow types a font's size as float; ours are made from ints (text.bold).
            title = before + text.name(name, theme, int(f.size), room) + after
        else:
            title = text.fit(title, f, width)
    room_box = (theme.margin, TITLE_TOP, theme.margin + width, TITLE_TOP + TITLE_H)
    c.word((theme.margin, TITLE_TOP + TITLE_H / 2), title, f, theme.text, "lm", room=room_box)
    return TITLE_TOP + TITLE_H


def _series_legend(
    c: _Canvas,
    entries: Sequence[tuple[str, LineStyle]],
    y: float,
    *,
    strong: bool = False,
) -> None:
    """Each line's sample (its colour, dash and shape) and its name, side by side; names
    too long for their half are shortened with an ellipsis."""
    theme = c.theme
    f = (text.bold if strong else text.regular)(theme, theme.label_size)
    room = (theme.board_width - 2 * theme.margin) / max(1, len(entries))
    sample = 52
    cy = y + ROW_H / 2
    for i, (label, style) in enumerate(entries):
        x = theme.margin + 4 + i * room
        c.polyline([(x, cy), (x + sample, cy)], style.color, LINE_W, dashed=style.dashed)
        c.marker(style.shape, (x + sample / 2, cy), SERIES_SIZE, style.color, halo=theme.background)
        shown = text.name(label, theme, theme.label_size, round(room - sample - 24), strong=strong)
        box = (x + sample + 10, y, x + room - 14, y + ROW_H)
        c.word((x + sample + 10, cy), shown, f, theme.text, "lm", room=box)


def _panel(c: _Canvas, box: Box) -> None:
    s = c.theme.supersample
    c.d.rounded_rectangle(
        tuple(v * s for v in box),
        10 * s,
        fill=c.theme.surface,
        outline=c.theme.surface_line,
        width=s,
    )


def _grid_y(
    c: _Canvas, axes: _Axes, v: float, label: str, f: FreeTypeFont, *, strong: bool = False
) -> None:
    """A horizontal grid line at value `v`, labelled left of the panel; `strong` for the
    line that means something (50 %)."""
    x0, _, x1, _ = axes.box
    y = axes.y(v)
    if strong:
        c.line([(x0 + 2, y), (x1 - 2, y)], c.theme.stone_line, 2)
    else:
        c.line([(x0 + 2, y), (x1 - 2, y)], c.theme.surface_line, 1)
    if label:
        c.word((x0 - 8, y), label, f, c.theme.text_muted, "rm")


def _x_axis(
    c: _Canvas,
    axes: _Axes,
    ticks: Sequence[int],
    f: FreeTypeFont,
    caption: str,
    dates: tuple[str, str] | None,
) -> None:
    """Vertical grid lines and numbers under the panel (those that would touch a
    neighbour's are left out, never the first or the last), then a row with the caption in
    the middle and the first and last dates at the ends."""
    _, y0, _, y1 = axes.box
    kept = _spaced(ticks, axes, f)
    for t in kept:
        x = axes.x(t)
        c.line([(x, y0 + 2), (x, y1 - 2)], c.theme.surface_line, 1)
        c.word((x, y1 + 16), str(t), f, c.theme.text_muted, "mm")
    row = y1 + 44
    mid = (axes.box[0] + axes.box[2]) / 2
    if dates is not None and dates[0] == dates[1]:
        # One day (or one game): the date beside the caption, not at an end of the axis.
        caption = pgettext("chart axis", "{caption} · {date}").format(
            caption=caption, date=dates[0]
        )
        dates = None
    if dates is None:
        c.word(
            (mid, row),
            caption,
            f,
            c.theme.text_muted,
            "mm",
            room=(axes.box[0], y1, axes.box[2], y1 + AXIS_H),
        )
        return
    # The caption between the dates, clear of them.
    first_end = axes.box[0] + 4 + f.getlength(dates[0]) + 8
    last_start = axes.box[2] - 4 - f.getlength(dates[1]) - 8
    half = min(mid - first_end, last_start - mid)
    c.word(
        (mid, row),
        caption,
        f,
        c.theme.text_muted,
        "mm",
        room=(mid - half, y1, mid + half, y1 + AXIS_H),
    )
    c.word((axes.box[0] + 4, row), dates[0], f, c.theme.text, "lm")
    c.word((axes.box[2] - 4, row), dates[1], f, c.theme.text, "rm")


def _spaced(ticks: Sequence[int], axes: _Axes, f: FreeTypeFont) -> list[int]:
    """The ticks whose labels keep 12 pixels from their neighbours', first and last kept."""
    if len(ticks) <= 1:
        return list(ticks)

    def apart(a: int, b: int) -> bool:
        need = (f.getlength(str(a)) + f.getlength(str(b))) / 2 + 12
        return abs(axes.x(b) - axes.x(a)) >= need

    kept = [ticks[0]]
    for t in ticks[1:-1]:
        if apart(kept[-1], t) and apart(t, ticks[-1]):
            kept.append(t)
    if ticks[-1] != kept[-1]:
        kept.append(ticks[-1])
    return kept
