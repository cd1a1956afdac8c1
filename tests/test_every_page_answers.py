"""Every page a visitor, the demo club's owner and its organiser can reach by links from the home
page answers without a server error, on the demo data ``bin/site`` loads: on SQLite, the embedded
default a newcomer's first ``bin/site`` runs on (which no other test's database is), and on
PostgreSQL.

The site's own ``manage.py`` migrates and seeds a fresh database in a process of its own (the dev
settings), then walks the links with Django's test client, at most three pages of a shape (the
same path with other numbers), each user on his own. It found a player's archive page failing on
SQLite (a JSON ``contains`` lookup) and a duplicate round's score sheets failing everywhere.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.databases import Database, manage, site_env

pytestmark = pytest.mark.slow

SEEDS = ("seed_demo", "seed_demo_tournaments", "seed_demo_duplicate", "seed_demo_tables", "recompute_ratings")

WALK = r"""
import json, re, traceback, urllib.parse
from collections import deque
from django.contrib.auth import get_user_model
from django.test import Client

SKIP = ("/static/", "/media/", "/admin/", "/accounts/logout", "/i18n/")

def walk(username):
    client = Client(HTTP_HOST="127.0.0.1:8000", raise_request_exception=True)
    if username:
        client.force_login(get_user_model().objects.get(username=username))
    seen, queue, shapes, bad = set(), deque(["/"]), {}, []
    while queue and len(seen) < 700:
        path = queue.popleft()
        shape = re.sub(r"\d+", "N", path.split("?")[0])
        if path in seen or shapes.get(shape, 0) >= 3:
            continue
        shapes[shape] = shapes.get(shape, 0) + 1
        seen.add(path)
        try:
            response = client.get(path)
        except Exception as error:
            bad.append([path, "".join(traceback.format_exception_only(error)).strip()[:300]])
            continue
        if response.status_code >= 500:
            bad.append([path, response.status_code])
            continue
        if "html" not in response.get("content-type", ""):
            continue
        for href in re.findall(r'href="([^"#]+)"', response.content.decode("utf-8", "replace")):
            href = urllib.parse.urljoin(path, href.replace("&amp;", "&"))
            if href.startswith("/") and not href.startswith(SKIP):
                queue.append(href)
    return len(seen), bad

out = {}
for username in (None, "demo", "organiser"):
    pages, bad = walk(username)
    out[username or "visitor"] = {"pages": pages, "bad": bad}
print(json.dumps(out))
"""


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_every_page_reachable_from_home_answers_on_the_demo_data(kind: str, tmp_path: Path) -> None:
    database = Database(kind, tmp_path)
    env = site_env(database.url, tmp_path)
    try:
        manage(REPO_ROOT, env, "migrate", "-v0")
        for seed in SEEDS:
            manage(REPO_ROOT, env, seed)
        walked = json.loads(manage(REPO_ROOT, env, "shell", "-c", WALK).strip().splitlines()[-1])
    finally:
        database.drop()
    # the walk reaches the site: tables, tournaments of every format, the archive, the ratings
    assert walked["visitor"]["pages"] > 150 and walked["demo"]["pages"] > 300, walked
    failing = {who: seen["bad"] for who, seen in walked.items() if seen["bad"]}
    assert not failing, json.dumps(failing, ensure_ascii=False, indent=1)
