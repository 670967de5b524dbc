"""The public pages. Each view gathers page-shaped data from the selectors and renders it; every
table on a page can also be downloaded as CSV or JSON (`?export=csv&table=KEY`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db.models import F
from django.http import HttpResponse
from django.shortcuts import render
from django.template import loader
from django.utils import timezone
from django.views.decorators.http import condition
from django_tables2.export import TableExport

from league import charts
from league.errors import NotFound
from league.formatting import format_rating
from league.models import Game, Matchday, Page, Player, Result, Revision
from league.names import PlainNames, PlayerNames
from league.render import table_html
from league.selectors import head_to_head
from league.tables import (
    EntryTable,
    HeadToHeadTable,
    MatchdayResultsTable,
    PlayerEntryTable,
    StandingsTable,
    grid_table,
)
from ratings import selectors
from ratings.models import RatingTable, Standing

EXPORT_FORMATS = ("csv", "json")


def _get_or_404(queryset, message: str, **lookup):
    try:
        return queryset.get(**lookup)
    except queryset.model.DoesNotExist:
        raise NotFound(message) from None


def bad_request(request, message: str):
    """A 400 page that says what was wrong with the request (nothing is changed by it)."""
    return render(request, "400.html", {"message": message}, status=400)


def _revision(request) -> Revision:
    if not hasattr(request, "_revision"):
        request._revision = Revision.current()
    return request._revision


def _etag(request, *args, **kwargs) -> str:
    tag = f"r{_revision(request).number}"
    if settings.LEAGUE_INACTIVE_DAYS:  # who counts as inactive changes with the date
        tag += f"-{timezone.localdate():%Y%m%d}"
    return f'"{tag}"'


def _last_modified(request, *args, **kwargs):
    changed = _revision(request).changed_at
    if settings.LEAGUE_INACTIVE_DAYS:
        midnight = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
        changed = max(changed, midnight)
    return changed


# Every public page depends on the league's data only, so one revision number stands for all of
# them: a conditional request for an unchanged page is answered 304 after one query.
public_page = condition(etag_func=_etag, last_modified_func=_last_modified)


def player_names(request, players) -> PlayerNames:
    """A renderer of player names with rating tooltips for the players a page shows (one query)."""
    return PlayerNames(selectors.current_ratings({p.pk for p in players}))


class Exports:
    """The tables a page offers for download, each built on demand with plain-text names."""

    def __init__(self, request):
        self.request = request
        self.builders: dict[str, Callable] = {}
        self.names: PlayerNames | None = None  # set by the view once it knows who the page shows

    def add(self, key: str, build: Callable, page=None, param: str | None = None) -> dict:
        """Register `build(names)` under `key`; returns the section's download key, its pager and
        its table's HTML, built when the template renders it (after the view knows the names)."""
        self.builders[key] = build
        return {
            "key": key,
            "pager": pager(self.request, param or _page_param(key), page),
            "html": lambda: table_html(build(self.names)),
        }

    @property
    def wanted(self) -> bool:
        return "export" in self.request.GET

    def response(self):
        """The download asked for, or None when the page itself was asked for."""
        if not self.wanted:
            return None
        export_format, key = self.request.GET.get("export"), self.request.GET.get("table")
        if export_format not in EXPORT_FORMATS:
            return bad_request(self.request, f"export must be one of {', '.join(EXPORT_FORMATS)}.")
        if key not in self.builders:
            return bad_request(self.request, f"table must be one of {', '.join(self.builders)}.")
        return TableExport(export_format, self.builders[key](PlainNames())).response(f"{key}.{export_format}")


def _page_param(table_or_key) -> str:
    return f"{getattr(table_or_key, 'slug', table_or_key)}-page"


