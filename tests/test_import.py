"""CSV import of matchday results: all or nothing, with messages that say where the mistake is."""

import pytest
from django.core.management import CommandError, call_command

from league.models import Game, Matchday, Player, Result
from ratings.models import RatingEntry, RatingTable
from ratings.services.rating_tables import save_rating_table
from tests.conftest import CLUB_CSV, grid_page
from web.importing import ImportFailed, import_results

HEADER = "matchday,date,game,rounds,player,placing,rated_placing"
AFTER_MATCHDAY_6 = {"I": 1521, "R": 1492, "GL": 1461, "K": 1494, "J": 1534}

# Three small matchdays; the results start on line 2, so matchday 3 is lines 6 and 7.
SMALL = [
    "1,2025-11-03,Hearts,2,A,1,",
    "1,2025-11-03,Hearts,2,B,2,",
    "2,2025-11-04,Hearts,2,A,2,",
    "2,2025-11-04,Hearts,2,B,1,",
    "3,2025-11-05,Hearts,2,A,1,",
    "3,2025-11-05,Hearts,2,B,2,",
]


def csv(*lines, header=HEADER, newline="\n"):
    return newline.join([header, *lines]).encode() + newline.encode()


def with_line(lines, number, text):
    """`lines` with file line `number` (the header is line 1) replaced by `text`."""
    changed = list(lines)
    changed[number - 2] = text
    return changed


def failure(data, **kwargs):
    with pytest.raises(ImportFailed) as raised:
        import_results(data, **kwargs)
    return raised.value.errors


def counts():
    return {model.__name__: model.objects.count() for model in (Player, Game, Matchday, Result, RatingEntry)}


def nothing_at_all():
    return {"Player": 0, "Game": 0, "Matchday": 0, "Result": 0, "RatingEntry": 0}


def ratings_of(matchday_number):
    return {
        (e.table.slug, e.player.short_name): (e.rating_before, e.rating_after)
        for e in RatingEntry.objects.filter(matchday__number=matchday_number).select_related("table", "player")
    }


# The club's file


def test_importing_the_club_file_creates_its_six_matchdays_and_five_players(db):
    summary = import_results(CLUB_CSV.read_bytes())

    assert (summary.matchdays, summary.results) == (6, 24)
    assert summary.players_created == ["I", "R", "GL", "K", "J"]
    assert summary.games_created == ["Hearts"]
    assert list(Matchday.objects.in_play_order().values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]
    assert set(Player.objects.values_list("short_name", flat=True)) == set(AFTER_MATCHDAY_6)
    assert Result.objects.count() == 24
    fifth_r = Result.objects.get(matchday__number=5, player__short_name="R")
    assert (fifth_r.placing, fifth_r.rated_placing) == (3, 4)


def test_importing_the_club_file_gives_the_overall_ratings_of_the_club_page_after_matchday_6(db):
    import_results(CLUB_CSV.read_bytes())

    overall = RatingTable.objects.get(scope=RatingTable.Scope.OVERALL)
    grid = grid_page(overall)
    last = grid.rows[-1]
    assert last.matchday.number == 6
    assert {p.short_name: last.cells[p.pk] for p in grid.players} == AFTER_MATCHDAY_6
    assert [p.short_name for p in grid.players] == ["I", "R", "GL", "K", "J"]


def test_new_games_are_created_as_official_and_counted_in_the_overall_rating(db):
    import_results(csv("1,2025-11-03,Spades,3,A,1,", "1,2025-11-03,Spades,3,B,2,"))

    spades = Game.objects.get(name="Spades")
    assert spades.official
    assert spades.slug == "spades"
    assert RatingEntry.objects.filter(table__scope=RatingTable.Scope.OVERALL).count() == 2
    assert RatingEntry.objects.filter(table__game=spades).count() == 2


