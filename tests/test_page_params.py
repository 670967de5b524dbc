"""A cached page reads only the query parameters declared beside its view, and its cache key is a pure
function of what the page depends on. A parameter read without being declared would be ignored for
every visitor (their page is stored under the declared parameters only), so rendering every cached
page with a query that notes each name read catches it."""

import csv
import io
from datetime import date

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse, QueryDict
from django.urls import URLResolver, get_resolver, get_urlconf

from league import services as league_services
from league.models import Deal, Game, Matchday, Page, Player, Season
from ratings.models import RatingTable
from tools.generate_deals import generate_attempts, generate_seeds
from web.clubs.addresses import club_and_token, club_slug
from web.deals.importing import ATTEMPT_COLUMNS, SEED_COLUMNS, import_attempts, import_seeds
from web.page_cache import page_key
from web.page_cache import params as page_params
from web.page_cache.params import PageParams, cached_page


def test_the_key_of_a_stored_page_is_the_same_whatever_the_query_order():
    one = page_key("/card-games/", {"a-page": "2", "all": "1"})
    assert one == page_key("/card-games/", {"all": "1", "a-page": "2"})
    assert one.startswith("page:") and len(one) == len("page:") + 32


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/card-games/standings/", {}),
        ("/card-games/", {"all": "1"}),
        ("/card-games/", {"all": ""}),
        ("/card-games/?all=1", {}),
    ],
)
def test_each_part_of_a_page_address_changes_its_key(path, params):
    assert page_key(path, params) != page_key("/card-games/", {})


def test_a_query_that_could_be_two_others_has_a_key_of_its_own():
    # A download of "csv&table=results" is refused: it must not be the key of the table's download.
    download = page_key("/card-games/", {"export": "csv", "table": "results"})
    assert page_key("/card-games/", {"export": "csv&table=results"}) != download
    # Nor can a path holding "?" stand for a shorter path with a query.
    assert page_key("/a?export=csv", {}) != page_key("/a", {"export": "csv"})


def _no_tables():
    raise AssertionError("the league's tables were read for a page that does not page by them")


def test_declared_parameters_are_read_one_way_and_others_left_out():
    declared = PageParams(sections=("results",), choices={"all": frozenset({"1"})}, exports=True)
    query = QueryDict("results-page=02&all=%201&export=csv&table=results&utm_source=x&results-2-page=1")
    assert declared.read(query, _no_tables) == {"results-page": "2", "all": "1", "export": "csv", "table": "results"}
    assert declared.read(QueryDict("results-page=x"), _no_tables) is None  # the view answers 404
    assert declared.read(QueryDict("all=2"), _no_tables) is None
    assert PageParams().read(QueryDict("export=csv&results-page=2"), _no_tables) == {}


def test_a_page_of_tables_pages_by_each_tables_slug_and_its_second_name():
    declared = PageParams(tables=True)
    assert declared.read(QueryDict("hearts-page=3&hearts-2-page=4&other-page=5"), lambda: {"hearts"}) == {
        "hearts-page": "3",
        "hearts-2-page": "4",
    }
    assert declared.read(QueryDict(""), _no_tables) == {}
    assert declared.names({"hearts"}) == {"hearts-page", "hearts-2-page"}


def test_a_search_is_never_stored():
    declared = PageParams(sections=("players",), uncached=("q",))
    assert declared.read(QueryDict("q=GL"), _no_tables) is None
    assert declared.read(QueryDict("q=%20&players-page=2"), _no_tables) == {"players-page": "2"}


class RecordingQuery(QueryDict):
    """A query that notes in `reads` every name looked up in it or in its copies once it is made."""

    reads: set[str] | None = None  # nothing is noted while the query is being filled

    def __init__(self, *args, reads: set[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.reads = reads

    def _note(self, key):
        if self.reads is not None:
            self.reads.add(key)

    def __getitem__(self, key):
        self._note(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self._note(key)
        return super().__contains__(key)

    def get(self, key, default=None):
        self._note(key)
        return super().get(key, default)

    def getlist(self, key, default=None):
        self._note(key)
        return super().getlist(key, default)

    def __deepcopy__(self, memo):
        result = RecordingQuery(self.urlencode(), mutable=True, encoding=self.encoding, reads=self.reads)
        return result

    __copy__ = copy = lambda self: self.__deepcopy__({})  # noqa: E731


def read_names(rf, monkeypatch, view, path: str, queries: list[dict], **kwargs) -> set[str]:
    """Every query parameter `view` looks up while answering `path` with each of `queries` (plus one
    parameter nobody declares), whether the view is handed the cached values or the query as it came."""
    reads: set[str] = set()
    monkeypatch.setattr(page_params, "QueryDict", lambda *a, **k: RecordingQuery(*a, reads=reads, **k))
    for query in queries:
        request = rf.get(path, {**query, "nobody-declares-this": "1"})
        request.GET = RecordingQuery(request.GET.urlencode(), reads=reads)
        request.user = AnonymousUser()
        request.club, request.revision_token = club_and_token(club_slug(request.path_info))  # as the middleware
        response = view(request, **kwargs)
        assert response.status_code in (200, 400), (path, query, response.status_code)
    return reads


def queries_of(declared: PageParams) -> list[dict]:
    """No parameter, each value of each choice, a download, and each name that makes a page unstored."""
    queries: list[dict] = [{}]
    queries += [{name: value} for name, values in declared.choices.items() for value in sorted(values)]
    if declared.exports:
        queries += [{"export": "csv", "table": "results"}, {"export": "json", "table": "no-such-table"}]
    queries += [{name: "GL"} for name in declared.uncached]
    return queries


@cached_page(PageParams(choices={"all": frozenset({"1"})}))
def _reads_a_colour_it_did_not_declare(request):
    return HttpResponse(f"{request.GET.get('all')} {request.GET.get('colour', 'red')}")


def test_a_view_reading_a_parameter_it_did_not_declare_is_caught(rf, monkeypatch, db):
    declared = _reads_a_colour_it_did_not_declare.page_params
    reads = read_names(rf, monkeypatch, _reads_a_colour_it_did_not_declare, "/x/", queries_of(declared))
    assert reads - declared.names(()) == {"colour"}
    # ...which is what a visitor's page would ignore: the view is handed the declared values only.
    assert _reads_a_colour_it_did_not_declare(rf.get("/x/", {"colour": "blue", "all": "1"})).content == b"1 red"


def cached_routes() -> dict[str, object]:
    """Every route whose view may be cached, by its name, with the view."""
    found = {}

    def walk(patterns, namespace):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, pattern.namespace or namespace)
            elif hasattr(pattern.callback, "page_params"):
                found[f"{namespace}:{pattern.name}"] = pattern.callback

    walk(get_resolver(get_urlconf()).url_patterns, "")  # a club's addresses
    return found


def _csv(header, rows) -> bytes:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *rows])
    return out.getvalue().encode()


