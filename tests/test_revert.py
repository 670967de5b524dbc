"""Any write of the history undone as one unit: the objects it changed put back as it found them and
every rating with them, the revert itself in the history (and revertible); a later change to the same
matchday is said and overwritten only when asked; the preview lists exactly what the revert then
changes."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse

import league.history as history
from league.models import DealSession, Game, Matchday, Player, Season, Write
from league.services import delete_players
from ratings.deals import services as deal_services
from ratings.models import RatingEntry, RatingTable, Standing
from ratings.services.catalogue import delete_games
from ratings.services.impact import impact
from ratings.services.matchdays import delete_matchdays
from ratings.services.rating_tables import save_rating_table
from ratings.services.revert import RevertRefused, plan, revert
from ratings.services.seasons import save_season
from tests.conftest import change_url, form_data, results_of, store
from tests.test_club_admin import secretary
from tests.test_deal_engine import play, solitaire  # noqa: F401 - the fixture
from tests.test_enter import post as enter

CSV = b"matchday,date,game,rounds,player,placing,rated_placing\n"


def ratings_now() -> tuple[list, list]:
    """Every table's standings and rating rows, as an export would write them."""
    standings = sorted(Standing.objects.values_list("table_id", "player_id", "rating", "played", "matchday_number"))
    entries = sorted(RatingEntry.objects.values_list("table_id", "player_id", "matchday__number", "rating_after"))
    return standings, entries


def latest() -> Write:
    return Write.objects.order_by("-pk").first()


def import_night(tmp_path, *matchdays: str) -> Write:
    """Import matchdays 7, 8, ... of 2025-11-21, each its results as "game,rounds,player" apart by
    spaces, in placing order; the write it made."""
    rows = []
    for number, matchday in enumerate(matchdays, start=7):
        rows += [f"{number},2025-11-21,{who},{place},\n" for place, who in enumerate(matchday.split(" "), start=1)]
    path = tmp_path / "night.csv"
    path.write_bytes(CSV + "".join(rows).encode())
    call_command("import_results", str(path), stdout=io.StringIO())
    return latest()


def test_reverting_an_entry_page_save_removes_the_matchday_and_restores_every_rating(admin_client, club):
    before = ratings_now()
    extra = {"new-0-short": "Zed", "new-0-add": "on", "new-0-name": "Zed Zimmer"}
    enter(admin_client, ["GL", "K = I", "J", "Zed"], action="save", extra=extra)
    saved = latest()
    assert saved.summary == "Matchday 7 (Hearts, 2025-11-20) added, 1 player added"
    assert Matchday.objects.filter(number=7).exists() and ratings_now() != before
    revert(saved, user=User.objects.get(username="admin"))
    assert not Matchday.objects.filter(number=7).exists() and not Player.objects.filter(short_name="Zed").exists()
    assert ratings_now() == before
    undo = latest()
    assert (undo.way, undo.reverts, undo.who) == ("revert", saved, "admin")


def test_an_admin_edit_reverted_and_the_revert_reverted(admin_client, club):
    matchday = Matchday.objects.get(number=3)
    before = ratings_now()
    rows = [(r.player.short_name, r.placing, None) for r in matchday.results.select_related("player")]
    rows = [(name, len(rows) + 1 - placing, None) for name, placing, _ in rows]  # the order turned round
    assert (
        admin_client.post(
            change_url(matchday), form_data(3, str(matchday.date), matchday.rounds, rows, matchday=matchday)
        ).status_code
        == 302
    )
    edit = latest()
    edited = ratings_now()
    assert edited != before
    revert(edit)
    assert ratings_now() == before
    revert(latest())  # the revert undone: the edit is back
    assert ratings_now() == edited


def test_a_deleted_matchday_comes_back_with_its_number_and_results(club):
    matchday = Matchday.objects.get(number=4)
    kept, before = history.matchdays([matchday.pk])[matchday.pk], ratings_now()
    delete_matchdays([matchday])
    revert(latest())
    back = Matchday.objects.get(number=4)
    assert history.matchdays([back.pk])[back.pk] == kept
    assert ratings_now() == before


