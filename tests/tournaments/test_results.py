"""Results from a physical table: who may enter, confirm, dispute and correct; what scores are refused."""

import datetime
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from clubs.models import AuditEntry
from tests.clubs.factories import PASSWORD, UserFactory
from tournaments import services, tasks
from tournaments.models import DealLine, EntryStatus, Match, MatchStatus, RoundStatus

from .conftest import make_players, play_round, player_with_account, register_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(club, organiser):
    return services.create_tournament(
        actor=organiser,
        club=club,
        name="Пятничная швейцарка",
        starts_on=datetime.date(2026, 10, 2),
        format="swiss",
        swiss_rounds=3,
    )


@pytest.fixture
def table(club, organiser, swiss):
    """Round 1 of a four-pair Swiss; the first table has players with accounts on both sides."""
    asel, oleh, ivan, nurlan = (player_with_account(club, u) for u in ("asel", "oleh", "ivan", "nurlan"))
    e1 = services.register_entry(actor=organiser, tournament=swiss, player_a=asel, player_b=oleh)
    register_pairs(swiss, organiser, 1, prefix="Сельчанин")
    e2 = services.register_entry(actor=organiser, tournament=swiss, player_a=ivan, player_b=nurlan)
    register_pairs(swiss, organiser, 1, prefix="Селянин")  # the Dutch fold pairs seed 1 with seed 3
    services.update_tournament(actor=organiser, tournament=swiss, seeding="manual")
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    match = rnd.matches.get(table=1)
    assert {match.home_id, match.away_id} == {e1.pk, e2.pk}
    return match


def _user(name):
    return UserFactory(username=name)


def test_player_enters_and_the_other_pair_confirms(table):
    reporter = _user("asel") if table.home.player_a.user.username == "asel" else _user("ivan")
    services.enter_result(actor=reporter, match=table, home_eyes=12, away_eyes=9)
    table.refresh_from_db()
    assert table.status == MatchStatus.UNCONFIRMED and table.reported_side == "home"
    with pytest.raises(PermissionDenied, match="other pair confirms"):
        services.confirm_result(actor=_user(table.home.player_b.user.username), match=table)
    with pytest.raises(PermissionDenied, match="other pair confirms"):  # not even with the PIN
        services.confirm_result(
            actor=_user(table.home.player_b.user.username), match=table, pin=table.away_pin
        )
    other = _user(table.away.player_a.user.username)
    services.confirm_result(actor=other, match=table)
    table.refresh_from_db()
    assert (
        table.status == MatchStatus.CONFIRMED
        and table.confirmed_by == other
        and table.confirmed_how == "player"
    )
    assert AuditEntry.objects.filter(action="match.confirm", object_id=str(table.pk)).exists()


def test_result_for_a_match_that_is_not_yours_is_refused(table, swiss):
    other_match = swiss.matches.get(table=2)
    with pytest.raises(PermissionDenied, match="do not play in this match"):
        services.enter_result(actor=_user("asel"), match=other_match, home_eyes=12, away_eyes=1)
    with pytest.raises(PermissionDenied):
        services.enter_result(actor=_user("outsider"), match=table, home_eyes=12, away_eyes=1)
    assert Match.objects.get(pk=other_match.pk).home_eyes is None


def test_a_page_says_why_a_result_is_refused(client, table, swiss):
    _user("outsider")
    client.login(username="outsider", password=PASSWORD)
    response = client.post(
        table.get_absolute_url(), {"action": "final", "final-home_eyes": 12, "final-away_eyes": 3}
    )
    assert response.status_code == 403
    assert "You do not play in this match" in response.content.decode()
    client.login(username="asel", password=PASSWORD)
    response = client.post(
        table.get_absolute_url(),
        {"action": "final", "final-home_eyes": 12, "final-away_eyes": 12},
        follow=True,
    )
    assert "both pairs cannot have 12 eyes" in response.content.decode()
    assert Match.objects.get(pk=table.pk).status == MatchStatus.SCHEDULED


@pytest.mark.parametrize(
    ("home", "away", "message"),
    [
        (12, 12, "both pairs cannot have 12"),
        (11, 5, "has a pair at 12"),
        (13, 0, "from 0 to 12"),
        (-1, 12, "from 0 to 12"),
    ],
)
def test_impossible_final_scores_are_refused(table, organiser, home, away, message):
    with pytest.raises(ValidationError, match=message):
        services.enter_result(actor=organiser, match=table, home_eyes=home, away_eyes=away)
    assert Match.objects.get(pk=table.pk).home_eyes is None


