"""Recording the history of writes (`league.models.Write`): the services call `record` inside their
transaction with what they changed, and the way in (`way_in`) says who wrote and how. Writes inside
`one_write` are one entry, stored as it ends (an admin's save of a player and their former names).

Objects are kept as plain JSON: a matchday with its results as the club reads them (`matchdays`),
anything else as its fields (`fields_of`). What a write left as it found it is not kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from datetime import date

from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction

from league.models import Attempt, Matchday, Result
from league.models.history import Change, Write
from league.results import FIELDS, RESULT_FIELDS, Play
from league.validation import reason_problem

_way: ContextVar[tuple | None] = ContextVar("history_way", default=None)
_open: ContextVar[list | None] = ContextVar("history_open", default=None)
_DEFAULTS = {name: f.default for name, f in FIELDS.items()}
_ENCODER = DjangoJSONEncoder()


@dataclass
class Changed:
    """One object's change, as a service reports it."""

    kind: str
    key: int
    label: str
    before: dict | None
    after: dict | None
    matchday: int | None = None
    players: frozenset[int] = field(default_factory=frozenset)


@contextmanager
def way_in(way: str, user=None, reason: str = "", *, reverts: Write | None = None):
    """Who writes, and how (`Write.Way`), for every write inside: a request's save, a command's run
    (and the write a revert undoes). A reason the history cannot keep is a ValidationError, before
    anything is written."""
    if problem := reason_problem(reason):
        raise ValidationError(problem)
    token = _way.set((way, user, reason.strip(), reverts))
    try:
        yield
    finally:
        _way.reset(token)


@contextmanager
def one_write():
    """The writes inside, in one transaction, as one entry of the history."""
    if _open.get() is not None:
        yield
        return
    pending: list = []
    token = _open.set(pending)
    try:
        with transaction.atomic():
            yield
            if pending:
                changes = _merged([change for _, changes in pending for change in changes])
                if changes:
                    _store(pending[0][0], changes)
    finally:
        _open.reset(token)


def _merged(changes: list[Changed]) -> list[Changed]:
    """One change an object, where it first stands: as the write found it and as it left it (a
    revert's game brings back its table's method, then the table its own). Those left as found go."""
    merged: dict[tuple[str, int], Changed] = {}
    for change in changes:
        first = merged.get((change.kind, change.key))
        if first is not None:
            change = replace(change, before=first.before, players=first.players | change.players)
        merged[change.kind, change.key] = change
    return [change for change in merged.values() if change.before != change.after]


def record(club_id: int, changes: Iterable[Changed]) -> None:
    """Keep what a write changed (its objects left as they were are dropped), inside its transaction."""
    changes = [c for c in changes if c.before != c.after]
    if not changes:
        return
    pending = _open.get()
    if pending is not None:
        pending.append((club_id, changes))
    else:
        _store(club_id, changes)


def summary(changes: list[Changed]) -> str:
    """What a write did: "Matchday 12 (Hearts, 2026-11-20) changed", or its changes counted by kind
    ("2 matchdays added"), the players a matchday brought in after it (", 1 player added")."""
    changes = [c for c in changes if c.kind != "rating table"] or changes  # a game's table goes with it
    main = [c for c in changes if c.kind in ("matchday", "session")]
    rest = [c for c in changes if c.kind not in ("matchday", "session")] if main else []
    main = main or changes
    text = f"{main[0].label} {_what(main[0])}" if len(main) == 1 else _counted(main)
    return f"{text}, {_counted(rest)}" if rest else text


def _counted(changes: list[Changed]) -> str:
    counts: dict[tuple[str, str], int] = {}
    for change in changes:
        counts[change.kind, _what(change)] = counts.get((change.kind, _what(change)), 0) + 1
    return ", ".join(f"{n} {kind}{'' if n == 1 else 's'} {what}" for (kind, what), n in counts.items())


def _what(change: Changed) -> str:
    return "added" if change.before is None else "deleted" if change.after is None else "changed"


def _store(club_id: int, changes: list[Changed]) -> None:
    way, user, reason, reverts = _way.get() or (Write.Way.COMMAND, None, "", None)
    who = user.get_username() if user is not None and user.is_authenticated else ""
    write = Write.objects.create(
        club_id=club_id,
        user=user if who else None,
        who=who,
        way=way,
        summary=summary(changes)[:300],
        reason=reason,
        reverts=reverts,
    )
    Change.objects.bulk_create(
        (
            Change(
                write=write,
                kind=c.kind,
                key=c.key,
                label=c.label[:200],
                before=c.before,
                after=c.after,
                matchday=c.matchday,
                players="".join(f"|{p}" for p in sorted(c.players)) + "|" if c.players else "",
            )
            for c in changes
        ),
        batch_size=2000,
    )


