"""Seasons written through `ratings.services.seasons`: a fresh-start season's tables equal a league of
only its matchdays, with every method; saving, switching and deleting a season, moving a matchday
into or out of it and changing its parent's method keep every table right and move the revision on."""

import io
import threading
from datetime import date

import pytest
from django import db
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection

from league.models import Category, Game, Matchday, Player, Revision, Season
from league.results import Play, TypedResult
from league.revision import LEAGUE
from league.validation import name_key
from ratings.methods import METHODS
from ratings.models import RatingEntry, RatingTable, Standing
from ratings.services.catalogue import save_game
from ratings.services.checks import check_matchday
from ratings.services.matchdays import delete_matchdays, preview_matchday
from ratings.services.rating_tables import save_rating_table
from ratings.services.recompute import differences
from ratings.services.seasons import delete_season, save_season
from tests.conftest import csv_bytes, store
from tests.test_as_at_replay import four_month_league
from tests.test_method_tables import use
from tools.generate import generate, people
from web.importing import COLUMNS, import_results

MATCHDAY_METHODS = [slug for slug, method in METHODS.items() if not method.against_deals]
SPRING = (date(2025, 2, 1), date(2025, 3, 15))


@pytest.fixture
def league(db):
    four_month_league(28)  # tests/test_as_at_replay.py's league, from a seed of its own


def spring(start=Season.Start.FRESH, days=SPRING) -> Season:
    season = Season(name="Spring 2025", slug="spring-2025", first_day=days[0], last_day=days[1], start=start)
    save_season(season)
    return season


def token() -> str:
    return Revision.objects.get(scope=LEAGUE).token


def rows_of(table: RatingTable) -> dict:
    """Every stored number of a table: its rows by matchday and player, and its standings."""
    entries = {
        (e.matchday.number, e.player_id): (e.rating_before, e.rating_after, e.delta, e.expected, e.k, e.state)
        for e in table.entries.select_related("matchday")
    }
    standings = {
        s.player_id: (s.rating, s.played, s.matchday_date, s.matchday_number, s.delta, s.state)
        for s in table.standings.all()
    }
    return {"entries": entries, "standings": standings}


def season_rows(season: Season) -> dict:
    return {table.parent.slug: rows_of(table) for table in season.tables.select_related("parent")}


def in_season(season: Season) -> set[int]:
    matchdays = Matchday.objects.filter(date__range=(season.first_day, season.last_day))
    return set(matchdays.values_list("number", flat=True))


@pytest.mark.parametrize("method", MATCHDAY_METHODS)
def test_a_fresh_start_seasons_tables_equal_a_league_of_only_its_matchdays(league, method):
    season = spring()
    switched = []
    for table in RatingTable.objects.all():
        try:
            use(table.slug, method)  # the season's tables follow, in the same transaction
        except ValidationError:  # a method that cannot rate this table's matchdays (Sedma: two players only)
            continue
        switched.append(table.slug)
    assert switched, f"{method} rates none of the tables"
    assert {t.parent.slug: t.method for t in season.tables.select_related("parent")} == {
        t.slug: t.method for t in RatingTable.objects.exclude(game__against_deals=True)
    }
    expected = season_rows(season)
    assert any(expected[slug]["entries"] for slug in switched)
    assert {number for rows in expected.values() for number, _ in rows["entries"]} <= in_season(season)
    # The honest replay: a league holding only the season's matchdays, its all-time tables rebuilt.
    outside = Matchday.objects.exclude(date__range=SPRING).select_related("game")
    delete_matchdays(outside)
    delete_season(season)
    for slug, rows in expected.items():
        assert rows_of(RatingTable.objects.get(slug=slug)) == rows, f"{method}: {slug}"


