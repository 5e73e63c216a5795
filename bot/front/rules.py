"""`/schotten rules [topic]`: short summaries of the rules, one per topic."""

from __future__ import annotations

import re

from bot.notation import KEYWORDS, in_language
from lang import N_, _, current, fill, mention, pgettext

TOPICS: dict[str, tuple[str, str]] = {
    "overview": (
        N_("Schotten Totten in a minute"),
        N_(
            "Two clans fight over **9 stones**. Each turn you play one card from your hand next"
            " to a stone on your side, then draw. With three cards by a stone you have a"
            " *formation*; claim the stone when yours beats your opponent's, or when you can prove"
            " they cannot beat it whatever they add.\n"
            "**Win** by holding **three adjacent stones** or **any five stones**."
        ),
    ),
    "formations": (
        N_("Formations, strongest first"),
        N_(
            "1. **Colour run**: same colour, consecutive values (R4 R5 R6)\n"
            "2. **Same strength** (three of a kind): R7 B7 Y7\n"
            "3. **Colour**: same colour (P1 P5 P9)\n"
            "4. **Run**: consecutive values, any colours (R3 B4 Y5)\n"
            "5. **Sum**: anything else\n"
            "Same type: the **higher total** wins. Same total too: the side **completed first**"
            " wins. The order cards were played in does not matter (5-3-4 is a run)."
        ),
    ),
    "claims": (
        N_("Claiming a stone"),
        N_(
            "**When**: on your own turn, after playing your card and before drawing (in the"
            " Expert variant: at the start of your turn, before playing). Claim as many stones"
            " as you can.\n"
            "You need a complete formation there (3 cards; 4 with Mud Fight). If your opponent's"
            " side is complete, the stronger formation wins; equal formations go to the side"
            " **completed first**. If their side is not complete, you may still claim when"
            " **no way of completing their side beats yours**, using every clan card not face-up"
            " on the table: the deck and both hands, **your own hand included**, since the proof"
            " does not look into hands. Unplayed tactic cards are ignored by the proof; tactic"
            " cards already on their side count at their best. The bot checks this exactly; if a"
            " claim fails it shows a completion that would beat you. Claimed stones are closed."
        ),
    ),
    "tactics": (
        N_("Tactics variant: the ten tactic cards"),
        N_(
            "7-card hands; draw from the clan or the tactic deck. You may play a tactic card only"
            " if you have not played more than your opponent. You may **pass** (play no card)"
            " while you hold tactic cards; with no card you may play, you must pass.\n"
            "**Joker** (x2): any colour, value 1 to 9; one per player on the table.\n"
            "**Spy**: a 7 of any colour. **Shield-Bearer**: a 1, 2 or 3 of any colour.\n"
            "Wild values are chosen at claim time, at their best for the owner.\n"
            "**Blind-Man's Bluff** (on a stone): only totals count there.\n"
            "**Mud Fight** (on a stone): four cards each side.\n"
            "**Recruiter**: draw 3 from either deck, then put any 2 cards of your **whole hand**"
            " back under their decks.\n"
            "**Strategist**: move one of your cards to another stone, or discard it.\n"
            "**Banshee**: discard one of your opponent's cards.\n"
            "**Traitor**: take one of your opponent's clan cards onto your side.\n"
            "Ruses act only on unclaimed stones."
        ),
    ),
    "expert": (
        N_("Expert variant"),
        N_(
            "Claims come **at the start of your turn**, before you play a card: your opponent"
            " gets a turn to react to your formations. Combines with Tactics."
        ),
    ),
    "match": (
        N_("Match play (several rounds)"),
        N_(
            "Choose rounds or a points target when you challenge. Each round's **winner scores"
            " 5**, the loser **1 per stone** they hold. The previous round's winner starts the"
            " next round. The **highest total** wins the match; a tie on points goes to the winner"
            " of the last round."
        ),
    ),
    "siege": (
        N_("Schotten Totten 2: the siege"),
        N_(
            "One player **attacks**, the other **defends** a wall of **7 tiles**. Siege cards"
            " run 0 to 11 in five colours; 6-card hands.\n"
            "**The Attacker starts.** Each turn: an optional preparation (the Attacker may"
            " **retreat** from tiles; the Defender may pour **oil** on a tile, discarding the"
            " Attacker's card closest to the wall: **once per turn**, three times a game), then"
            " play a card, then draw.\n"
            "The Attacker may **take control** of a tile any time in their turn when they have a"
            " **complete formation** there that cannot be beaten: a complete Defender side must"
            " be weaker (equal formations go to the side **completed first**); an incomplete one"
            " must be unable to beat it with any card not face-up (the proof ignores the 0/11"
            " cancel and the cauldrons). The tile is damaged and cleared.\n"
            "**Attacker wins** by damaging 4 tiles, or taking a damaged tile again. **Defender"
            " wins** when the deck runs out, or when every side of theirs is complete.\n"
            "**Chicken versus Chef**: a 0 opposite the 11 of its colour discards both."
        ),
    ),
    "tiles": (
        N_("The seven wall tiles (intact → damaged)"),
        N_(
            "1: 3 cards, sum only → 3 cards, run and sum\n"
            "2: 4 cards, all formations → 2 cards, same strength and sum\n"
            "3: 3 cards, all formations → 3 cards, colour and sum\n"
            "4 (gate): 2 cards, all formations → 4 cards, **lower sum wins**\n"
            "5: 3 cards, all formations → 3 cards, colour and sum\n"
            "6: 4 cards, all formations → 2 cards, same strength and sum\n"
            "7: 3 cards, **lower sum wins** → 3 cards, run and sum\n"
            "Formations need every card of the tile: **2 cards** make a colour run (G5 G6), same"
            " strength (R7 B7), colour, run or sum; **4 cards** the same types with four (R4 R5"
            " R6 R7 is a colour run). Strongest first: colour run, same strength, colour, run,"
            " sum. A formation a tile does not consider counts as a sum (a colour run is a sum on"
            " a colour-only tile). On a **lower sum** tile only totals count, and the **lower**"
            " total wins; equal totals go to the side completed first."
        ),
    ),
    "siege-tactics": (
        N_("Schotten Totten 2, Tactical variant"),
        N_(
            "7-card hands, draw from either deck, no more than one tactic card ahead.\n"
            "**Joker** (x2): any colour, value 0 to 11. **Spy**: a 10. **Shield**: 1-3. Chosen at"
            " control time. Action cards, once played, stay **beside their player** (they count"
            " the tactic cards played), not in the discard pile.\n"
            "**Redeployment**: move one of your cards to another tile, or discard it.\n"
            "**Recruitment**: play a card from the discard pile on your side.\n"
            "**Desertion**: discard one of your opponent's cards.\n"
            "**Treason**: take one of your opponent's cards onto your side.\n"
            "**Explosion**: discard every card on one tile.\n"
            "**Support**: shuffle two discarded cards back into the deck (needs **at least two**"
            " cards in the discard pile).\n"
            "**Exchange**: each player gives the other three cards."
        ),
    ),
    "revenge": (
        N_("The revenge match (Schotten Totten 2)"),
        N_(
            "Two games with roles swapped. A player who wins both is the champion. If each wins"
            " once: both as **Attacker**, the one who left **more cards in the deck** wins; both"
            " as **Defender**, the one with **more intact tiles plus unused cauldrons** wins."
            " Still tied: the match is drawn, and a rematch is offered."
        ),
    ),
    "notation": (
        N_("Writing moves"),
        N_(
            "`R7 3` play R7 on stone or tile 3 · `claim 4` · `done` · `pass` · `draw tactic`\n"
            "`joker 3` · `mud 4` · `recruiter`, then `return R3 joker` · `strategist 3:R5 7`"
            " · `banshee 4:G5` · `traitor 3:G5 6`\n"
            "Siege: `retreat 2 5` · `oil 4` · `control 4` · `redeploy 3:R5 discard` ·"
            " `recruit G5 3` · `desert 4:G5` · `treason 3:G5 6` · `explode 4` ·"
            " `support G5 R0` · `exchange`, then `give R3 B5 Y7`\n"
            "Colours: R red, O orange, Y yellow, G green, B blue, P purple (Schotten Totten 2 has"
            " **no orange**: R Y G B P, values 0 to 11). `red 7` works too; the menu suggests"
            " your legal moves as you type."
        ),
    ),
}


