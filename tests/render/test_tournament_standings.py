"""The tournament standings table (render/tournament_standings.py): compared with checked-in
references, drawn for every edge case, readable on a phone, and never telling results, leaders
or players who left apart by colour alone.

To accept new pictures after a deliberate change of the look, run
`RENDER_UPDATE_REFERENCES=1 python -m pytest tests/render/test_standings.py` and review
tests/render/reference/standings-*.png before committing them.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from lang import pgettext, speaking
from render import text
from render.gallery import ROUND_ROBIN_STANDINGS, SWISS_STANDINGS, standings_pictures
from render.theme import DEFAULT_THEME as T
from render.tournament_standings import (
    DRAW_FILL,
    LEADER_FILL,
    LOSS_FILL,
    MAX_ROWS,
    NAME_MAX,
    NAME_MIN,
    PAD,
    ROW_H,
    STAR,
    WIN_FILL,
    Column,
    StandingRow,
    Table,
    decimal_text,
    points_text,
    render_standings,
    result_kind,
    standings_table,
)
from tests.render.helpers import image, similar
from tests.render.test_phone import MIN_PX, PHONE_WIDTH, too_small
from tests.render.test_theme import contrast

REFERENCE = Path(__file__).parent / "reference"
TABLES = standings_pictures()
SWISS = {
    "title": "Autumn Swiss · final standings",
    "tiebreak_names": ("Buchholz", "Wins"),
    "rounds": 3,
    "note": "Buchholz: sum of opponents' points · Wins count forfeits and byes",
}
LONG_NAMES = ("Maximiliane von Hohenzollern-Eck", "W" * 32)


def swiss(rows: Sequence[StandingRow] = SWISS_STANDINGS) -> Table:
    args = dict(SWISS)
    return standings_table(args.pop("title"), rows, **args)


def field(players: int, played: int, tiebreaks: int = 2) -> list[StandingRow]:
    """`players` rows ranked by points (pairs share a rank), `played` results each."""
    cells = ("+{}", "−{}", "={}", "bye", "+F", "−F", "·", "…")
    out = []
    for i in range(players):
        results = tuple(
            cells[(i + r) % len(cells)].format((i + r) % players + 1) for r in range(played)
        )
        out.append(
            StandingRow(
                rank=i // 2 * 2 + 1,
                name=f"Player {i + 1}",
                points=max(0.0, played - i * 0.5),
                tiebreaks=tuple(float(30 - i - k) / (k + 1) for k in range(tiebreaks)),
                results=results,
                withdrawn=i == players - 1 and players > 2,
            )
        )
    return out


def drawn_words(draw: Callable[[], bytes]) -> tuple[Image.Image, list[text.Drawn]]:
    """The picture `draw()` returns (PNG bytes) and every line of text it drew."""
    with text.recording() as lines:
        data = draw()
    return image(data), lines


def words_of(draw: Callable[[], bytes]) -> set[str]:
    return {ln.text for ln in drawn_words(draw)[1]}


def column(table: Table, kind: str, index: int = 0) -> Column:
    return next(c for c in table.columns if c.kind == kind and c.index == index)


def cell(table: Table, col: Column, row: int, inset: int = 1) -> Image.Image:
    """One cell of the drawn table, a pixel in from its edges (away from the rules)."""
    top = table.row_tops[row]
    box = (round(col.x) + inset, top + inset, round(col.x + col.w) - inset, top + ROW_H - inset)
    return table.image.crop(box).convert("RGB")


def rgb(hex_color: str) -> tuple[int, int, int]:
    return tuple(int(hex_color[i : i + 2], 16) for i in (1, 3, 5))


def bright(img: Image.Image, level: int = 200) -> int:
    """How many pixels are lighter than `level` (0-255): the ink of light words."""
    return sum(img.convert("L").histogram()[level + 1 :])


def changed_pixels(a: Image.Image, b: Image.Image, level: int = 64) -> int:
    """How many pixels differ by more than `level` (of 255) in lightness."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    return sum(diff.histogram()[level + 1 :])


