"""A matchday's results: checked, previewed, saved and deleted, each with the recompute it causes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from django.core.exceptions import ValidationError
from django.db import transaction

from league.models import Game, Matchday, Player, Result
from league.placings import (
    BY_PLACINGS,
    matchday_problems,
    placed_by_points,
    same_side_labels,
    stored_rated_placings,
    winner_points,
)
from league.results import RESULT_FIELDS, Entry, Play, values
from league.validation import WINNER_SCORES

from .. import engine, methods
from ..models import RatingEntry, RatingTable
from ..selectors.standings import matchday_changes, table_order
from .recompute import recompute_from


@dataclass(frozen=True, kw_only=True)
class ResultInput(Play):
    """One player's result on its way to the database: the record, with the player (perhaps a new,
    unsaved one, created on saving) and a note."""

    player: Player
    note: str = ""

    def entry(self) -> Entry:
        return Entry(*values(self), player=self.player.short_name)


# What a save writes of each result, besides the matchday and the player.
STORED_FIELDS = (*RESULT_FIELDS, "note")


def unratable(game: Game, seats: Sequence[methods.Seat]) -> list[str]:
    """What the methods of the tables a matchday of `game` counts in cannot rate (e.g. Sedma: two
    players only), one line per table. Reads only."""
    if game.against_deals:
        return [f"{game} is played against deals: enter its attempts as a session, not a matchday."]
    problems = []
    for table in engine.tables_counting([game]):
        if table.season_id is not None:
            continue  # a season's table has its parent's method, checked once there
        try:
            table.rating_method.check(seats)
        except methods.MethodError as error:
            problems.append(f"The {table.name} rating uses {table.rating_method.name}: {error}.")
    return problems


def _entries(results: Sequence[ResultInput]) -> list[Entry]:
    return [r.entry() for r in results]


def _with_derived_rated_placings(results: Sequence[ResultInput]) -> list[ResultInput]:
    """The results with the rated placings the penalty rule derives: players who left early after
    everyone who stayed, the others in finishing order around any explicit penalty."""
    derived = stored_rated_placings(_entries(results))
    written = same_side_labels(results)
    return [replace(r, rated_placing=rated) for r, rated in zip(written, derived, strict=True)]


def placed(game: Game | None, results: Sequence[ResultInput]) -> tuple[list[ResultInput], list[str]]:
    """The results with the placings their points give in a game scored by points (a result may
    come without a placing there), and what is wrong with the points (league.placings)."""
    scoring = game.scoring if game is not None else BY_PLACINGS
    entries, problems = placed_by_points(_entries(results), scoring)
    return [replace(r, placing=e.placing) for r, e in zip(results, entries, strict=True)], problems


def results_problems(game: Game | None, results: Sequence[ResultInput]) -> list[str]:
    """Everything wrong with a matchday's results, naming the players: the points, the league's
    rules, then what the methods of the game's tables cannot rate. Reads only; forms show these."""
    results, problems = placed(game, results)
    problems = problems or matchday_problems(_entries(results))
    if problems or game is None:
        return problems
    return unratable(game, [methods.Seat.of(r) for r in _with_derived_rated_placings(results)])


def _game_of(matchday: Matchday) -> Game | None:
    return matchday.game if matchday.game_id else None


def _checked(matchday: Matchday, results: Sequence[ResultInput]) -> list[ResultInput]:
    """The results placed and penalised as the rules say; the winner's score taken from the points
    (a game where the highest score wins), or ValidationError."""
    game = _game_of(matchday)
    problems = results_problems(game, results)
    if problems:
        raise ValidationError(problems)
    results, _ = placed(game, results)
    points = winner_points(_entries(results), game.scoring)
    if points is not None and WINNER_SCORES.lowest <= points <= WINNER_SCORES.highest:
        matchday.winner_score = points
    return _with_derived_rated_placings(results)


