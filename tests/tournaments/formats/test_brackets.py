"""Double elimination and groups then playoff on the real database: odd fields, a withdrawal, a correction."""

import datetime
from collections import Counter

import pytest
from django.core.exceptions import ValidationError

from tournaments import selectors, services
from tournaments.models import Match, MatchStatus, ResultCorrection, TournamentStatus

from ..conftest import play_round, register_pairs

pytestmark = pytest.mark.django_db


def _create(club, organiser, fmt, **kw):
    return services.create_tournament(
        actor=organiser,
        club=club,
        name=f"Кубок {fmt}",
        starts_on=datetime.date(2026, 12, 5),
        format=fmt,
        seeding="manual",
        prizes=["Кубок", "Мешок муки", "Торт"],
        **kw,
    )


def _run(t, organiser, *, after_round=None, limit=30):
    """Pair and play rounds until the event is finished (home wins unless ``winner`` says otherwise)."""
    for number in range(1, limit):
        t.refresh_from_db()
        if t.status == TournamentStatus.FINISHED:
            return number - 1
        rnd = services.pair_next_round(actor=organiser, tournament=t)
        play_round(rnd, organiser, winner=lambda m: "home" if (m.table + m.round.number) % 3 else "away")
        if after_round:
            after_round(number, rnd)
    raise AssertionError("the event did not finish")


def test_double_elimination_seven_pairs_with_withdrawal_and_reset(club, organiser):
    t = _create(club, organiser, "double_elim", grand_final_reset=True)
    entries = register_pairs(t, organiser, 7)
    quitter = entries[6]

    def after(number, rnd):
        if number == 2:
            services.withdraw_entry(actor=organiser, entry=quitter)

    _run(t, organiser, after_round=after)
    matches = Match.objects.filter(tournament=t, bye=False)
    losses = Counter(m.away_id if m.winner_id == m.home_id else m.home_id for m in matches)
    view = selectors.double_elim_view(tournament=t)
    champion = view.champion
    assert champion is not None
    assert losses[champion.pk] <= 1, "the champion lost at most once (in the grand final, then won the reset)"
    # every pair but the champion went out after exactly two losses
    assert sorted(losses[e.pk] for e in entries if e.pk != champion.pk) == [2] * 6
    assert len(matches) in (2 * 7 - 2, 2 * 7 - 1)
    assert view.places[0] == (1, champion)
    assert [p for p, _ in view.places][:3] == [1, 2, 3]
    prizes = selectors.prize_list(tournament=t)
    assert prizes[0].winners == [champion]
    # a forfeit for the quitter in every match after he withdrew
    assert all(m.forfeit for m in matches.filter(round__number__gt=2) if quitter.pk in (m.home_id, m.away_id))
    # a correction that would change who went on is refused; one that keeps the winner is logged
    first = matches.filter(round__number=1).first()
    with pytest.raises(ValidationError, match="already paired"):
        services.correct_result(
            actor=organiser, match=first, home_eyes=first.away_eyes, away_eyes=first.home_eyes
        )
    winner_home = first.winner_id == first.home_id
    services.correct_result(
        actor=organiser,
        match=first,
        home_eyes=12 if winner_home else 10,
        away_eyes=10 if winner_home else 12,
        reason="счёт",
    )
    assert ResultCorrection.objects.filter(match=first, reason="счёт").exists()


def test_double_elimination_without_reset_ends_after_the_first_final(club, organiser):
    t = _create(club, organiser, "double_elim", grand_final_reset=False)
    register_pairs(t, organiser, 3)
    _run(t, organiser)
    assert not Match.objects.filter(tournament=t, bracket="final", stage=2).exists()
    assert Match.objects.filter(tournament=t, bracket="final", stage=1, status=MatchStatus.CONFIRMED).exists()


def test_groups_then_playoff_nine_pairs_with_withdrawal(club, organiser):
    t = _create(club, organiser, "groups_playoff", group_count=3, group_qualifiers=2, third_place=True)
    entries = register_pairs(t, organiser, 9)
    quitter = entries[8]  # seed 9: the snake puts him in group C

    def after(number, rnd):
        if number == 1:
            services.withdraw_entry(actor=organiser, entry=quitter)

    _run(t, organiser, after_round=after)
    view = selectors.groups_view(tournament=t)
    assert [len(g.lines) for g in view.groups] == [3, 3, 3]
    assert {e.seed for e in (line.entry for line in view.groups[0].lines)} == {1, 6, 7}, "snake: 1, 6, 7 in A"
    # every group played its round robin; the quitter lost his later group games by forfeit
    group_games = Match.objects.filter(tournament=t, bracket="group", bye=False)
    assert group_games.count() == 9
    assert all(
        m.forfeit for m in group_games.filter(round__number__gt=1) if quitter.pk in (m.home_id, m.away_id)
    )
    # 3 groups x 2 = 6 through (two byes to the top seeds); group winners never meet in the first round
    playoff = Match.objects.filter(tournament=t, bracket="playoff", bye=False, stage=1)
    winners = {g.lines[0].entry.pk for g in view.groups}
    for m in playoff:
        assert not {m.home_id, m.away_id} <= winners
        group_of = {line.entry.pk: g.letter for g in view.groups for line in g.lines}
        assert group_of[m.home_id] != group_of[m.away_id], "no same-group match in the first playoff round"
    assert view.champion is not None
    assert [p for p, _ in view.places] == [1, 2, 3, 4]
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED


