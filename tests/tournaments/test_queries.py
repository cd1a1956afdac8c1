"""The standings, bracket and round pages cost the same number of queries for 4 pairs as for 40."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import selectors, services

from .conftest import play_round, register_pairs

pytestmark = pytest.mark.django_db


def _played(club, organiser, fmt, pairs, rounds):
    t = services.create_tournament(
        actor=organiser, club=club, name=f"{fmt} {pairs}", format=fmt, swiss_rounds=rounds
    )
    register_pairs(t, organiser, pairs, prefix=f"{fmt}{pairs}")
    for _ in range(rounds):
        play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    return t


def _count(fn) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


@pytest.mark.parametrize("fmt", ["swiss", "round_robin"])
def test_standings_queries_do_not_grow_with_entries(club, organiser, fmt):
    small = _played(club, organiser, fmt, 4, 2)
    large = _played(club, organiser, fmt, 40, 2)
    small_count = _count(lambda: selectors.standings(tournament=small))
    large_count = _count(lambda: selectors.standings(tournament=large))
    assert small_count == large_count <= 2
    assert len(selectors.standings(tournament=large).lines) == 40


def test_pages_queries_do_not_grow_with_entries(client, club, organiser, django_assert_max_num_queries):
    small = _played(club, organiser, "swiss", 4, 2)
    large = _played(club, organiser, "swiss", 40, 2)
    # The rating model's parameters are read once, then cached (ratings.selectors.model_params):
    # a first page pays that query whatever its size.
    client.get(reverse("tournaments:standings", args=[small.slug]))
    for name, args in (("standings", []), ("results", []), ("round", [2]), ("home", [])):
        counts = []
        for t in (small, large):
            url = reverse(f"tournaments:{name}", args=[t.slug, *args])
            counts.append(_count(lambda url=url: client.get(url)))
        assert counts[0] == counts[1], (name, counts)
    with django_assert_max_num_queries(8):
        client.get(reverse("tournaments:standings", args=[large.slug]))


def test_bracket_queries_do_not_grow_with_entries(client, club, organiser):
    counts = []
    for pairs in (4, 32):
        t = services.create_tournament(
            actor=organiser, club=club, name=f"Кубок {pairs}", format="single_elim"
        )
        register_pairs(t, organiser, pairs, prefix=f"ko{pairs}")
        play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
        counts.append(_count(lambda t=t: client.get(reverse("tournaments:bracket", args=[t.slug]))))
    assert counts[0] == counts[1]
