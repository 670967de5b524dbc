"""Measurements for `manage.py benchmark`, run in a child process on a throwaway database.

Every figure is the median of several runs. The raw baseline does the same work as a full recompute
(every rating table, one row per player per matchday, into the same table with the same indexes)
with nothing but the `sqlite3` module and plain Python, to show what the framework costs.
"""

from __future__ import annotations

import math
import random
import sqlite3
import statistics
import time
from collections import Counter
from collections.abc import Callable

from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.db.models import Count, Sum
from django.test import Client

from league.models import Category, Game, Matchday, Player, Result
from ratings import services
from ratings.models import RatingEntry
from tools.generate import UNOFFICIAL_GAME
from web.importing import import_results


def timed(action: Callable[[], object], runs: int, before: Callable[[], object] | None = None) -> float:
    """Median seconds of `action` over `runs` runs; `before` runs untimed ahead of each."""
    seconds = []
    for _ in range(runs):
        if before:
            before()
        start = time.perf_counter()
        action()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds)


def settle() -> None:
    """Start each timed run from the same state: on SQLite, the write-ahead log folded into the
    database, so that neither the project nor the baseline pays for the other's checkpoint."""
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def empty_database() -> None:
    """No league at all, but the generated league's unofficial game, which the import would
    otherwise create as an official one."""
    call_command("flush", interactive=False, verbosity=0)
    category = Category(slug="trading-card-games", name="Trading card games")
    services.save_category(category)
    services.save_game(Game(name=UNOFFICIAL_GAME, slug=UNOFFICIAL_GAME.lower(), category=category, official=False))


def checksum() -> dict[str, tuple[int, float]]:
    """Per table: rows and the sum of ratings, to show that two computations agree."""
    rows = RatingEntry.objects.values("table__slug").annotate(rows=Count("pk"), total=Sum("rating_after"))
    return {row["table__slug"]: (row["rows"], round(row["total"], 3)) for row in rows}


def raw_baseline() -> int:
    """The club formula over every table with plain sqlite3: read in order, compute, executemany.

    It writes what the engine writes: one row per player per matchday per table, and each player's
    standing per table, into the same tables with the same indexes.
    """
    db = sqlite3.connect(connection.settings_dict["NAME"])
    # Django turns SQLite's foreign key checks on for every connection; the same work includes them
    # (without them SQLite empties a table by truncation and skips the checks on each row written).
    db.execute("PRAGMA foreign_keys = ON")
    tables = db.execute("SELECT id, scope, game_id, category_id FROM ratings_ratingtable").fetchall()
    results = db.execute(
        "SELECT m.id, m.date, m.number, m.rounds, g.id, g.official, g.category_id, r.id, r.player_id,"
        " COALESCE(r.rated_placing, r.placing)"
        " FROM league_result r JOIN league_matchday m ON m.id = r.matchday_id"
        " JOIN league_game g ON g.id = m.game_id ORDER BY m.date, m.number, r.id"
    ).fetchall()
    matchdays: dict[int, list[tuple]] = {}
    for row in results:
        matchdays.setdefault(row[0], []).append(row)
    db.execute("DELETE FROM ratings_ratingentry")
    db.execute("DELETE FROM ratings_standing")
    rows, standings = [], []
    for table_id, scope, table_game, table_category in tables:
        last: dict[int, list] = {}  # player -> [rating, played, date, number, delta]
        for matchday, group in matchdays.items():
            _, day, number, rounds, game, official, category = group[0][:7]
            if scope == "overall":
                counts = official
            elif scope == "game":
                counts = game == table_game
            else:
                counts = not official and category == table_category
            if not counts:
                continue
            n, k = len(group), 10.0 * rounds
            tied = Counter(r[9] for r in group)
            before = [last[r[8]][0] if r[8] in last else 1500.0 for r in group]
            total = sum(before)
            for (*_, result, player, placing), rating in zip(group, before, strict=True):
                span = range(placing, placing + tied[placing])
                score = sum(1 - (q - 1) / (n - 1) for q in span) / len(span)
                mean = (total - rating) / (n - 1)
                expected = 1 / (1 + 10 ** ((mean - rating) / 400))
                after = float(math.floor(rating + k * (score - expected) + 0.5))
                played = last[player][1] + 1 if player in last else 1
                last[player] = [after, played, day, number, after - rating]
                rows.append(
                    (
                        table_id,
                        matchday,
                        player,
                        result,
                        day,
                        number,
                        rating,
                        after,
                        mean,
                        expected,
                        score,
                        k,
                        after - rating,
                    )
                )
        standings.extend((table_id, player, *state) for player, state in last.items())
    db.executemany(
        "INSERT INTO ratings_ratingentry (table_id, matchday_id, player_id, result_id, matchday_date,"
        " matchday_number, rating_before, rating_after, opponents_mean, expected, score, k, delta)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        rows,
    )
    db.executemany(
        "INSERT INTO ratings_standing (table_id, player_id, rating, played, matchday_date, matchday_number,"
        " delta) VALUES (?,?,?,?,?,?,?)",
        standings,
    )
    db.commit()
    db.close()
    return len(rows)


