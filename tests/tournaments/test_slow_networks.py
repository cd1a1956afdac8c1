"""What a phone on a slow line gets (bench/web/slow3g.py): the tournament pages and the
hall screen carry their stylesheets in the page, admitted by the Content-Security-Policy by their
hashes and nothing else inline; and every textual answer of known length comes gzip-compressed to a
client that accepts it (config/compression.py), Django's and the visitors' copies alike, each with
its own form token."""

from __future__ import annotations

import base64
import datetime
import gzip
import hashlib
import re

import pytest
from asgiref.sync import async_to_sync

from config import inline_css
from config.compression import Compressing
from tournaments import services

from .conftest import register_pairs
from .test_visitor_copies import TOKEN, fetch
from .test_visitor_copies import site as site  # noqa: PLC0414 - the fixture, used by name

pytestmark = pytest.mark.django_db(transaction=True)
GZIP = (b"accept-encoding", b"gzip, deflate, br")
STYLE = re.compile(r"<style>(.*?)</style>", re.S)


@pytest.fixture
def swiss(club, organiser):
    t = services.create_tournament(actor=organiser, club=club, name="Медленная сеть",
                                   starts_on=datetime.date(2026, 12, 6), format="swiss", swiss_rounds=3)
    register_pairs(t, organiser, 4, prefix="Медленный")
    services.pair_next_round(actor=organiser, tournament=t)
    return t


def _body(answer: dict) -> bytes:
    if answer["header"].get("content-encoding") == ["gzip"]:
        return gzip.decompress(answer["body"])
    return answer["body"]


def test_a_page_comes_compressed_to_whoever_accepts_gzip_and_plain_to_the_rest(swiss, site):
    url = f"/t/{swiss.slug}/rounds/1/"
    plain = fetch(url)
    squeezed = fetch(url, GZIP)
    assert plain["status"] == squeezed["status"] == 200
    assert "content-encoding" not in plain["header"]
    assert squeezed["header"]["content-encoding"] == ["gzip"]
    assert "Accept-Encoding" in ", ".join(squeezed["header"]["vary"])
    assert int(squeezed["header"]["content-length"][0]) == len(squeezed["body"])
    assert len(squeezed["body"]) * 2 < len(plain["body"])
    page = _body(squeezed)
    assert TOKEN.sub(b"", page) == TOKEN.sub(b"", plain["body"])  # the same page, its own form token
    refused = fetch(url, (b"accept-encoding", b"gzip;q=0, identity"))
    assert "content-encoding" not in refused["header"]


def test_the_visitors_copy_is_compressed_with_the_visitors_own_token(swiss, site):
    _, reached = site
    url = f"/t/{swiss.slug}/standings/"
    first = fetch(url, GZIP)
    before = len(reached)
    second = fetch(url, GZIP)
    assert len(reached) == before, "the second visitor was answered by the copy, without Django"
    assert second["header"]["content-encoding"] == ["gzip"]
    tokens = [TOKEN.search(_body(a)).group(1) for a in (first, second)]
    assert tokens[0] != tokens[1]  # masked anew for each, in the plain bytes before compressing


def test_the_tournament_pages_carry_their_styles_admitted_by_their_hash_alone(swiss, client):
    page = client.get(f"/t/{swiss.slug}/rounds/1/")
    html = page.content.decode()
    styles = STYLE.findall(html)
    assert styles == [inline_css.text("tournament")]
    assert "css/bilka" not in html and "tournaments/tournaments" not in html  # not linked as well
    digest = base64.b64encode(hashlib.sha256(styles[0].encode()).digest()).decode()
    policy = page["Content-Security-Policy"]
    style_src = re.search(r"style-src ([^;]*)", policy).group(1).split()
    assert f"'sha256-{digest}'" in style_src
    assert "'unsafe-inline'" not in style_src
    hall = client.get(f"/t/{swiss.slug}/hall/").content.decode()
    assert STYLE.findall(hall) == [inline_css.text("hall")]
    other = client.get("/clubs/").content.decode()  # every other page links its stylesheet, cached
    assert not STYLE.findall(other) and "css/bilka" in other


def _run(messages: list[dict]) -> list[dict]:
    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def go():
        wrapper = Compressing(send)
        for message in messages:
            await wrapper(message)

    async_to_sync(go)()
    return sent


def test_streamed_encoded_and_binary_answers_pass_as_they_are():
    body = b"data: x\n\n" * 100
    for headers in (
        [(b"content-type", b"text/event-stream")],  # the event stream: no length, never held back
        [(b"content-type", b"text/html"), (b"content-length", str(len(body)).encode()),
         (b"content-encoding", b"gzip")],
        [(b"content-type", b"image/png"), (b"content-length", str(len(body)).encode())],
        [(b"content-type", b"text/html"), (b"content-length", b"50")],  # too short to be worth it
    ):
        messages = [{"type": "http.response.start", "status": 200, "headers": headers},
                    {"type": "http.response.body", "body": body, "more_body": True},
                    {"type": "http.response.body", "body": b""}]
        assert _run(messages) == messages


def test_a_body_in_chunks_is_compressed_whole_and_a_strong_etag_made_weak():
    body = "Белка ".encode() * 2000
    sent = _run([
        {"type": "http.response.start", "status": 200,
         "headers": [(b"content-type", b"text/html; charset=utf-8"),
                     (b"content-length", str(len(body)).encode()), (b"etag", b'"abc"'),
                     (b"vary", b"Cookie")]},
        {"type": "http.response.body", "body": body[:5000], "more_body": True},
        {"type": "http.response.body", "body": body[5000:]},
    ])
    assert len(sent) == 2
    headers = dict(sent[0]["headers"])
    assert headers[b"content-encoding"] == b"gzip" and headers[b"etag"] == b'W/"abc"'
    assert headers[b"vary"] == b"Cookie, Accept-Encoding"
    assert gzip.decompress(sent[1]["body"]) == body
    assert int(headers[b"content-length"]) == len(sent[1]["body"])
