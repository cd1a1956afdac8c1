"""Rough edges an organiser met at his desk: each one as he saw it on the page."""

import datetime
from html import escape

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from clubs.models import AuditEntry
from tests.clubs.factories import UserFactory
from tournaments import services
from tournaments.forms import TournamentForm
from tournaments.models import Match, MatchStatus, Tournament

from .conftest import make_players, play_round, player_with_account, register_pairs

pytestmark = pytest.mark.django_db

HALL = "203.0.113.51"


@pytest.fixture
def match(cup_match):
    Match.objects.filter(pk=cup_match.pk).update(home_pin="1357", away_pin="2468")
    cup_match.refresh_from_db()
    return cup_match


def _phone(n=1):
    return services.PinSender(session=f"desk-{n}", address=HALL)


def _audit_page(user, t):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client.get(reverse("tournaments:audit", args=[t.slug]), {"kind": "match"}).content.decode()


# --- a signed-in stranger's empty PIN


@pytest.mark.parametrize("action", ["final", "confirm", "dispute"])
def test_a_signed_in_stranger_sending_an_empty_pin_is_asked_for_it(client, match, action):
    if action != "final":
        services.enter_result(actor=None, match=match, home_eyes=12, away_eyes=3, pin="1357", sender=_phone())
    client.force_login(UserFactory(username="neighbour"))
    post = {"action": action, "pin": ""}
    if action == "final":
        post.update({"final-home_eyes": "12", "final-away_eyes": "3"})
    response = client.post(match.get_absolute_url(), post, follow=True)
    assert response.status_code == 200
    assert "Write the PIN printed on your half of the score sheet." in response.content.decode()


def test_without_a_pin_at_all_a_stranger_is_still_refused(match):
    """The API sends no PIN: a stranger there is told he does not play, as before."""
    stranger = UserFactory(username="neighbour")
    with pytest.raises(PermissionDenied):
        services.enter_result(actor=stranger, match=match, home_eyes=12, away_eyes=3)
    services.enter_result(actor=None, match=match, home_eyes=12, away_eyes=3, pin="1357", sender=_phone())
    with pytest.raises(PermissionDenied):
        services.confirm_result(actor=stranger, match=match)
    with pytest.raises(ValidationError, match="Write the PIN"):
        services.confirm_result(actor=stranger, match=match, pin=" ", sender=_phone())


# --- who answered with a PIN, in the audit log


def test_the_log_names_the_pair_whose_pin_reported_confirmed_or_disputed(organiser, cup, match):
    services.enter_result(actor=None, match=match, home_eyes=12, away_eyes=3, pin="1357", sender=_phone())
    services.dispute_result(actor=None, match=match, note="7 not 3", pin="2468", sender=_phone())
    page = _audit_page(organiser, cup)
    assert "the site (automatically)" not in page
    home, away = match.home.name, match.away.name
    assert f"with the PIN of {escape(home)}" in page and f"with the PIN of {escape(away)}" in page
    assert "with the other pair&#x27;s PIN" not in page  # a dispute is no confirmation
    assert "confirmed:" not in page.replace("\n", "")


def test_a_confirmation_with_a_pin_is_worded_as_such(organiser, cup, match):
    services.enter_result(actor=None, match=match, home_eyes=12, away_eyes=3, pin="1357", sender=_phone())
    services.confirm_result(actor=None, match=match, pin="2468", sender=_phone())
    row = AuditEntry.objects.get(action="match.confirm", object_id=str(match.pk))
    assert row.after["side"] == "away"
    page = _audit_page(organiser, cup)
    assert "the site (automatically)" not in page
    assert f"with the PIN of {escape(match.away.name)}" in page


# --- one rule for late entry: the event's page, its entries page and /tournaments/ say the same


def _open_section(client) -> str:
    page = client.get(reverse("tournaments:list")).content.decode()
    return page.split('id="open"', 1)[1].split("</section>", 1)[0]


