"""French as a native player reads it (review of November 2026, "French"): plurals that agree
with 0 and 1, language names in lower case mid-sentence, one word per thing, no stacked
colons. Each test reads the catalogs or the code's own output, not a list of answers."""

import re

import pytest

from bot.records import Record
from lang import localise, speaking, translations
from langtools import tools

# A French colon, with its (non-breaking or plain) space before it.
COLON = re.compile(r"[ \u00a0\u202f]:(?=\s|$)")
# Where a sentence (or a list's item) ends: a colon after one of these starts afresh.
SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|\n|[ \u00a0]?;\s| · ")


def french_messages():
    """Every French message: (domain, context, English msgid, its French forms)."""
    for domain in tools.DOMAINS:
        for m in tools.read(tools.po_path("fr", domain), "fr"):
            if not m.id:
                continue
            english = m.id if isinstance(m.id, str) else " ".join(m.id)
            forms = m.string if isinstance(m.string, tuple) else (m.string,)
            yield domain, m.context, english, forms


def test_french_plural_rule_treats_0_and_1_as_singular():
    for po in tools.po_path("fr", "engine").parent.glob("*.po"):
        assert "plural=(n > 1)" in po.read_text(encoding="utf-8"), po.name
    fr = translations("fr")
    won = [fr.ngettext("{count} won", "{count} won", n) for n in (0, 1, 2)]
    assert won == ["{count} victoire", "{count} victoire", "{count} victoires"]


@pytest.mark.parametrize(
    ("done", "shown"),
    [(0, "0 coup examiné sur 30"), (1, "1 coup examiné sur 30"), (2, "2 coups examinés sur 30")],
)
def test_the_analysis_progress_agrees_with_its_count(done, shown):
    from bot.front.lookback import progress_line  # imported here: new with this test

    with speaking("fr"):
        line = progress_line(7, "normal", done, 30)
    assert shown in line, line


def test_a_record_agrees_with_each_count_and_adds_no_colon():
    with speaking("fr"):
        one = localise(Record(wins=0, losses=1).describe())
        more = localise(Record(wins=2, losses=0, draws=3).describe())
    assert one == "0 victoire, 1 défaite"
    assert more == "2 victoires, 0 défaite, 3 matchs nuls"
    # "1 partie terminée : 0 victoire, 1 défaite": the record brings no colon of its own.
    assert not COLON.search(one + more)
    with speaking("en"):
        assert localise(Record(wins=3, losses=1, draws=2).describe()) == "3 won, 1 lost, 2 drawn"


def test_language_names_are_lower_case_inside_a_french_sentence():
    from bot.front.admin_commands import language_name  # imported here: new with this test

    with speaking("fr"):
        names = [language_name(code) for code in ("en", "fr", "de")]
    assert names == ["anglais", "français", "allemand"]
    with speaking("en"):
        assert language_name("fr") == "French"
    for _domain, context, _english, forms in french_messages():
        if context == "language name":
            assert all(f == f.lower() for f in forms), forms


def test_a_rating_is_a_cote_never_the_leaderboard():
    # "classement" is the leaderboard (and a tournament's standings); a player's rating is
    # their "cote". The rating chart's title is a picture, fixed with the pictures.
    for domain, context, english, forms in french_messages():
        if context == "chart title" or not re.search(r"\bratings?\b", english, re.I):
            continue
        if re.search(r"leaderboard|standings", english, re.I):
            continue
        assert not any("classement" in f for f in forms), (domain, english, forms)


def test_no_french_sentence_stacks_two_colons():
    # "1 partie terminée : victoires : 0", "Alice gagne : … pleins : la Muraille tient".
    stacked = []
    for domain, _context, english, forms in french_messages():
        for form in forms:
            for sentence in SENTENCE_END.split(form):
                if len(COLON.findall(sentence)) > 1:
                    stacked.append((domain, english, sentence))
    assert stacked == [], stacked[:5]


def test_a_part_put_after_a_colon_brings_none_of_its_own():
    # The board says "{player} gagne : {reason}": a reason with a colon stacks two; so would
    # a rating change in "Nouvelles cotes : {changes}" ("Cotes : Alice : 927 (-73)").
    parts = [f for _d, ctx, _e, forms in french_messages() if ctx == "game end" for f in forms]
    messages = {english: forms for _d, _ctx, english, forms in french_messages()}
    assert COLON.search(messages["Ratings: {changes}"][0])
    parts += messages["{name}: {rating} ({change})"]
    assert len(parts) > 1 and not [p for p in parts if COLON.search(p)]


def test_one_french_word_for_each_thing():
    messages = {(ctx, english): forms for _d, ctx, english, forms in french_messages()}
    # Joining a tournament: the button, the command and the reply say the same verb.
    button = messages[("tournament button", "Join")][0]
    command = messages[("command name", "join")][0]
    assert button.lower() == command
    # A tile is "revendiquée" (the button "Revendiquer la tuile 4"), never "pris le contrôle".
    assert messages[(None, "Take tile {place}")][0].startswith("Revendiquer")
    said = [f for (_c, e), forms in messages.items() for f in forms if "control" in e.lower()]
    assert said and not [f for f in said if "pris le contrôle" in f or "prise de contrôle" in f]
    # A chance of winning: "chances de victoire", the chart's own title.
    chart = messages[("chart title", "Winning chances")][0]
    chances = [f for (_c, e), forms in messages.items() for f in forms if "chance of winning" in e]
    assert chart == "Chances de victoire"
    assert chances and all("chances de victoire" in f.lower() for f in chances), chances


def test_command_names_keep_their_accents():
    names = [forms[0] for _d, ctx, _e, forms in french_messages() if ctx == "command name"]
    assert "confidentialité" in names and "confidentialite" not in names
