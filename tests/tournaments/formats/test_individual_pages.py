"""Individual event pages: players, seated rounds, standings, print views, exports, and the refusals."""

import datetime
import json

import pytest
from django.urls import reverse

from tournaments import services
from tournaments import services as ind
from tournaments.models import Entry, IndividualEntry, Match, MatchStatus, Seat, SeatName

from ..conftest import make_players, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club, organiser):
    t = services.create_tournament(
        actor=organiser,
        club=club,
        name="Индивидуалка",
        starts_on=datetime.date(2026, 11, 7),
        format="ind_swiss",
        swiss_rounds=3,
        prizes=["Кубок"],
    )
    for p in make_players(club, 9, "Игрок"):
        ind.register_player(actor=organiser, tournament=t, player=p)
    return t


def _urls(t):
    names = ["home", "entries", "results", "standings"]
    urls = [reverse(f"tournaments:{n}", args=[t.slug]) for n in names]
    for r in t.rounds.all():
        urls += [
            reverse("tournaments:round", args=[t.slug, r.number]),
            reverse("tournaments:print_pairings", args=[t.slug, r.number]),
        ]
    urls += [m.get_absolute_url() for m in t.matches.all()]
    for what in ("standings", "results", "seats"):
        for fmt in ("csv", "json"):
            urls.append(reverse("tournaments:export", args=[t.slug, what, fmt]))
    return urls


