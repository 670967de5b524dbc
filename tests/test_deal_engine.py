"""Games played against deals: attempts rated in play order, seeds, level offsets, and a recompute
from an edited session that equals a full one."""

import random
from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError

from league.models import Attempt, Deal, DealSession, Game, Player
from ratings.deals import services as deal_services
from ratings.deals.services import AttemptInput, ImportedSeed
from ratings.methods import deals
from ratings.models import AttemptRating, DealRating, LevelRating, RatingTable, Standing
from ratings.services.catalogue import save_game
from ratings.services.rating_tables import save_rating_table
from ratings.services.recompute import differences, rebuild_all


@pytest.fixture
def solitaire(db):
    game = Game(name="Solitaire", slug="solitaire", against_deals=True)
    save_game(game)
    return game


def player(name):
    return Player.objects.filter(short_name=name).first() or Player(name=name, short_name=name)


def play(game, day, attempts, session=None):
    """Save a session of `attempts`: (player, variant, level, deal, won[, rated])."""
    session = session or DealSession(game=game, date=date.fromisoformat(day))
    inputs = [AttemptInput(player(a[0]), a[1], a[2], a[3], a[4], *a[5:]) for a in attempts]
    deal_services.save_session(session, inputs)
    return session


def table_of(game):
    return RatingTable.objects.get(game=game)


def current(game, variant, level, number):
    """A deal's rating now: its base plus its level's offset."""
    rating = DealRating.objects.select_related("level__rating").get(
        deal__level__game=game, deal__level__variant=variant, deal__level__level=level, deal__number=number
    )
    return rating.base + rating.level.rating.offset


def stored(game):
    """Every number the engine stores for a game, keyed so that two computations can be compared."""
    table = table_of(game)
    return {
        "rows": {
            (r.session_date, r.position): (
                r.player_id,
                r.deal_id,
                r.player_before,
                r.player_after,
                r.deal_before,
                r.deal_after,
                r.deal_base_after,
                r.level_offset_after,
                r.expected,
                r.k,
                r.delta,
            )
            for r in table.attempt_ratings.all()
        },
        "deals": {
            d.deal_id: (d.base, d.seeded, d.played, d.wins, d.first_date, d.last_date) for d in table.deal_ratings.all()
        },
        "levels": {
            lv.level_id: (lv.offset, lv.deals, lv.average, lv.attempts, lv.wins, lv.last_date)
            for lv in table.level_ratings.all()
        },
        "players": {s.player_id: (s.rating, s.played, s.matchday_date, s.delta) for s in table.standings.all()},
    }


def test_attempts_are_rated_one_by_one_in_play_order(solitaire):
    play(solitaire, "2025-11-03", [("A", "8x4", 5, 11982, True), ("B", "8x4", 5, 11982, False)])
    rows = list(AttemptRating.objects.order_by("position"))
    # A new level's first deal starts at 1500: A's win against it is a coin toss won, +4.
    assert (rows[0].player_before, rows[0].deal_before, rows[0].expected) == (1500, 1500, 0.5)
    assert rows[0].player_after == 1504 and rows[0].deal_after == 1496
    # B meets the deal as A left it (1496), and loses.
    assert rows[1].deal_before == 1496
    expected = deals.expected(1500, 1496)
    assert rows[1].expected == expected and rows[1].delta == pytest.approx(-8 * expected)
    assert rows[1].deal_after == pytest.approx(1496 + 8 * expected)
    assert rows[1].level_offset_after == pytest.approx(0.03 * (-4 + 8 * expected))
    assert {s.player.short_name: s.played for s in Standing.objects.select_related("player")} == {"A": 1, "B": 1}


def test_a_change_to_one_deal_moves_every_other_deal_of_its_level_by_f_times_d_and_only_those(solitaire):
    play(
        solitaire,
        "2025-11-03",
        [
            ("A", "8x4", 5, 1, True),
            ("A", "8x4", 5, 2, False),
            ("A", "8x4", 5, 3, True),
            ("A", "8x4", 6, 1, False),  # the same variant at another level
            ("A", "7x4", 5, 1, True),  # another variant at the same level
        ],
    )
    watched = [("8x4", 5, 1), ("8x4", 5, 2), ("8x4", 5, 3), ("8x4", 6, 1), ("7x4", 5, 1)]
    before = {w: current(solitaire, *w) for w in watched}
    play(solitaire, "2025-11-04", [("B", "8x4", 5, 2, True)])
    row = AttemptRating.objects.get(session_date=date(2025, 11, 4))
    d = row.deal_after - row.deal_before
    moved = {w: current(solitaire, *w) - before[w] for w in watched}
    assert moved[("8x4", 5, 2)] == pytest.approx(d)
    assert moved[("8x4", 5, 1)] == pytest.approx(0.03 * d) and moved[("8x4", 5, 3)] == pytest.approx(0.03 * d)
    assert moved[("8x4", 6, 1)] == 0 and moved[("7x4", 5, 1)] == 0


