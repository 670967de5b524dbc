from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from web.backups import BackupError, backup


class Command(BaseCommand):
    help = (
        "Back up the whole database to a new file while the site runs: SQLite through its online "
        "backup API (one self-contained .sqlite3 file), PostgreSQL with pg_dump's custom format. It holds "
        "every club of the site: there is no backup of one club alone."
    )

    def add_arguments(self, parser):
        parser.add_argument("out", type=Path, help="the backup file to create; it must not exist")

    def handle(self, out: Path, **options):
        try:
            backup(out)
        except BackupError as exc:
            raise CommandError(f"No backup was written: {exc}") from None
        self.stdout.write(f"Backed up the {connection.vendor} database to {out} ({out.stat().st_size} bytes).")