# ---- reference pictures -----------------------------------------------------------------


@pytest.mark.parametrize("name", list(TABLES))
def test_standings_match_reference(name):
    path = REFERENCE / f"{name}.png"
    data = TABLES[name](T)
    if os.environ.get("RENDER_UPDATE_REFERENCES"):
        path.write_bytes(data)
    ok, why = similar(image(data), image(path.read_bytes()))
    assert ok, f"{name} differs from {path.name}: {why}"


def test_comparison_catches_a_changed_points_value():
    rows = list(SWISS_STANDINGS)
    rows[2] = dataclasses.replace(rows[2], points=2.5)  # Bartholomew: 2 -> 2½
    changed = render_standings(
        SWISS["title"], rows, **{k: v for k, v in SWISS.items() if k != "title"}
    )
    ok, _ = similar(image(changed), image((REFERENCE / "standings-swiss.png").read_bytes()))
    assert not ok


def test_every_points_change_changes_the_picture():
    # One digit for another ("2" -> "3") can score under the comparison's block limit, which
    # allows for FreeType's jitter; a finer measure shows every change is a glyph's worth.
    base = swiss().image
    for i, r in enumerate(SWISS_STANDINGS):
        for points in (0, 1, 1.5, 3, 7):
            if points == r.points:
                continue
            rows = list(SWISS_STANDINGS)
            rows[i] = dataclasses.replace(r, points=points)
            changed = changed_pixels(base, swiss(rows).image)
            assert changed >= 20, (r.name, points, changed)


def test_reference_data_is_realistic():
    ranks = [r.rank for r in SWISS_STANDINGS]
    assert len(SWISS_STANDINGS) == 6 and len(ranks) > len(set(ranks))  # a shared rank
    cells = {c for r in SWISS_STANDINGS for c in r.results}
    assert {"bye", "+F", "−F"} <= cells
    assert [r.withdrawn for r in SWISS_STANDINGS].count(True) == 1
    assert all(len(r.results) == SWISS["rounds"] for r in SWISS_STANDINGS)
    assert len(ROUND_ROBIN_STANDINGS) == 5
    assert {len(r.results) for r in ROUND_ROBIN_STANDINGS} == {3}  # of 5 rounds
    assert [r.rank for r in ROUND_ROBIN_STANDINGS][:2] == [1, 1]  # two leaders
    # Points add up: each result is worth 1, ½ or 0 (a bye is a point in the Swiss only).
    worth = {"+": 1.0, "=": 0.5, "−": 0.0, "b": 1.0, "·": 0.0}
    for r in SWISS_STANDINGS:
        assert sum(worth[c[0]] for c in r.results) == r.points, r.name
    for r in ROUND_ROBIN_STANDINGS:
        assert sum(worth[c[0]] for c in r.results if c != "bye") == r.points, r.name


def test_swiss_shows_every_column_and_cell():
    words = words_of(lambda: TABLES["standings-swiss"](T))
    headings = {"#", "Player", "Pts", "Buchholz", "Wins", "R1", "R2", "R3"}
    assert headings | {SWISS["title"], SWISS["note"]} <= words
    assert {"2½", "½", "4.5", "6.5", "+4", "−2", "=2", "bye", "+F", "−F", "·"} <= words
    assert {"Aurélie", "Bartholomew", "Mateus", "(left)"} <= words
    assert not any("not shown" in w for w in words)


# ---- layout and edge cases --------------------------------------------------------------


def test_two_players_one_round_no_tiebreaks():
    rows = field(2, 1, tiebreaks=0)
    table = standings_table("Final", rows, tiebreak_names=(), rounds=1)
    assert [c.kind for c in table.columns] == ["rank", "name", "points", "round"]
    assert table.image.width == T.board_width and table.image.height < 250
    # The spare width goes to the numbers, not to a vast gap after a short name.
    assert column(table, "name").w == NAME_MAX
    right = table.columns[-1]
    assert right.x + right.w == pytest.approx(T.board_width - T.margin)


