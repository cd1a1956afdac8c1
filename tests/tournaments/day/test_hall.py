"""The hall on the day: the round clock, the tables still playing past it, announcements, the pinned view."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from clubs.models import AuditEntry, Player
from tournaments import services
from tournaments.models import Announcement, DaySettings, Notification, Round
from tournaments.selectors import hall

from ..conftest import play_round

pytestmark = pytest.mark.django_db


def _paired(t, organiser, *, started_minutes_ago: int):
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    Round.objects.filter(pk=rnd.pk).update(created_at=timezone.now() - timedelta(minutes=started_minutes_ago))
    rnd.refresh_from_db()
    return rnd


def test_a_round_has_no_clock_without_a_length(swiss8, organiser):
    rnd = _paired(swiss8, organiser, started_minutes_ago=500)
    assert hall.round_clock(rnd) is None
    assert hall.late_tables(tournament=swiss8) == []


def test_the_clock_ends_the_round_length_after_pairing_and_a_round_may_run_longer(swiss8, organiser):
    services.update_tournament(actor=organiser, tournament=swiss8, round_length=40)
    rnd = _paired(swiss8, organiser, started_minutes_ago=10)
    clock = hall.round_clock(rnd)
    assert clock.ends == rnd.created_at + timedelta(minutes=40)
    assert not clock.over()
    services.set_round_options(actor=organiser, round=rnd, deadline=None, length=5)
    rnd.refresh_from_db()
    assert hall.round_clock(rnd).ends == rnd.created_at + timedelta(minutes=5)
    assert hall.round_clock(rnd).over()
    # a later start in the day settings starts the clock then, not at the pairing
    later = timezone.now() + timedelta(minutes=30)
    DaySettings.objects.filter(tournament=swiss8).update(first_round_at=later)
    assert hall.round_clock(rnd).ends == later + timedelta(minutes=5)


def test_a_round_length_out_of_range_is_refused_and_nothing_changes(swiss8, organiser):
    rnd = _paired(swiss8, organiser, started_minutes_ago=0)
    with pytest.raises(ValidationError):
        services.set_round_options(actor=organiser, round=rnd, deadline=None, length=0)
    with pytest.raises(ValidationError):
        services.update_tournament(actor=organiser, tournament=swiss8, round_length=601)
    rnd.refresh_from_db()
    swiss8.refresh_from_db()
    assert rnd.length is None and swiss8.round_length is None


def test_tables_still_playing_past_the_clock_are_late_and_reach_needs_you(client, swiss8, organiser):
    services.update_tournament(actor=organiser, tournament=swiss8, round_length=30)
    swiss8.refresh_from_db()
    rnd = _paired(swiss8, organiser, started_minutes_ago=20)
    assert hall.late_tables(tournament=swiss8) == []
    Round.objects.filter(pk=rnd.pk).update(created_at=timezone.now() - timedelta(minutes=31))
    tables = list(rnd.matches.filter(bye=False).order_by("table"))
    done = tables[0]
    services.enter_result(actor=organiser, match=done, home_eyes=12, away_eyes=3)
    late = hall.late_tables(tournament=swiss8)
    assert [m.table for m in late] == [m.table for m in tables[1:]]
    client.force_login(organiser)
    page = client.get(f"/t/{swiss8.slug}/day/").content.decode()
    needs_you = page.split('id="day-problems"')[1].split("</section>")[0]
    assert "still playing: the round ended at" in needs_you
    assert f'data-match="{tables[1].pk}"' in needs_you
    assert needs_you.count(f'data-match="{tables[1].pk}"') == 1  # late, not listed again as stuck


def test_a_complete_round_has_no_late_tables(swiss8, organiser):
    services.update_tournament(actor=organiser, tournament=swiss8, round_length=30)
    swiss8.refresh_from_db()
    rnd = _paired(swiss8, organiser, started_minutes_ago=90)
    play_round(rnd, organiser)
    assert hall.late_tables(tournament=swiss8) == []
    rnd.refresh_from_db()
    assert hall.round_clock(rnd) is None


def _accounts(t):
    ids = set()
    for a, b in t.entries.values_list("player_a_id", "player_b_id"):
        ids |= {a, b}
    return set(Player.objects.filter(pk__in=ids, user__isnull=False).values_list("user_id", flat=True))


def test_an_announcement_reaches_every_player_once_in_his_language(
    swiss8, organiser, django_capture_on_commit_callbacks
):
    users = _accounts(swiss8)
    assert len(users) == 16
    russian = Player.objects.get(user_id=min(users)).user
    russian.language = "ru"
    russian.save(update_fields=["language"])
    with django_capture_on_commit_callbacks(execute=True):
        note = services.post_announcement(actor=organiser, tournament=swiss8, text="  Обед   в 13:00 ")
    assert note.text == "Обед в 13:00"
    notes = Notification.objects.filter(kind="tournament.announcement")
    assert sorted(notes.values_list("user_id", flat=True)) == sorted(users)
    assert notes.get(user_id=max(users)).text == f"From the organiser of {swiss8.name}: Обед в 13:00"
    assert notes.get(user_id=min(users)).text == f"От организатора турнира «{swiss8.name}»: Обед в 13:00"
    # the same notice is never sent twice, even if the sending ran again
    services.hall.notify(
        russian, kind="tournament.announcement",
        text=lambda: "again", key=f"announcement-{note.pk}",
    )
    assert notes.count() == 16
    assert AuditEntry.objects.filter(action="announcement.post", tournament_id=swiss8.pk).count() == 1
    assert hall.latest_announcement(tournament=swiss8) == note


def test_an_announcement_goes_to_withdrawn_pairs_no_more(swiss8, organiser):
    entry = swiss8.entries.order_by("pk").first()
    services.withdraw_entry(actor=organiser, entry=entry)
    services.post_announcement(actor=organiser, tournament=swiss8, text="Перерыв")
    told = set(Notification.objects.filter(kind="tournament.announcement").values_list("user_id", flat=True))
    assert entry.player_a.user_id not in told and len(told) == 14


@pytest.mark.parametrize("who", ["member", "outsider"])
def test_only_organisers_post_announcements(swiss8, who, request):
    with pytest.raises(PermissionDenied):
        services.post_announcement(actor=request.getfixturevalue(who), tournament=swiss8, text="Всем домой")
    assert not Announcement.objects.exists() and not Notification.objects.exists()


@pytest.mark.parametrize("text", ["", "   ", "я" * 281])
def test_an_empty_or_too_long_announcement_is_refused(swiss8, organiser, text):
    with pytest.raises(ValidationError):
        services.post_announcement(actor=organiser, tournament=swiss8, text=text)
    assert not Announcement.objects.exists()


def test_a_withdrawn_announcement_leaves_the_wall(swiss8, organiser):
    first = services.post_announcement(actor=organiser, tournament=swiss8, text="Первое")
    second = services.post_announcement(actor=organiser, tournament=swiss8, text="Второе")
    assert hall.latest_announcement(tournament=swiss8) == second
    services.withdraw_announcement(actor=organiser, announcement=second)
    assert hall.latest_announcement(tournament=swiss8) == first
    assert AuditEntry.objects.filter(action="announcement.withdraw").count() == 1


def test_pinning_a_view_stops_the_cycle(swiss8, organiser, member):
    assert hall.hall_screen(tournament=swiss8).views == ["tables", "names", "standings", "results"]
    services.pin_hall_view(actor=organiser, tournament=swiss8, view="standings")
    swiss8.refresh_from_db()
    screen = hall.hall_screen(tournament=swiss8)
    assert screen.views == ["standings"] and screen.pinned == "standings"
    with pytest.raises(ValidationError):
        services.pin_hall_view(actor=organiser, tournament=swiss8, view="bingo")
    with pytest.raises(PermissionDenied):
        services.pin_hall_view(actor=member, tournament=swiss8, view="")
    swiss8.refresh_from_db()
    assert swiss8.hall_view == "standings"


def test_the_hall_lists_every_player_by_name_with_his_table(swiss8, organiser):
    rnd = _paired(swiss8, organiser, started_minutes_ago=0)
    screen = hall.hall_screen(tournament=swiss8)
    assert len(screen.tables) == 4 and len(screen.names) == 16
    assert [n.name.casefold() for n in screen.names] == sorted(n.name.casefold() for n in screen.names)
    m = rnd.matches.get(table=3)
    assert {n.name for n in screen.names if n.table == 3} == {
        m.home.player_a.display_name, m.home.player_b.display_name,
        m.away.player_a.display_name, m.away.player_b.display_name,
    }
