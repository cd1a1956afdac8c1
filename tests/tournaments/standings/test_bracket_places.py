"""A finished bracket event's standings, exports and prizes follow the bracket, not the points table."""

import csv
import datetime
import io
import json

import pytest
from django.urls import reverse
from django.utils.html import escape

from tournaments import selectors, services
from tournaments.models import TournamentStatus

from ..conftest import play_round, register_pairs

pytestmark = pytest.mark.django_db


def _knockout(club, organiser, pairs, **kw):
    t = services.create_tournament(
        actor=organiser, club=club, name="Кубок Успенки", starts_on=datetime.date(2026, 12, 5),
        format="single_elim", seeding="manual", prizes=["Кубок", "Мешок муки", "Торт"], **kw,
    )  # fmt: skip
    return t, register_pairs(t, organiser, pairs)


def _play_out(t, organiser, winner=lambda m: "home", loser_eyes=lambda m: 7):
    while True:
        t.refresh_from_db()
        if t.status == TournamentStatus.FINISHED:
            return
        play_round(services.pair_next_round(actor=organiser, tournament=t), organiser, winner=winner,
                   loser_eyes=loser_eyes)  # fmt: skip


def test_finished_knockout_ranks_by_the_bracket_on_the_page_exports_and_prizes(client, club, organiser):
    # Six pairs: seeds 1 and 2 get byes, 3-6 and 4-5 play the first round.
    t, e = _knockout(club, organiser, 6, third_place=True)
    # Seeds 4 and 3 upset 1 and 2 in the semifinals; 4 wins the final, 1 the third-place match. The
    # final's loser (seed 3: two wins) and seed 1 (a bye and a win, counted as two wins) were level
    # on points, and the tiebreaks put the third-place winner second.
    _play_out(t, organiser, winner=lambda m: "away" if m.round.number == 2 else "home",
              loser_eyes=lambda m: 0 if m.round.number < 3 or m.slot == 1 else 11)  # fmt: skip
    final = t.matches.get(round__number=3, slot=0)
    third = t.matches.get(round__number=3, slot=1)
    champion, runner_up = final.winner, final.away if final.winner_id == final.home_id else final.home
    third_winner = third.winner
    third_loser = third.away if third.winner_id == third.home_id else third.home
    first_round_losers = {m.away_id if m.winner_id == m.home_id else m.home_id for m in t.matches.filter(
        round__number=1, bye=False)}  # fmt: skip

    lines = selectors.standings(tournament=t).lines
    podium = [champion.pk, runner_up.pk, third_winner.pk, third_loser.pk]
    assert [line.entry.pk for line in lines[:4]] == podium
    assert {line.entry.pk for line in lines[4:]} == first_round_losers
    assert [line.place_label for line in lines] == ["1", "2", "3", "4", "5–6", "5–6"]
    assert [line.prize for line in lines[:3]] == ["Кубок", "Мешок муки", "Торт"]

    page = client.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    def row(e):  # each partner's name links to his page
        return page.index(f"{escape(e.player_a.display_name)}</a> &amp; ")

    assert row(runner_up) < row(third_winner) < row(third_loser)
    assert "5–6" in page

    body = client.get(reverse("tournaments:export", args=[t.slug, "standings", "csv"])).content.decode()
    rows = list(csv.DictReader(io.StringIO(body.lstrip("\ufeff"))))
    assert [int(r["entry_id"]) for r in rows[:4]] == podium
    assert [r["place"] for r in rows[:4]] == ["1", "2", "3", "4"]
    assert [(r["place"], r["shared"]) for r in rows[4:]] == [("5", "True"), ("5", "True")]
    data = json.loads(client.get(reverse("tournaments:export", args=[t.slug, "standings", "json"])).content)
    assert [r["entry_id"] for r in data["standings"][:3]] == [champion.pk, runner_up.pk, third_winner.pk]
    assert data["standings"][1]["prize"] == "Мешок муки"

    prizes = selectors.prize_list(tournament=t)
    assert [p.winners for p in prizes] == [[champion], [runner_up], [third_winner]]


def test_knockout_without_third_place_match_shares_third_and_ranks_rounds_out(club, organiser):
    t, e = _knockout(club, organiser, 8)
    _play_out(t, organiser, winner=lambda m: "away" if m.round.number == 1 else "home")
    lines = selectors.standings(tournament=t).lines
    assert [line.place_label for line in lines] == ["1", "2", "3–4", "3–4", "5–8", "5–8", "5–8", "5–8"]
    quarter_losers = {m.away_id if m.winner_id == m.home_id else m.home_id for m in t.matches.filter(
        round__number=1)}  # fmt: skip
    assert {line.entry.pk for line in lines[4:]} == quarter_losers
    prizes = selectors.prize_list(tournament=t)
    # the cake cannot be cut between the two semi-final losers: it goes by the order of the places
    assert prizes[2].winners == [lines[2].entry] and prizes[1].winners == [lines[1].entry]
    assert lines[2].prize == "Торт" and lines[3].prize == ""


def test_double_elimination_places_show_shared_ranges_agreeing_with_exports(client, club, organiser):
    t = services.create_tournament(
        actor=organiser, club=club, name="Кубок двух шансов", starts_on=datetime.date(2026, 12, 5),
        format="double_elim", seeding="manual", prizes=["Кубок", "Мешок муки", "Торт"],
        grand_final_reset=False,
    )  # fmt: skip
    register_pairs(t, organiser, 8)
    _play_out(t, organiser)
    view = selectors.double_elim_view(tournament=t)
    labels = [label for label, _entry in view.labelled_places]
    assert labels == ["1", "2", "3", "4", "5–6", "5–6", "7–8", "7–8"]
    page = client.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    assert "5–6." in page and "7–8." in page
    data = json.loads(client.get(reverse("tournaments:export", args=[t.slug, "standings", "json"])).content)
    assert [(r["place"], r["shared"]) for r in data["standings"]] == [
        (1, False), (2, False), (3, False), (4, False), (5, True), (5, True), (7, True), (7, True),
    ]  # fmt: skip
    prizes = selectors.prize_list(tournament=t)
    assert [p.winners[0].pk for p in prizes] == [r["entry_id"] for r in data["standings"][:3]]


def test_a_running_knockout_says_its_table_is_by_points_until_the_champion_is_known(client, club, organiser):
    t, _e = _knockout(club, organiser, 4)
    play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    page = client.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    assert "Until the champion is known" in page and "Places follow the bracket" not in page
    _play_out(t, organiser)
    page = client.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    assert "Places follow the bracket" in page and "Until the champion is known" not in page
