"""The site as an app on the home screen: its manifest (what Android needs to offer "Install", in the
reader's language), the icons iOS and Android take, the page shown offline, and the shell the
service worker keeps when it is installed."""

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def _png_size(path: str) -> tuple[int, int]:
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


@pytest.mark.parametrize(("language", "short_name"), [("en", "Bilka"), ("ru", "Белка"), ("uk", "Білка"),
                                                      ("kk", "Белка")])
def test_the_manifest_names_the_site_in_the_readers_language(language, short_name):
    answer = Client(HTTP_ACCEPT_LANGUAGE=language).get("/manifest.webmanifest")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["short_name"] == short_name and manifest["lang"] == language
    assert short_name in manifest["name"]
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    assert manifest["theme_color"] == "#1f6f4a" and manifest["background_color"] == "#f7f8f6"


def test_the_manifests_icons_are_pngs_of_the_sizes_they_claim():
    manifest = json.loads(Client().get("/manifest.webmanifest").content)
    purposes = set()
    for icon in manifest["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert path, icon["src"]
        width, height = (int(n) for n in icon["sizes"].split("x"))
        assert _png_size(path) == (width, height)
        purposes.add((icon["purpose"], width))
    assert {("any", 192), ("any", 512), ("maskable", 512)} <= purposes


def test_every_page_links_the_manifest_and_the_home_screen_icons():
    page = Client().get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color" content="#1f6f4a">' in page
    assert '<meta name="apple-mobile-web-app-capable" content="yes">' in page
    touch = re.search(r'<link rel="apple-touch-icon" href="/static/([^"]+)">', page)
    assert touch and _png_size(finders.find(touch[1])) == (180, 180)
    assert re.search(r'<script src="/static/js/offline_forms\.js" defer>', page)


def test_the_offline_page_says_what_can_still_be_done_in_the_readers_language():
    answer = Client(HTTP_ACCEPT_LANGUAGE="ru").get("/offline/")
    assert answer.status_code == 200
    assert "Нет связи" in answer.content.decode()


def test_the_worker_keeps_the_shell_it_names_and_every_file_of_it_is_there():
    script = Client().get("/sw.js").content.decode()
    head = re.match(r"self\.BILKA_SHELL = (\{.*\});\n", script)
    assert head, script[:200]
    shell = json.loads(head[1])
    assert shell["offline"] == "/offline/" and shell["offline"] in shell["files"]
    assert "/static/css/bilka.css" in shell["files"] and "/static/js/offline_forms.js" in shell["files"]
    for url in shell["files"]:
        assert url == "/offline/" or finders.find(url.removeprefix("/static/")), url
    assert re.fullmatch(r"[0-9a-f]{12}", shell["version"])
    assert 'addEventListener("push"' in script and 'addEventListener("fetch"' in script
