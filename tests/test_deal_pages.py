"""The pages of a game played against deals: standings with inactive players hidden, the variant ×
level grid, power rankings, a deal's page, the player page's explanations and "What happened?"."""

import csv
import io
import re
from datetime import date

import pytest
from django.db import transaction
from django.urls import reverse

from league.models import Attempt, Deal, DealLevel, Game, Player, Revision
from league.validation import FLAG_WORDS
from ratings.deals import services as deal_services
from ratings.models import AttemptRating, DealRating, LevelRating, RatingTable, Standing
from tests.conftest import section, table_rows
from tools.generate_deals import generate_attempts, generate_seeds
from web.deals.importing import ATTEMPT_COLUMNS, SEED_COLUMNS, import_attempts, import_seeds


def csv_bytes(header, rows):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode()


@pytest.fixture(scope="module")
def solitaire_league(django_db_setup, django_db_blocker):
    """A generated solitaire league: 1,500 attempts by 30 players, a quarter of the deals seeded.
    Imported once per module in a transaction rolled back at its end; each test runs in a savepoint
    of it, so what a test writes is gone for the next, as with the `db` fixture alone."""
    with django_db_blocker.unblock(), transaction.atomic():
        import_seeds(csv_bytes(SEED_COLUMNS, generate_seeds(5)))
        import_attempts(csv_bytes([*ATTEMPT_COLUMNS, "rated"], generate_attempts(30, 1500, 5)))
        yield
        transaction.set_rollback(True)


@pytest.fixture
def league(solitaire_league, db):
    # A fresh revision, as a fresh import gave each test: what a worker keeps per revision (the
    # pages' shape) must be read again, not carried over from the last test's rolled-back token.
    Revision.bump()
    return Game.objects.get(name="Solitaire")


def test_the_games_page_shows_standings_grid_power_rankings_and_the_latest_session(client, league):
    html = client.get(reverse("league:game", args=["solitaire"])).content.decode()
    table = RatingTable.objects.get(game=league)
    standings = table_rows(section(html, "standings-heading"))
    assert standings[0] == ["#", "Player", "Rating", "Last change", "Attempts", "Last played"]
    best = table.standings.order_by("-rating").first()
    assert standings[1][:3] == ["1", best.player.short_name, f"{best.rating:.2f}"]

    grid = table_rows(section(html, "levels-heading"))
    assert grid[0] == ["Variant", "5", "6", "7", "8", "9", "10", "11", "12"]
    assert [row[0] for row in grid[1:]] == ["5x4", "6x4", "7x4", "8x4", "9x4", "10x4"]  # by their numbers
    level = LevelRating.objects.get(level__variant="8x4", level__level=5)
    assert grid[4][1] == f"{level.average:.2f}"  # a rating, as every rating of the game

    power = table_rows(section(html, "power-rankings-heading"))
    assert power[0] == ["#", "Variant", "Level", "Win %", "Average deal rating", "Power ranking"]
    products = [float(row[5]) for row in power[1:]]
    assert products == sorted(products, reverse=True)
    top = LevelRating.objects.get(level__variant=power[1][1], level__level=int(power[1][2]))
    assert (
        power[1][3] == f"{top.wins / top.attempts:.2%}"
        and power[1][4] == f"{top.average:.2f}"
        and power[1][5] == f"{top.wins / top.attempts * top.average:.2f}"
    )

    session = section(html, "latest-session-heading")
    assert "Latest session:" in session and "/card-games/games/solitaire/deals/" in session


def test_players_inactive_for_14_days_before_the_latest_session_are_hidden_until_asked(client, league):
    table = RatingTable.objects.get(game=league)
    latest = max(Attempt.objects.values_list("session__date", flat=True))
    cutoff = date.fromordinal(latest.toordinal() - 14)
    inactive = set(table.standings.filter(matchday_date__lt=cutoff).values_list("player__short_name", flat=True))
    assert inactive, "the generated league should have players who stopped"
    html = client.get(reverse("league:game", args=["solitaire"])).content.decode()
    shown = {row[1] for row in table_rows(section(html, "standings-heading"))[1:]}
    assert not shown & inactive
    assert "Players with no attempt in the 14 days before the latest session" in html and "?all=1" in html
    everyone = client.get(reverse("league:game", args=["solitaire"]), {"all": "1"}).content.decode()
    rows = table_rows(section(everyone, "standings-heading"))[1:]
    assert len(rows) == min(25, table.standings.count())
    assert table.standings.count() > len(shown)


