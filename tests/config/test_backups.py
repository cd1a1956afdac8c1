"""Database backups: a dump pg_restore can read with the site's rows in it, the newest N kept, SQLite
copied while open, and the nightly plan made once and left as an admin changed it."""

import gzip
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django_celery_beat.models import PeriodicTask

from config.backups import BackupError, back_up, dumps_of
from config.schedule import BACKUP_TASK, BACKUP_TASK_NAME
from config.tasks import backup_database
from tests.clubs.factories import ClubFactory


def database_label() -> str:
    return settings.DATABASES["default"]["NAME"]


def restore_list(dump: Path) -> str:
    result = subprocess.run(["pg_restore", "--list", str(dump)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def table_data(dump: Path, table: str) -> str:
    """The rows of `table` in the dump, as the COPY block pg_restore would load."""
    result = subprocess.run(
        ["pg_restore", "--data-only", f"--table={table}", "--file=-", str(dump)],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.django_db(transaction=True)  # pg_dump is another connection: it sees committed rows only
def test_backup_writes_a_dump_pg_restore_reads_with_the_sites_rows(tmp_path, capsys) -> None:
    ClubFactory(name="Успенка", slug="uspenka")

    call_command("backup_database", "--dir", str(tmp_path))

    [dump] = tmp_path.iterdir()
    assert dump.name.startswith(f"{database_label()}-") and dump.name.endswith(".dump")
    assert f"wrote {dump}" in capsys.readouterr().out
    assert "TABLE DATA public clubs_club" in restore_list(dump)
    assert "uspenka" in table_data(dump, "clubs_club")
    assert not list(tmp_path.glob("*.partial"))


@pytest.mark.django_db(transaction=True)
def test_dumps_beyond_the_newest_n_are_removed_and_nothing_else(tmp_path) -> None:
    label = database_label()
    old = [tmp_path / f"{label}-2026110{day}T023000Z.dump" for day in range(1, 6)]
    others = [
        tmp_path / f"{label}_restored-20261101T023000Z.dump",  # another database's dump
        tmp_path / "notes.txt",
        tmp_path / f"{label}-20261101T023000Z.dump.sha256",
    ]
    for path in old + others:
        path.write_bytes(b"an older dump")

    call_command("backup_database", "--dir", str(tmp_path), "--keep", "3")

    kept = dumps_of(tmp_path, label)
    assert len(kept) == 3
    assert "TABLE DATA public clubs_club" in restore_list(kept[0])  # the new one is the newest
    assert kept[1:] == [old[4], old[3]]
    assert all(not path.exists() for path in old[:3])
    assert all(path.exists() for path in others)


@pytest.mark.django_db(transaction=True)
def test_the_nightly_task_dumps_into_backup_dir(tmp_path, settings) -> None:
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_KEEP = 2

    result = backup_database()

    dump = Path(result["path"])
    assert dump.parent == settings.BACKUP_DIR
    assert result["bytes"] == dump.stat().st_size > 0
    assert "TABLE DATA public django_celery_beat_periodictask" in restore_list(dump)


def test_sqlite_is_copied_with_its_online_backup_and_gzipped(tmp_path) -> None:
    source = tmp_path / "bilka.sqlite3"
    db = sqlite3.connect(source)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE club (name TEXT)")
    db.execute("INSERT INTO club VALUES ('Успенка')")
    db.commit()  # still open, the row only in the WAL: a copy of the file alone would miss it

    backup = back_up(
        {"ENGINE": "django.db.backends.sqlite3", "NAME": str(source)}, tmp_path / "backups", keep=1,
        now=datetime(2026, 12, 5, 2, 30, tzinfo=UTC),
    )
    db.close()

    assert backup.path.name == "bilka-20261205T023000Z.sqlite3.gz"
    restored = tmp_path / "restored.sqlite3"
    restored.write_bytes(gzip.decompress(backup.path.read_bytes()))
    assert sqlite3.connect(restored).execute("SELECT name FROM club").fetchall() == [("Успенка",)]


def test_another_database_engine_is_refused_with_the_reason(tmp_path) -> None:
    with pytest.raises(BackupError, match="only PostgreSQL and SQLite"):
        back_up({"ENGINE": "django.db.backends.mysql", "NAME": "bilka"}, tmp_path, keep=3)
    assert not any(tmp_path.iterdir())


def test_the_command_refuses_to_keep_no_dump_and_says_why(tmp_path) -> None:
    with pytest.raises(CommandError, match="keep must be at least 1"):
        call_command("backup_database", "--dir", str(tmp_path), "--keep", "0")
    assert not any(tmp_path.iterdir())


@pytest.mark.django_db
def test_the_backup_is_planned_nightly_at_half_past_two_site_time_once() -> None:
    call_command("migrate", verbosity=0)  # migrating again must not add a second plan

    plan = PeriodicTask.objects.get(name=BACKUP_TASK_NAME)
    assert plan.task == BACKUP_TASK
    assert plan.enabled
    assert (plan.crontab.hour, plan.crontab.minute, plan.crontab.day_of_week) == ("2", "30", "*")
    assert str(plan.crontab.timezone) == settings.TIME_ZONE
    assert PeriodicTask.objects.filter(task=BACKUP_TASK).count() == 1


@pytest.mark.django_db
def test_migrate_keeps_an_admins_changes_to_the_backup_plan() -> None:
    plan = PeriodicTask.objects.get(name=BACKUP_TASK_NAME)
    plan.crontab.hour = "4"
    plan.crontab.save()
    PeriodicTask.objects.filter(pk=plan.pk).update(enabled=False)

    call_command("migrate", verbosity=0)

    plan = PeriodicTask.objects.get(name=BACKUP_TASK_NAME)
    assert not plan.enabled
    assert plan.crontab.hour == "4"
    assert PeriodicTask.objects.filter(task=BACKUP_TASK).count() == 1