def test_bracket_pages_exports_and_refusals(client, club, organiser, member):
    import json

    from django.urls import reverse

    de = _create(club, organiser, "double_elim")
    register_pairs(de, organiser, 5, "Дубль")
    gp = _create(club, organiser, "groups_playoff", group_count=2, group_qualifiers=2)
    register_pairs(gp, organiser, 5, "Группа")
    for t in (de, gp):
        assert client.get(reverse("tournaments:bracket", args=[t.slug])).status_code == 200  # before the draw
        _run(t, organiser)
        urls = [
            reverse(f"tournaments:{n}", args=[t.slug])
            for n in ("home", "entries", "results", "standings", "bracket")
        ]
        urls += [reverse("tournaments:round", args=[t.slug, r.number]) for r in t.rounds.all()]
        urls += [reverse("tournaments:print_pairings", args=[t.slug, 1])]
        urls += [
            reverse("tournaments:export", args=[t.slug, w, f])
            for w in ("standings", "results")
            for f in ("csv", "json")
        ]
        for url in urls:
            assert client.get(url).status_code == 200, url
        client.force_login(organiser)
        for name in ("dashboard", "edit"):
            assert client.get(reverse(f"tournaments:{name}", args=[t.slug])).status_code == 200, name
        assert client.get(reverse("tournaments:print_sheets", args=[t.slug, 1])).status_code == 200
        client.logout()
    page = client.get(reverse("tournaments:bracket", args=[de.slug])).content.decode()
    assert (
        "Winners' bracket" in page
        and "Losers' bracket" in page
        and "Grand final" in page
        and "Champion" in page
    )
    page = client.get(reverse("tournaments:round", args=[de.slug, 2])).content.decode()
    assert "winners&#x27; bracket" in page or "winners' bracket" in page
    assert "losers' bracket" in page or "losers&#x27; bracket" in page
    page = client.get(reverse("tournaments:round", args=[gp.slug, 1])).content.decode()
    assert "group A" in page and "group B" in page
    page = client.get(reverse("tournaments:bracket", args=[gp.slug])).content.decode()
    assert "Group A" in page and "Group B" in page and "Playoff" in page
    rows = json.loads(client.get(reverse("tournaments:export", args=[de.slug, "standings", "json"])).content)[
        "standings"
    ]
    assert rows[0]["place"] == 1 and rows[0]["prize"] == "Кубок" and len(rows) == 5
    rows = json.loads(client.get(reverse("tournaments:export", args=[gp.slug, "standings", "json"])).content)[
        "standings"
    ]
    assert {r["group"] for r in rows} == {"A", "B"} and sum(1 for r in rows if r["playoff_place"] == 1) == 1
    # refusals: a member may not pair or correct; anonymous is sent to log in
    t = _create(club, organiser, "double_elim")
    register_pairs(t, organiser, 3, "Отказ")
    response = client.post(reverse("tournaments:pair_next", args=[t.slug]))
    assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(member)
    response = client.post(reverse("tournaments:pair_next", args=[t.slug]))
    assert response.status_code == 403 and "organisers" in response.content.decode()
    assert not t.rounds.exists()
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    with pytest.raises(ValidationError, match="not complete"):
        services.pair_next_round(actor=organiser, tournament=t)
    match = rnd.matches.filter(bye=False).first()
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.correct_result(actor=member, match=match, home_eyes=12, away_eyes=3)


@pytest.mark.parametrize("fmt", ["double_elim", "groups_playoff"])
def test_bracket_views_queries_do_not_grow_with_pairs(club, organiser, fmt):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for n in (4, 12):
        t = _create(club, organiser, fmt)
        register_pairs(t, organiser, n, f"Q{fmt}{n}")
        _run(t, organiser)
        view = selectors.double_elim_view if fmt == "double_elim" else selectors.groups_view
        with CaptureQueriesContext(connection) as ctx:
            assert view(tournament=t).champion is not None
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1] <= 3


def test_a_playoff_that_cannot_be_drawn_is_refused_with_a_message(client, club, organiser):
    from django.urls import reverse

    t = _create(club, organiser, "groups_playoff", group_count=1, group_qualifiers=1)
    register_pairs(t, organiser, 3, "Одна")
    for _ in range(3):
        play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    with pytest.raises(ValidationError, match="cannot go on as set up"):
        services.pair_next_round(actor=organiser, tournament=t)
    client.force_login(organiser)
    assert client.get(reverse("tournaments:bracket", args=[t.slug])).status_code == 200
