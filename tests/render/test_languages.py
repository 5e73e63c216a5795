"""Every picture in English, French and German, with nothing clipped, overflowing or cut off.

The check is measured, not estimated: `render.text.recording()` records every line drawn
with its ink's box, the room its layout gave it (when the drawing code knows it: a badge's
panel, a card, a column, a block of wrapped lines) and the size of the image it was drawn on
(a card sprite, a caption band, the picture). Every line must lie inside its image and its
room, and must not have been shortened to fit (an ellipsis, or a word split without a
hyphen) unless a player's name is what is too long, and then no more often than in English.

Words that come from the engine (tactic titles, formation types, how a game ended, variant
names) are translated in the engine's catalog by someone else. So that the layouts are tried
with words as long as the published editions' whatever that catalog holds yet, the fixture
below falls back to the glossary's terms (lang/GLOSSARY.md) for those that it lacks.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Callable, Iterator
from functools import cache

import pytest
from PIL import Image

import lang
from engine.ai import choose_move
from engine.api import MatchSpec, Playable, new_match
from lang.catalogs import MISSES, translations
from langtools.tools import template
from render import text
from render.gallery import (
    LONG_NAMES,
    NAMES,
    chart_pictures,
    pictures,
    st1_tactics_midgame,
    standings_pictures,
)
from render.replay import render_replay
from render.theme import DEFAULT_THEME
from tests.render.test_phone import MIN_PX, PHONE_WIDTH

LANGS = ("en", "fr", "de")
SLACK = 1.0  # pixels: anti-aliasing and rounding of the boxes
SLACK_Y = 3.0  # accents and descenders may reach a little above or below a line's room

# The engine's words by the glossary (English -> French, German): used where the engine's
# catalog has no translation yet, so that the layouts meet words of their real length.
ENGINE_WORDS = {
    "Spy": ("Espion", "Spion"),
    "Shield-Bearer": ("Porte-Bouclier", "Schildträger"),
    "Blind-Man's Bluff": ("Colin-Maillard", "Blinde Kuh"),
    "Mud Fight": ("Combat de Boue", "Schlammschlacht"),
    "Recruiter": ("Chasseur de Tête", "Anwerber"),
    "Strategist": ("Stratège", "Stratege"),
    "Traitor": ("Traître", "Verräter"),
    "Redeployment": ("Redéploiement", "Umgruppierung"),
    "Recruitment": ("Recrutement", "Rekrutierung"),
    "Desertion": ("Désertion", "Fahnenflucht"),
    "Treason": ("Traîtrise", "Verrat"),
    "Support": ("Soutien", "Verstärkung"),
    "Exchange": ("Échange", "Tausch"),
    "sum": ("somme", "Summe"),
    "run": ("suite", "Lauf"),
    "colour": ("couleur", "Farbe"),
    "colour run": ("suite couleur", "Farblauf"),
    "pair": ("paire", "Paar"),
    "three of a kind": ("brelan", "Drilling"),
    "four of a kind": ("carré", "Vierling"),
    "same strength": ("même force", "gleiche Stärke"),
    "three adjacent stones": ("trois Bornes adjacentes", "drei benachbarte Grenzsteine"),
    "five stones": ("cinq Bornes", "fünf Grenzsteine"),
    "neither player can play or claim": (
        "aucun joueur ne peut jouer ni revendiquer",
        "keiner kann spielen oder beanspruchen",
    ),
    "neither player can play or claim: more stones": (
        "aucun joueur ne peut jouer ni revendiquer : plus de Bornes",
        "niemand kann spielen oder beanspruchen: mehr Grenzsteine",
    ),
    "neither player can play or claim, stones equal: last stone claimed": (
        "aucun joueur ne peut jouer ni revendiquer, Bornes à égalité : dernière Borne revendiquée",
        "niemand kann spielen oder beanspruchen, gleich viele Grenzsteine: zuletzt beanspruchter"
        " Grenzstein",
    ),
    "control of a damaged wall tile": (
        "contrôle d'une tuile Muraille endommagée",
        "Führung an einem beschädigten Mauerplättchen",
    ),
    "a fourth wall tile damaged": (
        "une quatrième tuile Muraille endommagée",
        "ein viertes Mauerplättchen beschädigt",
    ),
    "the deck ran out": ("la pioche est vide", "der Kartenstapel ist aufgebraucht"),
    "every space on the Defender's side is full: the wall holds": (
        "tous les emplacements du Défenseur sont pleins : la Muraille tient",
        "alle Plätze auf der Seite des Verteidigers sind belegt: die Mauer hält",
    ),
    "resignation": ("abandon", "Aufgabe"),
    "time ran out": ("temps écoulé", "Zeit abgelaufen"),
    "Schotten Totten, Tactics": ("Schotten Totten, variante tactique", "Schotten Totten, Taktik"),
    "Schotten Totten, Tactics + Expert": (
        "Schotten Totten, variantes tactique et Expert",
        "Schotten Totten, Taktik- und Experten-Variante",
    ),
    "Schotten Totten 2, Tactical": (
        "Schotten Totten 2, variante tactique",
        "Schotten Totten 2, Taktik",
    ),
}


class _Glossary(gettext.NullTranslations):
    """A language's catalogs, with ENGINE_WORDS for engine words they do not translate."""

    def __init__(self, real: gettext.NullTranslations, column: int) -> None:
        super().__init__()
        self.real = real
        self.column = column

    def _or_glossary(self, message: str, said: str) -> str:
        if said == message and message in ENGINE_WORDS:
            return ENGINE_WORDS[message][self.column]
        return said

    def gettext(self, message: str) -> str:
        return self._or_glossary(message, self.real.gettext(message))

    def pgettext(self, context: str, message: str) -> str:
        return self._or_glossary(message, self.real.pgettext(context, message))

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.real.ngettext(msgid1, msgid2, n)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.real.npgettext(context, msgid1, msgid2, n)


