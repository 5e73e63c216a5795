"""A length of time in words, as a member reads it: "2 days 3 h", "5 h 20 min", "45 min".

Two units at most, the larger ones, rounded down (a time left is never said longer than it
is). A Phrase, so that the service may put it in a sentence said later in its reader's
language, and the front says it now with `lang.localise`.
"""

from __future__ import annotations

from engine.phrases import Phrase, say, say_n


def duration(seconds: float) -> Phrase:
    """`seconds` in words: days and hours, hours and minutes, or minutes; "less than a
    minute" under one (and for a negative length)."""
    minutes = int(max(0.0, seconds) // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        day_words = say_n("{count} day", "{count} days", days)
        if not hours:
            return day_words
        # TRANSLATORS: a length of time, e.g. "2 days 3 h"; {days} is "2 days".
        return say("{days} {hours} h", days=day_words, hours=hours)
    if hours:
        if not minutes:
            # TRANSLATORS: a length of time in hours; "h" is the hour's short form.
            return say("{hours} h", hours=hours)
        # TRANSLATORS: a length of time, e.g. "5 h 20 min".
        return say("{hours} h {minutes} min", hours=hours, minutes=minutes)
    if minutes:
        # TRANSLATORS: a length of time in minutes, e.g. "45 min".
        return say("{minutes} min", minutes=minutes)
    return say("less than a minute")


__all__ = ["duration"]
