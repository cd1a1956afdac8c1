"""Records in: an organiser uploads records of matches played elsewhere; each is replayed by the
engine, a broken one is refused whole, the good ones are saved, none twice."""

from __future__ import annotations

import copy
import datetime
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from archive import services as archive_services
from archive.models import ArchivedMatch
from archive.records import MAX_RECORD_BYTES
from archive.services.uploads import seats_from_names
from clubs import services as club_services
from clubs.models import Role
from gameplay.engine import write_record
from gameplay.engine.record_games import write_game_record
from gameplay.engine.selfplay import bot_match
from tests.clubs.factories import ClubPlayerFactory, MembershipFactory, PlayerFactory, UserFactory
from tests.ratings.other_games import played_out

pytestmark = pytest.mark.django_db

URL = "/archive/upload/"
NAMES = {"N": "Асель", "E": "Олег", "S": "Иван", "W": "Нурлан"}


def record(seed: int, names: dict[str, str] | None = None) -> dict:
    return write_record(bot_match(seed=seed, players=names or NAMES))


def broken(seed: int) -> tuple[dict, int]:
    """A record whose first played deal has a second card that its player does not hold, and
    that deal's number."""
    rec = record(seed)
    number, deal = next((n, d) for n, d in enumerate(rec["deals"], start=1) if d.get("plays"))
    first = deal["plays"][0]
    leader = next(seat for seat in "NESW" if first in deal["hands"][seat])

    deal["plays"][1] = next(c for c in deal["hands"][leader] if c != first)

    return rec, number


def unfinished(seed: int) -> dict:
    return write_record(bot_match(seed=seed, players=NAMES, stop_after=30))


def as_file(name: str, rec: object) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, json.dumps(rec, ensure_ascii=False).encode(), "application/json")


