"""The organiser attaches the record of a match played elsewhere to its pairing: checked, chairs
pre-filled from the record's names and confirmed, then the result goes the one result path and
the archive keeps the record with who really sat."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from archive.models import ArchivedMatch
from archive.selectors import check_record
from archive.services import upload_records
from clubs.models import Role
from gameplay.engine import Rules, read_record, write_record
from gameplay.engine.selfplay import bot_match
from tests.clubs.factories import MembershipFactory, UserFactory
from tournaments import services
from tournaments.models import Match, MatchStatus

from .conftest import play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(cup):
    return cup


@pytest.fixture
def match(cup_match):
    return cup_match


def seating(match: Match) -> dict[str, object]:
    """The match's players by where they sat in the record: home at N and S, away at E and W."""
    h, a = match.home, match.away
    return {"N": h.player_a, "E": a.player_a, "S": h.player_b, "W": a.player_b}


def record_of(match: Match, *, seed: int = 11, names: dict[str, str] | None = None, rules=None,
              resign: str | None = None) -> dict:
    chairs = seating(match)
    players = names or {letter: p.display_name for letter, p in chairs.items()}
    state = bot_match(Rules.from_json(rules if rules is not None else match.tournament.rules), seed=seed,
                      players=players, stop_after=60 if resign else None)
    if resign:
        state.end_match("resign", "NESW".index(resign))
    return write_record(state)


def url(match: Match) -> str:
    return f"/t/{match.tournament.slug}/matches/{match.pk}/record/"


def upload(client, match, record) -> tuple[object, str]:
    body = json.dumps(record, ensure_ascii=False).encode()
    sent = SimpleUploadedFile("m.json", body, "application/json")
    page = client.post(url(match), {"step": "upload", "file": sent})
    found = re.search(r'name="pending" value="([^"]+)"', page.content.decode())
    return page, found.group(1) if found else ""


def chosen(page, letter: str) -> int | None:
    select = re.search(rf'<select name="chair_{letter}".*?</select>', page.content.decode(), re.S).group(0)
    found = re.search(r'<option value="(\d+)" selected>', select)
    return int(found.group(1)) if found else None


def confirm(client, match, token, chairs, reason=""):
    data = {"step": "confirm", "pending": token, "reason": reason}
    data.update({f"chair_{letter}": p.pk for letter, p in chairs.items()})
    return client.post(url(match), data)


@pytest.fixture
def signed_in(client, organiser):
    client.force_login(organiser)
    return client


def test_only_the_organiser_attaches_a_record(client, match, club):
    assert client.get(url(match)).status_code == 302  # to sign in
    player = match.home.player_a.user
    client.force_login(player)
    assert client.get(url(match)).status_code == 403
    page, token = upload(client, match, record_of(match))
    assert page.status_code == 403 and not token
    member = UserFactory(username="member")
    MembershipFactory(club=club, user=member, role=Role.MEMBER)
    client.force_login(member)
    assert client.get(url(match)).status_code == 403
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED and match.record is None


def test_the_record_is_attached_with_chairs_from_its_names(signed_in, match, organiser):
    page = signed_in.get(match.get_absolute_url())
    assert "Upload the record of this match" in page.content.decode()
    record = record_of(match)
    # the names typed at the table differ in case and spaces, and the pairs sit the other way round
    chairs = seating(match)
    flipped = {"N": chairs["E"], "E": chairs["N"], "S": chairs["W"], "W": chairs["S"]}
    record["players"] = {letter: "  " + p.display_name.upper() + " " for letter, p in flipped.items()}
    page, token = upload(signed_in, match, record)
    assert page.status_code == 200 and token
    assert {letter: chosen(page, letter) for letter in "NESW"} == {k: p.pk for k, p in flipped.items()}
    done = confirm(signed_in, match, token, flipped)
    assert done.status_code == 302
    match.refresh_from_db()
    winner_pair = 0 if max(record_eyes := _eyes(record)) == record_eyes[0] else 1
    home_pair = 1  # home sat at E and W
    assert match.status == MatchStatus.CONFIRMED and match.confirmed_how == "organiser"
    assert (match.home_eyes, match.away_eyes) == (record_eyes[home_pair], record_eyes[1 - home_pair])
    assert (match.winner_id == match.home_id) == (winner_pair == home_pair)
    assert match.record == record and match.record_chairs == {k: p.pk for k, p in flipped.items()}
    archived = ArchivedMatch.objects.get(tournament_match=match.pk)
    assert archived.has_record and archived.record == record and archived.deal_count == len(record["deals"])
    assert {s.seat: s.player_id for s in archived.seats.all()} == {i: flipped["NESW"[i]].pk for i in range(4)}
    assert (archived.ns_eyes, archived.ew_eyes) == record_eyes
    assert check_record(archived) == ""  # the archive check finds the result and the record agree