def test_twenty_five_rows_fit_one_picture():
    rows = field(MAX_ROWS, 5)
    table = standings_table(
        "Big Swiss · after round 5 of 7", rows, tiebreak_names=("Bh", "SB"), rounds=7
    )
    assert len(table.row_tops) == 25
    assert table.row_tops[-1] + ROW_H < table.image.height
    assert table.image.height <= 1.6 * table.image.width


def test_twenty_six_rows_is_an_error():
    with pytest.raises(ValueError, match=r"at most 25 rows .* not 26: page the standings"):
        render_standings("Big Swiss", field(26, 1), tiebreak_names=("Bh", "SB"), rounds=3)


def test_eleven_rounds_show_the_latest_that_fit_and_say_so():
    rows = field(10, 11)
    table = standings_table("Marathon · final", rows, tiebreak_names=("Buchholz", "SB"), rounds=11)
    shown = table.shown
    assert shown.stop == 12 and 3 <= len(shown) < 11  # the latest, as many as fit
    assert column(table, "name").w >= NAME_MIN
    words = words_of(
        lambda: render_standings(
            "Marathon · final", rows, tiebreak_names=("Buchholz", "SB"), rounds=11
        )
    )
    assert f"rounds 1–{shown.start - 1} not shown" in words
    assert {f"R{r}" for r in shown} <= words and "R1" not in words


def test_early_in_a_long_event_the_first_rounds_are_shown():
    rows = field(8, 2, tiebreaks=1)
    table = standings_table(
        "Big Swiss · after round 2 of 11", rows, tiebreak_names=("Bh",), rounds=11
    )
    assert table.shown.start == 1 and table.shown.stop <= 11
    words = words_of(lambda: render_standings("Big Swiss", rows, tiebreak_names=("Bh",), rounds=11))
    assert f"rounds {table.shown.stop}–11 not shown" in words


def test_all_rounds_shown_when_they_fit():
    table = swiss()
    assert table.shown == range(1, 4)


def test_rounds_not_yet_played_are_empty():
    rows = ROUND_ROBIN_STANDINGS
    table = standings_table("RR", rows, tiebreak_names=("Wins",), rounds=5)
    assert table.shown == range(1, 6)
    fills = {rgb(T.background), rgb(T.surface), rgb(LEADER_FILL)}
    for r in (4, 5):
        for i in range(len(rows)):
            colours = {c for _, c in cell(table, column(table, "round", r), i).getcolors()}
            assert colours <= fills, (r, i, colours)
    played = cell(table, column(table, "round", 3), 0).getcolors()
    assert len(played) > 3  # a chip and its words


def test_long_and_non_ascii_names():
    names = [*LONG_NAMES, "Zoë Ødegård 🎲", "Łukasz Żółć", "李小龍", "Ngozi"]
    rows = [
        StandingRow(i + 1, n, 3 - i / 2, (10 - i,), ("+2", "−1", "=3"), withdrawn=i == 1)
        for i, n in enumerate(names)
    ]
    table = standings_table("Names", rows, tiebreak_names=("Bh",), rounds=3)
    _, lines = drawn_words(
        lambda: render_standings("Names", rows, tiebreak_names=("Bh",), rounds=3)
    )
    words = [ln.text for ln in lines]
    name_w = column(table, "name").w
    cut = [w for w in words if w.startswith(("Maxi", "WWW"))]
    assert len(cut) == 2 and all(w.endswith("…") for w in cut)
    assert text.bold(T, T.label_size).getlength(cut[0]) <= name_w - 2 * PAD  # a leader: bold
    assert "(left)" in words  # kept beside the shortened name of the player who left
    assert {"Zoë Ødegård", "Łukasz Żółć", "Ngozi"} <= set(words)
    assert "???" in words  # the font has no CJK: as the boards show such names