def test_a_new_deal_starts_at_the_mean_of_its_levels_known_deals(solitaire):
    play(solitaire, "2025-11-03", [("A", "8x4", 5, 1, True), ("B", "8x4", 5, 2, False)])
    level = LevelRating.objects.get()
    mean = (current(solitaire, "8x4", 5, 1) + current(solitaire, "8x4", 5, 2)) / 2
    assert level.average == pytest.approx(mean)
    play(solitaire, "2025-11-04", [("C", "8x4", 5, 3, True)])
    assert AttemptRating.objects.get(session_date=date(2025, 11, 4)).deal_before == pytest.approx(mean)


def test_seeded_deals_start_from_their_prior_record(solitaire):
    # 320 wins in 500 plays at 7x4 level 5: its average is 64%, as in the seed's example.
    deal_services.seed_deals(
        [
            ImportedSeed(2, "Solitaire", "7x4", 5, 11, 100, 10),
            ImportedSeed(3, "Solitaire", "7x4", 5, 12, 400, 310),
        ]
    )
    assert round(current(solitaire, "7x4", 5, 11)) == 1837
    play(solitaire, "2025-11-03", [("A", "7x4", 5, 11, True), ("A", "7x4", 5, 99, False)])
    first, second = AttemptRating.objects.order_by("position")
    assert round(first.deal_before) == 1837
    # deal 99 was never seeded: it starts at the mean of the two seeded deals, as A left them.
    seeded = DealRating.objects.filter(seeded__isnull=False)
    assert second.deal_before == pytest.approx(sum(d.base for d in seeded) / 2 + first.level_offset_after)


def test_only_rated_attempts_count(solitaire):
    play(solitaire, "2025-11-03", [("A", "8x4", 5, 1, True, False), ("A", "8x4", 5, 1, False)])
    assert AttemptRating.objects.count() == 1
    assert Standing.objects.get().played == 1
    assert LevelRating.objects.get().attempts == 1


def test_with_first_attempt_only_a_players_replays_of_a_deal_are_not_rated(solitaire):
    table = table_of(solitaire)
    table.parameters = {"first_attempt_only": True}
    save_rating_table(table)
    play(solitaire, "2025-11-03", [("A", "8x4", 5, 1, True, False), ("A", "8x4", 5, 1, False)])
    play(solitaire, "2025-11-04", [("A", "8x4", 5, 1, True), ("B", "8x4", 5, 1, True)])
    # A's unrated try does not count as a first attempt; their first rated one does; the replay not.
    rated = list(AttemptRating.objects.order_by("session_date", "position").values_list("player__short_name", "won"))
    assert rated == [("A", False), ("B", True)]


def random_league(game, sessions=12, seed=3):
    rng = random.Random(seed)
    day = date(2025, 1, 1)
    for _ in range(sessions):
        attempts = [
            (
                rng.choice("ABCDEF"),
                rng.choice(["8x4", "7x4"]),
                rng.choice([5, 6]),
                rng.randint(1, 6),
                rng.random() < 0.6,
                rng.random() < 0.9,
            )
            for _ in range(rng.randint(3, 9))
        ]
        play(game, day.isoformat(), attempts)
        day += timedelta(days=rng.randint(2, 4))