def test_known_players_and_games_are_matched_whatever_their_case(db):
    import_results(CLUB_CSV.read_bytes())

    summary = import_results(csv("7,2025-11-20,hearts,3,i,1,", "7,2025-11-20,hearts,3,gl,2,"))

    assert (summary.players_created, summary.games_created) == ([], [])
    assert Player.objects.count() == 5
    assert Game.objects.count() == 1
    assert {before for before, _ in ratings_of(7).values()} == {1521, 1461}


# All or nothing


def test_a_file_whose_last_line_has_a_bad_date_imports_nothing_and_names_the_line(db):
    lines = with_line(SMALL, 7, "3,2025-11-31,Hearts,2,B,2,")

    errors = failure(csv(*lines))

    assert "Line 7: date '2025-11-31' is not a date like 2025-11-03." in errors
    assert counts() == nothing_at_all()


def test_a_file_whose_last_matchday_is_not_a_ranking_imports_nothing_and_names_the_lines(db):
    lines = with_line(SMALL, 6, "3,2025-11-05,Hearts,2,A,2,")

    errors = failure(csv(*lines))

    assert len(errors) == 1
    assert errors[0].startswith("Matchday 3 (lines 6-7): The placings 2, 2 are not a ranking")
    assert "Did you mean 1, 1?" in errors[0]
    assert counts() == nothing_at_all()


def test_a_file_whose_last_placing_is_out_of_range_imports_nothing_and_names_line_7(db):
    lines = with_line(SMALL, 7, "3,2025-11-05,Hearts,2,B,3,")

    errors = failure(csv(*lines))

    assert errors == ["Line 7: placing 3 for B is outside 1..2 (2 players took part)."]
    assert counts() == nothing_at_all()


def test_a_bad_last_matchday_after_good_new_ones_leaves_the_existing_league_untouched(db):
    import_results(CLUB_CSV.read_bytes())
    before = counts()
    ratings_before = {n: ratings_of(n) for n in range(1, 7)}

    errors = failure(
        csv(
            "7,2025-11-20,Hearts,3,I,1,",
            "7,2025-11-20,NewGame,3,NEW,2,",
            "8,2025-11-21,Hearts,3,I,1,",
            "8,2025-11-21,Hearts,3,R,1,",
            "8,2025-11-21,Hearts,3,GL,2,",
        )
    )

    assert "Line 3: matchday 7 has game NewGame here but Hearts on line 2." in errors
    assert any(e.startswith("Matchday 8 (lines 4-6): The placings 1, 1, 2 are not a ranking") for e in errors)
    assert counts() == before
    assert not Player.objects.filter(short_name="NEW").exists()
    assert {n: ratings_of(n) for n in range(1, 7)} == ratings_before


def test_every_problem_in_the_file_is_listed_at_once(db):
    lines = with_line(with_line(SMALL, 3, "1,2025-11-03,Hearts,2,B,x,"), 5, "2,yesterday,Hearts,2,B,1,")

    errors = failure(csv(*lines))

    assert "Line 3: placing must be a whole number, not 'x'." in errors
    assert "Line 5: date 'yesterday' is not a date like 2025-11-03." in errors


# The header and the file as a whole


def test_a_missing_header_column_is_named(db):
    header = "matchday,date,game,rounds,player,placing"
    errors = failure(csv("1,2025-11-03,Hearts,2,A,1", "1,2025-11-03,Hearts,2,B,2", header=header))

    assert errors == [
        "Line 1: header columns missing rated_placing. Expected: matchday,date,game,rounds,player,placing,rated_placing"
    ]
    assert counts() == nothing_at_all()


def test_an_unknown_header_column_is_named(db):
    errors = failure(csv("1,2025-11-03,Hearts,2,A,1,,x", header=HEADER + ",points"))

    assert errors == [
        "Line 1: header columns unknown 'points'. Expected: matchday,date,game,rounds,player,placing,rated_placing"
    ]