def test_adding_a_fresh_start_season_rates_its_tables_and_moves_the_revision_on(league):
    before = token()
    season = spring()
    assert token() != before
    parents = RatingTable.objects.exclude(game__against_deals=True)
    assert sorted(t.parent_id for t in season.tables.all()) == sorted(p.pk for p in parents)
    overall = season.tables.get(parent__scope=RatingTable.Scope.OVERALL)
    assert RatingTable.objects.get(scope=RatingTable.Scope.OVERALL).season_tables.get() == overall
    first = overall.entries.order_by("matchday_date", "matchday_number").first()
    assert first.matchday_date >= SPRING[0] and first.rating_before == overall.start_rating
    assert not overall.entries.exclude(matchday_date__range=SPRING).exists()
    assert differences() == []


def test_a_carry_over_season_holds_no_rows_but_saving_and_deleting_it_moves_the_revision_on(league):
    before = token()
    season = spring(Season.Start.CARRY_OVER)
    assert token() != before and not RatingTable.every.filter(season__isnull=False).exists()
    before = token()
    season.name = "The spring"
    save_season(season)
    assert token() != before
    before = token()
    delete_season(season)
    assert token() != before and not Season.objects.exists()


def test_an_overlapping_season_is_refused_naming_the_other_and_its_days(league):
    spring()
    rows = RatingEntry.objects.count()
    clash = Season(name="Late winter", slug="late-winter", first_day=date(2025, 1, 15), last_day=date(2025, 2, 1))
    with pytest.raises(ValidationError) as refused:
        save_season(clash)
    assert refused.value.message_dict["first_day"] == ["This season overlaps Spring 2025 (2025-02-01 to 2025-03-15)."]
    assert not Season.objects.filter(slug="late-winter").exists() and RatingEntry.objects.count() == rows


def test_days_out_of_order_are_refused_on_the_last_day(league):
    with pytest.raises(ValidationError) as refused:
        spring(days=(date(2025, 3, 1), date(2025, 2, 1)))
    assert "last_day" in refused.value.message_dict and not Season.objects.exists()


def test_moving_a_seasons_days_rates_its_tables_again_from_the_earlier_first_day(league):
    season = spring()
    for days in [(date(2025, 1, 10), date(2025, 2, 20)), (date(2025, 3, 1), date(2025, 4, 30))]:
        before = token()
        season.first_day, season.last_day = days
        save_season(season)
        assert token() != before
        overall = season.tables.get(parent__scope=RatingTable.Scope.OVERALL)
        shown = set(overall.entries.values_list("matchday__number", flat=True))
        official = Matchday.objects.filter(date__range=days, game__official=True)
        assert shown == set(official.values_list("number", flat=True))
        assert differences() == []


def test_switching_between_carry_over_and_fresh_start_makes_and_removes_its_tables(league):
    season = spring(Season.Start.CARRY_OVER)
    season.start = Season.Start.FRESH
    save_season(season)
    tables = list(season.tables.values_list("pk", flat=True))
    assert tables and RatingEntry.objects.filter(table__in=tables).exists()
    assert differences() == []
    before = token()
    season.start = Season.Start.CARRY_OVER
    save_season(season)
    assert token() != before and not season.tables.exists()
    assert not RatingEntry.objects.filter(table__in=tables).exists()
    assert not Standing.objects.filter(table__in=tables).exists()
    assert differences() == []


def test_deleting_a_fresh_start_season_deletes_its_tables_and_their_rows(league):
    season = spring()
    tables = list(season.tables.values_list("pk", flat=True))
    before = token()
    delete_season(season)
    assert token() != before and not RatingTable.every.filter(pk__in=tables).exists()
    assert not RatingEntry.objects.filter(table__in=tables).exists()
    assert differences() == []


def test_a_matchday_moved_into_and_out_of_a_season_moves_in_and_out_of_its_tables(league):
    season = spring()
    overall = season.tables.get(parent__scope=RatingTable.Scope.OVERALL)
    matchday = Matchday.objects.filter(game__official=True, date__gt=SPRING[1]).select_related("game").first()
    results = [TypedResult(Play(r.placing), r.player.short_name) for r in matchday.results.select_related("player")]
    for day, counted in [(date(2025, 2, 10), True), (date(2025, 4, 20), False), (SPRING[1], True)]:
        matchday.date = day
        store(matchday, results)
        assert overall.entries.filter(matchday=matchday).exists() == counted, day
        assert differences() == [], day


