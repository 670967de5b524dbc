"""Several clubs in one database: every row a club owns names its club, every rule of uniqueness
holds within a club, a one-club site starts and writes as it always did, and an existing league
migrates into one club with its numbers unchanged."""

import datetime

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from league import revision
from league.models import Category, Club, Game, Matchday, Page, Player, Revision, Season
from league.results import Play, TypedResult
from league.validation import name_key
from ratings.models import RatingEntry, RatingTable, Standing
from ratings.services.checks import check_matchday
from ratings.services.matchdays import save_matchday
from ratings.services.recompute import differences, rebuild_all
from tests.conftest import CLUB_CSV, PLAYERS
from web import page_cache
from web.clubs.addresses import forget
from web.importing import import_results

DAY = datetime.date(2025, 11, 3)
pytestmark = pytest.mark.no_club  # these start from a site without a club


def two_clubs():
    return Club.objects.create(slug="north", name="North"), Club.objects.create(slug="south", name="South")


@pytest.mark.django_db
def test_two_clubs_each_have_a_player_a_game_a_matchday_a_season_and_a_page_of_the_same_names():
    for club in two_clubs():
        gl = Player.objects.create(club=club, name="G. L.", short_name="GL")
        category = Category.objects.create(club=club, name="Trick-taking", slug="trick-taking")
        hearts = Game.objects.create(club=club, name="Hearts", slug="hearts", category=category)
        Matchday.objects.create(club=club, number=1, date=DAY, game=hearts, rounds=4)
        Season.objects.create(club=club, name="2025", slug="2025", first_day=DAY, last_day=DAY)
        Page.objects.create(club=club, slug="laws", title="Laws")
        RatingTable.objects.create(club=club, scope=RatingTable.Scope.OVERALL, name="Overall", slug="overall")
        gl.full_clean()
    assert Player.objects.filter(short_name="GL").count() == 2
    assert RatingTable.objects.filter(scope=RatingTable.Scope.OVERALL).count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("model", "fields", "field", "message"),
    [
        (Player, {"name": "Other", "short_name": "gl"}, "short_name", "is the same player as 'GL'"),
        (Game, {"name": "Hearts 2", "slug": "hearts"}, "slug", "Game with this Slug already exists."),
        (Category, {"name": "Trick-taking", "slug": "tricks"}, "name", "Category with this Name already exists."),
        (Page, {"slug": "laws", "title": "Other"}, "slug", "Page with this Slug already exists."),
    ],
)
def test_a_name_taken_in_its_club_is_refused_on_its_field_and_free_in_another(model, fields, field, message):
    north, south = two_clubs()
    Player.objects.create(club=north, name="G. L.", short_name="GL")
    Game.objects.create(club=north, name="Hearts", slug="hearts")
    Category.objects.create(club=north, name="Trick-taking", slug="trick-taking")
    Page.objects.create(club=north, slug="laws", title="Laws")

    with pytest.raises(ValidationError) as refused:
        model(club=north, **fields).full_clean()
    assert message in " ".join(refused.value.message_dict[field])

    model(club=south, **fields).full_clean()  # another club's name is no clash


@pytest.mark.django_db
def test_the_database_refuses_a_second_matchday_number_in_a_club():
    north, south = two_clubs()
    for club in (north, south):
        hearts = Game.objects.create(club=club, name="Hearts", slug="hearts")
        Matchday.objects.create(club=club, number=1, date=DAY, game=hearts, rounds=4)
    with pytest.raises(IntegrityError), transaction.atomic():
        Matchday.objects.create(club=north, number=1, date=DAY, game=hearts, rounds=4)


@pytest.mark.django_db
def test_a_site_without_a_club_starts_one_named_after_the_league_at_its_first_write():
    assert not Club.objects.exists()
    import_results(CLUB_CSV.read_bytes())
    club = Club.objects.get()
    assert club.name == settings.LEAGUE_NAME
    assert set(Player.objects.values_list("club", flat=True)) == {club.pk}
    assert set(RatingTable.every.values_list("club", flat=True)) == {club.pk}


@pytest.mark.django_db
def test_with_several_clubs_a_row_without_its_club_is_refused():
    two_clubs()
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="G. L.", short_name="GL")


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["admin", "static", "api", "accounts"])
def test_a_club_address_that_would_hide_a_path_of_the_site_is_refused(slug):
    with pytest.raises(ValidationError) as refused:
        Club(slug=slug, name="Clash").full_clean()
    assert "is a path of the site itself" in " ".join(refused.value.message_dict["slug"])