def rules_topic(topic: str | None) -> tuple[str, str]:
    """The page's title and text, in the current language (`lang.use` / `speaking`)."""
    key = (topic or "overview").strip().lower()
    if key not in TOPICS:
        return (
            pgettext("rules page title", "Rules"),
            # TRANSLATORS: {topic} is what the member typed, already in quotes ('sieg');
            # {known} lists the topics as the member's menu names them.
            fill(
                _("I have no page called {topic}. Topics: {known}."),
                topic=repr(topic),
                known=topic_names(),
            ),
        )
    title, body = TOPICS[key]
    if key == "notation":
        # (The command is named in the text, where Discord shows a mention; not in the title.)
        # TRANSLATORS: {move} is the command /schotten move (a mention in English; in French and
        # German its localised name, as code).
        typed = fill(_("Type moves with {move}."), move=mention("move"))
        # TRANSLATORS: the last line of the page on writing moves; in French and German, say
        # that the English words work too (`claim 4`, `draw tactic`, `retreat 2 5`).
        other = _(
            "The keywords also have French and German words: `revendiquer 4`, `beanspruchen 4`,"
            " `piocher tactique`, `rückzug 2 5`."
        )
        return _(title), "\n".join((typed, _examples_in_words(_(body)), other))
    if key == "overview":
        # The topics as the command's menu shows them in the reader's language.
        return _(title), _(body) + "\n" + fill(_("Topics: {topics}."), topics=topic_names())
    return _(title), _(body)


def topic_names() -> str:
    """The topics other than the overview, by the names of the `topic` option's choices in
    the current language (bot/front/translator.py translates those names)."""
    return ", ".join(f"`{pgettext('choice', t)}`" for t in TOPICS if t != "overview")


# The keywords that only Schotten Totten 2 has: an example starting with one is read as a
# move of that game (the French `revendiquer` is `claim` in one game, `control` in the other).
_SIEGE_WORDS = frozenset(k.msgid for k in KEYWORDS["st2"]) - {k.msgid for k in KEYWORDS["st1"]}


def _examples_in_words(page: str) -> str:
    """The page's example moves (in backticks) in the reader's words: the keywords and tactic
    cards a member of that language types (`revendiquer 4`, `boue 4`)."""
    language = current()
    if language == "en":
        return page

    def shown(example: re.Match[str]) -> str:
        text = example.group(1)
        game = "st2" if text.split(" ", 1)[0] in _SIEGE_WORDS else "st1"
        return f"`{in_language(text, game, language)}`"

    return re.sub(r"`([^`]*)`", shown, page)
