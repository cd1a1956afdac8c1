"""The public tournament pages and the API's standings are kept in the cache for visitors, and a
change shows on them as soon as it commits; a change rolled back never does."""

import contextlib
import datetime
import re
import threading

import pytest
from django.db import transaction
from django.test import Client

from tournaments import services
from tournaments.models import Match, MatchStatus

from .conftest import register_pairs

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def swiss(club, organiser):
    t = services.create_tournament(actor=organiser, club=club, name="Свежая швейцарка",
                                   starts_on=datetime.date(2026, 12, 2), format="swiss", swiss_rounds=3)
    register_pairs(t, organiser, 4, prefix="Свежий")
    services.pair_next_round(actor=organiser, tournament=t)
    return t


def _open_match(t):
    return Match.objects.filter(round__tournament=t, status=MatchStatus.SCHEDULED).order_by("table").first()


def _played(client, t) -> tuple[str, int]:
    page = client.get(f"/t/{t.slug}/standings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    page = re.sub(r'csrfmiddlewaretoken" value="[^"]*"', "", page)  # masked anew on every answer
    api = client.get(f"/api/v1/tournaments/{t.slug}/standings/").json()
    return page, sum(line["played"] for line in api["lines"])


def test_a_committed_result_is_on_the_kept_pages_at_once(swiss, organiser):
    visitor = Client()
    match = _open_match(swiss)
    before, played = _played(visitor, swiss)
    assert played == 0
    assert before == _played(visitor, swiss)[0]  # the same page a second time
    services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=3)  # commits
    page, played = _played(visitor, swiss)
    assert played == 2
    assert page != before


def test_a_change_rolled_back_is_never_on_them(swiss, organiser):
    visitor = Client()
    match = _open_match(swiss)
    before = _played(visitor, swiss)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=3)
        # a visitor's request during the transaction sees the rows before it (another connection
        # would); what it works out then must not outlive the commit
        raise RuntimeError
    assert _played(visitor, swiss)[1] == before[1] == 0


def test_a_write_that_is_no_service_renews_them_too(swiss):
    visitor = Client()
    _played(visitor, swiss)
    match = _open_match(swiss)
    match.home_eyes, match.away_eyes, match.status = 12, 4, MatchStatus.CONFIRMED
    match.winner = match.home
    match.save()  # as the admin would
    assert _played(visitor, swiss)[1] == 2


