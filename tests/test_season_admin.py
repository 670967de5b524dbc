"""Seasons in the admin: added, changed and deleted through the service (the tables follow, the
revision moves on), an overlap refused on the field naming the other season, and a season's tables
never edited on their own."""

from datetime import date

from django.urls import reverse

from league.models import Matchday, Revision, Season
from league.revision import LEAGUE
from ratings.models import RatingEntry, RatingTable
from ratings.services.recompute import differences
from ratings.services.seasons import save_season
from tests.conftest import add_url, form_data


def season_form(name="November", slug="november", first="2025-11-01", last="2025-11-30", start="fresh"):
    return {"name": name, "slug": slug, "first_day": first, "last_day": last, "start": start}


def token() -> str:
    return Revision.objects.get(scope=LEAGUE).token


def test_adding_a_fresh_start_season_in_the_admin_rates_its_tables(admin_client, club):
    before = token()
    response = admin_client.post(reverse("admin:league_season_add"), season_form(), follow=True)
    assert response.status_code == 200
    season = Season.objects.get(slug="november")
    assert token() != before
    assert "November starts afresh: its 2 tables are rated from its first matchday." in response.content.decode()
    overall = season.tables.get(parent__scope=RatingTable.Scope.OVERALL)
    assert overall.entries.count() == RatingTable.objects.get(scope="overall").entries.count()  # all of November
    assert differences() == []


def test_the_list_shows_each_seasons_name_days_and_start(admin_client, club):
    save_season(Season(name="Autumn", slug="autumn", first_day=date(2025, 9, 1), last_day=date(2025, 11, 30)))
    html = admin_client.get(reverse("admin:league_season_changelist")).content.decode()
    assert "Autumn" in html and "Sept. 1, 2025" in html and "Nov. 30, 2025" in html
    assert "Carry over: the all-time ratings, seen between its dates" in html


def test_an_overlapping_season_is_refused_on_its_first_day_naming_the_other(admin_client, club):
    save_season(Season(name="Autumn", slug="autumn", first_day=date(2025, 9, 1), last_day=date(2025, 11, 5)))
    rows = RatingEntry.objects.count()
    response = admin_client.post(reverse("admin:league_season_add"), season_form())
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors["first_day"] == ["This season overlaps Autumn (2025-09-01 to 2025-11-05)."]
    assert not Season.objects.filter(slug="november").exists() and RatingEntry.objects.count() == rows


def test_changing_a_seasons_days_in_the_admin_rates_its_tables_again(admin_client, club):
    season = Season(name="November", slug="november", first_day=date(2025, 11, 1), last_day=date(2025, 11, 30))
    season.start = Season.Start.FRESH
    save_season(season)
    overall = season.tables.get(parent__scope=RatingTable.Scope.OVERALL)
    before = token()
    url = reverse("admin:league_season_change", args=[season.pk])
    admin_client.post(url, season_form(first="2025-11-10"))
    assert token() != before
    assert set(overall.entries.values_list("matchday_date", flat=True)) == {
        d
        for d in RatingTable.objects.get(scope="overall").entries.values_list("matchday_date", flat=True)
        if d >= date(2025, 11, 10)
    }
    admin_client.post(url, season_form(first="2025-11-10", start="carry-over"))
    assert not RatingTable.every.filter(season=season).exists()
    assert differences() == []


def test_deleting_a_fresh_start_season_in_the_admin_deletes_its_tables(admin_client, club):
    season = Season(name="November", slug="november", first_day=date(2025, 11, 1), last_day=date(2025, 11, 30))
    season.start = Season.Start.FRESH
    save_season(season)
    tables = list(season.tables.values_list("pk", flat=True))
    url = reverse("admin:league_season_delete", args=[season.pk])
    html = admin_client.get(url).content.decode()
    assert "permission" not in html  # its tables go with it
    assert "<li>Rating table: November: Overall</li>" in html and "Rating entries: " in html
    before = token()
    admin_client.post(url, {"post": "yes"})
    assert not Season.objects.exists() and not RatingTable.every.filter(pk__in=tables).exists()
    assert token() != before and differences() == []


def test_a_seasons_table_is_neither_listed_nor_changed_in_the_rating_tables_admin(admin_client, club):
    season = Season(name="November", slug="november", first_day=date(2025, 11, 1), last_day=date(2025, 11, 30))
    season.start = Season.Start.FRESH
    save_season(season)
    seasonal = season.tables.first()
    html = admin_client.get(reverse("admin:ratings_ratingtable_changelist")).content.decode()
    assert f"/{seasonal.pk}/change/" not in html
    url = reverse("admin:ratings_ratingtable_change", args=[seasonal.pk])
    response = admin_client.post(url, {"name": "Mine", "slug": seasonal.slug, "method": "glicko2"})
    # Not there, as another club's object is not: a 404 (tests/test_club_admin.py), not a redirect.
    assert response.status_code == 404
    seasonal.refresh_from_db()
    assert (seasonal.name, seasonal.method) != ("Mine", "glicko2")


def test_a_matchday_saved_in_the_admin_reports_its_seasons_changes_by_name(admin_client, club):
    season = Season(name="November", slug="november", first_day=date(2025, 11, 1), last_day=date(2025, 11, 30))
    season.start = Season.Start.FRESH
    save_season(season)
    rows = [("I", 1, None), ("R", 2, None), ("GL", 3, None)]
    response = admin_client.post(add_url(), form_data(7, "2025-11-20", 3, rows), follow=True)
    text = response.content.decode()
    assert "Overall: " in text and "November: Overall: " in text
    assert differences() == []


def test_deleting_a_matchday_in_the_admin_names_its_seasons_tables_before_and_after(admin_client, club):
    season = Season(name="November", slug="november", first_day=date(2025, 11, 1), last_day=date(2025, 11, 30))
    season.start = Season.Start.FRESH
    save_season(season)
    matchday = Matchday.objects.get(number=6)
    url = reverse("admin:league_matchday_delete", args=[matchday.pk])
    assert "November: Overall (0 later matchdays rated again)" in admin_client.get(url).content.decode()
    text = admin_client.post(url, {"post": "yes"}, follow=True).content.decode()
    assert "Deleted; ratings recomputed." in text and "November: Overall: " in text
    assert differences() == []
