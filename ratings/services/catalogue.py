"""The games and categories, written here (not in `league`) because each write keeps the rating
tables in step: a game's table, the overall and category tables it counts in, recomputed when it moves.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from contextlib import contextmanager

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify

import league.history as history
from league.models import Category, Game, Player, Result, Revision
from league.validation import fitting_slug, name_key

from .. import engine, methods
from ..deals import engine as deal_engine
from ..models import RatingTable
from .rating_tables import unratable_matchdays
from .recompute import recompute_from


def moved_game_problems(game: Game) -> list[str]:
    """What the methods of the tables that a changed game's matchdays would move into (by its official
    flag or category) cannot rate, e.g. Sedma or Elo-MMR meeting a team matchday. Reads only."""
    old = Game.objects.filter(pk=game.pk).first() if game.pk else None
    if old is None or (old.official, old.category_id) == (game.official, game.category_id):
        return []
    results = Result.objects.filter(matchday__game=old)
    problems = []
    for table in RatingTable.objects.exclude(scope=RatingTable.Scope.GAME):
        if table.counts(game) and not table.counts(old):
            method = table.rating_method
            found = unratable_matchdays(results, method)
            problems += [f"the {table.name} rating uses {method.name}, which cannot rate {p}" for p in found[:5]]
    return problems


# A new game's own table (added in the admin, or by a file that plays it in one round): pairwise by
# placing, K 40 per table scaled as multielo (2K/n per opponent). Chosen from what /compare/ measures on
# a real game-night log (docs/methods.md): a one-round game moves a rating as much as a card night of
# five rounds moves the club formula's, and it predicts the games as well as the club formula does.
NEW_GAME_METHOD = "pairwise-placing"
NEW_GAME_PARAMETERS = {"k": 40, "k_scale": "multielo"}


def start_on_new_game_method(games: list[Game]) -> None:
    """Put new games' own tables, which have rated nothing yet, on NEW_GAME_METHOD (their seasons'
    too): a file's hundred games in two syncs, not two each."""
    if not games:
        return
    clubs = {game.club_id for game in games}
    tables = RatingTable.objects.filter(game__in=games)
    if tables.count() < len(games):  # saved directly (a file's): their tables are made now
        engine.sync_tables(*clubs)
    method = methods.get(NEW_GAME_METHOD)
    tables.update(
        method=NEW_GAME_METHOD,
        parameters=dict(NEW_GAME_PARAMETERS),
        start_rating=method.start(method.clean_params(NEW_GAME_PARAMETERS))[0],
        whole_numbers=method.defaults()["round"],
    )
    engine.sync_tables(*clubs)  # the seasons' tables take the method


@transaction.atomic
def add_games(games: list[Game], *, new_game_method: bool = False) -> None:
    """Add new games of one club at once (a file's), each checked as `save_game` checks one, in one
    write of the history; with `new_game_method`, their tables start on NEW_GAME_METHOD."""
    if not games:
        return
    (club,) = {game.club_id for game in games}  # one club's: its tables, history and revision
    for game in games:
        game.full_clean()
    _refuse_twice(games)
    engine.wait_for_table_writes(club)
    for game in games:
        game.save()
    history.record(club, [history.saved("game", game, None) for game in games])
    engine.sync_tables(club)
    start_on_new_game_method([game for game in games if new_game_method and not game.against_deals])
    Revision.bump(club)


def _refuse_twice(games: list[Game]) -> None:
    """Two of the new games under one name or address: each checks only against the stored ones."""
    seen: dict[tuple[str, str], Game] = {}
    problems = []
    for game in games:
        for field, value in (("name", name_key(game.name)), ("slug", game.slug)):
            other = seen.setdefault((field, value), game)
            if other is not game:
                problems.append(f"{game.name} and {other.name} would have the same {field} ({getattr(game, field)}).")
    if problems:
        raise ValidationError(problems)


@transaction.atomic
def save_game(game: Game, *, new_game_method: bool = False) -> list[RatingTable]:
    """Add or change a game. A change of its official flag or category moves its matchdays between
    the overall and category tables, which are recomputed from its first matchday. A new game's own
    table starts on NEW_GAME_METHOD with `new_game_method` (the admin's Add game), else on the club
    formula."""
    if game.pk is None:
        add_games([game], new_game_method=new_game_method)
        return []
    game.full_clean()
    problems = moved_game_problems(game)
    if problems:
        raise ValidationError({"official": problems})
    with history.one_write():  # the game and a category's table it took away
        return _save_game(game)