def edits(game):
    """Edits of the league's middle: results changed, an attempt added, a session moved or removed."""
    sessions = list(DealSession.objects.filter(game=game).order_by("date"))
    middle = sessions[len(sessions) // 2]

    def change_results():
        attempts = [
            AttemptInput(a.player, a.deal.level.variant, a.deal.level.level, a.deal.number, not a.won, a.rated)
            for a in middle.attempts.select_related("player", "deal__level")
        ]
        deal_services.save_session(middle, attempts + [AttemptInput(player("G"), "9x4", 5, 1, True)])

    def move_earlier():
        taken = {s.date for s in sessions}
        middle.date = next(d for d in (sessions[3].date - timedelta(days=n) for n in range(1, 9)) if d not in taken)
        attempts = [
            AttemptInput(a.player, a.deal.level.variant, a.deal.level.level, a.deal.number, a.won, a.rated)
            for a in middle.attempts.select_related("player", "deal__level")
        ]
        deal_services.save_session(middle, attempts[1:])

    def delete():
        deal_services.delete_sessions([middle])

    return {"results": change_results, "moved": move_earlier, "deleted": delete}


@pytest.mark.parametrize("first_only", [False, True])
@pytest.mark.parametrize("edit", ["results", "moved", "deleted"])
def test_a_recompute_from_an_edited_session_equals_a_full_one(solitaire, edit, first_only):
    table = table_of(solitaire)
    table.parameters = {"first_attempt_only": first_only}
    save_rating_table(table)
    deal_services.seed_deals([ImportedSeed(1, "Solitaire", "8x4", 5, 1, 50, 20)])
    random_league(solitaire)
    cutoff = DealSession.objects.order_by("date")[2].date  # every edit lies after it
    first_rows = set(table.attempt_ratings.filter(session_date__lt=cutoff).values_list("pk", flat=True))
    assert first_rows
    before = stored(solitaire)
    edits(solitaire)[edit]()
    partial = stored(solitaire)
    assert partial != before
    assert first_rows <= set(table.attempt_ratings.values_list("pk", flat=True))  # earlier rows were kept
    rebuild_all()
    assert stored(solitaire) == partial
    assert differences() == []


def test_recompute_ratings_check_finds_a_stale_deal_rating(solitaire):
    random_league(solitaire, sessions=4)
    call_command("recompute_ratings", "--check")
    DealRating.objects.filter(pk=DealRating.objects.first().pk).update(base=1234)
    with pytest.raises(CommandError, match="deal .*: stored \\(1234.0"):
        call_command("recompute_ratings", "--check")
    call_command("recompute_ratings")
    call_command("recompute_ratings", "--check")


def test_a_deal_game_counts_only_in_its_own_table(solitaire, club):
    overall = RatingTable.objects.get(slug="overall")
    play(solitaire, "2025-11-20", [("I", "8x4", 5, 1, True)])
    rebuild_all()
    assert not overall.counts(solitaire)
    assert table_of(solitaire).method == "player-vs-deal"
    assert Standing.objects.get(table=table_of(solitaire)).rating > 1500
    # The overall table is the club's, untouched by I's solitaire.
    assert Standing.objects.get(table=overall, player__short_name="I").rating == 1521


def test_a_session_of_a_game_of_matchdays_is_refused(club):
    hearts = Game.objects.get(name="Hearts")
    with pytest.raises(ValidationError, match="Hearts is not played against deals"):
        play(hearts, "2025-11-20", [("I", "8x4", 5, 1, True)])
    assert not DealSession.objects.exists()


def test_a_second_session_on_the_same_day_is_refused(solitaire):
    play(solitaire, "2025-11-03", [("A", "8x4", 5, 1, True)])
    with pytest.raises(ValidationError, match="already has a session on that date"):
        play(solitaire, "2025-11-03", [("B", "8x4", 5, 1, True)])
    assert Attempt.objects.count() == 1


def test_variants_are_compared_like_names(solitaire):
    play(solitaire, "2025-11-03", [("A", "8x4", 5, 1, True), ("B", "8X4", 5, 1, False)])
    assert Deal.objects.count() == 1


def test_a_game_with_sessions_cannot_stop_being_played_against_deals(solitaire):
    play(solitaire, "2025-11-03", [("A", "8x4", 5, 1, True)])
    solitaire.against_deals = False
    with pytest.raises(ValidationError, match="must stay played against deals"):
        save_game(solitaire)


def test_the_table_of_a_deal_game_refuses_a_method_of_matchdays(solitaire):
    table = table_of(solitaire)
    table.method = "club"
    with pytest.raises(ValidationError, match="only Player against deal rates"):
        save_rating_table(table)


def test_changing_the_inactivity_window_recomputes_nothing(solitaire):
    play(solitaire, "2025-11-03", [("A", "8x4", 5, 1, True)])
    table = table_of(solitaire)
    table.parameters = {"inactive_days": 30}
    assert save_rating_table(table) is None
    table.parameters = {"inactive_days": 30, "k": 16}
    assert save_rating_table(table) == 1
    assert AttemptRating.objects.get().k == 16
