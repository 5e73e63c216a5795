"""Issue 39, item 13 a: counts take the singular at 1, in every language (ngettext)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.front.lookback import _summary, replay_about
from engine.ai.analysis import Judgement
from engine.cardgame import tactic_limit
from lang import localise, speaking
from render.st1_board import tactics_fact

ONE_TACTIC = {"en": "1 tactic played", "fr": "1 Tactique jouée", "de": "1 Taktikkarte gespielt"}
TWO_TACTICS = {
    "en": "2 tactics played",
    "fr": "2 Tactiques jouées",
    "de": "2 Taktikkarten gespielt",
}
LIMIT_ONE = {
    "en": "You have played 1 tactic card and",
    "fr": "Vous avez joué 1 carte Tactique et",
    "de": "Du hast 1 Taktikkarte gespielt und",
}
ONE_CHOICE = {
    "en": "Alice's 1 real choice (",
    "fr": "Alice a eu 1 vrai choix à faire (",
    "de": "Echte Entscheidung von Alice: 1 (",
}
TWO_CHOICES = {
    "en": "Alice's 2 real choices (",
    "fr": "Alice a eu 2 vrais choix à faire (",
    "de": "Echte Entscheidungen von Alice: 2 (",
}


def judgements(n: int) -> list[Judgement]:
    return [Judgement(i, 0, "R1 1", "R2 2", 0.5, 0.4) for i in range(n)]


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_one_is_singular_two_plural(language):
    # The analysis's summary reads only the players' names of the game.
    game = SimpleNamespace(info=SimpleNamespace(names=("Alice", "Bob")))
    with speaking(language):
        assert tactics_fact(1) == ONE_TACTIC[language]
        assert tactics_fact(2) == TWO_TACTICS[language]
        assert localise(tactic_limit(1, 0)).startswith(LIMIT_ONE[language])
        assert ONE_CHOICE[language] in _summary(game, 0, "normal", judgements(1))
        assert TWO_CHOICES[language] in _summary(game, 0, "normal", judgements(2))


# The replay's line under its GIF: a one-move game (a resignation at the first move) too.
ONE_MOVE = {"en": "Replay: 1 move in", "fr": "1 coup en", "de": "1 Zug in"}
TWO_MOVES = {"en": "Replay: 2 moves in", "fr": "2 coups en", "de": "2 Züge in"}


@pytest.mark.parametrize("language", ["en", "fr", "de"])
@pytest.mark.parametrize("scale", [1.0, 0.8])
def test_a_replay_of_one_move_says_move(language, scale):
    with speaking(language):
        assert ONE_MOVE[language] in replay_about(1, 2, 1500, scale)
        assert TWO_MOVES[language] in replay_about(2, 3, 2500, scale)
