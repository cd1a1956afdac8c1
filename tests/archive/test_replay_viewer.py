"""What the replay's server draws, before any script: no spoilers (a deal's outcome, points and
eyes after it, and the match's result, drawn hidden until the position reaches their end, or
`?results=1` asks for them), the trick list with who played which card and who took it, and the
marks on the cards (the next card of the record, the best cards with all hands known)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from archive.models import MatchAnalysis
from archive.services import analysis
from gameplay.engine.positions import Replay
from tests.archive.test_analysis import _archive, _short_record
from tests.clubs.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(db):
    players = [
        PlayerFactory(display_name=name, user=UserFactory(username=name.lower()))
        for name in ("Asel", "Ivan", "Oleh", "Nurlan")
    ]
    return _archive(players, _short_record())


def _get(client, match, query: str) -> str:
    url = reverse("archive:match", args=[match.pk])
    return client.get(f"{url}?{query}", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def _tags(html: str, marker: str) -> list[str]:
    """The opening tags whose class list holds `marker` (or, for `data-…`, that carry it)."""
    if marker.startswith("data-"):
        return re.findall(rf"<[a-z]+\b[^>]*\s{marker}(?=[\s>=])[^>]*>", html)
    return re.findall(rf'<[a-z]+\b[^>]*class="(?:[^"]*\s)?{marker}(?:\s[^"]*)?"[^>]*>', html)


def _hidden(tag: str) -> bool:
    return re.search(r"\shidden(?=[\s>])", tag) is not None


def test_no_deal_shows_its_outcome_before_the_replay_reaches_its_end(client, match):
    replay = Replay.from_record(match.record)
    first, last = replay.deals[0], replay.deals[-1]
    assert len(replay.deals) == 2 and first.finished and first.plays == 32

    start = _get(client, match, "deal=1&card=0")
    assert _hidden(_tags(start, "rp-outcome")[0]) and _hidden(_tags(start, "rp-eyes-after")[0])
    assert [_hidden(t) for t in _tags(start, "rp-row-result")] == [True, True]
    assert _tags(start, "data-rp-match") and all(_hidden(t) for t in _tags(start, "data-rp-match"))
    assert not _tags(start, "winner")  # the winning pair is not marked either
    assert _hidden(_tags(_get(client, match, "deal=1&card=31"), "rp-outcome")[0])

    end = _get(client, match, "deal=1&card=32")
    assert not _hidden(_tags(end, "rp-outcome")[0]) and not _hidden(_tags(end, "rp-eyes-after")[0])
    assert [_hidden(t) for t in _tags(end, "rp-row-result")] == [False, True]
    assert all(_hidden(t) for t in _tags(end, "data-rp-match"))  # the match is not over yet

    second = _get(client, match, "deal=2&card=0")
    # earlier deals show theirs (the second was resigned before its first card: card 0 is its end)
    assert [_hidden(t) for t in _tags(second, "rp-row-result")] == [False, last.plays > 0]
    over = _get(client, match, f"deal=2&card={last.plays}")
    assert [_hidden(t) for t in _tags(over, "rp-row-result")] == [False, False]
    assert not any(_hidden(t) for t in _tags(over, "data-rp-match")) and _tags(over, "winner")


def test_results_1_shows_every_result_and_keeps_itself_in_the_links(client, match):
    page = _get(client, match, "deal=1&card=0&results=1")
    assert not _hidden(_tags(page, "rp-outcome")[0])
    assert [_hidden(t) for t in _tags(page, "rp-row-result")] == [False, False]
    assert not any(_hidden(t) for t in _tags(page, "data-rp-match"))
    assert 'href="?deal=1&amp;card=1&amp;results=1"' in page  # the next card's step
    toggle = _tags(page, "rp-results")[0]
    assert 'aria-pressed="true"' in toggle and 'href="?deal=1&amp;card=0"' in toggle
    assert "Hide results" in page
    plain = _tags(_get(client, match, "deal=1&card=0"), "rp-results")[0]
    assert 'aria-pressed="false"' in plain and 'href="?deal=1&amp;card=0&amp;results=1"' in plain


def test_the_trick_list_says_who_played_each_card_and_who_took_it(client, match):
    replay = Replay.from_record(match.record)
    page = _get(client, match, "deal=1&card=8")
    items = re.findall(r"<li>Trick \d.*?</li>", page.split('class="rp-trick-list"')[1], flags=re.S)
    assert len(items) == 2
    for item, trick in zip(items, replay.position(0, 8).tricks, strict=True):
        played = re.findall(
            r'<span class="rp-played( rp-won)?" title="[^"]+">'
            r'<span class="rp-who" aria-hidden="true">(\w)</span>'
            r'<span class="bt-card[^"]*" data-card="(\w\w)"',
            item,
        )
        assert [(seat, code) for _won, seat, code in played] == list(trick.cards)
        assert [seat for won, seat, _code in played if won] == [trick.winner]
        assert "took the trick" in item


def test_the_hands_mark_the_next_card_and_the_best_cards(client, match):
    replay = Replay.from_record(match.record)
    before = _get(client, match, "deal=1&card=5")
    assert [re.search(r'data-card="(\w\w)"', t)[1] for t in _tags(before, "rp-next") if "data-card" in t] == [
        replay.deals[0].cards[5][1]
    ]
    assert not _tags(before, "rp-best")  # no analysis yet: no best card, no legend for it
    analysis.analyse_match(match_id=match.pk)
    best = MatchAnalysis.objects.get(match=match).result["deals"][0]["cards"][5]["best"]
    page = _get(client, match, "deal=1&card=5")
    marked = [re.search(r'data-card="(\w\w)"', t)[1] for t in _tags(page, "rp-best") if "data-card" in t]
    assert sorted(marked) == sorted(best)
    assert "a best card with all hands known" in page and "played next" in page
    assert not _hidden(_tags(page, "rp-legend-best")[0])
    assert _hidden(_tags(page, "rp-dd-against")[0])  # the deal's final points are its result too
    assert not _hidden(_tags(_get(client, match, "deal=1&card=32"), "rp-dd-against")[0])
    assert not [t for t in _tags(_get(client, match, "deal=1&card=32"), "rp-next") if "data-card" in t]
