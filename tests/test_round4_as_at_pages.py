"""Faults round four, class 1: a past day's pages equal the same pages of a league cut at that day.

On the mixed league, a game's standings and the players' directory as at a day are read first;
then every matchday and solitaire session after the day is deleted, and the same pages are read
with that day as today. Inactive players are hidden alike, and "last played" counts the same
attempts (an unrated solitaire attempt is play)."""

from datetime import date

import pytest
from django.utils import timezone

from league.models import Attempt, Game
from tests.conftest import section, table_rows
from tests.test_as_at_replay import cut_after

CLUB = "/card-games"
DAYS = [date(2026, 3, 1), date(2026, 5, 20)]


def standings(client, slug: str, query: dict) -> list[list[str]]:
    html = client.get(f"{CLUB}/games/{slug}/", query).content.decode()
    return table_rows(section(html, "standings-heading"))[1:]


def directory(client, query: dict) -> dict[str, list[str]]:
    """Every row of the players' directory (all pages), by player, without the rank's notes."""
    rows, page = {}, 1
    while True:
        html = client.get(f"{CLUB}/players/", {**query, "players-page": page}).content.decode()
        found = table_rows(section(html, "players-heading"))[1:]
        rows.update({row[0]: row for row in found})
        if 'rel="next"' not in section(html, "players-heading"):
            return rows
        page += 1


def played_rows(rows: dict[str, list[str]]) -> dict[str, list[str]]:
    """The rows of players who had played by then (a cut league still lists everyone it knows)."""
    return {name: row for name, row in rows.items() if row[-1] not in ("", "—")}


@pytest.fixture
def frozen(monkeypatch):
    """Make `timezone.localdate()` answer a given day, as the cut league's today."""

    def freeze(day: date):
        monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: day)

    return freeze


@pytest.mark.parametrize("day", DAYS)
def test_a_games_page_and_the_directory_as_at_a_day_equal_a_league_cut_at_that_day(
    mixed_league, client, settings, frozen, day
):
    settings.LEAGUE_INACTIVE_DAYS = 30  # so that someone is inactive on every day tried
    games = [g.slug for g in Game.objects.filter(against_deals=False)]
    query = {"as_at": day.isoformat()}
    frozen(date(2026, 11, 29))
    before = {slug: standings(client, slug, query) for slug in games}
    listed = played_rows(directory(client, {**query, "sort": "name"}))
    cut_after(day)
    frozen(day)
    after = {slug: standings(client, slug, {}) for slug in games}
    for slug in games:
        assert after[slug] == before[slug], slug
    assert played_rows(directory(client, {"sort": "name"})) == listed
    assert any(len(rows) for rows in before.values())


def test_an_unrated_solitaire_attempt_counts_as_play_in_the_directory_as_at_a_day(mixed_league, client, frozen):
    """A member's unrated attempt at solitaire after everything else they played: today's directory
    and the directory as at that day both give the attempt's day as their last played."""
    from league.models import DealSession
    from ratings.deals.services import AttemptInput, save_session

    last = Attempt.objects.select_related("session__game", "player").order_by("-session__date", "-pk").first()
    day = date(2026, 9, 1)
    save_session(DealSession(game=last.session.game, date=day), [AttemptInput(last.player, "8x4", 5, 17, True, False)])
    frozen(date(2026, 11, 29))
    today = directory(client, {"sort": "name"})
    as_at = directory(client, {"as_at": day.isoformat(), "sort": "name"})
    name = next(n for n in today if n.startswith(last.player.name))
    assert today[name][-1] == as_at[name][-1] == "September 1, 2026"
