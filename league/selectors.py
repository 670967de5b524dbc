"""Reads of league data shaped for pages (rating reads are in ratings.selectors)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import connection
from django.db.models import Avg, Count, Max, Min

from league.models import Game, Matchday, Player, Result
from league.placings import BY_PLACINGS, LOWEST_WINS


@dataclass
class HeadToHead:
    opponent: Player
    game: Game
    ahead: int = 0
    behind: int = 0
    tied: int = 0

    @property
    def met(self) -> int:
        return self.ahead + self.behind + self.tied


# (opponent id, game, [ahead, behind, tied])
HeadToHeadCount = tuple[int, Game, list[int]]


def head_to_head_counts(player: Player, games: dict[int, Game] | None = None) -> list[HeadToHeadCount]:
    """How `player` finished against every other player, per game, by real placing (penalties
    aside): by game name, then most met first. Partners (on the same side) are not opponents: the
    player's page counts them apart (`ratings.selectors.sides.partnerships`). The counts are summed by
    the database over the results of the matchdays they played (one row per opponent and game, not one per result: a
    busy player's thousands of results cost more to bring into Python than to count); the games
    are read too, but those in `games` (by id: a page that has read them already). Pages turn a
    page of these into records with `head_to_head_records`, so only the opponents shown are read."""
    with connection.cursor() as cursor:
        cursor.execute(_HEAD_TO_HEAD_SQL, [player.pk])
        rows = cursor.fetchall()
    games = dict(games or {})
    missing = {game_id for _, game_id, *_ in rows} - games.keys()
    if missing:
        games.update(Game.objects.in_bulk(missing))
    names = {game_id: game.name for game_id, game in games.items()}
    rows.sort(key=lambda row: (names[row[1]], -(row[2] + row[3] + row[4]), row[0]))
    return [(other, games[game_id], [ahead, behind, tied]) for other, game_id, ahead, behind, tied in rows]


# Only the models' own table names are written in; the player is a parameter.
_HEAD_TO_HEAD_SQL = f"""
SELECT other.player_id, matchday.game_id,
       SUM(CASE WHEN mine.placing < other.placing THEN 1 ELSE 0 END),
       SUM(CASE WHEN mine.placing > other.placing THEN 1 ELSE 0 END),
       SUM(CASE WHEN mine.placing = other.placing THEN 1 ELSE 0 END)
FROM {Result._meta.db_table} mine
JOIN {Result._meta.db_table} other ON other.matchday_id = mine.matchday_id AND other.player_id <> mine.player_id
  AND (mine.side = '' OR other.side <> mine.side)
JOIN {Matchday._meta.db_table} matchday ON matchday.id = mine.matchday_id
WHERE mine.player_id = %s
GROUP BY other.player_id, matchday.game_id
"""  # noqa: S608


def head_to_head_records(counts: Sequence[HeadToHeadCount]) -> list[HeadToHead]:
    """Records for some of `head_to_head_counts` (e.g. one page), with their opponents (one query)."""
    players = Player.objects.in_bulk([other for other, _, _ in counts])
    return [HeadToHead(players[other], game, *record) for other, game, record in counts]


@dataclass
class PlayerPoints:
    """A player's points at one game's score sheets: how many, their average and their best."""

    player: Player
    results: int
    average: float
    best: int


RECORDS = 5  # the club's best single scores shown on a game's page


def game_points(game: Game) -> tuple[list[PlayerPoints], list[Result]]:
    """For a game scored by points: each player's average and best points (the best average first;
    "best" the fewest where the lowest score wins), and the club's record scores, the earliest first
    among equals. Three queries (none for a game scored by placings, whose points give nothing)."""
    if game.scoring == BY_PLACINGS:
        return [], []
    lowest = game.scoring == LOWEST_WINS
    scored = Result.objects.filter(matchday__game=game, score__isnull=False)
    rows = list(
        scored.values("player_id")
        .annotate(results=Count("id"), average=Avg("score"), best=Min("score") if lowest else Max("score"))
        .order_by(*(("average", "best") if lowest else ("-average", "-best")), "player_id")
    )
    if not rows:
        return [], []
    players = Player.objects.in_bulk([row["player_id"] for row in rows])
    by_player = [PlayerPoints(players[row["player_id"]], row["results"], row["average"], row["best"]) for row in rows]
    order = "score" if lowest else "-score"
    records = scored.select_related("player", "matchday").order_by(
        order, "matchday__date", "matchday__number", "player__short_name"
    )
    return by_player, list(records[:RECORDS])


# Off the (date, number) index of play order; written out, as the ORM's two `first()` queries cost a
# matchday page more to compile than to run. Only the model's table name is written in.
_NEIGHBOURS_SQL = (
    f"SELECT (SELECT number FROM {Matchday._meta.db_table}"  # noqa: S608
    ' WHERE "date" < %s OR ("date" = %s AND number < %s) ORDER BY "date" DESC, number DESC LIMIT 1),'
    f" (SELECT number FROM {Matchday._meta.db_table}"
    ' WHERE "date" > %s OR ("date" = %s AND number > %s) ORDER BY "date", number LIMIT 1)'
)


def neighbours(matchday: Matchday) -> tuple[int | None, int | None]:
    """The numbers of the matchdays just before and just after `matchday` in play order (by date,
    then number; None at either end), so that a back-dated matchday's links follow the evenings as
    played: a matchday page's links. One query."""
    day, number = connection.ops.adapt_datefield_value(matchday.date), matchday.number
    with connection.cursor() as cursor:
        cursor.execute(_NEIGHBOURS_SQL, [day, day, number, day, day, number])
        return tuple(cursor.fetchone())
