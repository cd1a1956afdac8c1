"""Schemathesis against the API's own schema on a seeded site: every operation fuzzed (50 examples
each anonymously, 25 with the key after the coverage phase's boundary values), every check (server
errors, status codes, headers and bodies against the schema, negative data refused, auth not
ignored), once anonymously and once with an organiser's organising key, so the writes that run
events (create, change, delete, start, entries from a list, rounds, corrections) are fuzzed too."""

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
#: The organiser's run fuzzes fewer random cases per operation: its coverage phase has already sent
#: every field's boundary and wrong-type values (2,449 cases, over a thousand of them on the event's
#: create and change), and every read was fuzzed 50 times anonymously. It was the suite's slowest
#: test (353 s in CI); 25 random cases take about 900 requests off it.
FUZZ_EXAMPLES = {"anonymous": MAX_EXAMPLES, "organiser": 25}
OPERATIONS = 36  # every operation of api/urls.py


def _run(url: str, report_dir: Path, headers: list[str], phases: str, examples: int) -> tuple[str, int]:
    command = [
        str(ST), "run", f"{url}/api/schema/",
        "--phases", phases,
        "--checks", "all",
        "--max-examples", str(examples),
        "--workers", "1",
        "--seed", "1",
        "--suppress-health-check", "all",
        "--request-timeout", "30",
        "--report", "ndjson", "--report-dir", str(report_dir),
        "--no-color",
    ]  # fmt: skip
    for header in headers:
        command += ["-H", header]
    # Run in the test's own folder: schemathesis keeps its cache of crashes in the working directory,
    # and reads its config from there.
    (report_dir / "schemathesis.toml").write_text(CONFIG)
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=1500, check=False, cwd=report_dir
    )
    return done.stdout + done.stderr, done.returncode


#: An event's name must hold a letter or a digit (``clubs.text_fields.check_name``), which a JSON
#: schema cannot say for every script; a generated name of symbols and control characters alone
#: ("®\U000eef28\x81\x0f", in one CI run's stateful phase) is refused with 400 and the field's
#: error. So on the writes that take names, a 400 does not count as "schema-valid data rejected";
#: every other check, and every other operation, keeps the default.
CONFIG = """
[[operations]]
include-path-regex = "^/api/v1/tournaments/"
include-method-regex = "^(POST|PATCH)$"
checks.positive_data_acceptance.expected-statuses = [
  "2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx",
]
"""


def _counts(report_dir: Path) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """From schemathesis' NDJSON report: the test cases per operation (every phase), the fuzzing
    phase's per operation, and the totals (operations, test cases, failed checks)."""
    per_operation: Counter[str] = Counter()
    fuzzed: Counter[str] = Counter()
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
            if event.get("phase") == "fuzzing":
                fuzzed[label] += len(recorder.get("cases") or {})
            for checks in (recorder.get("checks") or {}).values():
                failed += sum(1 for check in checks if check.get("status") == "failure")
    per_operation.pop("stateful", None)
    fuzzed.pop("stateful", None)
    totals = {"operations": len(per_operation), "examples": sum(per_operation.values()), "failures": failed}
    return dict(per_operation), dict(fuzzed), totals


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


#: The organiser's run tries every phase: the schema's own examples, the coverage phase's boundary
#: and wrong-type values of each field, random fuzzing and the stateful sequences. Anonymously every
#: write is refused before its body is read, so that run fuzzes and walks the sequences only: the
#: coverage phase there (four minutes on a loaded two-core machine) would test the refusal again.
PHASES = {"organiser": "examples,coverage,fuzzing,stateful", "anonymous": "examples,fuzzing,stateful"}


def keeps_to_its_schema(live_server, tmp_path, who: str) -> None:
    """One run of schemathesis against the live server, anonymously or with an organising key."""
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
    output, code = _run(live_server.url, tmp_path, headers, PHASES[who], FUZZ_EXAMPLES[who])
    Path(f"/tmp/schemathesis-{who}.txt").write_text(output)
    per_operation, fuzzed, totals = _counts(tmp_path)
    print(f"\nschemathesis ({who}): {json.dumps(totals)}\n{json.dumps(per_operation, indent=1)}")
    assert totals["operations"] == OPERATIONS, per_operation
    least = FUZZ_EXAMPLES[who]
    few = {label: fuzzed.get(label, 0) for label in per_operation if fuzzed.get(label, 0) < least}
    assert not few, f"operations fuzzed fewer than {least} times: {few}"
    assert code == 0 and totals["failures"] == 0 and "Failures:" not in output, output[-20000:]


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_the_api_keeps_to_its_schema_for_anyone(seeded_site, live_server, tmp_path):
    """Anonymously (the organiser's run is tests/api/test_api_schemathesis_organiser.py, a file of
    its own so that a parallel run gives the two ten-minute runs a worker each)."""
    keeps_to_its_schema(live_server, tmp_path, "anonymous")