def _swiss(club, organiser, rounds, fmt="swiss", name="Поздний"):
    t = services.create_tournament(
        actor=organiser, club=club, name=name, starts_on=datetime.date(2026, 12, 5), format=fmt,
        swiss_rounds=rounds, self_registration=True,
    )  # fmt: skip
    register_pairs(t, organiser, 4, prefix=name)
    return t


def _pair_rounds(t, organiser, n):
    for i in range(n):
        rnd = services.pair_next_round(actor=organiser, tournament=t)
        if i < n - 1:
            play_round(rnd, organiser)


def test_a_running_swiss_with_rounds_to_come_takes_entries_everywhere(client, club, organiser):
    t = _swiss(club, organiser, 5)
    _pair_rounds(t, organiser, 3)
    assert t.name in _open_section(client) and "Late entries open" in _open_section(client)
    assert "register your pair" in client.get(t.get_absolute_url()).content.decode()
    late = player_with_account(club, "latecomer")
    client.force_login(late.user)
    assert 'name="partner"' in client.get(reverse("tournaments:entries", args=[t.slug])).content.decode()


def test_a_swiss_whose_last_round_is_paired_takes_none_and_says_so_everywhere(client, club, organiser):
    t = _swiss(club, organiser, 2)
    _pair_rounds(t, organiser, 2)
    assert t.name not in _open_section(client)
    assert "register your pair" not in client.get(t.get_absolute_url()).content.decode()
    late = player_with_account(club, "latecomer")
    partner = make_players(club, 1, "Напарник")[0]
    client.force_login(late.user)
    assert 'name="partner"' not in client.get(reverse("tournaments:entries", args=[t.slug])).content.decode()
    with pytest.raises(ValidationError, match="every round is paired"):
        services.self_register(actor=late.user, tournament=t, partner=partner)


def test_a_running_round_robin_offers_no_registration(client, club, organiser):
    t = _swiss(club, organiser, 3, fmt="round_robin", name="Круговой")
    services.pair_next_round(actor=organiser, tournament=t)
    assert t.name not in _open_section(client)
    assert "register your pair" not in client.get(t.get_absolute_url()).content.decode()
    late = player_with_account(club, "latecomer")
    client.force_login(late.user)
    assert 'name="partner"' not in client.get(reverse("tournaments:entries", args=[t.slug])).content.decode()


# --- the overview of an individual event, and its count


def test_an_individual_event_speaks_of_players(client, club, organiser):
    client.force_login(organiser)
    data = _form_defaults()
    data.update({"name": "Личный", "starts_on": "2026-12-12", "format": "ind_swiss", "swiss_rounds": 3,
                 "self_registration": "on"})  # fmt: skip
    response = client.post(reverse("tournaments:create", args=[club.slug]), data, follow=True)
    page = response.content.decode()
    assert "Now register the pairs" not in page and "Now register the players" in page
    t = Tournament.objects.get(name="Личный")
    home = client.get(t.get_absolute_url()).content.decode()
    assert ">Register players</a>" in home and "Register pairs" not in home
    client.logout()
    home = client.get(t.get_absolute_url()).content.decode()
    assert "register your pair" not in home and "register yourself" in home


def test_the_overview_counts_no_withdrawn_pair(client, club, organiser):
    t = _swiss(club, organiser, 5, name="Счёт")
    extra = register_pairs(t, organiser, 6, prefix="Ещё")
    home = client.get(t.get_absolute_url()).content.decode()
    assert _count(home) == "10"
    services.withdraw_entry(actor=organiser, entry=extra[0])
    assert _count(client.get(t.get_absolute_url()).content.decode()) == "9"
    _pair_rounds(t, organiser, 2)
    services.withdraw_entry(actor=organiser, entry=extra[1])
    assert _count(client.get(t.get_absolute_url()).content.decode()) == "8"
    # the entries page still lists the withdrawn pairs, and says how many of its lines they are
    entries = client.get(reverse("tournaments:entries", args=[t.slug])).content.decode()
    heading = entries.split('id="entry-counts">', 1)[1].split("</span>", 1)[0]
    assert heading == "(8 · 2 withdrawn)"