def test_a_deleted_matchday_comes_back_under_its_id_so_earlier_writes_can_still_be_reverted(club):
    matchday = Matchday.objects.get(number=4)
    kept = history.matchdays([matchday.pk])[matchday.pk]
    matchday.rounds += 1
    store(matchday, list(results_of(matchday).values()))
    edit = latest()
    delete_matchdays([Matchday.objects.get(number=4)])
    revert(latest())
    assert Matchday.objects.get(number=4).pk == matchday.pk  # before: a new id, and the edit "deleted since"
    revert(edit)
    assert history.matchdays([matchday.pk])[matchday.pk] == kept


def test_a_deleted_session_comes_back_under_its_id(solitaire):  # noqa: F811
    session = play(solitaire, "2025-11-01", [("Ann", "8x4", 5, 1, True), ("Bob", "8x4", 5, 2, False)])
    kept = history.sessions([session.pk])[session.pk]
    deal_services.delete_sessions([DealSession.objects.get(pk=session.pk)])
    revert(latest())
    assert history.sessions([session.pk]) == {session.pk: kept}


def test_a_session_whose_player_or_game_was_deleted_since_is_refused_naming_them(solitaire):  # noqa: F811
    session = play(solitaire, "2025-11-01", [("Ann", "8x4", 5, 1, True), ("Bob", "8x4", 5, 2, False)])
    deal_services.delete_sessions([DealSession.objects.get(pk=session.pk)])
    deleted = latest()
    delete_players([Player.objects.get(short_name="Bob")])  # he played nothing else
    with pytest.raises(RevertRefused, match="Solitaire session of 2025-11-01: Bob has been deleted since by “Player"):
        revert(deleted)  # before: a KeyError, the revert page's 500
    delete_games([solitaire])
    with pytest.raises(RevertRefused, match="its game Solitaire has been deleted since"):
        revert(deleted)
    assert not DealSession.objects.exists()


def test_reverting_an_import_removes_what_it_added_and_the_players_it_brought(tmp_path, club):
    before, players = ratings_now(), Player.objects.count()
    imported = import_night(tmp_path, "Hearts,3,GL Hearts,3,Zed", "Hearts,3,I Hearts,3,J")
    assert imported.summary == "2 matchdays added, 1 player added"
    revert(imported)
    assert not Matchday.objects.filter(number__in=[7, 8]).exists()
    assert Player.objects.count() == players and ratings_now() == before


def test_an_import_that_brings_new_games_is_one_write_and_its_revert_removes_them(tmp_path, club):
    before, games, tables = ratings_now(), Game.objects.count(), RatingTable.every.count()
    imported = import_night(tmp_path, "Skat,3,GL Skat,3,I", "Catan,1,I Catan,1,J")
    assert imported.summary == "2 matchdays added, 2 games added"
    assert sorted(Game.objects.filter(name__in=["Skat", "Catan"]).values_list("slug", flat=True)) == ["catan", "skat"]
    revert(imported)
    assert not Game.objects.filter(name__in=["Skat", "Catan"]).exists()
    assert (Game.objects.count(), RatingTable.every.count()) == (games, tables) and ratings_now() == before


def test_a_file_naming_two_new_games_with_one_address_gives_each_its_own(tmp_path, club):
    import_night(tmp_path, "Skat!,3,GL Skat!,3,I", "Skat?,3,I Skat?,3,J")
    assert sorted(Game.objects.filter(name__startswith="Skat").values_list("slug", flat=True)) == ["skat", "skat-2"]


def test_a_later_change_to_the_same_matchday_is_said_and_overwritten_only_when_asked(club):
    matchday = Matchday.objects.get(number=2)
    first_state = history.matchdays([matchday.pk])[matchday.pk]
    matchday.rounds += 1
    store(matchday, list(results_of(matchday).values()))
    first = latest()
    matchday.rounds += 1
    store(matchday, list(results_of(matchday).values()))
    found = plan(first)
    since = f"“{latest().summary}” ({latest().at:%Y-%m-%d %H:%M})"
    assert found.changed_since == [f"Matchday 2 (Hearts, 2025-11-06) has been changed since by {since}."]
    with pytest.raises(RevertRefused, match="changed since"):
        revert(first)
    revert(first, overwrite=True)
    assert history.matchdays([matchday.pk])[matchday.pk] == first_state


