"""One game night: every matchday of a day with its cards (as the home page's latest matchdays), the
night's winners and, per rating table, its biggest movers (each player's changes of that day added
up). A fixed number of queries, whatever the night's size."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Count, QuerySet

from league.models import Matchday, Player

from ..models import RatingEntry, RatingTable
from .boards import twins
from .overview import LatestMatchday, matchday_cards
from .standings import spans, table_order

MOVERS = 3  # the biggest rises and the biggest falls of each table


@dataclass
class Winner:
    matchday: Matchday
    players: list[Player]  # everyone placed first: partners, or a tie


@dataclass
class Mover:
    player: Player
    matchdays: int  # of the night, in the table
    change: float


@dataclass
class Movers:
    table: RatingTable
    rows: list[Mover]  # the biggest rises then the biggest falls, biggest change first
    also: RatingTable | None = None  # a category table that repeats this one, left out

    @property
    def title(self) -> str:
        return f"{self.table.name}{f' · {self.also.name}' if self.also else ''} rating"


@dataclass
class Night:
    day: date
    cards: list[LatestMatchday]  # in play order
    winners: list[Winner]
    movers: list[Movers]
    previous: date | None  # the nights before and after it
    following: date | None


def night(day: date, tables: list[RatingTable]) -> Night | None:
    """The night of `day` (None when no matchday was played on it); `tables` are every rating table,
    with their games."""
    matchdays = list(Matchday.objects.filter(date=day).order_by("number").select_related("game"))
    if not matchdays:
        return None
    cards = matchday_cards(matchdays, tables)
    winners = [Winner(card.matchday, [r.player for r in card.results if r.won]) for card in cards]
    players = {r.player.pk: r.player for card in cards for r in card.results}
    days = Matchday.objects.values_list("date", flat=True)
    return Night(
        day,
        cards,
        winners,
        movers(matchdays, tables, players),
        days.filter(date__lt=day).order_by("-date").first(),
        days.filter(date__gt=day).order_by("date").first(),
    )


def movers(matchdays: list[Matchday], tables: list[RatingTable], players: dict[int, Player]) -> list[Movers]:
    """Per rating table the night's matchdays count in (a category that only repeats its one game's
    table left out), the players whose ratings rose and fell most over the night."""
    totals: dict[int, dict[int, list]] = {}
    entries = RatingEntry.objects.filter(matchday__in=matchdays).values_list("table_id", "player_id", "delta")
    for table_id, player_id, delta in entries:
        total = totals.setdefault(table_id, {}).setdefault(player_id, [0, 0.0])
        total[0] += 1
        total[1] += delta
    repeated = twins(tables, spans(tables, counted=False))
    by_pk = {t.pk: t for t in tables}
    also = {game.pk: by_pk[pk] for pk, game in repeated.items()}
    found = []
    for table in sorted((t for t in tables if t.pk in totals and t.pk not in repeated), key=table_order):
        changes = [Mover(players[pk], n, change) for pk, (n, change) in totals[table.pk].items()]
        found.append(Movers(table, biggest(changes, table.against_deals), also.get(table.pk)))
    return found


def biggest(changes: list[Mover], fine: bool = False) -> list[Mover]:
    """The `MOVERS` biggest rises, then the biggest falls, biggest change first, with everyone tied
    at the cut (a change shown the same: to a tenth, or a hundredth where `fine`, against deals):
    dropping a player tied with one shown named a winner the page had no reason to prefer."""
    shown = (lambda m: round(m.change, 2)) if fine else (lambda m: round(m.change, 1))
    members = [m for m in changes if m.player.ranked]  # a guest or stand-in is rated, never a mover
    ordered = sorted(members, key=lambda m: (-m.change, m.player.short_name))
    rises = [m for m in ordered if m.change > 0]
    falls = [m for m in ordered if m.change < 0][::-1]  # the biggest fall first, for the cut
    kept = []
    for side in (rises, falls):
        cut = side[:MOVERS]
        kept.append(cut + [m for m in side[MOVERS:] if cut and shown(m) == shown(cut[-1])])
    return [*kept[0], *kept[1][::-1]]


def nights() -> QuerySet:
    """Every night (a day with a matchday), newest first, with its number of matchdays: values of
    one grouped query, for a page to slice."""
    return Matchday.objects.order_by().values("date").annotate(matchdays=Count("pk")).order_by("-date")


@dataclass
class NightRow:
    day: date
    matchdays: int
    games: list[str]  # the names of the games played, in play order


def listed(rows: list[dict]) -> list[NightRow]:
    """`rows` (a page of `nights`) with the games of each night. One query."""
    days = [row["date"] for row in rows]
    games: dict[date, list[str]] = {day: [] for day in days}
    played = Matchday.objects.filter(date__in=days).order_by("date", "number").values_list("date", "game__name")
    for day, name in played:
        if name not in games[day]:
            games[day].append(name)
    return [NightRow(row["date"], row["matchdays"], games[row["date"]]) for row in rows]
