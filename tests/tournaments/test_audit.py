"""A tournament's audit log: every change worded in the reader's language, filterable, paginated,
for the tournament's organisers only; every action code the code base writes has a wording."""

import ast
import datetime
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from clubs import audit_labels
from clubs.models import AuditEntry
from tournaments import services

from .conftest import play_round, register_pairs

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]
WRITERS = {"audit", "audit_entry"}  # the functions that write audit rows; the code is "action" or the 2nd arg


def _codes_in(tree: ast.Module) -> set[str]:
    """The action codes a module passes to the audit writers, as literals or through a local name."""
    assigned: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, set()).update(_strings(node.value))
    codes: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        if name not in WRITERS:
            continue
        exprs = [k.value for k in node.keywords if k.arg == "action"]
        if not exprs and name == "audit_entry" and len(node.args) > 1:
            exprs = [node.args[1]]
        for expr in exprs:
            codes |= _strings(expr)
            if isinstance(expr, ast.Name):
                codes |= assigned.get(expr.id, set())
    return codes


def _strings(expr) -> set[str]:
    return {n.value for n in ast.walk(expr) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def written_codes() -> set[str]:
    codes: set[str] = set()
    for app in ("clubs", "tournaments", "gameplay", "config"):
        for path in (REPO / app).rglob("*.py"):
            if "migrations" not in path.parts:
                codes |= _codes_in(ast.parse(path.read_text(encoding="utf-8")))
    return codes


def test_every_action_code_the_code_writes_has_a_wording():
    codes = written_codes()
    assert {"match.correct", "roster.bulk_add", "entry.withdraw", "individual.check_in_closed"} <= codes
    missing = sorted(code for code in codes if code not in audit_labels.ACTION_LABELS)
    assert not missing, f"audit codes without words (clubs.audit_labels, tournaments.audit_words): {missing}"
    for language in ("ru", "kk", "uk"):
        labels = audit_labels.ACTION_LABELS
        untranslated = [c for c in codes if _in(language, labels[c]) == _in("en", labels[c])]
        assert not untranslated, (language, sorted(untranslated))


def _in(language, label) -> str:
    with translation.override(language):
        return str(label)


@pytest.fixture
def event(club, organiser):
    t = services.create_tournament(
        actor=organiser, club=club, name="Журнал", starts_on=datetime.date(2026, 10, 2), format="swiss",
        swiss_rounds=3,
    )  # fmt: skip
    register_pairs(t, organiser, 4, prefix="Игрок")
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    play_round(rnd, organiser)
    services.pair_next_round(actor=organiser, tournament=t)
    return t


def _page(user, t, language="en", **query):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client.get(reverse("tournaments:audit", args=[t.slug]), query)


def test_a_correction_reads_who_when_before_after_and_why(organiser, event):
    match = event.matches.get(round__number=1, table=1)
    with translation.override("ru"):  # the organiser works in Russian; the reader below reads English
        services.correct_result(
            actor=organiser, match=match, home_eyes=9, away_eyes=12, reason="перепутали пары"
        )
    page = _page(organiser, event).content.decode()
    assert "Result corrected" in page and "match.correct" not in page
    assert escape(f"Round 1, table 1: {match.home.name} — {match.away.name}") in page
    assert "12:7</span> → <span class=\"audit-after\">9:12" in page
    assert "перепутали пары" in page and "organiser" in page
    assert "стол" not in page, "nothing is stored in the actor's language"


def test_the_log_is_in_the_readers_language(organiser, event):
    page = _page(organiser, event, "ru").content.decode()
    for words in ("Результат сообщён", "Тур составлен", "Пара записана", "Турнир создан", "Тур 1, стол 1"):
        assert words in page
    for english in ("Result reported", "Round paired", "match.report", "round.pair", "entry.create"):
        assert english not in page


def test_the_log_filters_by_kind_and_round_and_pages(organiser, event):
    everything = AuditEntry.objects.filter(tournament_id=event.pk).count()
    results = _page(organiser, event, kind="match").content.decode()
    assert "Result reported" in results and "Pair entered" not in results
    round_two = _page(organiser, event, kind="round", round=2).content.decode()
    assert round_two.count('class="audit-line"') == 1 and "Round paired" in round_two
    AuditEntry.objects.bulk_create(
        AuditEntry(action="match.report", club=event.club, tournament_id=event.pk, round_number=1)
        for _ in range(audit_labels.PAGE_SIZE)
    )
    first = _page(organiser, event).content.decode()
    assert first.count('class="audit-line"') == audit_labels.PAGE_SIZE and "Page 1 of 2" in first
    second = _page(organiser, event, page=2).content.decode()
    assert second.count('class="audit-line"') == everything
    filtered = _page(organiser, event, kind="match").content.decode()
    assert "kind=match&amp;page=2" in filtered


def test_only_the_tournaments_organisers_read_it(client, event, member, organiser):
    assert _page(member, event).status_code == 403
    response = client.get(reverse("tournaments:audit", args=[event.slug]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    url = reverse("tournaments:audit", args=[event.slug])
    for page in ("tournaments:home", "tournaments:dashboard"):
        c = Client(HTTP_ACCEPT_LANGUAGE="en")
        c.force_login(organiser)
        assert url in c.get(reverse(page, args=[event.slug])).content.decode(), page


def test_a_live_refusal_and_a_confirmation_are_worded(organiser, event):
    match = event.matches.get(round__number=2, table=1)
    AuditEntry.objects.create(
        action="match.live_result_refused", club=event.club, tournament_id=event.pk, round_number=2,
        subject={"kind": "match", "round": 2, "table": 1, "home": "А & Б", "away": "В & Г"},
        after={"code": "not_finished", "params": {"n": 7}, "table": 7, "status": "disputed"},
    )  # fmt: skip
    services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=3)
    page = _page(organiser, event, kind="match", round=2).content.decode()
    assert "Table 7 has not finished its match yet." in page
    assert "Live table&#x27;s result not taken" in page
    assert "not_finished" not in page