def test_a_deleted_matchday_whose_number_was_taken_since_is_refused_and_nothing_changes(club, make_matchday):
    matchday = Matchday.objects.get(number=6)
    delete_matchdays([matchday])
    deleted = latest()
    make_matchday(6, "2025-11-25", {"GL": 1, "K": 2})
    before = ratings_now()
    with pytest.raises(RevertRefused, match="matchday 6 has been entered since as another matchday"):
        revert(deleted, overwrite=True)
    assert ratings_now() == before


def test_a_season_a_rating_method_and_a_rename_each_come_back(club):
    before = ratings_now()
    table = RatingTable.objects.get(game__name="Hearts")
    table.method = "pairwise-placing"
    save_rating_table(table)
    revert(latest())
    assert RatingTable.objects.get(pk=table.pk).method == "club" and ratings_now() == before
    from datetime import date

    season = Season(
        name="Autumn", slug="autumn", first_day=date(2025, 11, 1), last_day=date(2025, 11, 30), start="fresh"
    )
    save_season(season)
    revert(latest())
    assert not Season.objects.exists() and ratings_now() == before
    game = Game.objects.get(name="Hearts")
    game.name = "Black Lady"
    from ratings.services.catalogue import save_game

    save_game(game)
    revert(latest())
    assert Game.objects.get(pk=game.pk).name == "Hearts"


def test_the_preview_lists_exactly_what_the_revert_then_changes(club):
    matchday = Matchday.objects.get(number=2)
    matchday.rounds = 1
    store(matchday, list(results_of(matchday).values()))
    edit = latest()
    found = plan(edit)
    preview = impact(edit.club_id, lambda: revert(edit), found.touched)
    assert preview.later_matchdays == 4  # matchdays 3 to 6
    shown = {(t.pk, m.player.pk): (m.rating[1], m.rank[1]) for t, moved in preview.tables for m in moved}
    was = {(s.table_id, s.player_id): s.rating for s in Standing.objects.all()}
    revert(edit)
    now = {(s.table_id, s.player_id): s.rating for s in Standing.objects.all()}
    changed = {key for key in now.keys() | was.keys() if now.get(key) != was.get(key)}
    assert {key for key, (rating, _) in shown.items() if rating != was.get(key)} == changed
    assert all(now[key] == shown[key][0] for key in changed)


def test_the_revert_page_previews_then_reverts_for_the_clubs_secretaries_only(client, admin_client, club):
    enter(admin_client, ["GL", "K"], action="save")
    saved = latest()
    url = reverse("league:revert", args=[saved.pk])
    html = admin_client.get(url).content.decode()
    assert "What reverting changes" in html and "GL" in html and "No later matchday is rated again." in html
    assert Matchday.objects.filter(number=7).exists()  # the preview changed nothing
    response = admin_client.post(url, {"action": "revert", "reason": "Typed twice"})
    assert response.status_code == 302 and not Matchday.objects.filter(number=7).exists()
    assert latest().reason == "Typed twice"
    assert "Reverted: Matchday 7" in admin_client.get(response.url).content.decode()
    assert client.get(url).status_code == 302  # a visitor: the login
    from league.models import Club

    other = Club.objects.create(slug="south", name="South")
    assert secretary(client, other).get(url).status_code == 404


def test_a_revert_in_the_mixed_league_restores_every_rating(mixed_league):
    before = ratings_now()
    teams = Matchday.objects.filter(results__side__gt="").distinct().order_by("date", "number")
    scored = Matchday.objects.filter(results__score__isnull=False).distinct().order_by("date", "number")
    plain = Matchday.objects.exclude(pk__in=teams).exclude(pk__in=scored).order_by("date", "number")
    for matchday in (plain[30], teams[2], scored[1]):  # a game by placings, a team game, a score sheet
        matchday.rounds += 2
        store(matchday, list(results_of(matchday).values()))
    edits = list(Write.objects.order_by("-pk")[:3])
    for write in edits:
        revert(write)
    assert ratings_now() == before


