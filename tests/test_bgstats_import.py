"""The BG Stats export imported (ratings.services.bgstats): every play a matchday or counted as
skipped, again adding nothing; co-op and solo plays rated against the game."""

from datetime import date
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from league.bgstats import read_export
from league.models import Change, Game, Matchday, Player, Result, Season, Write
from ratings import engine
from ratings.models import RatingEntry, RatingTable
from ratings.services.bgstats import import_bgstats
from ratings.services.catalogue import NEW_GAME_METHOD, add_games, free_game_slug
from ratings.services.seasons import save_season
from tests.conftest import built_once

FILE = Path(__file__).parent / "data" / "bgstats" / "BGStatsExport.json"
TODAY = date(2026, 11, 29)


@pytest.fixture(scope="module")
def export():
    return read_export(FILE.read_bytes(), TODAY)


@pytest.fixture
def imported(db, export):
    return built_once("bgstats", lambda: import_bgstats(export))


def test_the_real_export_imports_whole_and_again_adds_nothing(imported, export):
    assert len(imported.added) == 596 and imported.already == 0 and imported.by_hand == []
    assert Matchday.objects.count() == 596
    assert len(Game.objects.all()) == 146  # of the 148 games, two were never played
    assert Player.objects.filter(stands_for__isnull=True).count() == 36
    again = import_bgstats(export)
    assert (again.added, again.already) == ([], 596)
    assert Matchday.objects.count() == 596


def test_an_import_is_one_write_of_the_history_with_its_games_and_players(imported):
    (write,) = Write.objects.all()  # undone as one: its plays, then the players and games they brought
    kinds = set(write.changes.values_list("kind", flat=True))
    assert {"matchday", "game", "player"} <= kinds
    assert write.changes.filter(kind="game").count() == 146


def test_a_dry_run_reports_the_same_and_writes_nothing(db, export):
    report = import_bgstats(export, dry_run=True)
    assert len(report.added) == 596 and len(report.new_games) == 146
    assert not Matchday.objects.exists() and not Game.objects.exists() and not Write.objects.exists()


def test_a_co_op_play_moves_the_players_and_the_game_in_opposite_ways(imported):
    won = Matchday.objects.get(source="bgstats:B72CCC70-4A76-4FE9-81F5-3D2997972E12")
    entries = {e.player.short_name: e.delta for e in RatingEntry.objects.filter(matchday=won, table__game=won.game)}
    stand_in = won.game.stand_in
    assert set(entries) == {"Paula", "Jul", stand_in.short_name}
    assert entries["Paula"] == entries["Jul"] > 0 > entries[stand_in.short_name]


def test_the_anonymous_player_is_a_guest_and_names_lose_their_trailing_spaces(imported):
    assert Player.objects.get(name="Anonymous player").guest
    assert {"Ever", "Ever sen", "Ina", "Ina K"} <= set(Player.objects.values_list("name", flat=True))


def test_a_play_entered_by_hand_first_is_reported_not_added_twice(db, export):
    first = export.plays[0]  # My City, 2021-08-08: Jul 1, Paula 2 (33 points each, Jul flagged)
    from league.results import Play, TypedResult
    from ratings.services.imports import ImportedMatchday, import_matchdays

    import_matchdays(
        [ImportedMatchday(1, first.day, "My City", 1, [TypedResult(Play(1), "Jul"), TypedResult(Play(2), "Paula")])]
    )
    report = import_bgstats(export)
    assert len(report.by_hand) == 1 and "looks like matchday 1" in report.by_hand[0]
    assert Matchday.objects.count() == 596


def test_a_file_with_a_problem_imports_nothing(db, export):
    from dataclasses import replace

    with pytest.raises(ValidationError):
        import_bgstats(replace(export, problems=["Play 3: it has no players"]))
    assert not Matchday.objects.exists()


def test_a_decimal_point_is_kept_in_the_note(imported):
    paula = Result.objects.get(matchday__source="bgstats:C55D5A8E-0E22-4D92-B3B9-469C558455CF", player__name="Paula")
    assert (paula.placing, paula.score, paula.note) == (1, 22, "21.7 points")