def matchdays(keys: Iterable[int]) -> dict[int, dict]:
    """The matchdays as stored now, by id, each with its results in the order they are rated: what a
    history entry keeps of a matchday. Two queries."""
    keys = list(keys)
    if not keys:
        return {}
    fields = ("id", "number", "date", "game_id", "game__name", "rounds", "notes")
    found = {row[0]: matchday_state(*row[1:]) for row in Matchday.objects.filter(pk__in=keys).values_list(*fields)}
    named = ("matchday_id", "player_id", "player__short_name", "note", *RESULT_FIELDS)
    for row in Result.objects.filter(matchday__in=keys).order_by("matchday", "pk").values_list(*named):
        found[row[0]]["results"].append(result_state(row[1], row[2], row[3], row[4:]))
    return found


def matchday_state(number: int, day: date, game_id: int, game: str, rounds: int, notes: str) -> dict:
    """A matchday as the history keeps it, its results to be added (`result_state`), in rating order."""
    return {
        "number": number,
        "date": day.isoformat(),
        "game": game,
        "game_id": game_id,
        "rounds": rounds,
        "notes": notes,
        "results": [],
    }


def result_state(player_id: int, short_name: str, note: str, values: Iterable) -> dict:
    """A result as the history keeps it: who, and the record's values (RESULT_FIELDS order) that are
    not their defaults."""
    result = {"player": short_name, "player_id": player_id}
    given = zip(RESULT_FIELDS, values, strict=True)
    result.update((name, value) for name, value in given if value != _DEFAULTS.get(name))
    if note:
        result["note"] = note
    return result


def plays(state: dict) -> list[tuple[str, Play]]:
    """A kept matchday's results as (short name then, record), in rating order."""
    return [(r["player"], Play(**{k: v for k, v in r.items() if k in FIELDS})) for r in state["results"]]


def matchday_changes(before: dict[int, dict], after: dict[int, dict]) -> list[Changed]:
    """A change for each matchday in either state (`matchdays`), keyed by its id."""
    return _changes(
        "matchday", before, after, lambda m: f"Matchday {m['number']} ({m['game']}, {m['date']})", "results"
    )


def sessions(keys: Iterable[int]) -> dict[int, dict]:
    """The solitaire sessions as stored now, by id, each with its attempts in order. Two queries."""
    keys = list(keys)
    if not keys:
        return {}
    from league.models import DealSession

    found = {
        row["id"]: {
            "date": row["date"].isoformat(),
            "game": row["game__name"],
            "game_id": row["game_id"],
            "notes": row["notes"],
            "attempts": [],
        }
        for row in DealSession.objects.filter(pk__in=keys).values("id", "date", "game_id", "game__name", "notes")
    }
    named = (
        "session_id",
        "player_id",
        "player__short_name",
        "deal__level__variant",
        "deal__level__level",
        "deal__number",
        "won",
        "rated",
    )
    for row in Attempt.objects.filter(session__in=keys).order_by("session", "position").values_list(*named):
        attempt = {"player": row[2], "player_id": row[1], "deal": [row[3], row[4], row[5]], "won": row[6]}
        if not row[7]:
            attempt["rated"] = False
        found[row[0]]["attempts"].append(attempt)
    return found


def session_changes(before: dict[int, dict], after: dict[int, dict]) -> list[Changed]:
    """A change for each solitaire session in either state (`sessions`), keyed by its id."""
    return _changes("session", before, after, lambda s: f"{s['game']} session of {s['date']}", "attempts")


def _changes(kind: str, before: dict[int, dict], after: dict[int, dict], label, rows: str) -> list[Changed]:
    changes = []
    for key in sorted(before.keys() | after.keys()):
        then, now = before.get(key), after.get(key)
        shown = now or then
        players = {row["player_id"] for state in (then, now) if state for row in state[rows]}
        changes.append(Changed(kind, key, label(shown), then, now, shown.get("number"), frozenset(players)))
    return changes


def saved(kind: str, obj: models.Model, before: dict | None) -> Changed:
    """An object added or changed: `before` as `fields_of` read it before the save (None: new)."""
    return Changed(kind, obj.pk, f"{kind.capitalize()} {obj}", before, fields_of(obj))


def deleted(kind: str, objs: Iterable[models.Model]) -> list[Changed]:
    """Objects about to be deleted, as they are."""
    return [Changed(kind, obj.pk, f"{kind.capitalize()} {obj}", fields_of(obj), None) for obj in objs]


def fields_of(obj: models.Model | None, *, exclude: Iterable[str] = ()) -> dict | None:
    """An object's own fields as JSON values (a foreign key as its id), for the history."""
    if obj is None:
        return None
    skipped = {"id", "club", *exclude}
    values = {}
    for f in obj._meta.concrete_fields:
        if f.name in skipped or f.name.endswith("_key"):  # a name's key follows from the name
            continue
        value = getattr(obj, f.attname)
        values[f.name] = value.isoformat() if isinstance(value, date) else _plain(value)
    return values


def _plain(value):
    if isinstance(value, (str, int, float, bool, type(None), dict, list)):
        return value
    return _ENCODER.default(value)
