"""Schotten Totten 2: the siege, its Tactical variant, and the revenge match."""

from engine.st2.board import Options, Phase, Tile
from engine.st2.game import Game
from engine.st2.moves import Control, Move, Oil, Retreat, parse_move
from engine.st2.view import TileView, View

__all__ = [
    "Control",
    "Game",
    "Move",
    "Oil",
    "Options",
    "Phase",
    "Retreat",
    "Tile",
    "TileView",
    "View",
    "parse_move",
]