def test_a_misspelt_header_column_is_named_as_both_missing_and_unknown(db):
    errors = failure(csv("1,2025-11-03,Hearts,2,A,1,", header=HEADER.replace("placing,", "place,")))

    assert errors[0].startswith("Line 1: header columns missing placing; unknown 'place'.")


def test_a_column_given_twice_in_the_header_is_named(db):
    header = HEADER + ",player"
    errors = failure(csv("1,2025-11-03,Hearts,2,A,1,,B", "1,2025-11-03,Hearts,2,B,2,,A", header=header))

    assert len(errors) == 1
    assert errors[0].startswith("Line 1:")
    assert "player" in errors[0]
    assert counts() == nothing_at_all()


@pytest.mark.parametrize("data", [b"", b"\n\n", b"\xef\xbb\xbf", b" , ,\r\n"])
def test_an_empty_file_asks_for_the_header(db, data):
    assert failure(data) == [
        "The file is empty; the first line must be the header: matchday,date,game,rounds,player,placing,rated_placing"
    ]


@pytest.mark.parametrize("data", [csv(), csv("", " , , , , , , ", "")])
def test_a_header_without_results_is_refused(db, data):
    assert failure(data) == ["The file has a header but no results."]


def test_a_file_that_is_not_utf8_is_refused_with_the_fix(db):
    data = csv(*SMALL).replace(b"A,1", "\u00c5,1".encode("cp1252"), 1)

    [error] = failure(data)

    assert "the file is not UTF-8 text" in error
    assert "save it as CSV UTF-8" in error
    assert counts() == nothing_at_all()


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_a_file_that_is_not_utf8_names_the_line_of_the_bad_byte(db, bom):
    lines = with_line(SMALL, 4, "2,2025-11-04,Hearts,2,\u00c5,2,")
    data = bom + "\n".join([HEADER, *lines]).encode("cp1252")

    [error] = failure(data)

    assert "Line 4" in error


# One line at a time


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("1,2025-11-03,Hearts,2,B,first,", "Line 3: placing must be a whole number, not 'first'."),
        ("1,2025-11-03,Hearts,2,B,2.0,", "Line 3: placing must be a whole number, not '2.0'."),
        ("1,2025-11-03,Hearts,2,B,-2,", "Line 3: placing must be at least 1, not -2."),
        ("1,2025-11-03,Hearts,2,B,0,", "Line 3: placing must be at least 1, not 0."),
        ("1,2025-11-03,Hearts,2,B,2,0", "Line 3: rated_placing must be at least 1, not 0."),
        ("1,2025-11-03,Hearts,2,B,2,last", "Line 3: rated_placing must be a whole number, not 'last'."),
        ("1,2025-11-03,Hearts,2,B,,", "Line 3: B has no placing."),  # as the admin says it
        ("1,2025-11-03,Hearts,2,,2,", "Line 3: player is empty."),
        ("one,2025-11-03,Hearts,2,B,2,", "Line 3: matchday must be a whole number, not 'one'."),
        ("1,2025-11-03,Hearts,zero,B,2,", "Line 3: rounds must be a whole number, not 'zero'."),
        ("1,2025-11-03,Hearts,0,B,2,", "Line 3: rounds must be at least 1, not 0."),
        ("1,03/11/2025,Hearts,2,B,2,", "Line 3: date '03/11/2025' is not a date like 2025-11-03."),
        ("1,2025-11-03,Hearts,2,B", "Line 3: 5 values, but the header has 7 columns."),
        ("1,2025-11-03,Hearts,2,B,2,,extra", "Line 3: 8 values, but the header has 7 columns."),
    ],
)
def test_a_bad_value_is_reported_with_its_line_and_column(db, line, message):
    errors = failure(csv(*with_line(SMALL, 3, line)))

    assert errors[0] == message
    assert counts() == nothing_at_all()


