"""What the league's pages show of a game played against deals: its standings (on the standings
page), its whole page at the game's address (standings, average deal ratings by variant and level,
power rankings, the latest session) and a player's attempts (on the player's page)."""

from __future__ import annotations

from django.shortcuts import render

from league.models import Game, Player, club_setting
from ratings.deals import selectors as deal_selectors
from ratings.models import RatingTable
from ratings.selectors.standings import ranked_standings, standing_rows
from web.deals.tables import AttemptTable, DealStandingsTable, PowerRankingsTable, level_grid_table
from web.pages import charts
from web.pages.formatting import format_fine_rating, long_date
from web.pages.paging import WHOLE, paginate
from web.pages.sections import Exports, Section, player_names


def standings_section(
    section: Section, table: RatingTable, show_all: bool, latest=None, *, whole: bool = False
) -> Section:
    """The deal game's standings, hiding players with no attempt in the table's inactivity window
    before the game's latest session (unless `show_all`), with a notice saying so; all of it on one
    page when `whole`."""
    latest = latest or deal_selectors.latest_session(table)
    since = deal_selectors.active_since(table, latest)
    shown_since = None if show_all else since
    ranked = ranked_standings(table, active_since=shown_since)
    page = (
        paginate(ranked, None, WHOLE)
        if whole
        else paginate(ranked, section.page_number, club_setting("standings_page_size"))
    )
    rows = standing_rows(table, page, club_setting("provisional_matchdays"))
    hidden = shown_since is not None and table.standings.filter(matchday_date__lt=shown_since).exists()
    days = table.method_params()["inactive_days"]
    notice = ""
    if hidden:
        latest_day = long_date(latest.date)
        notice = f"Players with no attempt in the {days} days before the latest session ({latest_day}) are hidden."
    elif show_all and since is not None:
        notice = "Showing everyone."
    section.show(lambda names: DealStandingsTable(rows, names), page, title=table.name, rating_table=table)
    section.rows, section.notice, section.hidden, section.show_all = rows, notice, hidden, show_all
    return section


def game_page(request, game: Game):
    table = game.rating_table
    exports = Exports(request)
    latest = deal_selectors.latest_session(table)
    standings = standings_section(exports.section("standings"), table, request.GET.get("all") == "1", latest)
    levels_section, power, session = (exports.section(key) for key in ("levels", "power-rankings", "latest-session"))
    levels = deal_selectors.level_rows(table)
    grid = deal_selectors.level_grid(levels)
    power_page = paginate(deal_selectors.power_rankings(levels), power.page_number, club_setting("standings_page_size"))
    session_page = paginate(
        deal_selectors.session_attempts(latest) if latest else [],
        session.page_number,
        club_setting("standings_page_size"),
    )
    attempts = deal_selectors.attempt_rows(session_page.object_list, table.method_params()["first_attempt_only"])
    exports.names = player_names([*(row.player for row in standings.rows), *(row.player for row in attempts)])
    levels_section.show(lambda names: level_grid_table(grid), title="Average deal rating by variant and level")
    power.show(lambda names: PowerRankingsTable(power_page.object_list), power_page, title="Power rankings")
    session.show(
        lambda names: AttemptTable(attempts, names, exclude=("date", "explanation", "player_before", "player_after")),
        session_page,
        title="Latest session",
    )
    ctx = {
        "game": game,
        "table": table,
        "standings": standings,
        "levels": levels_section,
        "power": power,
        "latest": latest,
        "session": session,
    }
    return exports.response() or render(request, "deals/game.html", ctx)


def player_section(section: Section, player: Player, table: RatingTable, until=None) -> Section:
    """The player page's section for a deal game: every attempt (up to `until`) explained, newest
    first, and their rating chart."""
    attempts = deal_selectors.player_attempts(player, table, until)
    page = paginate(attempts, section.page_number, club_setting("grid_page_size"))
    rows = deal_selectors.attempt_rows(page.object_list, table.method_params()["first_attempt_only"])  # newest first
    points = [
        charts.Point(day, rating, f"{long_date(day)}: {format_fine_rating(rating)}")
        for day, rating in deal_selectors.player_history(player, table, until)
    ]
    section.show(
        lambda names: AttemptTable(
            rows, names, exclude=("player", "position", "deal", "result", "deal_before", "deal_after")
        ),
        page,
        title=table.name,
        newest_first=True,
        rating_table=table,
    )
    section.partial = "deals/_player_section.html"
    section.chart = charts.rating_chart(
        [charts.Series(table.name, points)], title=f"{table.name} rating of {player.short_name}"
    )
    return section
