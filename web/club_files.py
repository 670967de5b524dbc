"""One club's file: everything its secretaries entered (its settings, players and former names,
categories, games, text pages, seasons, deals and solitaire sessions, matchdays and results, rating
tables), as JSON, and its restore into a site beside the other clubs. The ratings are not in it: a
restore recomputes them, so a file can only hold facts."""

from __future__ import annotations

import codecs
import json

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, connection, transaction
from django.db.migrations.loader import MigrationLoader
from django_scopes import scope, scopes_disabled

from league.models import (
    Attempt,
    Category,
    Club,
    Deal,
    DealLevel,
    DealSeed,
    DealSession,
    FormerName,
    Game,
    Matchday,
    Page,
    Player,
    Result,
    Season,
)
from league.services import delete_club
from ratings.models import RatingTable
from ratings.services.recompute import RecomputeError, rebuild_all

FORMAT = "league-club"
OWN_APPS = ("league", "ratings")
# The club's rows, each model with the path to its club, in the order a restore writes them: games
# before players, whom a game's own rating (a co-op or solo game's stand-in) refers to.
CLUB_ROWS = [
    (Club, "pk"),
    (Category, "club"),
    (Game, "club"),
    (Player, "club"),
    (FormerName, "player__club"),
    (Page, "club"),
    (Season, "club"),
    (DealLevel, "game__club"),
    (Deal, "level__game__club"),
    (DealSeed, "deal__level__game__club"),
    (DealSession, "game__club"),
    (Attempt, "session__game__club"),
    (Matchday, "club"),
    (Result, "matchday__club"),
    (RatingTable, "club"),
]
MODELS = {model._meta.label_lower: model for model, _ in CLUB_ROWS}
ORDER = {label: place for place, label in enumerate(MODELS)}


class ClubFileError(Exception):
    """The file cannot be restored; the message says why, and nothing was written."""


def _schema() -> dict[str, str]:
    """The latest migration of each of the project's apps: a file is restored by the same version."""
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    return {app: max(name for leaf_app, name in graph.leaf_nodes() if leaf_app == app) for app in OWN_APPS}


def _parents_first(tables: list[RatingTable]) -> list[RatingTable]:
    ordered, placed = [], set()
    while len(ordered) < len(tables):
        ready = [t for t in tables if t.pk not in placed and (t.parent_id is None or t.parent_id in placed)]
        if not ready:  # a loop of parents cannot be written back: keep the rest as they are
            ready = [t for t in tables if t.pk not in placed]
        ordered += ready
        placed.update(t.pk for t in ready)
    return ordered


def club_file(club: Club) -> str:
    """The club's file, as JSON text."""
    rows = []
    outermost = not connection.in_atomic_block  # else the caller's transaction, as it is
    with transaction.atomic(), scopes_disabled():  # one snapshot: no result without its matchday
        if outermost and connection.vendor == "postgresql":  # whose default reads each query's own snapshot
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        for model, path in CLUB_ROWS:
            found = list(model._base_manager.filter(**{path: club.pk}).order_by("pk"))
            rows += _parents_first(found) if model is RatingTable else found
        secretaries = sorted(club.secretaries.values_list("username", flat=True))
    objects = json.loads(serializers.serialize("json", rows))
    for item in objects:
        item["fields"].pop("secretaries", None)  # users are the site's: named below, not copied
    return json.dumps(
        {"format": FORMAT, "schema": _schema(), "club": club.slug, "secretaries": secretaries, "objects": objects},
        ensure_ascii=False,
        indent=1,
    )


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a club's file holds")


