"""Imported by the fork server that starts the picture processes (bot/front/pictures.py),
before any of them: what every picture needs (Pillow, the renderer, the engine, the
theme's palette) is then loaded once and shared by each process forked from it, so that a
new picture process is ready in milliseconds instead of a second."""

from __future__ import annotations

import engine.api  # noqa: F401  (the games a saved state is loaded into)
from render import DEFAULT_THEME
from render.palette import palette

palette(DEFAULT_THEME)
