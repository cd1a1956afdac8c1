"""`manage.py backup_database`: one compressed, timestamped dump of the database, the newest N kept."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS

from config.backups import BackupError, back_up


class Command(BaseCommand):
    help = (
        "Write a compressed dump of the database into BACKUP_DIR, named <database>-<UTC time>.dump "
        "(pg_dump --format=custom; on SQLite a gzipped copy made with its online backup API, "
        "<file>-<UTC time>.sqlite3.gz), then remove that database's dumps beyond the newest BACKUP_KEEP."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dir", type=Path, help="the folder (default: the BACKUP_DIR setting)")
        parser.add_argument("--keep", type=int, help="dumps of this database kept (default: BACKUP_KEEP)")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="which of settings.DATABASES")

    def handle(self, *args, dir: Path | None, keep: int | None, database: str, **options) -> None:
        if database not in settings.DATABASES:
            raise CommandError(f"no database {database!r} in settings.DATABASES")
        folder = dir or Path(settings.BACKUP_DIR)
        try:
            backup = back_up(
                settings.DATABASES[database], folder, keep=settings.BACKUP_KEEP if keep is None else keep
            )
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"wrote {backup.path} ({backup.size} bytes) in {backup.seconds:.2f} s")
        for path in backup.removed:
            self.stdout.write(f"removed {path}")
