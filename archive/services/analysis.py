"""The double-dummy analysis of archived matches: its one writer.

After the archive's "match changed" notice (`follow_archive`, in the notice's worker) a match with
a record is queued for the task `gameplay.analyse_match` on a queue of its own
(`settings.ANALYSIS_QUEUE`): the solver takes seconds a deal, and moves, clocks and the tournament
day must never wait behind it. `analyse_match` is idempotent: a match already analysed from the
same record only has its seats' totals written again (the archive may have rewritten its seats);
the solver runs outside any transaction and its answer is kept only if the match still holds the
record it read. A record the solver cannot read is kept as an error, not retried for ever.
Once the analysis is stored its puzzles are looked for (`puzzles.find_for_match`, once per record).

Every game the engine solves is analysed (`analyse_any_record`): Bilka's records by its C solver
(`analysis.analyse_record`), Kozyol's and Bilka for two's by their own (`variant_analysis`), in the
same bilka-analysis/1 shape, so the seats' totals and the replay read them alike. Puzzles (and the
fair-play review, which listens elsewhere) stay Bilka's.
"""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction

from archive.models import ArchivedMatch, ArchivedSeat, MatchAnalysis, SeatAnalysis
from archive.services.puzzles import find_for_match
from gameplay.engine import EngineError
from gameplay.engine.analysis import analyse_record
from gameplay.engine.cards import SEATS
from gameplay.engine.errors import RulesError
from gameplay.engine.games import BILKA, game_of
from gameplay.engine.games import SEATS as GAME_SEATS
from gameplay.engine.record_games import TWO_SEATS
from gameplay.engine.variant_analysis import analyse_game_record

ANALYSE_TASK = "gameplay.analyse_match"


def queue_analysis(match_id: int) -> None:
    """Queue the match's analysis when the transaction commits."""

    def send() -> None:
        current_app.signature(ANALYSE_TASK, args=(match_id,)).apply_async(queue=settings.ANALYSIS_QUEUE)

    transaction.on_commit(send, robust=True)


def follow_archive(sender: object, match_id: int, change: str, players: list[int], **kwargs: Any) -> None:
    """Receiver of the archive's notice: a created or updated match with a record is analysed."""
    if change == "removed":
        return  # its analysis went with it
    if ArchivedMatch.objects.filter(pk=match_id, has_record=True).exists():
        queue_analysis(match_id)


def analyse_any_record(record: dict[str, Any]) -> dict[str, Any]:
    """The bilka-analysis/1 of a record of any game, its `game` choosing the solver (none: Bilka)."""
    if game_of(record) == BILKA:
        return analyse_record(record)
    return analyse_game_record(record)


def seat_letters(game: str) -> str:
    """The seat letters of a game's records, by seat number (Bilka for two: N and S)."""
    return TWO_SEATS if GAME_SEATS.get(game, 4) == 2 else "".join(SEATS)


def seat_totals(result: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Per seat letter: the deals it played, its cards, how many were best, the points they lost.

    A deal counts for the seats that played an analysed card in it (for every seat when none did:
    a deal stopped before the analysis starts)."""
    letters = seat_letters(str(result.get("game", BILKA)))
    totals: dict[str, dict[str, int]] = {s: {"deals": 0, "cards": 0, "best_cards": 0, "points_lost": 0}
                                         for s in letters}
    for deal in result["deals"]:
        played = defaultdict(int)
        for card in deal["cards"]:
            seat = totals[card["seat"]]
            seat["cards"] += 1
            seat["best_cards"] += card["card"] in card["best"]
            seat["points_lost"] += card["lost"]
            played[card["seat"]] += 1
        for letter in (played or letters):
            totals[letter]["deals"] += 1
    return totals


def _write_seats(analysis: MatchAnalysis) -> None:
    analysis.seats.all().delete()
    if analysis.result is None:
        return
    totals = seat_totals(analysis.result)
    letters = seat_letters(str(analysis.result.get("game", BILKA)))
    SeatAnalysis.objects.bulk_create(
        SeatAnalysis(analysis=analysis, archived_seat=seat, **totals[letters[seat.seat]])
        for seat in ArchivedSeat.objects.filter(match_id=analysis.match_id)  # not the match's record
        if seat.seat < len(letters))


def analyse_match(*, match_id: int) -> str:
    """Work out (or keep) the analysis of one archived match; says what it did.

    A match is known by the hash the archive keeps of its record's game (`record_hash`)."""
    match = ArchivedMatch.objects.filter(pk=match_id).only("pk", "has_record", "record_hash", "rules").first()
    if match is None or not match.has_record or not match.record_hash:
        return "no record"
    bilka = game_of_rules(match.rules) == BILKA
    digest = match.record_hash
    kept = MatchAnalysis.objects.filter(match=match, record_hash=digest).first()
    if kept is not None:
        with transaction.atomic():
            _write_seats(kept)
        return "already analysed" + (_puzzles_found(match_id) if bilka else "")
    # the record read with its hash, so what the solver sees is what the hash names
    record, digest = ArchivedMatch.objects.values_list("record", "record_hash").get(pk=match_id)
    started = time.perf_counter()
    try:
        result, error = analyse_any_record(record), ""
    except EngineError as exc:
        result, error = None, str(exc)[:300]
    seconds = time.perf_counter() - started
    with transaction.atomic():
        locked = ArchivedMatch.objects.select_for_update().filter(pk=match_id)
        if locked.values_list("record_hash", flat=True).first() != digest:
            return "record changed"  # the notice of the change queued its own analysis
        analysis, _created = MatchAnalysis.objects.update_or_create(
            match_id=match_id,
            defaults={"record_hash": digest, "result": result, "error": error, "seconds": seconds})
        _write_seats(analysis)
    if result is None:
        return f"not analysed: {error}"
    return f"analysed in {seconds:.1f} s" + (_puzzles_found(match_id) if bilka else "")


def game_of_rules(rules: Any) -> str:
    """The game a match's rules name (`bilka` when none; an unknown name is not Bilka's either)."""
    try:
        return game_of(rules)
    except RulesError:
        return str((rules or {}).get("game"))


def _puzzles_found(match_id: int) -> str:
    """Look for the match's puzzles (nothing when they were looked for in this record already)."""
    puzzles, deals = find_for_match(match_id=match_id)
    return f"; {puzzles} puzzles in {deals} deals" if deals else ""
