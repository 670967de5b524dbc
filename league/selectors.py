"""Reads of league data shaped for pages (rating reads are in ratings.selectors)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Avg, Count, F, Max, Min, Q, QuerySet, Subquery

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
    rows = list(_opponents(player))
    games = dict(games or {})
    missing = {game_id for _, game_id, *_ in rows} - games.keys()
    if missing:
        games.update(Game.objects.in_bulk(missing))
    names = {game_id: game.name for game_id, game in games.items()}
    rows.sort(key=lambda row: (names[row[1]], -(row[2] + row[3] + row[4]), row[0]))
    return [(other, games[game_id], [ahead, behind, tied]) for other, game_id, ahead, behind, tied in rows]


def _opponents(player: Player) -> QuerySet:
    """(opponent id, game id, ahead, behind, tied): the other results at the player's matchdays, not
    on the player's side, counted per opponent and game. The player's own result is one join
    (`matchday__results`), named in one `filter()` so that the counts' `F()`s share it."""
    mine = F("matchday__results__placing")
    return (
        Result.objects.filter(
            Q(matchday__results__player=player),
            Q(matchday__results__side="") | ~Q(side=F("matchday__results__side")),
        )
        .exclude(player=player)
        .values_list("player_id", "matchday__game_id")
        .annotate(
            ahead=Count("pk", filter=Q(placing__gt=mine)),
            behind=Count("pk", filter=Q(placing__lt=mine)),
            tied=Count("pk", filter=Q(placing=mine)),
        )
        .order_by()
    )


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


def neighbours(matchday: Matchday) -> tuple[int | None, int | None]:
    """The numbers of the matchdays just before and just after `matchday` in play order (by date,
    then number; None at either end), so that a back-dated matchday's links follow the evenings as
    played: a matchday page's links. One query, each neighbour a step along the (date, number) index."""
    day, number = matchday.date, matchday.number
    numbers = Matchday.objects.values("number")
    # Each bounded by the day too, so that the index is entered at the day rather than walked from its end.
    earlier = numbers.filter(Q(date__lt=day) | Q(number__lt=number), date__lte=day).order_by("-date", "-number")
    later = numbers.filter(Q(date__gt=day) | Q(number__gt=number), date__gte=day).order_by("date", "number")
    return Matchday.objects.filter(pk=matchday.pk).values_list(Subquery(earlier[:1]), Subquery(later[:1])).get()
