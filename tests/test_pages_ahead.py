"""A write renders its club's front pages (home, standings, the players) and the pages of the games,
players and matchdays it wrote before it commits, so the first visitor after it is served a stored page that
already shows the write; other pages, other clubs, a write that saved nothing and a render that
fails are left as they were (web/page_cache/ahead.py)."""

import logging
import re

import pytest
from django.core.management import call_command
from django.db.models import Count
from django.urls import get_urlconf

from league import revision
from league.models import Club, Game, Matchday, Player
from tests.conftest import CLUB_SLUG
from tests.test_saving_once import ENTER, preview
from web import page_cache
from web.page_cache import ahead

FRONT = [f"/{CLUB_SLUG}/", f"/{CLUB_SLUG}/standings/", f"/{CLUB_SLUG}/players/"]


@pytest.fixture(autouse=True)
def on(settings):
    settings.PAGES_AHEAD = True
    page_cache.clear()
    yield
    page_cache.clear()


def served(client, url):
    response = client.get(url)
    return response, getattr(response, "page_cache", None) == "hit"


def test_a_save_on_the_entry_page_stores_the_front_pages_with_the_new_matchday(admin_client, client, club):
    for url in FRONT:
        served(client, url)  # stored under the revision before the save
    saved = admin_client.post(ENTER, preview(admin_client, ["GL", "K", "I", "J"]))
    assert saved.status_code == 302 and Matchday.objects.count() == 7
    for url in FRONT:
        page, hit = served(client, url)
        assert hit, f"{url} was rendered by the save"
        assert page.status_code == 200
    home = served(client, f"/{CLUB_SLUG}/")[0].content.decode()
    assert re.search(r"/matchdays/7/", home), "the stored home page shows the saved matchday"
    # The game played and its players' pages, too; a player who did not play is rendered by their
    # first visitor, as before.
    assert served(client, f"/{CLUB_SLUG}/games/hearts/")[1]
    for name in ("GL", "K", "I", "J"):
        page, hit = served(client, f"/{CLUB_SLUG}/players/{Player.objects.get(short_name=name).pk}/")
        assert hit and "/matchdays/7/" in page.content.decode(), name
    absent = Player.objects.exclude(short_name__in=("GL", "K", "I", "J")).first()
    assert not served(client, f"/{CLUB_SLUG}/players/{absent.pk}/")[1]
    page, hit = served(client, f"/{CLUB_SLUG}/matchdays/7/")  # the matchday saved, and not the one before
    assert hit and page.status_code == 200
    assert not served(client, f"/{CLUB_SLUG}/matchdays/6/")[1]


def test_the_stored_page_is_what_a_visitor_would_have_been_rendered(admin_client, client, club):
    admin_client.post(ENTER, preview(admin_client, ["GL", "K", "I", "J"]))
    stored, hit = served(client, f"/{CLUB_SLUG}/standings/")
    assert hit
    page_cache.memory().clear()
    page_cache.clear()
    rendered, hit = served(client, f"/{CLUB_SLUG}/standings/")
    assert not hit
    assert stored.content == rendered.content and stored["ETag"] == rendered["ETag"]


def test_an_import_renders_only_its_own_clubs_front_pages(client, club, tmp_path):
    another = Club.objects.create(slug="another", name="Another")
    served(client, "/another/")
    before = revision.current(revision.of_club(another.pk))
    csv = tmp_path / "night.csv"
    csv.write_text(
        "matchday,date,game,rounds,player,placing,rated_placing\n"
        "7,2025-11-20,Hearts,3,GL,1,\n7,2025-11-20,Hearts,3,K,2,\n"
    )
    call_command("import_results", str(csv), "--club", CLUB_SLUG)
    assert all(served(client, url)[1] for url in FRONT)
    assert revision.current(revision.of_club(another.pk)) == before
    assert served(client, "/another/")[1]  # stored before, and still current


def test_of_an_import_the_last_players_to_play_are_rendered_then_the_busiest(client, club, tmp_path, monkeypatch):
    monkeypatch.setattr(ahead, "PLAYERS", 3)
    rendered = []
    original = ahead.render
    monkeypatch.setattr(ahead, "render", lambda path: rendered.append(path) or original(path))
    csv = tmp_path / "nights.csv"
    csv.write_text(
        "matchday,date,game,rounds,player,placing,rated_placing\n"
        "7,2025-11-20,Hearts,3,GL,1,\n7,2025-11-20,Hearts,3,K,2,\n7,2025-11-20,Hearts,3,I,3,\n"
        "8,2025-11-27,Hearts,3,J,1,\n8,2025-11-27,Hearts,3,K,2,\n"
    )
    call_command("import_results", str(csv), "--club", CLUB_SLUG)
    player = {p.short_name: p for p in Player.objects.annotate(played=Count("results"))}

    def busiest_first(*names):
        return sorted(names, key=lambda name: (-player[name].played, player[name].pk))

    # J and K played last (the 27th), then of GL and I (the 20th) the one with more matchdays.
    expected = [*busiest_first("J", "K"), busiest_first("GL", "I")[0]]
    players = [path for path in rendered if re.fullmatch(rf"/{CLUB_SLUG}/players/\d+/", path)]
    assert players == [f"/{CLUB_SLUG}/players/{player[name].pk}/" for name in expected]