@pytest.mark.parametrize(
    ("deals", "message"),
    [
        ([{"points": (119, 1), "jack_holder": 0}], "no set of cards is worth"),
        ([{"points": (70, 40), "jack_holder": 0}], "add up to 120"),
        ([{"points": (120, 0), "jack_holder": 1}], "at least its 2 points"),
        ([{"points": (100, 20), "jack_holder": 0, "all_tricks": 0}], "took all 120"),
        ([{"points": (70, 50), "jack_holder": 0}], "stops at 1:0"),
    ],
)
def test_impossible_deal_sheets_are_refused(table, organiser, deals, message):
    with pytest.raises(ValidationError, match=message):
        services.enter_result(actor=organiser, match=table, deals=deals)
    assert not DealLine.objects.exists()


def test_deal_by_deal_sheet_gives_the_final_score_and_lucy(table, organiser):
    deals = [
        {"points": (70, 50), "jack_holder": 0},  # home on duty wins: 1
        {"points": (60, 60), "jack_holder": 1},  # eggs
        {"points": (30, 90), "jack_holder": 0},  # away, not on duty, rout 3, doubled after eggs: 6
        {"points": (120, 0), "jack_holder": 0, "all_tricks": 0},  # Lucy: home wins at once
    ]
    match = services.enter_result(actor=organiser, match=table, deals=deals)
    assert (match.home_eyes, match.away_eyes) == (12, 6)
    assert match.home_lucy == 1 and match.away_lucy == 0
    assert [d.home_score for d in match.deals.order_by("number")] == [1, 1, 1, 12]
    assert match.status == MatchStatus.CONFIRMED


def test_deal_sheet_through_the_page_with_preview(client, table):
    client.login(username="asel", password=PASSWORD)
    rows = {}
    for i, (h, a, j) in enumerate([(100, 20, 1)] * 6, start=1):
        rows.update({f"deal-{i}-home": h, f"deal-{i}-away": a, f"deal-{i}-jack": j, f"deal-{i}-all": ""})
    preview = client.post(table.get_absolute_url(), {"action": "preview", **rows})
    assert preview.status_code == 200 and Match.objects.get(pk=table.pk).home_eyes is None
    assert "12" in preview.content.decode()
    client.post(table.get_absolute_url(), {"action": "deals", **rows})
    match = Match.objects.get(pk=table.pk)
    assert (match.home_eyes, match.away_eyes) == (12, 0) and match.status == MatchStatus.UNCONFIRMED


def _wrong(*pins):
    return next(p for p in ("0000", "1111", "2222") if p not in pins)


def test_pin_confirms_for_a_player_without_an_account(client, table):
    services.enter_result(actor=_user("asel"), match=table, home_eyes=12, away_eyes=4)
    response = client.post(
        table.get_absolute_url(),
        {"action": "confirm", "pin": _wrong(table.home_pin, table.away_pin)},
        follow=True,
    )
    assert "Wrong PIN" in response.content.decode()
    assert Match.objects.get(pk=table.pk).status == MatchStatus.UNCONFIRMED
    response = client.post(
        table.get_absolute_url(), {"action": "confirm", "pin": table.away_pin}, follow=True
    )
    match = Match.objects.get(pk=table.pk)
    assert (
        match.status == MatchStatus.CONFIRMED and match.confirmed_how == "pin" and match.confirmed_by is None
    )


def test_the_reporting_pair_cannot_confirm_with_its_own_pin(client, table):
    """Pair 1 reports from a phone; on another phone (no account) it types the PIN of its own half:
    refused, and the page says whose PIN confirms. Pair 2's PIN confirms."""
    reporter = _user("asel") if table.home.player_a.user.username == "asel" else _user("ivan")
    services.enter_result(actor=reporter, match=table, home_eyes=12, away_eyes=9)
    assert table.home_pin != table.away_pin or Match.objects.filter(pk=table.pk).update(away_pin="9999")
    table.refresh_from_db()
    url = table.get_absolute_url()
    response = client.post(url, {"action": "confirm", "pin": table.home_pin}, follow=True)
    assert "PIN of the pair that reported the result" in response.content.decode()
    assert Match.objects.get(pk=table.pk).status == MatchStatus.UNCONFIRMED
    client.post(table.get_absolute_url(), {"action": "confirm", "pin": table.away_pin})
    assert Match.objects.get(pk=table.pk).status == MatchStatus.CONFIRMED


