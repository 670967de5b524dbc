"""Write a made-up league in the import format, for load tests: python scripts/generate_league.py N

N matchdays of Hearts numbered from --first on, one a day from --start, each with 4 to 6 of
--players players in a random order. The same arguments always give the same file.
"""

import argparse
import csv
import random
import sys
from datetime import date, timedelta


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("matchdays", type=int)
    parser.add_argument("--first", type=int, default=7, help="number of the first matchday (7)")
    parser.add_argument("--start", type=date.fromisoformat, default=date(2026, 1, 1))
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()
    rng = random.Random(args.seed)  # noqa: S311 - made-up test data, not secrets
    names = [f"P{i:02d}" for i in range(1, args.players + 1)]
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["matchday", "date", "game", "rounds", "player", "placing", "rated_placing"])
    for i in range(args.matchdays):
        day = args.start + timedelta(days=i)
        rounds = rng.randint(1, 5)
        table = rng.sample(names, rng.randint(4, 6))
        for placing, player in enumerate(table, start=1):
            out.writerow([args.first + i, day.isoformat(), "Hearts", rounds, player, placing, ""])


if __name__ == "__main__":
    main()