@cache
def _with_glossary(language: str) -> gettext.NullTranslations:
    real = translations(language)
    if language == "en":
        return real
    return _Glossary(real, ("fr", "de").index(language))


@pytest.fixture(autouse=True)
def glossary(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lang, "translations", _with_glossary)


# ---- the check ---------------------------------------------------------------------------


def _inside(ink: text.Box, box: text.Box, slack_y: float) -> bool:
    x0, y0, x1, y1 = ink
    bx0, by0, bx1, by1 = box
    return x0 >= bx0 - SLACK and x1 <= bx1 + SLACK and y0 >= by0 - slack_y and y1 <= by1 + slack_y


def problems(lines: list[text.Drawn], names: tuple[str, ...]) -> list[str]:
    """What does not fit: a line outside its image or its room, or shortened although no
    player's name is what made it too long."""
    out = []
    for ln in lines:
        assert ln.ink is not None and ln.image is not None
        w, h = ln.image
        if not _inside(ln.ink, (0, 0, w, h), 0):
            out.append(f"{ln.text!r} leaves its {w:.0f}x{h:.0f} image: {ln.ink}")
        if ln.room is not None and not _inside(ln.ink, ln.room, SLACK_Y):
            out.append(f"{ln.text!r} leaves its room {ln.room}: {ln.ink}")
        if ln.cut and not any(n in ln.whole for n in names):
            out.append(f"{ln.text!r} is {ln.whole!r} cut ({ln.cut})")
    return out


def cuts(lines: list[text.Drawn]) -> int:
    return sum(1 for ln in lines if ln.cut)


# ---- the pictures ------------------------------------------------------------------------


@cache
def _replay_log() -> tuple[tuple[int, str], ...]:
    """A finished game of Schotten Totten with tactics, played by the computer."""
    match = new_match(MatchSpec("tactics"), 3)
    n = 0
    while not match.is_over:
        seat = match.to_decide
        match.play(choose_move(match.view(seat), "easy", seed=n), seat)
        n += 1
    return tuple(match.log)


def _replay(locale: str) -> bytes:
    start: Playable = new_match(MatchSpec("tactics"), 3)
    return render_replay(start, _replay_log(), NAMES, locale=locale).data


def _all() -> dict[str, tuple[Callable[[str], bytes], tuple[str, ...]]]:
    """Every picture kind by name: how to draw it in a language, and its players' names."""
    out: dict[str, tuple[Callable[[str], bytes], tuple[str, ...]]] = {}
    for p in pictures():
        out[p.name] = (lambda locale, p=p: p.render(DEFAULT_THEME, locale), p.names)
    for name, draw in {**chart_pictures(), **standings_pictures()}.items():
        people = (*NAMES, "Ye-jin", "Ngozi", "Chidi", "Mateus", "Łukasz Żółć")
        out[name] = (lambda locale, draw=draw: draw(DEFAULT_THEME, locale), people)
    out["replay-tactics"] = (_replay, NAMES)
    return out


PICTURES = _all()

# Every test here draws from one cache of pictures (`drawn`; the replay alone is a whole
# game of frames): on one worker of pytest-xdist each picture is drawn once, not twice.
pytestmark = pytest.mark.xdist_group("pictures-in-every-language")


@cache
def drawn(name: str, locale: str) -> tuple[tuple[int, int], tuple[text.Drawn, ...]]:
    draw, _names = PICTURES[name]
    with text.recording() as lines:
        data = draw(locale)
    return Image.open(io.BytesIO(data)).size, tuple(lines)


def test_every_kind_of_picture_is_tried():
    kinds = {(p.view.game, p.what, p.view.outcome is not None) for p in pictures()}
    assert {(g, "board", done) for g in ("st1", "st2") for done in (False, True)} <= kinds
    assert {("st1", "hand", False), ("st2", "hand", False)} <= kinds
    variants = {p.view.variant for p in pictures()}
    assert {"tactics", "tactics-expert", "siege", "siege-tactics"} <= variants
    assert {"chart-rating", "chart-chances", "standings-swiss", "replay-tactics"} <= set(PICTURES)