@pytest.fixture
def mixed(club):
    """The club's matchdays, a small solitaire game, and a text page."""
    import_seeds(_csv(SEED_COLUMNS, generate_seeds(3)))
    import_attempts(_csv([*ATTEMPT_COLUMNS, "rated"], generate_attempts(8, 280, 3)))
    league_services.save_page(Page(slug="laws", title="Laws", body="Be kind."))
    Season.objects.create(name="November", slug="november", first_day=date(2025, 11, 1), last_day=date(2025, 11, 30))


def cases() -> dict[str, list[tuple[str, dict]]]:
    """The addresses to render each cached route with: a page of each kind in the mixed league."""
    solitaire = Game.objects.get(name="Solitaire")
    deal = Deal.objects.filter(attempts__isnull=False).select_related("level__game").first()
    solitaire_player = Player.objects.filter(attempts__isnull=False).first()
    club_player = Player.objects.get(short_name="GL")
    first = Matchday.objects.order_by("number").first()
    number, day = first.number, first.date.isoformat()
    return {
        "league:home": [("/card-games/", {})],
        "league:standings": [("/card-games/standings/", {})],
        "league:game": [
            ("/card-games/games/hearts/", {"slug": "hearts"}),
            (solitaire.get_absolute_url(), {"slug": "solitaire"}),
        ],
        "league:deal": [
            (
                deal.get_absolute_url(),
                {"slug": "solitaire", "variant": deal.level.variant, "level": deal.level.level, "number": deal.number},
            )
        ],
        "league:players": [("/card-games/players/", {})],
        "league:player": [(p.get_absolute_url(), {"pk": p.pk}) for p in (club_player, solitaire_player)],
        "league:matchday": [(f"/card-games/matchdays/{number}/", {"number": number})],
        "league:night": [(f"/card-games/nights/{day}/", {"day": day})],
        "league:nights": [("/card-games/nights/", {})],
        "league:page": [("/card-games/pages/laws/", {"slug": "laws"})],
        "league:seasons": [("/card-games/seasons/", {})],
        "league:season": [("/card-games/seasons/november/", {"slug": "november"})],
        "league:honours": [("/card-games/honours/", {})],
        "ratings:methods": [("/card-games/methods/", {})],
        "ratings:odds": [("/card-games/odds/", {})],
        # The API's reads (web/api/): cached as the club's pages are.
        "api:clubs": [("/api/clubs/", {})],
        **{
            f"api:{name}": [(f"/api/card-games/{name}/", {"club": "card-games"})]
            for name in ("tables", "standings", "players", "matchdays", "games")
        },
        "api:player": [(f"/api/card-games/players/{club_player.pk}/", {"club": "card-games", "pk": club_player.pk})],
        "api:matchday": [(f"/api/card-games/matchdays/{number}/", {"club": "card-games", "number": number})],
    }


def test_every_cached_page_reads_only_the_parameters_declared_beside_its_view(rf, monkeypatch, mixed):
    routes, addresses = cached_routes(), cases()
    assert set(routes) == set(addresses), "each cached route needs an address here"
    slugs = set(RatingTable.objects.values_list("slug", flat=True))
    for name, view in routes.items():
        declared = view.page_params
        for path, kwargs in addresses[name]:
            reads = read_names(rf, monkeypatch, view, path, queries_of(declared), **kwargs)
            assert reads <= declared.names(slugs), f"{name} reads {sorted(reads - declared.names(slugs))}"
            if declared.exports:
                assert "export" in reads  # the recording sees the view's reads


@pytest.mark.parametrize(
    "url", ["/card-games/?export=%20csv&table=overall", "/card-games/standings/?all=%201&export=csv&table=overall"]
)
def test_a_parameter_with_spaces_gets_visitors_and_staff_one_answer(client, admin_client, club, settings, url):
    settings.LEAGUE_INACTIVE_DAYS = 14  # the club's players are inactive: all=1 shows them
    visitor, staff = client.get(url), admin_client.get(url)
    assert visitor.status_code == staff.status_code == 200
    assert visitor["Content-Type"].startswith("text/csv") and staff.content == visitor.content
    assert b"GL" in visitor.content
