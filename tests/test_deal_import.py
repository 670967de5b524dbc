"""The attempts and seeds CSV imports: all or nothing, with messages that name the line."""

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from league.models import Attempt, Deal, DealSeed, DealSession, Game, Player
from league.validation import FLAG_WORDS
from ratings.models import AttemptRating, DealRating, Standing
from web.deals.importing import import_attempts, import_seeds
from web.importing import ImportFailed

ATTEMPTS = """\
date,game,variant,level,deal,player,won,rated
2025-11-03,Solitaire,8x4,5,11982,GL,W,1
2025-11-03,Solitaire,8x4,5,11982,K,L,
2025-11-03,Solitaire,7x4,6,5,GL,yes,0
2025-11-05,solitaire,8x4,5,11982,R,1,1
"""


def write(tmp_path, text, name="file.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_an_attempts_file_makes_one_session_per_date_and_game_in_line_order(db):
    summary = import_attempts(ATTEMPTS.encode())
    assert (summary.sessions, summary.attempts, summary.deals_created) == (2, 4, 2)
    assert summary.games_created == ["Solitaire"] and Game.objects.get().against_deals
    first = DealSession.objects.order_by("date").first()
    assert [(a.position, a.player.short_name, a.won, a.rated) for a in first.attempts.select_related("player")] == [
        (1, "GL", True, True),
        (2, "K", False, True),
        (3, "GL", True, False),
    ]
    assert AttemptRating.objects.count() == 3  # the unrated attempt is not rated
    assert set(Standing.objects.values_list("player__short_name", flat=True)) == {"GL", "K", "R"}


def test_rated_may_be_left_out(db):
    import_attempts(b"date,game,variant,level,deal,player,won\n2025-11-03,Solitaire,8x4,5,1,GL,0\n")
    assert Attempt.objects.get().rated and AttemptRating.objects.count() == 1


def test_players_are_matched_by_their_name_key(db):
    Player.objects.create(name="Gordon L", short_name="GL")
    import_attempts(ATTEMPTS.replace(",GL,", ",gl,").encode())
    assert Player.objects.count() == 3 and Attempt.objects.filter(player__short_name="GL").count() == 2


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("2025-11-31,Solitaire,8x4,5,1,GL,W", "Line 3: date '2025-11-31' is not a date like 2025-11-03."),
        ("2025-11-04,Solitaire,8x4,5,1,GL,maybe", f"Line 3: won must be W or L, or {FLAG_WORDS}, not 'maybe'."),
        ("2025-11-04,Solitaire,8x4,five,1,GL,W", "Line 3: level must be a whole number, not 'five'."),
        ("2025-11-04,Solitaire,8x4,5,-1,GL,W", "Line 3: deal must be at least 0, not -1."),
        ("2025-11-04,Solitaire,8/4,5,1,GL,W", "Line 3: variant '8/4' may not contain a slash"),
        ("2025-11-04,Solitaire,8x4,5,1,,W", "Line 3: player is empty."),
        ("2025-11-04,Solitaire,8x4,5,1,GL", "Line 3: 6 values, but the header has 7 columns."),
    ],
)
def test_a_bad_line_is_named_and_nothing_is_imported(db, line, message):
    text = f"date,game,variant,level,deal,player,won\n2025-11-03,Solitaire,8x4,5,1,GL,W\n{line}\n"
    with pytest.raises(ImportFailed) as failed:
        import_attempts(text.encode())
    assert any(error.startswith(message) for error in failed.value.errors), failed.value.errors
    assert not Game.objects.exists() and not Attempt.objects.exists() and not Player.objects.exists()


def test_a_bad_rated_value_is_named(db):
    with pytest.raises(ImportFailed, match=re.escape(f"Line 2: rated must be {FLAG_WORDS}, or empty for yes, not 'W'")):
        import_attempts(b"date,game,variant,level,deal,player,won,rated\n2025-11-03,S,8x4,5,1,GL,W,W\n")


def test_a_header_without_the_columns_is_refused(db):
    with pytest.raises(ImportFailed, match="Line 1: header columns missing won; unknown 'result'"):
        import_attempts(b"date,game,variant,level,deal,player,result\n")


