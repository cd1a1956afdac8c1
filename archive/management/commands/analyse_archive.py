"""Fill in the double-dummy analysis of archived matches that lack it (or all, with --again)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand
from django.db.models import F

from archive.models import ArchivedMatch, MatchAnalysis
from archive.services import analysis


class Command(BaseCommand):
    help = (
        "Analyses, with all hands known, every archived match with a record whose analysis is "
        "missing or was worked out from another record, one line a match as it goes. --queue hands "
        "them to the analysis worker instead (settings.ANALYSIS_QUEUE); --again analyses every one."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--queue", action="store_true", help="queue them for the analysis worker")
        parser.add_argument("--again", action="store_true", help="analyse matches already analysed too")
        parser.add_argument("--limit", type=int, default=0, help="at most this many matches (0: all)")

    def handle(self, *args: Any, queue: bool = False, again: bool = False, limit: int = 0,
               **options: Any) -> None:
        matches = ArchivedMatch.objects.filter(has_record=True).order_by("pk")
        if not again:  # no analysis, or one of another record
            matches = matches.exclude(analysis__record_hash=F("record_hash"))
        todo = list(matches.values_list("pk", flat=True))
        if limit:
            todo = todo[:limit]
        if again:
            MatchAnalysis.objects.filter(match_id__in=todo).update(record_hash="")
        total, started, said = len(todo), time.perf_counter(), {}
        if queue:
            for pk in todo:
                analysis.queue_analysis(pk)  # sent at once: no transaction is open here
            self.stdout.write(f"{total} matches queued for the analysis worker.")
            return
        for n, pk in enumerate(todo, start=1):
            answer = analysis.analyse_match(match_id=pk)
            said[answer.split(" ")[0]] = said.get(answer.split(" ")[0], 0) + 1
            elapsed = time.perf_counter() - started
            self.stdout.write(f"[{n}/{total}] match {pk}: {answer} ({elapsed:.0f} s so far, "
                              f"about {elapsed / n * (total - n):.0f} s to go)")
        self.stdout.write(f"{total} matches: {said.get('analysed', 0)} analysed, "
                          f"{said.get('not', 0)} could not be analysed, "
                          f"{total - said.get('analysed', 0) - said.get('not', 0)} left as they were.")
