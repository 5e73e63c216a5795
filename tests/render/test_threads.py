"""Rendering from several threads at once gives the same bytes as one at a time."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from render import cards, shapes
from tests.render.helpers import gallery, rendered


def test_parallel_rendering_matches_sequential():
    names = list(gallery()) * 2
    expected = {n: rendered(n) for n in names}
    # Empty caches, so that threads race to build the same sprites.
    cards._sprite.cache_clear()
    shapes.panel.cache_clear()
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda n: (n, gallery()[n].render()), names))
    for name, data in results:
        assert data == expected[name], name
