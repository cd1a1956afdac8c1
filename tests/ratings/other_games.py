"""Archived matches of Kozyol khvalyony and of Bilka for two, made as their live tables archive them:
played out by the engine's simple bot, written with the game's record, through ``archive_match``.

Bilka for two follows what its live tables archive: seats 0 (N) and 2 (S) only, ``ns_eyes`` N's and
``ew_eyes`` S's eyes, ``winner`` "N" or "S", rules naming the game."""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence

from django.utils import timezone

from archive import services as archive_services
from archive.models import ArchivedMatch, SeatKind
from gameplay.engine.cards import PAIRS
from gameplay.engine.games import AnyMatch, new_match, rules_from_json
from gameplay.engine.record_games import TWO_SEATS, write_game_record
from gameplay.engine.variant_bot import choose_action

KOZYOL = {"game": "kozyol"}
BILKA_TWO = {"game": "bilka-2"}
START = timezone.now() - datetime.timedelta(days=40)


def played_out(rules: dict, seed: int, *, players: dict[str, str] | None = None,
               resign: int | None = None) -> AnyMatch:
    """A match of the game played to its end by the simple bot at every seat (`players`: the names
    the record keeps; `resign`: that engine player resigns before the first card)."""
    state = new_match(rules_from_json(rules), seed=seed, players=players)
    if resign is not None:
        state.end_match("resign", resign)
    rng = random.Random(seed)  # noqa: S311 - test players
    while state.winner is None:
        seat = state.redeal_pending[0] if state.redeal_pending else state.to_move
        state.apply(choose_action(state.observation(seat), rng), seat)  # type: ignore[arg-type]
    return state


def archive(rules: dict, people: Sequence, *, seed: int, day: float = 0, rated: bool = True,
            bot_seat: int | None = None, public: bool = True, table_id: int | None = None) -> ArchivedMatch:
    """Archive a played-out casual match of ``rules``'s game: ``people`` at N E S W (Kozyol) or at
    N and S (Bilka for two); ``bot_seat`` puts a bot there instead."""
    state = played_out(rules, seed)
    two = rules == BILKA_TWO
    numbers = (0, 2) if two else (0, 1, 2, 3)
    seats = [archive_services.SeatIn(seat=n, name=p.display_name, player_id=p.pk)
             for n, p in zip(numbers, people, strict=True)]
    if bot_seat is not None:
        seats = [archive_services.SeatIn(seat=s.seat, name="Бот", kind=SeatKind.BOT, bot_level="beginner")
                 if s.seat == bot_seat else s for s in seats]
    ns, ew = state.capped_score
    played = archive_services.PlayedMatch(
        source="table", seats=seats, rules=dict(rules),
        played_at=START + datetime.timedelta(days=day), ns_eyes=ns, ew_eyes=ew,
        winner=(TWO_SEATS if two else PAIRS)[state.winner], reason="eyes",
        record=write_game_record(state), table_id=table_id if table_id is not None else 10_000 + seed,
        public=public, rated=rated)
    return archive_services.archive_match(played=played)
