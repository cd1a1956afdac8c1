"""Every row of the matrix, asked as each of the seven people: the status each one gets, the sign-in
page for a visitor where signing in is needed, and for a refused write, nothing changed. Then every
route that finds an object inside a tournament or a club, asked with ids borrowed from another event
and another club (`borrowed.py`): answered as ids that are nowhere, nothing changed, nothing shown."""

from __future__ import annotations

import json

import pytest

from tests.authz.asking import SIGN_IN, Answer, ask, outcome, url_of
from tests.authz.borrowed import BorrowedRow, borrowed_rows, names_of, urls
from tests.authz.fingerprint import changed, world_state
from tests.authz.leaks import leaks
from tests.authz.rows import ROWS, Row
from tests.authz.world import ROLES, World

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


_NOWHERE: dict[tuple, dict[str, Answer]] = {}


def _as_if_nowhere(world: World, row: BorrowedRow, url: str, data) -> dict[str, Answer]:
    """Each role's answer for the address whose ids are nowhere (asked once for both sources)."""
    key = (id(world), row.method, url)
    if key not in _NOWHERE:
        _NOWHERE[key] = {role: ask(world, role, row.method, url, data=data) for role in ROLES}
    return _NOWHERE[key]


def _data(world: World, row: BorrowedRow):
    home = next((r for r in ROWS if r.target == row.target and r.method == row.method), None)
    return home.data(world) if home is not None and home.data is not None else None


@pytest.mark.parametrize("row", borrowed_rows(), ids=str)
def test_an_id_of_another_parent_is_answered_as_one_that_is_nowhere(world, row: BorrowedRow):
    borrowed, nowhere, lent = urls(world, row)
    data = _data(world, row)
    expected = _as_if_nowhere(world, row, nowhere, data)
    names = [name for obj in lent for name in names_of(obj)]
    before = world_state() if row.method != "GET" else None
    wrong = []
    for role in ROLES:
        answer = ask(
            world, role, row.method, borrowed, data=data, after=world_state if before is not None else None
        )
        got, should = outcome(answer), outcome(expected[role])
        if got != should:
            wrong.append(
                f"{role}: got {got} ({answer.status} {answer.location}), an id nowhere gets {should}"
            )
        if should not in REFUSED:
            wrong.append(f"{role}: an id nowhere gets {should}, not a refusal")
        text, elsewhere = answer.body.decode(errors="replace"), expected[role].body.decode(errors="replace")
        if shown := [name for name in names if name in text and name not in elsewhere]:
            wrong.append(f"{role}: shown {shown} of the borrowed object")
        if answer.status == 200 and (leaked := leaks(world, role, row.target, answer.body)):
            wrong.append(f"{role}: shown {'; '.join(leaked)}")
        if borrowed.startswith("/api/") and answer.status >= 400 and "detail" not in json.loads(answer.body):
            wrong.append(f"{role}: {answer.status} without the API's error shape")
        if before is not None and changed(before, answer.seen):
            wrong.append(f"{role}: changed {', '.join(changed(before, answer.seen))}")
    assert not wrong, f"{row} ({borrowed}):\n" + "\n".join(wrong)
