import csv
import json
from itertools import groupby

from django.core.management.base import BaseCommand, CommandError

from league.models import Result
from league.placings import typed_rated_placings
from league.results import RATED_AS_GIVEN, RESULT_FIELDS, Play
from league.validation import quoted
from ratings.models import RatingTable
from web.importing import COLUMNS, DERIVED_COLUMNS, FACT_COLUMNS
from web.management.clubs import add_club_argument, club_named, in_club
from web.pages.formatting import csv_cell, plain_number

# The import's columns, then the rating: the file imports back (`import_results`) to the same ratings,
# sides, partial play, penalties and who left early included.
FIELDS = [*COLUMNS, *RATED_AS_GIVEN, *DERIVED_COLUMNS]
FACTS = ("matchday__number", "matchday__date", "matchday__game__name", "matchday__rounds", "player__short_name")


def exported_rows(table: RatingTable):
    """Each result the table counts, with its rating change, as the import reads it back: the matchdays
    in play order, each one's results in the order they are rated (as entered), so that imported again
    they are rated in the same order, to the last bit; the rated placing as typed (none where the
    penalty rule derives it, as for who left early)."""
    changes = {
        (matchday_id, player_id): rating
        for matchday_id, player_id, *rating in table.entries.order_by().values_list(
            "matchday_id", "player_id", "rating_before", "rating_after", "delta"
        )
    }
    results = (
        Result.objects.filter(table.counted("matchday__"))
        .order_by("matchday__date", "matchday__number", "pk")  # as the recompute reads them
        .values_list("matchday_id", "player_id", *FACTS, *RESULT_FIELDS)
        .iterator(chunk_size=2000)
    )
    for _, matchday in groupby(results, key=lambda row: row[0]):
        matchday = [row for row in matchday if row[:2] in changes]  # a season's table: its days only
        plays = [Play(*row[2 + len(FACTS) :]) for row in matchday]
        for row, play, rated in zip(matchday, plays, typed_rated_placings(plays), strict=True):
            number, day, game, rounds, player = row[2 : 2 + len(FACTS)]
            record = [play.placing, rated, *(getattr(play, name) for name in RATED_AS_GIVEN)]
            yield {
                **dict(zip(FACT_COLUMNS, [number, day.isoformat(), game, rounds, player], strict=True)),
                **{
                    name: plain_number(v) if isinstance(v, float) else v
                    for name, v in zip(RESULT_FIELDS, record, strict=True)
                },
                **dict(zip(DERIVED_COLUMNS, map(plain_number, changes[row[:2]]), strict=True)),
            }


class Command(BaseCommand):
    help = (
        "Print one row per player per matchday of a rating table, by matchday in play order: the results "
        "as import_results reads them, with the ratings before and after."
    )

    def add_arguments(self, parser):
        parser.add_argument("--table", default="overall", help="overall, a game's slug or a category's slug")
        parser.add_argument("--format", choices=["csv", "json"], default="csv")
        add_club_argument(parser)

    def handle(self, table: str, format: str, club: str | None, **options):
        with in_club(club_named(club)):
            self._export(table, format)

    def _export(self, table: str, format: str) -> None:
        found = RatingTable.objects.filter(slug=table).first()
        if found is None:
            known = ", ".join(RatingTable.objects.values_list("slug", flat=True))
            raise CommandError(f"No rating table {quoted(table)}. Known tables: {known}")
        if found.against_deals:  # its rows are attempts, not matchdays: an empty file would say nothing
            raise CommandError(
                f"{found.name} is played against deals and has no matchdays; its page's tables download as "
                "CSV or JSON (?export=csv&table=standings), and import_attempts reads its attempts."
            )
        if format == "json":
            self.stdout.write(json.dumps(list(exported_rows(found)), indent=2))
            return
        # Names of players, games and sides are text a spreadsheet could run as a formula: see csv_cell.
        # Flags are written 1 or 0, as the import reads them.
        writer = csv.DictWriter(self.stdout, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        for row in exported_rows(found):
            writer.writerow({k: csv_cell(int(v) if isinstance(v, bool) else v) for k, v in row.items()})
