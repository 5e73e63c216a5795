"""A tournament's standings as a table in the boards' look: rank, name, points, the
tie-breaks, then one column per round.

Like the boards and charts it is opaque, `theme.board_width` wide and readable on a phone
(no words under `theme.small_size`); it grows downwards with the rows, at most `MAX_ROWS` of
them (the caller pages). When the round columns do not fit at that size, the latest rounds
are shown and a note says which are not. Nothing depends on colour alone: results keep
their signs (+ won, − lost, = drawn) over their tints, the leaders have a star and a bold
name, and players who left are marked "(left)" as well as greyed.

The picture is drawn at its final size: the only slanted or rounded edges are cached
sprites (render/shapes.py), so there is no need to draw the whole table larger and shrink
it. Nothing is shared between calls but fonts (per thread) and those read-only sprites.

    render_standings("Autumn Swiss · after round 3 of 5", rows,
                     tiebreak_names=("Buchholz", "Wins"), rounds=5)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw
from PIL.ImageFont import FreeTypeFont

from lang import ngettext, pgettext, speaking
from render import png, text
from render.frame import block, finish
from render.shapes import panel, paste, symbol_icon
from render.theme import DEFAULT_THEME, Symbol, Theme

MAX_ROWS = 25  # per picture: 25 rows are about 1.5 times as tall as the table is wide

TITLE_TOP = 10
TITLE_SMALLER = (26, 24)  # below `title_size`: the title shrinks before it wraps
HEAD_H = 34  # the column headings
ROW_H = 36
FOOT_STEP = 24  # a line of the notes under the table
PAD = 10  # inside a cell, between its words and its edges
NAME_MIN = 160  # the player column never gets narrower: a dozen letters of a name
NAME_MAX = 320  # nor wider: most 32-letter names fit whole
ROUND_W = 54  # a round's column: "+10" at `label_size` fits its chip
CHIP_W = ROUND_W - 4
CHIP_H = 28
STAR = 18  # the leaders' star, right of their rank
HEADING_MAX = 100  # a tie-break's heading is shortened beyond this (the note explains it)

# Tints behind results, over 6:1 against `theme.text`: a hint for the eye, never the only
# cue, since each result keeps its sign.
WIN_FILL = "#2E5E40"
LOSS_FILL = "#6A3038"
DRAW_FILL = "#46505F"
LEADER_FILL = "#3A3624"  # a dark gold, behind rank-1 rows (which also have a star)
MINUS = "−"  # U+2212: as wide as "+", unlike a hyphen


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line of the table, already ranked and worded by the caller."""

    rank: int  # shared ranks repeat (1, 2, 2, 4)
    name: str
    points: float  # shown as 2½, 3, ½
    tiebreaks: tuple[float, ...]  # shown with at most one decimal (7.5, 12)
    # One cell per round played so far: "+5" (won against #5), "−2", "=4", "bye", "+F" (won
    # by forfeit), "−F", "·" (not paired), "…" (running). Later rounds are left empty. A
    # cell has room for about four characters ("bye", "+12", "frei"); the round columns
    # widen for a longer word ("exempt" in French), never cut it.
    results: tuple[str, ...]
    withdrawn: bool = False  # left the event: drawn greyed and marked "(left)"


@dataclass(frozen=True, slots=True)
class Column:
    """Where one column is, what heads it and how its words align ("l", "m" or "r")."""

    kind: str  # "rank", "name", "points", "tiebreak" or "round"
    heading: str
    x: float
    w: float
    align: str
    index: int = 0  # the tie-break's index, or the round's number (from 1)


@dataclass(frozen=True, slots=True)
class Table:
    """The table as drawn, before encoding: the picture and where its parts are."""

    image: Image.Image
    columns: tuple[Column, ...]
    row_tops: tuple[int, ...]  # the top of each player's row, in `rows` order
    shown: range  # the rounds that have a column


# ---- the public API ---------------------------------------------------------------------


