"""Ratings people can read: the chart's time axis (labels that never overlap, the finest calendar
step that fits, one point per match at its time), the changes list, the casual table's chances
before play from the function learning the match applies, and words that say what happened."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from archive import services as archive_services
from gameplay import services as table_services
from gameplay.engine import Rules, write_record
from gameplay.engine.cards import PAIRS
from gameplay.engine.selfplay import bot_match
from gameplay.models import Seating, Table
from ratings import charts
from ratings import selectors as rating_selectors
from ratings.models import RatingChange
from ratings.services import recompute as ratings
from tests.tournaments.conftest import player_with_account

pytestmark = pytest.mark.django_db


def _point(at, rating=1500.0):
    return charts.ChartPoint(at, rating, 60.0, "/archive/1/", "a match")


def _x_labels(chart) -> list[tuple[float, str]]:
    return [(t.pos, t.label) for t in chart.x_ticks]


def _never_overlap(chart) -> None:
    for (a, la), (b, lb) in zip(_x_labels(chart), _x_labels(chart)[1:], strict=False):
        assert b - a >= (charts.CHAR * (len(la) + len(lb))) / 2, (la, lb)


@pytest.mark.parametrize("language", ["en", "ru", "uk", "kk"])
def test_one_evening_reads_hours_under_the_days_date(language):
    start = timezone.make_aware(datetime.datetime(2026, 12, 5, 18, 0))
    points = [_point(start + datetime.timedelta(minutes=40 * i), 1500 + i) for i in range(6)]
    with translation.override(language):
        chart = charts.draw(points)
        labels = [label for _pos, label in _x_labels(chart)]
        assert all(re.fullmatch(r"\d\d:\d\d", label) for label in labels) and len(labels) >= 2
        assert len(set(labels)) == len(labels)  # never the same date under every point
        assert "2026" in chart.axis_title
    _never_overlap(chart)
    assert (
        len(chart.dots) == 6 and len({x for x, _y, _p in chart.dots}) == 6
    )  # one point per match, at its time


@pytest.mark.parametrize("days,expect", [(20, r"\d{1,2} \w+"), (120, r"\w+\.?"), (1500, r"\d{4}|\w+\.?")])
def test_longer_spans_read_days_months_or_years_and_never_overlap(days, expect):
    start = timezone.make_aware(datetime.datetime(2024, 3, 1, 12, 0))
    points = [_point(start + datetime.timedelta(days=days * i / 30), 1500 + (i % 7) * 5) for i in range(31)]
    with translation.override("ru"):
        chart = charts.draw(points)
    labels = [label for _pos, label in _x_labels(chart)]
    assert 2 <= len(labels) <= 8 and all(re.fullmatch(expect, label) for label in labels), labels
    assert len(set(labels)) == len(labels), labels  # months of several years: each January says its year
    _never_overlap(chart)


def test_the_svg_keeps_dots_for_numbers_in_every_language(client):
    """Coordinates are numbers for the browser, not for the reader: "123,4" in Russian breaks the picture."""
    me = player_with_account_for_chart()
    page = client.get(reverse("archive:player", args=[me.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    svg = page[page.index("<svg") : page.index("</svg>")]
    assert re.search(r'cx="\d+(\.\d+)?"', svg)
    assert not re.search(r'(cx|cy|x|y|x1|x2|y1|y2)="[\d.]*,', svg)
    assert not re.search(r'points="[^"]*\d,\d+,\d', svg)  # "x,y x,y": never a decimal comma inside


def player_with_account_for_chart():
    from clubs.models import Club

    club = Club.objects.create(name="Карта", slug="karta")
    four = [player_with_account(club, f"p{i}") for i in range(4)]
    for i in range(3):
        _archive(four, seed=40 + i, when=timezone.now() - datetime.timedelta(days=3 - i))
    ratings.recompute()
    return four[0]


def _archive(four, *, seed, when, **extra):
    state = bot_match(Rules(), seed=seed)
    ns, ew = state.capped_score
    return archive_services.archive_match(
        played=archive_services.PlayedMatch(
            source="table",
            seats=[
                archive_services.SeatIn(seat=i, name=p.display_name, player_id=p.pk, user_id=p.user_id)
                for i, p in enumerate(four)
            ],
            rules={},
            played_at=when,
            ns_eyes=ns,
            ew_eyes=ew,
            winner=PAIRS[state.winner],
            reason="eyes",
            record=write_record(state),
            rated=True,
            **extra,
        )
    )


def test_the_changes_list_names_date_event_partner_opponents_score_and_change(client):
    me = player_with_account_for_chart()
    lines = rating_selectors.change_lines(me.pk, viewer=None)
    page = client.get(reverse("archive:player", args=[me.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    newest = lines[0]
    item = page[page.index('class="rc-change"') :]
    item = item[: item.index("</li>")]
    assert f"/archive/{newest.match_id}/" in item  # the date links to the match
    assert "casual match" in item
    assert (
        f'partner</span> <a href="/archive/players/{newest.partner.player_id}/">{newest.partner.name}</a>'
        in item
    )
    for o in newest.opponents:
        assert f'/archive/players/{o.player_id}/">{o.name}</a>' in item
    assert f"{newest.score[0]}:{newest.score[1]}" in item
    assert charts.signed(newest.change) in item and ("won" in item) == newest.won


def _seated_table(four, *, rated=True) -> Table:
    table = table_services.create_table(
        rules={}, seating=Seating.IN_ORDER, user=four[0].user, public=True, rated=rated
    )
    for p in four[1:]:
        table_services.sit(table_id=table.pk, user=p.user)
    return Table.objects.get(pk=table.pk)


def test_a_casual_rated_table_shows_each_sides_chance_and_moves_before_play(client):
    me = player_with_account_for_chart()  # the four have played three rated casual matches together
    four = [me] + [
        p for p in type(me).objects.filter(user__username__in=("p1", "p2", "p3")).order_by("display_name")
    ]
    table = _seated_table(four)
    odds = rating_selectors.table_odds(table)
    p = odds.prediction
    assert p is not None and abs(p.weight - 1 / 4) < 1e-9  # the farming guard: the fourth time in 30 days
    client.force_login(me.user)
    page = client.get(reverse("gameplay:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"{p.home_percent}%" in page and f"{p.away_percent}%" in page
    for s in (*p.home, *p.away):
        win = f"+{round(s.win)}" + (f"…{round(s.win_big)}" if s.win_range else "")
        loss = f"−{abs(round(s.loss))}" + (f"…{abs(round(s.loss_big))}" if s.loss_range else "")
        assert f'>{win}</span> / <span class="loss" title="a loss 11:12 … 0:12">{loss}</span>' in page
    assert "counts ×0.25" in page
    # what learning the match applies: the weight the recompute gives it once it is played
    played = _archive(four, seed=77, when=timezone.now())
    ratings.recompute()
    assert {c.weight for c in RatingChange.objects.filter(match=played)} == {p.weight}


def test_a_table_with_a_bot_says_it_will_not_be_rated(client):
    from clubs.models import Club

    club = Club.objects.create(name="Бот", slug="bot")
    three = [player_with_account(club, f"b{i}") for i in range(3)]
    table = table_services.create_table(
        rules={}, seating=Seating.IN_ORDER, user=three[0].user, public=True, rated=True
    )
    for p in three[1:]:
        table_services.sit(table_id=table.pk, user=p.user)
    page = client.get(reverse("gameplay:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "once four players sit" in page
    table_services.fill_with_bots(table_id=table.pk, user=three[0].user)
    page = client.get(reverse("gameplay:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "will not change any rating" in page


def test_a_change_that_rounds_to_nothing_reads_as_nothing_not_as_a_gain():
    """A loss the rating kept where it was (the sign rule) is a change of 0: written "0", in neither
    colour, where it once read "+0" in the gain's green beside "lost"."""
    from ratings.templatetags.rating_tags import change_class, signed

    assert [signed(x) for x in (14.4, 0.4, 0.0, -0.4, -3.2)] == ["+14", "0", "0", "0", "−3"]
    assert [change_class(x) for x in (14.4, 0.4, 0.0, -0.4, -3.2)] == ["gain", "", "", "", "loss"]
