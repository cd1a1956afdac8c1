"""Bilka for two at a live table: two seats, N and S, opened from the lobby's form or "play now",
dealt by its own provable shuffle, played against the beginner and the strong bot through the same
services as Bilka, ended by eyes, resignation or the clock, archived by the two-seat contract and
replayed; refusals in the player's words; neither the opponent's hand nor the stock in any frame."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation
from tables_helpers import CARD_RE, legal_strings

from archive.models import ArchivedMatch
from archive.selectors import check_record
from clubs.models import Player
from gameplay import selectors, services
from gameplay.engine.bilka2 import Bilka2MatchState
from gameplay.engine.cards import card_to_str, mask_cards
from gameplay.engine.record_games import read_game_record, score_game_record
from gameplay.engine.shuffle import BILKA2_SCHEME, Shuffle
from gameplay.engine.table_games import engine_player, mover
from gameplay.models import BotLevel, Seat, Seating, Table, TableEvent, TableStatus
from gameplay.protocol.frames import frame_for
from ratings.models import BILKA_FOUR, BILKA_TWO, PlayerRating
from ratings.services import recompute as ratings

pytestmark = pytest.mark.django_db

TWO = {"game": "bilka-2"}


def _two_table(people, *, stock: str = "halves") -> Table:
    """Two people at a Bilka-for-two table, N and S, its seeds fixed (the same match each run)."""
    table = services.create_table(rules={**TWO, "stock": stock}, seating=Seating.IN_ORDER, user=people[0])
    Table.objects.filter(pk=table.pk).update(shuffle_seed="2b" * 32)
    Seat.objects.filter(table=table).update(client_seed="two N")
    services.sit(table_id=table.pk, user=people[1], client_seed="two S")
    table.refresh_from_db()
    return table


def _step(table_id: int, rng: random.Random) -> TableEvent | None:
    """One move: a bot's through its service (the strong one's decided and submitted as its task
    would), a person's a random legal card; the event it made, or None once the match is over."""
    table = Table.objects.get(pk=table_id)
    if table.status != TableStatus.PLAYING:
        return None
    state = services.load_state(table)
    seats = {s.seat: s for s in Seat.objects.filter(table=table)}
    seat = mover(state)
    if seats[seat].is_bot and seats[seat].bot_level == BotLevel.STRONG:
        assert services.bot_think(table_id=table_id, expected_event=table.event_seq, rng=rng) == "moved"
    elif seats[seat].is_bot:
        assert services.bot_move(table_id=table_id, expected_event=table.event_seq, rng=rng) == "moved"
    else:
        outcome = services.play(table_id=table_id, seat=seat, action=rng.choice(legal_strings(state)),
                                expected_event=table.event_seq)
        assert outcome.ok, outcome.message
    return TableEvent.objects.filter(table_id=table_id).order_by("-number").first()


def _play_out(table_id: int, rng: random.Random) -> set[str]:
    outcomes = set()
    for _ in range(5000):
        event = _step(table_id, rng)
        if event is None:
            break
        if "deal_end" in event.public:
            outcomes.add(event.public["deal_end"]["outcome"])
    return outcomes


def test_a_bilka2_table_has_two_seats_and_deals_by_its_own_scheme(people):
    table = _two_table(people)
    assert table.rules["game"] == "bilka-2" and table.status == TableStatus.PLAYING
    assert sorted(Seat.objects.filter(table=table).values_list("seat", flat=True)) == [0, 2]
    state = services.load_state(table)
    assert isinstance(state, Bilka2MatchState)
    assert table.record["game"] == "bilka-2" and table.record["shuffle"]["scheme"] == BILKA2_SCHEME
    assert "seed" not in table.record["shuffle"]
    hands, stock = Shuffle(("two N", "two S"), seed=bytes.fromhex("2b" * 32),
                           scheme=BILKA2_SCHEME).hands_and_stock("32", 1)
    assert list(state.deals[0].hands) == list(hands) and list(state.deals[0].stock) == list(stock)
    snap = selectors.snapshot(table, 0)
    assert snap["table"]["shuffle"]["scheme"] == BILKA2_SCHEME
    assert set(snap["table"]["shuffle"]["client_seeds"]) == {"N", "S"}
    view = snap["view"]
    assert view["game"] == "bilka-2" and view["trump"] == "C" and view["stock_left"] == 16
    assert view["order"] == "NS" and set(view["score"]) == {"N", "S"} and view["on_duty"] is None
    assert view["hand_sizes"] == {"N": 8, "S": 8} and len(view["hand"]) == 8
    # the table is full with two: nobody else sits down
    with pytest.raises(services.TableError):
        services.sit(table_id=table.pk, user=people[2])