def _read(data: bytes) -> dict:
    try:
        content = json.loads(data.decode("utf-8-sig"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError) as exc:
        raise ClubFileError(f"it is not a club's file (not JSON: {exc})") from None
    if not isinstance(content, dict) or content.get("format") != FORMAT or not isinstance(content.get("objects"), list):
        raise ClubFileError("it is not a club's file (backup_database --club writes one)")
    secretaries = content.get("secretaries", [])
    if not isinstance(content.get("club"), str) or not _strings(secretaries):
        raise ClubFileError("its club's address or secretaries are not names")
    schema = _schema()
    if content.get("schema") != schema:
        given = content.get("schema")
        given = given if isinstance(given, dict) else {}
        theirs = ", ".join(sorted(f"{app} {name}" for app, name in given.items()))
        ours = ", ".join(f"{app} {name}" for app, name in sorted(schema.items()))
        raise ClubFileError(
            f"it was written by another version of the site ({theirs or 'none given'}; this site: {ours}); "
            "restore it on a site of that version, then upgrade that site"
        )
    labels = [item.get("model") for item in content["objects"] if isinstance(item, dict)]
    if not _strings(labels) or len(labels) != len(content["objects"]) or not labels or labels[0] != "league.club":
        raise ClubFileError("its rows do not start with the club itself")
    foreign = sorted({label for label in labels if label not in MODELS})
    if foreign:
        raise ClubFileError(f"it holds rows that are not a club's ({', '.join(map(str, foreign))})")
    if labels.count("league.club") != 1:
        raise ClubFileError("it holds more than one club")
    return content


def address_in(data: bytes) -> str:
    """The address of the club in a club's file (ClubFileError if it is none)."""
    return _read(data)["club"]


def _strings(values) -> bool:
    return isinstance(values, list) and all(isinstance(value, str) for value in values)


def is_club_file(data: bytes) -> bool:
    """Whether `data` looks like a club's file (a whole-database backup does not). An editor may
    have put a byte order mark before it, as the other files' readers allow."""
    return data.removeprefix(codecs.BOM_UTF8).lstrip()[:1] == b"{"


def _described(number: int, item: dict) -> str:
    return f"row {number} ({item.get('model')} {item.get('pk')})"


def restore_club(data: bytes, slug: str | None = None, *, replace: bool = False) -> tuple[Club, int]:
    """Write the club in `data` at /<slug>/ (by default the file's own address), beside the site's
    other clubs, and recompute its ratings; with `replace`, in place of the club already there. The
    club and its matchdays written; ClubFileError, and nothing written, if any row is refused."""
    content = _read(data)
    slug = slug or content.get("club")
    objects = content["objects"]
    try:
        with transaction.atomic(), scopes_disabled():
            existing = Club.objects.filter(slug=slug).first()
            if existing is not None and not replace:
                raise ClubFileError(
                    f"the site has a club at /{slug}/ already; restore it at another address or replace it"
                )
            if existing is not None:
                delete_club(existing)
            club = _write(objects, slug)
            users = get_user_model().objects.filter(username__in=content.get("secretaries", []), is_staff=True)
            club.secretaries.set(users)
            with scope(club=club.pk):
                rebuild_all(club)
                return club, Matchday.objects.filter(club=club).count()
    except DatabaseError as exc:
        raise ClubFileError(f"the database refused it: {exc}") from None
    except (RecomputeError, ValueError) as exc:  # a method's parameters, a matchday it cannot rate
        raise ClubFileError(f"its ratings cannot be computed: {exc}") from None


def _write(objects: list[dict], slug: str) -> Club:
    """Every row with a new key, its references to the file's other rows moved with them."""
    new_keys: dict[tuple[type, object], object] = {}
    club = None
    # In CLUB_ROWS' order, each row keeping its number: a file written while players came before
    # games (a stand-in before its game) restores too.
    numbered = sorted(enumerate(objects, start=1), key=lambda pair: ORDER[pair[1]["model"]])
    for number, item in numbered:
        try:
            (row,) = serializers.deserialize("json", json.dumps([item]))
        except (DeserializationError, ValueError) as exc:
            raise ClubFileError(f"{_described(number, item)} cannot be read: {exc}") from None
        record = row.object
        model = type(record)
        for field in model._meta.concrete_fields:
            if field.is_relation and field.related_model in MODELS.values():
                old = getattr(record, field.attname)
                if old is None:
                    continue
                if (field.related_model, old) not in new_keys:
                    raise ClubFileError(
                        f"{_described(number, item)}: its {field.name} is not a row written before it in the file"
                    )
                setattr(record, field.attname, new_keys[(field.related_model, old)])
        old_key, record.pk = record.pk, None
        if model is Club:
            record.slug = slug
        try:
            record.clean_fields()  # first: a model's own checks expect its fields' types
            record.full_clean(validate_unique=True)
        except ValidationError as exc:
            problems = "; ".join(f"{name}: {' '.join(errors)}" for name, errors in exc.message_dict.items())
            problems = problems.rstrip(".")  # the command ends the sentence
            raise ClubFileError(f"{_described(number, item)} is refused: {problems}") from None
        record.save()  # as every way in saves it: the names' keys made afresh, the club's list renewed
        new_keys[(model, old_key)] = record.pk
        club = club or record
    return club
