"""`python -m render gallery DIR`: write the gallery pictures into DIR for review."""

from __future__ import annotations

import sys
from pathlib import Path

USAGE = "usage: python -m render gallery DIR"


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "gallery":
        print(USAGE, file=sys.stderr)
        return 2
    from render.gallery import write

    for path in write(Path(argv[1])):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