def test_no_tiebreaks():
    rows = [dataclasses.replace(r, tiebreaks=()) for r in SWISS_STANDINGS]
    table = standings_table("No tie-breaks", rows, tiebreak_names=(), rounds=3)
    assert "tiebreak" not in {c.kind for c in table.columns}
    words = words_of(lambda: render_standings("No tie-breaks", rows, tiebreak_names=(), rounds=3))
    assert {"Pts", "R1", "R3", "2½"} <= words and "Buchholz" not in words


def test_long_titles_wrap_and_notes_wrap_never_cut():
    title = "The Grand Winter Open of the Schotten Totten Society · after round 11 of 11"
    note = "Buchholz: the sum of the opponents' points. " * 4
    _, lines = drawn_words(
        lambda: render_standings(
            title, SWISS_STANDINGS, tiebreak_names=("B", "W"), rounds=3, note=note
        )
    )
    words = [ln.text for ln in lines]
    assert " ".join(words[:2]) == title
    assert sum(1 for w in words if "Buchholz" in w or "opponents" in w) >= 2
    assert not any(w.endswith("…") for w in words)


def test_long_tiebreak_names_are_shortened():
    rows = [dataclasses.replace(r, tiebreaks=(1.0,)) for r in SWISS_STANDINGS]
    words = words_of(
        lambda: render_standings("T", rows, tiebreak_names=("Sonneborn-Berger",), rounds=3)
    )
    assert any(w.startswith("Sonneb") and w.endswith("…") for w in words)


# ---- words and numbers ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "shown"),
    [
        (2.5, "2½"),
        (3, "3"),
        (0.5, "½"),
        (-0.5, "−½"),
        (0, "0"),
        (10.5, "10½"),
        (-1.5, "−1½"),
        (1.75, "1.8"),
    ],
)
def test_points_are_shown_in_halves(points, shown):
    assert points_text(points) == shown


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (7.5, "7.5"),
        (12, "12"),
        (12.0, "12"),
        (12.04, "12"),
        (6.25, "6.2"),
        (-1.5, "−1.5"),
        (-0.04, "0"),
    ],
)
def test_tiebreaks_have_at_most_one_decimal(value, shown):
    assert decimal_text(value) == shown


@pytest.mark.parametrize(
    ("words", "kind"),
    [
        ("+5", "win"),
        ("+F", "win"),
        ("−2", "loss"),
        ("-2", "loss"),
        ("−F", "loss"),
        ("=4", "draw"),
        ("bye", "other"),
        ("·", "other"),
        ("…", "other"),
    ],
)
def test_result_kinds_follow_the_sign(words, kind):
    assert result_kind(words) == kind


@pytest.mark.parametrize(
    ("rows", "kwargs", "match"),
    [
        ([], {}, "no standings"),
        (SWISS_STANDINGS, {"rounds": 0}, "rounds must be at least 1"),
        (SWISS_STANDINGS, {"rounds": 2}, "3 results in 2 rounds"),
        (SWISS_STANDINGS, {"tiebreak_names": ("Buchholz",)}, "2 tie-breaks, but there are 1"),
        ([StandingRow(1, "A", math.nan, (1, 1), ())], {}, "not a number"),
        (
            [StandingRow(1, "A", 1, (1,) * 6, ())],
            {"tiebreak_names": ("Buchholz", "Median", "Cut 1", "Sonneborn", "Progress", "Wins")},
            "no room for the players' names",
        ),
    ],
)
def test_bad_input_is_an_error(rows, kwargs, match):
    args = {"tiebreak_names": ("Buchholz", "Wins"), "rounds": 3, **kwargs}
    with pytest.raises(ValueError, match=match):
        render_standings("T", rows, **args)


# ---- readable by everyone ---------------------------------------------------------------