def pager(request, param: str, page) -> dict | None:
    """Links to the neighbouring pages of one table, keeping the page numbers of the page's other
    tables; None when everything fits on one page."""
    if page is None or page.paginator.num_pages < 2:
        return None

    def url(number):
        query = request.GET.copy()
        query[param] = number
        query.pop("export", None)
        return "?" + query.urlencode()

    return {
        "page": page,
        "previous": url(page.previous_page_number()) if page.has_previous() else None,
        "next": url(page.next_page_number()) if page.has_next() else None,
    }


def _rating_section(request, exports: Exports, table: RatingTable) -> tuple[dict, list[Player]]:
    grid = selectors.rating_grid(table, request.GET.get(_page_param(table)))
    show_game = table.scope != RatingTable.Scope.GAME
    section = exports.add(
        table.slug,
        lambda names: grid_table(grid, names, show_game=show_game, ratings=True),
        grid.page,
    )
    return {**section, "rating_table": table}, grid.players


@public_page
def home(request):
    exports = Exports(request)
    tables = list(RatingTable.objects.in_page_order())
    played = set(Matchday.objects.order_by().values_list("game_id", flat=True).distinct())
    # Games nobody has played yet get no empty table here; their own page says so.
    tables = [t for t in tables if t.scope != RatingTable.Scope.GAME or t.game_id in played]
    sections, grids = [], []
    for table in tables:
        section, players = _rating_section(request, exports, table)
        sections.append(section)
        grids.append(players)
    columns = selectors.results_players(grids, settings.LEAGUE_GRID_PLAYERS)
    results_grid = selectors.results_grid(Matchday.objects.all(), columns, request.GET.get("results-page"))
    results = exports.add(
        "results",
        lambda names: grid_table(results_grid, names, show_game=True, ratings=False),
        results_grid.page,
    )
    exports.names = player_names(request, [p for players in grids for p in players])
    ctx = {"overall": sections[:1], "results": results, "sections": sections[1:]}
    return exports.response() or render(request, "league/home.html", ctx)


@public_page
def standings(request):
    exports = Exports(request)
    tables = list(RatingTable.objects.in_page_order())
    show_all = request.GET.get("all") == "1"
    days = settings.LEAGUE_INACTIVE_DAYS
    since = timezone.localdate() - timedelta(days=days) if days and not show_all else None
    hidden = since is not None and Standing.objects.filter(matchday_date__lt=since).exists()
    sections, shown = [], []
    for table in tables:
        rows, page = selectors.standings_page(
            table,
            request.GET.get(_page_param(table)),
            provisional_below=settings.LEAGUE_PROVISIONAL_MATCHDAYS,
            active_since=since,
        )
        if not rows and table.scope == RatingTable.Scope.GAME:
            continue
        shown.extend(row.player for row in rows)
        section = exports.add(
            f"standings-{table.slug}",
            lambda names, rows=rows: StandingsTable(rows, names),
            page,
            param=_page_param(table),
        )
        sections.append({**section, "rating_table": table})
    exports.names = player_names(request, shown)
    ctx = {"sections": sections, "hidden": hidden, "inactive_days": days, "show_all": show_all}
    return exports.response() or render(request, "league/standings.html", ctx)


@public_page
def game(request, slug):
    game = _get_or_404(
        Game.objects.select_related("category", "rating_table"), f"There is no game “{slug}”.", slug=slug
    )
    table = game.rating_table
    exports = Exports(request)
    section, players = _rating_section(request, exports, table)
    ranking, ranking_page = selectors.standings_page(
        table, request.GET.get("standings-page"), provisional_below=settings.LEAGUE_PROVISIONAL_MATCHDAYS
    )
    results_grid = selectors.results_grid(game.matchdays.all(), players, request.GET.get("results-page"))
    exports.names = player_names(request, [*players, *(row.player for row in ranking)])
    ctx = {
        "game": game,
        "section": section,
        "standings": exports.add(
            f"standings-{table.slug}",
            lambda names: StandingsTable(ranking, names),
            ranking_page,
            param="standings-page",
        ),
        "results": exports.add(
            "results",
            lambda names: grid_table(results_grid, names, show_game=False, ratings=False),
            results_grid.page,
        ),
    }
    return exports.response() or render(request, "league/game.html", ctx)