def test_pages_through_a_whole_event(client, event, organiser):
    t = event
    client.force_login(organiser)
    response = client.get(reverse("tournaments:entries", args=[t.slug]))
    assert "Register players" in response.content.decode() and "Игрок 9" in response.content.decode()
    response = client.post(
        reverse("tournaments:players_bulk", args=[t.slug]), {"text": "Новичок Один\nНовичок Два"}
    )
    assert IndividualEntry.objects.filter(tournament=t).count() == 11
    client.post(reverse("tournaments:pair_next", args=[t.slug]))
    rnd = t.rounds.get(number=1)
    page = client.get(reverse("tournaments:round", args=[t.slug, 1])).content.decode()
    assert "NS" in page and "Sitting out (bye)" in page and "No-show" in page
    sheets = client.get(reverse("tournaments:print_sheets", args=[t.slug, 1])).content.decode()
    first = rnd.matches.first()
    assert "1 (NS)" in sheets and "2 (EW)" in sheets
    assert first.home_pin in sheets and first.away_pin in sheets
    seat = Seat.objects.filter(round=rnd, seat=SeatName.WEST).first()
    no_show = reverse("tournaments:no_show", args=[t.slug, seat.match_id, seat.entry_id])
    assert "no-show?" in client.get(no_show).content.decode()  # asks first
    assert not Match.objects.get(pk=seat.match_id).forfeit
    client.post(no_show)
    assert Match.objects.get(pk=seat.match_id).forfeit
    quitter = Seat.objects.filter(round=rnd, seat=SeatName.NORTH).exclude(match=seat.match_id).first().entry
    client.post(reverse("tournaments:player_withdraw", args=[t.slug, quitter.pk]))
    quitter.refresh_from_db()
    assert quitter.status == "withdrawn"
    for number in (1, 2, 3):
        play_round(t.rounds.get(number=number), organiser)
        if number < 3:
            client.post(reverse("tournaments:pair_next", args=[t.slug]))
    t.refresh_from_db()
    assert t.status == "finished"
    for url in _urls(t) + [
        reverse("tournaments:dashboard", args=[t.slug]),
        reverse("tournaments:now_playing", args=[t.slug]),
        reverse("tournaments:edit", args=[t.slug]),
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
    client.logout()
    for url in _urls(t):
        assert client.get(url).status_code == 200, url
    standings = json.loads(
        client.get(reverse("tournaments:export", args=[t.slug, "standings", "json"])).content
    )
    rows = standings["standings"]
    assert len(rows) == 11 and rows[0]["place"] == 1 and rows[0]["prize"] == "Кубок"
    assert next(r for r in rows if r["player_id"] == quitter.player_id)["withdrawn"]
    seats = json.loads(client.get(reverse("tournaments:export", args=[t.slug, "seats", "json"])).content)[
        "seats"
    ]
    assert {s["seat"] for s in seats} == {"N", "S", "E", "W", "bye"}
    assert any(s["no_show"] for s in seats)
    csv_text = client.get(reverse("tournaments:export", args=[t.slug, "standings", "csv"])).content.decode()
    assert "buchholz" in csv_text.splitlines()[0]
    home = client.get(reverse("tournaments:home", args=[t.slug])).content.decode()
    assert "Players" in home and "Кубок" in home


def test_refusals(client, event, member, organiser):
    t = event
    services.pair_next_round(actor=organiser, tournament=t)
    match = t.matches.first()
    entry = Seat.objects.filter(match=match).first().entry
    # anonymous: login redirect
    for url, data in (
        (reverse("tournaments:players_bulk", args=[t.slug]), {"text": "Кто-то"}),
        (reverse("tournaments:player_withdraw", args=[t.slug, entry.pk]), {}),
        (reverse("tournaments:no_show", args=[t.slug, match.pk, entry.pk]), {}),
    ):
        response = client.post(url, data)
        assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(member)
    for url, data in (
        (reverse("tournaments:players_bulk", args=[t.slug]), {"text": "Кто-то"}),
        (reverse("tournaments:player_withdraw", args=[t.slug, entry.pk]), {}),
        (reverse("tournaments:no_show", args=[t.slug, match.pk, entry.pk]), {}),
        (reverse("tournaments:pair_next", args=[t.slug]), {}),
    ):
        response = client.post(url, data)
        assert response.status_code == 403, url
        assert "organiser" in response.content.decode()
    match.refresh_from_db()
    entry.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED and entry.status == "approved"
    assert IndividualEntry.objects.filter(tournament=t).count() == 9
    # a table's partnership is no pair: the pairs' pages do not find it (the player's pages act)
    client.force_login(organiser)
    for action in ("withdraw", "ask-withdraw", "check-in"):
        url = reverse("tournaments:entry_action", args=[t.slug, match.home_id, action])
        assert client.post(url).status_code == 404
    assert client.get(reverse("tournaments:substitute", args=[t.slug, match.home_id])).status_code == 404
    assert Entry.objects.get(pk=match.home_id).status == "approved"
    # seat export is for individual events only
    pairs = services.create_tournament(
        actor=organiser, club=t.club, name="Пары", starts_on=datetime.date(2026, 11, 7), format="swiss"
    )
    assert client.get(reverse("tournaments:export", args=[pairs.slug, "seats", "csv"])).status_code == 404


def test_self_registration_with_approval(client, club, organiser, member, outsider):
    t = services.create_tournament(
        actor=organiser, club=club, name="Самозапись", starts_on=datetime.date(2026, 11, 7),
        format="ind_movement", swiss_rounds=3, self_registration=True,
    )  # fmt: skip
    client.force_login(member)
    page = client.get(reverse("tournaments:entries", args=[t.slug])).content.decode()
    assert "Register me" in page
    client.post(reverse("tournaments:player_register", args=[t.slug]))
    entry = IndividualEntry.objects.get(tournament=t)
    assert entry.status == "pending"
    response = client.post(reverse("tournaments:player_approve", args=[t.slug, entry.pk]))
    assert response.status_code == 403
    client.post(reverse("tournaments:player_register", args=[t.slug]), follow=True)
    assert IndividualEntry.objects.filter(tournament=t).count() == 1, "the same player twice is refused"
    client.force_login(organiser)
    client.post(reverse("tournaments:player_approve", args=[t.slug, entry.pk]))
    entry.refresh_from_db()
    assert entry.status == "approved"
    closed = services.create_tournament(
        actor=organiser,
        club=club,
        name="Без самозаписи",
        starts_on=datetime.date(2026, 11, 7),
        format="ind_swiss",
    )
    client.force_login(outsider)
    response = client.post(reverse("tournaments:player_register", args=[closed.slug]))
    assert response.status_code == 403 and "organiser only" in response.content.decode()


def test_check_in_seats_only_those_present(client, event, organiser, member):
    t = event
    here = list(IndividualEntry.objects.filter(tournament=t).order_by("id")[:6])
    client.force_login(member)
    assert client.post(reverse("tournaments:player_check_in", args=[t.slug, here[0].pk])).status_code == 403
    client.force_login(organiser)
    for e in here:
        client.post(reverse("tournaments:player_check_in", args=[t.slug, e.pk]))
    assert "Checked in" in client.get(reverse("tournaments:entries", args=[t.slug])).content.decode()
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    seated = set(Seat.objects.filter(round=rnd).values_list("entry_id", flat=True))
    assert seated == {e.pk for e in here}
    assert IndividualEntry.objects.filter(tournament=t, status="withdrawn").count() == 3
    assert Seat.objects.filter(round=rnd, seat="bye").count() == 2
