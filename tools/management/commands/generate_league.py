"""A reproducible synthetic league in the import format, for benchmarks and load tests."""

import csv
import sys
from datetime import date
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tools.generate import first_day, generate, last_day, numbered, people
from tools.generate_deals import generate_attempts, generate_seeds
from web.deals.importing import ATTEMPT_COLUMNS, ATTEMPT_OPTIONAL, SEED_COLUMNS
from web.faults import describe
from web.importing import COLUMNS


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
        parser.add_argument(
            "--first", type=int, default=None, help="number of the first matchday (default 1, or --club's next)"
        )
        parser.add_argument(
            "--club",
            metavar="SLUG",
            help="continue this club's league: numbered after its last matchday, and not before its date",
        )
        parser.add_argument(
            "--start",
            type=date.fromisoformat,
            default=None,
            help="date of the first matchday (default: the one that puts the last matchday on today)",
        )
        parser.add_argument(
            "--end",
            type=date.fromisoformat,
            default=None,
            help="spread the matchdays (and --attempts-out's sessions) evenly from --start to this date",
        )
        parser.add_argument(
            "--people", action="store_true", help='name the members as people are named ("Ada N."), not P00001'
        )
        parser.add_argument(
            "--sides",
            action="store_true",
            help="one matchday in three in sides (Spades in pairs, Codenames five against four): a side column",
        )
        parser.add_argument(
            "--attempts-out",
            metavar="CSV",
            help="also write solitaire attempts at deals (import_attempts) by the same members, over the same dates",
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
        first, start = self.continuing(options["club"], first, start, matchdays)
        end = options["end"]
        last = end or (last_day(matchdays, start) if start is not None else None)
        if end is not None and (start is None or end < start):
            raise CommandError("--end needs a --start on or before it.")
        if last is not None and last > date.today():
            raise CommandError(
                f"The last matchday would be on {last}, after today; matchdays cannot be in the future. "
                "Choose an earlier --start or --end."
            )
        names = people(players) if options["people"] else numbered(players)
        stream = opened(out)
        try:
            writer = csv.writer(stream, lineterminator="\n")
            sides = options["sides"]
            writer.writerow([*COLUMNS, "side"] if sides else COLUMNS)
            rows = 0
            for row in generate(players, matchdays, seed, first, start, end=end, names=names, sides=sides):
                writer.writerow(row)
                rows += 1
        finally:
            if stream is not sys.stdout:
                stream.close()
        if out != "-":
            self.stdout.write(f"Wrote {matchdays} matchdays ({rows} results, {players} players) to {out}.")
        if options["attempts_out"]:
            attempts = options["attempts"]
            begun, finish = start or first_day(matchdays), last or date.today()
            rows = generate_attempts(players, attempts, seed, begun, end=finish, names=names)
            written = write_csv(options["attempts_out"], [*ATTEMPT_COLUMNS, *ATTEMPT_OPTIONAL], rows)
            self.stdout.write(f"Wrote {written} attempts by the same members to {options['attempts_out']}.")

    def continuing(self, slug, first, start, matchdays):
        """The first number and the start date: --club's next number and, by default, a start not
        before its last matchday's date (the league then ends today, or later and is refused)."""
        if slug is None:
            return first or 1, start
        from django.db.models import Max
        from django_scopes import scopes_disabled

        from league.models import Matchday
        from web.management.clubs import club_named

        club = club_named(slug)
        with scopes_disabled():
            latest = Matchday.objects.filter(club=club).aggregate(number=Max("number"), day=Max("date"))
        if latest["number"] is None:
            return first or 1, start
        if start is None and first_day(matchdays) < latest["day"]:
            start = latest["day"]
        return first or latest["number"] + 1, start

    def solitaire(self, out, players, attempts, seed, seeds):
        """A solitaire league: deals with hidden difficulty, players with hidden skill."""
        rows = write_csv(out, [*ATTEMPT_COLUMNS, *ATTEMPT_OPTIONAL], generate_attempts(players, attempts, seed))
        if seeds:
            seeded = write_csv(seeds, SEED_COLUMNS, generate_seeds(seed))
            self.stdout.write(f"Wrote {seeded} deal seeds to {seeds}.")
        if out != "-":
            self.stdout.write(f"Wrote {rows} attempts ({players} players) to {out}.")


def opened(out: str):
    """Standard output for "-", else the file, made afresh; a folder not there is told in one line."""
    if out == "-":
        return sys.stdout
    try:
        return Path(out).open("w", newline="", encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"Nothing was written: {describe(exc)}.") from None


def write_csv(out: str, header: list[str], rows) -> int:
    stream = opened(out)
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
