import csv
import json

from django.core.management.base import BaseCommand, CommandError

from ratings.models import RatingTable

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


def _number(value: float) -> int | float:
    """Whole-number ratings print as 1535, not 1535.0; others keep their precision."""
    return int(value) if float(value).is_integer() else value


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
                "rating_before": _number(e.rating_before),
                "rating_after": _number(e.rating_after),
                "delta": _number(e.delta),
            }
            for e in entries.iterator(chunk_size=2000)
        ]
        if format == "json":
            self.stdout.write(json.dumps(rows, indent=2))
            return
        writer = csv.DictWriter(self.stdout, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: "" if v is None else v for k, v in row.items()})
