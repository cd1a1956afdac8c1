"""What every tournament page shares: the event by its address, the page context, refusals shown as pages."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial, wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from config import fresh
from config.visitors import CSRF_MARK, Shareable
from gameplay.engine.games import BILKA

from .. import permissions, selectors
from ..core.games import KOZYOL, tournament_game
from ..models import EntryStatus, IndividualEntry, Tournament, TournamentStatus
from ..rule_form import choice_label, rule_label
from ..selectors import day as day_selectors
from ..services import check_in_closed


def error_text(error: ValidationError) -> str:
    return " ".join(error.messages)


def tournament_or_404(slug: str) -> Tournament:
    try:
        return selectors.tournament_by_slug(slug)
    except Tournament.DoesNotExist:
        raise Http404 from None


def refusals(view):
    """A refused action gets a page that says why (403), not a bare error."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except PermissionDenied as denied:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            reason = str(denied) or _("You may not do this.")
            return render(request, "tournaments/refused.html", {"reason": reason}, status=403)

    return wrapper


_CSRF_FIELD = re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]*(")')
_CSRF_MARK = CSRF_MARK


def _has_messages(request) -> bool:
    storage = messages.get_messages(request)
    waiting = bool(list(storage))
    storage.used = False  # looked at, not shown: they stay for the page that shows them
    return waiting


def cached_for_visitors(view):
    """A public tournament page as a visitor who is not signed in sees it, kept in the cache until
    the tournament changes (``selectors.fresh``): spectators reload the standings of a big event
    all day, and working them out takes hundreds of milliseconds. The answer is marked shareable,
    so the server answers the next visitor asking the same from it without Django
    (``config.visitors``).

    Signed-in people, who may see their own matches and the organiser's buttons, always get the
    page worked out for them, as does a visitor with a message waiting. The page's form tokens are
    each visitor's own: the kept page holds a mark where they go."""

    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        if request.method not in ("GET", "HEAD") or request.user.is_authenticated or _has_messages(request):
            return view(request, slug, *args, **kwargs)
        refused: list[HttpResponse] = []

        def compute():
            response = view(request, slug, *args, **kwargs)
            if response.status_code != 200 or response.streaming or response.cookies:
                refused.append(response)
                return None, False
            body = _CSRF_FIELD.sub(rb"\1" + _CSRF_MARK + rb"\2", response.content)
            return (response["Content-Type"], body), True

        # A live page fetching itself after a change's frame asks once: it gets the page as of
        # now, waiting for another process working it out, never the one before the change.
        live = request.headers.get("X-Live-Refresh") == "1"
        kept, stamp = fresh.kept(view.__name__, slug, compute, request.get_full_path(), get_language(),
                                 bool(getattr(request, "htmx", False)), current=live)
        if refused:
            return refused[0]
        content_type, marked = kept
        body = marked.replace(_CSRF_MARK, get_token(request).encode()) if _CSRF_MARK in marked else marked
        response = HttpResponse(body, content_type=content_type)
        if stamp is not None:  # the same for every visitor: the server may answer the next from it
            response.shareable = Shareable(stamp=stamp, current=partial(fresh.stamp, slug),
                                           covers=fresh.covers, body=marked)
        return response

    return wrapper


def require_manager(request, tournament: Tournament) -> None:
    """Pages only the organisers open (the services check every write again)."""
    if not permissions.can_manage(request.user, tournament):
        raise PermissionDenied(_("Only the club's owners and organisers run its tournaments."))


def context(request, tournament: Tournament, tab: str, **extra) -> dict:
    return {
        "tournament": tournament,
        "club": tournament.club,
        "tab": tab,
        "can_manage": permissions.can_manage(request.user, tournament),
        "event_game": game_of_event(tournament),
        **extra,
    }


def page(request, tournament: Tournament, tab: str, template: str, **extra):
    """A tournament's page: ``template`` with what every tournament page has, and ``extra``."""
    return render(request, template, context(request, tournament, tab, **extra))


def saved(request, form, write, done: str | Callable[[], str]) -> bool:
    """Whether a posted ``form`` was valid and ``write(form)`` (one service) took it; its refusal
    goes onto the form, its success into a message (``done``, or what ``done()`` says once written)."""
    if request.method != "POST" or not form.is_valid():
        return False
    try:
        write(form)
    except ValidationError as e:
        form.add_error(None, e)
        return False
    messages.success(request, done() if callable(done) else done)
    return True


def rules_display(tournament: Tournament) -> list[tuple[str, str]]:
    """The event's rules, each in words (the game is said beside them, with its rules page)."""
    rows = []
    for key, value in (tournament.rules or {}).items():
        if key == "game":
            continue
        shown = _("yes") if value is True else _("no") if value is False else choice_label(value)
        rows.append((rule_label(key), shown))
    return rows


def game_of_event(tournament: Tournament) -> dict[str, str]:
    """The game the event plays, in words, and the address of its rules page."""
    if tournament_game(tournament.rules) == KOZYOL:
        return {"name": str(_("Kozyol khvalyony")), "url": reverse("gameplay:rules_kozyol"), "code": KOZYOL}
    return {"name": str(_("Bilka")), "url": reverse("gameplay:rules"), "code": BILKA}


def check_in_open(tournament: Tournament) -> bool:
    """The organiser's "Check in" buttons show only while the service would take them."""
    return tournament.status == TournamentStatus.REGISTRATION and not check_in_closed(tournament)


def reinstated_text(entry) -> str:
    """What the organiser is told after "Reinstate" (a pair or a player): whether it is checked in."""
    if entry.status == EntryStatus.CHECKED_IN:
        return _("%(name)s is back in the tournament, checked in.") % {"name": entry.name}
    return _("%(name)s is back in the tournament.") % {"name": entry.name}


def withdrawal_lines(entry) -> list[str]:
    """What withdrawing ``entry`` (a pair or a player) does, one line each, for its confirm page:
    the same matches the service forfeits, and how many reported results stay."""
    effects = day_selectors.withdrawal_effects(entry=entry)
    if isinstance(entry, IndividualEntry):
        lines = [_("%(name)s leaves the tournament; later rounds will not seat him.") % {"name": entry.name}]
    else:
        lines = [_("%(name)s leaves the tournament; later rounds will not pair it.") % {"name": entry.name}]
    for m in effects.forfeited:
        lines.append(
            _("Round %(round)s, table %(table)s (%(home)s — %(away)s), not played yet: lost 0:12.")
            % {"round": m.round.number, "table": m.table, "home": m.home.name, "away": m.away.name}
        )
    if effects.kept:
        lines.append(_("Results already reported stay exactly as they are (%(n)d).") % {"n": effects.kept})
    return lines
