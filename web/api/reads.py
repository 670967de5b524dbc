"""The API's reads: what the club's pages show, as JSON, through the selectors the pages use, so
that each read equals its page (tests/test_api_reads.py). Each runs in its club's scope (the API's
club addresses are the club's: web.clubs.addresses.club_slug), so another club's row is a 404, and
is stored in the page cache like a page (web/api/site.py)."""

from __future__ import annotations

from datetime import date

from django.core.paginator import EmptyPage, Paginator
from django.http import Http404
from django.utils import timezone
from ninja import Router
from ninja.errors import HttpError

from league.models import Club, Game, Matchday, Player, Result, club_setting
from ratings.deals import selectors as deal_selectors
from ratings.models import RatingTable
from ratings.selectors import as_at as ratings_at
from ratings.selectors import boards, overview, ranks
from ratings.selectors.players import player_standings, rating_history
from ratings.selectors.standings import matchday_entries, ranked_standings, standing_rows
from ratings.selectors.standings import spans as spans_of
from web.api import schemas
from web.league.as_at import active_since as active_since_at
from web.pages.as_at import read_days
from web.pages.paging import WHOLE, paginate

router = Router(tags=["reads"])
MATCHDAYS_PER_PAGE = 100


def club_of(request, club: str) -> Club:
    """The club the address names (the middleware found it), or a 404."""
    found = getattr(request, "club", None)
    if found is None or found.slug != club:
        raise Http404("No club has this address.")
    return found


def day_of(request) -> date | None:
    """`as_at` as the pages read it (web.pages.as_at), refused with a 400 naming it."""
    try:
        return read_days(request.GET, timezone.localdate()).day
    except ValueError as error:
        raise HttpError(400, str(error)) from None


@router.get("/clubs/", response=list[schemas.ClubOut], summary="Every club of the site")
def clubs(request):
    return [{"slug": c.slug, "name": c.name, "url": f"/{c.slug}/"} for c in Club.objects.order_by("name")]


def _table(table: RatingTable) -> dict:
    return {
        "slug": table.slug,
        "name": table.name,
        "scope": table.scope,
        "method": table.method,
        "game": table.game.slug if table.game else None,
        "category": table.category.name if table.category else None,
    }


@router.get("/{club}/tables/", response=list[schemas.TableOut], summary="The club's rating tables, in page order")
def tables(request, club: str):
    club_of(request, club)
    return [_table(t) for t in RatingTable.objects.in_page_order().select_related("game", "category")]


def _standing(row) -> dict:
    return {
        "rank": row.rank,
        "player_id": row.player.pk,
        "player": row.player.short_name,
        "rating": row.rating,
        "played": row.played,
        "last_played": row.last_played,
        "last_change": row.last_change,
        "provisional": row.provisional,
    }


def _today(table: RatingTable, latest: date | None, show_all: bool, below: int) -> tuple[list, bool]:
    """A table's standings today, as the standings page builds them (web.league.views.standings)."""
    if table.against_deals:  # its own inactivity window, by its game's latest session
        shown_since = None if show_all else deal_selectors.active_since(table, deal_selectors.latest_session(table))
        rows = standing_rows(table, paginate(ranked_standings(table, shown_since), None, WHOLE), below)
        hidden = shown_since is not None and table.standings.filter(matchday_date__lt=shown_since).exists()
        return rows, hidden
    board = ranks.standings_board(table, timezone.localdate(), latest, show_all)  # as every rank shown
    return boards.with_players(board.rows), bool(board.hidden)


def _at(table: RatingTable, day: date, show_all: bool, below: int) -> tuple[list, bool]:
    """A table's standings at the end of `day`, as the standings page's as-at (web.league.as_at)."""
    ranking = ratings_at.ranked_at(table, day, None if show_all else active_since_at(table, day), below)
    return ratings_at.standing_rows_at(table, day, ranking.rows, below), ranking.hidden


@router.get(
    "/{club}/standings/",
    response=schemas.StandingsOut,
    summary="Every table's standings, today or at the end of a day",
)
def standings(request, club: str, as_at: str | None = None, all: str | None = None):  # noqa: A002 (the page's)
    """`as_at` (YYYY-MM-DD) as the standings page's; `all=1` shows inactive players too. Each table
    whole, not paged."""
    club_of(request, club)
    day, show_all = day_of(request), request.GET.get("all") == "1"
    below = club_setting("provisional_matchdays")
    found = list(RatingTable.objects.in_page_order())
    latest = spans_of(found, counted=False).everything.last if day is None else None
    sections = []
    for table in found:
        rows, hidden = _today(table, latest, show_all, below) if day is None else _at(table, day, show_all, below)
        shown = [_standing(row) for row in rows]
        sections.append({"table": table.slug, "name": table.name, "hidden": hidden, "rows": shown})
    return {"as_at": day, "tables": sections}


