"""Prizes on the real database: one allocation read by the page, the exports, the API and the print;
withdrawn pairs, categories from the organiser's private players' details, the settings form, the old
stored shape."""

import csv
import datetime
import io
import json

import pytest
from django.urls import reverse

from tests.clubs.factories import PASSWORD
from tournaments import selectors, services
from tournaments.core.prizes import prize_of_line
from tournaments.models import PlayerDetails, Tournament, TournamentStatus
from tournaments.selectors.prizes import prize_text

from .conftest import play_round, register_pairs

pytestmark = pytest.mark.django_db

PLACES = ["Конь", "30 000", "20 000", "10 000", "5 000", "Торт", "Гусь"]


def _played(club, organiser, *, withdraw_after: int | None = 2, **kw):
    """A finished 3-round Swiss of 7 pairs with a prize for every place; the pair that wins its
    first two matches withdraws after round ``withdraw_after``."""
    t = services.create_tournament(
        actor=organiser, club=club, name="Кубок Құрманғали", starts_on=datetime.date(2026, 10, 2),
        format="swiss", swiss_rounds=3, prizes=PLACES, **kw,
    )  # fmt: skip
    entries = register_pairs(t, organiser, 7, prefix="Әсел")
    quitter = None
    for number in range(1, 4):
        rnd = services.pair_next_round(actor=organiser, tournament=t)
        play_round(rnd, organiser, loser_eyes=lambda m: (m.table * 2 + m.round.number) % 11)
        if number == withdraw_after:
            table = selectors.standings(tournament=t)
            quitter = table.lines[0].entry  # the leader leaves
            services.withdraw_entry(actor=organiser, entry=quitter)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    return t, entries, quitter


def _shown(index: int) -> str:
    return prize_text(prize_of_line(PLACES[index]), "KZT")


def _export(client, t, fmt):
    url = reverse("tournaments:export", kwargs={"slug": t.slug, "what": "standings", "fmt": fmt})
    body = client.get(url).content.decode()
    return json.loads(body)["standings"] if fmt == "json" else list(csv.DictReader(io.StringIO(body)))


def test_a_withdrawn_pairs_prize_passes_down_everywhere(client, club, organiser):
    t, _entries, quitter = _played(club, organiser)
    table = selectors.standings(tournament=t)
    quitter_line = next(line for line in table.lines if line.entry.pk == quitter.pk)
    assert quitter_line.row.withdrawn and quitter_line.prize == ""
    stayed = [line for line in table.lines if not line.row.withdrawn]
    assert [line.prize for line in stayed] == [
        "Конь",
        "30\u202f000\u00a0₸",
        "20\u202f000\u00a0₸",
        "10\u202f000\u00a0₸",
        "5\u202f000\u00a0₸",
        "Торт",
    ]
    prizes = selectors.prize_list(tournament=t)
    assert [p.winners for p in prizes[:6]] == [[line.entry] for line in stayed]
    assert prizes[6].prize == "Гусь" and prizes[6].winners == []  # six pairs left for seven prizes
    for fmt in ("csv", "json"):
        rows = {int(r["entry_id"]): r["prize"] for r in _export(client, t, fmt)}
        assert rows[quitter.pk] == ""
        assert rows[stayed[0].entry.pk] == "Конь" and rows[stayed[1].entry.pk] == "30\u202f000\u00a0₸"
    page = client.get(reverse("tournaments:home", args=[t.slug])).content.decode()
    assert quitter.name not in page.split('id="prizes"')[1].split("</section>")[0]


def test_the_organiser_may_let_a_withdrawn_pair_keep_its_prize_or_give_it_to_nobody(club, organiser):
    t, _entries, quitter = _played(club, organiser)
    setup = selectors.prize_setup(t)
    for choice in ("keep", "none"):
        stored = {**_as_form_setup(setup), "withdrawn": choice}
        services.update_tournament(actor=organiser, tournament=t, prizes=stored)
        t.refresh_from_db()
        table = selectors.standings(tournament=t)
        at = next(i for i, line in enumerate(table.lines) if line.entry.pk == quitter.pk)
        assert table.lines[at].prize == (_shown(at) if choice == "keep" else "")
        # the places stay as played: the next keeps his own place's prize
        assert table.lines[at + 1].prize == _shown(at + 1)
        assert selectors.prize_list(tournament=t)[at].withheld == (choice == "none")


