"""CoGs' own sessions (bernd-wechner/CoGs, its database backup of 2018-06-03: 165 sessions, 683
performances, one team session, one session of partial play), imported with `side` and `weight`
columns into TrueSkill tables set as CoGs set its trueskill, one table per game as CoGs rates. The
site reproduces CoGs' stored mu and sigma at least as often as the trueskill package given the same
teams, ranks and weights; where neither does, CoGs rated tied players in an order it did not record."""

import csv
import itertools
import math
from collections.abc import Iterator
from pathlib import Path

import trueskill

from league.models import Game
from ratings.models import RatingTable
from ratings.services.catalogue import free_game_slug, game_table, save_game
from tests.test_game_night_log import games_in, library_ratings, rated_by_trueskill, sides_of, stored_states
from web.importing import import_results

DATA = Path(__file__).parent / "data"
SESSIONS, STORED = DATA / "cogs_2018.csv", DATA / "cogs_2018_stored.csv"
# CoGs' TrueSkill settings as its database held them (each performance records them): 25/3, 25/6 and
# 25/300 written to 15 digits, the draw probability 0.1.
SETTINGS = {
    "mu": 25.0,
    "sigma": 8.33333333333333,
    "beta": 4.16666666666667,
    "tau": 0.0833333333333333,
    "draw_probability": 0.1,
}
TOLERANCE = 1e-9  # some of CoGs' stored values were written to 15 digits


def cogs_stored() -> dict[tuple[int, str], tuple[float, float]]:
    with STORED.open(newline="") as file:
        return {
            (int(row["matchday"]), row["player"]): (float(row["mu_after"]), float(row["sigma_after"]))
            for row in csv.DictReader(file)
        }


def library_per_game(games: dict[int, list[dict]]) -> dict[tuple[int, str], tuple[float, float]]:
    """The package's rate(), chained within each game: CoGs keeps one rating per player per game."""
    after = {}
    for game in {rows[0]["game"] for rows in games.values()}:
        after.update(library_ratings({n: rows for n, rows in games.items() if rows[0]["game"] == game}, **SETTINGS))
    return after


def same(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return all(math.isclose(x, y, rel_tol=0, abs_tol=TOLERANCE) for x, y in zip(a, b, strict=True))


def cogs_games_rated_by_trueskill(games: dict[int, list[dict]]) -> dict[str, RatingTable]:
    """CoGs' games, each with its own table set to CoGs' TrueSkill settings, before the import."""
    tables = {}
    for name in {rows[0]["game"] for rows in games.values()}:
        game = Game(name=name, slug=free_game_slug(name))
        save_game(game)
        tables[name] = rated_by_trueskill(game_table(game).slug, **SETTINGS)
    return tables


def test_cogs_sessions_rated_here_match_cogs_at_least_as_often_as_the_library(db):
    games, cogs = games_in(SESSIONS), cogs_stored()
    tables = cogs_games_rated_by_trueskill(games)
    import_results(SESSIONS.read_bytes())
    site = {}
    for table in tables.values():
        site.update(stored_states(table))
    library = library_per_game(games)
    assert site.keys() == library.keys() == cogs.keys()
    site_matches = {key for key in cogs if same(site[key], cogs[key])}
    library_matches = {key for key in cogs if same(library[key], cogs[key])}
    assert len(site_matches) >= len(library_matches) > len(cogs) * 0.9
    assert all(same(site[key], library[key]) for key in cogs)


def test_the_team_session_and_the_partial_play_session_are_cogs_numbers_exactly(db):
    games, cogs = games_in(SESSIONS), cogs_stored()
    tables = cogs_games_rated_by_trueskill(games)
    import_results(SESSIONS.read_bytes())
    team = [n for n, rows in games.items() if any(row["side"] for row in rows)]
    partial = [n for n, rows in games.items() if any(float(row["weight"]) < 1 for row in rows)]
    assert len(team) == len(partial) == 1
    for number in team + partial:
        site = stored_states(tables[games[number][0]["game"]])
        for row in games[number]:
            assert same(site[number, row["player"]], cogs[number, row["player"]]), (number, row["player"])


def orders_of_ties(sides: list[list[dict]]) -> Iterator[list[list[dict]]]:
    """The sides in every order that keeps the ranking: tied sides permuted among themselves."""
    by_placing: dict[str, list[list[dict]]] = {}
    for side in sides:
        by_placing.setdefault(side[0]["placing"], []).append(side)
    for choice in itertools.product(*(itertools.permutations(tied) for tied in by_placing.values())):
        yield [side for tied in choice for side in tied]


def gives_cogs_numbers(env, order: list[list[dict]], stored: dict) -> bool:
    """Whether rate() on CoGs' ratings before the session, sides in this order, gives its ratings after."""
    before = [[stored[row["matchday"], row["player"]] for row in side] for side in order]
    teams = [tuple(env.create_rating(float(c["mu_before"]), float(c["sigma_before"])) for c in side) for side in before]
    weights = [tuple(float(row["weight"]) for row in side) for side in order]
    rated = env.rate(teams, ranks=[int(side[0]["placing"]) for side in order], weights=weights)
    return all(
        same((rating.mu, rating.sigma), (float(c["mu_after"]), float(c["sigma_after"])))
        for side, team in zip(before, rated, strict=True)
        for c, rating in zip(side, team, strict=True)
    )


def test_every_cogs_session_is_the_librarys_rate_of_its_stored_ratings_in_some_order_of_its_ties():
    """Each session rated on its own from the mu and sigma CoGs stored before it. Where the file's
    order does not give CoGs' numbers, players tied: the package rates tied players slightly apart,
    by the order it is given them, and CoGs gave them in the order its database returned them, which
    its backup does not keep. Some order of the tied players gives CoGs' numbers in every session."""
    env = trueskill.TrueSkill(**SETTINGS)
    with STORED.open(newline="") as file:
        stored = {(row["matchday"], row["player"]): row for row in csv.DictReader(file)}
    reordered = []
    for number, rows in games_in(SESSIONS).items():
        sides = sides_of(rows)
        if gives_cogs_numbers(env, sides, stored):
            continue
        assert len({row["placing"] for row in rows}) < len(rows), f"session {number} has no tie and differs"
        assert any(gives_cogs_numbers(env, order, stored) for order in orders_of_ties(sides)), number
        reordered.append(number)
    assert reordered  # the backup has such sessions
