"""The double-dummy analysis of archived matches: its one writer.

After the archive's "match changed" notice (`follow_archive`, in the notice's worker) a match with
a record is queued for the task `gameplay.analyse_match` on a queue of its own
(`settings.ANALYSIS_QUEUE`): the solver takes seconds a deal, and moves, clocks and the tournament
day must never wait behind it. `analyse_match` is idempotent: a match already analysed from the
same record only has its seats' totals written again (the archive may have rewritten its seats);
the solver runs outside any transaction and its answer is kept only if the match still holds the
record it read. A record the solver cannot read is kept as an error, not retried for ever.
Once the analysis is stored its puzzles are looked for (`puzzles.find_for_match`, once per record).
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
    # the double-dummy solver plays Bilka only: another game's match (its rules name it) is not analysed
    if ArchivedMatch.objects.filter(pk=match_id, has_record=True).exclude(rules__has_key="game").exists():
        queue_analysis(match_id)


def seat_totals(result: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Per seat letter: the deals it played, its cards, how many were best, the points they lost."""
    totals: dict[str, dict[str, int]] = {s: {"deals": 0, "cards": 0, "best_cards": 0, "points_lost": 0}
                                         for s in SEATS}
    for deal in result["deals"]:
        played = defaultdict(int)
        for card in deal["cards"]:
            seat = totals[card["seat"]]
            seat["cards"] += 1
            seat["best_cards"] += card["card"] in card["best"]
            seat["points_lost"] += card["lost"]
            played[card["seat"]] += 1
        for letter in (played or SEATS):
            totals[letter]["deals"] += 1
    return totals


def _write_seats(analysis: MatchAnalysis) -> None:
    analysis.seats.all().delete()
    if analysis.result is None:
        return
    totals = seat_totals(analysis.result)
    SeatAnalysis.objects.bulk_create(
        SeatAnalysis(analysis=analysis, archived_seat=seat, **totals[SEATS[seat.seat]])
        for seat in ArchivedSeat.objects.filter(match_id=analysis.match_id))  # not the match's record


def analyse_match(*, match_id: int) -> str:
    """Work out (or keep) the analysis of one archived match; says what it did.

    A match is known by the hash the archive keeps of its record's game (`record_hash`)."""
    match = ArchivedMatch.objects.filter(pk=match_id).only("pk", "has_record", "record_hash", "rules").first()
    if match is None or not match.has_record or not match.record_hash:
        return "no record"
    if "game" in (match.rules or {}):
        return "not analysed: the solver plays Bilka only"
    digest = match.record_hash
    kept = MatchAnalysis.objects.filter(match=match, record_hash=digest).first()
    if kept is not None:
        with transaction.atomic():
            _write_seats(kept)
        return "already analysed" + _puzzles_found(match_id)
    # the record read with its hash, so what the solver sees is what the hash names
    record, digest = ArchivedMatch.objects.values_list("record", "record_hash").get(pk=match_id)
    started = time.perf_counter()
    try:
        result, error = analyse_record(record), ""
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
    return f"analysed in {seconds:.1f} s" + _puzzles_found(match_id)


def _puzzles_found(match_id: int) -> str:
    """Look for the match's puzzles (nothing when they were looked for in this record already)."""
    puzzles, deals = find_for_match(match_id=match_id)
    return f"; {puzzles} puzzles in {deals} deals" if deals else ""
