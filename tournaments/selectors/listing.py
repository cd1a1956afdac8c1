"""The public list of tournaments a visitor browses: live now, open for registration, upcoming, finished.

A new visitor finds events without knowing a club: every club's tournaments on one page, by club
and by city. The three current sections are short by nature and shown whole (up to a cap); the
finished events pile up season after season, so they come a page at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from clubs.models import Club

from ..models import Tournament, TournamentStatus
from .events import takes_entries

SECTION_CAP = 50
"""Most events shown in each of live, open and upcoming (a busy site's page stays readable)."""
FINISHED_PER_PAGE = 20


@dataclass(frozen=True)
class TournamentList:
    live: list[Tournament]
    open: list[Tournament]
    upcoming: list[Tournament]
    finished: Page


def filter_clubs() -> list[Club]:
    """Clubs that have at least one tournament, by name: the choices of the club filter."""
    return list(Club.objects.filter(tournaments__isnull=False).distinct().order_by("name", "id"))


def filter_cities() -> list[str]:
    """Cities and villages of the clubs that hold tournaments, in alphabetical order."""
    cities = Club.objects.filter(tournaments__isnull=False).exclude(city="").values_list("city", flat=True)
    return sorted(set(cities), key=str.casefold)


def tournament_list(*, club_slug: str = "", city: str = "", page: int | str = 1) -> TournamentList:
    """Every club's tournaments in four sections, narrowed to one club and/or one city when given.

    "Open for registration" are the events players may still enter themselves; "upcoming" the
    others not started yet (the organiser registers the pairs).
    """
    events: QuerySet[Tournament] = Tournament.objects.select_related("club")
    if club_slug:
        events = events.filter(club__slug=club_slug)
    if city:
        events = events.filter(club__city__iexact=city)
    not_started = events.filter(status=TournamentStatus.REGISTRATION).order_by("starts_on", "id")
    finished = events.filter(status=TournamentStatus.FINISHED).order_by("-starts_on", "-id")
    live = list(events.filter(status=TournamentStatus.RUNNING).order_by("-starts_on", "-id")[:SECTION_CAP])
    return TournamentList(
        live=live,
        open=_taking_entries(not_started, live)[:SECTION_CAP],
        upcoming=list(not_started.filter(self_registration=False)[:SECTION_CAP]),
        finished=Paginator(finished, FINISHED_PER_PAGE).get_page(page),
    )


def _taking_entries(not_started: QuerySet[Tournament], live: list[Tournament]) -> list[Tournament]:
    """Events a player may still enter himself (``takes_entries``): those not started whose organiser
    allows it, then running ones taking late entries — the rule the event's own page follows."""
    return list(not_started.filter(self_registration=True)[:SECTION_CAP]) + [
        t for t in live if t.self_registration and takes_entries(t)
    ]


def home_tournaments(*, limit: int = 5) -> dict[str, list[Tournament]]:
    """For the site's home page: events being played now, and those a player may still enter."""
    events = Tournament.objects.select_related("club")
    live = list(events.filter(status=TournamentStatus.RUNNING).order_by("-starts_on", "-id")[:SECTION_CAP])
    not_started = events.filter(status=TournamentStatus.REGISTRATION).order_by("starts_on", "id")
    return {"live": live[:limit], "open": _taking_entries(not_started, live)[:limit]}