def test_a_matchday_added_or_deleted_within_a_season_changes_its_tables(league):
    season = spring()
    overall = season.tables.get(parent__scope=RatingTable.Scope.OVERALL)
    players = list(Player.objects.all()[:3])
    added = Matchday(number=500, date=date(2025, 2, 2), game=Game.objects.get(slug="hearts"), rounds=2)
    store(added, [TypedResult(Play(n), p.short_name) for n, p in enumerate(players, start=1)])
    assert overall.entries.filter(matchday=added).count() == 3
    assert differences() == []
    delete_matchdays([added])
    assert not overall.entries.filter(matchday__number=500).exists()
    assert differences() == []


def test_the_parents_new_method_is_the_season_tables_method_recomputed_at_once(league):
    season = spring()
    hearts = RatingTable.objects.get(slug="hearts")
    seasonal = season.tables.get(parent=hearts)
    before = rows_of(seasonal)
    use("hearts", "pairwise-placing", k=24)
    seasonal.refresh_from_db()
    assert (seasonal.method, seasonal.parameters) == ("pairwise-placing", {"k": 24})
    assert rows_of(seasonal) != before
    assert differences() == []


def test_a_seasons_table_is_not_saved_on_its_own(league):
    season = spring()
    seasonal = season.tables.get(parent__slug="hearts")
    seasonal.method = "glicko2"
    with pytest.raises(ValidationError, match="follows the club's Hearts table"):
        save_rating_table(seasonal)
    assert RatingTable.every.get(pk=seasonal.pk).method == "club"


def test_a_new_game_gets_a_table_in_every_fresh_start_season_with_a_slug_of_its_own(league):
    season = spring()
    taken = season.tables.get(parent__scope=RatingTable.Scope.OVERALL).slug
    game = Game(name="Whist", slug=taken)  # a game's slug that a season's table already has
    save_game(game)
    table = RatingTable.objects.get(game=game)
    assert table.slug != taken and season.tables.filter(parent=table).exists()


def test_the_preview_of_a_matchday_shows_a_seasons_tables_only_within_its_days(league):
    spring()
    players = list(Player.objects.all()[:3])
    results = [TypedResult(Play(n), p.short_name) for n, p in enumerate(players, start=1)]
    by_name = {name_key(p.short_name): p for p in players}
    hearts = Game.objects.get(slug="hearts")

    def preview(day):
        return preview_matchday(
            check_matchday(Matchday(number=600, date=day, game=hearts, rounds=1), hearts, results), by_name
        )

    inside, outside = preview(date(2025, 2, 5)), preview(date(2025, 4, 5))
    assert [str(t) for t, _ in inside.changes] == ["Overall", "Spring 2025: Overall", "Hearts", "Spring 2025: Hearts"]
    assert [str(t) for t, _ in outside.changes] == ["Overall", "Hearts"]


def test_a_game_made_unofficial_moves_its_matchdays_between_a_seasons_tables(league):
    season = spring()
    spades = Game.objects.get(slug="spades")
    counted = in_season(season) & set(spades.matchdays.values_list("number", flat=True))
    assert counted
    spades.official, spades.category = False, Category.objects.get(slug="trading-card-games")
    save_game(spades)
    overall = season.tables.get(parent__scope=RatingTable.Scope.OVERALL)
    category = season.tables.get(parent__scope=RatingTable.Scope.CATEGORY)
    assert not overall.entries.filter(matchday__number__in=counted).exists()
    assert set(category.entries.values_list("matchday__number", flat=True)) >= counted
    assert differences() == []


