import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from web.backups import BackupError, restore
from web.club_files import ClubFileError, address_in, is_club_file, restore_club


class Command(BaseCommand):
    help = (
        "Replace everything in the database with a backup made by backup_database, once the file is "
        "proved to be a sound backup of this site. Run migrate afterwards if the backup is older than the site. "
        "A club's file (backup_database --club) is restored as that club, beside the site's other clubs."
    )

    def add_arguments(self, parser):
        parser.add_argument("source", type=Path, help="a file written by backup_database")
        parser.add_argument("--no-input", action="store_false", dest="interactive", help="do not ask for confirmation")
        parser.add_argument(
            "--club", metavar="SLUG", help="a club's file: the address to restore it at (by default, its own)"
        )
        parser.add_argument(
            "--replace", action="store_true", help="a club's file: replace the club already at that address"
        )

    def handle(self, source: Path, interactive: bool, club: str | None, replace: bool, **options):
        if not source.is_file():  # a mistyped name is said to be one, whatever options came with it
            raise CommandError(f"Nothing was restored: {source} is not a file.")
        try:
            with source.open("rb") as head:
                data = head.read(64)
        except OSError as exc:
            raise CommandError(f"Nothing was restored: {exc.strerror} ({source}).") from None
        if is_club_file(data):
            return self.club(source, club, replace, interactive)
        if club is not None or replace:
            raise CommandError(
                f"Nothing was restored: {source} is not a club's file, so --club and --replace mean nothing."
            )
        name = connection.settings_dict["NAME"]
        self.confirm(interactive, f"This replaces everything in the database {name} with {source}.")
        try:
            restore(source)
        except BackupError as exc:
            raise CommandError(f"Nothing was restored: {exc}") from None
        self.stdout.write(f"Restored {name} from {source}.")

    def club(self, source: Path, slug: str | None, replace: bool, interactive: bool):
        try:
            data = source.read_bytes()
            if replace:
                slug = slug or address_in(data)
                self.confirm(interactive, f"This replaces everything of the club at /{slug}/ with {source}.")
            club, matchdays = restore_club(data, slug, replace=replace)
        except ClubFileError as exc:
            raise CommandError(f"Nothing was restored from {source}: {exc}.") from None
        self.stdout.write(f"Restored the club {club.name} at /{club.slug}/ ({matchdays} matchdays) from {source}.")
        secretaries = ", ".join(club.secretaries.order_by("username").values_list("username", flat=True))
        self.stdout.write(
            f"Its secretaries: {secretaries}."
            if secretaries
            else "None of its secretaries is a staff user of this site: "
            "give it one (create_club's --secretary, or the admin)."
        )

    def confirm(self, interactive: bool, question: str) -> None:
        if not interactive:
            return
        if not sys.stdin.isatty():
            # From cron or a script nobody can answer: refuse rather than read whatever stdin holds.
            raise CommandError(
                "Nothing was restored: there is no terminal to ask for confirmation on; "
                "run it with --no-input to restore without asking."
            )
        try:
            answer = input(f"{question} Type 'yes': ")
        except EOFError:
            answer = ""
        if answer != "yes":
            raise CommandError("Nothing was restored.")
