"""Standings as at any day, read from the stored rating rows, equal a replay: a league holding only
the matchdays (and solitaire sessions) up to that day, rated afresh by the engine. Over many random
days, with every rating method, and on the mixed league (team play, solitaire, score sheets)."""

import random
from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError

from league.models import Category, DealSession, Game, Matchday, Player
from league.results import Play, TypedResult
from ratings.deals.services import delete_sessions
from ratings.methods import METHODS
from ratings.models import RatingTable
from ratings.selectors.as_at import count_played, ranked_at, ratings_at
from ratings.selectors.standings import provisional
from ratings.services.catalogue import save_category, save_game
from ratings.services.matchdays import delete_matchdays
from ratings.services.recompute import rebuild_all
from tests.conftest import csv_bytes, section, store, table_rows
from tests.test_method_tables import use
from tools.generate import generate, people
from web.importing import COLUMNS, import_results
from web.pages.formatting import format_rating

PROVISIONAL = 3
MATCHDAY_METHODS = [slug for slug, method in METHODS.items() if not method.against_deals]


def as_at(day: date) -> dict:
    """Every table's standings at the end of `day`, read from the stored rows: per player, the
    rating, rank, matchdays, last matchday, last change and provisional mark."""
    found = {}
    for table in RatingTable.objects.all():
        rows = ranked_at(table, day).rows
        count_played(table, day, rows)
        found[table.slug] = {
            r.player_id: (r.rating, r.rank, r.played, r.matchday_date, r.delta, provisional(table, r, PROVISIONAL))
            for r in rows
        }
    return found


def fresh() -> dict:
    """The same, of the league as it is now, rebuilt from nothing by the engine."""
    rebuild_all()
    found = {}
    for table in RatingTable.objects.all():
        standings = list(table.standings.all())
        found[table.slug] = {
            s.player_id: (
                s.rating,
                1 + sum(other.rating > s.rating for other in standings),
                s.played,
                s.matchday_date,
                s.delta,
                provisional(table, s, PROVISIONAL),
            )
            for s in standings
        }
    return found


def cut_after(day: date) -> None:
    """Leave only the matchdays and solitaire sessions up to `day`."""
    delete_matchdays(Matchday.objects.filter(date__gt=day).select_related("game"))
    delete_sessions(list(DealSession.objects.filter(date__gt=day)))


def random_days(rng: random.Random, first: date, last: date, count: int) -> list[date]:
    """`count` days between `first` and `last` (both ends among them), latest first."""
    span = (last - first).days
    days = {first, last, *(first + timedelta(days=rng.randint(0, span)) for _ in range(count - 2))}
    return sorted(days, reverse=True)


def four_month_league(seed: int) -> None:
    """Nine members, four months of Hearts, Spades and (unofficial) Pokemon, three to six at a
    table, and two-player Duel nights (Sedma rates only those), generated from `seed`."""
    category = Category(slug="trading-card-games", name="Trading card games")
    save_category(category)
    save_game(Game(name="Pokemon", slug="pokemon", category=category, official=False))
    rows = list(generate(0, 48, seed=seed, start=date(2025, 1, 1), end=date(2025, 4, 30), names=people(9)))
    import_results(csv_bytes(COLUMNS, rows))
    duel = Game.objects.create(name="Duel", slug="duel")
    rng = random.Random(seed)
    players = list(Player.objects.all())
    for n in range(12):
        pair = rng.sample(players, 2)
        day = date(2025, 1, 3) + timedelta(days=9 * n)
        store(
            Matchday(number=100 + n, date=day, game=duel, rounds=3),
            [TypedResult(Play(placing), p.short_name) for placing, p in enumerate(pair, start=1)],
        )


@pytest.fixture
def league(db):
    four_month_league(27)


@pytest.mark.parametrize("method", MATCHDAY_METHODS)
def test_standings_as_at_random_days_equal_a_replay_of_the_matchdays_up_to_them(league, settings, method):
    settings.LEAGUE_PROVISIONAL_MATCHDAYS = PROVISIONAL
    switched = []
    for table in RatingTable.objects.all():
        try:
            use(table.slug, method)
        except ValidationError:  # a method that cannot rate this table's matchdays (Sedma: two players only)
            continue
        switched.append(table.slug)
    assert switched, f"{method} rates none of the tables"
    rng = random.Random(method)
    first, last = (Matchday.objects.order_by(order).values_list("date", flat=True)[0] for order in ("date", "-date"))
    days = random_days(rng, first, last, 8)
    expected = {day: as_at(day) for day in days}
    assert any(expected[days[0]][slug] for slug in switched)
    for day in days:  # latest first: each replay holds fewer matchdays
        cut_after(day)
        assert fresh() == expected[day], f"{method} as at {day}"


def overall_page(client, day: date) -> dict[str, str]:
    html = client.get("/card-games/standings/", {"as_at": day.isoformat()}).content.decode()
    rows = table_rows(section(html, "overall-heading"))[1:]
    return {row[1].removesuffix("provisional").strip(): row[2] for row in rows}


