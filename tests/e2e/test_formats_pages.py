"""The pages of individual events and brackets on a 360-px phone: an individual event's players, seated
round and standings; a double-elimination bracket; groups then playoff. Each page must not scroll
sideways; the screenshots go to var/screenshots/formats-*.png for a person to look at."""

import datetime

import pytest
from playwright.sync_api import sync_playwright

from clubs.models import ClubPlayer, Membership, Role
from tests.clubs.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Match, MatchStatus

from .conftest import CHROMIUM_ARGS, PHONE, sideways_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Асель Жумабаева", "Олег Ткаченко", "Иван Петров", "Нурлан Ахметов", "Жанар Сейткали",
    "Мария Коваленко", "Ерлан Дюсенов", "Айгерим Садыкова", "Виктор Ким", "Гульнара Омарова",
    "Сергей Бондаренко",
]  # fmt: skip


def _play(t, organiser, rounds):
    for _ in range(rounds):
        rnd = services.pair_next_round(actor=organiser, tournament=t)
        for m in Match.objects.filter(round=rnd, bye=False, status=MatchStatus.SCHEDULED):
            services.enter_result(actor=organiser, match=m, home_eyes=12, away_eyes=5 + m.table % 6)


def _setup():
    club = ClubFactory(name="Успенка", slug="uspenka")
    organiser = UserFactory(username="zhanar")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    players = []
    for name in NAMES:
        p = PlayerFactory(display_name=name)
        ClubPlayer.objects.create(club=club, player=p, added_as=name)
        players.append(p)
    day = datetime.date(2026, 12, 5)
    ind = services.create_tournament(
        actor=organiser,
        club=club,
        name="Индивидуальный турнир",
        starts_on=day,
        format="ind_swiss",
        swiss_rounds=3,
    )
    for p in players:
        services.register_player(actor=organiser, tournament=ind, player=p)
    _play(ind, organiser, 2)
    services.pair_next_round(actor=organiser, tournament=ind)
    de = services.create_tournament(
        actor=organiser,
        club=club,
        name="Двойное выбывание",
        starts_on=day,
        format="double_elim",
        seeding="manual",
    )
    gp = services.create_tournament(
        actor=organiser, club=club, name="Группы и плей-офф", starts_on=day, format="groups_playoff",
        seeding="manual", group_count=2, group_qualifiers=2,
    )  # fmt: skip
    for t, count in ((de, 5), (gp, 5)):
        for i in range(count):
            services.register_entry(
                actor=organiser, tournament=t, player_a=players[2 * i], player_b=players[2 * i + 1]
            )
        while True:
            t.refresh_from_db()
            if t.status == "finished":
                break
            _play(t, organiser, 1)
    return ind, de, gp


def _no_horizontal_scroll(page) -> None:
    overflow = sideways_overflow(page)
    assert overflow <= 0, f"{page.url} scrolls sideways by {overflow}px"


def test_format_pages_on_a_phone(live_server, chromium_path, screenshots_dir):
    ind, de, gp = _setup()
    base = live_server.url
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport=PHONE, locale="ru-RU")
            page = context.new_page()
            page.goto(f"{base}/accounts/login/")
            page.fill("input[name=login]", "zhanar")
            page.fill("input[name=password]", PASSWORD)
            page.locator("form.auth-form button[type=submit]").click()
            page.wait_for_url(f"{base}/")
            shots = [
                ("individual-players", f"/t/{ind.slug}/entries/"),
                ("individual-round", f"/t/{ind.slug}/rounds/3/"),
                ("individual-round-done", f"/t/{ind.slug}/rounds/1/"),
                ("individual-standings", f"/t/{ind.slug}/standings/"),
                ("individual-print", f"/t/{ind.slug}/rounds/3/print/"),
                ("double-elim-bracket", f"/t/{de.slug}/bracket/"),
                ("groups-playoff", f"/t/{gp.slug}/bracket/"),
                ("groups-home", f"/t/{gp.slug}/"),
            ]
            for name, path in shots:
                page.goto(base + path)
                page.screenshot(path=screenshots_dir / f"formats-{name}.png", full_page=True)
                if "bracket" not in path:
                    _no_horizontal_scroll(page)
            # the organiser marks a no-show at table 1 from the phone (after the question): 12:0, a badge
            page.goto(f"{base}/t/{ind.slug}/rounds/3/")
            first_table = page.locator(".seated-table").first
            first_table.locator("details.no-show summary").click()
            first_table.locator("details.no-show a[data-confirm]").first.click()
            page.locator("dialog[open] button.button-danger").click()
            page.wait_for_load_state()
            assert page.locator(".seated-table").first.locator(".eyes").first.inner_text().strip() in (
                "12",
                "0",
            )
            assert Match.objects.get(tournament=ind, round__number=3, table=1).forfeit
            page.screenshot(path=screenshots_dir / "formats-individual-no-show.png", full_page=True)
        finally:
            browser.close()
