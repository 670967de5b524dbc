"""A reproducible synthetic league in the import format, for benchmarks and load tests."""

import csv
import sys
from datetime import date
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tools.generate import generate, last_day
from web.importing import COLUMNS


class Command(BaseCommand):
    help = "Write a reproducible synthetic league as an import CSV (see import_results)."

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

    def handle(self, out, players, matchdays, seed, first, start, **options):
        if players < 3:
            self.stderr.write("--players must be at least 3")
            sys.exit(2)
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
