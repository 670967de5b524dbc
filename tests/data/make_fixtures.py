"""Writes the two outside logs in this folder in the import format (see README.md here). Run by hand,
not by the tests: the sources are other projects' repositories, which the tests do not fetch.

    python tests/data/make_fixtures.py game-night RESULTS_TXT > tests/data/game_night_2026.csv
    python tests/data/make_fixtures.py cogs DUMP_DIR tests/data/cogs_2018.csv tests/data/cogs_2018_stored.csv
"""

from __future__ import annotations

import csv
import sys
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

HEADER = ["matchday", "date", "game", "rounds", "player", "placing", "rated_placing", "side", "weight"]
# The import's short names hold 12 characters; the log's one longer name is shortened.
SHORTER = {"Bosco(Vivian)": "Bosco(Viv)"}


def placings(ranks: list[int]) -> list[int]:
    """A ranking as the import reads it (1, 2, 2, 4): both logs write ties as 0;1;1;1 or 1,1,2."""
    return [1 + sum(other < rank for other in ranks) for rank in ranks]


def game_night(results_txt: str) -> None:
    """oliffur/gamenightrankings' results.txt: DATE|GAME|A1,A2;B1,B2|RANK_A;RANK_B (rank 0 wins).
    A group of several players is a side; a group of one plays alone."""
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(HEADER[:-1])
    lines = [line for line in Path(results_txt).read_text().splitlines() if line and not line.startswith("DATE")]
    for number, line in enumerate(lines, start=1):
        day, game, groups, ranks = line.split("|")
        day = datetime.strptime(day, "%m/%d/%Y").date().isoformat()
        teams = [group.split(",") for group in groups.split(";")]
        places = placings([int(rank) for rank in ranks.split(";")])
        for index, (team, placing) in enumerate(zip(teams, places, strict=True)):
            side = "AB"[index] if len(team) > 1 else ""
            for player in team:
                out.writerow([number, day, game, 1, SHORTER.get(player, player), placing, "", side])


def copy_rows(path: Path) -> list[dict]:
    """A table of `pg_restore --data-only -t TABLE -f FILE`: its COPY block as dicts of text."""
    rows, columns = [], None
    for line in path.read_text().splitlines():
        if line.startswith("COPY "):
            columns = [c.strip().strip('"') for c in line[line.index("(") + 1 : line.index(")")].split(",")]
        elif line == "\\.":
            columns = None
        elif columns:
            rows.append(dict(zip(columns, (None if v == "\\N" else v for v in line.split("\t")), strict=True)))
    return rows


def cogs(dump: str, results_csv: str, stored_csv: str) -> None:
    """CoGs' sessions in their rating order (date_time, then id), one matchday each; players by id."""
    table = {
        name: copy_rows(Path(dump) / f"Leaderboards_{name}.sql")
        for name in ("session", "rank", "performance", "game", "team_players")
    }
    games = {g["id"]: g["name"] for g in table["game"]}
    members = defaultdict(list)
    for row in table["team_players"]:
        members[row["team_id"]].append(row["player_id"])
    ranks, played = defaultdict(list), {}
    for row in table["rank"]:
        ranks[row["session_id"]].append(row)
    for row in table["performance"]:
        played[row["session_id"], row["player_id"]] = row
    hobart = ZoneInfo("Australia/Hobart")
    sessions = sorted(table["session"], key=lambda s: (s["date_time"], int(s["id"])))
    with open(results_csv, "w", newline="") as a, open(stored_csv, "w", newline="") as b:
        results, stored = csv.writer(a, lineterminator="\n"), csv.writer(b, lineterminator="\n")
        results.writerow(HEADER)
        stored.writerow(["matchday", "session", "player", "mu_before", "sigma_before", "mu_after", "sigma_after"])
        for number, session in enumerate(sessions, start=1):
            day = datetime.fromisoformat(session["date_time"]).astimezone(hobart).date().isoformat()
            rows = sorted(ranks[session["id"]], key=lambda r: (int(r["rank"]), int(r["id"])))
            places = placings([int(r["rank"]) for r in rows])
            for row, placing in zip(rows, places, strict=True):
                team = members[row["team_id"]] if row["team_id"] else [row["player_id"]]
                side = f"T{row['team_id']}" if row["team_id"] else ""
                for player in team:
                    p = played[session["id"], player]
                    weight = float(p["partial_play_weighting"])
                    shown = "1" if weight == 1 else repr(weight)
                    results.writerow(
                        [number, day, games[session["game_id"]], 1, f"P{player}", placing, "", side, shown]
                    )
                    stored.writerow(
                        [
                            number,
                            session["id"],
                            f"P{player}",
                            *(p[f"trueskill_{v}"] for v in ("mu_before", "sigma_before", "mu_after", "sigma_after")),
                        ]
                    )


if __name__ == "__main__":
    {"game-night": game_night, "cogs": cogs}[sys.argv[1]](*sys.argv[2:])
