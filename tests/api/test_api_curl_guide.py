"""docs/api-swiss-with-curl.md, run as written: its shell blocks, in order, with `curl` and `jq`
against a running site, take a Swiss from nothing to its standings with an organising key alone.
A guide that drifts from the API fails here."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from clubs.models import AuditEntry
from tests.tournaments.conftest import player_with_account
from tournaments.models import Entry, Match, MatchStatus, Tournament, TournamentStatus
from tournaments.selectors.prizes import prize_setup

from .conftest import key_for

pytestmark = pytest.mark.django_db(transaction=True)

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "api-swiss-with-curl.md"
NAMES = ("asel", "oleh", "ivan", "nurlan", "dana", "taras", "aigerim", "bohdan")


def blocks() -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```", GUIDE.read_text(), re.S | re.M)


def run(script: str, env: dict, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "-c", "set -euo pipefail\n" + script], env={**os.environ, **env}, cwd=cwd,
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip


def test_the_guide_runs_a_swiss_from_nothing_to_its_standings(live_server, club, organiser, tmp_path):
    assert shutil.which("curl") and shutil.which("jq"), "the guide needs curl and jq (bin/test installs them)"
    for name in NAMES:
        player_with_account(club, name)
    env = {"SITE": live_server.url, "KEY": key_for(organiser, "organise", [club]), "CLUB": club.slug}
    steps = blocks()
    assert len(steps) >= 5
    done = run("\n".join(steps), env, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr

    event = Tournament.objects.get(name="Зимняя швейцарка")
    assert event.status == TournamentStatus.FINISHED and event.rounds.count() == 3
    assert event.venue == "Дом культуры, Успенка"
    assert [p.label for p in prize_setup(event).places] == ["Конь", "Машина"]
    assert sorted(Entry.objects.filter(tournament=event).values_list("seed", flat=True)) == [1, 2, 3, 4]
    matches = Match.objects.filter(tournament=event, bye=False)
    assert matches.count() == 6 and not matches.exclude(status=MatchStatus.CONFIRMED).exists()
    corrected = matches.filter(corrections__reason="Перепутали стороны").get()
    assert (corrected.round.number, corrected.home_eyes, corrected.away_eyes) == (1, 9, 12)
    assert AuditEntry.objects.filter(actor=organiser, tournament_id=event.pk).exists()
    standings = [line for line in done.stdout.splitlines() if re.match(r"^\d+\. ", line)]
    assert len(standings) == 4 and "finished" in done.stdout

    # The connection dropped after "create": the same step sent again makes no second event.
    again = run("\n".join(steps[:2]), env, tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"/t/{event.slug}/" in again.stdout
    assert Tournament.objects.filter(name="Зимняя швейцарка").count() == 1