def _as_form_setup(setup):
    from tournaments.core.prizes import setup_to_json

    return setup_to_json(setup)


def test_a_category_reads_the_organisers_details_and_a_pair_takes_one_prize(club, organiser):
    t, _entries, _quitter = _played(club, organiser, withdraw_after=None)
    table = selectors.standings(tournament=t)
    first, fourth, fifth = (table.lines[i].entry for i in (0, 3, 4))
    women = {first.player_a_id, first.player_b_id, fourth.player_a_id, fourth.player_b_id}
    services.save_player_details(actor=organiser, tournament=t, details={pk: (None, "f", "") for pk in women})
    setup = _as_form_setup(selectors.prize_setup(t))
    setup["categories"] = [
        {
            "name": "Лучшая женская пара",
            "rule": {"gender": "f"},
            "prizes": [{"label": "", "amount": 15000, "indivisible": False}],
        }
    ]
    services.update_tournament(actor=organiser, tournament=t, prizes=setup)
    t.refresh_from_db()
    category = next(line for line in selectors.prize_list(tournament=t) if line.category)
    # the winners hold the horse, the higher prize: the women's prize goes to the next women's pair,
    # which takes it over its place's 10 000, and that passes down to the fifth
    assert category.winners == [fourth] and category.prize == "Лучшая женская пара: 15\u202f000\u00a0₸"
    won = {line.entry.pk: line.prize for line in selectors.standings(tournament=t).lines}
    assert won[first.pk] == "Конь"
    assert won[fourth.pk] == "Лучшая женская пара: 15\u202f000\u00a0₸"
    assert won[fifth.pk] == "10\u202f000\u00a0₸"


def test_the_old_list_of_prizes_reads_the_same(club, organiser):
    t, _entries, _quitter = _played(club, organiser, withdraw_after=None)
    Tournament.objects.filter(pk=t.pk).update(prizes=["Кубок", "Мешок муки", "30 000"])
    t.refresh_from_db()
    lines = selectors.prize_list(tournament=t)
    table = selectors.standings(tournament=t)
    assert [(p.place, p.prize, p.winners) for p in lines] == [
        (1, "Кубок", [table.lines[0].entry]),
        (2, "Мешок муки", [table.lines[1].entry]),
        (3, "30\u202f000\u00a0₸", [table.lines[2].entry]),
    ]


def test_the_settings_form_keeps_categories_and_options(client, club, organiser):
    t = services.create_tournament(
        actor=organiser, club=club, name="Кубок", starts_on=datetime.date(2026, 10, 2)
    )
    client.login(username="organiser", password=PASSWORD)
    url = reverse("tournaments:edit", args=[t.slug])
    form = client.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, list)}
    data.update(
        {
            "name": "Кубок",
            "starts_on": "2026-10-02",
            "prizes": "Конь\n30 000",
            "prize_withdrawn": "keep",
            "prize_split": "on",
            "cat_1_name": "Юниоры",
            "cat_1_prizes": "Мяч",
            "cat_1_born_from": "2008",
            "cat_2_name": "Без правила",
            "cat_2_prizes": "Торт",
        }
    )
    for key in (
        "prize_one",
        "online",
        "double_round_robin",
        "third_place",
        "rated",
        "grand_final_reset",
        "self_registration",
    ):
        data.pop(key, None)
    page = client.post(url, data)
    assert page.status_code == 200  # the second category has no rule: refused, nothing lost
    body = page.content.decode()
    assert "needs a rule" in body and "Юниоры" in body and "Без правила" in body
    data.update({"cat_2_name": "", "cat_2_prizes": ""})
    assert client.post(url, data).status_code == 302
    t.refresh_from_db()
    setup = selectors.prize_setup(t)
    assert [(p.label, p.amount, p.indivisible) for p in setup.places] == [
        ("Конь", None, True),
        ("", 30000, False),
    ]
    assert setup.options.withdrawn == "keep" and not setup.options.one_prize and setup.options.split_money
    assert [(c.name, c.rule.born_from, c.prizes[0].label) for c in setup.categories] == [
        ("Юниоры", 2008, "Мяч")
    ]
    again = client.get(url).context["form"].initial
    assert (
        again["cat_1_name"] == "Юниоры"
        and again["cat_1_born_from"] == 2008
        and again["prizes"] == "Конь\n30 000"
    )