def test_a_pin_on_a_match_no_side_reported_says_why(table, organiser):
    with pytest.raises(ValidationError, match="No result has been entered yet"):
        services.confirm_result(actor=None, match=table, pin=table.home_pin)
    services.enter_result(actor=organiser, match=table, home_eyes=12, away_eyes=3)
    with pytest.raises(ValidationError, match="already confirmed"):
        services.confirm_result(actor=None, match=table, pin=table.away_pin)


def test_each_pair_has_its_own_pin_on_its_half_of_the_sheet(client, organiser, table):
    Match.objects.filter(pk=table.pk).update(home_pin="0731", away_pin="0846")
    client.force_login(organiser)
    page = client.get(reverse("tournaments:print_sheets", args=[table.tournament.slug, 1])).content.decode()
    home, away = escape(table.home.name), escape(table.away.name)
    sheet = next(s for s in page.split('<article class="sheet">') if home in s and away in s)
    halves = sheet.split('class="sheet-half"')
    assert len(halves) == 3
    assert "0731" in halves[1] and home in halves[1] and "0846" not in halves[1] and away not in halves[1]
    assert "0846" in halves[2] and away in halves[2] and "0731" not in halves[2]


def test_dispute_goes_to_the_organiser_who_corrects(table, organiser):
    services.enter_result(actor=_user("asel"), match=table, home_eyes=12, away_eyes=4)
    other = _user("ivan") if table.away.player_a.user.username == "ivan" else _user("asel")
    services.dispute_result(actor=other, match=table, note="было 12:8")
    table.refresh_from_db()
    assert table.status == MatchStatus.DISPUTED
    with pytest.raises(ValidationError, match="disputed"):
        services.confirm_result(actor=other, match=table)
    services.correct_result(actor=organiser, match=table, home_eyes=12, away_eyes=8, reason="по бланку")
    table.refresh_from_db()
    assert table.status == MatchStatus.CONFIRMED and table.away_eyes == 8
    log = table.corrections.get()
    assert log.before["away_eyes"] == 4 and log.after["away_eyes"] == 8 and log.actor == organiser


def test_pairing_before_the_previous_round_completes_is_refused(table, swiss, organiser):
    with pytest.raises(ValidationError, match="Round 1 is not complete: 2 result"):
        services.pair_next_round(actor=organiser, tournament=swiss)
    services.enter_result(actor=_user("asel"), match=table, home_eyes=12, away_eyes=4)
    play_round(table.round, organiser)
    with pytest.raises(ValidationError, match="1 result"):
        services.pair_next_round(
            actor=organiser, tournament=swiss
        )  # the players' result is not confirmed yet
    services.confirm_result(actor=organiser, match=table)
    assert services.pair_next_round(actor=organiser, tournament=swiss).number == 2


def test_forfeit_is_twelve_nil(table, organiser):
    services.record_forfeit(actor=organiser, match=table, loser=table.home)
    table.refresh_from_db()
    assert (table.home_eyes, table.away_eyes, table.forfeit, table.winner_id) == (0, 12, True, table.away_id)
    with pytest.raises(PermissionDenied):
        services.enter_result(
            actor=_user("asel"),
            match=table.round.matches.get(table=2),
            home_eyes=12,
            away_eyes=0,
            forfeit=True,
        )


def test_auto_confirm_task_confirms_old_results_once(table, swiss, organiser):
    services.update_tournament(actor=organiser, tournament=swiss, auto_confirm_hours=2)
    services.enter_result(actor=_user("asel"), match=table, home_eyes=12, away_eyes=4)
    assert tasks.auto_confirm_results() == []
    Match.objects.filter(pk=table.pk).update(reported_at=timezone.now() - timedelta(hours=3))
    assert tasks.auto_confirm_results() == [table.pk]
    assert tasks.auto_confirm_results() == []  # idempotent
    table.refresh_from_db()
    assert table.status == MatchStatus.CONFIRMED and table.confirmed_how == "auto"
    assert AuditEntry.objects.filter(action="match.auto_confirm").count() == 1


def test_the_beat_plan_exists():
    from django_celery_beat.models import PeriodicTask

    plan = PeriodicTask.objects.get(task=tasks.AUTO_CONFIRM_TASK)
    assert plan.enabled and plan.interval.every == 5