def test_a_bad_line_does_not_cause_misleading_errors_about_the_other_lines_of_its_matchday(db):
    data = CLUB_CSV.read_bytes().replace(b"6,2025-11-15,Hearts,5,K,3,", b"6,2025-11-51,Hearts,5,K,3,")

    errors = failure(data)

    assert errors == ["Line 25: date '2025-11-51' is not a date like 2025-11-03."]


def test_a_player_name_longer_than_a_full_name_is_refused_naming_the_line(db):
    errors = failure(csv("1,2025-11-03,Hearts,2,A,1,", f"1,2025-11-03,Hearts,2,{'A' * 101},2,"))

    assert len(errors) == 1
    assert errors[0].startswith("Line 3: player")
    assert counts() == nothing_at_all()


def test_rounds_too_large_to_store_are_refused_naming_the_line(db):
    errors = failure(csv("1,2025-11-03,Hearts,40000,A,1,", "1,2025-11-03,Hearts,40000,B,2,"))

    assert errors[0].startswith("Line 2: rounds")
    assert counts() == nothing_at_all()


def test_a_matchday_number_too_large_to_store_is_refused_naming_the_line(db):
    number = "99999999999999999999"
    errors = failure(csv(f"{number},2025-11-03,Hearts,2,A,1,", f"{number},2025-11-03,Hearts,2,B,2,"))

    assert errors[0].startswith("Line 2: matchday")
    assert counts() == nothing_at_all()


# One matchday at a time


def test_the_same_player_twice_in_a_matchday_names_both_lines(db):
    errors = failure(csv(*SMALL[:2], "1,2025-11-03,Hearts,2,a,3,"))

    assert errors == ["Line 4: A is entered twice (also in Line 2)."]  # under the name A goes by


def test_a_matchday_with_one_player_is_refused_naming_its_line(db):
    errors = failure(csv(*SMALL, "4,2025-11-06,Hearts,2,A,1,"))

    assert errors == ["Matchday 4 (line 8): A matchday needs at least two players; this one has 1."]


def test_placings_that_are_not_a_ranking_are_refused_with_the_ranking_meant(db):
    errors = failure(
        csv(
            "1,2025-11-03,Hearts,2,A,1,",
            "1,2025-11-03,Hearts,2,B,2,",
            "1,2025-11-03,Hearts,2,C,2,",
            "1,2025-11-03,Hearts,2,D,3,",
        )
    )

    assert len(errors) == 1
    assert errors[0].startswith("Matchday 1 (lines 2-5): The placings 1, 2, 2, 3 are not a ranking")
    assert errors[0].endswith("Did you mean 1, 2, 2, 4?")


def test_rated_placings_that_contradict_the_penalty_are_refused_naming_the_player(db):
    errors = failure(
        csv(
            "1,2025-11-03,Hearts,2,A,1,",
            "1,2025-11-03,Hearts,2,B,2,4",
            "1,2025-11-03,Hearts,2,C,3,",
            "1,2025-11-03,Hearts,2,D,4,4",
        )
    )

    assert len(errors) == 1
    assert errors[0].startswith("Line 5: The rated placings do not rank the players: D should be rated 3.")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "1,2025-11-04,Hearts,2,B,2,",
            "Line 3: matchday 1 has date 2025-11-04 here but 2025-11-03 on line 2.",
        ),
        ("1,2025-11-03,Hearts,3,B,2,", "Line 3: matchday 1 has rounds 3 here but 2 on line 2."),
        ("1,2025-11-03,Spades,2,B,2,", "Line 3: matchday 1 has game Spades here but Hearts on line 2."),
    ],
)
def test_a_matchday_must_have_one_date_game_and_number_of_rounds(db, line, message):
    errors = failure(csv(*with_line(SMALL, 3, line)))

    assert errors == [message]
    assert counts() == nothing_at_all()


# Odd but valid files


def test_a_utf8_bom_is_ignored(db):
    import_results(b"\xef\xbb\xbf" + CLUB_CSV.read_bytes())

    assert Matchday.objects.count() == 6
    assert Player.objects.filter(short_name="I").exists()


