"""QR codes on the printed sheets: each half of a score sheet opens the match's page with that
half's PIN in the fragment (never the query), and carries no other PIN; the pairing print-out's
code opens the tournament's page."""

import pytest
from django.urls import reverse

from tournaments.models import Match
from tournaments.templatetags.sheet_codes import pin_link, qr_svg

pytestmark = pytest.mark.django_db


def test_the_pin_goes_in_the_fragment_never_the_query():
    link = pin_link("https://bilka.kz/t/cup/matches/7/", "0731")
    assert link == "https://bilka.kz/t/cup/matches/7/#pin=0731"
    assert "?" not in link
    assert (
        pin_link("https://bilka.kz/t/cup/matches/7/#old", "0846")
        == "https://bilka.kz/t/cup/matches/7/#pin=0846"
    )


def test_a_qr_code_is_an_inline_vector_picture():
    svg = qr_svg("https://bilka.kz/t/cup/")
    assert svg.startswith("<svg") and 'class="qr-code"' in svg and "viewBox" in svg
    assert "<image" not in svg and "width=" not in svg.split(">", 1)[0]  # scales with the print


def _halves(page: str, match: Match) -> list[str]:
    sheet = next(s for s in page.split('<article class="sheet">')[1:] if f"/matches/{match.pk}/" in s)
    halves = sheet.split('class="sheet-half"')
    assert len(halves) == 3
    return halves[1:]


def test_each_half_of_the_sheet_carries_a_code_with_its_own_pin_only(client, organiser, cup_match):
    Match.objects.filter(pk=cup_match.pk).update(home_pin="0731", away_pin="0846")
    client.force_login(organiser)
    page = client.get(
        reverse("tournaments:print_sheets", args=[cup_match.tournament.slug, 1])
    ).content.decode()
    url = "http://testserver" + cup_match.get_absolute_url()
    home_code, away_code = qr_svg(pin_link(url, "0731")), qr_svg(pin_link(url, "0846"))
    assert home_code != away_code
    home_half, away_half = _halves(page, cup_match)
    assert home_code in home_half and away_code not in home_half and "0846" not in home_half
    assert away_code in away_half and home_code not in away_half and "0731" not in away_half
    assert page.count(home_code) == 1 and page.count(away_code) == 1
    assert "pin=" not in page.replace("#pin=", "")  # and no PIN in an address's query


def test_the_match_page_reads_the_pin_from_the_fragment(client, cup_match):
    page = client.get(cup_match.get_absolute_url()).content.decode()
    assert "tournaments/pin_from_link.js" in page


def test_the_pairing_print_out_has_a_code_for_the_tournaments_page(client, cup_match):
    t = cup_match.tournament
    page = client.get(reverse("tournaments:print_pairings", args=[t.slug, 1])).content.decode()
    assert qr_svg("http://testserver" + t.get_absolute_url()) in page