class TestRegistration:
    def test_same_player_twice_is_refused(self, swiss, organiser, club):
        a, b, c = make_players(club, 3)
        services.register_entry(actor=organiser, tournament=swiss, player_a=a, player_b=b)
        with pytest.raises(ValidationError, match="already registered"):
            services.register_entry(actor=organiser, tournament=swiss, player_a=c, player_b=a)
        with pytest.raises(ValidationError, match="two different players"):
            services.register_entry(actor=organiser, tournament=swiss, player_a=c, player_b=c)

    def test_entry_cap(self, swiss, organiser, club):
        services.update_tournament(actor=organiser, tournament=swiss, entry_cap=2)
        register_pairs(swiss, organiser, 2)
        a, b = make_players(club, 2, prefix="Поздний")
        with pytest.raises(ValidationError, match="full: 2 pairs"):
            services.register_entry(actor=organiser, tournament=swiss, player_a=a, player_b=b)

    def test_self_registration_with_approval(self, swiss, organiser, club, member):
        me = player_with_account(club, "zhanar")
        partner = make_players(club, 1, prefix="Напарник")[0]
        with pytest.raises(PermissionDenied):
            services.self_register(actor=me.user, tournament=swiss, partner=partner)
        services.update_tournament(actor=organiser, tournament=swiss, self_registration=True)
        entry = services.self_register(actor=me.user, tournament=swiss, partner=partner)
        assert entry.status == EntryStatus.PENDING
        with pytest.raises(PermissionDenied):
            services.approve_entry(actor=member, entry=entry)
        assert services.approve_entry(actor=organiser, entry=entry).status == EntryStatus.APPROVED

    def test_late_entry_joins_a_swiss_but_not_a_league(self, swiss, organiser, club):
        register_pairs(swiss, organiser, 4)
        play_round(services.pair_next_round(actor=organiser, tournament=swiss), organiser)
        a, b = make_players(club, 2, prefix="Опоздавший")
        late = services.register_entry(actor=organiser, tournament=swiss, player_a=a, player_b=b)
        assert late.late
        rnd = services.pair_next_round(actor=organiser, tournament=swiss)
        assert rnd.matches.filter(home=late).exists() or rnd.matches.filter(away=late).exists()
        league = services.create_tournament(actor=organiser, club=club, name="Лига", format="round_robin")
        register_pairs(league, organiser, 3, prefix="Лига")
        services.pair_next_round(actor=organiser, tournament=league)
        c, d = make_players(club, 2, prefix="Поздно")
        with pytest.raises(ValidationError, match="only in a Swiss"):
            services.register_entry(actor=organiser, tournament=league, player_a=c, player_b=d)

    def test_check_in_leaves_absent_pairs_out_of_round_one(self, swiss, organiser):
        entries = register_pairs(swiss, organiser, 5)
        for e in entries[:4]:
            services.check_in_entry(actor=organiser, entry=e)
        rnd = services.pair_next_round(actor=organiser, tournament=swiss)
        assert rnd.matches.filter(bye=True).count() == 0 and rnd.matches.count() == 2
        entries[4].refresh_from_db()
        assert entries[4].status == EntryStatus.WITHDRAWN

    def test_substitute_plays_and_may_report(self, table, organiser, club, swiss):
        sub = player_with_account(club, "galina")
        out = table.home.player_a
        services.substitute(
            actor=organiser, entry=table.home, round=table.round, player_out=out, player_in=sub
        )
        services.enter_result(actor=sub.user, match=table, home_eyes=12, away_eyes=3)
        with pytest.raises(ValidationError, match="already registered"):
            services.substitute(
                actor=organiser,
                entry=table.away,
                round=table.round,
                player_out=table.away.player_a,
                player_in=sub,
            )
        with pytest.raises(PermissionDenied):
            services.confirm_result(actor=out.user, match=table)


def test_my_matches_lists_and_links_to_confirm(client, table):
    table = services.enter_result(actor=_user("asel"), match=table, home_eyes=12, away_eyes=4)
    other = (
        table.away.player_a.user.username
        if table.reported_side == "home"
        else table.home.player_a.user.username
    )
    client.login(username=other, password=PASSWORD)
    page = client.get(reverse("tournaments:my_matches")).content.decode()
    assert "Confirm the result" in page and table.get_absolute_url() in page
    response = client.post(table.get_absolute_url(), {"action": "confirm"})
    assert response.status_code == 302
    assert Match.objects.get(pk=table.pk).status == MatchStatus.CONFIRMED
    assert table.round.__class__.objects.get(pk=table.round_id).status == RoundStatus.PLAYING


