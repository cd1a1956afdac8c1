"""Live standings: everyone watching a tournament hears "changed" when a result is confirmed or corrected."""

import pytest
from channels.db import database_sync_to_async
from django.db import transaction

from config.asgi import application
from tests.communicator import Communicator
from tournaments import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_channel_layer")]

ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def watch(tournament_id: int) -> Communicator:
    return Communicator(application, f"/ws/tournament/{tournament_id}/", headers=[ORIGIN])


async def test_a_confirmed_and_a_corrected_result_reach_every_spectator(swiss8, organiser):
    rnd = await database_sync_to_async(services.pair_next_round)(actor=organiser, tournament=swiss8)
    match = await database_sync_to_async(rnd.matches.get)(table=1)
    first, second = watch(swiss8.pk), watch(swiss8.pk)
    assert (await first.connect())[0] and (await second.connect())[0]

    await database_sync_to_async(services.enter_result)(
        actor=organiser, match=match, home_eyes=12, away_eyes=4
    )

    frames = [await first.receive_json_from(), await second.receive_json_from()]
    assert all(f["type"] == "changed" and isinstance(f["version"], int) for f in frames)

    await database_sync_to_async(services.correct_result)(
        actor=organiser, match=match, home_eyes=4, away_eyes=12, reason="swapped"
    )
    # (the result may have sent more than one "changed" of its version: passed over, however late)
    later = (await first.receive_until(lambda f: f.get("version", -1) > frames[0]["version"]))[-1]
    assert later["type"] == "changed"
    await first.disconnect()
    await second.disconnect()


async def test_other_tournaments_and_rolled_back_changes_send_nothing(swiss8, organiser):
    rnd = await database_sync_to_async(services.pair_next_round)(actor=organiser, tournament=swiss8)
    match = await database_sync_to_async(rnd.matches.get)(table=1)
    other = watch(swiss8.pk + 1000)
    mine = watch(swiss8.pk)
    assert (await other.connect())[0] and (await mine.connect())[0]

    @database_sync_to_async
    def enter_then_fail() -> None:
        with pytest.raises(RuntimeError), transaction.atomic():
            services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=4)
            raise RuntimeError("rolled back")

    await enter_then_fail()
    assert await mine.receive_nothing(timeout=0.5)

    await database_sync_to_async(services.enter_result)(
        actor=organiser, match=match, home_eyes=12, away_eyes=4
    )
    assert (await mine.receive_json_from())["type"] == "changed"
    assert await other.receive_nothing(timeout=0.5)
    await other.disconnect()
    await mine.disconnect()


def test_tournament_pages_carry_the_live_box(client, swiss8, organiser):
    services.pair_next_round(actor=organiser, tournament=swiss8)
    for path in (swiss8.get_absolute_url(), f"/t/{swiss8.slug}/standings/", f"/t/{swiss8.slug}/rounds/1/"):
        page = client.get(path).content.decode()
        assert f'id="t-live" data-live-socket="/ws/tournament/{swiss8.pk}/"' in page
        assert "tournaments/live.js" in page
