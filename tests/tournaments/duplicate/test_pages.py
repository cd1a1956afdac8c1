"""A duplicate event's pages: the boards, each board's traveller (hidden until every table played
it), the hand records the organisers print, and a table's board entry form."""

import pytest
from django.utils.html import escape

from gameplay.engine.boards import board_hands
from gameplay.engine.cards import mask_cards
from tournaments import services
from tournaments.models import BoardResult, Match

from .conftest import duplicate_event, tables

E = services.BoardEntry


@pytest.fixture
def mitchell(club, organiser):
    """Six pairs, Mitchell, two boards a round: three tables each playing its own set in round 1.
    Set 1 (boards 1-2) is played by every table over the three rounds."""
    event = duplicate_event(club, organiser, 6, movement="mitchell")
    services.pair_next_round(actor=organiser, tournament=event)
    event.refresh_from_db()
    return event


def _player_client(client, django_user_model, entry):
    user = django_user_model.objects.create_user(username=f"p{entry.pk}", password="x")
    entry.player_a.user = user
    entry.player_a.save()
    client.force_login(user)
    return client


def _section(client, url: str, name: str) -> str:
    """The page's section ``name`` (its id), where a board's numbers and names would be."""
    page = client.get(url).content.decode()
    assert f'id="{name}"' in page
    return page.split(f'id="{name}"')[1].split("</section>")[0]


def test_traveller_hidden_from_a_table_that_has_not_played_it(client, django_user_model, mitchell, organiser):
    first, *_ = tables(mitchell.rounds.get())
    assert first.slot == 1
    services.enter_board_results(actor=organiser, match=first,
                                 entries=[E(1, ns_points=97), E(2, ns_points=33)])
    other = Match.objects.filter(tournament=mitchell, bye=False).exclude(pk=first.pk).first()
    viewer = _player_client(client, django_user_model, other.home)  # sits at a table still to play board 1
    url = f"/t/{mitchell.slug}/boards/1/"
    page = _section(viewer, url, "traveller")
    assert "97" not in page and escape(first.home.name) not in page and "dealer" not in page
    assert 'class="hand' not in page and "shown once every table that plays it has played it" in page
    listing = _section(viewer, f"/t/{mitchell.slug}/boards/", "boards")
    assert "97" not in listing and "played at 1 of 3 tables" in listing
    viewer.logout()
    assert "97" not in _section(client, url, "traveller")
    client.force_login(organiser)
    page = _section(client, url, "traveller")
    assert "97" in page and escape(first.home.name) in page and "dealer N" in page


def test_traveller_shown_to_all_once_every_table_played_it(client, four, organiser):
    t1, t2 = tables(four.rounds.get())
    services.enter_board_results(actor=organiser, match=t1, entries=[E(1, ns_points=97), E(2, ns_points=33)])
    assert "97" not in _section(client, f"/t/{four.slug}/boards/1/", "traveller")
    services.enter_board_results(actor=organiser, match=t2, entries=[E(1, ns_points=44), E(2, ns_points=33)])
    page = _section(client, f"/t/{four.slug}/boards/1/", "traveller")
    assert "97" in page and "44" in page and escape(t1.home.name) in page and "dealer N" in page
    assert page.count('class="hand ') == 4 and "100" in page


def test_hand_records_only_for_the_events_organisers(client, four, organiser, outsider, member):
    url = f"/t/{four.slug}/boards/print/"
    assert client.get(url).status_code == 302  # to sign in
    for user in (outsider, member):
        client.force_login(user)
        assert client.get(url).status_code == 403
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert page.count('class="hand-record"') == 6  # three rounds of two boards
    assert "8 cards each, 32 in all" in page and "dealer W" in page
    cards = page.split('id="pair-cards"')[1]
    assert cards.count('class="pair-card"') == 4  # each pair's card of the movement
    assert "Round 1: table 1, NS, boards 1–2, against pair 4" in cards
    assert "Round 3: table 2, EW, boards 5–6, against pair" in cards
    assert "Print the hand records" in client.get(f"/t/{four.slug}/boards/").content.decode()
    assert url in client.get(f"/t/{four.slug}/day/").content.decode()


def test_hand_records_hold_every_card_once_per_board(client, four, organiser):
    client.force_login(organiser)
    page = client.get(f"/t/{four.slug}/boards/print/").content.decode()
    record = page.split('id="record-1"')[1].split("</section>")[0]
    assert record.count("<p class=\"hand-line\">") == 4 * 4 + sum(
        1 for h in board_hands(bytes.fromhex(four.board_seed), 1) if any(c % 9 == 5 for c in mask_cards(h)))


def test_board_entry_form_by_the_organiser(client, four, organiser):
    t1 = tables(four.rounds.get())[0]
    client.force_login(organiser)
    url = f"/t/{four.slug}/matches/{t1.pk}/boards/"
    assert client.get(f"/t/{four.slug}/matches/{t1.pk}/").url == url
    response = client.post(url, {"ns_1": "70", "ns_2": "121"})
    assert "from 0 to 120, not 121" in response.content.decode()
    assert not BoardResult.objects.exists()
    client.post(url, {"ns_1": "70", "ns_2": "", "nsadj_2": "plus", "ewadj_2": "minus"})
    assert BoardResult.objects.get(board=1).ns_points == 70
    assert BoardResult.objects.get(board=2).ns_adjusted == "plus"


def test_board_entry_form_by_the_table_with_pins(client, four):
    t1 = tables(four.rounds.get())[0]
    url = f"/t/{four.slug}/matches/{t1.pk}/boards/"
    page = client.get(url).content.decode()
    assert "NS pair&#x27;s PIN" in page or "NS pair's PIN" in page
    bad = client.post(url, {"ns_1": "70", "home_pin": t1.home_pin, "away_pin": "x"}).content.decode()
    assert "Wrong PIN" in bad and not BoardResult.objects.exists()
    client.post(url, {"ns_1": "70", "home_pin": t1.home_pin, "away_pin": t1.away_pin})
    pins = {"home_pin": t1.home_pin, "away_pin": t1.away_pin}
    again = client.post(url, {"ns_1": "10", **pins}).content.decode()
    assert "already has a result" in again and BoardResult.objects.get().ns_points == 70
    shown = _section(client, url, "board-entry")
    assert 'value="70"' not in shown and "Boards with a result: 1" in shown  # no values to the table


def test_boards_pages_404_for_other_formats(client, cup):
    assert client.get(f"/t/{cup.slug}/boards/").status_code == 404
    assert client.get(f"/t/{cup.slug}/boards/1/").status_code == 404


def test_a_played_duplicate_round_prints_one_score_sheet_per_table(client, four, organiser):
    """A duplicate round's matches are confirmed by their boards, with no eyes of their own: the
    organiser's score sheets with PINs print one a table (they once failed reading a series in them)."""
    rnd = four.rounds.get()
    t1, t2 = tables(rnd)
    E = services.BoardEntry
    services.enter_board_results(actor=organiser, match=t1, entries=[E(1, ns_points=70), E(2, ns_points=60)])
    t1.refresh_from_db()
    assert t1.home_eyes is None and t1.status == "confirmed"
    client.force_login(organiser)
    page = client.get(f"/t/{four.slug}/rounds/{rnd.number}/sheets/")
    assert page.status_code == 200
    text = page.content.decode()
    assert t1.home_pin in text and t2.home_pin in text