def test_wrong_pins_slow_down_the_sender_not_the_match(client, table):
    """A guesser who used up his session's allowance is told to wait, even with the right PIN;
    another phone at the same venue (same address, another session) still confirms."""
    services.enter_result(actor=_user("asel"), match=table, home_eyes=12, away_eyes=4)
    wrong = _wrong(table.home_pin, table.away_pin)
    for _ in range(services.PIN_SESSION_ALLOWANCE):
        response = client.post(table.get_absolute_url(), {"action": "confirm", "pin": wrong}, follow=True)
        assert "Wrong PIN" in response.content.decode()
    url = table.get_absolute_url()
    response = client.post(url, {"action": "confirm", "pin": table.away_pin}, follow=True)
    assert "Too many wrong PINs from this phone" in response.content.decode()
    assert Match.objects.get(pk=table.pk).status == MatchStatus.UNCONFIRMED
    other_phone = Client()
    other_phone.post(table.get_absolute_url(), {"action": "confirm", "pin": table.away_pin})
    assert Match.objects.get(pk=table.pk).status == MatchStatus.CONFIRMED


def test_a_hall_of_200_phones_behind_one_address_mistyping_once_each_is_never_slowed(table):
    """Each phone (its own session) types one wrong PIN in the same minute, each at its own
    match, all from the club's one address: the next phone there still confirms."""
    services.enter_result(actor=_user("asel"), match=table, home_eyes=12, away_eyes=4)
    for n in range(199):
        services.note_wrong_pin(sender=services.PinSender(session=f"phone-{n}", address="203.0.113.7"),
                                match_id=10_000 + n)
    phone = services.PinSender(session="phone-199", address="203.0.113.7")
    services.confirm_result(actor=None, match=table, pin=table.away_pin, sender=phone)
    assert Match.objects.get(pk=table.pk).status == MatchStatus.CONFIRMED


def test_wrong_pins_from_one_address_are_slowed_past_a_halls_allowance(table):
    services.enter_result(actor=_user("asel"), match=table, home_eyes=12, away_eyes=4)
    for n in range(services.PIN_ADDRESS_ALLOWANCE):
        services.note_wrong_pin(sender=services.PinSender(session=f"phone-{n}", address="203.0.113.8"),
                                match_id=10_000 + n)
    fresh = services.PinSender(session="a-new-phone", address="203.0.113.8")
    with pytest.raises(ValidationError, match="Too many wrong PINs"):
        services.confirm_result(actor=None, match=table, pin=table.away_pin, sender=fresh)
    elsewhere = services.PinSender(session="a-new-phone", address="198.51.100.1")
    services.confirm_result(actor=None, match=table, pin=table.away_pin, sender=elsewhere)
    assert Match.objects.get(pk=table.pk).status == MatchStatus.CONFIRMED


def test_a_new_session_for_every_guess_at_one_match_is_slowed_by_its_address(table):
    """A guesser who makes a new session for every PIN he tries at one match is held to the
    match's allowance from his address; the players elsewhere confirm it."""
    services.enter_result(actor=_user("asel"), match=table, home_eyes=12, away_eyes=4)
    wrong = _wrong(table.home_pin, table.away_pin)
    for n in range(services.PIN_MATCH_ADDRESS_ALLOWANCE):
        with pytest.raises(services.WrongPin):
            services.confirm_result(actor=None, match=table, pin=wrong,
                                    sender=services.PinSender(session=f"guess-{n}", address="203.0.113.9"))
    guesser = services.PinSender(session="guess-again", address="203.0.113.9")
    with pytest.raises(ValidationError, match="Too many wrong PINs"):
        services.confirm_result(actor=None, match=table, pin=table.away_pin, sender=guesser)
    player = services.PinSender(session="phone", address="198.51.100.2")
    services.confirm_result(actor=None, match=table, pin=table.away_pin, sender=player)
    assert Match.objects.get(pk=table.pk).status == MatchStatus.CONFIRMED


def test_a_sender_slowed_by_wrong_pins_waits_at_most_a_minute(client, table):
    from django.core.cache import cache

    services.enter_result(actor=_user("asel"), match=table, home_eyes=12, away_eyes=4)
    wrong = _wrong(table.home_pin, table.away_pin)
    for _ in range(services.PIN_SESSION_ALLOWANCE):
        client.post(table.get_absolute_url(), {"action": "confirm", "pin": wrong})
    url = table.get_absolute_url()
    response = client.post(url, {"action": "confirm", "pin": table.away_pin}, follow=True)
    assert "Wait a minute and try again" in response.content.decode()
    sender = services.PinSender(session=client.session.session_key, address="127.0.0.1")
    keys = [cache.make_and_validate_key(key) for key, _allowance in sender.keys(table.pk)]
    ttls = [cache._cache.get_client(key).ttl(key) for key in keys]  # noqa: SLF001 - the Redis behind it
    assert len(ttls) == 3 and all(0 < ttl <= 60 for ttl in ttls), ttls


