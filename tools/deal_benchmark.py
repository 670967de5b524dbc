"""Measurements of a solitaire league (a game played against deals) for `manage.py benchmark
--solitaire`, run in a child process on a throwaway database; every figure is the median of runs.

The bare baseline does the work of a full recompute of the game (seeds, then every attempt in play
order; one row per rated attempt, each deal's, level's and player's state, into the same tables with
the same indexes) with nothing but `sqlite3` and plain Python, to show what the framework costs.
"""

from __future__ import annotations

import json
import math
import random
import sqlite3
from datetime import timedelta

from django.db import connection
from django.db.models import Count, Sum

from league.models import Attempt, Deal, DealSession, Game, Player
from ratings.deals import services as deal_services
from ratings.models import AttemptRating, DealRating, RatingTable, Standing
from ratings.services.recompute import rebuild_all
from tools.benchmark import empty_database, page_figures, settle, timed
from web.deals.importing import import_attempts, import_seeds


def checksum() -> dict:
    """Rows, players and deals with their totals: two computations that agree give the same."""
    rows = AttemptRating.objects.aggregate(n=Count("pk"), players=Sum("player_after"), deals=Sum("deal_after"))
    return {
        "rows": (rows["n"], round(rows["players"] or 0, 6), round(rows["deals"] or 0, 6)),
        "standings": tuple(Standing.objects.order_by("player_id").values_list("player_id", "rating", "played")),
        "deals": round(DealRating.objects.aggregate(total=Sum("base"))["total"] or 0, 6),
    }


def _exact_add(partials: list[float], x: float) -> None:
    """Shewchuk's exact running sum, as the project keeps each level's sum of deal bases."""
    i = 0
    for y in partials:
        if abs(x) < abs(y):
            x, y = y, x
        high = x + y
        low = y - (high - x)
        if low:
            partials[i] = low
            i += 1
        x = high
    partials[i:] = [x]


def raw_baseline() -> int:
    """A full recompute of the solitaire table with plain sqlite3 and the seed's maths inline."""
    db = sqlite3.connect(connection.settings_dict["NAME"])
    db.execute("PRAGMA foreign_keys = ON")  # as Django's connections have it
    table_id, game_id, params = db.execute(
        "SELECT t.id, t.game_id, t.parameters FROM ratings_ratingtable t WHERE t.method = 'player-vs-deal'"
    ).fetchone()
    params = json.loads(params) if isinstance(params, str) else params
    start, k, boost = 1500.0, float(params.get("k", 8.0)), float(params.get("level_boost", 0.03))
    assert not params.get("first_attempt_only"), "the baseline rates every rated attempt"
    for name in ("ratings_attemptrating", "ratings_dealrating", "ratings_levelrating"):
        db.execute(f"DELETE FROM {name} WHERE table_id = ?", (table_id,))  # noqa: S608 - our own names
    db.execute("DELETE FROM ratings_standing WHERE table_id = ?", (table_id,))
    levels, deals = _raw_seeds(db, game_id, start)
    rows, players = _raw_rate(db, table_id, game_id, (start, k, boost), levels, deals)
    _raw_write(db, table_id, rows, players, deals, levels)
    db.commit()
    db.close()
    return len(rows)


def _raw_seeds(db, game_id: int, start: float) -> tuple[dict[int, list], dict[int, list]]:
    """The levels and deals as their seeds start them."""
    levels: dict[int, list] = {}  # level -> [offset, known, partials, attempts, wins, last]
    deals: dict[int, list] = {}  # deal -> [level, base, seeded, played, wins, first, last]
    seeds: dict[int, list[tuple]] = {}
    for deal, level, plays, wins in db.execute(
        "SELECT s.deal_id, d.level_id, s.plays, s.wins FROM league_dealseed s JOIN league_deal d ON d.id = s.deal_id"
        " JOIN league_deallevel l ON l.id = d.level_id WHERE l.game_id = ?",
        (game_id,),
    ):
        seeds.setdefault(level, []).append((deal, plays, wins))
    for level, records in seeds.items():
        average = sum(w for _, _, w in records) / sum(p for _, p, _ in records)
        state = levels.setdefault(level, [0.0, 0, [], 0, 0, None])
        for deal, plays, wins in records:
            rate = min(max((wins + 5 * average) / (plays + 5), 0.001), 0.999)
            rating = start + 400 * math.log10((1 - rate) / rate)
            deals[deal] = [level, rating, rating, 0, 0, None, None]
            state[1] += 1
            _exact_add(state[2], rating)
    return levels, deals


