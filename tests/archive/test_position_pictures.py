"""A shared deal's picture: the SVG and PNG of a position say what the record says there (every
card of each hand, the trick on the table, the par once analysed), a private match has none for
anyone who may not see it, and only a public match's page carries Open Graph tags, with absolute
addresses from SITE_URL."""

from __future__ import annotations

import re
import struct
from html import unescape

import pytest
from django.test import override_settings
from django.urls import reverse

from archive.models import ArchivedMatch
from archive.services import analysis
from gameplay.engine.positions import Replay
from gameplay.words import SUIT_SYMBOL
from tests.archive.test_analysis import _archive, _short_record
from tests.clubs.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

RANKS = {"6": "6", "7": "7", "8": "8", "9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}


@pytest.fixture
def match(db):
    players = [PlayerFactory(display_name=name, user=UserFactory(username=name.lower()))
               for name in ("Asel", "Ivan", "Oleh", "Nurlan")]
    return _archive(players, _short_record())


def _svg_texts(client, match, query: str) -> list[str]:
    answer = client.get(reverse("archive:position_svg", args=[match.pk]) + query, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("image/svg+xml")
    return [unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", answer.content.decode())]


def _cards_in(texts: list[str]) -> set[str]:
    """Every card a picture shows, as record codes (a hand's "♠ Q 9 7" or a trick's "Q♠")."""
    suits = {v: k for k, v in SUIT_SYMBOL.items()}
    ranks = {v: k for k, v in RANKS.items()}
    found = set()
    for text in texts:
        for run in re.findall(r"([♠♥♦♣]) ((?:(?:10|[6-9JQKA]) ?)+)", text):
            found |= {ranks[r] + suits[run[0]] for r in run[1].split()}
        found |= {ranks[r] + suits[s] for r, s in re.findall(r"^(10|[6-9JQKA])([♠♥♦♣])$", text)}
    return found


def test_the_picture_shows_the_records_position(client, match):
    replay = Replay.from_record(match.record)
    start = _svg_texts(client, match, "?deal=1&card=0")
    assert _cards_in(start) == {c for hand in replay.deals[0].hands.values() for c in hand}
    assert any("Asel" in t for t in start) and any("Deal 1, card 0 of 32" in t for t in start)
    after = _svg_texts(client, match, "?deal=1&card=5")
    pos = replay.position(0, 5)
    assert _cards_in(after) == {c for hand in pos.hands.values() for c in hand} | {c for _s, c in pos.trick}
    assert not any(t.startswith("Par with best play") for t in after)
    analysis.analyse_match(match_id=match.pk)
    par = next(t for t in _svg_texts(client, match, "?deal=1&card=5") if t.startswith("Par with best play"))
    assert re.search(r"NS \d+ · EW \d+", par)


def test_the_png_is_a_link_previews_size(client, match):
    answer = client.get(reverse("archive:position_png", args=[match.pk]) + "?deal=1&card=9")
    body = answer.content
    assert answer.status_code == 200 and answer["Content-Type"] == "image/png"
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", body[16:24]) == (1200, 630)


@override_settings(SITE_URL="https://bilka.example")
def test_only_a_public_match_has_a_picture_and_tags_for_a_link_preview(client, match):
    page = client.get(reverse("archive:match", args=[match.pk]) + "?deal=1&card=4").content.decode()
    image = f"https://bilka.example/archive/{match.pk}/position.png?deal=1&amp;card=4"
    assert f'<meta property="og:image" content="{image}">' in page
    address = f"https://bilka.example/archive/{match.pk}/?deal=1&amp;card=4"
    assert f'<meta property="og:url" content="{address}">' in page

    ArchivedMatch.objects.filter(pk=match.pk).update(public=False)
    for name in ("archive:position_svg", "archive:position_png"):
        assert client.get(reverse(name, args=[match.pk])).status_code == 404  # a visitor, a preview
    client.force_login(UserFactory(username="player-of-it"))
    assert client.get(reverse("archive:position_png", args=[match.pk])).status_code == 404
    seated = match.seats.get(seat=0).player.user
    client.force_login(seated)
    assert client.get(reverse("archive:position_png", args=[match.pk])).status_code == 200
    page = client.get(reverse("archive:match", args=[match.pk])).content.decode()
    assert 'property="og:' not in page  # its players see it, but no tags describe it
