"""Look for puzzles in every analysed match of the archive, and say how many were found per deal."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db.models import F

from archive.models import MatchAnalysis
from archive.puzzle_selectors import visible_puzzles
from archive.services import puzzles


class Command(BaseCommand):
    help = (
        "Looks for puzzles (a missed card that keeps the par, and the best in at least 90% of the "
        "layouts the seat could not see) in every analysed match not searched in its record yet "
        "(--again: in every one), then prints how many were found over how many deals. Matches "
        "without their analysis are left out: run analyse_archive first."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--again", action="store_true", help="search matches already searched too")

    def handle(self, *args: Any, again: bool = False, **options: Any) -> None:
        analysed = MatchAnalysis.objects.exclude(result=None).order_by("match_id")
        if not again:
            analysed = analysed.exclude(puzzles_hash=F("record_hash"))
        todo = list(analysed.values_list("match_id", flat=True))
        found = deals = 0
        for n, match_id in enumerate(todo, start=1):
            kept, searched = puzzles.find_for_match(match_id=match_id, again=again)
            found, deals = found + kept, deals + searched
            self.stdout.write(f"[{n}/{len(todo)}] match {match_id}: {kept} puzzles in {searched} deals")
        per = 1000 * found / deals if deals else 0.0
        self.stdout.write(f"{found} puzzles found in {deals} deals of {len(todo)} matches "
                          f"({per:.0f} per 1,000 deals).")
        all_deals = sum(len(r.get("deals", [])) for r in MatchAnalysis.objects.filter(
            match__public=True).exclude(result=None).values_list("result", flat=True))
        shown = visible_puzzles().count()
        rate = 1000 * shown / all_deals if all_deals else 0.0
        self.stdout.write(f"The archive shows {shown} puzzles from the {all_deals} analysed deals of its "
                          f"public matches ({rate:.0f} per 1,000 deals).")
