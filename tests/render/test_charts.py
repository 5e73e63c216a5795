"""The charts (render/charts.py): compared with checked-in references, drawn for every edge
case, readable on a phone, and never telling lines apart by colour alone.

To accept new pictures after a deliberate change of the look, run
`RENDER_UPDATE_REFERENCES=1 python -m pytest tests/render/test_charts.py` and review
tests/render/reference/chart-*.png before committing them.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from render import text
from render.charts import (
    BADGE,
    DASH,
    GAME_COLORS,
    MIN_SPAN,
    PAD_X,
    PAD_Y,
    RESULT_SMALL,
    RING,
    ChancePoint,
    Chart,
    RatingPoint,
    _dashes,
    chance_chart,
    rating_chart,
    render_chance_chart,
    render_rating_chart,
)
from render.gallery import (
    CHANCE_MARKS,
    NOVEMBER_2024,
    chance_points,
    chart_pictures,
    rating_series,
)
from render.theme import DEFAULT_THEME as T
from tests.render.helpers import image, similar
from tests.render.test_phone import MIN_PX, PHONE_WIDTH, too_small
from tests.render.test_theme import contrast

REFERENCE = Path(__file__).parent / "reference"
CHARTS = chart_pictures()
ST1, ST2 = "Schotten Totten", "Schotten Totten 2"
NAMES = ("Aurélie", "Bartholomew")
LONG_NAMES = ("Maximiliane von Hohenzollern-Eck", "W" * 32)
DAY = 86400


def at(day: int, hour: int = 20) -> float:
    """A time in November 2024 (UTC)."""
    return NOVEMBER_2024 + (day - 1) * DAY + hour * 3600


def games(ratings: list[int], results: str = "", start: int = 3) -> list[RatingPoint]:
    """Rated games on consecutive days; results as "w", "l", "d" (default: all won)."""
    marks = {"w": "win", "l": "loss", "d": "draw"}
    return [
        RatingPoint(at(start + i), r, marks[results[i]] if results else "win")
        for i, r in enumerate(ratings)
    ]


def many(n: int, seed_step: int = 7) -> list[RatingPoint]:
    """`n` games a few hours apart, the rating wandering up and down."""
    out, r = [], 1000
    for i in range(n):
        won = (i * seed_step) % 5 < 3
        r += 17 if won else -15
        out.append(RatingPoint(NOVEMBER_2024 + i * 5 * 3600, r, "win" if won else "loss"))
    return out


def alternating(values: list[float], first_seat: int = 0) -> list[ChancePoint]:
    return [ChancePoint(m, (first_seat + m - 1) % 2, v) for m, v in enumerate(values, start=1)]


def drawn_words(draw) -> tuple[Image.Image, list[text.Drawn]]:
    """The picture `draw()` returns (PNG bytes) and every line of text it drew."""
    with text.recording() as lines:
        data = draw()
    return image(data), lines


def plot_of(chart: Chart) -> Image.Image:
    return chart.image.crop(tuple(round(v) for v in chart.plot)).convert("RGB")


def near(img: Image.Image, color: str, tol: int = 40) -> Image.Image:
    """A mask (L) of the pixels within `tol` of `color` in every channel."""
    solid = Image.new("RGB", img.size, color)
    diff = ImageChops.difference(img.convert("RGB"), solid)
    channels = [c.point(lambda v: 255 if v <= tol else 0) for c in diff.split()]
    return ImageChops.multiply(ImageChops.multiply(channels[0], channels[1]), channels[2])


def count(mask: Image.Image) -> int:
    return mask.histogram()[255]


def changed_pixels(a: Image.Image, b: Image.Image, level: int = 64) -> int:
    """How many pixels differ by more than `level` (of 255) in lightness."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    return sum(diff.histogram()[level + 1 :])


def numbers(lines: list[text.Drawn]) -> list[int]:
    return [int(ln.text) for ln in lines if re.fullmatch(r"-?\d+", ln.text)]


# ---- reference pictures -----------------------------------------------------------------


@pytest.mark.parametrize("name", list(CHARTS))
def test_chart_matches_reference(name):
    path = REFERENCE / f"{name}.png"
    data = CHARTS[name](T)
    if os.environ.get("RENDER_UPDATE_REFERENCES"):
        path.write_bytes(data)
    ok, why = similar(image(data), image(path.read_bytes()))
    assert ok, f"{name} differs from {path.name}: {why}"


