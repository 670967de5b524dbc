"""Which club's rows a query reads (django-scopes, docs/development.md): every model a club owns,
directly or through its parent, reads only the club in scope, and with django-scopes' own default (a
query outside any scope refused) a query on club-owned data without a club fails loudly, while every
way a club's data is reached (its pages, the admin, the commands) says whose it reads."""

import io
from datetime import date

import django_scopes.state
import pytest
from django.apps import apps
from django.core.management import call_command
from django_scopes import ScopeError, scope, scopes_disabled

from league.models import Category, Club, Matchday, Page, Player, Season
from league.services import save_page, save_player
from ratings.services.catalogue import save_category
from ratings.services.seasons import save_season
from tests.conftest import MIXED_MEMBERS, csv_bytes
from tools.generate import generate
from tools.generate_deals import generate_attempts
from web.deals.importing import ATTEMPT_COLUMNS, ATTEMPT_OPTIONAL, import_attempts, import_seeds
from web.importing import COLUMNS, import_results

# The site's own rows, and the rows found by a key of their own: no club to scope them by.
SITE_WIDE = {
    "Club": "the clubs themselves",
    "Revision": "a scope's token, read by every request before its club's scope is set",
    "ApiToken": "a user's, for every club they write in",
    "IdempotentPost": "an API token's, looked up with its club",
    "Submission": "a preview's one-time token, found by its 64 random digits on the club's entry page",
}
# Each scoped model's way to its club, as its rows are counted here.
CLUB_OF = {
    "Category": "club",
    "Player": "club",
    "FormerName": "player__club",
    "Game": "club",
    "Page": "club",
    "DealLevel": "game__club",
    "Deal": "level__game__club",
    "DealSeed": "deal__level__game__club",
    "DealSession": "game__club",
    "Attempt": "session__game__club",
    "Write": "club",
    "Change": "write__club",
    "Matchday": "club",
    "Result": "matchday__club",
    "Season": "club",
    "RatingTable": "club",
    "AttemptRating": "table__club",
    "DealRating": "table__club",
    "LevelRating": "table__club",
    "RatingEntry": "table__club",
    "Standing": "table__club",
}
pytestmark = pytest.mark.no_club  # the two clubs made here are the site's only ones
SEEDS = b"game,variant,level,deal,plays,wins\nSolitaire,8x4,5,11982,100,10\nSolitaire,8x4,5,12,400,310\n"


def models():
    return [model for app in ("league", "ratings") for model in apps.get_app_config(app).get_models()]


@pytest.fixture
def strict():
    """django-scopes' own default for the test: outside any scope, a query on a club's rows raises."""
    token = django_scopes.state.state.set({})
    yield
    django_scopes.state.state.reset(token)


def club_with_everything(slug: str, seed: int) -> Club:
    """A club whose members play, play solitaire against seeded deals, were renamed, and keep a
    carried-over and a fresh-start season: a row of every model a club owns."""
    club = Club.objects.create(slug=slug, name=f"{slug.title()} Club")
    start, end = date(2025, 12, 1), date(2026, 3, 31)
    with scope(club=club.pk):
        import_results(
            csv_bytes(COLUMNS, generate(0, 12, seed=seed, first=1, start=start, end=end, names=MIXED_MEMBERS[:6]))
        )
        attempts = generate_attempts(0, 40, seed=seed, start=start, end=end, names=MIXED_MEMBERS[:6])
        import_attempts(csv_bytes([*ATTEMPT_COLUMNS, *ATTEMPT_OPTIONAL], attempts))
        import_seeds(SEEDS)
        save_category(Category(name="Trick-taking", slug="trick-taking"))
        save_page(Page(slug="laws", title="Laws", body="Ties share their places."))
        player = Player.objects.get(short_name=MIXED_MEMBERS[0])
        player.short_name = player.name = f"{MIXED_MEMBERS[0]}2"
        save_player(player)
        for name, first, last, kind in (
            ("Winter", start, date(2026, 1, 31), Season.Start.CARRY_OVER),
            ("Spring", date(2026, 2, 1), end, Season.Start.FRESH),
        ):
            save_season(Season(name=name, slug=name.lower(), first_day=first, last_day=last, start=kind))
    return club


@pytest.fixture
def two_clubs(db):
    return [club_with_everything("north", 1), club_with_everything("south", 2)]


