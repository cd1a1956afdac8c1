"""A site's database from before the archive and the ratings had apps of their own migrates to today's
layout with nothing lost: every row of every table, the content types and permissions (the
archive's visibility rule asks for one), beat's rows and the Celery task names they and queued
messages carry.

The database is filled by that release's own code and demo seed (`git archive` of its commit, run
with this venv), on PostgreSQL and on SQLite (the embedded default of `bin/site`), then migrated by
today's code, in processes of their own, and compared row by row.
"""

from __future__ import annotations

import json
import subprocess
import tarfile
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest

from config.schedule import BACKUP_TASK_NAME, REFIT_TASK_NAME
from tests.conftest import REPO_ROOT
from tests.databases import Database, manage, site_env
from webhooks.schedule import SWEEP_PLAN

pytestmark = pytest.mark.slow

#: The last commit with the archive inside `gameplay` and the ratings inside `tournaments`.
BEFORE = "36cb0b10e9a2afbe9a69ef73239ec434df480ba7"
RENAMED = {
    **{f"gameplay_{m}": f"archive_{m}"
       for m in ("archivedmatch", "archivedseat", "archiveddeal", "matchanalysis", "seatanalysis")},
    **{f"tournaments_{m}": f"ratings_{m}"
       for m in ("playerrating", "pairrating", "ratingchange", "ratingrun")},
}
NEW_MIGRATIONS = {
    ("gameplay", "0013_archived_match_table_is_a_number"), ("gameplay", "0014_archive_moves_out"),
    ("archive", "0001_initial"), ("archive", "0002_archive_tables"),
    ("ratings", "0001_initial"), ("ratings", "0002_ratings_tables"),
    ("tournaments", "0017_ratings_move_out"),
}
#: Beat's plans: the release after the move adds its own after migrate (config.schedule), so
#: these tables keep every row they had and gain only that release's plans.
PLANS, CRONTABS, PLANS_CHANGED = ("django_celery_beat_periodictask", "django_celery_beat_crontabschedule",
                                  "django_celery_beat_periodictasks")
#: The plans added since BEFORE (by the deploy work, not by the move).
ADDED_PLANS = {BACKUP_TASK_NAME, REFIT_TASK_NAME, SWEEP_PLAN}
#: Tables to which later releases add rows (their permissions; the webhooks' sweep's one-minute
#: interval): the old rows must stay.
GROWS = {"auth_permission", "django_celery_beat_intervalschedule"}
#: Tables a later release fills on purpose (tournaments 0020: live-table matches get their deal
#: lines and Lucy counts): their rows must all stay, their values may be completed.
BACKFILLED = {"tournaments_match", "tournaments_dealline"}
#: Tables whose rows the migration itself changes; each is compared on its own below.
OWN_CHECKS = {"django_migrations", "django_content_type", PLANS, CRONTABS, PLANS_CHANGED}

# Run by the release before, after its demo seed and its ratings' recompute: someone who holds the
# archive's permission (through a group, and one directly), a private match only they and its players
# may see, an analysed match (its rows written directly: the solver's minutes are not what is tested
# here), and the Celery task names that release registered.
BEFORE_SCRIPT = """
import json
from django.contrib.auth.models import Group, Permission
from clubs.models import User
from gameplay.models import ArchivedMatch, MatchAnalysis, SeatAnalysis
from tournaments.models import RatingRun
from config.celery import app
RatingRun.objects.create(reason="match 1 updated", status="done", done=30, total=30)
match = ArchivedMatch.objects.filter(has_record=True).order_by("pk").first()
analysis = MatchAnalysis.objects.create(match=match, record_hash=match.record_hash, seconds=1.5,
                                        result={"format": "bilka-analysis/1", "deals": []})
for n, seat in enumerate(match.seats.all()):
    SeatAnalysis.objects.create(analysis=analysis, archived_seat=seat, deals=match.deal_count,
                                cards=8 * match.deal_count, best_cards=7 * match.deal_count, points_lost=n)
view = Permission.objects.get(content_type__app_label="gameplay", codename="view_archivedmatch")
change = Permission.objects.get(content_type__app_label="tournaments", codename="view_ratingchange")
group = Group.objects.create(name="Archivists")
group.permissions.add(view, change)
staff = User.objects.create_user("archivist", "archivist@example.org", "pw", is_staff=True)
staff.groups.add(group)
direct = User.objects.create_user("clerk", "clerk@example.org", "pw", is_staff=True)
direct.user_permissions.add(view)
ArchivedMatch.objects.filter(pk=ArchivedMatch.objects.order_by("pk").values("pk")[:1]).update(public=False)
app.loader.import_default_modules()
print(json.dumps(sorted(name for name in app.tasks if not name.startswith("celery."))))
"""