def _count(home: str) -> str:
    return home.split("<dt>Pairs</dt><dd>", 1)[1].split("<", 1)[0].split("/")[0].split("·")[0].strip()


def _form_defaults() -> dict:
    """What the new tournament's form sends when the organiser changes nothing."""
    data = {}
    for field in TournamentForm():
        value = field.value()
        if value is None or value is False or value == "":
            continue
        data[field.html_name] = "on" if value is True else value
    return data


# --- a new club's owner starts a tournament from his club's page


def test_a_new_clubs_owner_finds_new_tournament_on_his_club_page(client, member):
    from clubs import services as club_services

    founder = UserFactory(username="founder")
    new_club = club_services.create_club(actor=founder, name="Новый клуб", city="Аксу")
    create = reverse("tournaments:create", args=[new_club.slug])
    client.force_login(founder)
    assert f'href="{create}"' in client.get(new_club.get_absolute_url()).content.decode()
    assert client.get(create).status_code == 200
    client.force_login(member)  # a member of another club, and a visitor, are not offered it
    assert f'href="{create}"' not in client.get(new_club.get_absolute_url()).content.decode()
    client.logout()
    assert f'href="{create}"' not in client.get(new_club.get_absolute_url()).content.decode()


# --- the plans list says how many live tables the round has


def test_a_start_plan_counts_the_tables_open_not_only_those_it_opened(client, club, organiser):
    from tournaments.models import ScheduledAction
    from tournaments.services import online, runner

    from .day.conftest import swiss_with_accounts

    t = swiss_with_accounts(club, organiser, 4, name="Онлайн", play_mode="online", online=True)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    assert online.open_tables(round_id=rnd.pk) == 2  # the organiser opened them from the dashboard
    runner.run_due()  # then the round's start plan runs: it opens none, and both are open
    plan = ScheduledAction.objects.get(tournament=t, key__startswith="start_round:")
    client.force_login(organiser)
    page = client.get(reverse("tournaments:dashboard", args=[t.slug])).content.decode()
    assert plan.done_at is not None
    assert "0 live tables opened" not in page and "started, 2 live tables open" in page


def test_the_entries_page_under_rating_seeding_does_not_say_no_ratings_are_kept(client, club, organiser):
    t = _swiss(club, organiser, 3, name="Рейтинг")
    services.update_tournament(actor=organiser, tournament=t, seeding="rating")
    client.force_login(organiser)
    page = client.get(reverse("tournaments:entries", args=[t.slug])).content.decode()
    assert "no ratings are kept yet" not in page and "Seeding by rating: each pair by its players" in page


# --- a pasted list adds to the roster only the players of the lines it enters


def test_a_paste_whose_every_line_is_left_out_adds_no_one_to_the_roster(client, club, organiser):
    from clubs.models import ClubPlayer

    t = services.create_tournament(actor=organiser, club=club, name="Вставка пар", format="swiss")
    services.register_entries_bulk(actor=organiser, tournament=t, text="Марат & Иван\nОлег & Жанар")
    on_roster = ClubPlayer.objects.filter(club=club).count()
    client.force_login(organiser)
    text = "Марат & Новичок\nЖанар & Пришлый\nNurlan & Иван"
    client.post(reverse("tournaments:entries_bulk", args=[t.slug]), {"text": text}, follow=True)
    assert t.entries.count() == 2
    assert ClubPlayer.objects.filter(club=club).count() == on_roster
    text = "Марат & Асель\nАсель & Гүлнар"
    result = services.register_entries_bulk(actor=organiser, tournament=t, text=text)
    assert [e.name for e in result.entries] == ["Асель & Гүлнар"]  # the one line entered adds its two
    assert ClubPlayer.objects.filter(club=club).count() == on_roster + 2


