"""Every write is in its club's history, whichever way it came in (the entry page, the admin, an
import, a command), with who made it, which way, why, and what it changed: a matchday's results
before and after in the entry page's lines. The history page is its club's secretaries' only."""

import io
from dataclasses import replace
from datetime import date

from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from django_scopes import scope

from league import history
from league.models import Change, Club, Game, Matchday, Player, Season, Write
from league.placings import BY_PLACINGS
from ratings.models import RatingTable
from ratings.services.catalogue import save_game
from ratings.services.checks import check_matchday
from ratings.services.rating_tables import save_rating_table
from ratings.services.seasons import delete_season, save_season
from tests.conftest import NO_FORMER_NAMES, change_url, form_data, results_of, store
from tests.test_club_admin import secretary
from tests.test_enter import post as enter
from web.entry.lines import parse_results, written_lines
from web.importing import import_results

HISTORY = "/card-games/history/"
CSV = b"matchday,date,game,rounds,player,placing,rated_placing\n"
NIGHT = b"".join(
    b"%d,2025-11-21,Hearts,3,%s,%d,\n" % row for row in [(7, b"GL", 1), (7, b"K", 2), (8, b"I", 1), (8, b"J", 2)]
)


def latest() -> Write:
    return Write.objects.order_by("-pk").first()


def page(client, query="") -> str:
    response = client.get(HISTORY + query)
    assert response.status_code == 200
    return response.content.decode()


def test_a_save_from_the_entry_page_is_the_users_with_the_reason_they_typed(admin_client, club):
    writes = Write.objects.count()
    response = enter(admin_client, ["GL", "K = I", "J"], action="save", extra={"reason": "  From the score sheet "})
    assert response.status_code == 302
    assert Write.objects.count() == writes + 1
    write = latest()
    assert (write.way, write.who, write.user.username, write.reason) == (
        "entry",
        "admin",
        "admin",
        "From the score sheet",
    )
    (change,) = write.changes.all()
    assert (change.kind, change.matchday, change.before) == ("matchday", 7, None)
    assert [r["player"] for r in change.after["results"]] == ["GL", "K", "I", "J"]
    ids = sorted(Player.objects.filter(short_name__in=["GL", "I", "J", "K"]).values_list("pk", flat=True))
    assert change.players == "".join(f"|{pk}" for pk in ids) + "|"
    html = page(admin_client)
    assert "Matchday 7 (Hearts, 2025-11-20) added" in html and "through the entry page" in html
    assert "GL\nK = I\nJ" in html and "“From the score sheet”" in html


def test_an_admin_edit_keeps_the_results_before_and_after(admin_client, club):
    matchday = Matchday.objects.get(number=1)
    rows = [("K", 1, None), ("I", 2, None), ("R", 3, None), ("GL", 4, None)]
    response = admin_client.post(change_url(matchday), form_data(1, "2025-11-03", 7, rows, matchday=matchday))
    assert response.status_code == 302, response.content.decode()[:2000]
    write = latest()
    assert (write.way, write.who) == ("admin", "admin")
    (change,) = write.changes.all()
    assert written_lines(history.plays(change.before)) == ["I", "K", "R", "GL"]
    assert written_lines(history.plays(change.after)) == ["K", "I", "R", "GL"]
    assert write.summary == "Matchday 1 (Hearts, 2025-11-03) changed"
    html = page(admin_client, "?matchday=1")
    assert "Before" in html and "After" in html and "through the admin" in html


