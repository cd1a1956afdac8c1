"""Replay every archived record through the engine and compare it with the result its source stored."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from archive.models import ArchivedMatch
from archive.selectors import check_record


class Command(BaseCommand):
    help = (
        "Replays every archived match's bilka-record/1 with the engine and compares what it gives with "
        "the result stored from the match's source (the table's outcome, the organiser's entry). "
        "Prints each disagreement and exits with status 1 if there is any."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--batch", type=int, default=200, help="records read at a time")

    def handle(self, *args: Any, batch: int = 200, **options: Any) -> None:
        checked = bad = 0
        rows = (ArchivedMatch.objects.filter(has_record=True).order_by("pk")
                .only("pk", "source", "record", "ns_eyes", "ew_eyes", "winner", "reason", "reason_seat",
                      "table_id", "tournament_match"))
        for match in rows.iterator(chunk_size=batch):
            checked += 1
            problem = check_record(match)
            if problem:
                bad += 1
                where = [match.source]
                if match.table_id:
                    where.append(f"table {match.table_id}")
                if match.tournament_match:
                    where.append(f"tournament match {match.tournament_match}")
                self.stdout.write(f"archived match {match.pk} ({', '.join(where)}): {problem}")
        self.stdout.write(f"{checked} records checked, {bad} disagree with their stored result.")
        if bad:
            raise CommandError(f"{bad} archived records disagree with their stored results", returncode=1)