def test_windows_line_endings_are_accepted(db):
    data = CLUB_CSV.read_bytes().replace(b"\n", b"\r\n")
    assert b"\r\n" in data

    import_results(data)

    assert Result.objects.count() == 24
    assert set(Player.objects.values_list("short_name", flat=True)) == set(AFTER_MATCHDAY_6)


def test_a_left_early_column_rates_the_player_after_everyone_who_stayed(db):
    header = "matchday,date,game,rounds,player,placing,rated_placing,left_early"
    import_results(
        csv(
            "1,2025-11-03,Hearts,2,A,1,,",
            "1,2025-11-03,Hearts,2,B,2,,yes",
            "1,2025-11-03,Hearts,2,C,2,,0",
            "1,2025-11-03,Hearts,2,D,4,,",
            header=header,
        )
    )
    stored = dict(Result.objects.values_list("player__short_name", "rated_placing"))
    assert stored == {"A": None, "B": 4, "C": None, "D": 3}
    assert Result.objects.get(player__short_name="B").left_early
    errors = failure(csv("2,2025-11-04,Hearts,2,A,1,,", "2,2025-11-04,Hearts,2,B,2,2,1", header=header))
    assert errors == [
        "Line 3: B left early, which already rates them after everyone who stayed; leave their rated placing (2) empty."
    ]


def test_spaces_around_values_and_header_names_are_ignored(db):
    header = " matchday , date , game , rounds , player , placing , rated_placing "
    import_results(
        csv(
            " 1 , 2025-11-03 , Hearts , 2 , A , 1 ,  ",
            "1,2025-11-03,Hearts,2, B ,2, 2 ",
            header=header,
        )
    )

    assert Game.objects.get().name == "Hearts"
    assert sorted(Player.objects.values_list("short_name", flat=True)) == ["A", "B"]
    b = Result.objects.get(player__short_name="B")
    assert (b.placing, b.rated_placing, b.matchday.rounds) == (2, None, 2)  # rated as placed: no penalty


def test_columns_may_come_in_any_order_and_header_case(db):
    header = "Player,Placing,Rated_Placing,Game,Date,Rounds,Matchday"
    import_results(csv("A,2,,Hearts,2025-11-03,4,9", "B,1,,Hearts,2025-11-03,4,9", header=header))

    matchday = Matchday.objects.get()
    assert (matchday.number, str(matchday.date), matchday.rounds) == (9, "2025-11-03", 4)
    assert {r.player.short_name: r.placing for r in matchday.results.all()} == {"A": 2, "B": 1}


def test_blank_lines_and_lines_of_empty_cells_are_skipped(db):
    import_results(csv(SMALL[0], "", ",,,,,,", SMALL[1]))

    assert Result.objects.count() == 2


def test_a_tie_and_a_penalty_as_in_the_clubs_matchday_5_are_accepted(db):
    import_results(
        csv(
            "5,2025-11-10,Hearts,4,I,2,",
            "5,2025-11-10,Hearts,4,R,3,4",
            "5,2025-11-10,Hearts,4,GL,1,",
            "5,2025-11-10,Hearts,4,J,3,",
        )
    )

    assert Result.objects.get(player__short_name="R").display_placing == "4(3)"


# Matchdays that exist already


def test_an_existing_matchday_is_refused_naming_it(db):
    import_results(CLUB_CSV.read_bytes())
    before = counts()

    errors = failure(csv("6,2025-11-15,Hearts,5,I,1,", "6,2025-11-15,Hearts,5,R,2,"))

    assert errors == [
        "Matchday 6 already exists; to replace its results, tick Replace on the upload page, "
        "or give the command --replace."
    ]
    assert counts() == before


