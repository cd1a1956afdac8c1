"""Pages that ask before they undo anything: the confirm page without JavaScript (a GET asks, the
POST does it), the dialog on the page, a player's ask to withdraw, and the dashboard's answers."""

from datetime import timedelta
from html import escape

import pytest
from django.urls import reverse
from django.utils import timezone

from tournaments import services
from tournaments.models import Match, MatchStatus, RequestStatus, Round, WithdrawalRequest

from ..conftest import play_round

pytestmark = pytest.mark.django_db


def _entries(t):
    return reverse("tournaments:entries", args=[t.slug])


def _dashboard(t):
    return reverse("tournaments:dashboard", args=[t.slug])


def test_the_organisers_withdraw_is_a_confirm_page_without_javascript(client, swiss8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    m = rnd.matches.get(table=1)
    services.enter_result(actor=m.away.player_a.user, match=m, home_eyes=9, away_eyes=12)
    pair = m.away
    url = reverse("tournaments:entry_action", args=[swiss8.slug, pair.pk, "withdraw"])
    client.force_login(organiser)
    page = client.get(_entries(swiss8)).content.decode()
    assert f'href="{url}"' in page and "<dialog" in page  # a link, enhanced by a dialog

    question = client.get(url)
    text = question.content.decode()
    assert question.status_code == 200
    assert f"Withdraw {escape(pair.name)}?" in text and "Results already reported stay exactly" in text
    assert f'<form method="post" action="{url}"' in text
    pair.refresh_from_db()
    assert pair.status == "approved"  # asking changed nothing

    client.post(url)
    pair.refresh_from_db()
    m.refresh_from_db()
    assert pair.status == "withdrawn"
    assert (m.home_eyes, m.away_eyes, m.status) == (9, 12, MatchStatus.UNCONFIRMED)


def test_the_withdraw_page_names_the_unplayed_match_it_forfeits(client, swiss8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    m = rnd.matches.get(table=2)
    client.force_login(organiser)
    text = client.get(reverse("tournaments:entry_action", args=[swiss8.slug, m.home.pk, "withdraw"])).content
    assert "Round 1, table 2" in text.decode() and "lost 0:12" in text.decode()


def test_a_player_asks_the_organiser_from_the_entries_page(client, swiss8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    m = rnd.matches.get(table=1)
    me = m.away.player_a.user
    client.force_login(me)
    page = client.get(_entries(swiss8)).content.decode()
    assert "Ask the organiser to withdraw us" in page and "Withdraw our pair" not in page
    response = client.post(
        reverse("tournaments:entry_action", args=[swiss8.slug, m.away.pk, "ask-withdraw"]), follow=True
    )
    assert "Your request is sent" in response.content.decode()
    assert "Asked the organiser to withdraw us" in response.content.decode()
    m.away.refresh_from_db()
    assert m.away.status == "approved"
    # the withdraw address tells a player to ask instead of showing him a question
    withdraw = reverse("tournaments:entry_action", args=[swiss8.slug, m.away.pk, "withdraw"])
    response = client.get(withdraw, follow=True)
    assert response.redirect_chain and "ask the organiser to withdraw you" in response.content.decode()
    # and a post to it refuses him too, and says what to do
    response = client.post(
        reverse("tournaments:entry_action", args=[swiss8.slug, m.away.pk, "withdraw"]), follow=True
    )
    assert "ask the organiser to withdraw you" in response.content.decode()
    m.away.refresh_from_db()
    assert m.away.status == "approved"


def test_the_organiser_grants_an_ask_from_the_dashboard_after_a_question(client, swiss8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    pair = rnd.matches.get(table=1).away
    ask = services.ask_to_withdraw(actor=pair.player_a.user, entry=pair)
    client.force_login(organiser)
    page = client.get(_dashboard(swiss8)).content.decode()
    grant = reverse("tournaments:withdrawal_answer", args=[swiss8.slug, ask.pk, "grant"])
    assert f"{escape(pair.name)} asks to withdraw" in page and f'href="{grant}"' in page
    assert "Withdraw" in client.get(grant).content.decode()
    pair.refresh_from_db()
    assert pair.status == "approved"
    response = client.post(grant, follow=True)
    assert f"{escape(pair.name)} is withdrawn." in response.content.decode()
    pair.refresh_from_db()
    assert pair.status == "withdrawn"
    assert WithdrawalRequest.objects.get(pk=ask.pk).status == RequestStatus.GRANTED


def test_the_organiser_declines_an_ask(client, swiss8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    pair = rnd.matches.get(table=1).away
    ask = services.ask_to_withdraw(actor=pair.player_a.user, entry=pair)
    client.force_login(organiser)
    decline = reverse("tournaments:withdrawal_answer", args=[swiss8.slug, ask.pk, "decline"])
    assert client.get(decline).status_code == 405
    client.post(decline)
    pair.refresh_from_db()
    assert pair.status == "approved"
    assert WithdrawalRequest.objects.get(pk=ask.pk).status == RequestStatus.DECLINED
    assert "asks to withdraw" not in client.get(_dashboard(swiss8)).content.decode()


def test_the_dashboard_lists_no_table_right_after_pairing(client, swiss8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    client.force_login(organiser)
    page = client.get(_dashboard(swiss8)).content.decode()
    assert "not started or stuck" not in page and "/forfeit/" not in page
    Round.objects.filter(pk=rnd.pk).update(created_at=timezone.now() - timedelta(minutes=50))
    page = client.get(_dashboard(swiss8)).content.decode()
    assert page.count("not started or stuck") == 4
    m = rnd.matches.get(table=1)
    forfeit = reverse("tournaments:forfeit", args=[swiss8.slug, m.pk, m.away_id])
    assert f'href="{forfeit}?back={_dashboard(swiss8)}"' in page  # a link that asks, not a one-tap post


def test_a_late_correction_lists_the_later_pairings_and_needs_a_reason(client, swiss8, organiser):
    play_round(services.pair_next_round(actor=organiser, tournament=swiss8), organiser)
    services.pair_next_round(actor=organiser, tournament=swiss8)
    m = Match.objects.get(tournament=swiss8, round__number=1, table=1)
    round2 = Match.objects.filter(round__number=2, tournament=swiss8)
    later = round2.filter(home=m.home) | round2.filter(away=m.home)
    client.force_login(organiser)
    page = client.get(m.get_absolute_url()).content.decode()
    assert 'id="later-pairings"' in page and later.get().get_absolute_url() in page
    response = client.post(
        m.get_absolute_url(), {"action": "final", "final-home_eyes": 4, "final-away_eyes": 12}, follow=True
    )
    assert "Write the reason for the correction" in response.content.decode()
    m.refresh_from_db()
    assert (m.home_eyes, m.away_eyes) == (12, 7)
    client.post(
        m.get_absolute_url(),
        {"action": "final", "final-home_eyes": 4, "final-away_eyes": 12, "reason": "sheet misread"},
    )
    m.refresh_from_db()
    assert (m.home_eyes, m.away_eyes) == (4, 12)


def test_the_confirm_page_is_in_the_players_language(client, swiss8, organiser):
    pair = swiss8.entries.first()
    client.force_login(organiser)
    url = reverse("tournaments:entry_action", args=[swiss8.slug, pair.pk, "withdraw"])
    for lang, word in (("ru", "Отмена"), ("kk", "Бас тарту"), ("uk", "Скасувати")):
        assert word in client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