def test_a_game_switched_to_deals_leaves_no_season_table(league):
    season = spring()
    patience = Game(name="Patience", slug="patience")
    save_game(patience)
    assert season.tables.filter(parent__game=patience).exists()
    patience.against_deals = True
    save_game(patience)
    assert not season.tables.filter(parent__game=patience).exists()
    assert differences() == []


def test_an_import_of_matchdays_within_a_season_rates_its_tables(league):
    season = spring()
    rows = list(generate(0, 6, seed=29, first=700, start=date(2025, 2, 20), end=date(2025, 3, 10), names=people(9)))
    import_results(csv_bytes(COLUMNS, rows))
    overall = season.tables.get(parent__scope=RatingTable.Scope.OVERALL)
    imported = {int(row[0]) for row in rows}
    official = set(Matchday.objects.filter(number__in=imported, game__official=True).values_list("number", flat=True))
    assert official and official <= set(overall.entries.values_list("matchday__number", flat=True))
    assert differences() == []


@pytest.mark.django_db(transaction=True)
def test_two_overlapping_seasons_saved_at_once_are_not_both_kept(league):
    """Each save checks for overlaps only once the other's transaction has ended (PostgreSQL: the
    revision row's lock; SQLite lets one writer in at a time by itself)."""
    if connection.vendor != "postgresql":
        pytest.skip("two connections to an in-memory test database are two databases")
    start, outcomes = threading.Barrier(2), []

    def save(name, days):
        start.wait()
        try:
            save_season(Season(name=name, slug=name.lower(), first_day=days[0], last_day=days[1], start="fresh"))
            outcomes.append("saved")
        except ValidationError as error:
            outcomes.append(error.message_dict["first_day"][0])
        finally:
            db.connection.close()

    threads = [
        threading.Thread(target=save, args=("Spring", SPRING)),
        threading.Thread(target=save, args=("March", (date(2025, 3, 1), date(2025, 3, 31)))),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes)[1] == "saved" and sorted(outcomes)[0].startswith("This season overlaps ")
    assert Season.objects.count() == 1 and differences() == []


@pytest.mark.django_db(transaction=True)
def test_a_season_and_a_matchday_within_it_saved_at_once_are_both_kept_and_rated(league):
    """Both wait for each other's rating tables, in one order (no deadlock), and the season's
    tables end up with the matchday whichever came first."""
    if connection.vendor != "postgresql":
        pytest.skip("two connections to an in-memory test database are two databases")
    start, outcomes = threading.Barrier(2), []
    players = list(Player.objects.all()[:4])
    hearts = Game.objects.get(slug="hearts")

    def run(write):
        start.wait()
        try:
            write()
            outcomes.append("saved")
        except Exception as error:  # noqa: BLE001 (the test reports whatever went wrong)
            outcomes.append(repr(error))
        finally:
            db.connection.close()

    threads = [
        threading.Thread(target=run, args=(lambda: spring(),)),
        threading.Thread(
            target=run,
            args=(
                lambda: store(
                    Matchday(number=900, date=date(2025, 2, 14), game=hearts, rounds=2),
                    [TypedResult(Play(n), p.short_name) for n, p in enumerate(players, start=1)],
                ),
            ),
        ),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes == ["saved", "saved"]
    overall = RatingTable.every.get(season__slug="spring-2025", parent__scope=RatingTable.Scope.OVERALL)
    assert overall.entries.filter(matchday__number=900).count() == 4
    assert differences() == []


def test_the_check_and_the_rebuild_cover_a_seasons_tables(league):
    season = spring()
    overall = season.tables.get(parent__scope=RatingTable.Scope.OVERALL)
    out = io.StringIO()
    call_command("recompute_ratings", stdout=out)
    assert f"Recomputed {RatingTable.every.count()} rating tables" in out.getvalue()
    assert RatingTable.every.count() > RatingTable.objects.count()
    Standing.objects.filter(table=overall).update(rating=1234)
    assert any(line.startswith(f"standing {overall.club.slug} {overall.slug} ") for line in differences())