@pytest.mark.parametrize(
    ("reason", "words"),
    [
        ("Typed\x00twice", "Why holds a NUL character (U+0000)"),
        ("x" * 301, "Why is 301 characters long; keep it to 300."),
    ],
)
def test_a_reason_the_history_cannot_keep_is_refused_on_the_entry_page_and_the_revert(
    admin_client, club, reason, words
):
    writes = Write.objects.count()
    refused = enter(admin_client, ["GL", "K"], action="save", extra={"reason": reason}).content.decode()
    assert words in refused and not Matchday.objects.filter(number=7).exists() and Write.objects.count() == writes
    enter(admin_client, ["GL", "K"], action="save")
    saved = latest()
    url = reverse("league:revert", args=[saved.pk])
    page = admin_client.post(url, {"action": "revert", "reason": reason}).content.decode()
    assert "Nothing was reverted" in page and words in page and Matchday.objects.filter(number=7).exists()


def test_a_game_reverted_away_after_matchdays_were_entered_with_it_names_them(admin_client, club):
    from ratings.services.catalogue import save_game

    skat = Game(name="Skat", slug="skat")
    save_game(skat)
    added = latest()
    assert added.summary == "Game Skat added"
    enter(admin_client, ["GL", "K"], action="save", extra={"game": str(skat.pk)})
    with pytest.raises(RevertRefused) as refused:
        revert(added)
    assert refused.value.problems == ["Game Skat: Matchday 7 refers to it since; delete or change it first."]
    page = admin_client.get(reverse("league:revert", args=[added.pk])).content.decode()
    assert "Matchday 7 refers to it since" in page and "protected foreign keys" not in page


def test_the_history_ignores_a_reverted_id_that_is_no_number(admin_client, club):
    for odd in ("\u00b2", "\u2460", "1" * 30, "-1", "abc"):
        assert admin_client.get(reverse("league:history"), {"reverted": odd}).status_code == 200


@pytest.mark.parametrize(
    ("reason", "words"),
    [("a\x00b", "Why holds a NUL character (U+0000)"), ("x" * 301, "Why is 301 characters long; keep it to 300.")],
)
def test_the_admins_matchday_form_refuses_a_reason_in_the_same_words(club, reason, words):
    from web.admin.matchdays import MatchdayForm

    form = MatchdayForm(data={"reason": reason})
    assert not form.is_valid() and form.errors["reason"] == [
        words + ("; type it again without it." if "NUL" in words else "")
    ]


def test_a_deleted_games_table_comes_back_with_its_method_under_its_own_id(club):
    from ratings.services.catalogue import save_game

    skat = Game(name="Skat", slug="skat")
    save_game(skat)
    table = RatingTable.objects.get(game=skat)
    table.method = "pairwise-winner"
    save_rating_table(table)
    method_chosen = latest()
    delete_games([Game.objects.get(pk=skat.pk)])
    deleted = latest()
    assert deleted.summary == "Game Skat deleted"  # its table, kept too, goes without saying
    by = f"“{deleted.summary}” ({deleted.at:%Y-%m-%d %H:%M})"
    assert plan(method_chosen).problems == [f"Rating table Skat has been deleted since by {by}; revert that first."]
    revert(deleted)
    back = RatingTable.objects.get(game_id=skat.pk)
    assert (back.pk, back.method) == (table.pk, "pairwise-winner")
    revert(method_chosen)  # the write that named the table by its id can be undone now
    assert RatingTable.objects.get(game_id=skat.pk).method == "club"


def test_a_categorys_table_taken_away_when_its_game_turns_official_comes_back_with_its_method(club, make_matchday):
    from league.models import Category
    from ratings.services.catalogue import save_category, save_game

    tcg = Category(name="Trading card games", slug="tcg")
    save_category(tcg)
    pokemon = Game(name="Pokemon", slug="pokemon", category=tcg, official=False)
    save_game(pokemon)
    make_matchday(7, "2025-11-21", {"I": 1, "R": 2}, game=pokemon)
    table = RatingTable.objects.get(category=tcg)
    table.method = "pairwise-winner"
    save_rating_table(table)
    before = ratings_now()
    pokemon.official = True
    save_game(pokemon)
    made_official = latest()
    assert made_official.summary == "Game Pokemon changed" and not RatingTable.objects.filter(category=tcg).exists()
    revert(made_official)
    back = RatingTable.objects.get(category=tcg)
    assert (back.pk, back.method) == (table.pk, "pairwise-winner") and ratings_now() == before


