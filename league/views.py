from django.shortcuts import get_object_or_404, render

from league.models import Game, Matchday, Page
from league.names import PlayerNames
from league.tables import StandingsTable, grid_table
from ratings import selectors
from ratings.models import RatingTable


def player_names(request) -> PlayerNames:
    """The request's renderer of player names with rating tooltips (see league.names)."""
    if not hasattr(request, "_player_names"):
        request._player_names = PlayerNames(selectors.current_ratings())
    return request._player_names


def _rating_sections(request, tables, players):
    names = player_names(request)
    return [
        {
            "table": table,
            "grid": grid_table(
                selectors.rating_grid(table, players),
                names,
                show_game=table.scope != RatingTable.Scope.GAME,
                ratings=True,
            ),
        }
        for table in tables
    ]


def home(request):
    tables = list(RatingTable.objects.in_page_order())
    played = set(Matchday.objects.values_list("game_id", flat=True).distinct())
    # Games nobody has played yet get no empty table here; their own page says so.
    tables = [t for t in tables if t.scope != RatingTable.Scope.GAME or t.game_id in played]
    players = selectors.players_in_join_order()
    sections = _rating_sections(request, tables, players)
    results = grid_table(
        selectors.results_grid(Matchday.objects.all(), players),
        player_names(request),
        show_game=True,
        ratings=False,
    )
    ctx = {"overall": sections[:1], "results": results, "sections": sections[1:]}
    return render(request, "league/home.html", ctx)


def standings(request):
    tables = list(RatingTable.objects.in_page_order())
    by_table = selectors.standings(tables)
    names = player_names(request)
    ctx = {
        "sections": [
            {"table": t, "standings": StandingsTable(by_table[t.pk], names)}
            for t in tables
            if by_table[t.pk] or t.scope != RatingTable.Scope.GAME
        ]
    }
    return render(request, "league/standings.html", ctx)


def game(request, slug):
    game = get_object_or_404(Game.objects.select_related("category", "rating_table"), slug=slug)
    table = game.rating_table
    players = selectors.players_in_join_order()
    ctx = {
        "game": game,
        "table": table,
        "section": _rating_sections(request, [table], players)[0],
        "standings": StandingsTable(selectors.standings([table])[table.pk], player_names(request)),
        "results": grid_table(
            selectors.results_grid(game.matchdays.all(), players),
            player_names(request),
            show_game=False,
            ratings=False,
        ),
    }
    return render(request, "league/game.html", ctx)


def page(request, slug):
    return render(request, "league/page.html", {"page": get_object_or_404(Page, slug=slug)})