def _eyes(record: dict) -> tuple[int, int]:
    return read_record(record).capped_score


def test_names_that_settle_nothing_fall_back_to_home_at_north_and_south(signed_in, match):
    page, token = upload(signed_in, match, record_of(match, names={"N": "A", "E": "B", "S": "C", "W": "D"}))
    chairs = seating(match)
    assert {letter: chosen(page, letter) for letter in "NESW"} == {k: p.pk for k, p in chairs.items()}


def test_a_resigned_record_is_a_forfeit(signed_in, match):
    record = record_of(match, seed=5, resign="E")  # East resigns: the home pair (NS) wins
    page, token = upload(signed_in, match, record)
    assert confirm(signed_in, match, token, seating(match)).status_code == 302
    match.refresh_from_db()
    assert (match.home_eyes, match.away_eyes, match.forfeit) == (12, 0, True)
    archived = ArchivedMatch.objects.get(tournament_match=match.pk)
    assert (archived.reason, archived.reason_seat, archived.winner) == ("resign", 1, "NS")


def test_partners_must_sit_opposite(signed_in, match):
    page, token = upload(signed_in, match, record_of(match))
    chairs = seating(match)
    mixed = {"N": chairs["N"], "E": chairs["S"], "S": chairs["E"], "W": chairs["W"]}
    page = confirm(signed_in, match, token, mixed)
    assert page.status_code == 400 and "Partners sit opposite each other" in page.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED and match.record is None
    assert not ArchivedMatch.objects.exists()


def test_a_forged_or_altered_pending_record_is_refused(signed_in, match, swiss, organiser):
    page, token = upload(signed_in, match, record_of(match))
    forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    page = confirm(signed_in, match, forged, seating(match))
    assert page.status_code == 400 and "altered" in page.content.decode()
    other = swiss.rounds.get(number=1).matches.get(table=2)
    page = signed_in.post(url(other), {"step": "confirm", "pending": token})  # signed for another match
    assert page.status_code == 400 and "altered" in page.content.decode()
    page = confirm(signed_in, match, json.dumps(record_of(match)), seating(match))  # unsigned
    assert page.status_code == 400
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED and not ArchivedMatch.objects.exists()


@pytest.mark.parametrize("fault", ["rules", "unfinished", "illegal", "not_json"])
def test_a_record_that_cannot_be_this_match_is_refused(signed_in, match, fault):
    if fault == "rules":
        record, words = record_of(match, rules={**match.tournament.rules, "deck": "36"}), "other rules"
    elif fault == "unfinished":
        record = write_record(bot_match(Rules.from_json(match.tournament.rules), seed=3, stop_after=30))
        words = "not finished"
    elif fault == "illegal":
        record = record_of(match)
        number, deal = next((n, d) for n, d in enumerate(record["deals"], start=1) if d.get("plays"))
        leader = next(s for s in "NESW" if deal["plays"][0] in deal["hands"][s])
        deal["plays"][1] = next(c for c in deal["hands"][leader] if c != deal["plays"][0])
        words = f"deal {number}, trick 1:"
    else:
        record, words = None, "it is not JSON"
    if record is None:
        page = signed_in.post(url(match), {"step": "upload", "record": "{oops"})
    else:
        page, _token = upload(signed_in, match, record)
    assert page.status_code == 400 and words in page.content.decode()
    assert 'name="pending"' not in page.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED and match.record is None


def test_a_record_already_in_the_archive_is_refused(signed_in, match, club, organiser):
    record = record_of(match)
    [saved] = upload_records(user=organiser, club=club, records=[("x", record)], played=datetime.date.today())
    page, token = upload(signed_in, match, record)
    assert page.status_code == 400 and f"already in the archive (#{saved.match.pk})" in page.content.decode()


def test_replacing_a_confirmed_result_is_a_correction_that_needs_a_reason(signed_in, match, swiss, organiser):
    play_round(match.round, organiser)
    services.pair_next_round(actor=organiser, tournament=swiss)
    page = signed_in.get(match.get_absolute_url())
    assert "Replace the result with the match" in page.content.decode()
    record = record_of(match, seed=21)
    page, token = upload(signed_in, match, record)
    assert "Reason for the correction" in page.content.decode()
    page = confirm(signed_in, match, token, seating(match))
    assert page.status_code == 400 and "Write the reason for the correction" in page.content.decode()
    match.refresh_from_db()
    assert (match.home_eyes, match.away_eyes) == (12, 7) and match.record is None
    assert confirm(signed_in, match, token, seating(match), reason="по записи партии").status_code == 302
    match.refresh_from_db()
    assert (match.home_eyes, match.away_eyes) == _eyes(record) and match.record == record
    assert match.corrections.get().reason == "по записи партии"
    assert ArchivedMatch.objects.get(tournament_match=match.pk).record == record