def test_replace_replaces_the_matchdays_results_and_rerates_from_it(db):
    import_results(CLUB_CSV.read_bytes())
    earlier = {n: ratings_of(n) for n in range(1, 6)}
    sixth_before = ratings_of(6)

    summary = import_results(
        csv(
            "6,2025-11-15,Hearts,5,I,4,",
            "6,2025-11-15,Hearts,5,R,3,",
            "6,2025-11-15,Hearts,5,GL,1,",
            "6,2025-11-15,Hearts,5,K,2,",
        ),
        replace=True,
    )

    assert (summary.matchdays, summary.results) == (1, 4)
    assert Matchday.objects.count() == 6
    sixth = Matchday.objects.get(number=6)
    assert {r.player.short_name: r.placing for r in sixth.results.all()} == {"I": 4, "R": 3, "GL": 1, "K": 2}
    assert Result.objects.count() == 24
    assert {n: ratings_of(n) for n in range(1, 6)} == earlier
    sixth_after = ratings_of(6)
    assert sixth_after.keys() == sixth_before.keys()
    # Same ratings going in, other results coming out.
    assert {k: before for k, (before, _) in sixth_after.items()} == {
        k: before for k, (before, _) in sixth_before.items()
    }
    assert sixth_after[("overall", "I")][1] < 1521
    assert sixth_after[("overall", "GL")][1] > 1461


def test_replace_can_move_a_matchday_to_another_date_and_rerates_from_its_old_place(db):
    import_results(CLUB_CSV.read_bytes())
    first_before = ratings_of(1)

    import_results(
        csv(
            "2,2025-11-20,Hearts,2,R,4,",
            "2,2025-11-20,Hearts,2,GL,3,",
            "2,2025-11-20,Hearts,2,K,2,",
            "2,2025-11-20,Hearts,2,J,1,",
        ),
        replace=True,
    )

    assert ratings_of(1) == first_before
    # Matchday 3 now comes straight after matchday 1, so R starts it from his rating after matchday 1.
    r_after_1 = first_before[("overall", "R")][1]
    assert ratings_of(3)[("overall", "R")][0] == r_after_1
    # And matchday 2 is now rated last, after matchday 6.
    last = RatingEntry.objects.filter(table__slug="overall").order_by("matchday__date", "matchday__number").last()
    assert last.matchday.number == 2


# The management command


def test_the_command_imports_the_file_and_prints_a_summary(db, capsys):
    call_command("import_results", str(CLUB_CSV))

    out = capsys.readouterr().out
    assert "Imported 6 matchdays with 24 results." in out
    assert "New players: I, R, GL, K, J" in out
    assert "New games (official): Hearts" in out
    assert Matchday.objects.count() == 6


def test_the_command_says_nothing_was_imported_and_lists_the_problems(db, tmp_path):
    path = tmp_path / "november.csv"
    path.write_bytes(csv(*with_line(SMALL, 7, "3,2025-11-05,Hearts,2,B,3,")))

    with pytest.raises(CommandError) as raised:
        call_command("import_results", str(path))

    message = str(raised.value)
    assert message.startswith(f"Nothing was imported from {path}:")
    assert "Line 7: placing 3 for B is outside 1..2 (2 players took part)." in message
    assert counts() == nothing_at_all()


def test_the_command_refuses_an_existing_matchday_unless_told_to_replace(db, tmp_path, capsys):
    import_results(CLUB_CSV.read_bytes())
    path = tmp_path / "sixth.csv"
    path.write_bytes(csv("6,2025-11-15,Hearts,5,I,2,", "6,2025-11-15,Hearts,5,R,1,"))

    with pytest.raises(CommandError, match=r"^Nothing was imported") as raised:
        call_command("import_results", str(path))
    assert "Matchday 6 already exists; to replace its results, tick Replace" in str(raised.value)

    call_command("import_results", str(path), "--replace")
    assert "Imported 1 matchday with 2 results." in capsys.readouterr().out
    assert Matchday.objects.get(number=6).results.count() == 2


