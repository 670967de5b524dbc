"""Undoing a write of the history (`league.history`): every object it changed is put back as it
found it, through the service that writes that kind, so that the tables are rated again; the revert
is a write of its own in the history, which can itself be undone.

`plan` says, reading only, what stands in the way (a player or game deleted since, a matchday's
number taken since) and which objects a later write changed again (a revert overwrites them only
when asked). A revert is all or nothing: one transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import ProtectedError

import league.history as history
import league.services as league_services
from league.checked import Refused
from league.models import Category, Change, DealSession, FormerName, Game, Matchday, Page, Player, Season, Write
from league.placings import typed_rated_placings
from league.results import TypedResult
from league.validation import name_key

from ..deals import services as deal_services
from ..models import RatingTable
from . import catalogue, seasons
from .checks import check_matchday
from .matchdays import delete_matchdays, save_matchdays
from .rating_tables import save_rating_table


class RevertRefused(Exception):
    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass
class Plan:
    write: Write
    problems: list[str] = field(default_factory=list)  # the revert cannot be done
    changed_since: list[str] = field(default_factory=list)  # objects a later write changed again
    touched: list[tuple[date, int, int]] = field(default_factory=list)  # matchdays it rates again


def _former_save(former: FormerName) -> None:
    league_services.save_former_names(former.player, [former], [])


def _former_delete(formers) -> None:
    for former in formers:
        league_services.save_former_names(former.player, [], [former])


# Each kind of object the history keeps as its fields: its model, its save and its delete.
KINDS: dict[str, tuple[type[models.Model], Callable, Callable | None]] = {
    "player": (Player, league_services.save_player, league_services.delete_players),
    "former name": (FormerName, _former_save, _former_delete),
    "page": (Page, league_services.save_page, league_services.delete_pages),
    "game": (Game, catalogue.save_game, catalogue.delete_games),
    "category": (Category, catalogue.save_category, catalogue.delete_categories),
    "season": (Season, seasons.save_season, lambda found: [seasons.delete_season(s) for s in found]),
    "rating table": (RatingTable, save_rating_table, None),  # a table goes with its game or season
}


def _current(change: Change) -> dict | None:
    if change.kind == "matchday":
        return history.matchdays([change.key]).get(change.key)
    if change.kind == "session":
        return history.sessions([change.key]).get(change.key)
    model = KINDS[change.kind][0]
    manager = RatingTable.every if model is RatingTable else model.objects
    return history.fields_of(manager.filter(pk=change.key).first())


def plan(write: Write) -> Plan:
    """What reverting `write` meets, read only."""
    found = Plan(write)
    for change in write.changes.all():
        if change.kind not in ("matchday", "session") and change.kind not in KINDS:
            found.problems.append(f"{change.label}: a {change.kind} cannot be put back.")
            continue
        now = _current(change)
        if now is None and change.after is not None and change.before is not None:
            # putting back its fields would bring it back alone (a merged player, without their results)
            found.problems.append(
                f"{change.label} has been deleted since{_since(change, last=True)}; revert that first."
            )
        elif now is not None and change.after is None and (other := _added_since(change)) is not None:
            # the id was given again to another object (SQLite counts on from the highest id left
            # when a migration remakes a table): putting this one back would overwrite that one
            found.problems.append(f"{change.label} cannot come back: its id is taken since by “{other.summary}”.")
        elif _compared(now) != _compared(change.after):
            found.changed_since.append(f"{change.label} has been changed since{_since(change)}.")
        if change.kind == "rating table" and now is None and change.before is not None:
            if (standing := _in_its_place(change.before)) is not None:
                found.changed_since.append(
                    f"{change.label}: its {'game' if standing.game_id else 'category'} has another table since"
                    f"{_since(change, 'rating table', standing.pk)}, which this would replace."
                )
        if change.kind == "matchday":
            for state in (change.before, change.after):
                if state:
                    found.touched.append((date.fromisoformat(state["date"]), state["number"], state["game_id"]))
            found.problems += _matchday_problems(write, change, _comes_back(write))
        elif change.kind == "session" and change.before is not None:
            found.problems += _gone(change, "attempts", _comes_back(write))
    return found


def _compared(state: dict | None) -> dict | None:
    """A kept state as compared with today's: a matchday's or session's game and players by their ids
    (a game or player renamed since has not changed the matchday)."""
    if state is None or ("results" not in state and "attempts" not in state):
        return state
    rows = "results" if "results" in state else "attempts"
    plain = {key: value for key, value in state.items() if key != "game"}
    plain[rows] = [{key: value for key, value in row.items() if key != "player"} for row in state[rows]]
    return plain


def _since(change: Change, kind: str | None = None, key: int | None = None, *, last: bool = False) -> str:
    """by “…” (when): the first later write of the object (the change's own, or `kind` `key`), or
    the `last` (the one that deleted it)."""
    later = (
        Change.objects.filter(kind=kind or change.kind, key=key or change.key, write__pk__gt=change.write_id)
        .select_related("write")
        .order_by("-write" if last else "write")
        .first()
    )
    return f" by “{later.write.summary}” ({later.write.at:%Y-%m-%d %H:%M})" if later else ""


def _comes_back(write: Write) -> set[tuple[str, int]]:
    """The objects the write deleted, which its revert puts back first (a merged player)."""
    return {(c.kind, c.key) for c in write.changes.all() if c.after is None and c.before is not None}


def _matchday_problems(write: Write, change: Change, back: set[tuple[str, int]]) -> list[str]:
    state = change.before
    if state is None:
        return []
    problems = _gone(change, "results", back)
    taken = Matchday.objects.filter(club_id=write.club_id, number=state["number"]).exclude(pk=change.key).first()
    if taken is not None:  # by whom: it may be this write put back by another revert
        by = _since(change, "matchday", taken.pk, last=True)
        problems.append(f"{change.label}: matchday {state['number']} has been entered since as another matchday{by}.")
    return problems


def _gone(change: Change, rows: str, back: set[tuple[str, int]]) -> list[str]:
    """The game and the players (each once) of a kept matchday's results or session's attempts that
    have been deleted (merged away) since, and do not come back with the write's revert."""
    state, problems = change.before, []
    if not Game.objects.filter(pk=state["game_id"]).exists() and ("game", state["game_id"]) not in back:
        problems.append(f"{change.label}: its game {state['game']} has been deleted since.")
    rows = state[rows]
    ids = {r["player_id"] for r in rows}
    there = set(Player.objects.filter(pk__in=ids).values_list("pk", flat=True))
    gone = {
        r["player_id"]: r["player"]
        for r in rows
        if r["player_id"] not in there and ("player", r["player_id"]) not in back
    }
    return problems + [
        f"{change.label}: {name} has been deleted since{_since(change, 'player', pk, last=True)}; revert that first."
        for pk, name in gone.items()
    ]


@transaction.atomic
def revert(write: Write, *, user=None, reason: str = "", overwrite: bool = False) -> None:
    """Put back everything `write` changed, as one write of the history; RevertRefused, with nothing
    changed, when something stands in the way, or a later write changed an object again and
    `overwrite` is not given."""
    _hold(write)
    found = plan(write)
    if found.problems or (found.changed_since and not overwrite):
        raise RevertRefused(found.problems or found.changed_since)
    changes = list(write.changes.all())
    standing = set(RatingTable.objects.filter(club_id=write.club_id).values_list("pk", flat=True))
    try:
        with history.way_in(Write.Way.REVERT, user, reason, reverts=write), history.one_write():
            # Objects the write deleted or changed come back first (a matchday's player, game), its
            # matchdays and sessions next, and what it added goes last (a player once their results have).
            for change in changes:
                if change.kind in KINDS and change.before is not None:
                    _put_fields(change, standing)
            _put_matchdays(write, [c for c in changes if c.kind == "matchday"])
            _put_sessions([c for c in changes if c.kind == "session"])
            for change in changes:
                if change.kind in KINDS and change.before is None:
                    _remove(change)
    except Refused as refused:
        raise RevertRefused([str(p) for p in refused.problems]) from None
    except (ValidationError, IntegrityError) as error:
        messages = error.messages if isinstance(error, ValidationError) else [str(error)]
        raise RevertRefused(messages) from None


def _hold(write: Write) -> None:
    """Lock the write itself (a second revert of it waits, then finds it reverted), then its matchdays'
    rows and its players', former names' and pages', in the order an edit takes them before its
    tables: a save of one of them meanwhile waits, or is seen by the plan (SQLite's write lock is the
    transaction's already). Games and the rest are written after their tables are locked. Not the
    rows' keys: a merge's results moved meanwhile still hold their matchdays."""
    list(Write.objects.select_for_update().filter(pk=write.pk).values_list("pk", flat=True))
    keys: dict[str, list[int]] = {}
    for change in write.changes.all():
        keys.setdefault(change.kind, []).append(change.key)
    for model, kind in ((Matchday, "matchday"), (Player, "player"), (FormerName, "former name"), (Page, "page")):
        rows = model.objects.select_for_update(no_key=True).filter(pk__in=keys.get(kind, [])).order_by("pk")
        list(rows.values_list("pk", flat=True))


def _put_fields(change: Change, standing: set[int]) -> None:
    model, save, _ = KINDS[change.kind]
    manager = RatingTable.every if model is RatingTable else model.objects
    obj = manager.filter(pk=change.key).first()
    if obj is None and model is RatingTable:
        _make_way(change.before, standing)
    obj = obj or model(pk=change.key)
    for f in model._meta.concrete_fields:
        if f.name in change.before:
            setattr(obj, f.attname, f.to_python(change.before[f.name]))
        elif f.name == "club" and obj._state.adding:
            obj.club_id = change.write.club_id
    save(obj)


def _in_its_place(table: dict) -> RatingTable | None:
    """The table its game or category has now, if any."""
    owner = next((name for name in ("game", "category") if table.get(name) is not None), None)
    return RatingTable.objects.filter(**{f"{owner}_id": table[owner]}).first() if owner else None


def _make_way(table: dict, standing: set[int]) -> None:
    """The kept table comes back under its own id (which the history's writes name), with its method
    and parameters, in place of the one its game or category has: a game brought back got one from
    sync_tables, unplayed; one `standing` before the revert (overwritten, as asked) is kept too."""
    found = _in_its_place(table)
    if found is None:
        return
    if found.pk in standing:
        history.record(found.club_id, history.deleted("rating table", [found]))
    found.delete()


def _added_since(change: Change) -> Write | None:
    """The later write that added another object under the key of one the change deleted: not a
    revert, which only ever puts an object back under its own key."""
    added = (
        Change.objects.filter(kind=change.kind, key=change.key, write__pk__gt=change.write_id, before__isnull=True)
        .filter(write__reverts__isnull=True)
        .select_related("write")
        .order_by("-write")
        .first()
    )
    return added.write if added is not None else None


def _remove(change: Change) -> None:
    model, _, delete = KINDS[change.kind]
    found = model.objects.filter(pk=change.key)
    if delete is None or not found.exists():
        return
    try:
        delete(list(found))
    except ProtectedError as error:  # rows entered since still refer to it: say which, not Django's words
        raise RevertRefused([_still_used(change, error.protected_objects)]) from None


def _still_used(change: Change, rows) -> str:
    rows = sorted(rows, key=lambda row: row.pk)
    named = ", ".join(str(row) for row in rows[:5]) + (f" and {len(rows) - 5} more" if len(rows) > 5 else "")
    one = len(rows) == 1
    them = "it" if one else "them"
    return f"{change.label}: {named} {'refers' if one else 'refer'} to it since; delete or change {them} first."


def _put_matchdays(write: Write, changes: list[Change]) -> None:
    gone = [c.key for c in changes if c.before is None]
    if gone:
        delete_matchdays(Matchday.objects.filter(pk__in=gone).select_related("game"))
    back = [c for c in changes if c.before is not None]
    if not back:
        return
    ids = {r["player_id"] for c in back for r in c.before["results"]}
    players = Player.objects.in_bulk(ids)
    checked = []
    for change in back:
        state = change.before
        # under its own id: the earlier writes of the history that name it can still be reverted
        matchday = Matchday.objects.filter(pk=change.key).first() or Matchday(pk=change.key, club_id=write.club_id)
        game = Game.objects.get(pk=state["game_id"])
        matchday.number, matchday.date, matchday.rounds = (
            state["number"],
            date.fromisoformat(state["date"]),
            state["rounds"],
        )
        matchday.notes, matchday.game = state["notes"], game
        plays = [play for _, play in history.plays(state)]
        typed = [
            TypedResult(
                replace(play, rated_placing=rated),
                players[r["player_id"]].short_name,
                note=r.get("note", ""),
            )
            for play, rated, r in zip(plays, typed_rated_placings(plays), state["results"], strict=True)
        ]
        checked.append(check_matchday(matchday, game, typed))
    save_matchdays(checked, {name_key(p.short_name): p for p in players.values()}, as_listed=True)


def _put_sessions(changes: list[Change]) -> None:
    gone = [c.key for c in changes if c.before is None]
    if gone:
        deal_services.delete_sessions(list(DealSession.objects.filter(pk__in=gone)))
    for change in changes:
        state = change.before
        if state is None:
            continue
        session = DealSession.objects.filter(pk=change.key).first() or DealSession(pk=change.key)
        session.game_id, session.date, session.notes = (
            state["game_id"],
            date.fromisoformat(state["date"]),
            state["notes"],
        )
        players = Player.objects.in_bulk({a["player_id"] for a in state["attempts"]})
        attempts = [
            deal_services.AttemptInput(
                players[a["player_id"]], a["deal"][0], a["deal"][1], a["deal"][2], a["won"], a.get("rated", True)
            )
            for a in state["attempts"]
        ]
        deal_services.save_session(session, attempts)