def test_a_forged_forwarded_for_does_not_make_a_new_address_for_pins(table):
    """Wrong PINs sent with a new X-Forwarded-For each, from a client no proxy setting trusts,
    all count against the address they come from."""
    services.enter_result(actor=_user("asel"), match=table, home_eyes=12, away_eyes=4)
    wrong = _wrong(table.home_pin, table.away_pin)
    for n in range(services.PIN_MATCH_ADDRESS_ALLOWANCE):
        Client().post(table.get_absolute_url(), {"action": "confirm", "pin": wrong},
                      REMOTE_ADDR="203.0.113.10", HTTP_X_FORWARDED_FOR=f"10.9.9.{n}")
    response = Client().post(table.get_absolute_url(), {"action": "confirm", "pin": table.away_pin},
                             REMOTE_ADDR="203.0.113.10", HTTP_X_FORWARDED_FOR="10.9.9.99", follow=True)
    assert "С этого телефона введено слишком много неверных PIN-кодов" in response.content.decode()
    assert Match.objects.get(pk=table.pk).status == MatchStatus.UNCONFIRMED


def test_manual_seeding_order_decides_the_knockout_byes(club, organiser, client):
    t = services.create_tournament(
        actor=organiser, club=club, name="Кубок", format="single_elim", seeding="manual"
    )
    entries = register_pairs(t, organiser, 3)
    client.login(username="organiser", password=PASSWORD)
    client.post(reverse("tournaments:entry_action", args=[t.slug, entries[2].pk, "up"]))
    client.post(reverse("tournaments:entry_action", args=[t.slug, entries[2].pk, "up"]))
    assert [e.pk for e in t.entries.order_by("seed")] == [entries[2].pk, entries[0].pk, entries[1].pk]
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    assert rnd.matches.get(bye=True).home_id == entries[2].pk, "the top seed gets the bye"
    with pytest.raises(ValidationError, match="seeding is fixed"):
        services.move_entry(actor=organiser, entry=entries[0], up=True)


def test_notification_tasks_reach_the_right_players(table, organiser, club):
    assert tasks.notify_round_paired(table.round_id) == 4  # four players with accounts at table 1
    table = services.enter_result(actor=_user("asel"), match=table, home_eyes=12, away_eyes=4)
    assert tasks.notify_result_reported(table.pk) == 2  # the other pair only
    services.dispute_result(
        actor=_user(
            table.away.player_a.user.username
            if table.reported_side == "home"
            else table.home.player_a.user.username
        ),
        match=table,
    )
    assert tasks.notify_dispute(table.pk) == 1  # the club's organiser
    assert tasks.notify_result_reported(table.pk) == 0 and tasks.notify_round_paired(999999) == 0


def test_the_sheet_form_names_pairs_1_and_2_like_the_paper():
    from django.http import QueryDict

    from tournaments.result_forms import parse_deals

    post = QueryDict(mutable=True)
    post.update({"deal-1-home": "0", "deal-1-away": "120", "deal-1-jack": "2", "deal-1-all": "2"})
    post.update({"deal-2-home": "61", "deal-2-jack": "1"})
    assert parse_deals(post) == [
        {"points": (0, 120), "jack_holder": 1, "all_tricks": 1},
        {"points": (61, 59), "jack_holder": 0, "all_tricks": None},
    ]
    post.update({"deal-3-home": "61"})
    with pytest.raises(ValidationError, match="Deal 3: say which pair held the jack"):
        parse_deals(post)


def test_reporter_may_fix_a_typo_but_the_other_pair_confirms_or_disputes(table):
    reporter = _user("asel")
    table = services.enter_result(actor=reporter, match=table, home_eyes=12, away_eyes=4)
    table = services.enter_result(actor=reporter, match=table, home_eyes=12, away_eyes=5)
    assert (table.away_eyes, table.status) == (5, MatchStatus.UNCONFIRMED)
    other = _user("ivan")
    with pytest.raises(ValidationError, match="confirm it, or dispute it"):
        services.enter_result(actor=other, match=table, home_eyes=3, away_eyes=12)
    assert Match.objects.get(pk=table.pk).away_eyes == 5