def _reference(name: str) -> Image.Image:
    return image((REFERENCE / f"{name}.png").read_bytes())


def test_comparison_catches_one_rating_moved():
    series = rating_series()
    st1 = series[ST1]
    st1[12] = dataclasses.replace(st1[12], rating=st1[12].rating + 40)
    ok, _ = similar(image(render_rating_chart(series, name=NAMES[0])), _reference("chart-rating"))
    assert not ok


def test_comparison_catches_one_win_turned_into_a_loss():
    # Game 13 on 13 November. One 18-pixel marker is near the size of the comparison's
    # 16-pixel blocks: depending on where it falls, a flip scores 31 to 63 against the limit
    # of 32, so the next test checks every flip with a finer measure.
    series = rating_series()
    st1 = series[ST1]
    assert st1[12].result == "win"
    st1[12] = dataclasses.replace(st1[12], result="loss")
    ok, why = similar(image(render_rating_chart(series, name=NAMES[0])), _reference("chart-rating"))
    assert not ok, why


def test_every_result_changes_the_picture():
    base = rating_chart(rating_series(), name=NAMES[0]).image
    for i, p in enumerate(rating_series()[ST1]):
        series = rating_series()
        flipped = "loss" if p.result != "loss" else "win"
        series[ST1][i] = dataclasses.replace(p, result=flipped)
        changed = changed_pixels(base, rating_chart(series, name=NAMES[0]).image)
        assert changed >= 60, (i, changed)  # a whole marker's worth, not a pixel of jitter


def test_comparison_catches_one_estimate_moved():
    points = chance_points()
    points[39] = dataclasses.replace(points[39], chance=points[39].chance - 0.2)
    data = render_chance_chart(points, names=NAMES, total_moves=len(points), marks=CHANCE_MARKS)
    ok, _ = similar(image(data), _reference("chart-chances"))
    assert not ok


def test_reference_data_is_realistic():
    series = rating_series()
    assert {p.result for s in series.values() for p in s} == {"win", "loss", "draw"}
    assert all(a.at < b.at for s in series.values() for a, b in itertools.pairwise(s))
    points = chance_points()
    assert {p.seat for p in points} == {0, 1} and len(points) == 62
    assert [m for _, m in CHANCE_MARKS][:2] == [23, 24]  # two marks on adjacent moves


# ---- the rating chart's edge cases ------------------------------------------------------


def test_rating_chart_labels_axes_and_dates():
    img, lines = drawn_words(lambda: CHARTS["chart-rating"](T))
    words = {ln.text for ln in lines}
    assert {"Aurélie · rating", ST1, ST2, "win", "loss", "draw", "rated game"} <= words
    assert {"3 Nov", "25 Nov", "1", "38"} <= words  # first and last game, first and last day
    assert {"1196", "1111"} <= words  # each game's latest rating, beside its line
    assert img.width == T.board_width and 420 <= img.height <= 520


def test_a_single_rated_game():
    chart = rating_chart({ST1: games([1024])}, name="Aurélie")
    _, lines = drawn_words(lambda: render_rating_chart({ST1: games([1024])}, name="Aurélie"))
    words = {ln.text for ln in lines}
    assert {"1", "1024", "rated game · 3 Nov"} <= words
    plot = plot_of(chart)
    marker = near(plot, GAME_COLORS[0]).getbbox()
    assert marker is not None
    # In the middle of the plot, and large enough to read.
    assert abs((marker[0] + marker[2]) / 2 - plot.width / 2) < 4
    assert marker[2] - marker[0] >= 12