@pytest.mark.parametrize("locale", LANGS)
@pytest.mark.parametrize("name", list(PICTURES))
def test_every_line_fits_its_room(name, locale):
    _, names = PICTURES[name]
    size, lines = drawn(name, locale)
    assert len(lines) >= 10
    assert problems(list(lines), names) == []
    # Shrunk to fit, but still readable on a phone (tests/render/test_phone.py).
    assert min(ln.size for ln in lines) * PHONE_WIDTH / size[0] >= MIN_PX
    # A long name may be cut, as in English; the words around it may not make it worse.
    assert cuts(list(lines)) <= cuts(list(drawn(name, "en")[1]))


@pytest.mark.parametrize("locale", ["fr", "de"])
@pytest.mark.parametrize("name", list(PICTURES))
def test_the_pictures_words_are_translated(name, locale):
    # Every message of the render catalog that the picture used was found in the language's
    # catalog: none fell back to English.
    ours = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in _render_messages()}
    MISSES.clear()
    drawn.__wrapped__(name, locale)
    missed = [(ctx, msg) for (lng, ctx, msg) in MISSES if lng == locale and (ctx, msg) in ours]
    assert missed == []


@cache
def _render_messages() -> list:
    return [m for m in template("render") if m.id]


def test_french_and_german_boards_say_their_own_words():
    words = {
        locale: {ln.text for ln in drawn("st1-tactics-midgame-board", locale)[1]}
        for locale in LANGS
    }
    assert any(t.startswith("Last move:") for t in words["en"])
    assert any(t.startswith("Dernier coup") for t in words["fr"])
    assert any(t.startswith("Letzter Zug:") for t in words["de"])
    assert not any("Last move" in t for t in words["fr"] | words["de"])


def test_english_pictures_are_unchanged_by_the_languages():
    # The same bytes whether or not another language was drawn before (sprite caches are
    # keyed by language).
    view = st1_tactics_midgame().view(None)
    from render import render_board

    first = render_board(view, names=NAMES)
    render_board(view, names=NAMES, locale="de")
    render_board(view, names=NAMES, locale="fr-FR")  # a Discord locale
    assert render_board(view, names=NAMES) == first
    assert render_board(view, names=NAMES, locale="en-GB") == first


def test_the_check_catches_a_word_too_long_for_its_card(monkeypatch):
    # A translator who gives the Shield-Bearer's short name in full: it no longer fits the
    # 68-pixel card, even in the regular weight at the smallest size.
    real = _with_glossary("fr")

    class Long(_Glossary):
        def pgettext(self, context: str, message: str) -> str:
            if message == "Shield":
                return "Porte-Bouclier"
            return real.pgettext(context, message)

    monkeypatch.setattr(lang, "translations", lambda language: Long(real, 0))
    picture = next(p for p in pictures() if p.name == "st1-tactics-expert-wild-claims-board")
    with text.recording() as lines:
        picture.render(DEFAULT_THEME, "fr")
    flagged = problems(lines, picture.names)
    assert any("Porte-Bouclier" in p for p in flagged)


def test_the_check_catches_a_cut_and_a_broken_word():
    f = text.bold(DEFAULT_THEME, 20)
    with text.recording() as lines:
        from PIL import ImageDraw

        img = Image.new("RGB", (200, 100))
        d = ImageDraw.Draw(img)
        shown = text.fit("Schlammschlacht und Colin-Maillard", f, 120)
        text.draw(d, (0, 10), shown, f, "#fff")
        for i, row in enumerate(text.wrap_all("Donaudampfschifffahrt", f, 90)):
            text.draw(d, (0, 40 + 20 * i), row, f, "#fff", room=(0, 30 + 20 * i, 90, 50 + 20 * i))
        text.draw(d, (150, 80), "Verteidiger", f, "#fff")  # leaves the image
    found = problems(lines, ())
    assert any("cut (ellipsis)" in p for p in found)
    assert any("cut (broken)" in p for p in found)
    assert any("leaves its 200x100 image" in p for p in found)
    # A name cut to fit is no fault of the words.
    with text.recording() as lines:
        shown = text.name("Maximiliane von Hohenzollern-Eck", DEFAULT_THEME, 20, 120)
        text.draw(d, (0, 10), shown, f, "#fff")
    assert problems(lines, LONG_NAMES) == []


def test_german_compounds_are_hyphenated_not_broken():
    f = text.bold(DEFAULT_THEME, 18)
    assert text.wrap_all("Schlammschlacht", f, 120, hyphenate=True) == ["Schlamm-", "schlacht"]
    assert text.wrap_all("ENDOMMAGÉE", f, 120, hyphenate=True) == ["ENDOMMA-", "GÉE"]
    # Names are never hyphenated: a hyphen would read as part of the name.
    assert "-" not in "".join(text.wrap_all("W" * 32, f, 120))


def _sizes() -> Iterator[tuple[str, str]]:
    for name in PICTURES:
        for locale in ("fr", "de"):
            yield name, locale


@pytest.mark.parametrize(("name", "locale"), list(_sizes()))
def test_translated_pictures_keep_their_width(name, locale):
    # Longer words wrap or shrink; they never widen a picture.
    assert drawn(name, locale)[0][0] == drawn(name, "en")[0][0]
