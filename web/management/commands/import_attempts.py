import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from league import history
from league.models import Write
from web.deals.importing import ATTEMPT_COLUMNS, ATTEMPT_OPTIONAL, import_attempts
from web.faults import told
from web.importing import ImportFailed
from web.management.clubs import add_club_argument, club_named, in_club
from web.page_cache.ahead import rendered_ahead


def read(file: Path) -> bytes:
    if str(file) == "-":
        return sys.stdin.buffer.read()
    try:
        return file.read_bytes()
    except OSError as exc:
        raise CommandError(f"Cannot read {file}: {exc.strerror}") from None


class Command(BaseCommand):
    help = (
        "Import attempts at deals (solitaire sessions) from a CSV file with the columns "
        + ",".join(ATTEMPT_COLUMNS)
        + " and optionally "
        + ",".join(ATTEMPT_OPTIONAL)
        + ". The rows of one date and game make a session. All or nothing: on any problem nothing is imported."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="CSV file (UTF-8), or - for standard input")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="Replace the attempts of sessions that already exist instead of refusing.",
        )
        add_club_argument(parser)

    def handle(self, file: Path, replace: bool, club: str | None, **options):
        club = club_named(club)
        data = read(file)
        try:
            with (
                told(f"Nothing was imported from {file}"),
                in_club(club),
                history.way_in(Write.Way.IMPORT),
                rendered_ahead(),
            ):
                summary = import_attempts(data, replace=replace)
        except ImportFailed as exc:
            raise CommandError(f"Nothing was imported from {file}:\n" + "\n".join(exc.errors)) from None
        sessions = "session" if summary.sessions == 1 else "sessions"
        self.stdout.write(
            f"Imported {summary.sessions} {sessions} with {summary.attempts} attempts "
            f"({summary.deals_created} new deals)."
        )
        if summary.players_created:
            shown = ", ".join(summary.players_created[:20])
            more = len(summary.players_created) - 20
            self.stdout.write(f"New players: {shown}" + (f" and {more} more" if more > 0 else ""))
        if summary.games_created:
            self.stdout.write("New games (played against deals): " + ", ".join(summary.games_created))