def test_the_games_page_has_a_fixed_number_of_queries(client, league, django_assert_num_queries):
    url = reverse("league:game", args=["solitaire"])
    for year in (2024, 2025):  # whatever the number of attempts
        with django_assert_num_queries(13):  # with the check for hidden players
            client.get(url)
        # 12, and the page cache's one read of the tables' slugs per revision (the page parameters
        # it may key by) when a page is asked for with parameters.
        with django_assert_num_queries(13):
            client.get(url, {"all": "1"})
        import_attempts(csv_bytes([*ATTEMPT_COLUMNS, "rated"], generate_attempts(30, 600, 9, start=date(year, 1, 1))))


def test_a_deal_page_shows_its_rating_history_and_every_attempt(client, league, django_assert_num_queries):
    rating = DealRating.objects.filter(played__gte=3).select_related("deal__level").first()
    deal = rating.deal
    url = deal.get_absolute_url()
    assert url == f"/card-games/games/solitaire/deals/{deal.level.variant}/{deal.level.level}/{deal.number}/"
    with django_assert_num_queries(10):
        html = client.get(url).content.decode()
    assert f"Deal {deal.number}" in html and 'data-series="Deal' in html
    attempts = table_rows(section(html, "attempts-heading"))
    assert len(attempts) - 1 == Attempt.objects.filter(deal=deal).count()
    newest = AttemptRating.objects.filter(deal=deal).order_by("-session_date", "-position").first()
    assert f"{newest.deal_after:.2f}" in attempts[1]


def test_an_unknown_deal_is_a_page_not_found(client, league):
    response = client.get("/card-games/games/solitaire/deals/8x4/5/999999/")
    assert response.status_code == 404 and "There is no deal 999999 of 8x4 level 5" in response.content.decode()


def test_the_player_page_explains_each_attempt(client, league, django_assert_num_queries):
    standing = Standing.objects.order_by("-played").select_related("player").first()
    player = standing.player
    html = client.get(reverse("league:player", args=[player.pk])).content.decode()
    history = table_rows(section(html, "solitaire-heading"))
    assert history[0] == ["Date", "What happened", "Before", "Change", "After", "Expected"]
    row = (
        AttemptRating.objects.filter(player=player)
        .order_by("-session_date", "-position")
        .select_related("deal__level")
        .first()
    )
    result = "won" if row.won else "lost"
    level = row.deal.level
    change = f"{row.delta:+.2f}".replace("-", "\u2212")
    line = (
        f"{result} deal {row.deal.number} ({level.variant} level {level.level}, rated {row.deal_before:.0f}): "
        f"expected {row.expected:.2f}, {change}"
    )
    assert line in [r[1] for r in history[1:]]
    assert f"{standing.played} attempts" in html
    assert 'data-series="Solitaire"' in html


def test_the_seeds_example_line_reads_as_the_issue_writes_it(db):
    from ratings.deals.selectors import AttemptRow
    from web.deals.tables import explain_attempt

    class Rated:
        deal_before, expected, delta = 1000.0, 0.9468, 0.4259

    deal = Deal(number=11982, level=DealLevel(variant="8x4", level=5))
    row = AttemptRow(date(2025, 11, 3), 1, Player(short_name="GL"), deal, True, Rated())
    assert explain_attempt(row) == "won deal 11982 (8x4 level 5, rated 1000): expected 0.95, +0.43"


def test_the_standings_page_shows_the_deal_games_table_with_its_own_inactivity(client, league, club):
    html = client.get(reverse("league:standings")).content.decode()
    assert "Players with no attempt in the 14 days before the latest session" in html
    assert table_rows(section(html, "solitaire-heading"))[0][4] == "Attempts"
    assert table_rows(section(html, "overall-heading"))[0][4] == "Matchdays"


def test_the_navigation_lists_the_deal_game(client, league):
    html = client.get(reverse("ratings:methods")).content.decode()
    assert '<a href="/card-games/games/solitaire/">Solitaire</a>' in html


def test_the_methods_page_describes_player_against_deal_with_the_seeds_numbers(client, db):
    html = client.get(reverse("ratings:methods")).content.decode()
    part = section(html, "player-vs-deal-heading")
    assert "1500.43" in part and "999.57" in part and "1492.43" in part and "1007.57" in part
    assert "log10((1 - w) / w)" in part