def test_the_command_tries_then_imports_and_says_what_it_did(db, tmp_path):
    import io

    from django.core.management import call_command

    out = io.StringIO()
    call_command("import_bgstats", str(FILE), "--dry-run", stdout=out)
    tried = out.getvalue()
    assert "Would add 596 plays as matchdays 1 to 596." in tried
    assert "  358 placed by the flagged winners, then the points" in tried
    assert "Anonymous P (Anonymous player)" in tried
    assert "· Codenames: Duett · Jul, Paula lost against the game" in tried
    assert not Matchday.objects.exists()
    out = io.StringIO()
    call_command("import_bgstats", str(FILE), stdout=out)
    assert "Added 596 plays as matchdays 1 to 596." in out.getvalue()
    assert Write.objects.filter(way=Write.Way.IMPORT).exists()
    out = io.StringIO()
    call_command("import_bgstats", str(FILE), stdout=out)
    assert "No new plays: nothing to add.\nSkipped 596 plays imported before" in out.getvalue()


def test_the_command_refuses_a_file_that_is_no_export(db, tmp_path):
    from django.core.management import CommandError, call_command

    bad = tmp_path / "plays.json"
    bad.write_text("{not json")
    with pytest.raises(CommandError, match="Nothing was imported from .*: This is not a BG Stats export"):
        call_command("import_bgstats", str(bad))


def test_the_game_page_gives_its_record_and_rating_and_the_players_page_theirs(imported, client):
    from league.models import Club

    slug = Club.objects.get().slug
    game = Game.objects.get(name="Pandemic Legacy: Season 1")
    html = client.get(f"/{slug}/games/{game.slug}/").content.decode()
    assert "the players beat Pandemic Legacy: Season 1 12 times in 15, and its rating is" in html
    jul = Player.objects.get(name="Jul")
    html = client.get(f"/{slug}/players/{jul.pk}/").content.decode()
    assert "Pandemic Legacy: Season 1</a>: won 12 of 15" in html
    stand_in = game.stand_in
    assert client.get(f"/{slug}/players/{stand_in.pk}/")["Location"] == f"/{slug}/games/{game.slug}/"


def test_a_games_stand_in_is_never_listed_among_the_players(imported, client):
    from league.models import Club

    slug = Club.objects.get().slug
    stand_ins = list(Player.objects.filter(stands_for__isnull=False).values_list("pk", flat=True))
    assert len(stand_ins) == Game.objects.filter(stand_in__isnull=False).count() > 10
    standings = client.get(f"/{slug}/standings/", {"all": "1", "print": "1"}).content.decode()
    directory = client.get(f"/{slug}/players/", {"players-page": "1"}).content.decode()
    for page in (standings, directory):
        assert not any(f"/players/{pk}/" in page for pk in stand_ins)
        assert f"/players/{Player.objects.get(name='Jul').pk}/" in page


def test_the_admin_previews_every_play_then_imports_once(admin_client):
    from django.urls import reverse

    url = reverse("admin:league_matchday_import_bgstats")
    with FILE.open("rb") as upload:
        preview = admin_client.post(url, {"file": upload})
    html = preview.content.decode()
    assert "Would add 596 plays as matchdays" in html and not Matchday.objects.filter(source__gt="").exists()
    assert "Anonymous P (Anonymous player)" in html and html.count("<li>Matchday ") == 596
    token = preview.context["preview"]["token"]
    done = admin_client.post(url, {"confirm": token})
    assert done.status_code == 302 and Matchday.objects.filter(source__gt="").count() == 596
    again = admin_client.post(url, {"confirm": token})
    assert again.status_code == 302 and Matchday.objects.filter(source__gt="").count() == 596
    assert Write.objects.filter(way=Write.Way.IMPORT, user__isnull=False).exists()


def test_the_admin_refuses_a_file_that_is_no_export_saying_why(admin_client, tmp_path):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    bad = SimpleUploadedFile("plays.json", b'{"plays": [], "games": [], "players": [], "plays": []}')
    html = admin_client.post(reverse("admin:league_matchday_import_bgstats"), {"file": bad}).content.decode()
    assert "Nothing was imported" in html and "given twice" in html


