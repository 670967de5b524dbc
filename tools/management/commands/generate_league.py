"""A reproducible synthetic league in the import format, for benchmarks and load tests."""

import csv
import sys
from datetime import date
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tools.generate import generate, last_day
from tools.generate_deals import generate_attempts, generate_seeds
from web.importing import COLUMNS
from web.importing_deals import ATTEMPT_COLUMNS, ATTEMPT_OPTIONAL, SEED_COLUMNS


class Command(BaseCommand):
    help = (
        "Write a reproducible synthetic league as an import CSV (see import_results), or with --solitaire "
        "attempts at deals (see import_attempts)."
    )

    def add_arguments(self, parser):
        parser.add_argument("out", help="CSV file to write, or - for standard output")
        parser.add_argument("--players", type=int, default=2000)
        parser.add_argument("--matchdays", type=int, default=100_000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--first", type=int, default=1, help="number of the first matchday")
        parser.add_argument(
            "--start",
            type=date.fromisoformat,
            default=None,
            help="date of the first matchday (default: the one that puts the last matchday on today)",
        )
        solitaire = parser.add_argument_group("solitaire (a game played against deals)")
        solitaire.add_argument(
            "--solitaire", action="store_true", help="write attempts at deals (import_attempts) instead of matchdays"
        )
        solitaire.add_argument("--attempts", type=int, default=100_000)
        solitaire.add_argument("--seeds", help="also write the deals' prior records to this CSV (seed_deals)")

    def handle(self, out, players, matchdays, seed, first, start, **options):
        if players < 3:
            self.stderr.write("--players must be at least 3")
            sys.exit(2)
        if options["solitaire"]:
            return self.solitaire(out, players, options["attempts"], seed, options["seeds"])
        if start is not None and last_day(matchdays, start) > date.today():
            raise CommandError(
                f"Starting on {start}, the last matchday would be on {last_day(matchdays, start)}, after today; "
                "matchdays cannot be in the future. Choose an earlier --start, or leave it out."
            )
        stream = sys.stdout if out == "-" else Path(out).open("w", newline="", encoding="utf-8")
        try:
            writer = csv.writer(stream, lineterminator="\n")
            writer.writerow(COLUMNS)
            rows = 0
            for row in generate(players, matchdays, seed, first, start):
                writer.writerow(row)
                rows += 1
        finally:
            if stream is not sys.stdout:
                stream.close()
        if out != "-":
            self.stdout.write(f"Wrote {matchdays} matchdays ({rows} results, {players} players) to {out}.")

    def solitaire(self, out, players, attempts, seed, seeds):
        """A solitaire league: deals with hidden difficulty, players with hidden skill."""
        rows = write_csv(out, [*ATTEMPT_COLUMNS, *ATTEMPT_OPTIONAL], generate_attempts(players, attempts, seed))
        if seeds:
            seeded = write_csv(seeds, SEED_COLUMNS, generate_seeds(seed))
            self.stdout.write(f"Wrote {seeded} deal seeds to {seeds}.")
        if out != "-":
            self.stdout.write(f"Wrote {rows} attempts ({players} players) to {out}.")


def write_csv(out: str, header: list[str], rows) -> int:
    stream = sys.stdout if out == "-" else Path(out).open("w", newline="", encoding="utf-8")
    try:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(header)
        count = 0
        for row in rows:
            writer.writerow(row)
            count += 1
        return count
    finally:
        if stream is not sys.stdout:
            stream.close()
