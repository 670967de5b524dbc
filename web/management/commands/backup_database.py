from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from web.backups import BackupError, backup
from web.club_files import club_file
from web.management.clubs import club_named


class Command(BaseCommand):
    help = (
        "Back up the whole database to a new file while the site runs: SQLite through its online "
        "backup API (one self-contained .sqlite3 file), PostgreSQL with pg_dump's custom format. With "
        "--club, one club's file instead: everything its secretaries entered, as JSON, which "
        "restore_database puts back beside the other clubs (here or on another site)."
    )

    def add_arguments(self, parser):
        parser.add_argument("out", type=Path, help="the backup file to create; it must not exist")
        parser.add_argument("--club", metavar="SLUG", help="write this club's file only")

    def handle(self, out: Path, club: str | None, **options):
        if club is not None:
            return self.club(out, club_named(club))
        try:
            backup(out)
        except BackupError as exc:
            raise CommandError(f"No backup was written: {exc}") from None
        self.stdout.write(f"Backed up the {connection.vendor} database to {out} ({out.stat().st_size} bytes).")

    def club(self, out: Path, club):
        if out.exists():
            raise CommandError(f"No backup was written: {out} exists already; choose a new name.")
        if not out.parent.is_dir():  # said of the folder, as a whole-database backup says it
            raise CommandError(
                f"No backup was written: the folder {out.parent} does not exist; create it first or choose another."
            )
        partial = out.with_name(out.name + ".partial")
        try:
            partial.write_text(club_file(club), encoding="utf-8")
            partial.replace(out)  # a file cut short never looks complete
        except OSError as exc:
            partial.unlink(missing_ok=True)
            raise CommandError(f"No backup was written: {exc.strerror} ({exc.filename}).") from None
        self.stdout.write(f"Backed up the club {club.slug} to {out} ({out.stat().st_size} bytes).")