def test_the_api_still_sets_the_place_prizes_as_lines_and_keeps_the_categories(club, organiser):
    t = services.create_tournament(
        actor=organiser,
        club=club,
        name="Кубок",
        starts_on=datetime.date(2026, 10, 2),
        prizes={"places": [], "categories": [{"name": "Дамы", "rule": {"gender": "f"}, "prizes": ["Цветы"]}]},
    )
    services.update_tournament(actor=organiser, tournament=t, prizes=["Конь", "Машина"])
    t.refresh_from_db()
    setup = selectors.prize_setup(t)
    assert [p.label for p in setup.places] == ["Конь", "Машина"] and setup.categories[0].name == "Дамы"


def test_the_print_has_a_certificate_a_prize_with_kazakh_names(client, club, organiser):
    t, _entries, quitter = _played(club, organiser)
    client.login(username="organiser", password=PASSWORD)
    body = client.get(reverse("tournaments:print_prizes", args=[t.slug])).content.decode()
    assert body.count('class="certificate"') == 6  # seven prizes, six pairs left to take them
    assert "Кубок Құрманғали" in body and "Әсел" in body and quitter.name not in body.split("certificate")[-1]
    dashboard = client.get(reverse("tournaments:dashboard", args=[t.slug])).content.decode()
    assert reverse("tournaments:print_prizes", args=[t.slug]) in dashboard
    assert reverse("tournaments:player_details", args=[t.slug]) in dashboard


def test_the_details_page_saves_and_refuses_a_bad_year_losing_nothing(client, club, organiser):
    t, entries, _quitter = _played(club, organiser, withdraw_after=None)
    client.login(username="organiser", password=PASSWORD)
    url = reverse("tournaments:player_details", args=[t.slug])
    a, b = entries[0].player_a_id, entries[0].player_b_id
    page = client.post(url, {f"y_{a}": "1800", f"g_{a}": "f", f"c_{b}": "Қызылжар"})
    assert page.status_code == 400 and "Қызылжар" in page.content.decode()
    assert not PlayerDetails.objects.exists()
    assert client.post(url, {f"y_{a}": "1987", f"g_{a}": "f", f"c_{b}": "Қызылжар"}).status_code == 302
    rows = {d.player_id: (d.birth_year, d.gender, d.city) for d in PlayerDetails.objects.all()}
    assert rows == {a: (1987, "f", ""), b: (None, "", "Қызылжар")}


def test_the_shown_standings_follow_a_change_of_the_details(club, organiser):
    t, _entries, _quitter = _played(club, organiser, withdraw_after=None)
    last = selectors.standings(tournament=t).lines[-1].entry
    setup = _as_form_setup(selectors.prize_setup(t))
    setup["places"] = setup["places"][:1]
    setup["categories"] = [{"name": "Юниоры", "rule": {"born_from": 2008}, "prizes": ["Мяч"]}]
    services.update_tournament(actor=organiser, tournament=t, prizes=setup)
    t.refresh_from_db()
    assert all(line.prize != "Юниоры: Мяч" for line in selectors.shown_standings(tournament=t).lines)
    young = {last.player_a_id: (2010, "", ""), last.player_b_id: (2009, "m", "")}
    services.save_player_details(actor=organiser, tournament=t, details=young)
    shown = {line.entry.pk: line.prize for line in selectors.shown_standings(tournament=t).lines}
    assert shown[last.pk] == "Юниоры: Мяч"