BEFORE = [("league", "0017_revision_scope"), ("ratings", "0009_entry_play_order")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


PAGES = ("", "standings/", "players/", "games/hearts/", "matchdays/6/")


def numbers() -> dict:
    """Every stored figure of the league, by row: its rating rows and standings."""
    return {
        "rows": list(
            RatingEntry.objects.order_by("pk").values_list(
                "pk", "table__slug", "player__short_name", "rating_before", "rating_after", "delta"
            )
        ),
        "standings": sorted(Standing.objects.values_list("pk", "table__slug", "player__short_name", "rating")),
    }


def test_a_one_club_league_migrates_into_one_club_with_every_number_unchanged(transactional_db, client):
    import_results(CLUB_CSV.read_bytes())
    before, pages = numbers(), {page: client.get(f"/card-games/{page}").content for page in PAGES}
    try:
        migrate(BEFORE)  # the database as the site before clubs left it
        assert "club_id" not in [
            c.name for c in connection.introspection.get_table_description(connection.cursor(), "league_player")
        ]
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    club = Club.objects.get()
    assert (club.name, club.slug) == (settings.LEAGUE_NAME, "card-games")
    for rows in (Player.objects, Game.objects, Matchday.objects, RatingTable.every):
        assert set(rows.values_list("club", flat=True)) == {club.pk}
    assert numbers() == before and before["rows"] and before["standings"]
    assert sorted(Player.objects.values_list("short_name", flat=True)) == sorted(PLAYERS)
    page_cache.clear()
    forget()  # the clubs as the migrated database holds them
    for page, html in pages.items():
        assert client.get(f"/card-games/{page}").content == html, page  # rendered again, the same
        old = client.get(f"/{page}")  # the address people shared before clubs
        assert (old.status_code, old["Location"]) == (301, f"/card-games/{page}"), page


def store_in(club, number, placings, game="Hearts"):
    """A matchday of `club`, its players by short name (new ones made in it), stored as every way in
    stores one."""
    hearts, _ = Game.objects.get_or_create(club=club, slug=game.lower(), defaults={"name": game})
    players = {name_key(p.short_name): p for p in Player.objects.filter(club=club)}
    for name in placings:
        players.setdefault(name_key(name), Player(club=club, name=name, short_name=name))
    matchday = Matchday(club=club, number=number, date=DAY + datetime.timedelta(days=number), game=hearts, rounds=4)
    typed = [TypedResult(Play(placing=place), name) for name, place in placings.items()]
    return save_matchday(check_matchday(matchday, hearts, typed), players)


def figures(club):
    rows = RatingEntry.objects.filter(table__club=club)
    return sorted(rows.values_list("table__slug", "matchday__number", "player__short_name", "rating_after", "pk"))


@pytest.mark.django_db
def test_each_club_rates_only_its_own_matchdays_and_a_write_leaves_the_other_club_as_it_was():
    north, south = two_clubs()
    store_in(north, 1, {"GL": 1, "I": 2, "R": 3})
    store_in(south, 1, {"GL": 3, "I": 2, "R": 1})
    south_rows, south_token = figures(south), Revision.objects.get(scope=revision.of_club(south.pk)).token
    north_token = Revision.objects.get(scope=revision.of_club(north.pk)).token

    store_in(north, 2, {"GL": 2, "K": 1})

    assert figures(south) == south_rows  # not one row written again
    assert Revision.objects.get(scope=revision.of_club(south.pk)).token == south_token
    assert Revision.objects.get(scope=revision.of_club(north.pk)).token != north_token
    for club, players in ((north, {"GL", "I", "R", "K"}), (south, {"GL", "I", "R"})):
        overall = RatingTable.objects.get(club=club, scope=RatingTable.Scope.OVERALL)
        assert set(overall.matchdays().values_list("club", flat=True)) == {club.pk}
        assert set(overall.standings.values_list("player__short_name", flat=True)) == players
    assert Player.objects.filter(short_name="GL").count() == 2


@pytest.mark.django_db
def test_rebuilding_one_club_leaves_the_others_rows_and_the_whole_site_checks_out():
    north, south = two_clubs()
    store_in(north, 1, {"GL": 1, "I": 2})
    store_in(south, 1, {"GL": 2, "I": 1})
    south_rows = figures(south)
    north_ratings = [row[:4] for row in figures(north)]

    rebuild_all(north)

    assert figures(south) == south_rows
    assert [row[:4] for row in figures(north)] == north_ratings
    assert differences() == []
    RatingEntry.objects.filter(table__club=south, player__short_name="GL").update(rating_after=1)
    assert [line.split(":")[0] for line in differences()] == ["row south hearts 1 GL", "row south overall 1 GL"]


@pytest.mark.django_db
def test_a_matchday_that_mixes_two_clubs_is_stopped_before_anything_is_written():
    north, south = two_clubs()
    store_in(north, 1, {"GL": 1, "I": 2})
    hearts = Game.objects.create(club=south, name="Hearts", slug="hearts")
    matchday = Matchday(club=south, number=1, date=DAY, game=hearts, rounds=4)
    players = {name_key(p.short_name): p for p in Player.objects.filter(club=north)}  # the other club's
    typed = [TypedResult(Play(placing=1), "GL"), TypedResult(Play(placing=2), "I")]
    with pytest.raises(ValueError, match="more than one club"):
        save_matchday(check_matchday(matchday, hearts, typed), players)
    assert not Matchday.objects.filter(club=south).exists()


@pytest.mark.django_db
def test_a_session_with_another_clubs_player_is_stopped_before_anything_is_written():
    from league.models import DealSession
    from ratings.deals.services import AttemptInput, save_session

    north, south = two_clubs()
    solitaire = Game.objects.create(club=south, name="Solitaire", slug="solitaire", against_deals=True)
    theirs = Player.objects.create(club=north, name="G. L.", short_name="GL")
    session = DealSession(game=solitaire, date=DAY)
    with pytest.raises(ValueError, match="game's club"):
        save_session(session, [AttemptInput(theirs, "8x4", 5, 11982, True, True)])
    assert not DealSession.objects.exists()


def test_a_club_set_beyond_the_settings_ranges_migrates_to_their_ends(transactional_db):
    club = Club.objects.create(slug="far", name="Far")
    try:
        migrate([("league", "0026_against_the_game")])  # before the ranges: any small integer was taken
        Club.objects.filter(pk=club.pk).update(inactive_days=30_000, standings_page_size=5_000, grid_page_size=40)
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    club.refresh_from_db()
    assert (club.inactive_days, club.standings_page_size, club.grid_page_size) == (3_650, 1_000, 40)
    club.full_clean()  # and the admin saves it again
