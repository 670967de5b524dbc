import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from web.backups import BackupError, restore


class Command(BaseCommand):
    help = (
        "Replace everything in the database with a backup made by backup_database, once the file is "
        "proved to be a sound backup of this site. Run migrate afterwards if the backup is older than the site."
    )

    def add_arguments(self, parser):
        parser.add_argument("source", type=Path, help="a file written by backup_database")
        parser.add_argument("--no-input", action="store_false", dest="interactive", help="do not ask for confirmation")

    def handle(self, source: Path, interactive: bool, **options):
        name = connection.settings_dict["NAME"]
        if interactive:
            if not sys.stdin.isatty():
                # From cron or a script nobody can answer: refuse rather than read whatever stdin holds.
                raise CommandError(
                    "Nothing was restored: there is no terminal to ask for confirmation on; "
                    "run it with --no-input to restore without asking."
                )
            try:
                answer = input(f"This replaces everything in the database {name} with {source}. Type 'yes': ")
            except EOFError:
                answer = ""
            if answer != "yes":
                raise CommandError("Nothing was restored.")
        try:
            restore(source)
        except BackupError as exc:
            raise CommandError(f"Nothing was restored: {exc}") from None
        self.stdout.write(f"Restored {name} from {source}.")
