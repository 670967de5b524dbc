"""The migration that adds the name keys and the range constraints first lists what the stored data
breaks and stops, changing nothing; once the secretary has tidied up, it goes through."""

import datetime

import pytest
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.no_club  # the database of a version before clubs
BEFORE = [("league", "0005_matchday_game_order_index")]
CHECKED = [("league", "0007_name_keys_unique_and_ranges")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


@pytest.fixture
def old_schema(transactional_db):
    """The database as the previous version of the site left it; put back to the latest after."""
    executor = migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    yield apps
    if "0007_name_keys_unique_and_ranges" not in applied():  # a failed test left clashes behind
        for model in ("Result", "Matchday", "Game", "Player"):
            apps.get_model("league", model).objects.all().delete()
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def applied():
    return {name for app, name in MigrationExecutor(connection).loader.applied_migrations if app == "league"}


def test_players_and_games_whose_names_now_compare_equal_stop_the_migration_with_what_to_do(old_schema):
    Player, Game = old_schema.get_model("league", "Player"), old_schema.get_model("league", "Game")
    gl = Player.objects.create(name="GL", short_name="GL")
    twin = Player.objects.create(name="gl", short_name="ｇｌ")
    Player.objects.create(name="I", short_name="I")
    blank = Player.objects.create(name="nobody", short_name="\u200b")
    hearts = Game.objects.create(name="Hearts", slug="hearts")
    upper = Game.objects.create(name="HEARTS", slug="hearts-2")

    with pytest.raises(CommandError) as raised:
        migrate(CHECKED)

    message = str(raised.value)
    assert f"players 'GL' (id {gl.pk}) and 'ｇｌ' (id {twin.pk}) are one player now" in message
    assert f"games 'HEARTS' (id {upper.pk}) and 'Hearts' (id {hearts.pk}) are one game now" in message
    assert f"player '\\u200b' (id {blank.pk}): empty once spaces and invisible characters are left out" in message
    assert "nothing was changed" in message
    assert "What to do:" in message and "rename one player (or game) of each pair" in message
    assert "run `manage.py migrate` again" in message
    assert "0006_name_keys_checked" not in applied()
    assert Player.objects.count() == 4  # nothing changed

    Player.objects.filter(pk=twin.pk).update(short_name="GL2")
    Player.objects.filter(pk=blank.pk).update(short_name="NB")
    Game.objects.filter(slug="hearts-2").update(name="Hearts (short)")
    migrate(CHECKED)
    assert {"0006_name_keys_checked", "0007_name_keys_unique_and_ranges"} <= applied()
    from league.models import Player as CurrentPlayer

    assert set(CurrentPlayer.objects.values_list("short_name_key", flat=True)) == {"gl", "gl2", "i", "nb"}


def test_matchdays_outside_the_new_ranges_stop_the_migration(old_schema):
    Game, Matchday = old_schema.get_model("league", "Game"), old_schema.get_model("league", "Matchday")
    Player, Result = old_schema.get_model("league", "Player"), old_schema.get_model("league", "Result")
    hearts = Game.objects.create(name="Hearts", slug="hearts")
    day = datetime.date(2025, 11, 3)
    zero = Matchday.objects.create(number=0, date=day, game=hearts, rounds=1)
    long = Matchday.objects.create(number=5, date=day, game=hearts, rounds=1_000)
    a, b = Player.objects.create(name="A", short_name="A"), Player.objects.create(name="B", short_name="B")
    Result.objects.create(matchday=long, player=a, placing=1, bad_moves=7_000)
    Result.objects.create(matchday=long, player=b, placing=2)

    with pytest.raises(CommandError) as raised:
        migrate(CHECKED)

    message = str(raised.value)
    assert "matchday 0: number 0 (must be 1-1,000,000,000)" in message
    assert "matchday 5: rounds 1000 (must be 1-100)" in message
    assert "matchday 5, player A: bad moves 7000 (must be 0-100)" in message
    assert "0006_name_keys_checked" not in applied()

    zero.delete()
    Matchday.objects.filter(pk=long.pk).update(rounds=10)
    Result.objects.filter(player=a).update(bad_moves=7)
    migrate(CHECKED)
    assert "0007_name_keys_unique_and_ranges" in applied()


@pytest.fixture
def before_winner_scores(transactional_db):
    """The database as it was when a winner's score could be 0; put back to the latest after."""
    before = [("league", "0010_revision_token")]
    executor = migrate(before)
    yield executor.loader.project_state(before).apps
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_a_stored_winners_score_of_0_stops_the_migration_with_what_to_do(before_winner_scores):
    Game, Matchday = (
        before_winner_scores.get_model("league", "Game"),
        before_winner_scores.get_model("league", "Matchday"),
    )
    hearts = Game.objects.create(name="Hearts", slug="hearts", name_key="hearts")  # no save() in a migration's model
    Matchday.objects.create(number=3, date=datetime.date(2025, 11, 3), game=hearts, rounds=1, winner_score=0)

    with pytest.raises(CommandError) as raised:
        migrate([("league", "0011_winner_score_at_least_one")])

    message = str(raised.value)
    assert "the matchdays 3 have a winner's score of 0" in message and "nothing was changed" in message
    assert "0011_winner_score_at_least_one" not in applied()
    Matchday.objects.filter(number=3).update(winner_score=None)
    migrate([("league", "0011_winner_score_at_least_one")])
    assert "0011_winner_score_at_least_one" in applied()
    Matchday.objects.all().delete()