EDGE_CASES: dict[str, Callable[[], bytes]] = {
    **{name: (lambda d=draw: d(T)) for name, draw in TABLES.items()},
    "two-players": lambda: render_standings("Final", field(2, 1, 0), tiebreak_names=(), rounds=1),
    "25-rows": lambda: render_standings(
        "Big Swiss · after round 5 of 7", field(25, 5), tiebreak_names=("Bh", "SB"), rounds=7
    ),
    "11-rounds": lambda: render_standings(
        "Marathon", field(10, 11), tiebreak_names=("Buchholz", "SB"), rounds=11, note="SB: ..."
    ),
    "three-digit-opponents": lambda: render_standings(
        "Open · page 5 of 6",
        [
            StandingRow(101 + i, f"Player {101 + i}", 3, (), ("+112", "−104", "=120"))
            for i in range(3)
        ],
        tiebreak_names=(),
        rounds=3,
    ),
    "long-names": lambda: render_standings(
        "A long tournament name that takes two lines · after round 2 of 3",
        [
            StandingRow(1, LONG_NAMES[0], 2, (), ("+2", "+3")),
            StandingRow(2, LONG_NAMES[1], 1, (), ("−1", "+3")),
        ],
        tiebreak_names=(),
        rounds=3,
    ),
}


@pytest.mark.parametrize("name", list(EDGE_CASES))
def test_every_line_is_readable_at_phone_width(name):
    img, lines = drawn_words(EDGE_CASES[name])
    assert len(lines) >= 10  # the recorder saw the table's words
    assert too_small(lines, img.width) == []
    smallest = min(ln.size for ln in lines) * PHONE_WIDTH / img.width
    assert smallest >= MIN_PX
    assert img.width == T.board_width


def test_the_phone_check_can_fail():
    small = dataclasses.replace(T, small_size=12)
    with text.recording() as lines:
        data = TABLES["standings-swiss"](small)
    assert too_small(lines, image(data).width)


@pytest.mark.parametrize("fill", [WIN_FILL, LOSS_FILL, DRAW_FILL, LEADER_FILL, T.surface])
def test_words_read_on_every_fill(fill):
    assert contrast(T.text, fill) >= 4.5
    assert contrast(T.text_muted, fill) >= 4.5 or fill in (WIN_FILL, LOSS_FILL, DRAW_FILL)


def test_results_are_tinted_by_their_sign():
    table = swiss()
    r1 = column(table, "round", 1)
    expected = {0: WIN_FILL, 1: DRAW_FILL, 3: LOSS_FILL}  # "+4", "=5", "−1"
    for i, fill in expected.items():
        colours = {c for _, c in cell(table, r1, i).getcolors()}
        assert rgb(fill) in colours, (i, fill)
    left = {c for _, c in cell(table, column(table, "round", 2), 5).getcolors()}
    assert rgb(LOSS_FILL) not in left  # the player who left: greyed, not tinted


def test_results_differ_without_colour():
    # Every tint the same: a win and a loss against the same player still differ by sign.
    def table(result: str) -> Image.Image:
        rows = [StandingRow(1, "A", 1, (), (result,)), StandingRow(2, "B", 0, (), ("=1",))]
        t = standings_table("T", rows, tiebreak_names=(), rounds=1)
        return cell(t, column(t, "round", 1), 0).convert("L")

    win, loss = table("+2"), table("−2")
    assert changed_pixels(win, loss, level=100) >= 10