def add_latest_matchday(rng: random.Random) -> Matchday:
    """What the admin does when the secretary saves tonight's matchday: save, then recompute."""
    last = Matchday.objects.order_by("-date", "-number").first()
    players = rng.sample(list(Player.objects.all()[:500]), 4)
    matchday = Matchday(
        number=Matchday.objects.order_by("-number").first().number + 1,
        date=last.date,
        game=last.game,
        rounds=5,
    )
    services.save_matchday(matchday, [services.ResultInput(p, i) for i, p in enumerate(players, start=1)])
    return matchday


def remove_matchday(matchday: Matchday) -> None:
    services.delete_matchdays([matchday])


def edit_middle_matchday() -> None:
    """Swap the first two placings of the middle matchday and recompute from it."""
    middle = Matchday.objects.select_related("game").order_by("date", "number")[Matchday.objects.count() // 2]
    results = [
        services.ResultInput(r.player, r.placing, r.rated_placing)
        for r in middle.results.select_related("player").order_by("placing", "pk")
    ]
    first, second = results[:2]
    first.placing, second.placing = second.placing, first.placing
    for result in results:
        result.rated_placing = None
    services.save_matchday(middle, results)


def page_figures(urls: dict[str, str], runs: int) -> dict[str, dict]:
    client = Client()
    figures = {}
    for name, url in urls.items():
        queries = []

        def count(execute, sql, params, many, context, queries=queries):
            queries.append(sql)
            return execute(sql, params, many, context)

        # Counted as the database sees them, whatever DEBUG and the query log say.
        with connection.execute_wrapper(count):
            status = client.get(url).status_code
        # Cold each time: the comparison keeps its figures per revision, and a first visit pays.
        seconds = timed(lambda url=url: client.get(url), runs, before=cache.clear)
        figures[name] = {"url": url, "status": status, "queries": len(queries), "seconds": seconds}
    return figures


def measure(csv_path: str, runs: int) -> dict:
    data = open(csv_path, "rb").read()
    figures: dict = {}
    figures["import"] = timed(lambda: import_results(data), runs, before=empty_database)
    figures["matchdays"] = Matchday.objects.count()
    figures["results"] = Result.objects.count()
    figures["players"] = Player.objects.count()
    figures["recompute"] = timed(services.rebuild_all, runs, before=settle)
    figures["rows"] = RatingEntry.objects.count()
    project = checksum()
    if connection.vendor == "sqlite":
        figures["baseline"] = timed(raw_baseline, runs, before=settle)
        figures["baseline_agrees"] = checksum() == project
        services.rebuild_all()
    rng = random.Random(1)
    added: list[Matchday] = []
    figures["add_latest"] = timed(
        lambda: added.append(add_latest_matchday(rng)),
        runs,
        before=lambda: added and remove_matchday(added.pop()),
    )
    if added:
        remove_matchday(added.pop())
    figures["edit_middle"] = timed(edit_middle_matchday, runs)
    player = Player.objects.order_by("pk").first()
    figures["pages"] = page_figures(
        {
            "home": "/",
            "standings": "/standings/",
            "player": f"/players/{player.pk}/",
            "game": f"/games/{Game.objects.order_by('pk').first().slug}/",
            "compare": "/compare/?table=overall",
        },
        runs,
    )
    return figures