def test_play_now_seats_the_player_at_s_against_one_bot_of_either_level(people):
    for level in (BotLevel.BEGINNER, BotLevel.STRONG):
        table = services.play_now(user=people[0], rules=TWO, bot_level=level)
        seats = list(Seat.objects.filter(table=table).order_by("seat"))
        assert [(s.seat, s.is_bot, s.bot_level if s.is_bot else "") for s in seats] == [(0, True, level),
                                                                                        (2, False, "")]
        assert table.status == TableStatus.PLAYING and not table.rated
    client = Client()
    client.force_login(people[1])
    response = client.post("/tables/play-now/", {"game": "bilka-2", "bot_level": "strong"})
    table = Table.objects.order_by("-pk").first()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert table.rules["game"] == "bilka-2" and Seat.objects.filter(table=table).count() == 2


@pytest.mark.parametrize(("level", "seed"), [(BotLevel.BEGINNER, 3), (BotLevel.STRONG, 4)])
def test_a_whole_match_against_a_bot_is_archived_by_the_two_seat_contract_and_replays(people, level, seed):
    Player.objects.create(user=people[0], display_name="Asel")
    table = services.play_now(user=people[0], rules=TWO, bot_level=level)
    outcomes = _play_out(table.pk, random.Random(seed))  # noqa: S311 - test players
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED and table.result["reason"] == "eyes"
    assert table.result["winner"] in ("N", "S") and set(table.result["score"]) == {"N", "S"}
    assert outcomes & {"win", "rout", "lucy"}
    record = table.record
    assert record["game"] == "bilka-2" and "seed" in record["shuffle"]
    score = score_game_record(record)
    assert score["score"] == table.result["score"] and score["winner"] == table.result["winner"]
    match = ArchivedMatch.objects.get(table_id=table.pk)
    assert match.rules["game"] == "bilka-2" and match.record == record and check_record(match) == ""
    assert sorted(match.seats.values_list("seat", flat=True)) == [0, 2]
    assert (match.ns_eyes, match.ew_eyes) == (score["score"]["N"], score["score"]["S"])
    assert match.winner == score["winner"] and match.reason == "eyes"
    assert not match.rated and not match.public  # a game against a bot is its player's own
    state = read_game_record(record)
    assert match.deal_count == len(state.deals) == match.deals.count()
    first = match.deals.order_by("number").first()
    assert (first.ns_points, first.ew_points) == state.deals[0].points
    client = Client()
    client.force_login(people[0])
    replay = client.get(f"/tables/{table.pk}/replay/")
    assert replay.status_code == 200 and not replay.context.get("error")
    assert len(replay.context["replay_data"]["deals"]) == len(state.deals)
    archived = client.get(f"/archive/{match.pk}/")
    assert archived.status_code == 200 and not archived.context.get("error")
    # the reader's language is Russian: the players are С and Ю, no pair (СЮ, ВЗ) is named
    score_line = archived.context["row"]["score"]
    assert score_line.startswith("Счёт: С ") and "СЮ" not in score_line
    assert [s["seat"] for s in archived.context["seats"]] == ["N", "S"]
    assert "Белки на двоих" in archived.context["note"]
    verify = client.get(f"/tables/{table.pk}/verify/")
    assert verify.status_code == 200 and verify.context["verdict"].ok
    assert verify.context["verdict"].scheme == BILKA2_SCHEME
    listing = client.get("/archive/?game=bilka-2").content.decode()
    assert f"/archive/{match.pk}/" in listing and "двоих" in listing
    assert f"/archive/{match.pk}/" not in client.get("/archive/?game=kozyol").content.decode()
    mine = client.get(f"/archive/players/{people[0].player.pk}/")
    row = next(r for r in mine.context["rows"] if r["match"].pk == match.pk)
    assert row["won"] == (match.winner == "S") and row["two"]  # he sat at S
    assert row["ew"] == "Asel" and "Asel" in mine.content.decode()


