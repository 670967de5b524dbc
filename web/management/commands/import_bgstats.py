from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from league import history
from league.bgstats import ExportRefused, read_export
from league.models import Write
from ratings.services.bgstats import import_bgstats
from web.bgstats.report import report_lines
from web.faults import told
from web.management.clubs import add_club_argument, club_named, in_club
from web.page_cache.ahead import rendered_ahead


class Command(BaseCommand):
    help = (
        "Import a BG Stats export (JSON): each new play a matchday, co-operative and solo plays against "
        "the game. All or nothing; a file imported again adds only its new plays (docs/formats.md)."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the BG Stats export (BGStatsExport.json)")
        parser.add_argument("--dry-run", action="store_true", help="List every play it would add, and write nothing.")
        add_club_argument(parser)

    def handle(self, file: Path, dry_run: bool, club: str | None, **options):
        club = club_named(club)
        try:
            data = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror}; nothing was imported.") from None
        try:
            with (
                told(f"Nothing was imported from {file}"),
                in_club(club),
                history.way_in(Write.Way.IMPORT),
                rendered_ahead(),
            ):
                export = read_export(data, timezone.localdate())
                report = import_bgstats(export, dry_run=dry_run)
                lines = report_lines(report, tried=dry_run, every_play=dry_run)
        except ExportRefused as refused:
            raise CommandError(f"Nothing was imported from {file}: {refused}") from None
        except ValidationError as refused:
            joined = " " if len(refused.messages) == 1 else "\n"
            raise CommandError(f"Nothing was imported from {file}:{joined}" + "\n".join(refused.messages)) from None
        self.stdout.write("\n".join(lines))
