"""Every write the site takes, sent hostile bodies as each of the matrix's people: nested deep,
huge, empty, binary, wrongly typed, with unknown fields. No answer may be a server error.

The doors come from the URL conf (`fuzz.doors`): a new route is fuzzed without a line of test. A
door is first sent a probe as each of the seven people (without the CSRF check, which reads every
form). A person whose request the view answered without looking at the body (turned away before
reading it) gets the same answer whatever is sent, and is asked the probe only; every person whose
body the view read is asked every case (`fuzz_cases.FORM_CASES`, `fuzz_cases.JSON_CASES`), and so
is the anonymous visitor at every door that reads a body for anyone, so that the middleware parses
every hostile body at every such door. A larger random run of the same doors, bodies drawn by
hypothesis, is marked slow.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.authz.fuzz import Body, Door, Fields, doors, fuzz_client, page_fields, send
from tests.authz.fuzz_cases import DEEP, JSON, cases_for, form, probe_body, upload, urlencoded
from tests.authz.world import ROLES, World

pytestmark = pytest.mark.django_db

DOORS = doors()


@pytest.fixture(autouse=True)
def _no_tasks(settings, monkeypatch):
    settings.GAMEPLAY_QUEUE_TASKS = False
    monkeypatch.setattr("config.health.TIMEOUT_SECONDS", 0.05)


def body_readers(world: World, door: Door) -> set[str]:
    """The people whose probe the door's view looked at (each asked without the CSRF check,
    which reads every form); a 5xx to the probe fails."""
    errors, readers = [], set()
    for role in ROLES:
        answer = send(world, world.client(role), role, door, probe_body(door))
        if answer.status >= 500:
            errors.append(f"{role}: the probe: {answer.status} {answer.error}")
        if answer.read_body:
            readers.add(role)
    assert not errors, f"{door}:\n" + "\n".join(errors)
    return readers


def reads_bodies(world: World, door: Door) -> bool:
    """Whether the door's view looked at the probe's body for anyone."""
    return bool(body_readers(world, door))


@pytest.mark.parametrize("door", DOORS, ids=str)
def test_no_body_makes_a_server_error(world, door: Door):
    readers = body_readers(world, door)
    if not readers:
        return
    fields = page_fields(world, door)
    cases = cases_for(door)
    errors = []
    for role in ROLES:
        if role not in readers and role != "anonymous":
            continue  # turned away before the body was read: every body gets the probe's answer
        client = fuzz_client(world, role)
        for name, make in cases.items():
            answer = send(world, client, role, door, make(fields))
            if answer.status >= 500:
                errors.append(f"{role}, {name}: {answer.status} {answer.error}")
    assert not errors, f"{door} (fields {fields.names}):\n" + "\n".join(errors)


def test_the_fuzz_reaches_every_kind_of_write():
    """The doors the URL conf gives include the five the audit's body broke, and every API write."""
    names = {str(d) for d in DOORS}
    assert {
        "POST gameplay:verify",
        "POST archive:upload",
        "POST tournaments:match_record",
        "POST api:entry_list",
        "POST api:match_result",
    } <= names
    assert len(cases_for(Door("clubs:club_edit", "POST"))) >= 20
    assert len(cases_for(Door("api:match_result", "POST"))) >= 20


# --- the random run -------------------------------------------------------------------------

_reading: dict[int, list[tuple[Door, Fields]]] = {}


def reading_doors(world: World) -> list[tuple[Door, Fields]]:
    """The doors that read bodies, with their fields: found once for the run."""
    if id(world) not in _reading:
        _reading[id(world)] = [(d, page_fields(world, d)) for d in DOORS if reads_bodies(world, d)]
    return _reading[id(world)]


_text = st.text(max_size=300) | st.sampled_from(["", DEEP, "a\x00b", "9" * 40, "-1", "1e309", "ж" * 3000])
_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@st.composite
def _form_body(draw, fields: Fields) -> Body:
    names = st.sampled_from(fields.names) | st.text(min_size=1, max_size=20)
    values = _text | st.binary(max_size=2000).map(lambda b: upload("x.json", b)) | st.lists(_text, max_size=3)
    drawn = draw(st.dictionaries(names, values, max_size=8))
    base = draw(st.sampled_from([{}, fields.values]))
    if draw(st.booleans()) and not any(hasattr(v, "read") or isinstance(v, list) for v in drawn.values()):
        return urlencoded(
            "&".join(f"{k}={v}" for k, v in {**base, **drawn}.items()).encode("utf-8", "replace")
        )
    return form({**base, **drawn})


@st.composite
def _json_body(draw, fields: Fields) -> Body:
    names = st.sampled_from(fields.names) | st.text(max_size=10)
    value = draw(st.dictionaries(names, _json_values, max_size=6) | _json_values)
    if draw(st.integers(0, 9)) == 0:
        return Body(draw(st.binary(max_size=500)), JSON)
    return Body(json.dumps(value).encode(), JSON)


@pytest.fixture
def unthrottled(settings):
    """Thousands of API requests from one key and address: the limits are the throttling test's.
    Set once for the whole run (each example setting it again would stack an override each)."""
    rates = {"token": "100000/min", "address": "100000/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


@pytest.mark.slow
@settings(
    max_examples=3000,
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(data=st.data())
def test_random_bodies_make_no_server_error(world, unthrottled, data):
    door, fields = data.draw(st.sampled_from(reading_doors(world)), label="door")
    role = data.draw(st.sampled_from(ROLES), label="role")
    body = data.draw(_json_body(fields) if door.api else _form_body(fields), label="body")
    answer = send(world, fuzz_client(world, role), role, door, body)
    assert answer.status < 500, f"{door} as {role}: {answer.status} {answer.error}"
