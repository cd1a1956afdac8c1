"""Printed pages of a whole event: the tournament report, the crosstable on A4 and the score sheets
of whole best-of series, read as the organiser, a member and a visitor would."""

import datetime
import html as markup
import re
from types import SimpleNamespace

import pytest
from django.urls import reverse

from clubs.models import ClubPlayer
from tests.clubs.factories import PASSWORD, PlayerFactory
from tournaments import services
from tournaments.models import Match, MatchStatus
from tournaments.selectors.prints import crosstable_parts

from .conftest import play_round

pytestmark = pytest.mark.django_db

KAZAKH = [
    "Әсел Құрманғали",
    "Ұлжан Өтебаева",
    "Ғалым Үсенов",
    "Іңкәр Һадиева",
    "Нұрлан Қожахметов",
    "Айгүл Ыбырай",
    "Ерлан Ңұрғали",
    "Дәурен Сәрсенбаев",
    "Жанар Төлегенова",
    "Бауыржан Шәкен",
]


def _login(client, user):
    assert client.login(username=user.username, password=PASSWORD)


def _event(club, organiser, fmt="swiss", pairs=5, **kw):
    t = services.create_tournament(
        actor=organiser, club=club, name="Жүлде кубогы", starts_on=datetime.date(2026, 12, 5),
        venue="Үшқоңыр ауылы", format=fmt, seeding="manual", prizes=["Қой", "Шапан", "Торт"], **kw,
    )  # fmt: skip
    players = [PlayerFactory(display_name=name) for name in KAZAKH[: 2 * pairs]]
    for p in players:
        ClubPlayer.objects.create(club=club, player=p, added_as=p.display_name)
    entries = [
        services.register_entry(
            actor=organiser, tournament=t, player_a=players[2 * i], player_b=players[2 * i + 1]
        )
        for i in range(pairs)
    ]
    return t, entries


@pytest.fixture
def swiss(club, organiser):
    """A three-round Swiss of five Kazakh pairs (a bye each round): a pair withdrawn after round 1,
    a confirmed result corrected with a reason, a forfeit given with its own."""
    t, entries = _event(club, organiser, swiss_rounds=3)
    play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    services.withdraw_entry(actor=organiser, entry=entries[4])
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    play_round(rnd, organiser)
    first = Match.objects.filter(tournament=t, round__number=1, bye=False).order_by("table").first()
    services.correct_result(actor=organiser, match=first, home_eyes=6, away_eyes=12,
                            reason="Протокол қайта есептелді: 3-ші кон дұрыс жазылмаған")  # fmt: skip
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    played = Match.objects.filter(round=rnd, bye=False).order_by("table")
    play_round(rnd, organiser)
    last = played.last()
    services.record_forfeit(actor=organiser, match=last, loser=last.home, reason="Жұп келмеді")
    t.refresh_from_db()
    return t, entries


def test_the_report_shows_every_result_the_withdrawn_the_prizes_and_each_correction_with_its_reason(
    client, organiser, swiss
):
    t, entries = swiss
    _login(client, organiser)
    response = client.get(reverse("tournaments:print_report", args=[t.slug]))
    assert response.status_code == 200
    html = markup.unescape(response.content.decode())
    for e in entries:
        assert e.name in html
    withdrawn = entries[4].name
    assert re.search(re.escape(withdrawn) + r" <em>\(withdrawn\)</em>", html)
    assert "Үшқоңыр ауылы" in html and "Swiss" in html
    for m in Match.objects.filter(tournament=t).select_related(
        "round", "home__player_a", "home__player_b", "away__player_a", "away__player_b"
    ):
        table = rf'<table class="print-table report-round" data-round="{m.round.number}">(.*?)</table>'
        row = re.search(table, html, re.S).group(1)
        if m.bye:
            assert re.search(
                re.escape(m.home.name) + r"</td>\s*<td class=\"num\"></td>\s*<td class=\"name\">bye", row
            )
            continue
        cells = (
            rf"{re.escape(m.home.name)}</td>\s*<td class=\"num\">{m.home_eyes}</td>\s*"
            rf"<td class=\"name[^\"]*\">{re.escape(m.away.name)}</td>\s*<td class=\"num\">{m.away_eyes}</td>"
        )
        assert re.search(cells, row), (m.round.number, m.table)
    forfeited = Match.objects.get(tournament=t, forfeit=True)
    assert forfeited.away_eyes == 12
    assert re.search(
        rf'{re.escape(forfeited.away.name)}</td>\s*<td class="num">12</td>\s*<td class="note">forfeit', html
    )
    corrections = html.split('id="report-corrections"')[1]
    assert "Протокол қайта есептелді: 3-ші кон дұрыс жазылмаған" in corrections
    assert "Жұп келмеді" in corrections
    assert "12:7 → 6:12" in corrections  # the score before and after
    prizes = html.split('id="report-prizes"')[1].split("</section>")[0]
    assert "Қой" in prizes and "Шапан" in prizes
    standings = html.split('id="report-standings"')[1].split("</section>")[0]
    assert "Buchholz" in standings or "Bh" in standings


def test_a_correction_of_a_result_not_yet_confirmed_is_no_correction_of_a_confirmed_one(
    client, organiser, club
):
    t, _entries = _event(club, organiser, pairs=4, swiss_rounds=2)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    m = rnd.matches.filter(bye=False).first()
    services.enter_result(actor=m.home and organiser, match=m, home_eyes=12, away_eyes=3,
                          pin=m.away_pin)  # fmt: skip
    _login(client, organiser)
    html = markup.unescape(client.get(reverse("tournaments:print_report", args=[t.slug])).content.decode())
    assert "No confirmed result was corrected." in html
    assert "not final: the tournament is still running" in html


