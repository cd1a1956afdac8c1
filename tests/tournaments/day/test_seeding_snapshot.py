"""Seeding by rating uses the ratings as they stood when registration closed: taken when check-in
closes (or, with no close, when round 1 is paired), shown on the entries page, and kept for the
seeds, so a rated result entered in between does not reshuffle them."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from archive import services as archive_services
from ratings.models import PlayerRating
from ratings.services import recompute as ratings
from tournaments import services
from tournaments.services import runner

from .conftest import swiss_with_accounts

pytestmark = pytest.mark.django_db


def _rate(player, rating, deviation):
    PlayerRating.objects.create(player=player, rating=rating, deviation=deviation,
                                mu=(rating - 1500) / 400, var=(deviation / 400) ** 2, matches=20,
                                day=float(timezone.localdate().toordinal()) - 1)


@pytest.fixture
def rated_swiss(club, organiser):
    """Four pairs: A at 1560, B at 1550 (uncertain, so a win moves it far), C at 1500, D unrated."""
    t = swiss_with_accounts(club, organiser, 4, seeding="rating", name="Prize Swiss")
    a, b, c, d = t.entries.order_by("id")
    for p in (a.player_a, a.player_b):
        _rate(p, 1560, 50)
    for p in (b.player_a, b.player_b):
        _rate(p, 1550, 110)
    for p in (c.player_a, c.player_b):
        _rate(p, 1500, 50)
    return t, (a, b, c, d)


def _b_beats_c_now(b, c):
    """A rated match played now, learnt at once: B's players beat C's."""
    seats = [archive_services.SeatIn(seat=s, name=p.display_name, player_id=p.pk)
             for s, p in enumerate((b.player_a, c.player_a, b.player_b, c.player_b))]
    m = archive_services.archive_match(played=archive_services.PlayedMatch(
        source="table", seats=seats, rules={}, played_at=timezone.now(), ns_eyes=12, ew_eyes=0,
        winner="NS", reason="eyes", table_id=987_654, rated=True))
    assert ratings.learn_latest(m.pk)


def _pair_mean(entry):
    rows = PlayerRating.objects.filter(player__in=(entry.player_a, entry.player_b))
    return sum(r.rating for r in rows) / 2


def test_a_result_entered_after_check_in_closed_does_not_reshuffle_the_seeds(rated_swiss, organiser,
                                                                            client):
    t, (a, b, c, d) = rated_swiss
    for e in (a, b, c, d):
        services.check_in_entry(actor=organiser, entry=e)
    day = t.day
    day.check_in_closes_at = timezone.now() - timedelta(minutes=1)
    day.save()
    runner.run_due()  # check-in closes: the seeding ratings are taken
    t.refresh_from_db()
    assert t.seed_ratings_at is not None
    a.refresh_from_db()
    b.refresh_from_db()
    d.refresh_from_db()
    assert (round(a.seed_rating), round(b.seed_rating), d.seed_rating) == (1560, 1550, None)
    page = client.get(reverse("tournaments:entries", args=[t.slug])).content.decode()
    assert "Seeding ratings as of" in page and "when registration closed" in page
    assert ">1560</span>" in page and ">1550</span>" in page and ">unrated</span>" in page

    _b_beats_c_now(b, c)
    assert _pair_mean(b) > _pair_mean(a)  # by the ratings of now, B would be seeded first
    services.pair_next_round(actor=organiser, tournament=t)
    seeds = dict(t.entries.values_list("pk", "seed"))
    assert (seeds[a.pk], seeds[b.pk], seeds[c.pk], seeds[d.pk]) == (1, 2, 3, 4)


def test_with_no_close_the_ratings_are_taken_when_round_one_is_paired(rated_swiss, organiser, client):
    t, (a, b, c, d) = rated_swiss
    entries_page = reverse("tournaments:entries", args=[t.slug])
    assert "Seeding ratings as of" not in client.get(entries_page).content.decode()
    services.pair_next_round(actor=organiser, tournament=t)
    t.refresh_from_db()
    assert t.seed_ratings_at is not None
    seeds = dict(t.entries.values_list("pk", "seed"))
    assert (seeds[a.pk], seeds[b.pk], seeds[c.pk], seeds[d.pk]) == (1, 2, 3, 4)
    assert "Seeding ratings as of" in client.get(entries_page).content.decode()

