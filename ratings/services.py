"""The recompute engine: the one place where rating tables are written.

Called explicitly by the admin, the CSV import and `manage.py recompute_ratings`, never from signals,
so every write path is visible. Everything runs inside one transaction: if a recompute fails, the edit
that caused it is rolled back with it and the old tables stay as they were.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from itertools import groupby

from django.db import transaction
from django.utils.text import slugify

from league.models import Category, Game, Matchday, Result

from . import methods
from .models import RatingEntry, RatingTable

Position = tuple[date, int]  # (date, number): the order in which matchdays are rated


class RecomputeError(Exception):
    """Stored results that cannot be rated (e.g. a matchday with one player)."""


def sync_tables() -> None:
    """Make sure every rating table the games call for exists, and none that they no longer do."""
    RatingTable.objects.get_or_create(
        scope=RatingTable.Scope.OVERALL,
        defaults={"name": "Overall", "slug": "overall"},
    )
    taken = set(RatingTable.objects.values_list("slug", flat=True))
    for game in Game.objects.filter(rating_table__isnull=True):
        slug = _free_slug(game.slug, taken)
        RatingTable.objects.create(
            scope=RatingTable.Scope.GAME,
            game=game,
            name=game.name,
            slug=slug,
            description=f"This rating only counts {game.name} games.",
        )
        taken.add(slug)
    unofficial = Category.objects.filter(games__official=False).distinct()
    RatingTable.objects.filter(scope=RatingTable.Scope.CATEGORY).exclude(category__in=unofficial).delete()
    for category in unofficial.filter(rating_table__isnull=True):
        slug = _free_slug(category.slug, taken)
        RatingTable.objects.create(
            scope=RatingTable.Scope.CATEGORY,
            category=category,
            name=category.name,
            slug=slug,
            description=category.description or "This is not part of the official rating.",
        )
        taken.add(slug)


def _free_slug(wanted: str, taken: set[str]) -> str:
    slug, n = slugify(wanted) or "table", 2
    while slug in taken:
        slug, n = f"{slugify(wanted)}-{n}", n + 1
    return slug


def ratings_before(table: RatingTable, position: Position) -> dict[int, float]:
    """Each player's rating in `table` just before the matchday at `position`."""
    return {player_id: rating for player_id, (rating, _) in standing_before(table, position).items()}


def standing_before(table: RatingTable, position: Position) -> dict[int, tuple[float, dict | None]]:
    """Each player's rating and carried state in `table` just before the matchday at `position`."""
    latest = table.entries.before_position(*position).latest_per_player()
    return {e.player_id: (e.rating_after, e.state) for e in latest}


def seat(result: Result, rating: float, state: dict | None) -> methods.Seat:
    """A stored result as the rating methods see it."""
    return methods.Seat(
        rating=rating,
        placing=result.effective_placing,
        state=state,
        left_early=result.left_early,
        won_by_16=result.won_by_16,
        won_by_24=result.won_by_24,
        won_by_4_and_last=result.won_by_4_and_last,
        bad_moves=result.bad_moves,
    )


def facts(matchday: Matchday) -> methods.Facts:
    return methods.Facts(rounds=matchday.rounds, winner_score=matchday.winner_score)


@transaction.atomic
def recompute(table: RatingTable, since: Position | None = None) -> int:
    """Rebuild `table` from the matchday at `since` onward (everything when None), with its method.

    Earlier rows are kept: a new or edited matchday never rewrites the past; each player's rating and
    carried state resume from their last row before `since`. Returns the number of rows written.
    """
    method, params = table.rating_method, table.method_params()
    start = method.start(params)
    matchdays = table.matchdays()
    stale = table.entries.all()
    ratings: dict[int, tuple[float, dict | None]] = {}
    if since is not None:
        matchdays = matchdays.from_position(*since)
        # By position, not by the matchdays that count now: an edit may have moved one out.
        stale = stale.from_position(*since)
        ratings = standing_before(table, since)
    stale.delete()

    results = (
        Result.objects.filter(matchday__in=matchdays)
        .select_related("matchday")
        .order_by("matchday__date", "matchday__number", "pk")
    )
    rows = []
    for matchday, group in groupby(results.iterator(chunk_size=2000), key=lambda r: r.matchday):
        group = list(group)
        if len(group) < 2:
            raise RecomputeError(
                f"{matchday} ({matchday.date}) has {len(group)} player; it needs at least two."
            )
        seats = [seat(r, *ratings.get(r.player_id, start)) for r in group]
        try:
            changes = method.compute(seats, facts(matchday), params)
        except methods.MethodError as error:
            raise RecomputeError(f"{table}: {matchday} ({matchday.date}): {error}") from error
        for result, change in zip(group, changes, strict=True):
            ratings[result.player_id] = (change.rating_after, change.state)
            rows.append(
                RatingEntry(
                    table=table,
                    matchday_id=matchday.pk,
                    player_id=result.player_id,
                    result_id=result.pk,
                    rating_before=change.rating_before,
                    rating_after=change.rating_after,
                    opponents_mean=change.opponents_mean,
                    expected=change.expected,
                    score=change.score,
                    k=change.k,
                    delta=change.delta,
                    state=change.state,
                )
            )
    RatingEntry.objects.bulk_create(rows, batch_size=2000)
    return len(rows)


def method_problems(table: RatingTable, method: methods.Method) -> list[str]:
    """What `method` could not rate among the table's matchdays (e.g. Sedma: four players), one line
    per matchday. Reads only; used to refuse a method in the admin before anything is saved."""
    results = (
        Result.objects.filter(matchday__in=table.matchdays())
        .select_related("matchday")
        .order_by("matchday__date", "matchday__number", "pk")
    )
    problems = []
    for matchday, group in groupby(results, key=lambda r: r.matchday):
        try:
            method.check([seat(r, 0, None) for r in group])
        except methods.MethodError as error:
            problems.append(f"{matchday} ({matchday.date}): {error}")
    return problems


@transaction.atomic
def recompute_all() -> int:
    sync_tables()
    return sum(recompute(table) for table in RatingTable.objects.all())


@transaction.atomic
def recompute_from(position: Position, games: Iterable[Game]) -> list[RatingTable]:
    """Recompute, from `position` on, every table that a matchday of any of `games` counts in.

    Pass the games as they were before an edit as well as after it (an edit can move a matchday
    to another game, or make a game unofficial), so that tables it left are corrected too.
    """
    sync_tables()
    games = list(games)
    tables = [t for t in RatingTable.objects.all() if any(t.counts(g) for g in games)]
    for table in tables:
        recompute(table, since=position)
    return tables


def recompute_for_matchday(matchday: Matchday, old: Matchday | None = None) -> list[RatingTable]:
    """Recompute after `matchday` was added or edited; `old` is its state before the edit."""
    positions = [matchday.position] + ([old.position] if old else [])
    games = [matchday.game] + ([old.game] if old else [])
    return recompute_from(min(positions), games)


def recompute_for_game(game: Game, old: Game) -> list[RatingTable]:
    """Recompute after a game's official flag or category changed."""
    first = game.matchdays.in_play_order().first()
    if first is None:
        sync_tables()
        return []
    return recompute_from(first.position, [game, old])
