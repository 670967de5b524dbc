"""Every write recomputes from the edited matchday onward and never rewrites the past."""

from datetime import date

import pytest
from django.db import connection
from django_scopes import scope

from league.models import Category, Club, Game, Matchday
from ratings import engine
from ratings.methods import METHODS, Facts, MethodError, Seat
from ratings.models import RatingEntry, RatingTable, Standing
from ratings.services.catalogue import save_game
from ratings.services.matchdays import delete_matchdays
from ratings.services.recompute import differences, rebuild_all
from tests.conftest import results_of, save_results, store


def snapshot(table_slug="overall"):
    """matchday number -> {player: (entry pk, before, after)}"""
    rows = {}
    for e in RatingEntry.objects.filter(table__slug=table_slug).select_related("matchday", "player"):
        rows.setdefault(e.matchday.number, {})[e.player.short_name] = (e.pk, e.rating_before, e.rating_after)
    return rows


def test_editing_matchday_2_changes_every_later_matchday_and_nothing_before(club):
    before = snapshot()
    matchday = Matchday.objects.get(number=2)
    # J won matchday 2; make GL the winner and J third instead.
    save_results(matchday, {"J": 3, "GL": 1})
    after = snapshot()

    assert after[1] == before[1]  # same rows (same primary keys), same numbers
    for number in range(2, 7):
        changed = {p for p in after[number] if after[number][p][1:] != before[number][p][1:]}
        assert changed, f"matchday {number} should have changed"
    assert after[2]["GL"][2] > before[2]["GL"][2]


def test_saving_a_matchday_rewrites_only_the_rows_from_it_on(club):
    table = RatingTable.objects.get(slug="overall")
    fourth = Matchday.objects.get(number=4)
    kept = set(table.entries.filter(matchday__number__lt=4).values_list("pk", flat=True))
    rewritten = set(table.entries.filter(matchday__number__gte=4).values_list("pk", flat=True))
    store(fourth, list(results_of(fourth).values()))
    after = set(table.entries.values_list("pk", flat=True))
    assert kept <= after
    assert not rewritten & after  # matchdays 4, 5 and 6 got new rows
    assert table.entries.count() == 24


def test_a_new_matchday_at_the_end_writes_only_its_own_rows(club, make_matchday):
    before = snapshot()
    make_matchday(7, "2025-11-20", {"I": 1, "J": 2, "K": 3}, rounds=3)
    after = snapshot()
    assert {n: after[n] for n in range(1, 7)} == before
    assert {p: v[1] for p, v in after[7].items()} == {"I": 1521, "J": 1534, "K": 1494}


def test_a_matchday_moved_earlier_is_rated_in_its_new_place(club):
    sixth = Matchday.objects.get(number=6)
    sixth.date = date(2025, 11, 7)  # between matchdays 2 and 3
    store(sixth, list(results_of(sixth).values()))
    after = snapshot()
    # Matchday 6 now follows matchday 2: I starts it with 1535, K with 1515.
    assert after[6]["I"][1] == 1535 and after[6]["K"][1] == 1515
    # ... and matchday 3 now starts from matchday 6's results.
    assert after[3]["I"][1] == after[6]["I"][2]
    fresh = snapshot()
    rebuild_all()
    assert {n: {p: v[1:] for p, v in r.items()} for n, r in snapshot().items()} == {
        n: {p: v[1:] for p, v in r.items()} for n, r in fresh.items()
    }


def test_deleting_a_matchday_recomputes_from_its_place(club):
    delete_matchdays([Matchday.objects.get(number=1)])
    after = snapshot()
    assert 1 not in after
    assert all(v[1] == 1500 for v in after[2].values())


def test_making_a_game_unofficial_moves_its_matchdays_to_the_category_table(club, make_matchday):
    tcg = Category.objects.create(name="Trading card games", slug="trading-card-games")
    magic = Game.objects.create(name="Magic", slug="magic", category=tcg)
    make_matchday(7, "2025-11-20", {"I": 1, "R": 2}, game=magic)
    assert RatingEntry.objects.filter(table__slug="overall", matchday__number=7).count() == 2

    magic.official = False
    save_game(magic)

    assert not RatingEntry.objects.filter(table__slug="overall", matchday__number=7).exists()
    category_table = RatingTable.objects.get(scope="category", category=tcg)
    assert category_table.entries.count() == 2
    assert not category_table.official


def test_a_game_moved_to_another_game_leaves_the_old_games_table(club, make_matchday):
    spades = Game.objects.create(name="Spades", slug="spades")
    seventh = make_matchday(7, "2025-11-20", {"I": 1, "R": 2})
    seventh.game = spades
    store(seventh, list(results_of(seventh).values()))
    assert not RatingEntry.objects.filter(table__slug="hearts", matchday=seventh).exists()
    assert RatingEntry.objects.filter(table__slug="spades", matchday=seventh).count() == 2
    assert RatingEntry.objects.filter(table__slug="overall", matchday=seventh).count() == 2


