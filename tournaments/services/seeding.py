"""Seeding by rating from the ratings as they stood when registration closed.

Organisers seed prize events by rating, so the seeds must not move under them: each entry's
rating is taken once, when check-in closes (``day.close_check_in``), or, with no such close, when
round 1 is paired; a rated result entered in between moves ratings but not the seeds. An entry
that joins (or is reinstated) after the snapshot gets its figure when round 1 is paired.
"""

from __future__ import annotations

from django.utils import timezone

from ratings import selectors as rating_selectors

from ..formats import format_of
from ..models import ACTIVE_STATUSES, Seeding, Tournament


def _figures(entries: list, *, alone: bool) -> dict[int, float | None]:
    """Each entry's rating now on the players' scale (a pair: its partners' mean); None while a
    player in it is unrated."""
    ids = {e.pk: ((e.player_id,) if alone else (e.player_a_id, e.player_b_id)) for e in entries}
    rows = rating_selectors.ratings_of(pid for players in ids.values() for pid in players)
    return {pk: (sum(rows[p].rating for p in players) / len(players) if all(p in rows for p in players)
                 else None)
            for pk, players in ids.items()}


def take_seed_ratings(tournament: Tournament, *, missing_only: bool = False) -> dict[int, float | None]:
    """Keep each active entry's rating now as its seeding rating (only those without one, with
    ``missing_only``) and return every active entry's seeding rating. Nothing for an event not
    seeded by rating. Called with the tournament locked."""
    if tournament.seeding != Seeding.RATING:
        return {}
    fmt = format_of(tournament)
    entries = list(fmt.entries().filter(status__in=ACTIVE_STATUSES))
    todo = [e for e in entries if not missing_only or e.seed_rating_at is None]
    now = timezone.now()
    for e, figure in zip(todo, _figures(todo, alone=fmt.plays_alone).values(), strict=True):
        e.seed_rating, e.seed_rating_at = figure, now
    if todo:
        type(todo[0]).objects.bulk_update(todo, ["seed_rating", "seed_rating_at"], batch_size=500)
    if not missing_only or tournament.seed_ratings_at is None:
        tournament.seed_ratings_at = now
        tournament.save(update_fields=["seed_ratings_at"])
    return {e.pk: e.seed_rating for e in entries}
