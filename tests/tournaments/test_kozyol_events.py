"""Tournaments of Kozyol khvalyony: the settings form stores the game and its own rules, refuses a
duplicate format for it in the organiser's language; a round robin played online by bots through
the services (tables opened with Kozyol's rules, results taken back, archived with their records
and rated in Kozyol's own rating); a match entered over the board with Kozyol's score sheet (a
catch, eggs, a Lucy); the tournament page names the game and links its rules."""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import translation

from archive.models import ArchivedMatch
from gameplay import services as tables
from gameplay.engine.table_games import bot_action
from gameplay.models import Table, TableStatus
from ratings.models import KOZYOL as KOZYOL_RATING
from ratings.models import PlayerRating
from ratings.services import recompute as ratings
from tests.tournaments.conftest import player_with_account
from tournaments import services
from tournaments.models import DealLine, Match, MatchStatus, Tournament, TournamentStatus
from tournaments.selectors.standings import standings
from tournaments.services import online, runner

pytestmark = pytest.mark.django_db

KOZYOL = {"game": "kozyol"}


def _form_data(**over) -> dict:
    """What the settings form posts for a new Kozyol event, its rule fields as the form shows them."""
    from tournaments.forms import TournamentForm

    form = TournamentForm(game="kozyol")
    data = {name: field.initial for name, field in form.fields.items()
            if field.initial is not None and not isinstance(field.initial, bool)}
    data.update({name: "on" for name, field in form.fields.items() if field.initial is True})
    data.update({"name": "Кубок Козла", "starts_on": "2026-12-20", "format": "round_robin",
                 "game": "kozyol", "tiebreak_1": "", **over})
    return {k: v for k, v in data.items() if v is not None}


def test_the_settings_form_makes_a_kozyol_event_and_refuses_a_duplicate_one(club, organiser):
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(organiser)
    url = f"/clubs/{club.slug}/tournaments/new/"
    bilka = client.get(url).content.decode()
    assert 'href="?game=kozyol"' in bilka and 'name="rule_six_of_clubs"' not in bilka
    page = client.get(url + "?game=kozyol")
    html = page.content.decode()
    assert 'name="rule_six_of_clubs"' in html and 'name="rule_first_catch_wins"' in html
    assert 'name="rated"' in html and 'href="/rules/kozyol/"' in html  # Kozyol's own rating
    # duplicate + Kozyol: refused in the organiser's language, nothing created
    refused = client.post(url, _form_data(format="duplicate"))
    assert refused.status_code == 200 and Tournament.objects.count() == 0
    assert "раздачи построены только для Белки" in refused.content.decode()
    refused = client.post(url, _form_data(format="ind_duplicate"))
    assert Tournament.objects.count() == 0
    assert "раздачи построены только для Белки" in refused.content.decode()
    created = client.post(url, _form_data(rule_six_of_clubs=""))
    assert created.status_code == 302
    t = Tournament.objects.get()
    assert t.rules["game"] == "kozyol" and t.rules["six_of_clubs"] is False and t.rules["deck"] == "36"
    # the service refuses the same, whoever calls it
    with translation.override("en"), pytest.raises(ValidationError, match="Bilka only"):
        services.update_tournament(actor=organiser, tournament=t, format="duplicate")
    # the settings page keeps the game; the tournament's pages name it and link its rules
    edit = client.get(f"/t/{t.slug}/edit/").content.decode()
    assert 'name="rule_six_of_clubs"' in edit and 'value="kozyol"' in edit
    home = client.get(t.get_absolute_url()).content.decode()
    assert 'id="t-game"' in home and 'href="/rules/kozyol/"' in home and "Козёл хвалёный" in home
    assert "Шестёрка треф (шамок)" in home  # its own rules, in words


def _round_robin(club, organiser, *, online_play: bool, pairs: int = 4, **rules) -> Tournament:
    values = {"play_mode": "online", "online": True} if online_play else {}
    t = services.create_tournament(actor=organiser, club=club, name="Козёл по кругу", format="round_robin",
                                   rules={**KOZYOL, **rules}, **values)
    for i in range(pairs):
        a = player_with_account(club, f"koz{i}a")
        b = player_with_account(club, f"koz{i}b")
        services.register_entry(actor=organiser, tournament=t, player_a=a, player_b=b)
    return t


def _play_out(table_id: int, rng: random.Random) -> Table:
    """Each seat's move chosen by Kozyol's beginner bot on that seat's view, played through
    `gameplay.services.play` (what the table's socket calls)."""
    for _ in range(5000):
        table = Table.objects.get(pk=table_id)
        if table.status == TableStatus.FINISHED:
            return table
        state = tables.load_state(table)
        seat = state.redeal_pending[0] if state.redeal_pending else state.to_move
        action = bot_action("beginner", state, seat, rng)
        expected = table.decision_event if state.redeal_pending else table.event_seq
        outcome = tables.play(table_id=table_id, seat=seat, action=tables.public_action(action),
                              expected_event=expected)
        assert outcome.ok, outcome.message
    raise AssertionError("the match did not end")


