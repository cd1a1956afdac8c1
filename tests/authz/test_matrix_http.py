"""Every row of the matrix, asked as each of the seven people: the status each one gets, the sign-in
page for a visitor where signing in is needed, and for a refused write, nothing changed."""

from __future__ import annotations

import pytest

from tests.authz.asking import SIGN_IN, ask, outcome, url_of
from tests.authz.fingerprint import changed, world_state
from tests.authz.leaks import leaks
from tests.authz.rows import ROWS, Row
from tests.authz.world import ROLES

pytestmark = pytest.mark.django_db

#: Outcomes that mean "not you": a write answered so must have written nothing.
REFUSED = (401, 403, 404, 405, "login")


def _matches(got, expected) -> bool:
    return got in expected if isinstance(expected, tuple) else got == expected


@pytest.fixture(autouse=True)
def _no_tasks(settings, monkeypatch):
    settings.GAMEPLAY_QUEUE_TASKS = False
    # /health/ waits this long for a Celery worker that a test run has not got: it asks the same
    # of everyone, and what it answers whom is the matrix's question, not how long it waits
    monkeypatch.setattr("config.health.TIMEOUT_SECONDS", 0.05)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r.method} {r.target}")
def test_each_role_gets_what_its_row_says(world, row: Row):
    url = url_of(world, row.target)
    data = row.data(world) if row.data is not None else None
    before = world_state() if row.method != "GET" else None
    wrong = []
    for role in ROLES:
        expected = row.expect[role]
        refused_write = before is not None and (expected in REFUSED or role in row.unchanged)
        answer = ask(world, role, row.method, url, data=data, after=world_state if refused_write else None)
        got = outcome(answer)
        if not _matches(got, expected):
            wrong.append(f"{role}: got {got} ({answer.status} {answer.location}), row says {expected}")
            continue
        if got == "login" and row.way_back and answer.location != f"{SIGN_IN}?next={url}":
            wrong.append(f"{role}: sign-in page without the way back: {answer.location}")
        if answer.status == 200 and (shown := leaks(world, role, row.target, answer.body)):
            wrong.append(f"{role}: shown {'; '.join(shown)}")
        if refused_write and changed(before, answer.seen):
            wrong.append(f"{role}: refused, yet changed {', '.join(changed(before, answer.seen))}")
    assert not wrong, f"{row.method} {url} ({row.target}):\n" + "\n".join(wrong)