def render_standings(
    title: str,
    rows: Sequence[StandingRow],
    *,
    tiebreak_names: Sequence[str],
    rounds: int,
    note: str = "",
    theme: Theme = DEFAULT_THEME,
    locale: str | None = None,
) -> bytes:
    """A table: rank, name, points, each tie-break, then a column per round (1..rounds;
    rounds not yet played are empty). `title` is the whole title line (the tournament's name
    and e.g. "after round 3 of 5"); `note` an optional footer (e.g. "Buchholz: sum of
    opponents' points"): the caller words them, tie-break names and results in the reader's
    language; the table's own words are in `locale`'s (our code or a Discord locale; English
    by default). At most MAX_ROWS rows: the caller pages. PNG bytes."""
    with speaking(locale):
        table = standings_table(
            title, rows, tiebreak_names=tiebreak_names, rounds=rounds, note=note, theme=theme
        )
        return png.encode(table.image)


def standings_table(
    title: str,
    rows: Sequence[StandingRow],
    *,
    tiebreak_names: Sequence[str],
    rounds: int,
    note: str = "",
    theme: Theme = DEFAULT_THEME,
) -> Table:
    """The standings as a picture (see `render_standings`), with its layout."""
    _check(rows, tiebreak_names, rounds)
    columns, shown = _columns(rows, tiebreak_names, rounds, theme)
    notes = _notes(shown, rounds, note, theme)
    head_y = TITLE_TOP + _title_height(title, theme) + 8
    first_row = head_y + HEAD_H
    bottom = first_row + len(rows) * ROW_H
    height = bottom + 10 + len(notes) * FOOT_STEP + 12

    img = Image.new("RGB", (theme.board_width, height), theme.background)
    d = ImageDraw.Draw(img)
    _title(d, title, theme)
    _headings(d, columns, head_y, theme)
    row_tops = tuple(first_row + i * ROW_H for i in range(len(rows)))
    for i, (row, top) in enumerate(zip(rows, row_tops, strict=True)):
        _row(img, d, columns, row, top, theme, striped=i % 2 == 1)
    _rules(d, columns, head_y, bottom, theme)
    _footer(d, notes, bottom + 10, theme)
    return Table(finish(img, height, theme), columns, row_tops, shown)


# ---- checks and words -------------------------------------------------------------------


def _check(rows: Sequence[StandingRow], tiebreak_names: Sequence[str], rounds: int) -> None:
    if not rows:
        raise ValueError("no standings to draw: rows is empty")
    if len(rows) > MAX_ROWS:
        raise ValueError(
            f"at most {MAX_ROWS} rows fit one standings picture, not {len(rows)}:"
            " page the standings and draw each page"
        )
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, not {rounds}")
    for row in rows:
        if len(row.tiebreaks) != len(tiebreak_names):
            raise ValueError(
                f"{row.name!r} has {len(row.tiebreaks)} tie-breaks,"
                f" but there are {len(tiebreak_names)} tie-break names"
            )
        if len(row.results) > rounds:
            raise ValueError(f"{row.name!r} has {len(row.results)} results in {rounds} rounds")
        if not all(math.isfinite(v) for v in (row.points, *row.tiebreaks)):
            raise ValueError(f"{row.name!r} has a points or tie-break value that is not a number")


def points_text(v: float) -> str:
    """Points in halves as players write them: 2½, 3, ½ (not 0½); anything else with one
    decimal."""
    halves = v * 2
    if halves != round(halves):
        return decimal_text(v)
    n = round(halves)
    sign = MINUS if n < 0 else ""
    whole, half = divmod(abs(n), 2)
    if half:
        return f"{sign}{whole or ''}½"
    return f"{sign}{whole}"


def decimal_text(v: float) -> str:
    """A tie-break with at most one decimal: 7.5, 12 (not 12.0), −1.5."""
    shown = f"{v:.1f}".removesuffix(".0")
    if shown in ("-0", "0"):
        return "0"
    return shown.replace("-", MINUS)