def test_a_kozyol_round_robin_is_played_online_by_bots_through_the_services(club, organiser):
    t = _round_robin(club, organiser, online_play=True)
    assert t.rules["game"] == "kozyol" and t.rated  # rated, as Bilka's events are by default
    rng = random.Random(5)  # noqa: S311 - test players
    outcomes = set()
    for number in (1, 2, 3):
        rnd = services.pair_next_round(actor=organiser, tournament=t)
        runner.run_due()  # the round's start opens its tables
        matches = list(rnd.matches.filter(bye=False))
        assert len(matches) == 2 and all(m.live_table for m in matches), number
        for m in matches:
            table = Table.objects.get(pk=m.live_table)
            assert table.rules["game"] == "kozyol" and table.rules == t.rules and not table.rated
            table = _play_out(table.pk, rng)
            assert table.record["game"] == "kozyol"
            assert online.record_table_result(table_id=table.pk) == "recorded"
            m.refresh_from_db()
            assert m.status == MatchStatus.CONFIRMED and m.confirmed_how == "table"
            assert 12 in (m.home_eyes, m.away_eyes)
            lines = list(DealLine.objects.filter(match=m))
            assert lines and all(line.jack_holder is None for line in lines)  # nobody is on duty
            outcomes |= {line.outcome for line in lines}
            assert m.home_lucy == sum(1 for x in lines if x.outcome == "lucy" and x.home_eyes > 0)
            archived = ArchivedMatch.objects.get(tournament_match=m.pk)
            assert archived.rules["game"] == "kozyol" and archived.record["game"] == "kozyol"
            assert archived.rated and archived.table_id == table.pk  # in Kozyol's rating
    assert outcomes & {"win", "rout", "catch"}
    # its matches moved the Kozyol rating of its eight players, and no Bilka rating
    ratings.recompute()
    assert PlayerRating.objects.filter(game=KOZYOL_RATING).count() == 8
    assert not PlayerRating.objects.exclude(game=KOZYOL_RATING).exists()
    t.refresh_from_db()
    table = standings(tournament=t)
    assert len(table.lines) == 4 and sum(line.row.played for line in table.lines) == 12
    # the Lucy tiebreak counts Kozyol's Lucy deals from the tables' sheets
    lucy = {e: 0 for e in (line.entry.pk for line in table.lines)}
    for m in Match.objects.filter(round__tournament=t):
        lucy[m.home_id] += m.home_lucy or 0
        lucy[m.away_id] += m.away_lucy or 0
    assert {line.entry.pk: line.row.lucy for line in table.lines} == lucy
    assert Match.objects.filter(round__tournament=t, status=MatchStatus.CONFIRMED).count() == 6
    assert t.status in (TournamentStatus.FINISHED, TournamentStatus.RUNNING)
    with translation.override("ru"), pytest.raises(ValidationError, match="Игру нельзя сменить"):
        services.update_tournament(actor=organiser, tournament=t, rules={})  # back to Bilka: refused
    t.refresh_from_db()
    assert t.rules["game"] == "kozyol"


def test_a_kozyol_match_entered_over_the_board_scores_by_kozyols_sheet(club, organiser):
    t = _round_robin(club, organiser, online_play=False)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    m = rnd.matches.filter(bye=False).first()
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(organiser)
    page = client.get(m.get_absolute_url()).content.decode()
    assert "поимка" in page  # the third column is the catch
    rows = {
        # deal 1: 68:52, a win (2 eyes); deal 2: 60:60, eggs; deal 3: a catch by pair 2 after
        # eggs (4 × 2 = 8 eyes); deal 4: 95:25, a rout (4 eyes); deal 5: Lucy by pair 2 (wins)
        "deal-1-home": "68", "deal-1-away": "52",
        "deal-2-home": "60", "deal-2-away": "60",
        "deal-3-jack": "2",
        "deal-4-home": "95", "deal-4-away": "25",
        "deal-5-home": "0", "deal-5-away": "120", "deal-5-all": "2",
    }
    preview = client.post(m.get_absolute_url(), {"action": "preview", **rows}).content.decode()
    assert "12" in preview
    client.post(m.get_absolute_url(), {"action": "deals", **rows})
    m.refresh_from_db()
    assert m.status == MatchStatus.CONFIRMED
    lines = list(DealLine.objects.filter(match=m).order_by("number"))
    assert [x.outcome for x in lines] == ["win", "eggs", "catch", "rout", "lucy"]
    assert [(x.home_eyes, x.away_eyes) for x in lines] == [(2, 0), (0, 0), (0, 8), (4, 0), (0, 4)]
    assert [(x.home_score, x.away_score) for x in lines][-1] == (6, 12)
    assert (m.home_eyes, m.away_eyes) == (6, 12) and m.winner_id == m.away_id
    assert (m.home_lucy, m.away_lucy) == (0, 1)
    assert all(x.jack_holder is None for x in lines)
    # the stored sheet shows the catch in its column, and the form is filled back from it
    shown = client.get(m.get_absolute_url()).content.decode()
    assert 'name="deal-3-jack"' in shown
    archived = ArchivedMatch.objects.get(tournament_match=m.pk)
    assert archived.rules["game"] == "kozyol" and archived.rated == t.rated
    assert [d.outcome for d in archived.deals.order_by("number")] == ["win", "eggs", "catch", "rout", "lucy"]
    # what Kozyol's sheet cannot be is refused in the organiser's words
    other = rnd.matches.filter(bye=False).exclude(pk=m.pk).first()
    bad = client.post(other.get_absolute_url(), {"action": "deals", "deal-1-home": "61", "deal-1-away": "59",
                                                 "deal-1-all": "1"}).content.decode()
    assert "пара, взявшая все взятки, взяла все 120 очков" in bad
    other.refresh_from_db()
    assert other.status == MatchStatus.SCHEDULED
