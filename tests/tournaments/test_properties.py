"""Random tournaments on the real database: whatever the field, the results and the withdrawals,
every round pairs each playing pair once, nobody withdrawn is paired again, every event finishes,
and the standings add up."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments import selectors, services
from tournaments.models import EntryStatus, Match, TournamentStatus

from .conftest import register_pairs

pytestmark = pytest.mark.django_db

SETTINGS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)


def _play(rnd, organiser, draw):
    for match in Match.objects.filter(round=rnd, bye=False, status="scheduled").order_by("table", "game"):
        loser = draw(st.integers(0, 11))
        home = draw(st.booleans())
        services.enter_result(
            actor=organiser, match=match, home_eyes=12 if home else loser, away_eyes=loser if home else 12
        )


def _check_round(t, rnd, withdrawn_before):
    seen = []
    for m in rnd.matches.all():
        seen += [m.home_id] + ([m.away_id] if m.away_id else [])
    assert len(seen) == len(set(seen)), "a pair plays once per round"
    assert not set(seen) & withdrawn_before, "withdrawn pairs are not paired again"


@SETTINGS
@given(data=st.data(), fmt=st.sampled_from(["swiss", "round_robin"]), size=st.integers(2, 9))
def test_random_swiss_and_leagues(club, organiser, data, fmt, size):
    rounds = data.draw(st.integers(1, 4))
    t = services.create_tournament(
        actor=organiser, club=club, name=f"P {fmt}", format=fmt, swiss_rounds=rounds, seeding="manual"
    )
    entries = register_pairs(t, organiser, size, prefix=f"p{t.pk}")
    withdrawn: set[int] = set()
    while True:
        t.refresh_from_db()
        if t.status == TournamentStatus.FINISHED:
            break
        rnd = services.pair_next_round(actor=organiser, tournament=t)
        _check_round(t, rnd, withdrawn)
        if fmt == "swiss":
            active = size - len(withdrawn)
            assert rnd.matches.filter(bye=True).count() == active % 2
        if data.draw(st.booleans()) and len(withdrawn) < size - 2:
            quitter = data.draw(st.sampled_from([e for e in entries if e.pk not in withdrawn]))
            services.withdraw_entry(actor=organiser, entry=quitter)
            withdrawn.add(quitter.pk)
        _play(rnd, organiser, data.draw)
    table = selectors.standings(tournament=t)
    assert len(table.lines) == size
    assert sum(line.row.wins for line in table.lines) == sum(line.row.losses for line in table.lines)
    for line in table.lines:
        r = line.row
        assert r.match_points == r.wins * t.points_win + r.byes * t.points_bye + r.losses * t.points_loss
        assert r.withdrawn == (line.entry.pk in withdrawn)
    assert set(t.entries.filter(status=EntryStatus.WITHDRAWN).values_list("pk", flat=True)) == withdrawn


@SETTINGS
@given(data=st.data(), size=st.integers(2, 12), best_of=st.sampled_from([1, 3, 5]))
def test_random_knockouts(club, organiser, data, size, best_of):
    third = size >= 4 and data.draw(st.booleans())
    t = services.create_tournament(
        actor=organiser,
        club=club,
        name="P cup",
        format="single_elim",
        best_of=best_of,
        third_place=third,
        seeding="manual",
    )
    register_pairs(t, organiser, size, prefix=f"k{t.pk}")
    while True:
        t.refresh_from_db()
        if t.status == TournamentStatus.FINISHED:
            break
        rnd = services.pair_next_round(actor=organiser, tournament=t)
        _check_round(t, rnd, set())
        for _ in range(best_of + 1):  # the next match of a tie appears when the previous one is in
            _play(rnd, organiser, data.draw)
    view = selectors.bracket(tournament=t)
    assert view.champion is not None
    places = [p for p, _e, _prize in view.places]
    assert places[:2] == [1, 2]
    if third:
        assert places[:4] == [1, 2, 3, 4]
    # every pair is placed once, and a place is one more than the pairs that did better
    assert len({e.pk for _p, e, _prize in view.places}) == len(places) == size
    assert all(p == 1 + sum(q < p for q in places) for p in places)