def test_of_an_import_the_latest_matchdays_are_rendered(client, club, tmp_path, monkeypatch):
    monkeypatch.setattr(ahead, "MATCHDAYS", 2)
    rendered = []
    original = ahead.render
    monkeypatch.setattr(ahead, "render", lambda path: rendered.append((path, original(path))))
    csv = tmp_path / "nights.csv"
    csv.write_text(
        "matchday,date,game,rounds,player,placing,rated_placing\n"
        "7,2025-11-20,Hearts,3,GL,1,\n7,2025-11-20,Hearts,3,K,2,\n"
        "8,2025-11-27,Hearts,3,J,1,\n8,2025-11-27,Hearts,3,K,2,\n"
        "9,2025-11-27,Hearts,3,J,1,\n9,2025-11-27,Hearts,3,I,2,\n"
    )
    call_command("import_results", str(csv), "--club", CLUB_SLUG)
    matchdays = [(path, status) for path, status in rendered if "/matchdays/" in path]
    assert matchdays == [(f"/{CLUB_SLUG}/matchdays/9/", 200), (f"/{CLUB_SLUG}/matchdays/8/", 200)]
    assert served(client, f"/{CLUB_SLUG}/matchdays/9/")[1] and not served(client, f"/{CLUB_SLUG}/matchdays/7/")[1]


def test_a_deleted_matchday_is_not_rendered_its_neighbours_front_pages_are(admin_client, club, monkeypatch):
    rendered = []
    original = ahead.render
    monkeypatch.setattr(ahead, "render", lambda path: rendered.append((path, original(path))))
    latest = Matchday.objects.get(number=6)
    deleted = admin_client.post(f"/admin/league/matchday/{latest.pk}/delete/", {"post": "yes"})
    assert deleted.status_code == 302 and not Matchday.objects.filter(number=6).exists()
    assert [path for path, _ in rendered[:3]] == FRONT
    assert all(status == 200 for _, status in rendered), rendered
    assert not any("/matchdays/" in path for path, _ in rendered)


def test_a_refused_write_renders_nothing(client, club, tmp_path):
    csv = tmp_path / "bad.csv"
    csv.write_text("matchday,date,game,rounds,player,placing,rated_placing\n7,2025-11-20,Hearts,3,Nobody?,1,\n")
    rendered = []
    original = ahead.render
    ahead.render = lambda path: rendered.append(path) or original(path)
    try:
        with pytest.raises(Exception, match="Nothing was imported"):
            call_command("import_results", str(csv), "--club", CLUB_SLUG)
    finally:
        ahead.render = original
    assert rendered == [] and Matchday.objects.count() == 6


def test_a_render_that_fails_leaves_the_write_saved_and_the_page_to_its_first_visitor(
    admin_client, client, club, monkeypatch, caplog
):
    handler = ahead.WSGIHandler()
    monkeypatch.setattr(ahead, "_handler", [handler])

    def broken(request):
        raise RuntimeError("a template that fails")

    monkeypatch.setattr(handler, "get_response", broken)
    with caplog.at_level(logging.WARNING, logger="web.page_cache.ahead"):
        saved = admin_client.post(ENTER, preview(admin_client, ["GL", "K", "I", "J"]))
    assert saved.status_code == 302 and Matchday.objects.count() == 7
    assert "Could not render" in caplog.text
    page, hit = served(client, f"/{CLUB_SLUG}/")
    assert not hit and page.status_code == 200 and "/matchdays/7/" in page.content.decode()


def test_rendering_ahead_leaves_the_writes_urlconf_as_it_was(club):
    before = get_urlconf()
    assert ahead.render(f"/{CLUB_SLUG}/") == 200
    assert get_urlconf() == before


def test_switched_off_a_write_renders_nothing(admin_client, client, club, settings):
    settings.PAGES_AHEAD = False
    admin_client.post(ENTER, preview(admin_client, ["GL", "K", "I", "J"]))
    assert not served(client, f"/{CLUB_SLUG}/")[1]


def test_written_ahead_inside_another_the_pages_are_rendered_once(club, monkeypatch):
    from league import services
    from league.models import Player

    rendered = []
    monkeypatch.setattr(ahead, "render", rendered.append)
    with ahead.rendered_ahead():
        with ahead.rendered_ahead():
            services.save_player(Player(club=Club.objects.get(slug=CLUB_SLUG), name="Newcomer", short_name="NEW"))
        assert rendered == []
    assert rendered == FRONT


def test_behind_a_proxy_that_says_https_the_page_is_rendered_not_redirected(club, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert ahead.render(f"/{CLUB_SLUG}/") == 200


def test_on_the_mixed_league_beside_another_club_each_write_renders_its_own_clubs_pages(
    admin_client, client, mixed_league, tmp_path
):
    north = tmp_path / "north.csv"
    north.write_text(
        "matchday,date,game,rounds,player,placing,rated_placing\n"
        "1,2026-01-05,Hearts,3,GL,1,\n1,2026-01-05,Hearts,3,Ann,2,\n"
    )
    call_command("create_club", "north", "North")
    call_command("import_results", str(north), "--club", "north")
    north_pages = {url: served(client, url)[0]["ETag"] for url in ("/north/", "/north/standings/", "/north/players/")}
    assert all(served(client, url)[1] for url in north_pages)  # rendered by the import, then stored
    hearts = Game.objects.get(name="Hearts", club__slug=CLUB_SLUG)
    saved = admin_client.post(ENTER, preview(admin_client, ["GL", "K", "I", "J"], hearts))
    assert saved.status_code == 302
    stored = {url: served(client, url) for url in [*FRONT, f"/{CLUB_SLUG}/games/hearts/"]}
    assert all(hit and page.status_code == 200 for page, hit in stored.values())
    page_cache.clear()
    for url, (page, _) in stored.items():  # what a visitor would have had rendered
        assert client.get(url).content == page.content, url
    for url, etag in north_pages.items():  # the other club's pages: rendered again, the same
        page, _ = served(client, url)
        assert page.status_code == 200 and page["ETag"] == etag
