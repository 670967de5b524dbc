from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from web.backups import BackupError, restore


class Command(BaseCommand):
    help = (
        "Replace everything in the database with a backup made by backup_database. Run migrate "
        "afterwards if the backup is older than the site."
    )

    def add_arguments(self, parser):
        parser.add_argument("source", type=Path, help="a file written by backup_database")
        parser.add_argument("--no-input", action="store_false", dest="interactive", help="do not ask for confirmation")

    def handle(self, source: Path, interactive: bool, **options):
        name = connection.settings_dict["NAME"]
        if interactive:
            answer = input(f"This replaces everything in the database {name} with {source}. Type 'yes': ")
            if answer != "yes":
                raise CommandError("Nothing was restored.")
        try:
            restore(source)
        except BackupError as exc:
            raise CommandError(f"Nothing was restored: {exc}") from None
        self.stdout.write(f"Restored {name} from {source}.")
