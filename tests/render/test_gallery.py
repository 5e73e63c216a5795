"""Every gallery picture renders, to the same bytes every time, at a size fit for Discord."""

from __future__ import annotations

import pytest

from render.__main__ import main
from render.gallery import LANGUAGES, chart_pictures, file_name, pictures, standings_pictures
from tests.render.helpers import gallery, image, rendered

NAMES = list(gallery())
BOARDS = [n for n in NAMES if gallery()[n].what == "board"]
HANDS = [n for n in NAMES if gallery()[n].what == "hand"]


def test_gallery_covers_both_games_and_every_variant():
    variants = {p.view.variant for p in gallery().values()}
    assert variants == {"classic", "tactics", "tactics-expert", "siege", "siege-tactics"}
    assert len(NAMES) == len(set(NAMES))
    assert {gallery()[n].view.game for n in BOARDS} == {"st1", "st2"}
    assert {gallery()[n].view.game for n in HANDS} == {"st1", "st2"}


def test_gallery_shows_what_issue_5_asks_for():
    views = [p.view for p in gallery().values() if p.what == "board"]
    st1 = [v for v in views if v.game == "st1"]
    st2 = [v for v in views if v.game == "st2"]
    # Mud Fight and Blind-Man's Bluff on one stone; a claimed stone with wild cards.
    assert any(len(s.modes) == 2 for v in st1 for s in v.stones)
    assert any(s.won_with and s.won_with.wild_values for v in st1 for s in v.stones)
    assert any(v.match is not None and v.match.round == 2 for v in st1)
    assert any(t.is_gate and t.damaged for v in st2 for t in v.tiles)
    assert any(v.revenge is not None and v.revenge.game == 2 for v in st2)
    assert any(v.outcome is not None for v in st1) and any(v.outcome is not None for v in st2)
    assert all(v.viewer is None for v in views)  # boards are the channel's, a spectator's


@pytest.mark.parametrize("name", NAMES)
def test_picture_renders_to_identical_bytes(name):
    first = rendered(name)
    assert gallery()[name].render() == first
    assert first.startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize("name", BOARDS)
def test_board_size_fits_a_phone_and_discord(name):
    data = rendered(name)
    img = image(data)
    # Portrait and narrow (issue 13): shown about 390 px wide on a phone, a board 760 px wide
    # keeps its smallest text (18 px) 9 px tall; not so tall that a phone shows a sliver.
    assert img.width == 760
    assert img.width <= img.height <= 2 * img.width
    assert len(data) <= 250 * 1024
    assert img.mode == "P"  # a palette picture: small and quick to send


@pytest.mark.parametrize("name", HANDS)
def test_hand_size_fits_a_phone(name):
    data = rendered(name)
    img = image(data)
    assert 600 <= img.width <= 700
    assert img.height <= 1000
    assert len(data) <= 100 * 1024


def test_gallery_command_writes_every_picture(tmp_path, capsys):
    assert main(["gallery", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    names = [p.name for p in pictures()] + list(chart_pictures()) + list(standings_pictures())
    # English, then every other language of the gallery: NAME.png, NAME-fr.png, NAME-de.png.
    expected = [file_name(name, locale) for locale in (None, *LANGUAGES) for name in names]
    assert written == sorted(expected)
    assert "st1-tactics-midgame-board-fr.png" in written
    assert capsys.readouterr().out.count(".png") == len(written)


def test_gallery_command_explains_its_usage(capsys):
    assert main([]) == 2
    assert "python -m render gallery DIR" in capsys.readouterr().err
