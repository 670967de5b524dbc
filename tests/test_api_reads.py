"""Every API read equals the page it mirrors, on the mixed league (its tables of every kind: the
club's own formula, trueskill sides, points, solitaire against deals), today and as at a past day:
the API's numbers against the page's own download of the same table. A read is a cached page: a
second read is a hit, and a write through the API is read at once."""

import csv
import io
import re

import pytest

from league.models import Game, Matchday
from ratings.models import RatingTable
from tests.conftest import CLUB_SLUG

API = f"/api/{CLUB_SLUG}"
PAGE = f"/{CLUB_SLUG}"
PAST = "2026-01-15"


def download(client, url: str) -> list[dict]:
    response = client.get(url)
    assert response.status_code == 200, url
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


def same_number(shown: str, value: float | None) -> bool:
    """The page's figure (rounded as the page rounds it) is the API's value."""
    if shown == "" or value is None:
        return shown == "" and value is None
    decimals = len(shown.partition(".")[2])
    return abs(float(shown) - value) <= 0.5 * 10**-decimals + 1e-9


def table_keys(client, url: str) -> set[str]:
    html = client.get(url).content.decode()
    return set(re.findall(r'export=csv&amp;table=([^"&]+)"', html))


def check_standings(client, query: str) -> int:
    """Each table the standings page shows (its download) against the API's same table; the tables
    compared."""
    api = client.get(f"{API}/standings/?{query}").json()
    by_table = {t["table"]: t for t in api["tables"]}
    shown = table_keys(client, f"{PAGE}/standings/?{query}")
    assert shown
    for key in shown:
        rows = download(client, f"{PAGE}/standings/?{query}&export=csv&table={key}")
        mine = by_table[key]["rows"]
        assert [r["Player"] for r in rows] == [r["player"] for r in mine], key
        for page_row, row in zip(rows, mine, strict=True):
            assert page_row["#"] == ("" if row["rank"] is None else str(row["rank"]))
            assert same_number(page_row["Rating"], row["rating"]), (key, page_row, row)
            assert same_number(page_row["Last change"], row["last_change"]), (key, page_row, row)
            assert int(page_row.get("Matchdays") or page_row["Attempts"]) == row["played"]  # attempts at deals
            assert page_row["Last played"] == row["last_played"]
            assert page_row.get("Provisional", "False") == str(row["provisional"])
    return len(shown)


@pytest.mark.parametrize("query", ["", "all=1", f"as_at={PAST}", f"as_at={PAST}&all=1"])
def test_standings_equal_the_standings_page(client, mixed_league, query):
    assert check_standings(client, query) >= 5


def test_an_as_at_read_differs_from_today_as_the_page_does(client, mixed_league):
    today = client.get(f"{API}/standings/").json()
    past = client.get(f"{API}/standings/?as_at={PAST}").json()
    assert past["as_at"] == PAST and today["as_at"] is None
    assert {t["table"] for t in past["tables"]} <= {t["table"] for t in today["tables"]}
    overall = lambda answer: next(t for t in answer["tables"] if t["table"] == "overall")["rows"]  # noqa: E731
    assert [r["rating"] for r in overall(past)] != [r["rating"] for r in overall(today)]
    assert all(r["last_played"] <= PAST for r in overall(past))


@pytest.mark.parametrize("query", ["", f"as_at={PAST}"])
def test_players_equal_the_directory(client, mixed_league, query):
    api = client.get(f"{API}/players/?{query}").json()["players"]
    rows = download(client, f"{PAGE}/players/?{query}&export=csv&table=players")
    assert [r["Player"] for r in rows] == [p["short_name"] for p in api]
    for page_row, player in zip(rows, api, strict=True):
        assert page_row["Name"] == player["name"]
        assert same_number(page_row["Overall"], player["rating"])
        assert page_row["#"] == ("" if player["rank"] is None else str(player["rank"]))
        assert int(page_row["Matchdays"]) == player["matchdays"]
        assert int(page_row["Attempts"]) == player["attempts"]
        assert page_row["Last played"] == (player["last_played"] or "")


