"""Measurements for `manage.py benchmark`, run in a child process on a throwaway database.

Every figure is the median of several runs. The baselines (tools/baselines.py) do the work of a full
recompute with nothing but the `sqlite3` module and plain Python, in the same run, so that the
project is measured by its ratio to them.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.db.models import Count, Sum
from django.test import Client
from django_scopes import scope

from league.models import Category, Club, Game, Matchday, Player, Result
from league.results import Play, TypedResult
from league.validation import name_key
from ratings.models import RatingEntry, RatingTable
from ratings.services.catalogue import save_category, save_game
from ratings.services.checks import check_matchday
from ratings.services.impact import impact
from ratings.services.matchdays import delete_matchdays, save_matchday
from ratings.services.recompute import rebuild_all
from tools import baselines
from tools.baselines import settle
from tools.generate import UNOFFICIAL_GAME
from web import page_cache
from web.importing import import_results
from web.page_cache.ahead import rendered_ahead


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


def empty_database() -> None:
    """No league at all, but the generated league's unofficial game, which the import would
    otherwise create as an official one."""
    call_command("flush", interactive=False, verbosity=0)
    category = Category(slug="trading-card-games", name="Trading card games")
    save_category(category)
    save_game(Game(name=UNOFFICIAL_GAME, slug=UNOFFICIAL_GAME.lower(), category=category, official=False))


def checksum() -> dict[str, tuple[int, float]]:
    """Per table: rows and the sum of ratings, to show that two computations agree."""
    rows = RatingEntry.objects.values("table__slug").annotate(rows=Count("pk"), total=Sum("rating_after"))
    return {row["table__slug"]: (row["rows"], round(row["total"], 3)) for row in rows}


def add_latest_matchday(rng: random.Random, pool: list[Player], sides: bool = False) -> Matchday:
    """What the entry page does when the secretary saves tonight's matchday: save, then recompute
    (the admin then reads the rating changes for its message). Four of `pool`, the players loaded
    once beforehand, as the form has them; with `sides`, two against two."""
    last = Matchday.objects.order_by("-date", "-number").first()
    players = rng.sample(pool, 4)
    matchday = Matchday(
        number=Matchday.objects.order_by("-number").first().number + 1,
        date=last.date,
        game=last.game,
        rounds=5,
    )
    if sides:
        results = [TypedResult(Play(1 + i // 2, side="AB"[i // 2]), p.short_name) for i, p in enumerate(players)]
    else:
        results = [TypedResult(Play(i), p.short_name) for i, p in enumerate(players, start=1)]
    save_matchday(check_matchday(matchday, matchday.game, results), {name_key(p.short_name): p for p in players})
    return matchday


def remove_matchday(matchday: Matchday) -> None:
    delete_matchdays([matchday])


def edit_middle_matchday() -> None:
    """Swap the first two placings of the middle matchday (of the two sides, when it is played in
    sides) and recompute from it."""
    middle = Matchday.objects.select_related("game").order_by("date", "number")[Matchday.objects.count() // 2]
    stored = list(middle.results.select_related("player").order_by("placing", "pk"))
    results = [TypedResult(r.play(), r.player.short_name) for r in stored]
    if any(r.play.side for r in results):
        results = [r.changed(placing=3 - r.play.placing) for r in results]  # the generator's two sides
    else:
        first, second = results[:2]
        results[:2] = [first.changed(placing=second.play.placing), second.changed(placing=first.play.placing)]
    players = {name_key(r.player.short_name): r.player for r in stored}
    save_matchday(check_matchday(middle, middle.game, results), players)


def writes(club: Club, runs: int, rng: random.Random, pool: list[Player], sides: bool) -> dict:
    """The secretary's writes: tonight's matchday added, one in the middle edited, and the preview
    of that edit (the edit run and rolled back, every table read before and after it)."""
    added: list[Matchday] = []
    figures = {}
    # The write alone, and as a Save on the entry page makes it: its pages rendered before it commits.
    for name, add in (("add_latest", add_latest_matchday), ("add_latest_ahead", _added_with_pages_ahead)):
        figures[name] = timed(
            lambda add=add: added.append(add(rng, pool, sides)),
            runs,
            before=lambda: added and remove_matchday(added.pop()),
        )
        if added:
            remove_matchday(added.pop())
    figures["edit_middle"] = timed(edit_middle_matchday, runs)
    figures["preview_middle"] = timed(lambda: impact(club.pk, edit_middle_matchday), runs)
    return figures


def _added_with_pages_ahead(rng: random.Random, pool: list[Player], sides: bool) -> Matchday:
    with rendered_ahead():
        return add_latest_matchday(rng, pool, sides)


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
        # Cold: rendered in the request, with nothing in the page cache (the comparison keeps its
        # figures per revision too, so a first visit pays).
        seconds = timed(lambda url=url: client.get(url), runs, before=page_cache.clear)
        figures[name] = {"url": url, "status": status, "queries": len(queries), "seconds": seconds}
    return figures


def first_pages_after_a_write(urls: dict[str, str], runs: int, rng: random.Random, pool: list[Player]) -> dict:
    """Each page as a member meets it after a write, in a process that has rendered it before: the
    latest matchday added (as the secretary adds it), which renews the revision and so leaves the
    page cache's stored copies gone, then the page's first request, timed; then the matchday
    removed again, untimed."""
    client = Client()
    figures = {}
    for name, url in urls.items():
        statuses = {client.get(url).status_code}  # the worker has rendered the page before
        seconds = []
        for _ in range(runs):
            added = add_latest_matchday(rng, pool)
            start = time.perf_counter()
            statuses.add(client.get(url).status_code)
            seconds.append(time.perf_counter() - start)
            remove_matchday(added)
        status = max(statuses - {200}, default=200)  # any other answer is reported
        figures[name] = {"url": url, "status": status, "seconds": statistics.median(seconds)}
    return figures


def measure(csv_path: str, runs: int, sides: bool = False) -> dict:
    data = open(csv_path, "rb").read()
    figures: dict = {"debug": settings.DEBUG, "sides": sides}
    figures["import"] = timed(lambda: import_results(data), runs, before=empty_database)
    figures["matchdays"] = Matchday.objects.count()
    figures["results"] = Result.objects.count()
    figures["players"] = Player.objects.count()
    if connection.vendor == "sqlite":
        # The recompute and the bare baseline take turns, run by run, so that the machine's load
        # moves both alike; the ratio is the median of each turn's.
        baselines.prepare_bare()
        turns = [(timed(rebuild_all, 1, before=settle), timed(baselines.bare, 1, before=settle)) for _ in range(runs)]
        figures["recompute"] = statistics.median(project for project, _ in turns)
        figures["bare"] = statistics.median(bare for _, bare in turns)
        figures["bare_ratio"] = statistics.median(project / bare for project, bare in turns)
    else:
        figures["recompute"] = timed(rebuild_all, runs, before=settle)
    figures["rows"] = RatingEntry.objects.count()
    project = checksum()
    if connection.vendor == "sqlite":
        ids = dict(RatingTable.objects.values_list("slug", "pk"))
        figures["bare_agrees"] = {ids[slug]: value for slug, value in project.items()} == baselines.bare_checksum()
        figures["baseline"] = timed(baselines.with_indexes, runs, before=settle)
        figures["baseline_agrees"] = checksum() == project
        rebuild_all()
    rng = random.Random(1)
    pool = list(Player.objects.all()[:500])
    home = Club.objects.get()  # the generated league is one club's
    with scope(club=home.pk):  # where a club's writes run: its entry page, its secretary's admin
        figures.update(writes(home, runs, rng, pool, sides))
    # The busiest player: the longest history, the most opponents.
    player = Player.objects.annotate(played=Count("results")).order_by("-played", "pk").first()
    # The standings as they stood at the middle matchday's date, against today's in the same run.
    middle = Matchday.objects.order_by("date", "number").values_list("date", flat=True)[Matchday.objects.count() // 2]
    club = f"/{home.slug}"
    game = f"{club}/games/{Game.objects.order_by('pk').first().slug}/"
    figures["pages"] = page_figures(
        {
            "home": f"{club}/",
            "standings": f"{club}/standings/",
            "as-at standings": f"{club}/standings/?as_at={middle.isoformat()}",
            "player": f"{club}/players/{player.pk}/",
            "game": game,
            "compare": f"{club}/compare/?table=overall",
        },
        runs,
    )
    after_write = {"home": f"{club}/", "game": game, "player": f"{club}/players/{player.pk}/"}
    figures["after_write"] = first_pages_after_a_write(after_write, runs, rng, pool)
    return figures