def _trading_cards(*games: tuple[str, bool]):
    """A category of unofficial games and its table on another method than the club formula."""
    from league.models import Category
    from ratings.services.catalogue import save_category, save_game

    tcg = Category(name="Trading card games", slug="tcg")
    save_category(tcg)
    made = [Game(name=name, slug=name.lower(), category=tcg, official=official) for name, official in games]
    for game in made:
        save_game(game)
    table = RatingTable.objects.get(category=tcg)
    table.method = "pairwise-winner"
    save_rating_table(table)
    return tcg, table, made


def test_a_categorys_table_taken_away_with_its_last_unofficial_game_comes_back_when_the_delete_is_undone(club):
    tcg, table, (pokemon,) = _trading_cards(("Pokemon", False))
    delete_games([pokemon])
    deleted = latest()
    assert not RatingTable.objects.filter(category=tcg).exists() and deleted.summary == "Game Pokemon deleted"
    revert(deleted)
    back = RatingTable.objects.get(category=tcg)
    assert (back.pk, back.method) == (table.pk, "pairwise-winner")


def test_a_categorys_table_made_again_since_is_overwritten_only_when_asked_and_kept_in_the_history(club):
    from ratings.services.catalogue import save_game

    tcg, table, (pokemon, magic) = _trading_cards(("Pokemon", False), ("Magic", True))
    pokemon.official = True
    save_game(pokemon)  # the category's table goes
    made_official = latest()
    magic.official = False
    save_game(magic)  # a new table for the category, which a later write sets
    again = RatingTable.objects.get(category=tcg)
    again.method = "pairwise-placing"
    save_rating_table(again)
    method_set = latest()
    with pytest.raises(RevertRefused) as refused:
        revert(made_official)
    assert refused.value.problems == [
        f"Rating table Trading card games: its category has another table since by "
        f"“{method_set.summary}” ({method_set.at:%Y-%m-%d %H:%M}), which this would replace."
    ]
    assert RatingTable.objects.get(category=tcg).pk == again.pk
    revert(made_official, overwrite=True)
    assert RatingTable.objects.get(category=tcg).pk == table.pk
    assert "has been deleted since by" in plan(method_set).problems[0]  # named: it can be put back in turn


def test_an_object_whose_id_was_given_again_to_another_is_not_put_back_over_it(club):
    from league.services import save_player

    gone = Player(name="Gone Player", short_name="Gone")
    save_player(gone)
    old_id = gone.pk
    delete_players([gone])
    deleted = latest()
    other = Player(name="Other Player", short_name="Other")
    save_player(other)
    added = latest()
    # as SQLite counts on from the highest id left once a migration remakes a table
    Player.objects.filter(pk=other.pk).update(id=old_id)
    added.changes.update(key=old_id)
    with pytest.raises(RevertRefused) as refused:
        revert(deleted, overwrite=True)
    assert refused.value.problems == [f"Player Gone cannot come back: its id is taken since by “{added.summary}”."]
    assert Player.objects.get(pk=old_id).short_name == "Other"


@pytest.mark.parametrize("to_deals", [True, False])
def test_a_game_switched_to_or_from_deals_comes_back_with_its_tables_method_and_so_does_the_switch(club, to_deals):
    from ratings.services.catalogue import save_game

    skat = Game(name="Skat", slug="skat", against_deals=not to_deals)
    save_game(skat, new_game_method=True)  # unplayed, on the new game method (deals: theirs)
    kept = history.fields_of(RatingTable.objects.get(game=skat))
    skat.against_deals = to_deals
    save_game(skat)
    switched = latest()
    assert switched.summary == "Game Skat changed"
    after = history.fields_of(RatingTable.objects.get(game=skat))
    revert(switched)  # before: the club formula, whatever the table's method was
    assert history.fields_of(RatingTable.objects.get(game=skat)) == kept
    revert(latest())  # before: refused, the table changed twice in the revert
    assert history.fields_of(RatingTable.objects.get(game=skat)) == after
    assert Game.objects.get(pk=skat.pk).against_deals == to_deals
