"""Measurements of a solitaire league (a game played against deals) for `manage.py benchmark
--solitaire`, run in a child process on a throwaway database; every figure is the median of runs.

The bare baseline (`tools.baselines.deal_baseline`) does the work of a full recompute of the game
with nothing but `sqlite3` and plain Python, to show what the framework costs.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.db import connection
from django.db.models import Count, Sum

from league.models import Attempt, Deal, DealSession, Game, Player
from ratings.deals import services as deal_services
from ratings.models import AttemptRating, DealRating, RatingTable, Standing
from ratings.services.recompute import rebuild_all
from tools import baselines
from tools.baselines import settle
from tools.benchmark import empty_database, page_figures, timed
from web.deals.importing import import_attempts, import_seeds


def checksum() -> dict:
    """Rows, players and deals with their totals: two computations that agree give the same."""
    rows = AttemptRating.objects.aggregate(n=Count("pk"), players=Sum("player_after"), deals=Sum("deal_after"))
    return {
        "rows": (rows["n"], round(rows["players"] or 0, 6), round(rows["deals"] or 0, 6)),
        "standings": tuple(Standing.objects.order_by("player_id").values_list("player_id", "rating", "played")),
        "deals": round(DealRating.objects.aggregate(total=Sum("base"))["total"] or 0, 6),
    }


def tonight(rng: random.Random) -> tuple[DealSession, list[deal_services.AttemptInput]]:
    """Tonight's session, the day after the last, as the secretary types it: 40 attempts by regulars,
    most at deals played before, some at new ones."""
    game = Game.objects.get(against_deals=True)
    last = DealSession.objects.filter(game=game).order_by("-date").first()
    players = list(Player.objects.all()[:60])
    known = list(Deal.objects.filter(level__game=game).select_related("level")[:2000])
    attempts = []
    for _ in range(40):
        deal = rng.choice(known)
        number = deal.number if rng.random() < 0.7 else 100_000 + rng.randrange(10_000)
        attempts.append(
            deal_services.AttemptInput(
                rng.choice(players), deal.level.variant, deal.level.level, number, rng.random() < 0.6
            )
        )
    return DealSession(game=game, date=last.date + timedelta(days=1)), attempts


def edit_middle_session() -> None:
    """Turn the first result of the middle session around and recompute from it."""
    sessions = DealSession.objects.order_by("date")
    middle = sessions[sessions.count() // 2]
    attempts = [
        deal_services.AttemptInput(a.player, a.deal.level.variant, a.deal.level.level, a.deal.number, a.won, a.rated)
        for a in middle.attempts.select_related("player", "deal__level").order_by("position")
    ]
    attempts[0].won = not attempts[0].won
    deal_services.save_session(middle, attempts)


def measure(csv_path: str, seeds_path: str, runs: int) -> dict:
    data, seeds = open(csv_path, "rb").read(), open(seeds_path, "rb").read()
    figures: dict = {}

    def import_both():
        import_seeds(seeds)
        import_attempts(data)

    figures["import"] = timed(import_both, runs, before=empty_database)
    figures["attempts"] = Attempt.objects.count()
    figures["players"] = Player.objects.count()
    figures["deals"] = Deal.objects.count()
    figures["recompute"] = timed(rebuild_all, runs, before=settle)
    figures["rows"] = AttemptRating.objects.count()
    project = checksum()
    if connection.vendor == "sqlite":
        figures["baseline"] = timed(baselines.deal_baseline, runs, before=settle)
        figures["baseline_agrees"] = checksum() == project
        rebuild_all()
    rng = random.Random(1)
    sessions = [tonight(rng) for _ in range(runs)]  # prepared untimed
    added: list[DealSession] = []

    def add_session():
        session, attempts = sessions[len(added)]
        deal_services.save_session(DealSession(game=session.game, date=session.date), attempts)
        added.append(DealSession.objects.get(game=session.game, date=session.date))

    figures["add_session"] = timed(
        add_session, runs, before=lambda: added and deal_services.delete_sessions([added[-1]])
    )
    deal_services.delete_sessions([added[-1]])
    figures["edit_middle"] = timed(edit_middle_session, runs)
    table = RatingTable.objects.get(game__against_deals=True)
    busiest = table.standings.order_by("-played").first().player
    deal = DealRating.objects.order_by("-played").select_related("deal__level__game").first().deal
    figures["pages"] = page_figures(
        {
            "solitaire": table.game.get_absolute_url(),
            "deal": deal.get_absolute_url(),
            "player": busiest.get_absolute_url(),
        },
        runs,
    )
    return figures


def report(f: dict) -> str:
    def ms(seconds):
        return f"{seconds * 1000:,.1f} ms"

    lines = [
        f"Solitaire: {f['attempts']:,} attempts, {f['players']:,} players, {f['deals']:,} deals; "
        f"{f['rows']:,} rated attempts",
        "",
        f"{'figure':<44} {'value':>14}",
        f"{'import of seeds and attempts (incl. recompute)':<44} {f['import']:>12,.2f} s",
        f"{'full recompute of the game':<44} {f['recompute']:>12,.2f} s",
    ]
    if "baseline" in f:
        agrees = "same ratings" if f["baseline_agrees"] else "DIFFERENT ratings"
        lines += [
            f"{'bare sqlite3 baseline (' + agrees + ')':<44} {f['baseline']:>12,.2f} s",
            f"{'ratio project / baseline':<44} {f['recompute'] / f['baseline']:>13.2f}x",
        ]
    lines += [
        f"{'add one session (40 attempts) at the end':<44} {ms(f['add_session']):>14}",
        f"{'edit a session in the middle':<44} {ms(f['edit_middle']):>14}",
    ]
    for name, page in f["pages"].items():
        label = f"render {name} page ({page['queries']} queries)"
        lines.append(f"{label:<44} {ms(page['seconds']):>14}")
    return "\n".join(lines)
