"""A rating table's method and parameters: what a method could not rate, and saving a table, which
recomputes it when its ratings would change.
"""

from __future__ import annotations

from itertools import groupby

from django.core.exceptions import ValidationError
from django.db import transaction

import league.history as history
from league.models import Result, Revision

from .. import engine, methods
from ..deals import engine as deal_engine
from ..models import RatingTable


def method_problems(table: RatingTable, method: methods.Method) -> list[str]:
    """What `method` could not rate among the table's matchdays (e.g. Sedma: four players), one line
    per matchday. Reads only; the admin shows them on the method field before anything is saved."""
    deal_game = table.scope == RatingTable.Scope.GAME and table.game.against_deals
    if deal_game and not method.against_deals:
        return [f"{table.game} is played against deals, which only {methods.deals.PlayerVsDeal.name} rates."]
    if method.against_deals and not deal_game:
        return [f"it rates games played against deals, and {table.name} is a table of matchdays."]
    return unratable_matchdays(Result.objects.filter(matchday__in=table.matchdays()), method)


def unratable_matchdays(results, method: methods.Method) -> list[str]:
    """What `method` could not rate among the matchdays of `results`, one line per matchday."""
    results = results.select_related("matchday", "player").order_by("matchday__date", "matchday__number", "pk")
    problems = []
    for matchday, group in groupby(results, key=lambda r: r.matchday):
        seats = [methods.Seat.of(r.play()) for r in group]
        try:
            method.check(seats)
        except methods.MethodError as error:
            problems.append(f"{matchday} ({matchday.date}): {error}")
    return problems


@transaction.atomic
def save_rating_table(table: RatingTable) -> int | None:
    """Save a table's texts, method and parameters; a new method or new parameters recompute the
    whole table, and its fresh-start seasons' tables, which take the same. Returns the rows
    written, or None when nothing needed recomputing."""
    if table.season_id is not None:
        raise ValidationError(f"{table.name} of {table.season} follows the club's {table.name} table: change that one.")
    problems = method_problems(table, table.rating_method)
    if problems:
        name = table.rating_method.name
        raise ValidationError({"method": [f"{name} cannot rate this table: {p}" for p in problems[:5]]})
    engine.wait_for_table_writes(table.club_id)
    old = RatingTable.objects.filter(pk=table.pk).first()
    table.save()
    history.record(table.club_id, [history.saved("rating table", table, history.fields_of(old))])
    engine.sync_tables(table.club_id)  # the seasons' tables take its method, parameters and name
    if old is not None and (old.method, _rating_params(old)) == (table.method, _rating_params(table)):
        Revision.bump(table.club_id)
        return None
    if table.against_deals:
        rows = deal_engine.recompute(table)
    else:
        rows = engine.recompute([table, *RatingTable.every.filter(parent=table).select_related("season", "parent")])
    Revision.bump(table.club_id)
    return rows


def _rating_params(table: RatingTable) -> dict:
    """The table's parameters that change its ratings (not those that only change what pages show)."""
    hidden = table.rating_method.display_only
    return {name: value for name, value in table.method_params().items() if name not in hidden}
