"""Measurements for `manage.py benchmark --clubs N`, run in child processes on throwaway databases:
the same matchdays as one league, spread over N clubs, and what one club's write costs it and the
others (docs/performance.md)."""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path

from django.core.management import call_command
from django.db.models import Count
from django.test import Client
from django_scopes import scope

from league.models import Category, Club, Game, Matchday, Player, Result
from ratings.services.catalogue import save_category, save_game
from ratings.services.recompute import rebuild_all
from tools.baselines import settle
from tools.benchmark import add_latest_matchday, remove_matchday, timed
from tools.generate import UNOFFICIAL_GAME
from web.importing import import_results

TARGETS = {"add_latest": 0.020, "recompute_club": 1.0, "whole_site_ratio": 1.0}
# Adds untimed before the timed ones: this process is new, and its first few writes also fill
# Django's and SQLite's caches, which a site's worker filled long before a secretary saves (the
# first is printed apart; docs/performance.md).
WARM_UP = 3


def _club_league(csv: Path) -> None:
    """The generated league in the club of the scope: its unofficial game first, as the one-league
    benchmark creates it, then the file."""
    category = Category(slug="trading-card-games", name="Trading card games")
    save_category(category)
    save_game(Game(name=UNOFFICIAL_GAME, slug=UNOFFICIAL_GAME.lower(), category=category, official=False))
    import_results(csv.read_bytes())


def build(path: str) -> float:
    """A file: one club holding it all. A folder of files: a club for each. The seconds it took."""
    call_command("flush", interactive=False, verbosity=0)
    source = Path(path)
    files = sorted(source.glob("*.csv")) if source.is_dir() else [source]
    start = time.perf_counter()
    for number, csv in enumerate(files, start=1):
        club = Club.objects.create(slug=f"club-{number:03d}", name=f"Club {number}")
        with scope(club=club.pk):
            _club_league(csv)
    return time.perf_counter() - start


def recompute() -> float:
    """One full recompute of every club's tables, from a folded write-ahead log."""
    return timed(rebuild_all, 1, before=settle)


def _pages(club: Club) -> list[str]:
    with scope(club=club.pk):
        player = Player.objects.annotate(played=Count("results")).order_by("-played", "pk").first()
        game = Game.objects.order_by("pk").first()
    base = f"/{club.slug}/"
    return [base, f"{base}standings/", f"{base}games/{game.slug}/", f"{base}players/{player.pk}/"]


def _hits(client: Client, urls: list[str]) -> tuple[int, int]:
    """How many of `urls` the page cache answered, and how many answered 200 at all."""
    responses = [client.get(url) for url in urls]
    return sum(getattr(r, "page_cache", None) == "hit" for r in responses), sum(r.status_code == 200 for r in responses)


def measure(runs: int) -> dict:
    clubs = list(Club.objects.order_by("slug"))
    figures: dict = {
        "clubs": len(clubs),
        "matchdays": Matchday.objects.count(),
        "results": Result.objects.count(),
        "players": Player.objects.count(),
    }
    writer, others = clubs[len(clubs) // 2], [club for club in clubs if club != clubs[len(clubs) // 2]]
    rng = random.Random(1)
    added: list[Matchday] = []
    with scope(club=writer.pk):  # as its entry page and its secretary's admin write
        pool = list(Player.objects.all())

        def add() -> None:
            added.append(add_latest_matchday(rng, pool))

        def drop() -> None:
            if added:
                remove_matchday(added.pop())

        figures["add_first"] = timed(add, 1)
        for _ in range(WARM_UP - 1):
            drop()
            add()
        figures["add_latest"] = timed(add, runs, before=drop)
        drop()
    figures["recompute_club"] = timed(lambda: rebuild_all(writer), runs, before=settle)
    figures["writer_matchdays"] = writer.matchdays.count()

    # Every other club's pages rendered and stored; a write in one club; then asked for again.
    client = Client()
    theirs = [url for club in others for url in _pages(club)]
    ours = _pages(writer)
    _hits(client, theirs + ours)
    figures["cached_before"], _ = _hits(client, theirs)
    with scope(club=writer.pk):
        written = add_latest_matchday(rng, pool)
    hits, answered = _hits(client, theirs)
    figures["other_pages"] = len(theirs)
    figures["other_pages_answered"] = answered
    figures["other_clubs_cached"] = hits
    figures["writer_pages_cached"], _ = _hits(client, ours)  # must be none: its pages show the write
    with scope(club=writer.pk):
        remove_matchday(written)
    return figures


def report(f: dict, turns: list[tuple[float, float]]) -> str:
    one = statistics.median(single for single, _ in turns)
    many = statistics.median(spread for _, spread in turns)
    ratio = statistics.median(spread / single for single, spread in turns)

    def verdict(ok: bool) -> str:
        return "   ok" if ok else "   MISSED"

    kept = f["other_clubs_cached"] == f["cached_before"]  # the write dropped none of them
    one_matchdays, one_players = f.get("one_league", (None, None))
    lines = [
        f"Site: {f['clubs']} clubs; {f['matchdays']:,} matchdays, {f['results']:,} results, {f['players']:,} "
        f"players in all; the one league: {one_matchdays:,} matchdays of {one_players:,} players",
        "",
        f"{'figure':<52} {'value':>14}   target",
        f"{'add one matchday at the end of one club':<52} {f['add_latest'] * 1000:>11,.1f} ms   <= "
        f"{TARGETS['add_latest'] * 1000:.0f} ms" + verdict(f["add_latest"] <= TARGETS["add_latest"]),
        f"{'... the first in this new process (not timed above)':<52} {f['add_first'] * 1000:>11,.1f} ms",
        f"{'recompute one club (' + format(f['writer_matchdays'], ',') + ' matchdays)':<52} "
        f"{f['recompute_club']:>12,.2f} s   <= {TARGETS['recompute_club']:.0f} s"
        + verdict(f["recompute_club"] <= TARGETS["recompute_club"]),
        f"{'full recompute, the one league':<52} {one:>12,.2f} s",
        f"{'full recompute, the whole site of clubs':<52} {many:>12,.2f} s",
        f"{'ratio site of clubs / one league':<52} {ratio:>13.2f}x   <= {TARGETS['whole_site_ratio']:.0f}x"
        + verdict(ratio <= TARGETS["whole_site_ratio"]),
        f"{'other clubs pages cached before the write':<52} {f['cached_before']:>7,} of {f['other_pages']:,}"
        f"   all{verdict(f['cached_before'] == f['other_pages'])}",
        f"{'... still served from the cache after it':<52} {f['other_clubs_cached']:>7,} of {f['cached_before']:,}"
        f"   all{verdict(kept)}",
        f"{'the writing club pages served from the cache':<52} {f['writer_pages_cached']:>7,} of 4   none"
        + verdict(f["writer_pages_cached"] == 0),
    ]
    if f["other_pages_answered"] != f["other_pages"]:
        lines.append(f"STATUS: only {f['other_pages_answered']} of {f['other_pages']} pages answered 200")
    return "\n".join(lines)