# Run by today's code after migrate: what the moved permissions and tasks still do.
AFTER_SCRIPT = """
import json
from django_celery_beat.models import PeriodicTask
from archive.models import ArchivedMatch
from archive.selectors import visible_matches
from clubs.models import User
from config.celery import app
app.loader.import_default_modules()
seen = {}
for name in ("archivist", "clerk", "owner"):
    user = User.objects.filter(username=name).first()
    if user is not None:
        seen[name] = {"perm": user.has_perm("archive.view_archivedmatch"),
                      "ratings_perm": user.has_perm("ratings.view_ratingchange"),
                      "visible": visible_matches(user).count()}
print(json.dumps({
    "tasks": sorted(name for name in app.tasks if not name.startswith("celery.")),
    "beat_tasks": sorted(PeriodicTask.objects.values_list("task", flat=True)),
    "matches": ArchivedMatch.objects.count(),
    "private": ArchivedMatch.objects.filter(public=False).count(),
    "anonymous": visible_matches(None).count(),
    "seen": seen,
}))
"""


@pytest.fixture(scope="module")
def before_tree(tmp_path_factory) -> Path:
    """The code of the release before, from the repository's history."""
    try:
        archive = subprocess.run(["git", "archive", BEFORE], cwd=REPO_ROOT, capture_output=True,  # noqa: S607
                                 check=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.skip(f"needs the repository's history (git archive {BEFORE[:10]}): {error}")
    tree = tmp_path_factory.mktemp("before")
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    return tree


def _last_json(out: str) -> Any:
    return json.loads(out.strip().splitlines()[-1])


@pytest.fixture(scope="module", params=["postgresql", "sqlite"])
def migrated(request, before_tree, tmp_path_factory) -> Iterator[dict[str, Any]]:
    """A database seeded by the release before, its snapshot, then migrated by today's code (once a
    kind of database: every test below reads the same run)."""
    tmp = tmp_path_factory.mktemp(request.param)
    database = Database(request.param, tmp)
    env = site_env(database.url, tmp)
    try:
        manage(before_tree, env, "migrate", "-v0")
        for seed in ("seed_demo", "seed_demo_tournaments", "seed_demo_tables", "recompute_ratings"):
            manage(before_tree, env, seed)
        old_tasks = _last_json(manage(before_tree, env, "shell", "-c", BEFORE_SCRIPT))
        before = database.rows()
        manage(REPO_ROOT, env, "migrate", "-v0")
        after = database.rows()
        manage(REPO_ROOT, env, "migrate", "--check")
        manage(REPO_ROOT, env, "makemigrations", "--check", "--dry-run")
        yield {"before": before, "after": after, "old_tasks": old_tasks,
               "now": _last_json(manage(REPO_ROOT, env, "shell", "-c", AFTER_SCRIPT))}
    finally:
        database.drop()


def test_every_table_and_row_is_kept(migrated):
    before, after = migrated["before"], migrated["after"]
    for table in ("gameplay_archivedmatch", "gameplay_archivedseat", "gameplay_archiveddeal",
                  "gameplay_seatanalysis",
                  "tournaments_ratingchange", "tournaments_playerrating", "tournaments_ratingrun"):
        assert before[table], f"the release before wrote no {table}: nothing would be compared"
    # later releases may add tables and columns (a club's look-alike key, invitations...): every
    # table is still there under its new name, the moved ones gone, and every row the same on the
    # columns it had
    assert {RENAMED.get(table, table) for table in before} <= set(after)
    assert not set(RENAMED) & set(after)
    for table, rows in before.items():
        if table not in OWN_CHECKS:
            now = _on_columns_of(rows, after[RENAMED.get(table, table)])
            if table in GROWS:
                now = [row for row in now if row in rows]
            if table in BACKFILLED:  # a later release fills these on purpose: every row stays
                assert {r["id"] for r in rows} <= {r["id"] for r in now}, f"{table}: rows lost"
                continue
            if table == "gameplay_archivedmatch":
                rows = _bot_games_made_private(rows, before["gameplay_archivedseat"])
            assert now == rows, f"{table}: rows changed"


def _bot_games_made_private(matches: list[dict], seats: list[dict]) -> list[dict]:
    """The archived matches as a later release leaves them on purpose (migration archive 0004): a
    casual game with a bot seat is private until one of its players shares it; nothing else moves."""
    with_bots = {s["match_id"] for s in seats if s["kind"] == "bot"}
    out = []
    for row in matches:
        if row["id"] in with_bots and row["source"] == "table" and row["tournament_match"] is None:
            row = {**row, "public": False if isinstance(row["public"], bool) else 0}
        out.append(row)
    return sorted(out, key=lambda r: repr(sorted(r.items())))


def _on_columns_of(before_rows: list[dict], after_rows: list[dict]) -> list[dict]:
    """`after_rows` cut down to the columns `before_rows` had, in the same order as the snapshots."""
    if not before_rows:
        return [{} for _ in after_rows]
    columns = list(before_rows[0])
    return sorted(({c: row[c] for c in columns} for row in after_rows), key=lambda r: repr(sorted(r.items())))


def test_migrations_add_the_moves_and_lose_none(migrated):
    """The move's migrations run; migrations of releases since may run too (each tested on its own)."""
    done = {(r["app"], r["name"]) for r in migrated["before"]["django_migrations"]}
    now = {(r["app"], r["name"]) for r in migrated["after"]["django_migrations"]}
    assert NEW_MIGRATIONS <= now - done and done <= now


def test_content_types_move_with_their_models_and_keep_their_ids(migrated):
    """Same ids, so every permission, group and user holding it, and the admin's history, follow."""
    new_app = {t.split("_", 1)[1]: n.split("_", 1)[0] for t, n in RENAMED.items()}
    expected = [{**ct, "app_label": new_app[ct["model"]]} if ct["model"] in new_app else ct
                for ct in migrated["before"]["django_content_type"]]
    after = migrated["after"]["django_content_type"]
    assert [ct for ct in expected if ct not in after] == []
    permissions = migrated["after"]["auth_permission"]
    assert [p for p in migrated["before"]["auth_permission"] if p not in permissions] == []


def test_the_archives_permission_still_shows_private_matches(migrated):
    now = migrated["now"]
    assert now["private"] >= 1
    assert now["anonymous"] == now["matches"] - now["private"]
    for name in ("archivist", "clerk"):  # through a group, and held directly
        assert now["seen"][name]["perm"] and now["seen"][name]["visible"] == now["matches"]
    assert now["seen"]["archivist"]["ratings_perm"]


def test_beat_rows_and_queued_task_names_still_find_their_tasks(migrated):
    now = migrated["now"]
    assert now["beat_tasks"] and set(now["beat_tasks"]) <= set(now["tasks"])
    assert set(migrated["old_tasks"]) <= set(now["tasks"])
    before, after = migrated["before"], migrated["after"]
    kept = [row for row in after[PLANS] if row["name"] not in ADDED_PLANS]
    assert kept == before[PLANS], "a plan the release before had was changed or lost"
    added = [row for row in after[PLANS] if row["name"] in ADDED_PLANS]
    assert {row["name"] for row in added} == ADDED_PLANS - {row["name"] for row in before[PLANS]}
    # their schedules: every crontab kept as it was, new ones only where an added plan points
    new_crontabs = {row["crontab_id"] for row in added}
    assert [row for row in after[CRONTABS] if row["id"] not in new_crontabs] == before[CRONTABS]
    # beat's "plans changed" mark moves forward (so a running beat reloads), never back
    assert [row["ident"] for row in after[PLANS_CHANGED]] == [row["ident"] for row in before[PLANS_CHANGED]]
    assert all(a["last_update"] >= b["last_update"]
               for a, b in zip(after[PLANS_CHANGED], before[PLANS_CHANGED], strict=True))