def test_one_rated_game_draws_a_line_from_the_starting_rating():
    """Issue 39: one game showed one point and no start. With the starting rating, the
    line runs from it (game 0) to the rating after the game, across the plot."""
    series = {ST1: games([1104])}
    chart = rating_chart(series, name="Aurélie", start=1000)
    _, lines = drawn_words(lambda: render_rating_chart(series, name="Aurélie", start=1000))
    ticks = numbers(lines)
    assert {0, 1, 1104} <= set(ticks)  # game 0 (the start), game 1, the rating now
    assert min(n for n in ticks if n >= 100) <= 1000  # the start is within the range
    plot = plot_of(chart)
    line = near(plot, GAME_COLORS[0]).getbbox()
    assert line is not None
    assert line[2] - line[0] >= 0.85 * plot.width  # from the start to the game
    assert line[3] - line[1] >= 0.3 * plot.height  # rising from 1000 to 1104
    # The start's point is lower (larger y) on the left than the game's on the right.
    mask = near(plot, GAME_COLORS[0])
    left = mask.crop((0, 0, plot.width // 4, plot.height)).getbbox()
    right = mask.crop((3 * plot.width // 4, 0, plot.width, plot.height)).getbbox()
    assert left is not None and right is not None
    assert (left[1] + left[3]) / 2 > (right[1] + right[3]) / 2


def test_a_second_game_starts_before_its_own_first_game():
    """Each game's rating starts anew: its line leaves the start just before its first game."""
    series = {ST1: games([1100, 1180]), ST2: games([940], "l", start=10)}
    chart = rating_chart(series, name="Aurélie", start=1000)
    plot = plot_of(chart)
    orange = near(plot, GAME_COLORS[1]).getbbox()
    assert orange is not None
    # Games 1-3 on the axis 0..3: the second game's line runs from 2 to 3, the last third.
    assert orange[0] > 0.55 * plot.width and orange[2] - orange[0] >= 0.25 * plot.width


def test_300_rated_games_thin_their_markers_but_keep_the_line():
    series = {ST1: many(300)}
    chart = rating_chart(series, name="Aurélie")
    _, lines = drawn_words(lambda: render_rating_chart(series, name="Aurélie"))
    note = next(ln.text for ln in lines if ln.text.startswith("results of every"))
    stride = int(re.search(r"\d+", note).group())
    step = (chart.plot[2] - chart.plot[0]) / 299
    assert stride > 1 and stride * step >= RESULT_SMALL + 3  # markers cannot touch
    # The line runs across the whole plot.
    line = near(plot_of(chart), GAME_COLORS[0])
    columns = line.resize((line.width, 1), Image.Resampling.BOX).point(lambda v: v > 0)
    assert columns.histogram()[1] >= 0.85 * line.width


def test_a_flat_rating_gets_a_padded_range():
    series = {ST1: games([1000] * 5, "wldwl")}
    chart = rating_chart(series, name="Aurélie")
    _, lines = drawn_words(lambda: render_rating_chart(series, name="Aurélie"))
    ticks = [n for n in numbers(lines) if n >= 100]
    assert min(ticks) < 1000 < max(ticks) and max(ticks) - min(ticks) >= MIN_SPAN
    line = near(plot_of(chart), GAME_COLORS[0]).getbbox()
    height = chart.plot[3] - chart.plot[1]
    assert abs((line[1] + line[3]) / 2 - height / 2) < height * 0.1  # drawn in the middle


def test_ratings_far_apart_share_one_axis():
    series = {ST1: games([420, 450, 430]), ST2: games([2890, 2950, 2930], start=10)}
    chart = rating_chart(series, name="Aurélie")
    _, lines = drawn_words(lambda: render_rating_chart(series, name="Aurélie"))
    ticks = numbers(lines)
    assert min(ticks) <= 420 and max(ticks) >= 2950
    plot = plot_of(chart)
    assert count(near(plot, GAME_COLORS[0])) > 50 and count(near(plot, GAME_COLORS[1])) > 50


def test_an_empty_game_is_left_out():
    points = games([1010, 1030, 1015], "wwl")
    alone = render_rating_chart({ST1: points}, name="Aurélie")
    assert render_rating_chart({ST1: points, ST2: []}, name="Aurélie") == alone
    _, lines = drawn_words(lambda: alone)
    assert ST2 not in {ln.text for ln in lines}


def test_a_game_keeps_its_look_when_the_other_has_no_games():
    # The second game stays orange and dashed, whether or not the first has games.
    chart = rating_chart({ST1: [], ST2: games([1010, 1030, 1015], "wwl")}, name="Aurélie")
    plot = plot_of(chart)
    assert count(near(plot, GAME_COLORS[1])) > 50
    assert count(near(plot, GAME_COLORS[0])) == 0


@pytest.mark.parametrize("series", [{}, {ST1: [], ST2: []}])
def test_no_rated_games_is_an_error(series):
    with pytest.raises(ValueError, match="no rated games"):
        render_rating_chart(series, name="Aurélie")


def test_bad_rating_input_is_an_error():
    with pytest.raises(ValueError, match="one or two games"):
        render_rating_chart({"a": games([1]), "b": games([2]), "c": games([3])}, name="A")
    with pytest.raises(ValueError, match="win, loss or draw"):
        render_rating_chart({ST1: [RatingPoint(at(3), 1000, "won")]}, name="A")


def test_dates_show_the_year_when_it_changes():
    december_30 = NOVEMBER_2024 + 59 * DAY
    points = [
        RatingPoint(december_30, 1010, "win"),
        RatingPoint(december_30 + 4 * DAY, 990, "loss"),
    ]
    _, lines = drawn_words(lambda: render_rating_chart({ST1: points}, name="Aurélie"))
    assert {"30 Dec 2024", "3 Jan 2025"} <= {ln.text for ln in lines}


def test_long_and_non_ascii_member_names():
    for name, shown in [
        (LONG_NAMES[1], None),
        (LONG_NAMES[0], None),
        ("Zoë Ødegård 🎲", "Zoë Ødegård · rating"),
    ]:
        _, lines = drawn_words(lambda n=name: render_rating_chart({ST1: games([1000])}, name=n))
        title = lines[0].text
        f = text.bold(T, round(lines[0].size))
        assert title.endswith(" · rating")
        assert f.getlength(title) <= T.board_width - 2 * T.margin
        if shown:
            assert title == shown
    _, lines = drawn_words(lambda: render_rating_chart({ST1: games([1000])}, name="W" * 32))
    assert lines[0].text.startswith("WWW") and "…" in lines[0].text


# ---- the chance chart's edge cases ------------------------------------------------------


def test_chance_chart_labels_axes_and_names():
    _, lines = drawn_words(lambda: CHARTS["chart-chances"](T))
    words = {ln.text for ln in lines}
    assert {"Winning chances", *NAMES, "0 %", "50 %", "100 %", "move", "1", "62"} <= words
    assert {"1", "2", "3"} <= words  # the marks' numbers


def test_chances_for_one_seat_only():
    points = [ChancePoint(m, 1, 0.3 + m / 100) for m in range(2, 41, 2)]
    chart = chance_chart(points, names=NAMES, total_moves=41)
    _, lines = drawn_words(
        lambda: render_chance_chart(points, names=NAMES, total_moves=41, marks=[(1, 2)])
    )
    words = {ln.text for ln in lines}
    assert NAMES[1] in words and NAMES[0] not in words
    plot = plot_of(chart)
    assert count(near(plot, T.seat[1], 12)) > 100
    assert count(near(plot, T.seat[0], 12)) == 0


def test_long_names_are_shortened_in_the_legend():
    points = alternating([0.5, 0.5, 0.6, 0.4])
    _, lines = drawn_words(lambda: render_chance_chart(points, names=LONG_NAMES, total_moves=4))
    legend = [ln for ln in lines if ln.text.startswith(("Maxi", "WWW"))]
    assert len(legend) == 2 and all(ln.text.endswith("…") for ln in legend)
    half = (T.board_width - 2 * T.margin) / 2
    for ln in legend:
        assert text.bold(T, round(ln.size)).getlength(ln.text) < half - 52


def test_non_ascii_names_are_drawn():
    names = ("Łukasz Żółć", "Ærøskøbing 🎲")
    _, lines = drawn_words(
        lambda: render_chance_chart(alternating([0.5, 0.5]), names=names, total_moves=2)
    )
    assert {"Łukasz Żółć", "Ærøskøbing"} <= {ln.text for ln in lines}


@pytest.mark.parametrize(
    ("values", "marks"),
    [
        ([0.5 + 0.01 * (m % 3) for m in range(60)], [(1, 23), (2, 24)]),  # near 50 %
        ([0.98] * 60, [(1, 30), (2, 31), (3, 32)]),  # along the top
        ([0.02] * 60, [(1, 1), (2, 2)]),  # in the corner
        ([0.3 + 0.4 * ((m // 2) % 2) for m in range(140)], [(1, 70), (2, 71), (10, 72)]),
    ],
)
def test_marks_on_adjacent_moves_stay_apart(values, marks):
    points = alternating(values)
    chart = chance_chart(points, names=NAMES, total_moves=len(values), marks=marks)
    assert len(chart.badges) == len(marks)
    x0, y0, x1, y1 = chart.plot
    for a, b in itertools.combinations(chart.badges, 2):
        assert math.dist(a, b) >= BADGE + 4
    for x, y in chart.badges:
        assert x0 < x < x1 and y0 < y < y1
    # No disc hides the ring of a marked point.
    by_move = {p.move: p for p in points}
    for _, move in marks:
        mx = x0 + PAD_X + (move - 1) / (len(values) - 1) * (x1 - x0 - 2 * PAD_X)
        my = y1 - PAD_Y - by_move[move].chance * (y1 - y0 - 2 * PAD_Y)
        for badge in chart.badges:
            assert math.dist(badge, (mx, my)) >= BADGE / 2 + RING


def test_a_mark_on_a_move_without_an_estimate_is_still_drawn():
    points = [ChancePoint(m, 0, 0.6) for m in range(1, 20, 2)]
    chart = chance_chart(points, names=NAMES, total_moves=20, marks=[(1, 4)])
    assert len(chart.badges) == 1


@pytest.mark.parametrize(
    ("points", "total", "marks", "match"),
    [
        ([], 10, (), "no estimates"),
        ([ChancePoint(11, 0, 0.5)], 10, (), "outside"),
        ([ChancePoint(1, 2, 0.5)], 10, (), "seat"),
        ([ChancePoint(1, 0, 1.5)], 10, (), "between 0 and 1"),
        ([ChancePoint(1, 0, math.nan)], 10, (), "between 0 and 1"),
        ([ChancePoint(1, 0, 0.5)], 0, (), "total_moves"),
        ([ChancePoint(1, 0, 0.5)], 10, [(1, 11)], "mark 1"),
    ],
)
def test_bad_chance_input_is_an_error(points, total, marks, match):
    with pytest.raises(ValueError, match=match):
        render_chance_chart(points, names=NAMES, total_moves=total, marks=marks)


def test_a_game_of_one_move():
    data = render_chance_chart([ChancePoint(1, 0, 0.5)], names=NAMES, total_moves=1)
    assert image(data).width == T.board_width


# ---- readable by everyone ---------------------------------------------------------------

EDGE_CASES = {
    **{name: (lambda d=draw: d(T)) for name, draw in CHARTS.items()},
    "rating-300-long-name": lambda: render_rating_chart(
        {ST1: many(300), ST2: many(40, 3)}, name=LONG_NAMES[0]
    ),
    "chances-long-names": lambda: render_chance_chart(
        alternating([0.5 + 0.3 * math.sin(m / 9) for m in range(140)]),
        names=LONG_NAMES,
        total_moves=140,
        marks=[(1, 70), (2, 71), (12, 90)],
    ),
}


@pytest.mark.parametrize("name", list(EDGE_CASES))
def test_every_line_is_readable_at_phone_width(name):
    img, lines = drawn_words(EDGE_CASES[name])
    assert len(lines) >= 10  # the recorder saw the chart's words
    assert too_small(lines, img.width) == []
    smallest = min(ln.size for ln in lines) * PHONE_WIDTH / img.width
    assert smallest >= MIN_PX
    assert img.width == T.board_width and 420 <= img.height <= 520


def test_the_phone_check_can_fail():
    small = dataclasses.replace(T, small_size=12)
    with text.recording() as lines:
        data = render_chance_chart(alternating([0.5, 0.6]), names=NAMES, total_moves=2, theme=small)
    assert too_small(lines, image(data).width)


@pytest.mark.parametrize("color", [*GAME_COLORS, *T.seat])
def test_line_colours_stand_out_from_the_table(color):
    assert contrast(color, T.background) >= 3
    assert contrast(color, T.surface) >= 3  # the plot panel


# Machado, Oliveira and Fernandes (2009), severity 1: colours as people with protanopia,
# deuteranopia or tritanopia see them, in linear RGB.
CVD = {
    "protan": ((0.152, 1.053, -0.205), (0.115, 0.786, 0.099), (-0.004, -0.048, 1.052)),
    "deutan": ((0.367, 0.861, -0.228), (0.280, 0.673, 0.047), (-0.012, 0.043, 0.969)),
    "tritan": ((1.256, -0.077, -0.179), (-0.078, 0.931, 0.148), (0.005, 0.691, 0.304)),
}


def _seen(hex_color: str, kind: str) -> tuple[float, ...]:
    def lin(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    rgb = [lin(int(hex_color[i : i + 2], 16)) for i in (1, 3, 5)]
    return tuple(
        255 * max(0.0, min(1.0, sum(r * c for r, c in zip(row, rgb, strict=True))))
        for row in CVD[kind]
    )


@pytest.mark.parametrize("kind", list(CVD))
def test_game_colours_differ_for_colour_blind_people(kind):
    assert math.dist(_seen(GAME_COLORS[0], kind), _seen(GAME_COLORS[1], kind)) >= 150
    assert math.dist(_seen("#777777", kind), _seen("#787878", kind)) < 150  # it can fail


def test_chance_lines_differ_by_more_than_colour():
    # Both seats in one colour, one name for both: seat 0's line and seat 1's line through
    # the same values must still look different (dashes and shapes).
    same = ("#ECE6D6", "#ECE6D6")
    values = [0.2, 0.35, 0.5, 0.45, 0.7, 0.65, 0.8, 0.75, 0.9]

    def draw(seat: int) -> Chart:
        points = [ChancePoint(m * 2, seat, v) for m, v in enumerate(values, start=1)]
        return chance_chart(points, names=("Same", "Same"), total_moves=19, colors=same)

    zero, one = plot_of(draw(0)), plot_of(draw(1))
    assert changed_pixels(zero, plot_of(draw(0))) == 0
    # Dashes leave a third of a 600-pixel line out, and squares are not circles.
    assert changed_pixels(zero, one) >= 600


def test_rating_lines_differ_by_more_than_colour():
    same = (GAME_COLORS[0], GAME_COLORS[0])
    points = games([1000, 1040, 1010, 1060, 1030, 1080], "wlwlwl")
    first = rating_chart({"A": points, "B": []}, name="X", colors=same)
    second = rating_chart({"A": [], "B": points}, name="X", colors=same)
    assert first.plot == second.plot
    # The plot shows the dashes; the end labels beside it show the circle and the square.
    assert changed_pixels(plot_of(first), plot_of(second)) >= 600
    x1, y0, y1 = round(first.plot[2]), round(first.plot[1]), round(first.plot[3])
    ends = (x1 + 4, y0, x1 + 4 + 24, y1)
    assert changed_pixels(first.image.crop(ends), second.image.crop(ends)) >= 20


def test_results_differ_by_shape_not_only_by_fill():
    # The same games, all won and then all lost: the marks' shapes differ.
    won = rating_chart({ST1: games([1000, 1040, 1010], "www")}, name="X")
    lost = rating_chart({ST1: games([1000, 1040, 1010], "lll")}, name="X")
    ok, _ = similar(plot_of(won), plot_of(lost))
    assert not ok


def test_lines_are_smooth():
    # Drawn larger and shrunk: the edges of a slanting line blend into the panel in many
    # shades, where a line drawn at its final size has a handful.
    series = {ST1: games([1000, 1200, 1050, 1150], "wlwl")}
    smooth = plot_of(rating_chart(series, name="X"))
    jagged = plot_of(rating_chart(series, name="X", theme=dataclasses.replace(T, supersample=1)))
    assert len(smooth.getcolors(1 << 16)) > 3 * len(jagged.getcolors(1 << 16))


def test_charts_are_opaque_and_framed():
    for draw in CHARTS.values():
        img = image(draw(T))
        assert img.mode == "P" and "transparency" not in img.info
        rgb = img.convert("RGB")
        frame = tuple(int(T.frame[i : i + 2], 16) for i in (1, 3, 5))
        for xy in ((0, 0), (img.width - 1, img.height // 2), (img.width // 2, img.height - 1)):
            # 256 colours: the frame's may move by a level or two.
            assert math.dist(rgb.getpixel(xy), frame) <= 3


# ---- deterministic and thread-safe ------------------------------------------------------


def test_same_input_same_bytes_from_many_threads():
    expected = {name: draw(T) for name, draw in CHARTS.items()}
    jobs = list(CHARTS) * 4
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda n: (n, CHARTS[n](T)), jobs))
    for name, data in results:
        assert data == expected[name], name


def test_dashes_keep_their_pattern_across_corners():
    pts = [(0.0, 0.0), (10.0, 0.0), (10.0, 30.0), (40.0, 30.0)]
    runs = _dashes(pts, *DASH)
    lengths = [sum(math.dist(a, b) for a, b in itertools.pairwise(r)) for r in runs]
    assert all(0 < n <= DASH[0] + 1e-9 for n in lengths)
    total = 70.0
    assert sum(lengths) == pytest.approx(total * DASH[0] / sum(DASH), abs=DASH[0])
    assert len(runs[0]) == 3  # the first dash turns the first corner