def _raw_rate(db, table_id: int, game_id: int, maths: tuple, levels: dict, deals: dict) -> tuple[list, dict]:
    """Every attempt rated in play order: the rows to write and the players' standings."""
    start, k, boost = maths
    players: dict[int, list] = {}  # player -> [rating, played, last, delta]
    rows = []
    for attempt, day, position, player, deal, level, won, rated in db.execute(
        "SELECT a.id, s.date, a.position, a.player_id, a.deal_id, d.level_id, a.won, a.rated FROM league_attempt a"
        " JOIN league_dealsession s ON s.id = a.session_id JOIN league_deal d ON d.id = a.deal_id"
        " WHERE s.game_id = ? ORDER BY s.date, a.position",
        (game_id,),
    ):
        me = players.get(player)
        if not rated:
            if me:
                me[2] = day
            continue
        lv = levels.setdefault(level, [0.0, 0, [], 0, 0, None])
        dl = deals.get(deal)
        if dl is None:
            base = math.fsum(lv[2]) / lv[1] if lv[1] else start - lv[0]
            dl = deals[deal] = [level, base, None, 0, 0, day, None]
            lv[1] += 1
            _exact_add(lv[2], base)
        rating = me[0] if me else start
        base, offset = dl[1], lv[0]
        deal_rating = base + offset
        chance = 1 / (1 + 10 ** ((deal_rating - rating) / 400))
        delta = k * ((1.0 if won else 0.0) - chance)
        shared = boost * -delta
        new_base = base + (-delta - shared)
        _exact_add(lv[2], -base)
        _exact_add(lv[2], new_base)
        lv[0] = offset = offset + shared
        lv[3], lv[4], lv[5] = lv[3] + 1, lv[4] + won, day
        dl[1], dl[3], dl[4], dl[6] = new_base, dl[3] + 1, dl[4] + won, day
        players[player] = [rating + delta, me[1] + 1 if me else 1, day, delta]
        rows.append(
            (table_id, attempt, player, deal, level, day, position, won, rating, rating + delta, deal_rating,
             new_base + offset, new_base, offset, chance, k, delta)
        )  # fmt: skip
    return rows, players


def _raw_write(db, table_id: int, rows: list, players: dict, deals: dict, levels: dict) -> None:
    db.executemany(
        "INSERT INTO ratings_attemptrating (table_id, attempt_id, player_id, deal_id, level_id, session_date, position,"
        " won, player_before, player_after, deal_before, deal_after, deal_base_after, level_offset_after, expected, k,"
        " delta) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        rows,
    )
    db.executemany(
        "INSERT INTO ratings_standing (table_id, player_id, rating, played, matchday_date, matchday_number, delta)"
        " VALUES (?,?,?,?,?,0,?)",
        [(table_id, p, *state) for p, state in players.items()],
    )
    db.executemany(
        "INSERT INTO ratings_dealrating (table_id, deal_id, level_id, base, seeded, played, wins, first_date,"
        " last_date) VALUES (?,?,?,?,?,?,?,?,?)",
        [(table_id, d, *state) for d, state in deals.items()],
    )
    db.executemany(
        "INSERT INTO ratings_levelrating (table_id, level_id, offset, deals, base_sum, average, attempts, wins,"
        " last_date) VALUES (?,?,?,?,?,?,?,?,?)",
        [
            (table_id, lv, s[0], s[1], json.dumps(s[2]), math.fsum(s[2]) / s[1] + s[0], s[3], s[4], s[5])
            for lv, s in levels.items()
            if s[1]
        ],
    )


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
        figures["baseline"] = timed(raw_baseline, runs, before=settle)
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
            "solitaire": f"/games/{table.game.slug}/",
            "deal": deal.get_absolute_url(),
            "player": f"/players/{busiest.pk}/",
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
