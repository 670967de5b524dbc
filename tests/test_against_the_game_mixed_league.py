"""Plays against the game on the mixed league (tests/conftest.py), by its own members, beside a
second club: co-operative plays won and lost, solo plays of a co-operative and of a competitive
game, imported from a BG Stats file. Every public page of both clubs answers, the games' stand-ins
are never on the standings or in the directory, and each player's record against the game is theirs."""

import json
from datetime import date

from django.urls import reverse
from django_scopes import scope

from league.bgstats import read_export
from league.models import Club, Game, Matchday, Player
from ratings.services.bgstats import import_bgstats
from ratings.services.recompute import differences
from tests.conftest import MIXED_MEMBERS
from tests.test_mixed_league import crawl


def export(members: list[str]) -> bytes:
    players = [{"id": n, "name": name} for n, name in enumerate(members, start=1)]
    games = [
        {"id": 1, "name": "Pandemic", "highestWins": True, "noPoints": True, "cooperative": True, "usesTeams": False},
        {"id": 2, "name": "Azul", "highestWins": True, "noPoints": False, "cooperative": False, "usesTeams": False},
    ]

    def play(uuid, day, game, seats):
        return {"uuid": uuid, "playDate": f"{day} 20:00:00", "gameRefId": game, "playerScores": seats}

    def seat(player, winner, score=""):
        return {"playerRefId": player, "winner": winner, "score": score}

    plays = [
        play("P-1", "2026-02-03", 1, [seat(1, True), seat(2, True), seat(3, True)]),
        play("P-2", "2026-02-10", 1, [seat(1, False), seat(4, False)]),
        play("P-3", "2026-03-01", 1, [seat(2, True)]),  # co-op played alone
        play("A-1", "2026-03-02", 2, [seat(3, True, "88")]),  # a competitive game played solo
        play("A-2", "2026-03-03", 2, [seat(3, True, "70"), seat(4, False, "64")]),
    ]
    return json.dumps({"players": players, "games": games, "plays": plays}).encode()


def test_plays_against_the_game_on_the_mixed_league_beside_another_club(client, mixed_league):
    members = MIXED_MEMBERS[:4]
    report = import_bgstats(read_export(export(members), date(2026, 11, 29)))
    assert len(report.added) == 5 and report.new_players == []
    north = Club.objects.create(slug="north", name="North")
    with scope(club=north.pk):
        import_bgstats(read_export(export(["Ann", "Bo", "Cy", "Di"]), date(2026, 11, 29)))
    assert differences() == []
    pandemic = Game.objects.get(name="Pandemic", club__slug="card-games")
    stand_ins = set(Player.objects.filter(stands_for__isnull=False).values_list("pk", flat=True))
    assert len(stand_ins) == 4  # Pandemic and Azul, in each club
    members_here = Player.objects.filter(club__slug="card-games", stands_for__isnull=True)
    imported = Matchday.objects.filter(club__slug="card-games", source__gt="")
    start = [
        reverse("league:home"),
        reverse("league:standings"),
        reverse("league:players"),
        reverse("league:nights"),
        reverse("ratings:methods"),
        reverse("league:game", args=[pandemic.slug]),
        *(reverse("league:player", args=[p.pk]) for p in members_here),
        *(reverse("league:matchday", args=[m.number]) for m in imported),
    ]
    answers, _ = crawl(client, start)
    assert {url: status for url, status in answers.items() if status != 200} == {}
    for url in (reverse("league:standings"), reverse("league:players")):
        page = client.get(url, {"all": "1"}).content.decode()
        assert not any(f"/players/{pk}/" in page for pk in stand_ins)
    first = Player.objects.get(club__slug="card-games", short_name=members[0])
    page = client.get(reverse("league:player", args=[first.pk])).content.decode()
    assert "Pandemic</a>: won 1 of 2" in page
    north_page = client.get("/north/games/pandemic/").content.decode()
    assert "the players beat Pandemic 2 times in 3" in north_page
