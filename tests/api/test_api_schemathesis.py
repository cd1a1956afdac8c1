"""Schemathesis against the API's own schema on a seeded site: every operation, 50 examples or more
each, every check (server errors, status codes, headers and bodies against the schema, negative
data refused, auth not ignored), once anonymously and once with an organiser's organising key, so
the writes that run events (create, change, delete, start, entries from a list, rounds, corrections)
are fuzzed too."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command

from clubs import services
from clubs.models import Club, Role, User

ST = Path(sys.executable).with_name("schemathesis")
MAX_EXAMPLES = 50
OPERATIONS = 36  # every operation of api/urls.py


def _run(url: str, report_dir: Path, headers: list[str]) -> tuple[str, int]:
    command = [
        str(ST), "run", f"{url}/api/schema/",
        "--checks", "all",
        "--max-examples", str(MAX_EXAMPLES),
        "--workers", "1",
        "--seed", "1",
        "--suppress-health-check", "all",
        "--request-timeout", "30",
        "--report", "ndjson", "--report-dir", str(report_dir),
        "--no-color",
    ]  # fmt: skip
    for header in headers:
        command += ["-H", header]
    # Run in the test's own folder: schemathesis keeps its cache of crashes in the working directory.
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=1500, check=False, cwd=report_dir
    )
    return done.stdout + done.stderr, done.returncode


def _counts(report_dir: Path) -> tuple[dict[str, int], dict[str, int]]:
    """From schemathesis' NDJSON report: the test cases per operation (every phase) and the totals
    (operations, test cases, failed checks)."""
    per_operation: Counter[str] = Counter()
    failed = 0
    for report in report_dir.glob("*.ndjson"):
        for line in report.read_text().splitlines():
            event = json.loads(line).get("ScenarioFinished")
            if not event:
                continue
            recorder = event["recorder"]
            label = recorder["label"]
            if " -> " in label or not re.match(r"^[A-Z]+ /", label):
                label = "stateful"
            per_operation[label] += len(recorder.get("cases") or {})
            for checks in (recorder.get("checks") or {}).values():
                failed += sum(1 for check in checks if check.get("status") == "failure")
    per_operation.pop("stateful", None)
    totals = {"operations": len(per_operation), "examples": sum(per_operation.values()), "failures": failed}
    return dict(per_operation), totals


@pytest.fixture
def seeded_site(transactional_db, settings):
    call_command("seed_demo", verbosity=0)
    call_command("seed_demo_tournaments", verbosity=0)
    call_command("seed_demo_tables", verbosity=0)
    # Thousands of requests from one address: the limits are the throttling test's business.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"token": "100000/min", "address": "100000/min"},
    }


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("who", ["anonymous", "organiser"])
def test_the_api_keeps_to_its_schema(seeded_site, live_server, tmp_path, who):
    headers = []
    if who == "organiser":
        organiser = User.objects.get(username="organiser")
        organised = Club.objects.filter(
            memberships__user=organiser, memberships__role__in=(Role.OWNER, Role.ORGANISER)
        )
        # a key that runs the clubs' events: it enters results too, and reaches every operation
        _token, key = services.create_token(
            actor=organiser, name="schemathesis", scope="organise", clubs=list(organised)
        )
        headers.append(f"Authorization: Bearer {key}")
    output, code = _run(live_server.url, tmp_path, headers)
    Path(f"/tmp/schemathesis-{who}.txt").write_text(output)
    per_operation, totals = _counts(tmp_path)
    print(f"\nschemathesis ({who}): {json.dumps(totals)}\n{json.dumps(per_operation, indent=1)}")
    assert totals["operations"] == OPERATIONS, per_operation
    few = {label: n for label, n in per_operation.items() if n < MAX_EXAMPLES}
    assert not few, f"operations with fewer than {MAX_EXAMPLES} test cases: {few}"
    assert code == 0 and totals["failures"] == 0 and "Failures:" not in output, output[-20000:]