def test_every_model_of_the_league_is_scoped_to_its_club_or_said_to_be_the_sites():
    scoped = {
        model.__name__ for model in models() if type(model._default_manager).__qualname__.startswith("ScopedManager")
    }
    every = {model.__name__ for model in models()}
    assert scoped == set(CLUB_OF), "a model a club owns reads only the club in scope (django_scopes.ScopedManager)"
    assert every - scoped == set(SITE_WIDE)


def form_classes():
    """Every form class of the site's modules (the admin's are made per request, from the model)."""
    import importlib
    import pkgutil

    from django import forms

    import web

    for info in pkgutil.walk_packages(web.__path__, "web."):
        importlib.import_module(info.name)
    seen, waiting = set(), [forms.BaseForm]
    while waiting:
        for sub in waiting.pop().__subclasses__():
            if sub not in seen:
                seen.add(sub)
                waiting.append(sub)
    return {form for form in seen if form.__module__.startswith("web.")}


def test_no_form_offers_a_clubs_rows_from_a_queryset_made_at_import():
    """A class body's queryset is made at import, outside any scope: every club's rows. Made in the
    form's __init__ it is the request's club's (the entry page's games were every club's). A model
    form's own fields are left out: the admin, their only user, makes them again in each request."""
    made_at_import = [
        f"{form.__module__}.{form.__name__}.{name}"
        for form in form_classes()
        for name, field in form.declared_fields.items()
        if getattr(field, "queryset", None) is not None
        and field.queryset.model.__name__ in CLUB_OF
        and not field.queryset.query.is_empty()  # .none(), replaced in __init__
    ]
    assert made_at_import == []


def test_in_a_clubs_scope_every_model_reads_that_clubs_rows_only(two_clubs):
    for model in models():
        if model.__name__ in SITE_WIDE:
            continue
        path = CLUB_OF[model.__name__]
        with scopes_disabled():
            counts = {club.pk: model.objects.filter(**{path: club}).count() for club in two_clubs}
            assert model.objects.count() == sum(counts.values())
        assert all(counts.values()), f"the fixture holds {model.__name__} rows in each club: {counts}"
        for club in two_clubs:
            with scope(club=club.pk):
                assert model.objects.count() == counts[club.pk], model.__name__
                assert not model.objects.exclude(**{path: club}).exists(), model.__name__


def test_a_query_on_a_clubs_rows_without_a_club_fails_loudly(two_clubs, strict):
    for model in models():
        if model.__name__ in SITE_WIDE:
            continue
        with pytest.raises(ScopeError):
            list(model.objects.all()[:1])
        with pytest.raises(ScopeError):
            model.objects.count()
    assert Club.objects.count() == 2  # the site's own rows need no scope


def test_a_player_reaches_only_their_clubs_rows_through_their_related_rows(two_clubs):
    with scopes_disabled():
        north_gl, south_gl = (Player.objects.get(club=club, short_name=MIXED_MEMBERS[1]) for club in two_clubs)
    with scope(club=two_clubs[0].pk):
        assert north_gl.results.exists() and not south_gl.results.exists()
        assert north_gl.standings.exists() and not south_gl.standings.exists()


def test_every_way_in_says_whose_rows_it_reads(two_clubs, strict, client, admin_user):
    """With queries outside any scope refused, each club's pages, the admin and the commands answer:
    none reads a club's rows without saying which club, or that it reads the whole site."""
    for club in two_clubs:
        with scopes_disabled():
            player = Player.objects.filter(club=club).first()
            matchday = Matchday.objects.filter(club=club).first()
        for path in (
            "",
            "standings/",
            "players/",
            f"players/{player.pk}/",
            f"matchdays/{matchday.number}/",
            "seasons/",
            "seasons/winter/",
            "seasons/spring/",
            "games/solitaire/",
            "nights/",
            "pages/laws/",
        ):
            assert client.get(f"/{club.slug}/{path}").status_code == 200, f"/{club.slug}/{path}"
        out = io.StringIO()
        call_command("recompute_ratings", "--club", club.slug, stdout=out)
        call_command("export_ratings", "--club", club.slug, stdout=out)
    assert client.get("/").status_code == 200
    client.force_login(admin_user)
    for path in ("/admin/", "/admin/league/matchday/", "/admin/league/player/", "/admin/ratings/ratingtable/"):
        assert client.get(path).status_code == 200, path