@pytest.mark.parametrize("who", ["member", None])
def test_only_the_organisers_open_the_report(client, swiss, member, who):
    t, _ = swiss
    url = reverse("tournaments:print_report", args=[t.slug])
    if who:
        _login(client, member)
        assert client.get(url).status_code == 403
    else:
        response = client.get(url)
        assert response.status_code == 302 and "login" in response["Location"]


def test_the_crosstable_print_is_public_marks_the_withdrawn_and_is_linked_from_the_crosstable(client, swiss):
    t, entries = swiss
    url = reverse("tournaments:print_crosstable", args=[t.slug])
    assert url in markup.unescape(
        client.get(reverse("tournaments:crosstable", args=[t.slug])).content.decode()
    )
    html = markup.unescape(client.get(url).content.decode())
    for e in entries:
        assert e.name in html
    assert re.search(re.escape(entries[4].name) + r" <em>\(withdrawn\)</em>", html)
    assert "print-landscape" not in html  # a Swiss's rounds fit in portrait


def test_a_knockout_has_no_crosstable_to_print(client, club, organiser):
    t, _ = _event(club, organiser, fmt="single_elim", pairs=4)
    assert client.get(reverse("tournaments:print_crosstable", args=[t.slug])).status_code == 404


def test_a_big_all_play_all_grid_prints_as_tables_of_twenty_opponents_each_with_every_row():
    lines = [SimpleNamespace(name=f"pair {i}") for i in range(1, 46)]
    grid = SimpleNamespace(
        entries=lines, rows=[(line, [[f"{i}:{j}"] for j in range(45)]) for i, line in enumerate(lines)]
    )
    parts = crosstable_parts(grid)
    assert [(p.numbers[0], p.numbers[-1], p.last) for p in parts] == [
        (1, 15, False),
        (16, 30, False),
        (31, 45, True),
    ]
    assert all(len(p.rows) == 45 for p in parts)
    number, line, cells = parts[1].rows[24]  # row 25 in the second table: its own cell is column 25
    assert number == 25 and [own for own, _ in cells].index(True) == 9
    assert cells[0] == (False, ["24:15"])
    assert [
        len(p.numbers) for p in crosstable_parts(SimpleNamespace(entries=lines[:20], rows=grid.rows[:20]))
    ] == [20]


def test_the_report_and_the_crosstable_print_are_linked_from_the_dashboard(client, organiser, swiss):
    t, _ = swiss
    _login(client, organiser)
    html = markup.unescape(client.get(reverse("tournaments:dashboard", args=[t.slug])).content.decode())
    assert reverse("tournaments:print_report", args=[t.slug]) in html
    assert reverse("tournaments:print_crosstable", args=[t.slug]) in html


@pytest.fixture
def cup(club, organiser):
    """A knockout of four pairs played over best of 3, round 1 paired, nothing played."""
    t, _ = _event(club, organiser, fmt="single_elim", pairs=4, best_of=3)
    return t, services.pair_next_round(actor=organiser, tournament=t)


def _sheets(client, organiser, t, rnd) -> str:
    _login(client, organiser)
    response = client.get(reverse("tournaments:print_sheets", args=[t.slug, rnd.number]))
    assert response.status_code == 200
    return markup.unescape(response.content.decode())


def test_a_best_of_three_round_prints_every_match_of_each_tie_before_the_first(client, organiser, cup):
    t, rnd = cup
    ties = list(rnd.matches.filter(bye=False).order_by("table"))
    assert len(ties) == 2 and all(m.game == 1 for m in ties)
    html = _sheets(client, organiser, t, rnd)
    assert html.count('<article class="sheet') == 6
    for n in (1, 2, 3):
        assert html.count(f"match {n} of 3") == 2
    assert html.count("Only if needed") == 2  # the third match: a tie may end 2:0
    for m in ties:
        pins = re.findall(rf'data-sheet-table="{m.table}".*?</article>', html, re.S)
        assert len(pins) == 3
        for sheet in pins:  # every match of the tie carries the pairs' own PINs
            assert f'<span class="pin">{m.home_pin}</span>' in sheet
            assert f'<span class="pin">{m.away_pin}</span>' in sheet
        assert pins[0].count("qr-code") == 2 and "qr-code" not in pins[1]  # no match yet, no match page


def test_the_next_match_of_a_tie_keeps_the_printed_pins(organiser, cup):
    _t, rnd = cup
    first = rnd.matches.filter(bye=False).order_by("table").first()
    services.enter_result(actor=organiser, match=first, home_eyes=12, away_eyes=5)
    second = Match.objects.get(round=rnd, table=first.table, slot=first.slot, game=2)
    assert (second.home_pin, second.away_pin) == (first.home_pin, first.away_pin)
    assert second.status == MatchStatus.SCHEDULED


def test_a_tie_decided_early_prints_only_the_matches_it_played(client, organiser, cup):
    t, rnd = cup
    first = rnd.matches.filter(bye=False).order_by("table").first()
    for game in (1, 2):
        m = Match.objects.get(round=rnd, slot=first.slot, game=game)
        services.enter_result(actor=organiser, match=m, home_eyes=12, away_eyes=4)
    html = _sheets(client, organiser, t, rnd)
    assert len(re.findall(rf'data-sheet-table="{first.table}"', html)) == 2
    assert html.count('<article class="sheet') == 5
    assert html.count("Only if needed") == 1


def test_a_swiss_round_prints_one_sheet_per_table_as_before(client, organiser, club):
    t, _entries = _event(club, organiser, pairs=4, swiss_rounds=2)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    html = _sheets(client, organiser, t, rnd)
    assert html.count('<article class="sheet') == 2
    assert " of " not in re.sub(r"<[^>]+>", "", html.split("<article")[1].split("</h2>")[0])