def result_kind(cell: str) -> str:
    """The kind of a result, "win", "loss", "draw" or "other" (a bye, not paired, running),
    read from the cell's sign: the sign the reader sees, so a tint never says more."""
    head = cell.strip()[:1]
    if head == "+":
        return "win"
    if head in ("−", "-", "–"):
        return "loss"
    if head == "=":
        return "draw"
    return "other"


def _ranges(numbers: Sequence[int]) -> str:
    """1, 2, 3, 7 -> "1–3 and 7"."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = [f"{r[0]}–{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs]
    if len(parts) == 2:
        return pgettext("list", "{items} and {last}").format(items=parts[0], last=parts[1])
    return ", ".join(parts)


def _notes(shown: range, rounds: int, note: str, theme: Theme) -> list[str]:
    """The lines under the table: which rounds have no column, then the caller's note."""
    out = []
    hidden = [r for r in range(1, rounds + 1) if r not in shown]
    if hidden:
        # TRANSLATORS: under the standings; {rounds} is "1–3", "2 and 5" or "1, 3, 5".
        words = ngettext("round {rounds} not shown", "rounds {rounds} not shown", len(hidden))
        out.append(words.format(rounds=_ranges(hidden)))
    if note:
        f = text.regular(theme, theme.small_size)
        shown_note = text.printable(note, theme.font_regular)
        out.extend(text.wrap_all(shown_note, f, theme.board_width - 2 * theme.margin))
    return out


# ---- layout -----------------------------------------------------------------------------