@router.get("/{club}/players/", response=schemas.PlayersOut, summary="The players' directory, by name")
def players(request, club: str, as_at: str | None = None):
    club_of(request, club)
    day = day_of(request)
    if day is None:
        rows = overview.directory_rows(
            paginate(overview.player_directory("", "name"), None, WHOLE), timezone.localdate()
        )
    else:
        rows = ratings_at.directory_at("", "name", day)
    found = [
        {
            "id": r.player.pk,
            "short_name": r.player.short_name,
            "name": r.player.name,
            "rating": r.rating,
            "rank": r.rank,
            "matchdays": r.matchdays,
            "attempts": r.attempts,
            "last_played": r.last_played,
        }
        for r in rows
    ]
    return {"as_at": day, "players": found}


@router.get("/{club}/players/{pk}/", response=schemas.PlayerOut, summary="A player's tables and rating history")
def player(request, club: str, pk: int, as_at: str | None = None):
    """Each table the player is rated in (as the player's page: rank, rating, matchdays) with their
    matchdays in it, in play order."""
    club_of(request, club)
    day = day_of(request)
    found = Player.objects.filter(pk=pk).first()
    if found is None:
        raise Http404(f"There is no player number {pk}.")
    rated = list(RatingTable.objects.select_related("game"))
    below = club_setting("provisional_matchdays")
    if day is None:
        summary = player_standings(found, rated, timezone.localdate())
    else:  # as they stood at the end of a day, as the player's page
        summary = ratings_at.player_standings_at(found, rated, day, below)
    summary = [row for row in summary if not row["table"].against_deals]
    history = rating_history(found, [row["table"].pk for row in summary], day)
    tables_out = [
        {
            "table": row["table"].slug,
            "rank": row["rank"],
            "of": row["of"],
            "rating": row["standing"].rating,
            "played": row["standing"].played,
            "provisional": row["provisional"],
            "history": [
                {"date": p[0], "matchday": p[1], "rating": p[2], "change": p[3], "placing": p[4]}
                for p in history.get(row["table"].pk, [])
            ],
        }
        for row in summary
    ]
    return {"id": found.pk, "short_name": found.short_name, "name": found.name, "as_at": day, "tables": tables_out}


def _matchday_row(m: Matchday) -> dict:
    return {"number": m.number, "date": m.date, "game": m.game.slug, "rounds": m.rounds}


@router.get("/{club}/matchdays/", response=schemas.MatchdaysOut, summary="The matchdays, newest first")
def matchdays(request, club: str, page: int = 1):
    club_of(request, club)
    newest = Matchday.objects.select_related("game").order_by("-date", "-number")
    pages = Paginator(newest, MATCHDAYS_PER_PAGE, allow_empty_first_page=True)
    try:
        shown = pages.page(page)
    except EmptyPage:
        raise HttpError(404, f"There is no page {page}: the matchdays fill {pages.num_pages}.") from None
    rows = [_matchday_row(m) for m in shown.object_list]
    return {"page": page, "pages": pages.num_pages, "count": pages.count, "matchdays": rows}


def changes_of(matchday: Matchday) -> list[dict]:
    tables_by_id = {table.pk: table for table in RatingTable.objects.all()}
    return [
        {
            "table": table.slug,
            "changes": [
                {
                    "player_id": e.player_id,
                    "player": e.player.short_name,
                    "rating_before": e.rating_before,
                    "rating_after": e.rating_after,
                    "change": e.delta,
                }
                for e in entries
            ],
        }
        for table, entries in matchday_entries(matchday, tables_by_id)
    ]


@router.get("/{club}/matchdays/{number}/", response=schemas.MatchdayOut, summary="A matchday's results and changes")
def matchday(request, club: str, number: int):
    club_of(request, club)
    found = Matchday.objects.select_related("game").filter(number=number).first()
    if found is None:
        raise Http404(f"There is no matchday {number}.")
    results = Result.objects.filter(matchday=found).select_related("player").order_by("placing", "side", "pk")
    plays = [
        {
            "player_id": r.player_id,
            "player": r.player.short_name,
            "placing": r.placing,
            "rated_placing": r.rated_placing,
            "score": r.score,
            "side": r.side,
            "weight": r.weight,
            "left_early": r.left_early,
        }
        for r in results
    ]
    return {**_matchday_row(found), "results": plays, "ratings": changes_of(found)}


@router.get("/{club}/games/", response=list[schemas.GameOut], summary="The club's games")
def games(request, club: str):
    club_of(request, club)
    return [
        {
            "slug": g.slug,
            "name": g.name,
            "category": g.category.name if g.category else None,
            "official": g.official,
            "scoring": g.scoring,
            "against_deals": g.against_deals,
        }
        for g in Game.objects.select_related("category").order_by("name")
    ]