@pytest.fixture
def client(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"  # the site speaks Russian unless asked
    return client


@pytest.fixture
def signed_in(client, organiser):
    client.force_login(organiser)
    return client


def post(client, club, *, files=(), pasted="", public=True, played="2026-11-20"):
    data = {"club": club.pk, "played": played, "files": list(files), "pasted": pasted}
    if public:
        data["public"] = "on"
    return client.post(URL, data)


def test_the_page_is_for_club_organisers_only(client, club, organiser):
    assert client.get(URL).status_code == 302  # to sign in
    stranger = UserFactory(username="stranger")
    MembershipFactory(club=club, user=stranger, role=Role.MEMBER)
    client.force_login(stranger)
    assert client.get(URL).status_code == 403
    sent = {"club": club.pk, "played": "2026-11-20", "pasted": json.dumps(record(1))}
    assert client.post(URL, sent).status_code == 403
    assert not ArchivedMatch.objects.exists()
    client.force_login(organiser)
    page = client.get(URL)
    assert page.status_code == 200 and club.name in page.content.decode()


def test_several_records_are_saved_each_with_its_seats_and_deals(signed_in, club, organiser):
    asel = PlayerFactory(display_name="Асель")
    ClubPlayerFactory(club=club, player=asel)
    for twin in ("Иван", "Иван"):  # two roster players of one name: nobody is guessed
        ClubPlayerFactory(club=club, player=PlayerFactory(display_name=twin))
    one, two, three = record(1), record(2), record(3)
    page = post(signed_in, club, files=[as_file("a.json", one), as_file("b.json", two)],
                pasted=json.dumps([three]), public=False)
    text = page.content.decode()
    assert "3 saved, 0 refused." in text
    matches = list(ArchivedMatch.objects.order_by("pk"))
    assert [m.record for m in matches] == [one, two, three]
    for m, rec in zip(matches, (one, two, three), strict=True):
        assert m.source == "upload" and m.club == club and m.uploaded_by == organiser and not m.public
        assert m.played_at.date() == datetime.date(2026, 11, 20)
        assert m.deal_count == len(rec["deals"]) == m.deals.count()
        assert m.winner in ("NS", "EW") and max(m.ns_eyes, m.ew_eyes) == 12
        assert m.get_absolute_url() in text
    seats = {s.seat: s for s in matches[0].seats.all()}
    assert [seats[i].name for i in range(4)] == ["Асель", "Олег", "Иван", "Нурлан"]
    assert seats[0].player == asel and seats[1].player is None and seats[2].player is None


def test_a_broken_record_is_refused_with_the_engines_words_and_the_good_ones_kept(signed_in, club):
    bad, number = broken(5)
    page = post(signed_in, club, files=[as_file("good.json", record(4)), as_file("x.json", bad)])
    text = page.content.decode()
    assert "1 saved, 1 refused." in text and "The refused ones were not saved at all" in text
    assert f"file x.json: deal {number}, trick 1:" in text
    assert ArchivedMatch.objects.count() == 1


@pytest.mark.parametrize(("files", "pasted", "words"), [
    ([SimpleUploadedFile("n.json", b"{not json", "application/json")], "", "it is not JSON"),
    ([SimpleUploadedFile("l.json", "{}".encode("utf-16"), "application/json")], "", "it is not UTF-8 text"),
    ([SimpleUploadedFile("big.json", b" " * (MAX_RECORD_BYTES + 1), "application/json")], "",
     "too large to be a game record"),
    ([], json.dumps({"format": "bilka-record/9", "deals": []}), "pasted record:"),
    ([], "[1]", "a record is a JSON object"),
])
def test_what_is_not_a_record_is_refused_and_nothing_saved(signed_in, club, files, pasted, words):
    page = post(signed_in, club, files=files, pasted=pasted)
    text = page.content.decode()
    assert "0 saved, 1 refused." in text and words in text
    assert not ArchivedMatch.objects.exists()


def test_an_unfinished_match_is_refused(signed_in, club):
    page = post(signed_in, club, pasted=json.dumps(unfinished(6)))
    assert "The match is not finished" in page.content.decode()
    assert not ArchivedMatch.objects.exists()


def test_a_record_is_archived_once_however_often_it_is_sent(signed_in, club):
    rec = record(7)
    post(signed_in, club, pasted=json.dumps(rec))
    first = ArchivedMatch.objects.get()
    renamed = copy.deepcopy(rec)
    renamed["players"]["N"] = "Асель Б."  # the same match with a name typed differently
    page = post(signed_in, club, files=[as_file("again.json", rec), as_file("renamed.json", renamed)])
    text = page.content.decode()
    assert "0 saved, 2 refused." in text and f"already in the archive (#{first.pk})" in text
    assert ArchivedMatch.objects.count() == 1


def test_nothing_given_is_asked_for(signed_in, club):
    page = post(signed_in, club)
    assert "Paste a record or choose its file." in page.content.decode()


def test_a_russian_reader_reads_where_the_record_breaks_in_russian(signed_in, club):
    bad, number = broken(8)
    signed_in.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    text = post(signed_in, club, files=[as_file("x.json", bad)]).content.decode()
    assert "Сохранено: 0, отклонено: 1." in text
    assert f"файл x.json: раздача {number}, взятка 1:" in text


def test_the_record_of_a_table_already_archived_is_refused(signed_in, club):
    state = bot_match(seed=12, players=NAMES)
    rec = write_record(state)
    table_match = archive_services.archive_match(played=archive_services.PlayedMatch(
        source="table", seats=[archive_services.SeatIn(seat=i, name=n) for i, n in enumerate(NAMES.values())],
        rules=rec["rules"], played_at=timezone.now(), ns_eyes=state.capped_score[0],
        ew_eyes=state.capped_score[1], winner="NS" if state.winner == 0 else "EW", record=rec,
    ))
    text = post(signed_in, club, pasted=json.dumps(rec)).content.decode()
    assert f"already in the archive (#{table_match.pk})" in text
    assert ArchivedMatch.objects.count() == 1


def test_a_records_names_are_tidied_and_found_on_the_roster_whatever_invisible_letters(club, organiser):
    """A record's names are typed elsewhere: an override, zero-width characters or a look-alike
    letter neither hide a roster player nor reach the archive; a name with nothing to read is the
    seat's letter."""
    asel = club_services.add_player(actor=organiser, club=club, display_name="Асель").player
    typed = {"N": "A\u0441ель\u200b", "E": "\u202eНұрлан", "S": "\u3164\u3164", "W": "Олег\x00"}
    seats = {s.seat: s for s in seats_from_names(typed, club)}
    north, east, south, west = (seats[i] for i in range(4))
    assert (north.name, north.player_id) == ("Асель", asel.pk)
    assert [s.name for s in (east, south, west)] == ["Нұрлан", "S", "Олег"]


def _other_game(game: str, seed: int, names: dict[str, str], resign: int | None = None) -> dict:
    """The record of a finished match of another game played by the engine's bots (or resigned at
    once by that engine player)."""
    return write_game_record(played_out({"game": game}, seed, players=names, resign=resign))


def test_records_of_kozyol_and_bilka_for_two_are_saved_as_their_games(signed_in, club):
    kozyol = _other_game("kozyol", 3, NAMES)
    two = _other_game("bilka-2", 4, {"N": "Асель", "S": "Иван"})
    text = post(signed_in, club, files=[as_file("k.json", kozyol), as_file("b2.json", two)]).content.decode()
    assert "2 saved, 0 refused." in text
    k, b2 = ArchivedMatch.objects.order_by("pk")
    assert k.record == kozyol and k.rules["game"] == "kozyol" and k.winner in ("NS", "EW")
    assert sorted(s.seat for s in k.seats.all()) == [0, 1, 2, 3]
    assert b2.record == two and b2.rules["game"] == "bilka-2"
    assert {s.seat: s.name for s in b2.seats.all()} == {0: "Асель", 2: "Иван"}  # N and S, as at a table
    assert b2.winner in ("N", "S") and max(b2.ns_eyes, b2.ew_eyes) >= 12
    assert b2.deal_count == len(two["deals"]) == b2.deals.count()
    # each is listed under its own game, and its replay opens
    assert signed_in.get("/archive/?game=kozyol").content.decode().count(k.get_absolute_url()) >= 1
    listed = signed_in.get("/archive/?game=bilka-2").content.decode()
    assert b2.get_absolute_url() in listed and k.get_absolute_url() not in listed
    for m in (k, b2):
        page = signed_in.get(m.get_absolute_url())
        assert page.status_code == 200 and "Асель" in page.content.decode()
        assert signed_in.get(f"{m.get_absolute_url()}record.json").json() == m.record


def test_a_bilka_for_two_resignation_names_the_seat_that_resigned(signed_in, club):
    rec = _other_game("bilka-2", 5, {"N": "Асель", "S": "Иван"}, resign=1)  # the engine's player 1: S
    assert rec["end"] == {"reason": "resign", "seat": "S"}
    assert "1 saved, 0 refused." in post(signed_in, club, pasted=json.dumps(rec)).content.decode()
    match = ArchivedMatch.objects.get()
    assert (match.winner, match.reason, match.reason_seat) == ("N", "resign", 2)


def test_a_record_of_an_unknown_game_is_refused_in_one_line(signed_in, club):
    rec = record(8) | {"game": "preferans"}
    text = post(signed_in, club, pasted=json.dumps(rec)).content.decode()
    assert "0 saved, 1 refused." in text and "preferans" in text
    assert not ArchivedMatch.objects.exists()
