"""A real game-night log (oliffur/gamenightrankings, January to April 2026: 52 games, 33 of them team
games with sides of unequal size and guests), imported with a `side` column into a TrueSkill table,
gives every player after every game the mu and sigma of the trueskill package's own team rate(),
applied here game by game without the site's methods."""

import csv
from collections import Counter
from pathlib import Path

import trueskill

from league.models import default_club
from ratings.engine import sync_tables
from ratings.methods import METHODS
from ratings.models import RatingTable
from ratings.services.rating_tables import save_rating_table
from web.importing import import_results

LOG = Path(__file__).parent / "data" / "game_night_2026.csv"


def games_in(path: Path) -> dict[int, list[dict]]:
    """The file's rows by matchday, in the file's order."""
    games: dict[int, list[dict]] = {}
    with path.open(newline="") as file:
        for row in csv.DictReader(file):
            games.setdefault(int(row["matchday"]), []).append(row)
    return games


def sides_of(rows: list[dict]) -> list[list[dict]]:
    """Partners share a side label; a blank label plays alone. Sides in order of first appearance."""
    sides: dict[str, list[dict]] = {}
    for index, row in enumerate(rows):
        sides.setdefault(row["side"] or f"alone {index}", []).append(row)
    return list(sides.values())


def library_ratings(games: dict[int, list[dict]], **settings) -> dict[tuple[int, str], tuple[float, float]]:
    """Each player's (mu, sigma) after each game, from trueskill.TrueSkill().rate on the teams."""
    env = trueskill.TrueSkill(**settings)
    current: dict[str, trueskill.Rating] = {}
    after = {}
    for number in sorted(games):
        sides = sides_of(games[number])
        teams = [tuple(current.get(row["player"], env.create_rating()) for row in side) for side in sides]
        weights = [tuple(float(row.get("weight") or 1) for row in side) for side in sides]
        ranks = [int(side[0]["placing"]) for side in sides]
        for side, team in zip(sides, env.rate(teams, ranks=ranks, weights=weights), strict=True):
            for row, rating in zip(side, team, strict=True):
                current[row["player"]] = rating
                after[number, row["player"]] = (rating.mu, rating.sigma)
    return after


def rated_by_trueskill(slug: str, **parameters) -> RatingTable:
    table = RatingTable.objects.get(slug=slug)
    table.method = "trueskill"
    table.parameters = parameters
    table.start_rating = METHODS["trueskill"].start(METHODS["trueskill"].clean_params(parameters))[0]
    save_rating_table(table)
    return table


def stored_states(table: RatingTable) -> dict[tuple[int, str], tuple[float, float]]:
    return {
        (e.matchday.number, e.player.short_name): (e.state["mu"], e.state["sigma"])
        for e in table.entries.select_related("matchday", "player")
    }


def test_the_log_has_the_team_games_unequal_sides_guests_and_ties_of_a_game_night():
    games = games_in(LOG)
    sizes = {number: sorted(len(side) for side in sides_of(rows)) for number, rows in games.items()}
    appearances = Counter(row["player"] for rows in games.values() for row in rows)
    assert len(games) == 52
    assert sum(size[-1] > 1 for size in sizes.values()) == 33
    assert [4, 5] in sizes.values() and [3, 4] in sizes.values()
    assert {"Peter", "Leo", "Elina(Egor)", "Alex(Oliver)"} <= {p for p, n in appearances.items() if n == 1}
    assert any(
        len({r["placing"] for r in rows}) < len(rows) for number, rows in games.items() if sizes[number][-1] == 1
    )


def test_every_player_after_every_game_has_the_librarys_team_mu_and_sigma(db):
    sync_tables(default_club())  # the overall table, before any game
    table = rated_by_trueskill("overall")  # the club picks TrueSkill, then imports its log
    import_results(LOG.read_bytes())
    table.refresh_from_db()
    expected = library_ratings(games_in(LOG))
    stored = stored_states(table)
    assert len(stored) == len(expected) == 340
    assert stored == expected
