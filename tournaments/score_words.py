"""A score the rules refuse, worded for the reader: `InvalidScore`'s code and numbers, translated.

The pure core (`gameplay.engine.sheets`) names the rule a score breaks in English for the command
line and the logs; pages, dashboards and live-table imports show this wording instead.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from gameplay.engine.sheets import InvalidScore

#: Why a duplicate event cannot play Kozyol (the settings form and the service say it alike).
DUPLICATE_REFUSAL = gettext_lazy(
    "Duplicate events deal the same boards to every table, and boards are built for Bilka only: "
    "choose another format for Kozyol khvalyony.")


def score_error_text(error: InvalidScore) -> str:
    """What is wrong with the score, in the reader's language (with the deal, when a sheet's)."""
    p = dict(error.params)
    texts = {
        "rule": lambda: _("the rule %(rule)s cannot be %(value)s") % p,
        "points_range": lambda: _("points run from 0 to 120, not %(points)s") % p,
        "points_sum": lambda: _("the points of a deal add up to 120, not %(a)s + %(b)s = %(sum)s") % p,
        "points_impossible": lambda: _("no set of cards is worth %(points)s points") % p,
        "jack_pair": lambda: _("say which pair held the jack of clubs, 1 or 2"),
        "jack_points": lambda: _("the pair holding the jack of clubs always takes at least its 2 points"),
        "all_pair": lambda: _("say which pair took every trick, 1 or 2"),
        "all_jack": lambda: _("only the pair holding the jack of clubs can take every trick"),
        "all_points": lambda: _("a pair that took every trick took all 120 points"),
        "catch_pair": lambda: _("say which pair made the catch, 1 or 2"),
        "catch_all": lambda: _("a deal stopped by a catch has no pair that took every trick"),
        "after_win": lambda: _("the match was already won in deal %(won)s") % p,
        "eyes_range": lambda: _("eyes run from 0 to 12, not %(eyes)s") % p,
        "both_twelve": lambda: _(
            "both pairs cannot have 12 eyes: the match ends when the first one gets there"
        ),
        "no_twelve": lambda: _("a finished match has a pair at 12 eyes, not %(a)s:%(b)s") % p,
        "forfeit": lambda: _("a forfeit is scored 12:0, not %(a)s:%(b)s") % p,
    }
    word = texts.get(error.code)
    text = word() if word else str(error)
    if "deal" in p and error.code != "after_win":
        text = _("deal %(n)s: %(error)s") % {"n": p["deal"], "error": text}
    return text