def test_leaders_have_a_star_and_a_bold_name():
    rows = [
        StandingRow(1, "Aurélie", 3, (), ()),
        StandingRow(1, "Aurélie", 3, (), ()),
        StandingRow(3, "Aurélie", 2, (), ()),
        StandingRow(4, "Aurélie", 2, (), ()),
    ]
    table = standings_table("T", rows, tiebreak_names=(), rounds=1)
    rank = column(table, "rank")
    star_x = round(rank.x + rank.w - PAD - STAR)

    def star(i: int) -> Image.Image:
        top = table.row_tops[i]
        return table.image.crop((star_x, top + 4, star_x + STAR, top + ROW_H - 4)).convert("L")

    # In grey, as someone who cannot tell the fills apart would see it: a shape, not a tint.
    assert bright(star(0), 150) >= 40 and bright(star(1), 150) >= 40
    assert bright(star(2), 150) == 0 and bright(star(3), 150) == 0
    name = column(table, "name")
    assert bright(cell(table, name, 0)) > 1.2 * bright(cell(table, name, 2))
    gold = {c for _, c in cell(table, name, 0).getcolors(1 << 16)}
    assert rgb(LEADER_FILL) in gold


def test_a_player_who_left_is_greyed_and_marked():
    table = swiss()
    name = column(table, "name")
    mateus = cell(table, name, 5)
    chidi = cell(table, name, 4)
    assert bright(chidi, 230) > 50
    assert bright(mateus, 200) == 0  # greyed: no word in full white
    for kind, index in (("rank", 0), ("points", 0), ("tiebreak", 0), ("round", 1)):
        assert bright(cell(table, column(table, kind, index), 5), 200) == 0, kind
        assert bright(cell(table, column(table, kind, index), 4), 200) > 0, kind
    assert "(left)" in words_of(lambda: TABLES["standings-swiss"](T))


def test_rows_are_striped():
    table = swiss()
    name = column(table, "name")
    x = round(name.x + name.w - 3)  # right of every name
    fills = [table.image.getpixel((x, top + ROW_H // 2)) for top in table.row_tops]
    surface, background = rgb(T.surface), rgb(T.background)
    assert fills == [rgb(LEADER_FILL), surface, background, surface, background, surface]


def test_tables_are_opaque_and_framed():
    for draw in TABLES.values():
        img = image(draw(T))
        assert img.mode == "P" and "transparency" not in img.info
        rgb_img = img.convert("RGB")
        frame = rgb(T.frame)
        for xy in ((0, 0), (img.width - 1, img.height // 2), (img.width // 2, img.height - 1)):
            # 256 colours: the frame's may move by a level or two.
            assert math.dist(rgb_img.getpixel(xy), frame) <= 3


# ---- deterministic and thread-safe ------------------------------------------------------


def test_same_input_same_bytes_from_many_threads():
    expected = {name: draw(T) for name, draw in TABLES.items()}
    jobs = list(TABLES) * 4
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda n: (n, TABLES[n](T)), jobs))
    for name, data in results:
        assert data == expected[name], name


@pytest.mark.parametrize("locale", ["en", "fr", "de"])
@pytest.mark.parametrize("rounds", [3, 7])
def test_a_bye_shows_its_whole_word_in_every_language(locale, rounds):
    """The French review: the bye cell read "ex…" ("exempt"). The round columns make room
    for the bot's own word for a bye, in every language, as many rounds as fit."""
    with speaking(locale):
        bye = pgettext("standings cell", "bye")
    rows = [
        dataclasses.replace(r, results=tuple(bye if c == "bye" else c for c in r.results))
        for r in field(8, rounds)
    ]
    assert any(bye in r.results for r in rows)

    def draw() -> bytes:
        return render_standings(
            "Autumn Swiss", rows, tiebreak_names=("Buchholz", "Wins"), rounds=rounds, locale=locale
        )

    _img, lines = drawn_words(draw)
    cells = {c for r in rows for c in r.results}
    # (A long name may be shortened, by design: not a cell.)
    assert [ln.text for ln in lines if ln.cut and ln.whole in cells] == []
    assert bye in {ln.text for ln in lines}
    # Every cell's words inside its column.
    table = standings_table(
        "Autumn Swiss", rows, tiebreak_names=("Buchholz", "Wins"), rounds=rounds
    )
    for col in table.columns:
        if col.kind == "round":
            assert col.w >= text.regular(T, T.small_size).getlength(bye) + 4