def test_the_command_reports_a_file_it_cannot_read(db, tmp_path):
    with pytest.raises(CommandError, match=r"^Cannot read .*missing\.csv"):
        call_command("import_results", str(tmp_path / "missing.csv"))


def test_results_a_tables_method_cannot_rate_are_refused_with_a_message(db):
    import_results(
        b"matchday,date,game,rounds,player,placing,rated_placing\n1,2025-11-03,Hearts,2,A,1,\n1,2025-11-03,Hearts,2,B,2,\n"
    )
    hearts = RatingTable.objects.get(slug="hearts")
    hearts.method = "sedma"  # a two-player method
    save_rating_table(hearts)
    errors = failure(csv("2,2025-11-04,Hearts,2,A,1,", "2,2025-11-04,Hearts,2,B,2,", "2,2025-11-04,Hearts,2,C,3,"))
    assert errors == [
        "Matchday 2 (lines 2-4): The Hearts rating uses Sedma: rating bands with bonuses: Sedma: rating bands with "
        "bonuses rates two-player games only, not 3 players."
    ]
    assert not Matchday.objects.filter(number=2).exists()
    assert not Player.objects.filter(short_name="C").exists()


@pytest.mark.slow  # a big community's history: the benchmark's size
def test_a_file_of_a_hundred_thousand_rows_is_imported(db):
    """The size of a big community's history; the benchmark times it (see docs/performance.md)."""
    import io as _io

    from tools.generate import generate

    out = _io.StringIO()
    out.write(",".join(["matchday", "date", "game", "rounds", "player", "placing", "rated_placing"]) + "\n")
    rows = 0
    for row in generate(players=500, matchdays=22_300, seed=3):
        out.write(",".join(str(v) for v in row) + "\n")
        rows += 1
    assert rows >= 100_000
    summary = import_results(out.getvalue().encode())
    assert (summary.matchdays, summary.results) == (22_300, rows)
    assert Result.objects.count() == rows
    assert RatingEntry.objects.filter(table__slug="overall").count() > 0.8 * rows


def test_a_game_played_against_deals_is_refused_also_beside_a_line_that_cannot_be_read(db):
    from ratings.services.catalogue import save_game

    save_game(Game(name="Solitaire", slug="solitaire", against_deals=True))
    lines = ("1,2025-11-03,Solitaire,2,A,1,", "1,2025-11-03,Solitaire,2,B,2,", "2,2025-11-04,Hearts,x,A,1,")
    assert failure(csv(*lines)) == [
        "Line 4: rounds must be a whole number, not 'x'.",
        "Matchday 1: Solitaire is played against deals; import its attempts with import_attempts instead.",
    ]
    assert failure(csv(*lines[:2])) == [
        "Matchday 1: Solitaire is played against deals; import its attempts with import_attempts instead."
    ]
    assert counts() == nothing_at_all() | {"Game": 1}


def test_a_header_of_many_columns_names_each_once_the_first_ten_then_how_many_more(db):
    from web.deals.importing import import_attempts

    header = HEADER + "," + ",".join(f"c{n % 20_000}" for n in range(40_000))  # each twice
    errors = failure(csv("1,2025-11-03,Hearts,2,A,1,", header=header))
    first = ", ".join(f"'c{n}'" for n in range(10))
    doubled = ", ".join(repr(c) for c in sorted(f"c{n}" for n in range(20_000))[:10])  # c0, c1, c10, c100...
    assert errors == [
        f"Line 1: header columns unknown {first} and 19,990 more; given twice {doubled} and 19,990 more. "
        "Expected: matchday,date,game,rounds,player,placing,rated_placing"
    ]
    attempts = "date,game,variant,level,deal,player,won," + ",".join(f"c{n}" for n in range(40_000))
    with pytest.raises(ImportFailed) as failed:  # the attempts' header is read by the same reader
        import_attempts(attempts.encode() + b"\n")
    assert failed.value.errors[0].startswith(f"Line 1: header columns unknown {first} and 39,990 more. Expected:")
