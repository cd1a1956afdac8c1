"""Asking before a destructive action: a GET shows the question and what will happen, a POST does it.

Every button that withdraws, forfeits, takes off or removes is a link to its own address (the
include ``templates/_confirm.html``): without JavaScript the link opens the confirm page this
module renders, whose button posts back to the same address; with JavaScript
(``static/js/confirm.js``) the same question opens in a ``<dialog>`` on the page and posts from
there. Either way one tap never does it. Tournaments use it too (clubs is the base app).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.http import HttpResponse
from django.shortcuts import render


@dataclass(frozen=True)
class Question:
    """What the confirm page asks: ``title`` (a question), ``effects`` (what will happen, one line
    each), the wording of the button that does it, and where "Cancel" goes back to."""

    title: str
    button: str
    back: str
    effects: Sequence[str] = field(default_factory=tuple)


def ask_first(request, question: Question) -> HttpResponse | None:
    """None on a POST (the user confirmed: do it); on any other request, the page that asks.

    The page's form posts to the address it was opened at, query string included, so a view
    reads what the action needs from the address and never from a form the user did not see.
    """
    if request.method == "POST":
        return None
    return render(request, "confirm.html", {"question": question, "action": request.get_full_path()})