def test_an_admin_delete_keeps_the_matchday_as_it_was(admin_client, club):
    matchday = Matchday.objects.get(number=6)
    kept = history.matchdays([matchday.pk])[matchday.pk]
    url = reverse("admin:league_matchday_delete", args=[matchday.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    change = latest().changes.get()
    assert (change.before, change.after, change.matchday) == (kept, None, 6)
    assert latest().summary.endswith("deleted")


def test_an_import_is_one_entry_and_importing_the_same_file_again_adds_none(tmp_path, club):
    path = tmp_path / "night.csv"
    path.write_bytes(CSV + NIGHT)
    call_command("import_results", str(path), stdout=io.StringIO())
    write = latest()
    assert (write.way, write.who, write.summary) == ("import", "", "2 matchdays added")
    assert sorted(write.changes.values_list("matchday", flat=True)) == [7, 8]
    writes = Write.objects.count()
    call_command("import_results", str(path), "--replace", stdout=io.StringIO())
    assert Write.objects.count() == writes  # nothing changed: nothing to keep
    path.write_bytes(CSV + NIGHT.replace(b"GL,1", b"GL,2").replace(b"K,2", b"K,1"))
    call_command("import_results", str(path), "--replace", stdout=io.StringIO())
    assert list(latest().changes.values_list("matchday", flat=True)) == [7]


def test_the_admins_upload_is_the_users_import_and_its_preview_keeps_nothing(admin_client, club):
    url = reverse("admin:league_matchday_import")
    upload = SimpleUploadedFile("night.csv", CSV + b"7,2025-11-21,Hearts,3,GL,1,\n7,2025-11-21,Hearts,3,K,2,\n")
    writes = Write.objects.count()
    preview = admin_client.post(url, {"file": upload})
    assert preview.status_code == 200 and Write.objects.count() == writes
    token = preview.context["preview"]["token"]
    assert admin_client.post(url, {"confirm": token}).status_code == 302
    assert (latest().way, latest().who, latest().summary) == (
        "import",
        "admin",
        "Matchday 7 (Hearts, 2025-11-21) added",
    )


def test_a_player_renamed_in_the_admin_is_one_entry_with_the_former_name(admin_client, club):
    player = Player.objects.get(short_name="K")
    url = reverse("admin:league_player_change", args=[player.pk])
    data = {"short_name": "Kay", "name": player.name, **NO_FORMER_NAMES, "former_names-TOTAL_FORMS": "1"}
    data.update({"former_names-0-name": "Kalle", "former_names-0-until": "2025-10-31", "former_names-0-player": ""})
    assert admin_client.post(url, data).status_code == 302
    write = latest()
    assert write.way == "admin" and write.changes.count() == 2  # the player, and a former name typed
    assert sorted(write.changes.values_list("kind", flat=True)) == ["former name", "player"]
    html = page(admin_client)
    assert "Short name: K" in html and "Short name: Kay" in html


def test_seasons_rating_methods_and_games_are_in_the_history_with_their_user(club):
    user = User.objects.create_user("sec", is_staff=True)
    with history.way_in(Write.Way.ADMIN, user):
        season = Season(name="Autumn", slug="autumn", first_day=date(2025, 11, 1), last_day=date(2025, 11, 30))
        save_season(season)
        table = RatingTable.objects.get(game__name="Hearts")
        table.method = "pairwise-placing"
        save_rating_table(table)
        game = Game.objects.get(name="Hearts")
        game.name = "Hearts (Black Lady)"
        save_game(game)
        delete_season(season)
    writes = list(Write.objects.filter(who="sec").order_by("pk"))
    assert [w.summary for w in writes] == [
        "Season Autumn added",
        f"Rating table {table} changed",
        "Game Hearts (Black Lady) changed",
        "Season Autumn deleted",
    ]
    method = writes[1].changes.get()
    assert (method.before["method"], method.after["method"]) == ("club", "pairwise-placing")


def test_solitaire_sessions_are_in_the_history(mixed_league):
    from web.deals.importing import ATTEMPT_COLUMNS, import_attempts

    session = Write.objects.filter(changes__kind="session").first()
    assert session is not None and session.changes.filter(kind="session").count() > 1
    row = ",".join(ATTEMPT_COLUMNS)
    game = Game.objects.filter(against_deals=True).first()
    level = game.deal_levels.first()
    data = f"{row}\n2026-07-01,{game.name},{level.variant},{level.level},1,GL,yes\n".encode()
    import_attempts(data)
    change = latest().changes.get()
    assert change.kind == "session" and change.before is None
    assert change.after["attempts"][0]["player"] == "GL"


def test_the_history_is_for_the_clubs_secretaries_only(client, admin_client, club):
    enter(admin_client, ["GL", "K"], action="save")
    assert client.get(HISTORY).status_code == 302  # to the login
    other = Club.objects.create(slug="south", name="South")
    assert secretary(client, other).get(HISTORY).status_code == 404
    assert client.get("/south/history/").status_code == 200
    assert "Matchday 7" not in client.get("/south/history/").content.decode()
    with scope(club=other.pk):
        import_results(CSV + b"1,2025-11-03,Hearts,2,GL,1,\n1,2025-11-03,Hearts,2,K,2,\n")
    assert "Matchday 1 (Hearts, 2025-11-03) added" in client.get("/south/history/").content.decode()
    assert "through a command" in client.get("/south/history/").content.decode()
    south = Write.objects.get(club=other)
    assert f'id="write-{south.pk}"' not in page(admin_client, "?matchday=1")  # the south's matchday 1 is theirs


def test_the_history_filters_by_matchday_and_player_and_pages(admin_client, club):
    for n in range(30):
        lines = ["GL", "K"] if n % 2 else ["I", "J"]
        enter(admin_client, lines, action="save", day="2025-11-21", extra={"another": "on"})
    html = page(admin_client)
    assert html.count('class="history-entry"') == 25 and "Page 1 of 2" in html
    assert page(admin_client, "?page=2").count('class="history-entry"') == 6  # the club's import, then 30 saves
    assert page(admin_client, "?matchday=8").count('class="history-entry"') == 1
    gl = Player.objects.get(short_name="GL")
    filtered = page(admin_client, f"?player={gl.pk}&page=1")
    assert filtered.count('class="history-entry"') == 16  # the import, and the 15 saves GL played in
    assert "Matchday 7 " not in filtered and "Matchday 8 " in filtered
    wrong = page(admin_client, "?matchday=x&player=99999")
    assert "Enter a whole number." in wrong and "Select a valid choice" in wrong
    assert 'class="history-entry"' not in wrong


def test_every_matchday_of_the_mixed_league_written_as_lines_reads_back_the_same(mixed_league):
    """The lines the history shows are the lines a secretary would type for the same results."""
    states = history.matchdays(Matchday.objects.values_list("pk", flat=True))
    for matchday in Matchday.objects.select_related("game"):
        plays = history.plays(states[matchday.pk])
        scored = matchday.game.scoring != BY_PLACINGS
        typed, problems = parse_results(written_lines(plays, scored), scored)
        assert not problems, (matchday, problems)
        checked = check_matchday(matchday, matchday.game, typed)
        back = [(r.player, r.play) for r in checked.results]
        assert _by_partners(back) == _by_partners(plays), matchday


def _by_partners(results) -> list:
    """Results sorted by name, each side's label replaced by its players' names (labels come back as
    A, B ... in line order)."""
    partners: dict[str, list[str]] = {}
    for name, play in results:
        partners.setdefault(play.side, []).append(name)
    return sorted(
        (name, replace(play, side="+".join(sorted(partners[play.side])) if play.side else "")) for name, play in results
    )


def test_a_clubs_changes_are_read_in_its_scope_only(club):
    other = Club.objects.create(slug="south", name="South")
    with scope(club=Club.objects.get(slug="card-games").pk):
        assert Change.objects.exists()
    with scope(club=other.pk):
        assert not Change.objects.exists()


def test_a_write_that_changed_nothing_keeps_nothing(club):
    matchday = Matchday.objects.get(number=1)
    writes = Write.objects.count()
    store(matchday, list(results_of(matchday).values()))
    assert Write.objects.count() == writes