def test_resignation_and_the_clock_end_a_bilka2_match_for_the_player(people):
    table = _two_table(people)
    outcome = services.resign(table_id=table.pk, seat=2)
    assert outcome.ok
    table.refresh_from_db()
    assert table.result == {"winner": "N", "reason": "resign", "seat": "S", "score": {"N": 0, "S": 0}}
    match = ArchivedMatch.objects.get(table_id=table.pk)
    assert (match.winner, match.reason, match.reason_seat) == ("N", "resign", 2) and check_record(match) == ""
    assert match.public and not match.rated  # two people at a public table: public, not rated
    table = _two_table(people)
    state = services.load_state(table)
    loser = mover(state)
    Table.objects.filter(pk=table.pk).update(move_deadline=timezone.now() - timedelta(seconds=1))
    assert services.clock_expired(table_id=table.pk, expected_event=table.event_seq) == "timeout"
    table.refresh_from_db()
    assert table.result["reason"] == "timeout" and table.result["seat"] == "NS"[loser // 2]
    assert table.result["winner"] == "SN"[loser // 2]


def test_illegal_and_double_moves_at_a_bilka2_table_are_refused_in_the_players_words(people):
    table = _two_table(people)
    rng = random.Random(1)  # noqa: S311
    for _ in range(200):
        table.refresh_from_db()
        state = services.load_state(table)
        seat = mover(state)
        hand = set(mask_cards(state.hands[engine_player(state, seat)]))
        wrong = sorted(hand - set(state.legal_actions()))
        if wrong:
            break
        _step(table.pk, rng)
    else:
        raise AssertionError("no position with an illegal card of one's own")
    with translation.override("ru"):
        outcome = services.play(table_id=table.pk, seat=seat, action=card_to_str(wrong[0]),
                                expected_event=table.event_seq)
    assert not outcome.ok and outcome.code == "illegal"
    assert outcome.message.startswith(("Нужно", "Этот туз")), outcome.message
    other = 2 - seat
    with translation.override("uk"):
        outcome = services.play(table_id=table.pk, seat=other, action=card_to_str(wrong[0]),
                                expected_event=table.event_seq)
    assert not outcome.ok and outcome.code == "not_your_turn"
    card = legal_strings(state)[0]
    first = services.play(table_id=table.pk, seat=seat, action=card, expected_event=table.event_seq,
                          client_move_id="m-1")
    again = services.play(table_id=table.pk, seat=seat, action=card, expected_event=table.event_seq,
                          client_move_id="m-1")
    assert first.ok and again.ok and again.duplicate and again.event_number == first.event_number
    assert TableEvent.objects.filter(table=table, move_id="m-1").count() == 1


def _secret(state: Bilka2MatchState, player: int | None) -> set[str]:
    """What `player` (0 N, 1 S; None a spectator) must not see: the other hand and the stock."""
    if state.current_deal is None:
        return set()
    hidden = {card_to_str(c) for p in (0, 1) if p != player for c in mask_cards(state.hands[p])}
    return hidden | {card_to_str(c) for c in state._stock}  # noqa: SLF001 - the stock the test must not see


def _check(part, secret: set[str], where: str) -> None:
    text = json.dumps(part, ensure_ascii=False)
    leaked = set(CARD_RE.findall(text)) & secret
    assert not leaked, f"{where}: {sorted(leaked)} leaked in {text[:300]}"
    assert '"hands"' not in text and '"stock"' not in text, where


@pytest.mark.parametrize("stock", ["halves", "after_trick"])
def test_no_hidden_card_nor_the_stock_reaches_the_opponent_or_a_spectator(people, stock):
    table = _two_table(people, stock=stock)
    rng = random.Random(5)  # noqa: S311
    deals = set()
    for step in range(90):
        before = services.load_state(Table.objects.get(pk=table.pk))
        event = _step(table.pk, rng)
        if event is None:
            break
        after = services.load_state(Table.objects.get(pk=table.pk))
        deals.add(len(after.deals))
        played = {event.public["action"]} if event.public.get("action") else set()
        for seat, player in ((0, 0), (2, 1), (None, None)):
            frame = frame_for(event, seat)
            _check({k: v for k, v in frame.items() if k != "view"}, _secret(before, player) - played,
                   f"event public for {seat}")
            _check(frame["view"], _secret(after, player), f"event view for {seat}")
            if seat is None:
                assert frame["view"]["hand"] is None
            elif after.current_deal is not None:
                assert set(frame["view"]["hand"]) == {card_to_str(c) for c in mask_cards(after.hands[player])}
                assert frame["view"]["stock_left"] == after.stock_left
        assert frame_for(event, 1)["view"] is None  # nobody sits at E
        if step % 15 == 0:
            current = Table.objects.get(pk=table.pk)
            for seat, player in ((0, 0), (2, 1), (None, None)):
                _check(selectors.snapshot(current, seat), _secret(after, player), f"snapshot for {seat}")
            for user, player in ((people[4], None), (people[1], 1), (None, None)):
                client = Client()
                if user is not None:
                    client.force_login(user)
                for url in (f"/tables/{table.pk}/", f"/tables/{table.pk}/state.json"):
                    text = client.get(url).content.decode()
                    assert not set(CARD_RE.findall(text)) & _secret(after, player), f"{url} for {player}"
    assert len(deals) >= 2


def test_a_spectator_watches_a_bilka2_table_without_hidden_cards(people):
    table = _two_table(people)
    client = Client()
    client.force_login(people[4])
    page = client.get(f"/tables/{table.pk}/")
    assert page.status_code == 200
    snap = page.context["snapshot"]
    assert snap["you"]["seat"] is None and snap["view"]["hand"] is None
    assert snap["view"]["hand_sizes"] == {"N": 8, "S": 8} and snap["view"]["stock_left"] == 16
    assert [s["seat"] for s in snap["table"]["seats"]] == ["N", "S"]


def test_a_rated_table_of_two_people_moves_their_bilka2_rating_and_no_other(people):
    for i, user in enumerate(people[:2]):
        Player.objects.create(user=user, display_name=f"Двое {i}")
    table = services.create_table(rules=TWO, seating=Seating.IN_ORDER, user=people[0], rated=True)
    # seeds fixed, so the same match each run: with random cards, a match whose deals went against
    # its result moved no rating (the sign rule) and the test failed now and then
    Table.objects.filter(pk=table.pk).update(shuffle_seed="2b" * 32)
    Seat.objects.filter(table=table).update(client_seed="two N")
    services.sit(table_id=table.pk, user=people[1], client_seed="two S")
    _play_out(table.pk, random.Random(5))  # noqa: S311 - test players
    match = ArchivedMatch.objects.get(table_id=table.pk)
    assert match.rated and match.rules["game"] == "bilka-2"
    ratings.match_changed(sender=None, match_id=match.pk, change="created", players=[])
    rows = {r.player.user_id: r for r in PlayerRating.objects.select_related("player")}
    assert set(rows) == {people[0].pk, people[1].pk} and {r.game for r in rows.values()} == {BILKA_TWO}
    winner = people[0] if match.winner == "N" else people[1]
    loser = people[1] if winner == people[0] else people[0]
    assert rows[winner.pk].rating > rows[loser.pk].rating
    assert not PlayerRating.objects.filter(game=BILKA_FOUR).exists()


def test_a_bilka2_table_takes_no_third_player(people):
    table = services.create_table(rules=TWO, seating=Seating.IN_ORDER, user=people[0])
    services.fill_with_bots(table_id=table.pk, user=people[0],
                            levels={2: BotLevel.STRONG, 1: BotLevel.STRONG})
    seats = list(Seat.objects.filter(table=table).order_by("seat"))
    assert [(s.seat, s.is_bot, s.bot_level) for s in seats] == [(0, False, "beginner"), (2, True, "strong")]


def test_the_lobby_form_opens_a_bilka2_table_with_its_stock_rule(people):
    client = Client()
    client.force_login(people[0])
    assert 'href="?game=bilka-2"' in client.get("/tables/new/").content.decode()
    page = client.get("/tables/new/?game=bilka2")  # the game's short name in an address works too
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="stock"' in html and 'name="eyes"' in html and 'name="preset"' not in html
    assert 'name="rated"' in html and 'name="redeal_seconds"' not in html  # rated: its own rating
    assert '<option value="strong"' in html and 'href="/rules/bilka-2/"' in html
    form = {name: field.initial for name, field in page.context["form"].fields.items()
            if field.initial is not None}
    form.update({"game": "bilka-2", "seating": "in_order", "stock": "after_trick"})
    response = client.post("/tables/new/", form)
    assert response.status_code == 302
    table = Table.objects.get()
    assert table.rules["game"] == "bilka-2" and table.rules["stock"] == "after_trick"
    assert table.status == TableStatus.OPEN and table.rated  # the form's default, as for Bilka
    lobby = client.get("/tables/").content.decode()
    assert 'data-game="bilka-2"' in lobby
    row = selectors.lobby_tables()[0]
    assert row["game"] == "bilka-2" and row["free"] == 1 and [s["seat"] for s in row["seats"]] == ["N", "S"]
    page = client.get(f"/tables/{table.pk}/")
    assert page.context["empty_seats"] == ["S"]