def _columns(
    rows: Sequence[StandingRow], tiebreak_names: Sequence[str], rounds: int, theme: Theme
) -> tuple[tuple[Column, ...], range]:
    """The columns left to right, and the rounds that fit beside a name column of at least
    NAME_MIN: all of them, or the latest that fit (but never rounds still to be played while
    played ones are hidden)."""
    f_head = text.bold(theme, theme.small_size)
    f_cell = text.regular(theme, theme.label_size)
    f_bold = text.bold(theme, theme.label_size)
    rank_w = PAD + max(f_bold.getlength(str(r.rank)) for r in rows) + 6 + STAR + PAD
    # TRANSLATORS: standings column headings are short: the table has little room.
    points_head = pgettext("standings column", "Pts")
    points_w = _fixed_width(points_head, [points_text(r.points) for r in rows], f_head, f_bold)
    heads = [_heading(h, f_head, theme) for h in tiebreak_names]
    tb_ws = [
        _fixed_width(h, [decimal_text(r.tiebreaks[i]) for r in rows], f_head, f_cell)
        for i, h in enumerate(heads)
    ]
    round_w = _round_width(rows, theme)
    inner = theme.board_width - 2 * theme.margin
    fixed = rank_w + points_w + sum(tb_ws)
    if fixed + NAME_MIN > inner:
        raise ValueError(
            f"{len(heads)} tie-break columns leave no room for the players' names:"
            " use fewer tie-breaks or shorter names for them"
        )
    fit = int((inner - fixed - NAME_MIN) // round_w)  # may be 0: the note says so
    played = max(len(r.results) for r in rows)
    end = min(rounds, max(played, fit))
    shown = range(max(1, end - fit + 1), end + 1)
    name_w = inner - fixed - len(shown) * round_w
    # Room left over beyond a long name goes to the number columns: a narrow table would
    # leave the points far from the names they belong to.
    extra = max(0.0, name_w - NAME_MAX) / (1 + len(tb_ws) + len(shown))
    name_w = min(name_w, NAME_MAX)

    x = float(theme.margin)
    out = []

    def add(kind: str, heading: str, w: float, align: str, index: int = 0) -> None:
        nonlocal x
        out.append(Column(kind, heading, x, w, align, index))
        x += w

    add("rank", "#", rank_w, "r")
    add("name", pgettext("standings column", "Player"), name_w, "l")
    add("points", points_head, points_w + extra, "r")
    for i, (h, w) in enumerate(zip(heads, tb_ws, strict=True)):
        add("tiebreak", h, w + extra, "r", i)
    # TRANSLATORS: a round's column heading, "R3": at most 3 characters with the number.
    round_head = pgettext("standings column", "R{round}")
    for r in shown:
        add("round", round_head.format(round=r), round_w + extra, "m", r)
    return tuple(out), shown


def _round_width(rows: Sequence[StandingRow], theme: Theme) -> int:
    """A round's column: ROUND_W, or wider if a result's words need it at the smallest size
    (a bye in French, "exempt"), so that every cell shows its whole word."""
    f = text.regular(theme, theme.small_size)
    words = {text.printable(c, theme.font_regular) for r in rows for c in r.results}
    widest = max((f.getlength(w) for w in words if w), default=0.0)
    return max(ROUND_W, math.ceil(widest) + 8)


def _heading(words: str, f: FreeTypeFont, theme: Theme) -> str:
    return text.fit(text.printable(words, theme.font_bold) or "?", f, HEADING_MAX)


def _fixed_width(heading: str, values: Sequence[str], f_head: FreeTypeFont, f: FreeTypeFont) -> int:
    """A number column's width: its heading or its widest value, and a cell's padding."""
    widest = max([f_head.getlength(heading), *(f.getlength(v) for v in values)])
    return math.ceil(widest) + 2 * PAD


# ---- drawing ----------------------------------------------------------------------------


def _title_sizes(theme: Theme) -> tuple[int, ...]:
    return (theme.title_size, *TITLE_SMALLER)


def _title_height(title: str, theme: Theme) -> int:
    # As `frame.block` will lay it out: wrapped, never cut (it names the tournament).
    width = theme.board_width - 2 * theme.margin
    f, lines = text.lines(title, theme, _title_sizes(theme), width, 2, strong=True)
    return len(lines) * round(f.size * 1.25)


def _title(d: ImageDraw.ImageDraw, title: str, theme: Theme) -> None:
    width = theme.board_width - 2 * theme.margin
    xy = (theme.margin, TITLE_TOP)
    block(d, theme, xy, title, _title_sizes(theme), width, strong=True, max_lines=2)


def _footer(d: ImageDraw.ImageDraw, notes: Sequence[str], y: float, theme: Theme) -> None:
    f = text.regular(theme, theme.small_size)
    m = theme.margin
    for line in notes:
        room = (m, y, theme.board_width - m, y + FOOT_STEP)
        text.draw(d, (m, y + FOOT_STEP / 2), line, f, theme.text_muted, "lm", room=room)
        y += FOOT_STEP


def _anchor_x(col: Column) -> float:
    if col.align == "l":
        return col.x + PAD
    if col.align == "r":
        return col.x + col.w - PAD
    return col.x + col.w / 2


def _headings(d: ImageDraw.ImageDraw, columns: Sequence[Column], y: float, theme: Theme) -> None:
    f = text.bold(theme, theme.small_size)
    cy = y + HEAD_H / 2
    for col in columns:
        x = _anchor_x(col)
        if col.kind == "rank":
            x = col.x + col.w - PAD - STAR - 6  # over the numbers, not the stars
        room = (col.x, y, col.x + col.w, y + HEAD_H)
        text.draw(d, (x, cy), col.heading, f, theme.text_muted, col.align + "m", room=room)


def _rules(
    d: ImageDraw.ImageDraw, columns: Sequence[Column], top: float, bottom: float, theme: Theme
) -> None:
    """A line under the headings, and thin lines before the points and the rounds: the
    three groups a reader looks for (who, how many points, what happened)."""
    m = theme.margin
    d.line((m, top + HEAD_H - 1, theme.board_width - m - 1, top + HEAD_H - 1), theme.stone_line, 2)
    for kind in ("points", "round"):
        col = next((c for c in columns if c.kind == kind), None)
        if col is not None:
            d.line((col.x, top + 6, col.x, bottom - 1), theme.surface_line, 1)


def _row(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    columns: Sequence[Column],
    row: StandingRow,
    top: float,
    theme: Theme,
    *,
    striped: bool,
) -> None:
    m = theme.margin
    leader = row.rank == 1 and not row.withdrawn
    fill = LEADER_FILL if leader else theme.surface if striped else None
    # Leaders' rows stop a pixel short, so that two of them do not melt into one block.
    bottom = top + ROW_H - (2 if leader else 1)
    if fill is not None:
        d.rectangle((m, top, theme.board_width - m - 1, bottom), fill=fill)
    if leader:
        d.rectangle((m, top, m + 3, bottom), fill=theme.tactic_gold)
    ink = theme.text_muted if row.withdrawn else theme.text
    cy = top + ROW_H / 2
    f_cell = text.regular(theme, theme.label_size)
    f_bold = text.bold(theme, theme.label_size)
    for col in columns:
        if col.kind == "rank":
            x = col.x + col.w - PAD - STAR - 6
            text.draw(d, (x, cy), str(row.rank), f_bold if leader else f_cell, ink, "rm")
            if leader:
                star = symbol_icon(Symbol.STAR, STAR, theme.tactic_gold, None, theme.supersample)
                paste(img, star, (x + 6, cy - STAR / 2 - 1))
        elif col.kind == "name":
            _name(d, col, row, cy, theme, strong=leader)
        elif col.kind == "points":
            text.draw(d, (_anchor_x(col), cy), points_text(row.points), f_bold, ink, "rm")
        elif col.kind == "tiebreak":
            shown = decimal_text(row.tiebreaks[col.index])
            text.draw(d, (_anchor_x(col), cy), shown, f_cell, ink, "rm")
        elif col.index <= len(row.results):
            _result(img, d, col, row.results[col.index - 1], cy, theme, muted=row.withdrawn)


def _name(
    d: ImageDraw.ImageDraw,
    col: Column,
    row: StandingRow,
    cy: float,
    theme: Theme,
    *,
    strong: bool,
) -> None:
    """The name, shortened with an ellipsis to leave room for "(left)" if it has one."""
    f = (text.bold if strong else text.regular)(theme, theme.label_size)
    room = col.w - 2 * PAD
    x = col.x + PAD
    box = (col.x, cy - ROW_H / 2, col.x + col.w, cy + ROW_H / 2)
    if not row.withdrawn:
        shown = text.name(row.name, theme, theme.label_size, round(room), strong=strong)
        text.draw(d, (x, cy), shown, f, theme.text, "lm", room=box)
        return
    f_mark = text.regular(theme, theme.small_size)
    # TRANSLATORS: after the name of a player who left the tournament.
    mark = pgettext("standings", "(left)")
    mark_w = f_mark.getlength(mark) + 8
    shown = text.name(row.name, theme, theme.label_size, round(room - mark_w), strong=strong)
    text.draw(d, (x, cy), shown, f, theme.text_muted, "lm", room=box)
    mark_x = x + f.getlength(shown) + 8
    text.draw(d, (mark_x, cy), mark, f_mark, theme.text_muted, "lm", room=box)


def _result(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    col: Column,
    cell: str,
    cy: float,
    theme: Theme,
    *,
    muted: bool,
) -> None:
    """One round's result on a chip tinted by its sign; byes, unpaired and running rounds
    are words alone, and a player who left has no tints (greyed like the rest of the row)."""
    words = text.printable(cell, theme.font_regular)
    if not words:
        return
    kind = result_kind(words)
    # Three-digit opponents drop to the smallest size and may widen their chip a little.
    room = math.floor(col.w) - 4
    f, shown = text.shrink_to_fit(
        words, theme, (theme.label_size, theme.small_size), room, strong=False
    )
    fill = {"win": WIN_FILL, "loss": LOSS_FILL, "draw": DRAW_FILL}.get(kind)
    cx = col.x + col.w / 2
    if fill is not None and not muted:
        chip_w = min(room + 2, max(CHIP_W, round(f.getlength(shown)) + 6))
        chip = panel(chip_w, CHIP_H, 6, fill, scale=theme.supersample)
        paste(img, chip, (cx - chip_w / 2, cy - CHIP_H / 2))
    quiet = muted or words in ("·", "…")
    text.draw(d, (cx, cy), shown, f, theme.text_muted if quiet else theme.text, "mm")
