"""Celery tasks of tournaments: the auto-confirm sweep (beat) and notifications sent on commit.

Every task takes ids, tolerates rows that are gone or already handled, and may run twice.
"""

from __future__ import annotations

import functools
import io
import logging
import sys

from celery import shared_task
from django.conf import settings
from django.core.handlers.base import BaseHandler
from django.core.handlers.wsgi import WSGIRequest
from django.urls import reverse

from clubs.models import Membership
from clubs.permissions import ROSTER_ROLES
from config import fresh
from config.notify import notify_user

from . import services
from .models import Match, Tournament
from .schedule import AUTO_CONFIRM_TASK

log = logging.getLogger(__name__)


TELL_INVITED_TASK = "tournaments.tasks.tell_invited_member"


@shared_task(name=TELL_INVITED_TASK)
def tell_invited_member(invitation_id: int) -> bool:
    """Word and deliver a club's invitation to the account it reached (in his language)."""
    return services.tell_invited_member(invitation_id)


def queue_invitation_notice(sender, invitation_id: int, **kwargs) -> None:
    """Receiver of ``clubs.services.member_invited``: the notice goes out from a worker once the
    invitation commits, for every invitation alike (whether it reached an account or not)."""
    services.on_commit_task(TELL_INVITED_TASK, invitation_id)


@shared_task(name=services.PAR_TASK, ignore_result=True, acks_late=True)
def board_par(tournament_id: int, board: int) -> str:
    """A duplicate board's double-dummy par (``services.board_par``), on the analysis queue: it may
    take a minute, and a worker killed mid-solve gets it again (acks late); a second run keeps
    the par already there."""
    return services.compute_board_par(tournament_id=tournament_id, board=board)


@shared_task(name=AUTO_CONFIRM_TASK)
def auto_confirm_results() -> list[int]:
    """Confirm reported results nobody answered within the tournament's own time."""
    return services.auto_confirm_due()


def _users_of(match: Match, sides=("home", "away")) -> set[int]:
    ids: set[int] = set()
    for side in sides:
        entry = match.home if side == "home" else match.away
        if entry is None:
            continue
        for player in (entry.player_a, entry.player_b):
            if player.user_id:
                ids.add(player.user_id)
    return ids


def _match(match_id: int) -> Match | None:
    return (
        Match.objects.select_related(
            "tournament", "round", "home__player_a", "home__player_b", "away__player_a", "away__player_b"
        )
        .filter(pk=match_id)
        .first()
    )


@shared_task(name="tournaments.tasks.notify_round_paired")
def notify_round_paired(round_id: int) -> int:
    """Tell every player with an account his place in the new round (once: a rerun tells nobody again)."""
    return services.tell_round_places(round_id=round_id)


@shared_task(name="tournaments.tasks.push_notice", ignore_result=True)
def push_notice(notification_id: int) -> int:
    """Send a stored notice to each phone its user asked for it on (Web Push)."""
    return services.push_notice(notification_id=notification_id)


@shared_task(name="tournaments.tasks.notify_result_reported")
def notify_result_reported(match_id: int) -> int:
    """Ask the other pair to confirm a reported result."""
    match = _match(match_id)
    if match is None or match.status != "unconfirmed":
        return 0
    other = ("away",) if match.reported_side == "home" else ("home",)
    users = _users_of(match, other)
    for user_id in users:
        notify_user(
            user_id,
            {
                "kind": "tournament.confirm_result",
                "tournament": match.tournament.name,
                "score": f"{match.home_eyes}:{match.away_eyes}",
                "url": match.get_absolute_url(),
            },
        )
    return len(users)


@shared_task(name="tournaments.tasks.notify_dispute")
def notify_dispute(match_id: int) -> int:
    """Tell the club's organisers that a result is disputed."""
    match = _match(match_id)
    if match is None or match.status != "disputed":
        return 0
    users = list(
        Membership.objects.filter(club_id=match.tournament.club_id, role__in=ROSTER_ROLES).values_list(
            "user_id", flat=True
        )
    )
    for user_id in users:
        notify_user(
            user_id,
            {
                "kind": "tournament.dispute",
                "tournament": match.tournament.name,
                "url": match.get_absolute_url(),
            },
        )
    return len(users)


@shared_task(name="tournaments.tasks.notify_tournament_finished")
def notify_tournament_finished(tournament_id: int) -> int:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    users = set()
    for entry in tournament.entries.select_related("player_a", "player_b"):
        users |= {p.user_id for p in (entry.player_a, entry.player_b) if p.user_id}
    for user_id in users:
        notify_user(
            user_id,
            {
                "kind": "tournament.finished",
                "tournament": tournament.name,
                "url": tournament.get_absolute_url(),
            },
        )
    return len(users)


#: The public addresses a refresh works out again, with the name and parts their kept value has in
#: ``fresh`` (the page's view, its path, language and whether htmx asked; the API's JSON, language):
#: the three a tournament's visitors reload while results come in.
def _refreshed(slug: str, language: str) -> list[tuple[str, str, tuple]]:
    home, standings = reverse("tournaments:home", args=[slug]), reverse("tournaments:standings", args=[slug])
    return [
        (standings, "standings", (standings, language, False)),
        (reverse("api:standings", args=[slug]), "api-standings-json", (language,)),
        (home, "home", (home, language, False)),
    ]


@functools.cache
def _handler() -> BaseHandler:
    handler = BaseHandler()
    handler.load_middleware()
    return handler


def _visit(path: str, language: str) -> int:
    """GET ``path`` as a visitor speaking ``language`` would, through the whole middleware chain and
    the view (no address: the API counts it against nobody's allowance)."""
    names = [h for h in settings.ALLOWED_HOSTS if h and "*" not in h and not h.startswith(".")]
    host = names[0] if names else "localhost"
    secure = bool(getattr(settings, "SECURE_SSL_REDIRECT", False))
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": host,
        "SERVER_PORT": "443" if secure else "80",
        "HTTP_HOST": host,
        "HTTP_ACCEPT_LANGUAGE": language,
        "wsgi.url_scheme": "https" if secure else "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
    }
    if secure and settings.SECURE_PROXY_SSL_HEADER:
        header, value = settings.SECURE_PROXY_SSL_HEADER
        environ[header] = value
    return _handler().get_response(WSGIRequest(environ)).status_code


@shared_task(name=fresh.REFRESH_TASK, ignore_result=True)
def refresh_public_pages(slug: str) -> int:
    """Work tournament ``slug``'s public standings, its home page and the API's standings out again
    after a commit, in each language someone read them in lately, so that readers get the new ones
    at once instead of the first of them working them out in the web process (``fresh``). Returns
    how many were worked out."""
    done = 0
    while fresh.refresh_claim(slug):
        try:
            while fresh.refresh_take(slug) is not None:  # again if a commit came meanwhile
                with fresh.refreshing():
                    done += _refresh(slug)
        finally:
            fresh.refresh_release(slug)
    return done


def _refresh(slug: str) -> int:
    done = 0
    for language, _ in settings.LANGUAGES:
        for path, name, parts in _refreshed(slug, language):
            if not fresh.was_kept(name, slug, *parts):
                continue
            status = _visit(path, language)
            if status != 200:
                log.warning("refreshing %s (%s) answered %s", path, language, status)
            done += 1
    return done