@public_page
def player(request, pk):
    player = _get_or_404(Player.objects, f"There is no player number {pk}.", pk=pk)
    exports = Exports(request)
    summary = selectors.player_standings(player, settings.LEAGUE_PROVISIONAL_MATCHDAYS)
    history = selectors.rating_history(player)
    chart = charts.rating_chart(
        [
            charts.Series(
                row["table"].name,
                [
                    charts.Point(day, rating, f"Matchday {number}, {day:%B} {day.day}: {format_rating(rating)}")
                    for day, number, rating in history.get(row["table"].pk, [])
                ],
            )
            for row in summary
        ],
        title=f"Rating history of {player.short_name}",
    )
    sections = []
    for row in summary:
        table = row["table"]
        entries, page = selectors.player_entries_page(player, table, request.GET.get(_page_param(table)))
        section = exports.add(
            f"history-{table.slug}",
            lambda names, entries=entries: PlayerEntryTable(entries),
            page,
            param=_page_param(table),
        )
        sections.append({**section, "rating_table": table})
    opponents, records = head_to_head(player, request.GET.get("head-to-head-page"), settings.LEAGUE_STANDINGS_PAGE_SIZE)
    exports.names = player_names(request, [player, *(r.opponent for r in opponents)])
    ctx = {
        "player": player,
        "summary": summary,
        "chart": chart,
        "sections": sections,
        "head_to_head": exports.add("head-to-head", lambda names: HeadToHeadTable(opponents, names), records),
    }
    return exports.response() or render(request, "league/player.html", ctx)


@public_page
def matchday(request, number):
    matchday = _get_or_404(Matchday.objects.select_related("game"), f"There is no matchday {number}.", number=number)
    exports = Exports(request)
    results = list(
        Result.objects.filter(matchday=matchday)
        .select_related("player")
        .order_by("placing", F("rated_placing").asc(nulls_first=True))
    )
    sections = [
        {
            **exports.add(f"ratings-{table.slug}", lambda names, e=entries: EntryTable(e, names)),
            "rating_table": table,
        }
        for table, entries in selectors.matchday_entries(matchday)
    ]
    exports.names = player_names(request, [r.player for r in results])
    ctx = {
        "matchday": matchday,
        "results": exports.add("results", lambda names: MatchdayResultsTable(results, names)),
        "sections": sections,
        "previous": Matchday.objects.filter(number__lt=number).order_by("-number").first(),
        "next": Matchday.objects.filter(number__gt=number).order_by("number").first(),
    }
    return exports.response() or render(request, "league/matchday.html", ctx)


@public_page
def page(request, slug):
    page = _get_or_404(Page.objects, f"There is no page “{slug}”.", slug=slug)
    return render(request, "league/page.html", {"page": page})


def locked_out(request, original_response=None, credentials=None):
    """django-axes' answer to a login refused after too many failures (AXES_LOCKOUT_CALLABLE)."""
    from django.contrib import admin

    username = (credentials or {}).get("username") or request.POST.get("username", "")
    ctx = {
        **admin.site.each_context(request),
        "username": username,
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
    }
    return render(request, "admin/locked_out.html", ctx, status=429)


def not_found(request, exception):
    """handler404: our own message for a NotFound, a plain one for any other missing page."""
    message = str(exception) if isinstance(exception, NotFound) else ""
    return render(request, "404.html", {"message": message, "request_path": request.path}, status=404)


def _without_request(template: str, status: int):
    # No request context: the database or a context processor may be what failed.
    html = loader.get_template(template).render({"league_name": settings.LEAGUE_NAME})
    return HttpResponse(html, status=status)


def server_error(request):
    """handler500."""
    return _without_request("500.html", 500)


def request_refused(request, exception):
    """handler400, for a request Django refuses (e.g. a host name not in ALLOWED_HOSTS)."""
    return _without_request("400.html", 400)