def _result_problems(results: Sequence[ResultInput]) -> list[str]:
    """Each result's own values against the fields' rules (ranges, no NUL in a note), and each new
    player's name (the admin's forms check these too; this is for every other caller)."""
    problems = []
    for given in results:
        if given.player.pk is None:
            try:
                given.player.full_clean()
            except ValidationError as error:
                problems.extend(f"{given.player.short_name!r}: {m}" for m in error.messages)
                continue
        stored = {name: getattr(given, name) for name in STORED_FIELDS}
        try:
            Result(**stored).clean_fields(exclude=["matchday", "player"])
        except ValidationError as error:
            problems.extend(f"{given.player.short_name}: {m}" for m in error.messages)
    return problems


@transaction.atomic
def save_matchday(matchday: Matchday, results: Sequence[ResultInput]) -> list[RatingEntry]:
    """Add or change a matchday and its results (the results replace the stored ones, player by
    player), then recompute every table it counts in, or counted in before the edit, from its
    earlier position on. Returns the matchday's rating changes, table by table."""
    placed_results, problems = placed(_game_of(matchday), results)
    problems = problems or _result_problems(placed_results)
    if problems:
        raise ValidationError(problems)
    results = _checked(matchday, results)
    matchday.full_clean()
    old = Matchday.objects.select_related("game").filter(pk=matchday.pk).first() if matchday.pk else None
    matchday.save()
    for result in results:
        if result.player.pk is None:
            result.player.save()
    stored = {r.player_id: r for r in matchday.results.all()}
    wanted = {r.player.pk: r for r in results}
    Result.objects.filter(pk__in=[r.pk for pid, r in stored.items() if pid not in wanted]).delete()
    for player_id, given in wanted.items():
        result = stored.get(player_id) or Result(matchday=matchday, player_id=player_id)
        changed = {name: getattr(given, name) for name in STORED_FIELDS}
        if result.pk is None or any(getattr(result, k) != v for k, v in changed.items()):
            for name, value in changed.items():
                setattr(result, name, value)
            result.save()
    positions, games = [matchday.position], [matchday.game]
    if old is not None:
        positions.append(old.position)
        games.append(old.game)
    recompute_from(min(positions), games)
    return matchday_changes(matchday)


@dataclass
class MatchdayPreview:
    """What saving a matchday would do: each table's changes, player by player in the order given,
    and how many later matchdays saving it would recompute (for a back-dated matchday)."""

    results: list[ResultInput]  # with the rated placings the penalty rule derives
    changes: list[tuple[RatingTable, list[methods.Outcome]]]
    later_matchdays: int


def preview_matchday(matchday: Matchday, results: Sequence[ResultInput]) -> MatchdayPreview:
    """The changes a new matchday would bring, from the ratings at its place in play order. Reads
    only; refuses what `save_matchday` would refuse."""
    results = _checked(matchday, results)
    counting = engine.tables_counting([matchday.game])
    held = (t for t in counting if t.season is None or t.season.holds(matchday.date))
    tables = sorted(held, key=lambda t: (*table_order(t), t.season_id is not None))  # a season's after the club's
    counted = [game for game in Game.objects.all() if any(table.counts(game) for table in tables)]
    players = [r.player.pk for r in results]
    changes = engine.rate_alone(
        tables,
        matchday.position,
        players,
        [methods.Seat.of(r) for r in results],
        methods.Facts(matchday.rounds, matchday.winner_score),
    )
    later = Matchday.objects.filter(game__in=counted).from_position(*matchday.position).exclude(pk=matchday.pk)
    return MatchdayPreview(results, changes, later.count())


@transaction.atomic
def delete_matchdays(matchdays: Iterable[Matchday]) -> list[RatingTable]:
    """Delete matchdays with their results and recompute their tables from the earliest of them."""
    matchdays = list(matchdays)
    if not matchdays:
        return []
    position = min(m.position for m in matchdays)
    games = {m.game_id: m.game for m in matchdays}.values()
    Matchday.objects.filter(pk__in=[m.pk for m in matchdays]).delete()
    return recompute_from(position, games)
