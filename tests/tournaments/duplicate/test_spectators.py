"""Spectators at a duplicate event's online tables: every table plays the same boards, so the event's
own players may not watch another table (they would learn boards before playing them), while anyone
else signed in may, from the event's "Now playing" board, the page and the socket alike. Anonymous
visitors cannot be told apart from a player who signed out, so they get the 404 of a missing table."""

import pytest
from channels.db import database_sync_to_async
from django.db import transaction
from django.test import Client

from config.asgi import application
from gameplay.models import Table
from tests.clubs.factories import UserFactory
from tests.communicator import Communicator
from tests.tournaments.conftest import player_with_account
from tests.tournaments.duplicate.test_online import _event
from tournaments import services
from tournaments.models import Match
from tournaments.services import online

MISSING = 987654
ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def _opened(club, organiser):
    event = _event(club, organiser)
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    online.open_tables(round_id=rnd.pk)
    matches = Match.objects.filter(round=rnd, bye=False).select_related("home", "away").order_by("table")
    return event, rnd, list(matches)


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.django_db
def test_anyone_signed_in_but_the_events_players_may_watch_its_tables(club, organiser):
    event, _rnd, matches = _opened(club, organiser)
    first, second = matches
    entrants = {p.user_id for e in event.entries.select_related("player_a", "player_b")
                for p in (e.player_a, e.player_b)}
    for m in matches:
        table = Table.objects.get(pk=m.live_table)
        assert not table.public and sorted(entrants) == table.spectators_barred

    outsider = UserFactory(username="zritel")
    other_table_player = first.away.player_a.user  # plays at table 1, the same boards as table 2 later
    pages = {"outsider": _client(outsider), "organiser": _client(organiser),
             "other table's player": _client(other_table_player), "anonymous": _client()}
    page = f"/tables/{second.live_table}/"
    for who, client in pages.items():
        allowed = who in ("outsider", "organiser")
        response = client.get(page)
        assert response.status_code == (200 if allowed else 404), who
    # the seated player still has his own table, and the watcher gets no record or replay until the
    # event is over (the archive's rule for a duplicate event's matches)
    assert _client(second.home.player_a.user).get(page).status_code == 200
    for tail in ("record.json", "replay/"):
        assert pages["outsider"].get(f"{page}{tail}").status_code == 404

    # the event's "Now playing" board lists the tables to those who may watch them, and says why
    board = f"/t/{event.slug}/live/"
    html = pages["outsider"].get(board, headers={"accept-language": "ru"}).content.decode()
    for m in matches:
        assert f'data-live-table="{m.live_table}"' in html
    assert 'id="duplicate-watchers"' in html and "кто не играет в этом турнире" in html
    for who in ("other table's player", "anonymous"):
        html = pages[who].get(board).content.decode()
        assert "data-live-table=" not in html, who


@pytest.mark.django_db
def test_a_substitute_joining_the_event_may_no_longer_watch(club, organiser):
    event, rnd, matches = _opened(club, organiser)
    newcomer = player_with_account(club, "zamena")
    watcher = _client(newcomer.user)
    page = f"/tables/{matches[1].live_table}/"
    assert watcher.get(page).status_code == 200
    entry = matches[0].home
    services.substitute(actor=organiser, entry=entry, round=rnd, player_out=entry.player_b,
                        player_in=newcomer)
    assert newcomer.user_id in Table.objects.get(pk=matches[1].live_table).spectators_barred
    assert watcher.get(page).status_code == 404


@pytest.mark.django_db
def test_an_ordinary_private_table_is_still_its_players_alone(club, organiser):
    """The bar is a duplicate table's alone: a private table with no bar keeps refusing everyone."""
    _event_, _rnd, matches = _opened(club, organiser)
    Table.objects.filter(pk=matches[1].live_table).update(spectators_barred=None)
    stranger = _client(UserFactory(username="chuzhoi"))
    assert stranger.get(f"/tables/{matches[1].live_table}/").status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("clean_channel_layer")
async def test_the_socket_lets_an_outsider_watch_and_refuses_the_events_players(club, organiser):
    @database_sync_to_async
    def make():
        with transaction.atomic():  # as the round's task opens them
            _event_, _rnd, matches = _opened(club, organiser)
        outsider = UserFactory(username="zritel-ws")
        player = matches[0].home.player_a.user
        cookies = {who: f"sessionid={_client(u).cookies['sessionid'].value}"
                   for who, u in (("outsider", outsider), ("player", player))}
        return matches[1].live_table, cookies

    table_id, cookies = await make()

    async def connect(pk, cookie):
        headers = [ORIGIN] + ([(b"cookie", cookie.encode())] if cookie else [])
        s = Communicator(application, f"/ws/table/{pk}/", headers=headers)
        answer = await s.connect()
        await s.disconnect()
        return answer

    missing = await connect(MISSING, None)
    assert (await connect(table_id, cookies["outsider"]))[0]
    assert await connect(table_id, cookies["player"]) == missing
    assert await connect(table_id, None) == missing


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("clean_channel_layer")
async def test_a_watching_substitute_is_told_why_and_his_socket_closed(club, organiser):
    """A newcomer watching table 2 is made a substitute at table 1: his open socket learns nothing
    more of table 2 (told why in his language, then closed, and the page does not reconnect), while
    an outsider watching beside him and the players seated there keep theirs."""
    @database_sync_to_async
    def make():
        with transaction.atomic():
            _event_, rnd, matches = _opened(club, organiser)
        newcomer = player_with_account(club, "zamena-ws")
        outsider = UserFactory(username="zritel-ws2")
        seated = matches[1].home.player_a.user
        cookies = {who: f"sessionid={_client(u).cookies['sessionid'].value}; django_language=ru"
                   for who, u in (("newcomer", newcomer.user), ("outsider", outsider), ("seated", seated))}
        return rnd, matches, newcomer, cookies

    rnd, matches, newcomer, cookies = await make()
    sockets = {}
    for who, cookie in cookies.items():
        s = Communicator(application, f"/ws/table/{matches[1].live_table}/",
                         headers=[ORIGIN, (b"cookie", cookie.encode())])
        assert (await s.connect())[0], who
        sockets[who] = s

    @database_sync_to_async
    def substitute():
        entry = matches[0].home
        with transaction.atomic():
            services.substitute(actor=organiser, entry=entry, round=rnd, player_out=entry.player_b,
                                player_in=newcomer)

    await substitute()
    while (told := await sockets["newcomer"].receive_json_from())["type"] == "presence":
        pass  # the seated player's connect
    assert told["type"] == "refused" and told["code"] == "barred"
    assert "больше не можете смотреть" in told["message"]
    assert await sockets["newcomer"].receive_output() == {"type": "websocket.close", "code": 4403}
    for who in ("outsider", "seated"):  # still open: a ping is answered, and nothing was refused
        await sockets[who].send_json_to({"type": "ping"})
        while (frame := await sockets[who].receive_json_from())["type"] != "pong":
            assert frame["type"] == "presence", (who, frame)
        await sockets[who].disconnect()
