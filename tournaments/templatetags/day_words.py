"""`{{ plan.outcome|plan_outcome }}`: what a day plan did, in the reader's language.

The runner stores a short machine note per plan ("already paired", "sent 4", "refused: …");
the dashboard words it here at read time, so an organiser reading in Kazakh does not get the
note the worker wrote.
"""

from __future__ import annotations

import re

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

register = template.Library()

COUNTED = re.compile(r"^(started|sent|unplayed|withdrawn|forfeits) (\d+)$")


def plan_outcome_text(outcome: str) -> str:
    """The stored note of a plan, worded for the reader; an unknown note is shown as it is."""
    fixed = {
        "gone": _("nothing to do: the tournament or round is gone"),
        "not_next": _("not started: it is not the next round"),
        "no deadline": _("no deadline is set"),
        "all played": _("every match was played"),
        "too late": _("too late: round 1 is already paired"),
        "nobody checked in": _("nobody checked in, so nobody was withdrawn"),
        "already paired": _("the next round was already paired"),
        "no round": _("there is no such round"),
        "not complete": _("the round is not complete yet"),
        "finished": _("the tournament is finished"),
        "held for the organiser": _("left to the organiser to pair"),
        "not paired yet": _("the round is not paired yet"),
        "unknown kind": _("an unknown kind of plan"),
        "cancelled": _("cancelled"),
    }
    if outcome in fixed:
        return fixed[outcome]
    counted = COUNTED.match(outcome)
    if counted:
        word, n = counted.group(1), int(counted.group(2))
        texts = {
            "started": ngettext("started, %(n)d live table open", "started, %(n)d live tables open", n),
            "sent": ngettext("%(n)d reminder sent", "%(n)d reminders sent", n),
            "unplayed": ngettext("%(n)d match unplayed", "%(n)d matches unplayed", n),
            "withdrawn": ngettext("%(n)d withdrawn", "%(n)d withdrawn", n),
            "forfeits": ngettext("%(n)d forfeit", "%(n)d forfeits", n),
        }
        return texts[word] % {"n": n}
    if outcome.startswith("refused: "):
        return _("refused: %(why)s") % {"why": outcome.removeprefix("refused: ")}
    if outcome.startswith("failed: "):
        return _("failed; the error is in the server log")
    return outcome


@register.filter
def plan_outcome(value) -> str:
    return plan_outcome_text(str(value or ""))