def test_a_co_op_play_is_rated_as_methods_says_and_exported_with_the_table(imported, client):
    """The club's first Codenames: Duett: two players new to the game's table (pairwise by placing,
    K 40 multielo), a side of 1500 against the game at 1500: 20 points change hands, as /methods/
    works it out; export_ratings lists each change."""
    import io

    from django.core.management import call_command

    first = Matchday.objects.filter(game__name="Codenames: Duett").order_by("date", "number").first()
    table = first.game.rating_table
    assert (table.method, table.parameters) == ("pairwise-placing", {"k": 40, "k_scale": "multielo"})
    won = Result.objects.get(matchday=first, player__stands_for=first.game).placing == 2
    entries = {e.player.name: e.delta for e in RatingEntry.objects.filter(matchday=first, table=table)}
    sign = 1 if won else -1
    assert len(entries) == 3 and entries.pop("Codenames: Duett") == -20 * sign
    assert set(entries.values()) == {20 * sign}
    out = io.StringIO()
    call_command("export_ratings", "--table", table.slug, stdout=out)
    rows = [line for line in out.getvalue().splitlines() if line.startswith(f"{first.number},")]
    assert len(rows) == 3
    assert "+18.85" in client.get("/card-games/methods/").content.decode()


def test_a_games_stand_in_is_never_merged(imported):
    from ratings.services.players import merge_players

    game = Game.objects.get(name="Pandemic Legacy: Season 1")
    jul = Player.objects.get(name="Jul")
    for keep, drop in ((jul, game.stand_in), (game.stand_in, jul)):
        with pytest.raises(ValidationError, match="Pandemic Legacy: Season 1's own rating, not a player"):
            merge_players(keep, drop)
    assert Player.objects.filter(pk=game.stand_in.pk).exists()


def test_an_exports_new_games_are_added_at_once_each_on_the_method_for_one_round_games(db, export, monkeypatch):
    """146 new games: one change each in the history, their tables (a fresh-start season's too)
    on the method for one-round games, in a few syncs of the tables rather than a few per game."""
    fresh = Season.Start.FRESH
    save_season(Season(name="2024", slug="2024", first_day=date(2024, 1, 1), last_day=date(2024, 12, 31), start=fresh))
    calls = []
    sync = engine.sync_tables
    monkeypatch.setattr(engine, "sync_tables", lambda *clubs: (calls.append(clubs), sync(*clubs)))
    report = import_bgstats(export)
    assert len(report.new_games) == 146 and len(calls) <= 4
    assert Change.objects.filter(kind="game", before__isnull=True).count() == 146
    tables = RatingTable.every.filter(scope=RatingTable.Scope.GAME)
    assert tables.filter(season__isnull=True).count() == tables.filter(season__isnull=False).count() == 146
    assert set(tables.values_list("method", flat=True)) == {NEW_GAME_METHOD}


def test_two_new_games_whose_names_make_one_address_get_two(db):
    first = Game(name="Café", slug=free_game_slug("Café"))
    second = Game(name="Cafe!", slug=free_game_slug("Cafe!", taken={first.slug}))
    add_games([first, second])
    assert sorted(Game.objects.values_list("slug", flat=True)) == ["cafe", "cafe-2"]


def test_two_new_games_under_one_name_are_refused_by_name_and_nothing_is_saved(db):
    with pytest.raises(ValidationError) as refused:
        add_games([Game(name="Azul", slug="azul"), Game(name="AZUL", slug="azul-2")])
    assert refused.value.messages == ["AZUL and Azul would have the same name (AZUL)."]
    assert not Game.objects.exists()


def test_an_import_reverted_then_the_revert_reverted_brings_back_the_games_stand_ins(imported):
    from ratings.services.revert import revert
    from tests.test_revert import latest, ratings_now

    before, players = ratings_now(), Player.objects.count()
    revert(Write.objects.get())
    undo = latest()
    # a game's stand-in goes with the game (on delete, cascade): the history keeps it deleted too
    assert undo.changes.filter(kind="player").count() == players
    revert(undo)  # before: refused, each co-op play's stand-in "has been deleted since"
    assert Player.objects.count() == players and ratings_now() == before
