"""The pages' reads (head to head, the tables' spans, the grids' player order, pages of matchdays and
rating rows, a player's standings, chart points and pages of rows, the leaderboard's moves, the
navigation's games) agree with the same figures worked out in Python from the league's rows, on a
random league with ties, three games (two of them official), a category and a player who never
played."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest
from django.core.paginator import Paginator

from league.models import Category, Game, Matchday, Player, Result, club_setting
from league.selectors import head_to_head_counts
from ratings.models import RatingEntry, RatingTable, Standing
from ratings.selectors import boards, grids, standings
from ratings.selectors.grids import MatchdayPages
from ratings.selectors.players import matchday_rows, played_matchdays, player_standings, rating_history
from web.context_processors import navigation

PEOPLE = ["A", "B", "C", "D", "E", "F", "G"]


@pytest.fixture
def league(make_matchday, hearts):
    rng = random.Random(7)
    category = Category.objects.create(name="Party games", slug="party")
    games = [hearts, Game.objects.create(name="Sedma", slug="sedma", official=False, category=category)]
    games.append(Game.objects.create(name="Spades", slug="spades"))  # the overall table merges two games
    Player.objects.create(name="Never played", short_name="NP")
    day = date(2024, 12, 20)
    for number in range(1, 31):
        day += timedelta(days=rng.choice([0, 1, 3]))
        players = rng.sample(PEOPLE, rng.randint(2, 5))
        scores = {p: rng.randint(1, 3) for p in players}  # equal scores: a tie
        placings = {p: 1 + sum(other > scores[p] for other in scores.values()) for p in players}
        make_matchday(number, day.isoformat(), placings, game=rng.choice(games))
    return games


def test_head_to_head_counts_agree_with_a_count_in_python(league):
    ties = 0
    for player in Player.objects.all():
        expected: dict[tuple[int, int], list[int]] = {}
        for mine in Result.objects.filter(player=player).select_related("matchday"):
            for other in Result.objects.filter(matchday=mine.matchday).exclude(player=player):
                if mine.side and other.side == mine.side:
                    continue  # a partner, not an opponent
                record = expected.setdefault((other.player_id, mine.matchday.game_id), [0, 0, 0])
                record[0 if mine.placing < other.placing else 1 if mine.placing > other.placing else 2] += 1
        counts = head_to_head_counts(player)
        ties += sum(record[2] for record in expected.values())
        assert {(other, game.pk): record for other, game, record in counts} == expected
        order = [(game.name, -sum(record), other) for other, game, record in counts]
        assert order == sorted(order)
        known = {game.pk: game for game in league[:1]}  # games a page has read already are not read again
        assert [(o, g.pk, r) for o, g, r in head_to_head_counts(player, known)] == [(o, g.pk, r) for o, g, r in counts]
        assert all(g is known[g.pk] for _, g, _ in head_to_head_counts(player, known) if g.pk in known)
    assert ties  # the league has ties, and players who met in more than one game
    assert any(len({game.pk for _, game, _ in head_to_head_counts(p)}) >= 2 for p in Player.objects.all())


def test_spans_agree_with_the_matchdays_of_each_table(league):
    tables = list(RatingTable.objects.in_page_order())
    assert len(tables) >= 4  # overall, two games, the category
    for counted in (True, False):
        spans = standings.spans(tables, counted=counted)
        for table in tables:
            matchdays = Matchday.objects.filter(table.counted()).order_by("date")
            days = list(matchdays.values_list("date", flat=True))
            games = tuple(sorted(set(matchdays.values_list("game_id", flat=True))))
            assert spans.of(table) == standings.TableSpan(len(days) if counted else 0, days[0], days[-1], games)
        every = list(Matchday.objects.order_by("date").values_list("date", flat=True))
        games = tuple(sorted(set(Matchday.objects.values_list("game_id", flat=True))))
        assert spans.everything == standings.TableSpan(len(every) if counted else 0, every[0], every[-1], games)
    sedma = league[1]
    only = standings.spans(tables, games=[sedma.pk])
    assert only.everything.matchdays == Matchday.objects.filter(game=sedma).count()
    nothing = standings.Spans({t.pk: standings.TableSpan() for t in tables}, standings.TableSpan())
    assert standings.spans(tables, games=[]) == nothing


def test_players_come_in_the_order_they_joined(league):
    def first(player, tables):
        entries = [e for t in tables for e in t.entries.filter(player=player)]
        return min((e.matchday_date, e.matchday_number, e.pk) for e in entries)

    players = list(Player.objects.exclude(short_name="NP"))
    games = list(RatingTable.objects.filter(scope="game"))
    for table in [*RatingTable.objects.all(), None]:
        tables = games if table is None else [table]
        mine = [p for p in players if any(t.entries.filter(player=p).exists() for t in tables)]
        expected = sorted(mine, key=lambda p, tables=tables: (first(p, tables), p.short_name))
        ordered = grids.in_join_order(mine, table)
        assert [p.short_name for p in ordered] == [p.short_name for p in expected]
        assert [p.name for p in ordered] == [p.name for p in expected]  # whole players, not just ids


def test_a_players_pages_of_matchdays_hold_their_rows_in_every_table(league):
    tables = list(RatingTable.objects.all())
    for player in Player.objects.exclude(short_name="NP"):
        history = rating_history(player, [t.pk for t in tables])
        played = played_matchdays(history)
        newest_first = standings.entries_with_field_size().filter(player=player)
        entries = newest_first.order_by("-matchday_date", "-matchday_number")
        assert [m for _, _, m in played] == list(dict.fromkeys(entries.values_list("matchday_id", flat=True)))
        for size in (1, 3, 50):
            page = played[size : 2 * size]
            rows = matchday_rows(player, page, {} if size == 3 else Game.objects.in_bulk())  # {}: read
            assert [row.matchday_id for row in rows] == [m for _, _, m in page]
            for row in rows:
                expected = {e.table_id: e for e in newest_first.filter(matchday_id=row.matchday_id)}
                assert row.changes.keys() == expected.keys() and row in row.changes.values()
                for table_id, ours in row.changes.items():
                    theirs = expected[table_id]
                    assert ours.pk == theirs.pk and ours.players == theirs.players == theirs.matchday.results.count()
                    assert values(ours.matchday) == values(theirs.matchday) and ours.matchday.game.name
                    assert ours.matchday.game == theirs.matchday.game and ours.player == player
                    # Every column of the row; the state, which no page shows, read on demand.
                    assert ours.get_deferred_fields() == {"state"}
                    assert values(ours, but="state") == values(theirs, but="state")
                    assert not ours._state.adding and ours._state.db == theirs._state.db
                    assert ours.state == theirs.state
    assert matchday_rows(Player.objects.get(short_name="NP"), [], {}) == []


def values(instance, but: str = "") -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields if f.name != but}


def test_a_players_standings_and_chart_points_are_counted_from_the_standings_and_rows(league):
    tables = list(RatingTable.objects.select_related("game"))
    today, below = date.today(), club_setting("provisional_matchdays")
    latest = Matchday.objects.order_by("-date").values_list("date", flat=True).first()
    since = boards.active_since(latest, today, club_setting("inactive_days"), show_all=False)
    for player in Player.objects.all():
        rows = player_standings(player, tables, today)
        mine = Standing.objects.filter(player=player)
        assert [row["table"].pk for row in rows] == [
            s.table_id for s in sorted(mine.select_related("table"), key=lambda s: standings.table_order(s.table))
        ]
        for row in rows:
            standing, table = row["standing"], row["table"]
            assert standing.table is table and standing.player_id == player.pk
            # Ranked among the established players the standings show (played since `since`), as they are.
            shown = Standing.objects.filter(table=table, matchday_date__gte=since or date.min, played__gte=below)
            expected = None
            if standing in shown:
                expected = 1 + shown.filter(rating__gt=standing.rating).count()
            assert row["rank"] == expected
            assert row["of"] == shown.count()
            assert row["provisional"] == (standing.played < below)
            assert row["inactive"] == (since is not None and standing.matchday_date < since)
        history = rating_history(player, [row["table"].pk for row in rows])
        for table in tables:
            entries = RatingEntry.objects.filter(table=table, player=player).order_by(
                "matchday_date", "matchday_number"
            )
            expected = [
                (e.matchday_date, e.matchday_number, e.rating_after, e.delta, e.placing, e.matchday_id) for e in entries
            ]
            assert history.get(table.pk, []) == expected
            assert all(isinstance(p.day, date) for p in history.get(table.pk, []))
    assert rating_history(Player.objects.get(short_name="NP"), []) == {}


def test_the_tooltips_current_ratings_are_the_players_standings(league):
    tables = list(RatingTable.objects.select_related("game"))
    some = list(Player.objects.exclude(short_name="A").values_list("pk", flat=True))  # NP has none
    for asked, given in [(some, tables), (some, tables[:1]), ([], None)]:
        ratings = standings.current_ratings(asked, given)
        expected = {}
        for s in Standing.objects.filter(player_id__in=asked).select_related("table"):
            expected.setdefault(s.player_id, []).append((s.table_id, s.rating))
        for rows in expected.values():
            rows.sort(key=lambda row: standings.table_order(RatingTable.objects.get(pk=row[0])))
        assert {p: [(t.pk, r) for t, r in rows] for p, rows in ratings.items()} == expected
        assert len(expected) == (len(some) - 1 if asked else 0)


def test_the_latest_moves_are_the_rows_of_each_tables_newest_matchday(league, make_matchday):
    from ratings.selectors.overview import latest_moves

    make_matchday(31, "2026-01-05", {"NP": 1, "A": 2}, game=league[0])  # NP's first matchday, not A's
    for table in RatingTable.objects.all():
        newest = max(table.matchdays(), key=lambda m: (m.date, m.number))
        expected = {
            e.player_id: (
                e.rating_before,
                e.rating_after,
                not table.entries.filter(player=e.player).before_position(*newest.position).exists(),
            )
            for e in table.entries.filter(matchday=newest)
        }
        assert expected and latest_moves(table) == expected
    overall = latest_moves(RatingTable.objects.get(scope="overall"))
    np, a = Player.objects.get(short_name="NP").pk, Player.objects.get(short_name="A").pk
    assert overall.keys() == {np, a} and overall[np][2] and not overall[a][2]


def test_the_navigation_lists_the_games_played_by_name(league):
    Game.objects.create(name="Aardvark whist", slug="aardvark")  # never played: not listed
    games = list(navigation(None)["nav_games"])
    played = Game.objects.filter(pk__in=Matchday.objects.values("game")).order_by("name")
    assert [g.name for g in games] == [g.name for g in played] == ["Hearts", "Sedma", "Spades"]
    assert games[1].official is False and games[1].category.slug == "party"


def matchday_view(matchday: Matchday) -> tuple:
    game = matchday.game
    return (matchday.pk, matchday.number, matchday.date, matchday.rounds, matchday.winner_score, game.pk, game.name)


def test_the_grids_pages_of_matchdays_are_the_tables_matchdays_newest_first(league, django_assert_num_queries):
    hearts, sedma, _ = league
    newest_first = Matchday.objects.order_by("-date", "-number").select_related("game")
    cases = [(grids.results_matchdays(), newest_first), (grids.results_matchdays(sedma), newest_first)]
    cases[1] = (cases[1][0], newest_first.filter(game=sedma))
    tables = list(RatingTable.objects.all())
    spans = standings.spans(tables)
    for table in tables:
        orm = table.matchdays().reverse().select_related("game")
        cases.append((grids.grid_matchdays(table, spans.of(table)), orm))  # each game's, merged
        cases.append((MatchdayPages(table), orm))  # filtered by the games' columns
    assert len(spans.of(RatingTable.objects.get(scope="overall")).games) == 2
    for pages, orm in cases:
        expected = [matchday_view(m) for m in orm]
        assert expected  # every table and game has matchdays in this league
        assert pages.count() == len(pages) == len(expected)
        for merged_rows in (MatchdayPages.MERGED_ROWS, 6):  # pages past it are read filtered
            pages.MERGED_ROWS = merged_rows
            for start, stop in [(0, 4), (4, 8), (3, 7), (28, 40), (0, None), (3, 3)]:
                with django_assert_num_queries(1 if stop != 3 else 0):
                    page = pages[start:stop]
                assert [matchday_view(m) for m in page] == expected[start:stop]
                assert all(isinstance(m.date, date) for m in page)
            assert matchday_view(pages[2]) == expected[2]
    scopes = {table.scope for table in RatingTable.objects.all()}
    assert scopes == {RatingTable.Scope.OVERALL, RatingTable.Scope.GAME, RatingTable.Scope.CATEGORY}


def test_a_rating_grid_reads_the_rows_of_its_page(league):
    for table in RatingTable.objects.all():
        paginator = Paginator(grids.grid_matchdays(table, standings.spans([table]).of(table)), 4)
        assert paginator.num_pages >= 2
        page = paginator.page(2)
        grid = grids.rating_grid(table, page)
        for row in grid.rows:
            entries = RatingEntry.objects.filter(table=table, matchday=row.matchday)
            assert {e.player_id: e.rating_after for e in entries} == {p: row.cells[p] for p in row.notes}
            for e in entries:
                note = row.notes[e.player_id]
                assert (note.delta, note.placing, note.expected, note.k) == (e.delta, e.placing, e.expected, e.k)
                assert note.players == len(entries)
