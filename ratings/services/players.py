"""Two players who are one person entered twice, merged: the dropped player's results and solitaire
attempts become the kept player's, their names become the kept player's former names (so that the
entry page, the import and the search still find them by those), and every table is rated again
from the dropped player's first matchday. One write of the history, which a revert undoes whole.
"""

from __future__ import annotations

from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

import league.history as history
from league.models import Attempt, DealSession, FormerName, Matchday, Player, Result, Revision
from league.validation import name_key

from ..deals.services import recompute_deals
from .recompute import recompute_from


def merge_problems(keep: Player, drop: Player) -> list[str]:
    """Why `drop` cannot be merged into `keep`, each naming what stands in the way."""
    if keep.pk == drop.pk:
        return [f"{keep.short_name} cannot be merged into themselves."]
    if keep.club_id != drop.club_id:
        return [f"{drop.short_name} and {keep.short_name} are players of two clubs."]
    stand_ins = [p for p in (keep, drop) if p.stands_for_id is not None]
    if stand_ins:  # its results are its game's, against the players: never a person's
        return [
            f"{p.short_name} is {p.stands_for.name}'s own rating, not a player; it is never merged." for p in stand_ins
        ]
    both = Matchday.objects.filter(results__player=keep).filter(results__player=drop).order_by("date", "number")
    return [
        f"Matchday {m.number} ({m.date}): {keep.short_name} and {drop.short_name} both played in it, and a "
        "player plays once in a matchday. Correct that matchday first."
        for m in both
    ]


@transaction.atomic
def merge_players(keep: Player, drop: Player) -> None:
    """Merge `drop` into `keep` (ValidationError, with nothing changed, when `merge_problems` finds any)."""
    # Both rows first: a matchday saved with either meanwhile (it holds them) is waited for and seen
    # below; one saved after waits for the merge and finds the dropped player gone.
    held = Player.objects.select_for_update().filter(pk__in=[keep.pk, drop.pk]).order_by("pk")
    there = set(held.values_list("pk", flat=True))
    gone = [p.short_name for p in (keep, drop) if p.pk not in there]
    if gone:
        raise ValidationError(
            [f"{name} was merged into another player or deleted meanwhile; nothing was merged." for name in gone]
        )
    problems = merge_problems(keep, drop)
    if problems:
        raise ValidationError(problems)
    matchdays = list(Matchday.objects.filter(results__player=drop).select_related("game"))
    sessions = set(Attempt.objects.filter(player=drop).values_list("session", flat=True))
    as_they_were = history.matchdays(m.pk for m in matchdays)
    sessions_were = history.sessions(sessions)
    gone = [history.Changed("player", drop.pk, f"Player {drop.short_name}", history.fields_of(drop), None)]
    gone += history.deleted("former name", drop.former_names.all())
    Result.objects.filter(player=drop).update(player=keep)
    Attempt.objects.filter(player=drop).update(player=keep)
    kept = _names_kept(keep, drop)
    if matchdays:
        first = min(m.position for m in matchdays)
        recompute_from(first, {m.game_id: m.game for m in matchdays}.values())
    if sessions:
        since: dict[int, date] = {}
        for game, day in DealSession.objects.filter(pk__in=sessions).values_list("game_id", "date"):
            since[game] = min(day, since.get(game, day))
        recompute_deals(since)
    # Their standings and rating rows go with them (the recompute rated their results as keep's); the
    # row, not the instance, so that a preview rolled back leaves the caller's player as it was.
    Player.objects.filter(pk=drop.pk).delete()
    changes = [*gone, *(history.saved("former name", former, None) for former in kept)]
    changes += history.matchday_changes(as_they_were, history.matchdays(m.pk for m in matchdays))
    changes += history.session_changes(sessions_were, history.sessions(sessions))
    history.record(keep.club_id, changes)
    Revision.bump(keep.club_id)


def _names_kept(keep: Player, drop: Player) -> list[FormerName]:
    """The dropped player's short name, full name and former names, as the kept player's former names
    (those that are not the kept player's own already)."""
    taken = {name_key(keep.short_name), name_key(keep.name), *keep.former_names.values_list("name_key", flat=True)}
    kept = []
    for name in [drop.short_name, drop.name, *drop.former_names.values_list("name", flat=True)]:
        if name_key(name) in taken:
            continue
        taken.add(name_key(name))
        former = FormerName(player=keep, name=name, until=timezone.localdate())
        former.full_clean()
        former.save()
        kept.append(former)
    return kept


def played(player: Player) -> list[tuple[date, int, int]]:
    """Where the player's matchdays are rated (date, number, game id): what a merge rates again."""
    return list(Matchday.objects.filter(results__player=player).values_list("date", "number", "game_id"))
