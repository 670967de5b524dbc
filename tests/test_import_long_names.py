"""A file's player names of 13 to 40 characters (a real log's guest `Bosco(Vivian)`, BG Stats'
`Anonymous player`) are full names: each new player gets a short name made from it, unique in the
club, and the next file finds them by it."""

from league.models import Player, Result
from web.importing import import_results

HEADER = "matchday,date,game,rounds,player,placing,rated_placing"
FORTY = "Maximiliane Josephine von Hohenzollern-S"  # 40 characters


def night(number: int, names: list[str]) -> bytes:
    rows = [f"{number},2026-01-0{number},Bang,1,{name},{place}," for place, name in enumerate(names, start=1)]
    return "\n".join([HEADER, *rows]).encode() + b"\n"


def test_names_of_13_to_40_characters_import_as_full_names_with_short_names_made(db):
    assert len(FORTY) == 40
    Player.objects.create(short_name="Bosco V", name="Bosco Vale")  # a member the guest's short name may not take
    summary = import_results(night(1, ["Bosco(Vivian)", "Anonymous player", "Garrick", FORTY, "Bosco(Vitorio)"]))
    made = {p.name: p.short_name for p in Player.objects.exclude(short_name__in=["Bosco V", "Garrick"])}
    assert made == {
        "Bosco(Vivian)": "Bosco Vi",
        "Anonymous player": "Anonymous P",
        FORTY: "Maximiliane",
        "Bosco(Vitorio)": "Bosco Vit",
    }
    assert all(len(short) <= 12 for short in made.values())
    assert sorted(summary.players_created) == sorted([*made.values(), "Garrick"])
    assert Result.objects.filter(matchday__number=1).count() == 5


def test_the_next_file_finds_a_long_named_player_by_their_full_name(db):
    import_results(night(1, ["Bosco(Vivian)", "Anonymous player"]))
    summary = import_results(night(2, ["anonymous player", "Bosco(Vivian)"]))
    assert summary.players_created == []
    assert Player.objects.count() == 2
    assert Result.objects.filter(matchday__number=2, player__name="Bosco(Vivian)", placing=2).exists()
