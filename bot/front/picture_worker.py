"""Imported by the fork server that starts the picture processes (bot/front/pictures.py),
before any of them: what every picture needs (Pillow, the renderer, the engine and its
claim tables, the languages' catalogs, the theme's palette) is then loaded once and shared
by each process forked from it, so that a new picture process is ready in milliseconds
instead of seconds. (A player's turn picture dims the cards they cannot play: its view asks
the engine for the legal moves, claims included, whose tables would otherwise be built in
each picture process the first time each game's rules come up, a few hundred milliseconds
each.)"""

from __future__ import annotations

import engine.api
from lang import LANGUAGES
from lang.catalogs import translations
from render import DEFAULT_THEME
from render.palette import palette

engine.api.prepare()
for language in LANGUAGES:
    translations(language)
palette(DEFAULT_THEME)