def test_attempts_of_a_game_of_matchdays_are_refused_and_nothing_is_imported(club):
    text = ATTEMPTS + "2025-11-06,Hearts,8x4,5,1,GL,W,1\n"
    with pytest.raises(ImportFailed, match="Line 6: Hearts is not played against deals"):
        import_attempts(text.encode())
    assert not Attempt.objects.exists() and not Game.objects.filter(name="Solitaire").exists()


def test_every_problem_of_an_attempts_file_is_listed_at_once_the_games_too(club):
    """A line that cannot be read and a game played in matchdays, in one round (they came in two)."""
    spades = Game.objects.create(name="Spades", slug="spades")
    text = ATTEMPTS + "2025-11-06,Hearts,8x4,5,1,GL,W,1\n2025-11-07,S,8x4,5,1,GL,maybe,1\n"
    text += "2025-11-08,Spades,8x4,5,1,GL,W,1\n2025-11-09,hearts,8x4,5,1,K,L,1\n"
    with pytest.raises(ImportFailed) as failed:
        import_attempts(text.encode())
    errors = failed.value.errors
    assert errors[0].startswith("Line 7: ") and "maybe" in errors[0], errors
    assert errors[1:] == [
        "Line 6: Hearts is not played against deals: its results are matchdays.",
        f"Line 8: {spades} is not played against deals: its results are matchdays.",
    ]
    assert not Attempt.objects.exists()


def test_a_session_that_exists_is_refused_unless_replaced(db, tmp_path):
    import_attempts(ATTEMPTS.encode())
    path = write(tmp_path, ATTEMPTS.replace(",K,L,", ",K,W,"))
    with pytest.raises(
        CommandError, match="(?s)Nothing was imported .*These sessions already exist: 2025-11-03 Solitaire"
    ):
        call_command("import_attempts", str(path))
    call_command("import_attempts", str(path), "--replace")
    assert Attempt.objects.count() == 4 and Attempt.objects.get(player__short_name="K").won


def test_the_command_reports_what_it_imported(db, tmp_path, capsys):
    call_command("import_attempts", str(write(tmp_path, ATTEMPTS)))
    out = capsys.readouterr().out
    assert "Imported 2 sessions with 4 attempts (2 new deals)." in out
    assert "New players: GL, K, R" in out and "New games (played against deals): Solitaire" in out
    call_command("recompute_ratings", "--check")


SEEDS = """\
game,variant,level,deal,plays,wins
Solitaire,7x4,5,11,100,10
Solitaire,7x4,5,12,400,310
"""


def test_seeding_rates_each_deal_from_its_record_and_the_levels_average(db, tmp_path):
    call_command("seed_deals", str(write(tmp_path, SEEDS)))
    rating = DealRating.objects.get(deal__number=11)
    assert round(rating.base) == round(rating.seeded) == 1837  # the seed's example, level average 64%
    assert DealSeed.objects.count() == 2


def test_a_bad_seed_file_imports_nothing(db):
    text = SEEDS + "Solitaire,7x4,5,13,10,11\nSolitaire,7x4,5,11,5,1\nSolitaire,7x4,5,14,0,0\n"
    with pytest.raises(ImportFailed) as failed:
        import_seeds(text.encode())
    assert failed.value.errors == [
        "Line 4: wins must be between 0 and plays (10), not 11.",
        "Line 5: deal 11 of 7x4 level 5 is seeded twice (also on line 2).",
        "Line 6: plays must be at least 1, not 0.",
    ]
    assert not Deal.objects.exists() and not Game.objects.exists()


def test_seeds_and_attempts_together_agree_with_a_full_recompute(db):
    import_seeds(SEEDS.replace("7x4", "8x4").encode())
    import_attempts(ATTEMPTS.encode())
    call_command("recompute_ratings", "--check")


def test_seeding_one_deal_says_one_deal(db, tmp_path):
    out = io.StringIO()
    call_command(
        "seed_deals",
        str(write(tmp_path, "game,variant,level,deal,plays,wins\nSolitaire,7x4,5,11,100,10\n")),
        stdout=out,
    )
    assert out.getvalue().splitlines()[0] == "Seeded 1 deal (1 new)."
