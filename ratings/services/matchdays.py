"""Matchdays and their results: stored (the one writer, for one matchday or a file of them),
previewed and deleted, each with the recompute it causes. What is stored has passed the one check
(`checks.check_matchday`)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

import league.history as history
from league.models import Game, Matchday, Player, Result
from league.results import RESULT_FIELDS, values
from league.validation import name_key

from .. import engine, methods
from ..bulk import analyze_after_load, insert_rows
from ..models import RatingTable
from ..selectors.standings import table_order
from .checks import CheckedMatchday
from .recompute import recompute_from

# A matchday's row and its results' rows as the writer stores them: the record's fields as checked.
MATCHDAY_COLUMNS = ("number", "date", "game", "rounds", "winner_score", "notes")
RESULT_COLUMNS = ("matchday_id", "player_id", "note", *RESULT_FIELDS)


@transaction.atomic
def save_matchdays(
    checked: Sequence[CheckedMatchday], players: Mapping[str, Player], *, as_listed: bool = False
) -> list[Matchday]:
    """Store checked matchdays, one or a file's many: new players (unsaved ones of `players`, each
    result's player by the name key of its name), each matchday's row, its results replacing any
    stored ones; then recompute every table they count in, or counted in before (an edit may move a
    matchday to another date or game), from the earliest position touched, and move the revision on.
    A matchday's results are rated in the order they were entered: in an edited one, a player who
    stays keeps their place, and one added comes after (the admin lists its rows by placing); `as_listed`
    (a revert, putting back a kept state), in the order given, and one with an id no row has is added."""
    matchdays = [c.matchday for c in checked]
    edited = [m.pk for m in matchdays if m.pk is not None]
    _hold(edited, [players[name_key(r.player)] for one in checked for r in one.results])
    before = list(Matchday.objects.filter(pk__in=edited).select_related("game")) if edited else []
    # A revert puts a deleted matchday back under its own id, which the earlier writes of the history name.
    present = {m.pk for m in before} if as_listed else set(edited)
    as_they_were = history.matchdays(edited)
    club = _club_of(matchdays, [players[name_key(r.player)] for one in checked for r in one.results])
    new_players = list({id(p): p for p in players.values() if p.pk is None}.values())
    for player in new_players:
        player.short_name_key, player.club_id = name_key(player.short_name), club
    Player.objects.bulk_create(new_players)
    for matchday, one in zip(matchdays, checked, strict=True):
        matchday.winner_score = one.winner_score
    Matchday.objects.bulk_update([m for m in matchdays if m.pk in present], MATCHDAY_COLUMNS)
    Matchday.objects.bulk_create([m for m in matchdays if m.pk not in present])
    entered = {}
    if before:  # an edit: its results' order read, then the results replaced
        stored = Result.objects.filter(matchday__in=before)
        entered = {(m, p): pk for m, p, pk in stored.values_list("matchday_id", "player_id", "pk")}
        stored.delete()
    # Plain rows: a league's history arrives in one file, where a model instance per result costs
    # more than the database does; one matchday is written the same way.
    rows = [
        (one.matchday.pk, players[name_key(result.player)].pk, result.note, *values(result.play))
        for one in checked
        for result in one.results
    ]
    if entered and not as_listed:
        rows.sort(key=lambda row: (row[0], entered.get(row[:2], math.inf)))  # stable: the new as typed
    insert_rows(Result, RESULT_COLUMNS, rows)
    analyze_after_load(len(rows), Matchday, Result)
    touched = [*matchdays, *before]
    recompute_from(min(m.position for m in touched), {m.game.pk: m.game for m in touched}.values())
    now = _as_kept(matchdays, rows, players)
    added = [history.saved("player", player, None) for player in new_players]
    history.record(club, [*history.matchday_changes(as_they_were, now), *added])
    return matchdays


def _as_kept(matchdays: list[Matchday], rows: list[tuple], players: Mapping[str, Player]) -> dict[int, dict]:
    """The matchdays as just written, as the history keeps them (`history.matchdays` would read them
    back in two queries: a matchday added costs a fifth less without)."""
    kept = {
        m.pk: history.matchday_state(m.number, m.date, m.game.pk, m.game.name, m.rounds, m.notes) for m in matchdays
    }
    names = {player.pk: player.short_name for player in players.values()}
    for matchday_id, player_id, note, *given in rows:
        kept[matchday_id]["results"].append(history.result_state(player_id, names[player_id], note, given))
    return kept


def _hold(edited: list[int], who: list[Player]) -> None:
    """Lock the matchdays edited, then the stored players who played (a revert locks its matchdays
    first too): a merge or deletion of one of them meanwhile is waited for, and refused here rather
    than met by the database as a result of a player who is gone. ValidationError names them."""
    if edited:
        held = Matchday.objects.select_for_update(no_key=True).filter(pk__in=edited).order_by("pk")
        list(held.values_list("pk", flat=True))
    hold_players(who)


def hold_players(who: Iterable[Player]) -> None:
    """Lock the stored players of `who` for a write that is about to give them rows (results,
    attempts): one merged or deleted meanwhile is refused by name (ValidationError), not met by the
    database as a row of a player who is gone."""
    stored = {p.pk: p for p in who if p.pk is not None}
    held = Player.objects.select_for_update(no_key=True).filter(pk__in=stored).order_by("pk")  # not a merge's key
    gone = stored.keys() - set(held.values_list("pk", flat=True))
    if gone:
        raise ValidationError(
            [
                f"{stored[pk].short_name} was merged into another player or deleted while this was being saved; "
                "nothing was saved. Enter it again."
                for pk in sorted(gone)
            ]
        )


def save_matchday(checked: CheckedMatchday, players: Mapping[str, Player]) -> Matchday:
    """Add or change one matchday (`save_matchdays`). Its rating changes are
    `selectors.standings.matchday_changes`: only the admin's message shows them."""
    (matchday,) = save_matchdays([checked], players)
    return matchday


