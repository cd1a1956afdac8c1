"""The audit's body: JSON nested a thousand deep (2 KB), sent to every place that reads JSON from
people. Each answers 400 with why, in the reader's language (the API in its own error shape), and
writes nothing; the API refuses a key that may not do the write before it reads the body."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client

from tests.authz.asking import url_of
from tests.authz.fingerprint import changed, world_state
from tests.authz.world import World

pytestmark = pytest.mark.django_db

DEEP = "[" * 1000 + "]" * 1000
RECORD_TOO_DEEP = {
    "en": "This is not a game record: it is nested deeper than any record.",
    "ru": "Это не запись партии: вложенность глубже, чем у любой записи.",
}
BODY_TOO_DEEP = {
    "en": "This JSON is nested too deep (levels allowed here: 8).",
    "ru": "В этом JSON слишком глубокая вложенность (здесь допустимо уровней: 8).",
}


@dataclass(frozen=True)
class Door:
    who: str
    target: str
    form: Callable[[World], dict[str, Any]] | None = None  # a page's form; else the API's JSON body


def _file() -> SimpleUploadedFile:
    return SimpleUploadedFile("deep.json", DEEP.encode(), "application/json")


DOORS = {
    "verify, pasted": Door("anonymous", "gameplay:verify", lambda w: {"record": DEEP}),
    "verify, a file": Door("anonymous", "gameplay:verify", lambda w: {"file": _file()}),
    "archive upload": Door(
        "organiser",
        "archive:upload",
        lambda w: {"club": w.club.pk, "played": "2026-11-20", "pasted": DEEP, "files": [_file()]},
    ),
    "a match's record": Door("organiser", "tournaments:match_record", lambda w: {"record": DEEP}),
    "API: register a pair": Door("organiser", "api:entry_list"),
    "API: report a result": Door("organiser", "api:match_result"),
}


def _send(world: World, door: Door, lang: str, who: str | None = None):
    who = who or door.who
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    if who != "anonymous":
        client.force_login(world.users[who])
    url = url_of(world, door.target)
    before = world_state()
    with transaction.atomic():
        if door.form is not None:
            response = client.post(url, door.form(world))
        else:
            response = client.post(
                url, DEEP, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {world.keys[who]}"
            )
        after = world_state()
        transaction.set_rollback(True)
    return response, changed(before, after)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("door", DOORS.values(), ids=list(DOORS))
def test_json_nested_a_thousand_deep_is_a_400_in_the_readers_language(world, door, lang):
    response, written = _send(world, door, lang)
    assert response.status_code == 400
    assert not written
    if door.form is not None:
        assert RECORD_TOO_DEEP[lang] in response.content.decode()
    else:
        assert json.loads(response.content) == {"detail": BODY_TOO_DEEP[lang]}


@pytest.mark.parametrize("target", ["api:entry_list", "api:match_result"])
def test_the_api_refuses_a_key_that_may_not_write_before_it_reads_the_body(world, target):
    """A member's write key names the club, but a member registers no pair and reports no match
    he does not play: 403 whatever the body holds."""
    response, written = _send(world, Door("member", target), "ru")
    assert response.status_code == 403 and not written
    assert "JSON" not in json.loads(response.content)["detail"]
