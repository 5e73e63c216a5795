"""Schotten Totten: the base game, the Tactics and Expert variants, and match play."""

from engine.st1.board import Options, Phase, Stone
from engine.st1.game import Game
from engine.st1.moves import Claim, Done, Draw, Move, Pass, Play, Resign, parse_move
from engine.st1.view import StoneView, View

__all__ = [
    "Claim",
    "Done",
    "Draw",
    "Game",
    "Move",
    "Options",
    "Pass",
    "Phase",
    "Play",
    "Resign",
    "Stone",
    "StoneView",
    "View",
    "parse_move",
]