def test_a_new_name_twice_on_one_line_is_one_player_refused_as_a_pair(organiser, club):
    t = services.create_tournament(actor=organiser, club=club, name="Дважды", format="swiss")
    with pytest.raises(ValidationError, match="two different players"):
        services.register_entries_bulk(actor=organiser, tournament=t, text="Новичок & новичок")


# --- "My matches" puts the event being played first


def test_my_matches_lists_the_event_being_played_before_a_finished_one(client, club, organiser):
    import re

    asel, oleh = player_with_account(club, "asel"), player_with_account(club, "oleh")
    events = {}
    for name, day in (("Идущий", datetime.date(2026, 12, 5)), ("Сыгранный", datetime.date(2026, 12, 6))):
        t = services.create_tournament(
            actor=organiser, club=club, name=name, starts_on=day, format="swiss", swiss_rounds=1
        )
        services.register_entry(actor=organiser, tournament=t, player_a=asel, player_b=oleh)
        register_pairs(t, organiser, 1, prefix=name)
        events[name] = services.pair_next_round(actor=organiser, tournament=t)
    play_round(events["Сыгранный"], organiser)
    assert Tournament.objects.get(name="Сыгранный").status == "finished"
    client.force_login(asel.user)
    text = re.sub(r"<[^>]+>", " ", client.get(reverse("tournaments:my_matches")).content.decode())
    assert text.index("Идущий") < text.index("Сыгранный")


# --- long matches: 24 rows printed and shown, more taken


def _sheet(rows: int, start: int = 1) -> dict:
    """``rows`` deals numbered from ``start``: the pairs win in turn 70:50 with the jack, so that
    after 22 deals it is 11:11; then eggs (60:60) until the last deal, which pair 1 wins."""
    post = {}
    for k, i in enumerate(range(start, start + rows)):
        if k < 22:
            home, away, jack = ("70", "50", "1") if k % 2 == 0 else ("50", "70", "2")
        elif i < start + rows - 1:
            home, away, jack = "60", "60", "1"
        else:
            home, away, jack = "70", "50", "1"
        post.update({f"deal-{i}-home": home, f"deal-{i}-away": away, f"deal-{i}-jack": jack})
    return post


def test_the_printed_sheet_and_the_form_have_24_rows(client, organiser, match):
    client.force_login(organiser)
    sheets = client.get(reverse("tournaments:print_sheets", args=[match.tournament.slug, 1])).content.decode()
    table = sheets.split('<article class="sheet">', 1)[1].split("</tbody>", 1)[0]
    assert table.count("<tr>") == 1 + 24  # the head and 24 deals
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'name="deal-24-home"' in page and 'name="deal-25-home"' not in page
    assert "data-add-deal" in page and 'data-max="60"' in page


def test_a_long_sheet_past_24_deals_is_taken(client, match):
    client.force_login(match.home.player_a.user)
    client.post(match.get_absolute_url(), {"action": "deals", **_sheet(30)})
    match.refresh_from_db()
    assert match.deals.count() == 30 and match.status == MatchStatus.UNCONFIRMED
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'name="deal-30-home" value="70"' in page and 'name="deal-34-home"' in page


def test_without_javascript_a_preview_brings_empty_rows_below_the_last(client, match):
    client.force_login(match.home.player_a.user)
    post = {"action": "preview", **_sheet(24)}
    page = client.post(match.get_absolute_url(), post).content.decode()
    assert 'name="deal-28-home"' in page and 'name="deal-29-home"' not in page


def test_a_sheet_past_60_deals_is_refused_with_a_reason(client, match):
    client.force_login(match.home.player_a.user)
    response = client.post(match.get_absolute_url(), {"action": "deals", **_sheet(2, start=61)}, follow=True)
    assert "A score sheet has at most 60 deals" in response.content.decode()
    assert not match.deals.exists()
