import csv
import json

from django.core.management.base import BaseCommand, CommandError

from league.models import Result
from league.results import RATED_AS_GIVEN
from ratings.models import RatingTable
from web.formatting import csv_cell, plain_number
from web.importing import COLUMNS, DERIVED_COLUMNS

# The import's columns, then the rating: the file imports back (`import_results`) to the same ratings,
# sides and partial play included.
FIELDS = [*COLUMNS, *RATED_AS_GIVEN, *DERIVED_COLUMNS]


class Command(BaseCommand):
    help = (
        "Print one row per player per matchday of a rating table, by matchday then player: the results as "
        "import_results reads them, with the ratings before and after."
    )

    def add_arguments(self, parser):
        parser.add_argument("--table", default="overall", help="overall, a game's slug or a category's slug")
        parser.add_argument("--format", choices=["csv", "json"], default="csv")

    def handle(self, table: str, format: str, **options):
        found = RatingTable.objects.filter(slug=table).first()
        if found is None:
            known = ", ".join(RatingTable.objects.values_list("slug", flat=True))
            raise CommandError(f"No rating table {table!r}. Known tables: {known}")
        if found.against_deals:  # its rows are attempts, not matchdays: an empty file would say nothing
            raise CommandError(
                f"{found.name} is played against deals and has no matchdays; its page's tables download as "
                "CSV or JSON (?export=csv&table=standings), and import_attempts reads its attempts."
            )
        given = {
            (matchday_id, player_id): values
            for matchday_id, player_id, *values in Result.objects.filter(found.counted("matchday__"))
            .order_by()
            .values_list("matchday_id", "player_id", *RATED_AS_GIVEN)
            .iterator(chunk_size=2000)
        }
        entries = found.entries.in_play_order().select_related("matchday__game", "player")
        rows = [
            {
                "matchday": e.matchday.number,
                "date": e.matchday.date.isoformat(),
                "game": e.matchday.game.name,
                "rounds": e.matchday.rounds,
                "player": e.player.short_name,
                "placing": e.placing,
                "rated_placing": e.rated_placing,
                **{
                    name: plain_number(v) if isinstance(v, float) else v
                    for name, v in zip(RATED_AS_GIVEN, given[e.matchday_id, e.player_id], strict=True)
                },
                "rating_before": plain_number(e.rating_before),
                "rating_after": plain_number(e.rating_after),
                "delta": plain_number(e.delta),
            }
            for e in entries.iterator(chunk_size=2000)
        ]
        if format == "json":
            self.stdout.write(json.dumps(rows, indent=2))
            return
        # Names of players, games and sides are text a spreadsheet could run as a formula: see csv_cell.
        # Flags are written 1 or 0, as the import reads them.
        writer = csv.DictWriter(self.stdout, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: csv_cell(int(v) if isinstance(v, bool) else v) for k, v in row.items()})