def test_the_mixed_league_as_at_random_days_equals_a_replay(mixed_league, client, settings):
    """Team play (sides, weights), solitaire against deals and score sheets by the same members:
    every table, and the standings page's overall table, equal a league of only the days before."""
    settings.LEAGUE_PROVISIONAL_MATCHDAYS = PROVISIONAL
    first = Matchday.objects.order_by("date").values_list("date", flat=True)[0]
    last = max(
        Matchday.objects.order_by("-date").values_list("date", flat=True)[0],
        DealSession.objects.order_by("-date").values_list("date", flat=True)[0],
    )
    days = random_days(random.Random(27), first, last, 5)
    expected = {day: as_at(day) for day in days}
    pages = {day: overall_page(client, day) for day in days}
    deal_table = RatingTable.objects.get(game__slug="solitaire")
    assert any(expected[day][deal_table.slug] for day in days)  # solitaire played by then
    for day in days:
        cut_after(day)
        assert fresh() == expected[day], f"as at {day}"
        names = dict(Player.objects.values_list("pk", "short_name"))
        overall = RatingTable.objects.get(scope=RatingTable.Scope.OVERALL)
        shown = {names[s.player_id]: format_rating(s.rating) for s in overall.standings.all()}
        assert pages[day] == shown, f"the page as at {day}"


def test_every_as_at_page_of_the_mixed_league_answers(mixed_league, client):
    """The standings (and their comparison), the players, each member's page and each game's page
    as at days before, during and after the team and solitaire nights; a game played against deals
    says plainly that it shows today only."""
    days = ["2025-11-03", "2025-12-24", "2026-03-01", "2026-07-05", date.today().isoformat()]
    games = list(Game.objects.all())
    members = list(Player.objects.values_list("pk", flat=True))
    for day in days:
        assert client.get("/card-games/standings/", {"as_at": day}).status_code == 200
        assert client.get("/card-games/standings/", {"from": "2025-11-03", "to": day}).status_code == 200
        assert client.get("/card-games/players/", {"as_at": day, "sort": "rating"}).status_code == 200
        for pk in members:
            assert client.get(f"/card-games/players/{pk}/", {"as_at": day}).status_code == 200, (pk, day)
        for game in games:
            response = client.get(f"/card-games/games/{game.slug}/", {"as_at": day})
            if game.against_deals:
                assert response.status_code == 400
                assert "is played against deals; its page shows today only" in response.content.decode()
            else:
                assert response.status_code == 200, (game.slug, day)


def shown_when_hiding(table: RatingTable, day: date, since: date, below: int) -> tuple[list, bool]:
    """What a past day's standings show with inactive players hidden, worked out here from every
    player's standing that day (`ratings_at`, a seek per player, held to a replay above): those who
    played since `since`, ranked (ties share a rank), the provisional ones after them unranked;
    and whether anyone was left out."""
    everyone = ratings_at(table, day)
    active = [r for r in everyone if r.matchday_date >= since]
    settling = [r for r in active if provisional(table, r, below)]
    ranked = [r for r in active if not provisional(table, r, below)]
    shown = [
        (r.player_id, r.rating, 1 + sum(o.rating > r.rating for o in ranked), r.played, r.matchday_date, r.delta)
        for r in ranked
    ]
    shown += [(r.player_id, r.rating, None, r.played, r.matchday_date, r.delta) for r in settling]
    return shown, len(active) < len(everyone)


def hiding_cases(rng: random.Random, count: int) -> list[tuple[date, date]]:
    """(day, first day of activity) pairs over the league's span, windows of 1 to 60 days."""
    first, last = (Matchday.objects.order_by(order).values_list("date", flat=True)[0] for order in ("date", "-date"))
    return [(day, day - timedelta(days=rng.randint(1, 60))) for day in random_days(rng, first, last, count)]


def assert_hiding_matches(cases: list[tuple[date, date]], tables) -> set[bool]:
    hidden_seen = set()
    for table in tables:
        for day, since in cases:
            ranking = ranked_at(table, day, since, PROVISIONAL)
            got = [(r.player_id, r.rating, r.rank, r.played, r.matchday_date, r.delta) for r in ranking.rows]
            expected, hidden = shown_when_hiding(table, day, since, PROVISIONAL)
            assert (got, ranking.hidden) == (expected, hidden), f"{table.slug} as at {day}, active since {since}"
            hidden_seen.add(hidden)
    return hidden_seen


@pytest.mark.parametrize("method", MATCHDAY_METHODS)
def test_a_past_days_standings_hiding_inactive_players_read_the_days_of_activity_alone(league, method):
    """The standings as at a day, inactive players hidden, read each player's last row among the
    window's rows (not a seek per player): the same players, ratings, ranks, matchdays and
    provisional marks as every player's standing that day, under every method (those judging
    provisional from the state read it too), and `hidden` only when someone was left out."""
    tables = []
    for table in RatingTable.objects.all():
        if table.against_deals:
            continue
        try:
            tables.append(use(table.slug, method))
        except ValidationError:
            continue
    hidden_seen = assert_hiding_matches(hiding_cases(random.Random(method), 10), tables)
    assert hidden_seen == {True, False}  # both answers met, or the test could not fail on one


def test_the_mixed_leagues_past_standings_hiding_inactive_players_match_every_players_standing(mixed_league):
    tables = [table for table in RatingTable.objects.all() if not table.against_deals]
    assert {table.scope for table in tables} == set(RatingTable.Scope)
    assert_hiding_matches(hiding_cases(random.Random(5), 8), tables)