def test_signed_in_people_get_their_own_page(swiss, organiser):
    """The organiser sees his buttons; a visitor after him does not get them from the cache."""
    organiser_client = Client()
    organiser_client.force_login(organiser)
    mine = organiser_client.get(f"/t/{swiss.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    theirs = Client().get(f"/t/{swiss.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "/pair-next/" in mine or "pair" in mine.lower()
    assert mine != theirs
    assert organiser.username not in theirs


def test_each_visitor_gets_a_form_token_of_his_own(swiss):
    """The language form's token in a kept page is the visitor's, so the form works for him."""
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first.get(f"/t/{swiss.slug}/standings/")
    response = second.get(f"/t/{swiss.slug}/standings/")
    token = response.content.decode().split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
    answer = second.post("/i18n/setlang/", {"language": "kk", "next": "/", "csrfmiddlewaretoken": token})
    assert answer.status_code == 302


def test_the_api_standings_are_fresh_in_every_form_they_are_asked_in(swiss, organiser):
    """Plain JSON is kept as sent; indented JSON is encoded from the kept table."""
    visitor = Client()
    url = f"/api/v1/tournaments/{swiss.slug}/standings/"
    forms = ({}, {"HTTP_ACCEPT": "application/json; indent=2"})
    for headers in forms:
        assert visitor.get(url, **headers).status_code == 200
    services.enter_result(actor=organiser, match=_open_match(swiss), home_eyes=12, away_eyes=3)
    plain, indented = (visitor.get(url, **headers) for headers in forms)
    assert plain["Content-Type"] == "application/json"
    assert sum(line["played"] for line in plain.json()["lines"]) == 2
    assert indented.content.startswith(b"{\n  ")
    assert sum(line["played"] for line in indented.json()["lines"]) == 2


def test_a_value_others_are_made_from_is_never_the_last_one(swiss, monkeypatch):
    """While one request works the standings table out again after a change, another asking for it
    to make the API's JSON or the page waits for the new one: made from the old table, they were
    kept as new and stayed wrong until the next change. The other request's work ends only once the
    reader waits for it, so the test does not race it on a busy machine."""
    import threading
    import time
    import types

    from config import fresh

    assert fresh.cached("table", swiss.slug, lambda: ("old", True)) == "old"
    fresh.renew(slug=swiss.slug)
    started, release = threading.Event(), threading.Event()

    def slow():
        started.set()
        assert release.wait(60)
        return "new", True

    def waiting(seconds: float) -> None:  # the reader's pause while another works the value out
        release.set()
        time.sleep(seconds)

    monkeypatch.setattr(fresh, "time", types.SimpleNamespace(time=time.time, monotonic=time.monotonic,
                                                             sleep=waiting))
    worker = threading.Thread(target=fresh.cached, args=("table", swiss.slug, slow))
    worker.start()
    assert started.wait(60)
    try:
        assert fresh.cached("table", swiss.slug, lambda: ("mine", True)) == "old"  # a page may show the last
        assert fresh.cached("table", swiss.slug, lambda: ("mine", True), current=True) == "new"
    finally:
        release.set()
        worker.join()


@contextlib.contextmanager
def _being_worked_out(slug: str, name: str, value: str):
    """Inside: another reader is working ``name`` out (at the versions when it began), and gives
    ``value`` when the block ends."""
    from config import fresh

    started, release = threading.Event(), threading.Event()

    def slow():
        started.set()
        assert release.wait(60)
        return value, True

    reader = threading.Thread(target=fresh.cached, args=(name, slug, slow))
    reader.start()
    assert started.wait(60)
    try:
        yield
    finally:
        release.set()
        reader.join()


def test_a_value_at_versions_since_moved_does_not_hold_up_the_one_now(swiss):
    """A reader during the writer's transaction works the page out at the versions renewed when the
    change was made; the commit renews them again. The reader after the commit works the new page
    out at once, not after the first reader is done (which made a result twice as slow to show),
    and the first reader's page, older, does not replace it when it comes."""

    from config import fresh

    assert fresh.cached("page", swiss.slug, lambda: ("before", True)) == "before"
    fresh.renew(slug=swiss.slug)  # the change made (in its transaction)
    with _being_worked_out(swiss.slug, "page", "from the rows before the commit"):
        fresh.renew(slug=swiss.slug)  # the commit
        assert fresh.cached("page", swiss.slug, lambda: ("after", True)) == "after"
    assert fresh.cached("page", swiss.slug, lambda: ("worked out again", True)) == "after"


def test_a_move_of_the_epoch_alone_waits_for_the_value_being_worked_out_at_the_version(swiss):
    """The worker learns the ratings from a result 25-50 ms after it and moves the epoch. A page
    already being worked out at the result's version shows the result, so another reader gets the
    last value until it is kept rather than working the page out again beside it, in the same
    interpreter, which made both twice as slow. A value others are made from stays exact, and a
    new tournament version is worked out at once."""

    from config import fresh

    assert fresh.cached("page", swiss.slug, lambda: ("before", True)) == "before"
    fresh.renew(slug=swiss.slug)  # a result committed
    with _being_worked_out(swiss.slug, "page", "with the result"):
        fresh.renew_all()  # the ratings learnt from it
        assert fresh.cached("page", swiss.slug, lambda: ("twice", True)) == "before"
        assert fresh.cached("page", swiss.slug, lambda: ("exact", True), current=True) == "exact"
    after = fresh.cached("page", swiss.slug, lambda: ("with the ratings", True))
    assert after in ("exact", "with the ratings")
    fresh.renew(slug=swiss.slug)  # a change to the tournament is worked out at once
    assert fresh.cached("page", swiss.slug, lambda: ("next", True)) == "next"


def test_a_change_moves_the_pages_of_others_only_when_it_commits(swiss):
    """Renewed inside the transaction, every reader elsewhere worked the pages out again from the
    rows before it (once a saved row); now only the transaction's own reads work them out, from
    its rows, keeping nothing, and the others' pages move at the commit."""
    from config import fresh

    assert fresh.cached("probe", swiss.slug, lambda: ("before", True)) == "before"
    before = fresh.stamp(swiss.slug)
    with transaction.atomic():
        fresh.renew(slug=swiss.slug)
        assert fresh.stamp(swiss.slug) == before  # what a reader elsewhere checks: unmoved
        assert fresh.cached("probe", swiss.slug, lambda: ("its own rows", True)) == "its own rows"
        assert fresh.cached("probe", swiss.slug, lambda: ("again", True)) == "again"  # kept nothing
    assert fresh.stamp(swiss.slug) != before
    assert fresh.cached("probe", swiss.slug, lambda: ("after", True)) == "after"
    moved = fresh.stamp(swiss.slug)
    with pytest.raises(RuntimeError), transaction.atomic():
        fresh.renew(slug=swiss.slug)
        raise RuntimeError
    assert fresh.stamp(swiss.slug) == moved  # rolled back: nothing moves
    assert fresh.cached("probe", swiss.slug, lambda: ("worked out again", True)) == "after"


def test_a_commit_renews_the_versions_once_however_many_rows_it_saved(swiss, organiser, monkeypatch):
    """Each renewal sends every reader to work the pages out again. A result's commit renewed the
    tournament's version once a saved row, 50-90 ms apart under load: the page worked out at the
    first was old before it was done, and a second computation started beside it. Now once a
    commit, with every version it moved; a savepoint rolled back takes nothing with it."""
    from config import fresh

    renewed: list[list[str]] = []
    real = fresh._renew_now
    monkeypatch.setattr(fresh, "_renew_now", lambda keys: (renewed.append(sorted(keys)), real(keys)))
    services.enter_result(actor=organiser, match=_open_match(swiss), home_eyes=12, away_eyes=3)
    assert renewed == [[fresh._version_key(swiss.slug)]]

    renewed.clear()
    with transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():
            fresh.renew(slug="rolled-back")
            raise RuntimeError
        fresh.renew(slug=swiss.slug)
        fresh.renew_all()
        fresh.renew(slug=swiss.slug)
        assert renewed == []
    assert len(renewed) == 1
    assert {fresh.EPOCH_KEY, fresh._version_key(swiss.slug)} <= set(renewed[0])

    renewed.clear()
    with transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():
            fresh.renew(slug=swiss.slug)
            raise RuntimeError
    assert renewed == []  # only a rolled-back savepoint renewed: nothing moves

    renewed.clear()
    fresh.renew(slug=swiss.slug)  # outside a transaction: at once, once
    assert renewed == [[fresh._version_key(swiss.slug)]]


def test_the_change_frame_goes_out_once_the_pages_are_renewed(swiss, organiser, monkeypatch):
    """A live page fetches itself at once after the tournament's "changed" frame: sent before the
    commit renewed the pages' versions, the fetch got the page from before the change as current,
    and the page showed it until the next change."""
    from config import fresh
    from tournaments import broadcast

    stamps_when_sent: list[str | None] = []
    monkeypatch.setattr(broadcast, "_send",
                        lambda tournament_id: stamps_when_sent.append(fresh.stamp(swiss.slug)))
    before = fresh.stamp(swiss.slug)
    services.enter_result(actor=organiser, match=_open_match(swiss), home_eyes=12, away_eyes=3)
    assert stamps_when_sent and fresh.stamp(swiss.slug) != before
    assert set(stamps_when_sent) == {fresh.stamp(swiss.slug)}
