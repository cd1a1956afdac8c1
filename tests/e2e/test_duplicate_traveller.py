"""A board's traveller on a phone (360 px) and a wide screen (1280 px): every column on the screen
without sideways scroll (the page's or the table's own), the par with best play above it and each
table's gap from par; and the hall screen's running percentages. Screenshots go to
var/screenshots/duplicate-traveller-par-*.png and duplicate-hall-percentages-*.png."""

import pytest
from playwright.sync_api import expect, sync_playwright

from clubs.models import ClubPlayer, Membership, Role
from gameplay.engine.shuffle import commitment_of
from tests.clubs.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import BoardPar, BoardResult, Match

from .conftest import CHROMIUM_ARGS, PHONE, sideways_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 900}
SEED = bytes(range(32))  # board 6 of two-board sets: par NS 96, worked out in about a second
NAMES = ["Константин Константинопольский", "Александра Верхнеднепровская", "Айгерим Жұмабаева",
         "Нұрлан Сейтқалиев", "Оксана Ткаченко", "Тимур Омаров", "Дина Бекова", "Ержан Ахметов",
         "Мария Петрова", "Иван Кузнецов", "Әсел Нұрланова", "Олег Ким"]
E = services.BoardEntry


def _event():
    """Six pairs, Mitchell, two boards a round, every round played: each board at three tables."""
    club = ClubFactory(name="Успенка", slug="uspenka")
    organiser = UserFactory(username="zhanar")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    t = services.create_tournament(actor=organiser, club=club, name="Дубль в Успенке", format="duplicate",
                                   movement="mitchell", boards_per_round=2, seeding="manual")
    players = []
    for name in NAMES:
        p = PlayerFactory(display_name=name)
        ClubPlayer.objects.create(club=club, player=p, added_as=name)
        players.append(p)
    for i in range(6):
        services.register_entry(actor=organiser, tournament=t, player_a=players[2 * i],
                                player_b=players[2 * i + 1])
    points = iter([97, 33, 44, 61, 70, 58, 12, 120, 85, 66, 49, 90, 0, 73, 64, 55, 38, 81])
    for _round in range(3):
        rnd = services.pair_next_round(actor=organiser, tournament=t)
        for m in Match.objects.filter(round=rnd, bye=False).order_by("table"):
            first = (m.slot - 1) * 2 + 1
            if _round == 2 and m.slot == 3:  # board 6 could not be played at one table: adjusted
                entries = [E(first, ns_points=next(points)),
                           E(first + 1, ns_adjusted="plus", ew_adjusted="minus")]
            else:
                entries = [E(first, ns_points=next(points)), E(first + 1, ns_points=next(points))]
            services.enter_board_results(actor=organiser, match=m, entries=entries)
    t.refresh_from_db()
    t.board_seed, t.board_commitment = SEED.hex(), commitment_of(SEED)
    t.save(update_fields=["board_seed", "board_commitment"])
    services.compute_board_par(tournament_id=t.pk, board=6)
    return t


def _fits(page, width: int) -> None:
    assert sideways_overflow(page) <= 0, f"{page.url} scrolls sideways"
    table = page.locator("#traveller table")
    box = table.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    # the table itself is not a scrolling box wider than the screen either
    inner = table.evaluate("t => t.scrollWidth - t.clientWidth")
    assert inner <= 0
    for cell in table.locator("tbody td").all():
        right = cell.bounding_box()
        assert right["x"] + right["width"] <= width + 0.5, cell.inner_text()


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["360", "1280"])
def test_traveller_with_par_fits_the_screen(live_server, chromium_path, screenshots_dir, viewport):
    t = _event()
    assert BoardResult.objects.filter(match__tournament=t, board=6, ns_points__isnull=True).count() == 1
    par = BoardPar.objects.get(tournament=t, board=6).ns_points
    w = viewport["width"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=viewport, locale="ru-RU")
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/t/{t.slug}/boards/6/")
            expect(page.locator("#board-par")).to_contain_text(f"С–Ю {par}")
            expect(page.locator("#traveller tbody tr")).to_have_count(3)
            played = BoardResult.objects.filter(match__tournament=t, board=6, ns_points__isnull=False).count()
            expect(page.locator("#traveller .par-gap")).to_have_count(played)  # an adjusted table has none
            _fits(page, w)
            page.screenshot(path=screenshots_dir / f"duplicate-traveller-par-{w}.png", full_page=True)
            page.goto(f"{live_server.url}/t/{t.slug}/boards/5/")
            expect(page.locator("#board-par")).to_contain_text("вычисляется")
            _fits(page, w)
            if w == WIDE["width"]:
                page.goto(f"{live_server.url}/t/{t.slug}/hall/")
                page.wait_for_load_state()
                page.evaluate("document.querySelectorAll('.hall-view')"
                              ".forEach(v => v.classList.remove('is-shown'));"
                              "document.getElementById('hall-standings').classList.add('is-shown')")
                expect(page.locator(".hall-percentages li")).to_have_count(6)
                page.screenshot(path=screenshots_dir / "duplicate-hall-percentages-1280.png")
        finally:
            context.close()
            browser.close()
