"""A challenge's or a tournament's game options, as the slash commands take them, into the
rules of a match."""

from __future__ import annotations

from bot.errors import Refused
from engine.api import MatchSpec, game_of
from lang import option, say


def spec_from_options(
    game: str, rounds: int, points: int | None, *, named: str = "rounds"
) -> MatchSpec:
    """`rounds` is the number of rounds in Schotten Totten; in Schotten Totten 2, 2 means the
    revenge match (two games with roles swapped). `named`: the option that gave `rounds`."""
    if game_of(game) == "st2":
        if rounds not in (1, 2) or points is not None:
            # TRANSLATORS: {one} and {two} are the command's option with its value, as a
            # member types them (`rounds:1`, in their language).
            raise Refused(
                say(
                    "Schotten Totten 2 is one game ({one}) or the revenge match ({two}).",
                    one=option(named, 1),
                    two=option(named, 2),
                )
            )
        return MatchSpec(game, revenge=rounds == 2)
    return MatchSpec(game, rounds=rounds, target=points)
