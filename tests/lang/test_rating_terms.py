"""The glossary's words for ratings and results where the reviews found others (issue 39,
French and German review): a rating is a "cote" (a leaderboard, a "classement"), and a
drawn game is "Unentschieden", never "Remis" (lang/GLOSSARY.md)."""

from __future__ import annotations

from lang.catalogs import translations
from render import text
from render.charts import RatingPoint, render_rating_chart
from render.gallery import NOVEMBER_2024

POINTS = [
    RatingPoint(NOVEMBER_2024 + 86400, 1060, "win"),
    RatingPoint(NOVEMBER_2024 + 2 * 86400, 1040, "draw"),
    RatingPoint(NOVEMBER_2024 + 3 * 86400, 990, "loss"),
]


def chart_words(locale: str) -> set[str]:
    with text.recording() as lines:
        render_rating_chart({"Schotten Totten": POINTS}, name="Alice", start=1000, locale=locale)
    return {ln.text for ln in lines}


def test_the_french_rating_chart_is_titled_cote():
    words = chart_words("fr")
    assert "Alice · cote" in words
    assert not any("classement" in w for w in words)
    assert "match nul" in words  # the glossary's only word for a draw


def test_the_german_chart_legend_says_unentschieden():
    words = chart_words("de")
    assert "Unentschieden" in words
    assert "Remis" not in words


def test_the_french_stats_command_speaks_of_cotes():
    said = translations("fr").pgettext(
        "command description", "A player's results and ratings on this server"
    )
    assert "cotes" in said and "classement" not in said