@pytest.mark.parametrize("query", ["", f"as_at={PAST}"])
def test_a_players_history_equals_their_page(client, mixed_league, query):
    checked = 0
    for member in client.get(f"{API}/players/").json()["players"][:6]:
        api = client.get(f"{API}/players/{member['id']}/?{query}").json()
        rows = download(client, f"{PAGE}/players/{member['id']}/?{query}&export=csv&table=matchdays")
        names = {t.slug: t.name for t in RatingTable.objects.all()}
        for table in api["tables"]:
            name = names[table["table"]]
            page = [r for r in rows if r.get(f"{name} after")]
            points = list(reversed(table["history"]))  # the page lists the newest first
            assert [int(r["Matchday"]) for r in page] == [p["matchday"] for p in points], (member, name)
            for page_row, point in zip(page, points, strict=True):
                assert page_row["Date"] == point["date"]
                assert same_number(page_row[f"{name} after"], point["rating"])
                assert same_number(page_row[f"{name} change"], point["change"])
            checked += len(points)
    assert checked > 50


def test_matchdays_and_each_matchday_equal_their_pages(client, mixed_league):
    listed = client.get(f"{API}/matchdays/").json()
    assert listed["count"] == Matchday.objects.count() == len(listed["matchdays"])
    numbers = [m["number"] for m in listed["matchdays"]]
    for number in [numbers[0], numbers[len(numbers) // 2], numbers[-1], *numbers[::9]]:
        api = client.get(f"{API}/matchdays/{number}/").json()
        results = download(client, f"{PAGE}/matchdays/{number}/?export=csv&table=results")
        assert sorted(r["Player"] for r in results) == sorted(r["player"] for r in api["results"])
        placed = {r["Player"]: r["Placing"] for r in results}
        for r in api["results"]:  # the page writes a penalty in the club's notation: rated(finished)
            rated = r["rated_placing"]
            shown = f"{rated}({r['placing']})" if rated not in (None, r["placing"]) else str(r["placing"])
            assert placed[r["player"]].startswith(shown), (placed, r)
        for table in api["ratings"]:
            rows = download(client, f"{PAGE}/matchdays/{number}/?export=csv&table={table['table']}")
            assert [r["Player"] for r in rows] == [c["player"] for c in table["changes"]]
            for page_row, change in zip(rows, table["changes"], strict=True):
                assert same_number(page_row["Change"], change["change"])
                assert same_number(page_row["After"], change["rating_after"])
                assert same_number(page_row["Before"], change["rating_before"])


def test_games_and_tables_are_the_clubs(client, mixed_league):
    games = client.get(f"{API}/games/").json()
    assert {g["slug"] for g in games} == set(Game.objects.values_list("slug", flat=True))
    tables = client.get(f"{API}/tables/").json()
    assert [t["slug"] for t in tables] == list(RatingTable.objects.in_page_order().values_list("slug", flat=True))


def test_a_read_is_a_cached_page_and_is_renewed_by_a_write(client, mixed_league):
    first = client.get(f"{API}/matchdays/")
    again = client.get(f"{API}/matchdays/")
    assert getattr(again, "page_cache", None) == "hit" and again.content == first.content
    assert again["Cache-Control"] == "no-cache, public"
    # Another parameter, the same key: the read declares only `page`.
    assert getattr(client.get(f"{API}/matchdays/?nonsense=1"), "page_cache", None) == "hit"
    Matchday.objects.filter(number=1).first().delete()  # not through a service: no new revision
    assert client.get(f"{API}/matchdays/").json()["count"] == first.json()["count"]


def test_unknown_rows_and_values_are_404_and_400_in_json(client, mixed_league):
    assert client.get(f"{API}/players/999999/").status_code == 404
    assert client.get(f"{API}/matchdays/999999/").json()["detail"] == "There is no matchday 999999."
    assert client.get(f"{API}/matchdays/?page=99").status_code == 404
    refused = client.get(f"{API}/standings/?as_at=2026-02-30")
    assert refused.status_code == 400 and "as_at" in refused.json()["detail"]
    assert client.get(f"{API}/matchdays/?page=x").json()["problems"][0]["field"] == "page"
    assert client.get("/api/no-such-club/standings/").status_code == 404
    assert client.get("/api/nothing/here/at/all").json()["detail"].startswith("No API address")


def test_the_list_of_clubs_is_renewed_when_a_club_is_made_or_renamed(client, club):
    from league.models import Club

    assert [c["slug"] for c in client.get("/api/clubs/").json()] == [CLUB_SLUG]
    assert getattr(client.get("/api/clubs/"), "page_cache", None) == "hit"
    made = Club.objects.create(slug="north", name="A North Club")
    assert [c["slug"] for c in client.get("/api/clubs/").json()] == ["north", CLUB_SLUG]
    made.name = "Z North Club"
    made.save()
    assert [c["name"] for c in client.get("/api/clubs/").json()] == ["Card Games", "Z North Club"]