@dataclass
class MatchdayPreview:
    """What saving a matchday would do: each table's changes, player by player in the order given,
    and how many later matchdays saving it would recompute (for a back-dated matchday)."""

    checked: CheckedMatchday  # the results with the placings and rated placings the rules give
    players: list[Player]  # who played each result, in order
    changes: list[tuple[RatingTable, list[methods.Outcome]]]
    later_matchdays: int


def preview_matchday(checked: CheckedMatchday, players: Mapping[str, Player]) -> MatchdayPreview:
    """The changes a checked new matchday would bring, from the ratings at its place in play order.
    Reads only."""
    matchday = checked.matchday
    counting = engine.tables_counting([matchday.game])
    held = (t for t in counting if t.season is None or t.season.holds(matchday.date))
    tables = sorted(held, key=lambda t: (*table_order(t), t.season_id is not None))  # a season's after the club's
    counted = [game for game in Game.objects.all() if any(table.counts(game) for table in tables)]
    who = [players[name_key(result.player)] for result in checked.results]
    changes = engine.rate_alone(
        tables,
        matchday.position,
        [player.pk for player in who],
        [methods.Seat.of(result.play) for result in checked.results],
        methods.Facts(matchday.rounds, checked.winner_score),
    )
    later = Matchday.objects.filter(game__in=counted).from_position(*matchday.position).exclude(pk=matchday.pk)
    return MatchdayPreview(checked, who, changes, later.count())


@transaction.atomic
def delete_matchdays(matchdays: Iterable[Matchday]) -> list[RatingTable]:
    """Delete matchdays with their results and recompute their tables from the earliest of them."""
    matchdays = list(matchdays)
    if not matchdays:
        return []
    position = min(m.position for m in matchdays)
    games = {m.game_id: m.game for m in matchdays}.values()
    as_they_were = history.matchdays(m.pk for m in matchdays)
    Matchday.objects.filter(pk__in=[m.pk for m in matchdays]).delete()
    tables = recompute_from(position, games)
    for club in {m.club_id for m in matchdays}:
        theirs = {m.pk: as_they_were[m.pk] for m in matchdays if m.club_id == club and m.pk in as_they_were}
        history.record(club, history.matchday_changes(theirs, {}))
    return tables


def _club_of(matchdays: Sequence[Matchday], players) -> int:
    """The one club the matchdays, their games and the stored players of their results belong to: a
    writer that mixed two clubs' rows is a bug, stopped before anything is written."""
    clubs = {m.club_id for m in matchdays} | {m.game.club_id for m in matchdays}
    clubs |= {p.club_id for p in players if p.pk is not None}
    if len(clubs) != 1 or None in clubs:
        raise ValueError(f"Matchdays, games and players of more than one club, or of none: {sorted(map(str, clubs))}")
    return clubs.pop()


def look_alikes(
    wanted: Sequence[tuple[object, int, frozenset[int]]], exclude: Sequence[int] = ()
) -> dict[int, Matchday]:
    """Saved matchdays that look like ones about to be saved: the same date, game and players.
    `wanted` is (date, game id, player ids) per matchday; the answer maps each one's index to the
    saved matchday it looks like (matchdays of `exclude`, the ones being changed, never). Two queries."""
    if not wanted:
        return {}
    keys = {(day, game) for day, game, _ in wanted}
    saved = Matchday.objects.filter(date__in={day for day, _, _ in wanted}).exclude(pk__in=exclude)
    candidates = {m.pk: m for m in saved.select_related("game") if (m.date, m.game_id) in keys}
    players: dict[int, set[int]] = {}
    for matchday, player in Result.objects.filter(matchday__in=candidates).values_list("matchday", "player"):
        players.setdefault(matchday, set()).add(player)
    found = {}
    for index, (day, game, who) in enumerate(wanted):
        for pk, matchday in sorted(candidates.items()):
            if (matchday.date, matchday.game_id) == (day, game) and players.get(pk) == set(who):
                found[index] = matchday
                break
    return found