def test_what_happened_rates_pasted_attempts_game_by_game(client, db):
    text = "1500, 1000, W\n1000 L\n1620.5\t1710\tW\n"
    html = client.get(reverse("ratings:attempts_calculator"), {"attempts": text}).content.decode()
    rows = table_rows(section(html, "steps-heading"))
    assert rows[1] == ["1", "1500.00", "1000.00", "won", "0.9468", "8", "+0.43", "1500.43", "999.57"]
    assert rows[2][:2] == ["2", "1500.43"]  # carried from the line before
    data = client.get(reverse("ratings:attempts_calculator_json"), {"attempts": text}).json()
    assert data["k"] == 8 and len(data["attempts"]) == 3
    assert round(data["attempts"][0]["player_after"], 2) == 1500.43
    assert data["attempts"][1]["player_before"] == data["attempts"][0]["player_after"]
    second = data["attempts"][1]
    assert second["player_after"] == pytest.approx(second["player_before"] - 8 * second["expected"])


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ({"attempts": "1500, 1000, D"}, f"attempts: line 1: won must be W or L, or {FLAG_WORDS}, not 'D'"),
        (
            {"attempts": "1000, W"},
            (
                "attempts: line 1: '1000, W' is not `player rating, deal rating, W/L` "
                "(only lines after the first may leave out the player's rating)"
            ),
        ),
        ({"attempts": "\n\n1500, x, W"}, "attempts: line 3: the deal's rating must be a number, not 'x'"),
        ({"attempts": "1500, 1000, W", "k": "-1"}, "k: must be above 0, at most 1,000, not -1"),
    ],
)
def test_what_happened_names_the_line_of_a_mistake(client, db, query, error):
    response = client.get(reverse("ratings:attempts_calculator_json"), query)
    assert response.status_code == 400 and response.json()["error"] == error
    html = client.get(reverse("ratings:attempts_calculator"), query).content.decode()
    assert re.sub(r"&#x27;", "'", html).count(error.replace("`", "`")) == 1


def test_a_session_saved_on_the_game_shows_at_once(client, league):
    before = client.get(reverse("league:game", args=["solitaire"]))
    session = deal_services.DealSession(game=league, date=date(2025, 1, 1))
    gl = Player.objects.create(name="GL", short_name="GL")
    deal_services.save_session(session, [deal_services.AttemptInput(gl, "8x4", 5, 1, True)])
    after = client.get(reverse("league:game", args=["solitaire"]), HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and "January 1, 2025" in after.content.decode()


def test_the_player_page_of_a_solitaire_player_has_a_fixed_number_of_queries(client, league, django_assert_num_queries):
    player = Standing.objects.order_by("-played").first().player
    url = reverse("league:player", args=[player.pk])
    for year in (2024, 2025):  # whatever the number of attempts
        # with the partners (none here), former names, honours, the record of attempts and the
        # standings the card's rank is read from (the latest day, the latest session, the board) and
        # the record against the games played against (none here)
        with django_assert_num_queries(19):
            client.get(url)
        import_attempts(csv_bytes([*ATTEMPT_COLUMNS, "rated"], generate_attempts(30, 600, 9, start=date(year, 1, 1))))


def test_solitaire_pages_follow_the_sites_conventions(client, league):
    """The player's rating, change and after read together before the deal's ratings; changes in
    the site's green and red; every rating to two decimals; the method line in English."""
    rating = DealRating.objects.filter(played__gte=3).select_related("deal__level").first()
    html = client.get(rating.deal.get_absolute_url()).content.decode()
    attempts = section(html, "attempts-heading")
    assert table_rows(attempts)[0] == [
        "Date", "Player", "Result", "Before", "Change", "After", "Expected", "Deal before", "Deal after"
    ]  # fmt: skip
    changes = re.findall(r'<span class="(up|down|level)">([+\u2212±][0-9.]+)</span>', attempts)
    assert changes  # every rated attempt's
    assert all((kind == "up") == text.startswith("+") for kind, text in changes)
    game = client.get(reverse("league:game", args=["solitaire"])).content.decode()
    assert "inactive after 14 days" in game.lower() and "after days" not in game
    player = Standing.objects.filter(table__game=league).order_by("-played").select_related("player").first()
    page = client.get(reverse("league:player", args=[player.player.pk])).content.decode()
    card = next(c for c in re.findall(r'<li class="card">(.*?)</li>', page, flags=re.S) if "Solitaire" in c)
    assert f"{player.rating:.2f}" in card and re.search(r'class="(up|down|level)">[+\u2212±]\d+\.\d\d<', card)


def test_no_cell_of_the_solitaire_pages_looks_up_what_its_record_lacks(client, league, monkeypatch):
    from tests.test_tables import failed_lookups

    failed = failed_lookups(monkeypatch)
    deal = Attempt.objects.select_related("deal").first().deal
    player = Attempt.objects.first().player
    for url in (
        reverse("league:game", args=["solitaire"]),
        deal.get_absolute_url(),
        f"/card-games/players/{player.pk}/",
    ):
        assert client.get(url).status_code == 200
    assert failed == []
