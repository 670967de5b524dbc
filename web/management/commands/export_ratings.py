import csv
import json

from django.core.management.base import BaseCommand, CommandError

from ratings.models import RatingTable
from web.formatting import csv_cell, plain_number

FIELDS = [
    "matchday",
    "date",
    "game",
    "player",
    "placing",
    "rated_placing",
    "rating_before",
    "rating_after",
    "delta",
]


class Command(BaseCommand):
    help = "Print one row per player per matchday of a rating table, by matchday then player."

    def add_arguments(self, parser):
        parser.add_argument("--table", default="overall", help="overall, a game's slug or a category's slug")
        parser.add_argument("--format", choices=["csv", "json"], default="csv")

    def handle(self, table: str, format: str, **options):
        found = RatingTable.objects.filter(slug=table).first()
        if found is None:
            known = ", ".join(RatingTable.objects.values_list("slug", flat=True))
            raise CommandError(f"No rating table {table!r}. Known tables: {known}")
        entries = found.entries.in_play_order().select_related("matchday__game", "player")
        rows = [
            {
                "matchday": e.matchday.number,
                "date": e.matchday.date.isoformat(),
                "game": e.matchday.game.name,
                "player": e.player.short_name,
                "placing": e.placing,
                "rated_placing": e.rated_placing,
                "rating_before": plain_number(e.rating_before),
                "rating_after": plain_number(e.rating_after),
                "delta": plain_number(e.delta),
            }
            for e in entries.iterator(chunk_size=2000)
        ]
        if format == "json":
            self.stdout.write(json.dumps(rows, indent=2))
            return
        # Names of players and games are text a spreadsheet could run as a formula: see csv_cell.
        writer = csv.DictWriter(self.stdout, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: csv_cell(v) for k, v in row.items()})
