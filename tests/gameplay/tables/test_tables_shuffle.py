"""Provably fair shuffles at a live table: the commitment from the moment it opens, client seeds set
while it waits, every deal by bilka-shuffle/1, the seed in no frame, page or record before the end,
revealed however the match ends, and the verify pages' verdict."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from tables_helpers import answer_play, play_random

from gameplay import selectors, services
from gameplay.engine.shuffle import deal_hands
from gameplay.models import Seat, Seating, Table, TableEvent
from gameplay.protocol.frames import frame_for
from gameplay.services import state_cache

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[3]


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _open_table(people) -> Table:
    return services.create_table(rules={}, seating=Seating.IN_ORDER, user=people[0])


def _seat_seeds(table: Table) -> tuple[str, str, str, str]:
    seeds = {s.seat: s.client_seed for s in Seat.objects.filter(table=table)}
    return (seeds[0], seeds[1], seeds[2], seeds[3])


def _everything_sent(table: Table, clients: list[Client]) -> str:
    """Every frame, snapshot, page and file a viewer can get of the table now, as one text."""
    table.refresh_from_db()
    parts = []
    for event in TableEvent.objects.filter(table=table):
        parts += [json.dumps(frame_for(event, seat)) for seat in (None, 0, 1, 2, 3)]
    parts += [json.dumps(selectors.snapshot(table, seat)) for seat in (None, 0, 1, 2, 3)]
    for client in clients:
        for path in ("", "state.json", "record.json", "replay/", "verify/"):
            parts.append(client.get(f"/tables/{table.pk}/{path}").content.decode())
    return "\n".join(parts)


def test_the_commitment_is_shown_while_the_table_waits_and_seeds_are_set_before_the_start(people):
    table = _open_table(people)
    seed = table.shuffle_seed
    assert len(seed) == 64 and seed != _open_table(people).shuffle_seed
    commitment = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    owner = _client(people[0])
    page = owner.get(table.get_absolute_url()).content.decode()
    assert commitment in page and seed not in page
    assert 'id="client-seed"' in page  # the seated player's form

    # a random seed was filled in; he sets his own, and everyone's frame shows it
    assert len(_seat_seeds_open(table)[0]) == 16
    response = owner.post(f"/tables/{table.pk}/client-seed/", {"client_seed": "  my own seed: 42!  "},
                          follow=True)
    assert response.status_code == 200
    assert Seat.objects.get(table=table, seat=0).client_seed == "my own seed: 42!"
    last = TableEvent.objects.filter(table=table).order_by("-number").first()
    assert last.kind == "client_seed"
    assert last.public["table"]["shuffle"]["client_seeds"]["N"] == "my own seed: 42!"
    assert last.public["table"]["shuffle"]["commitment"] == commitment
    assert last.public["table"]["shuffle"]["seed"] is None

    # a bad seed is refused in the player's language, and nothing changes
    for bad in ("", "x" * 65, "семечко"):
        page = owner.post(f"/tables/{table.pk}/client-seed/", {"client_seed": bad}, follow=True,
                          HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        assert "зерн" in page.lower(), bad
    assert Seat.objects.get(table=table, seat=0).client_seed == "my own seed: 42!"
    # a spectator cannot set one
    stranger = _client(people[4]).post(f"/tables/{table.pk}/client-seed/", {"client_seed": "mine"})
    assert stranger.status_code == 302
    assert "mine" not in _seat_seeds_open(table)

    # the last player's seed comes with his "Sit down": the table starts at once
    services.sit(table_id=table.pk, user=people[1], client_seed="east")
    services.sit(table_id=table.pk, user=people[2])
    _client(people[3]).post(f"/tables/{table.pk}/sit/", {"client_seed": "west seed"})
    table.refresh_from_db()
    assert table.status == "playing"
    seeds = _seat_seeds(table)
    assert seeds[0] == "my own seed: 42!" and seeds[1] == "east" and seeds[3] == "west seed"
    assert table.record["shuffle"] == {"scheme": "bilka-shuffle/1", "commitment": commitment,
                                       "client_seeds": dict(zip("NESW", seeds, strict=True))}
    state = services.load_state(table)
    assert list(state.deals[0].hands) == deal_hands(bytes.fromhex(seed), seeds, 1, "32")

    # once the match has started the seeds are final
    with pytest.raises(services.TableError) as refused:
        services.set_client_seed(table_id=table.pk, client_seed="later", user=people[0])
    assert refused.value.code == "started"


def _seat_seeds_open(table: Table) -> list[str]:
    return [s.client_seed for s in Seat.objects.filter(table=table).order_by("seat")]


def test_bots_get_random_client_seeds(people):
    table = services.create_table(rules={}, seating=Seating.IN_ORDER, user=people[0], bots=True)
    seeds = _seat_seeds(table)
    assert len(set(seeds)) == 4 and all(len(s) == 16 for s in seeds)


def test_the_seed_leaks_nowhere_during_the_match_and_every_deal_follows_the_scheme(people, dealt_table4):
    # fixed seeds: with the system's, a match now and then ends at once and reveals its seed
    table4 = dealt_table4
    seed = table4.shuffle_seed
    clients = [_client(p) for p in people[:5]] + [Client()]
    rng = random.Random(14)
    deals = 0
    while Table.objects.get(pk=table4.pk).status == "playing" and deals < 4:
        state_cache._STATES.clear()  # the next move replays the record: it must deal by the scheme too
        play_random(table4.pk, rng, 9)
        table = Table.objects.get(pk=table4.pk)
        assert seed not in json.dumps(table.record)
        text = _everything_sent(table, clients)
        assert seed not in text
        assert table.shuffle_commitment in text
        deals = len(table.record["deals"])
    assert deals >= 3
    seeds = _seat_seeds(table4)
    for k, deal in enumerate(Table.objects.get(pk=table4.pk).record["deals"], start=1):
        expected = deal_hands(bytes.fromhex(seed), seeds, k, "32")
        state = services.load_state(Table.objects.get(pk=table4.pk))
        assert list(state.deals[k - 1].hands) == expected, deal


def _assert_revealed(table_id: int) -> dict:
    table = Table.objects.get(pk=table_id)
    assert table.status == "finished"
    assert table.record["shuffle"]["seed"] == table.shuffle_seed
    last = TableEvent.objects.filter(table=table).order_by("-number").first()
    assert last.public["table"]["shuffle"]["seed"] == table.shuffle_seed
    page = Client().get(table.get_absolute_url()).content.decode()
    assert table.shuffle_seed in page and f"/tables/{table.pk}/verify/" in page
    verify = Client().get(f"/tables/{table.pk}/verify/").content.decode()
    assert 'id="verdict-summary"' in verify and "vf-ok" in verify and 'data-agrees="0"' not in verify
    record = Client().get(f"/tables/{table.pk}/record.json").json()
    assert record["shuffle"]["seed"] == table.shuffle_seed
    return record


def test_the_seed_is_revealed_after_a_resignation_and_every_deal_checks(table4, tmp_path):
    play_random(table4.pk, random.Random(2), 70)
    services.resign(table_id=table4.pk, seat=1)
    record = _assert_revealed(table4.pk)
    replay = Client().get(f"/tables/{table4.pk}/replay/").content.decode()
    assert f"/tables/{table4.pk}/verify/" in replay
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    venv = REPO / ".venv" / "bin" / "python"
    python = str(venv) if venv.exists() else sys.executable
    out = subprocess.run([python, "-m", "gameplay.engine", "verify-deal", str(path)], cwd=REPO,
                         capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[-1].startswith("all ")


def test_the_seed_is_revealed_after_a_timeout(table4):
    table4 = answer_play(table4.pk)  # past the redeal question: the move clock runs
    Table.objects.filter(pk=table4.pk).update(move_deadline=timezone.now() - timedelta(seconds=1))
    assert services.clock_expired(table_id=table4.pk, expected_event=table4.event_seq) == "timeout"
    _assert_revealed(table4.pk)


def test_the_seed_is_revealed_when_the_match_is_called_off(table4):
    play_random(table4.pk, random.Random(4), 10)
    assert services.cancel(table_id=table4.pk).ok
    _assert_revealed(table4.pk)


def test_the_seed_is_revealed_after_a_match_played_to_twelve_eyes(table4):
    rng = random.Random(8)
    while Table.objects.get(pk=table4.pk).status == "playing":
        play_random(table4.pk, rng, 50)
    table = Table.objects.get(pk=table4.pk)
    assert table.result["reason"] == "eyes"
    _assert_revealed(table4.pk)


def test_the_verify_pages(table4):
    pending = Client().get(f"/tables/{table4.pk}/verify/").content.decode()
    assert 'id="verify-pending"' in pending and table4.shuffle_seed not in pending
    play_random(table4.pk, random.Random(5), 40)
    services.resign(table_id=table4.pk, seat=0)
    record = Table.objects.get(pk=table4.pk).record

    honest = Client().post("/tables/verify/", {"record": json.dumps(record)}).content.decode()
    assert "vf-ok" in honest and 'data-agrees="0"' not in honest
    changed = json.loads(json.dumps(record))
    hands = changed["deals"][0]["hands"]
    hands["N"][0], hands["S"][0] = hands["S"][0], hands["N"][0]
    page = Client().post("/tables/verify/", {"record": json.dumps(changed)},
                         HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-deal="1" data-agrees="0"' in page and 'id="verdict-summary"' in page
    wrong = json.loads(json.dumps(record))
    wrong["shuffle"]["seed"] = "00" * 32
    upload = SimpleUploadedFile("record.json", json.dumps(wrong).encode(), content_type="application/json")
    page = Client().post("/tables/verify/", {"file": upload}).content.decode()
    assert "vf-bad" in page and "✗" in page
    broken = Client().post("/tables/verify/", {"record": "{ not json"}).content.decode()
    assert 'id="verify-error"' in broken
    no_seed = json.loads(json.dumps(record))
    del no_seed["shuffle"]["seed"]
    page = Client().post("/tables/verify/", {"record": json.dumps(no_seed)}).content.decode()
    assert 'id="verify-error"' in page


def test_a_table_opened_before_the_scheme_still_plays(people):
    """A table that was waiting when the site learnt provable shuffles has no seed: it gets one at
    the start (committed from then on); a match under way with no shuffle in its record deals on."""
    table = _open_table(people)
    Table.objects.filter(pk=table.pk).update(shuffle_seed="")
    for user in people[1:4]:
        services.sit(table_id=table.pk, user=user)
    table.refresh_from_db()
    assert len(table.shuffle_seed) == 64 and table.record["shuffle"]["commitment"] == table.shuffle_commitment

    old = _open_table(people)
    for user in people[1:4]:
        services.sit(table_id=old.pk, user=user)
    record = Table.objects.get(pk=old.pk).record
    del record["shuffle"]
    Table.objects.filter(pk=old.pk).update(record=record)
    play_random(old.pk, random.Random(1), 40)
    assert "shuffle" not in Table.objects.get(pk=old.pk).record
    assert selectors.snapshot(Table.objects.get(pk=old.pk), None)["table"]["shuffle"] is None