def test_every_game_gets_a_table_and_only_unofficial_categories_do(club):
    scopes = sorted(RatingTable.objects.values_list("scope", "slug"))
    assert scopes == [("game", "hearts"), ("overall", "overall")]


def played_counts():
    """Each stored row's `played` against its place in its player's history of its table, and each
    standing's against the player's number of rows."""
    stored, counted, standings = {}, {}, {}
    seen: dict[tuple, int] = {}
    for e in RatingEntry.objects.order_by("table_id", "player_id", "matchday_date", "matchday_number"):
        key = (e.table_id, e.player_id)
        seen[key] = seen.get(key, 0) + 1
        stored[e.pk], counted[e.pk] = e.played, seen[key]
    for s in Standing.objects.all():
        standings[(s.table_id, s.player_id)] = s.played
    return stored, counted, standings, seen


def test_each_row_keeps_its_players_running_count_through_every_kind_of_write(club, make_matchday):
    """The as-at standings read who was provisional, and how many matchdays each had played, from
    this count: it must follow inserts in the middle, moves, deletions and new games."""
    make_matchday(7, "2025-11-07", {"I": 1, "R": 2, "Z": 3}, rounds=3)  # between matchdays 2 and 3
    sixth = Matchday.objects.get(number=6)
    sixth.date = date(2025, 11, 5)  # before matchday 2
    store(sixth, list(results_of(sixth).values()))
    delete_matchdays([Matchday.objects.get(number=3)])
    spades = Game.objects.create(name="Spades", slug="spades")
    save_game(spades)
    make_matchday(8, "2025-11-30", {"I": 1, "Z": 2}, game=spades)
    stored, counted, standings, seen = played_counts()
    assert stored == counted and max(counted.values()) > 3
    assert standings == seen
    rebuild_all()
    assert played_counts()[0].values() and sorted(played_counts()[0].values()) == sorted(counted.values())


@pytest.mark.parametrize("method", [m for m in METHODS.values() if m.rates_plainly], ids=lambda m: m.slug)
def test_a_method_that_rates_plainly_gives_the_engine_what_it_gives_through_seats(method):
    """The engine rates a matchday of players alone from `plain_outcomes` where a method offers them
    (ratings/rating_pass.py): they must be its outcomes through seats, to the last bit, carrying
    nothing, and refuse what rating through seats refuses."""
    params = method.defaults()
    cases = [
        ([1500, 1480.0, 1530, 1410], [1, 2, 2, 4], 3),  # a tie, whole and fractional ratings
        ([1617.0, 1383.5], [2, 1], 1),
        ([1500] * 6, [1, 2, 3, 4, 5, 6], 10),
    ]
    for ratings, placings, rounds in cases:
        facts = Facts(rounds=rounds)
        outcomes = method.compute([Seat(r, p) for r, p in zip(ratings, placings, strict=True)], facts, params)
        pieces = [(o.opponents_mean, o.expected, o.score, o.k, o.delta, o.rating_after) for o in outcomes]
        assert method.plain_outcomes(ratings, placings, facts, params) == pieces
        assert [o.state for o in outcomes] == [None] * len(ratings)
    with pytest.raises(MethodError):
        method.plain_outcomes([1500, 1500], [1, 3], Facts(), params)


def test_a_matchday_added_where_the_tables_are_in_step_leaves_them_unsynced(club, make_matchday, monkeypatch):
    """The services that write games, categories and seasons keep the tables in step, so a matchday
    only makes tables that are missing: a game saved directly (a file's new game) gets its own."""
    synced = []
    sync = engine.sync_tables
    monkeypatch.setattr(engine, "sync_tables", lambda *clubs: (synced.append(clubs), sync(*clubs)))
    make_matchday(7, "2025-11-20", {"I": 1, "R": 2})
    assert synced == []

    tcg = Category.objects.create(name="Trading card games", slug="trading-card-games")
    magic = Game.objects.create(name="Magic", slug="magic", category=tcg, official=False)
    make_matchday(8, "2025-11-21", {"I": 1, "R": 2}, game=magic)
    assert len(synced) == 1
    assert set(RatingEntry.objects.filter(matchday__number=8).values_list("table__scope", flat=True)) == {
        "game",
        "category",
    }
    assert differences() == []


def test_adding_the_latest_matchday_asks_the_database_a_bounded_number_of_times(
    club, make_matchday, django_assert_max_num_queries
):
    """A guard on the write a secretary makes most (docs/performance.md: about 1 ms of Django per
    query): checking, saving, rating two tables, the revision and the history."""
    locks = 2 if connection.features.has_select_for_update else 0  # the overall table and the tables
    make_matchday(7, "2025-11-20", {"I": 1, "R": 2})
    with scope(club=Club.objects.get().pk), django_assert_max_num_queries(23 + locks):  # as the entry page
        make_matchday(8, "2025-11-21", {"I": 1, "R": 2, "K": 3})