def _save_game(game: Game) -> list[RatingTable]:
    engine.wait_for_table_writes(game.club_id)
    old = Game.objects.filter(pk=game.pk).first()
    game.save()
    history.record(game.club_id, [history.saved("game", game, history.fields_of(old))])
    if old is not None and old.against_deals != game.against_deals:
        _switch_kind(game)
    with tables_kept(game.club_id) as gone:
        engine.sync_tables(game.club_id)  # before the recompute, which only makes tables that are missing
    history.record(game.club_id, gone)
    moved = old is not None and (old.official, old.category_id) != (game.official, game.category_id)
    first = game.matchdays.in_play_order().first() if moved else None
    if first is None:
        Revision.bump(game.club_id)
        return []
    return recompute_from(first.position, [game, old])


@transaction.atomic
def delete_games(games: Iterable[Game]) -> None:
    """Delete games nobody has played (a played game's matchdays protect it) and their tables."""
    _deleted("game", Game.objects.filter(pk__in=[g.pk for g in games]))


@transaction.atomic
def save_category(category: Category) -> None:
    category.full_clean()
    old = Category.objects.filter(pk=category.pk).first() if category.pk else None
    category.save()
    history.record(category.club_id, [history.saved("category", category, history.fields_of(old))])
    engine.sync_tables(category.club_id)
    Revision.bump(category.club_id)


@transaction.atomic
def delete_categories(categories: Iterable[Category]) -> None:
    _deleted("category", Category.objects.filter(pk__in=[c.pk for c in categories]))


def _deleted(kind: str, rows) -> None:
    """Delete the rows, then keep their clubs' tables in step."""
    clubs = set(rows.values_list("club", flat=True))
    for club in clubs:
        with tables_kept(club) as gone:  # its own, and a category's that had no other unofficial game
            changes = history.deleted(kind, rows.filter(club=club))
            if kind == "game":  # its stand-in (a co-op game's own rating) goes with it
                changes += history.deleted("player", Player.objects.filter(stands_for__in=rows.filter(club=club)))
            rows.filter(club=club).delete()
            engine.sync_tables(club)
        history.record(club, changes + gone)
    Revision.bump(*clubs)


@contextmanager
def tables_kept(club: int):
    """The club's tables (not a season's) that go within, as the history keeps them: a game's with it,
    a category's once none of its games is unofficial. A revert then brings back their methods."""
    tables = list(RatingTable.objects.filter(club_id=club))
    gone: list = []
    yield gone
    there = set(RatingTable.objects.filter(pk__in=[t.pk for t in tables]).values_list("pk", flat=True))
    gone += history.deleted("rating table", [t for t in tables if t.pk not in there])


def _switch_kind(game: Game) -> None:
    """A game newly played against deals (or no longer) gets its table's method for that; it has
    nothing to rate yet (`Game.clean` refuses a switch once played). The table's method is in the
    history with the game's, so that a revert of the switch puts back the method it had."""
    table = game_table(game)
    before = history.fields_of(table)
    table.method = methods.deals.SLUG if game.against_deals else "club"
    table.parameters = {}
    table.save()
    history.record(game.club_id, [history.saved("rating table", table, before)])
    if game.against_deals:
        deal_engine.recompute(table)
    else:
        engine.recompute([table])


def game_table(game: Game) -> RatingTable:
    """The game's own rating table (created if the game has none yet)."""
    table = RatingTable.objects.filter(game=game).first()
    if table is None:
        engine.sync_tables(game.club_id)
        table = RatingTable.objects.get(game=game)
    return table


def free_game_slug(name: str, taken: Collection[str] = ()) -> str:
    """A slug for a new game that no game has, nor `taken` (the other new games of a file), and that
    fits its column however long the name."""
    longest = Game._meta.get_field("slug").max_length
    base = slugify(name) or "game"
    n = 1
    while fitting_slug(base, n, longest) in taken or Game.objects.filter(slug=fitting_slug(base, n, longest)).exists():
        n += 1
    return fitting_slug(base, n, longest)
