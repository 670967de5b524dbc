"""The secretary enters a solitaire session with its attempts in the admin; settings live on the
game's rating table."""

import pytest
from django.urls import reverse

from league.models import Attempt, DealSession, Game, Player
from ratings.models import AttemptRating, RatingTable
from ratings.services.catalogue import save_game


@pytest.fixture
def solitaire(db):
    game = Game(name="Solitaire", slug="solitaire", against_deals=True)
    save_game(game)
    for name in ("GL", "K"):
        Player.objects.create(name=name, short_name=name)
    return game


def session_form(game, day, rows, *, session=None):
    """The admin's add/change form as the browser posts it; `rows` are (player, variant, level, deal,
    won, rated), and one blank spare row follows them."""
    existing = list(session.attempts.order_by("position")) if session else []
    data = {
        "game": str(game.pk),
        "date": day,
        "notes": "",
        "attempts-TOTAL_FORMS": str(len(rows) + 1),
        "attempts-INITIAL_FORMS": str(len(existing)),
        "attempts-MIN_NUM_FORMS": "0",
        "attempts-MAX_NUM_FORMS": "1000",
    }
    for i, (name, variant, level, number, won, rated) in enumerate([*rows, ("", "", "", "", False, True)]):
        prefix = f"attempts-{i}-"
        data[prefix + "player"] = str(Player.objects.get(short_name=name).pk) if name else ""
        data[prefix + "variant"] = variant
        data[prefix + "level"] = str(level)
        data[prefix + "number"] = str(number)
        if won:
            data[prefix + "won"] = "on"
        if rated:
            data[prefix + "rated"] = "on"
        if session is not None:
            data[prefix + "session"] = str(session.pk)
            data[prefix + "id"] = str(existing[i].pk) if i < len(existing) else ""
    return data


ADD = reverse("admin:league_dealsession_add")


def test_a_session_is_saved_with_its_attempts_in_order_and_rated(admin_client, solitaire):
    rows = [("GL", "8x4", 5, 11982, True, True), ("K", "8x4", 5, 11982, False, True), ("GL", "7x4", 6, 3, False, False)]
    response = admin_client.post(ADD, session_form(solitaire, "2025-11-03", rows), follow=True)
    text = response.content.decode()
    assert "Ratings updated. GL 1500 → 1504 (+4, 1 attempt), K 1500 → " in text
    session = DealSession.objects.get()
    assert [(a.player.short_name, a.deal.number, a.won, a.rated) for a in session.attempts.all()] == [
        ("GL", 11982, True, True),
        ("K", 11982, False, True),
        ("GL", 3, False, False),
    ]
    assert AttemptRating.objects.count() == 2
    change = admin_client.get(reverse("admin:league_dealsession_change", args=[session.pk])).content.decode()
    assert "deal 11982 (8x4 level 5)" in change and 'value="8x4"' in change
    # The rated attempts, in the order played, with both ratings before and after.
    assert "<tr><td>1</td><td>GL</td><td>deal 11982 (8x4 level 5)</td><td>won</td><td>1500 → 1504" in change
    assert "<td>2</td><td>K</td><td>deal 11982 (8x4 level 5)</td><td>lost</td><td>1500 → " in change


def test_editing_a_session_recomputes_it(admin_client, solitaire):
    rows = [("GL", "8x4", 5, 1, True, True), ("K", "8x4", 5, 1, False, True)]
    admin_client.post(ADD, session_form(solitaire, "2025-11-03", rows))
    session = DealSession.objects.get()
    rows[0] = ("GL", "8x4", 5, 1, False, True)
    response = admin_client.post(
        reverse("admin:league_dealsession_change", args=[session.pk]),
        session_form(solitaire, "2025-11-03", rows, session=session),
    )
    assert response.status_code == 302
    assert AttemptRating.objects.get(player__short_name="GL").player_after == 1496


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (("GL", "8/4", 5, 1, True, True), "Variant &#x27;8/4&#x27; may not contain a slash"),
        (("GL", "8x4", -1, 1, True, True), "Level must be at least 0, not -1."),
        (("GL", "8x4", 5, "", True, True), "This field is required."),
    ],
)
def test_a_bad_row_is_refused_and_nothing_is_saved(admin_client, solitaire, row, message):
    response = admin_client.post(ADD, session_form(solitaire, "2025-11-03", [("K", "8x4", 5, 1, True, True), row]))
    assert response.status_code == 200 and message in response.content.decode()
    assert not DealSession.objects.exists() and not Attempt.objects.exists()


def test_a_session_without_attempts_is_refused(admin_client, solitaire):
    response = admin_client.post(ADD, session_form(solitaire, "2025-11-03", []))
    assert "A session needs at least one attempt." in response.content.decode()
    assert not DealSession.objects.exists()


def test_a_second_session_on_the_same_day_is_refused_in_the_form(admin_client, solitaire):
    admin_client.post(ADD, session_form(solitaire, "2025-11-03", [("K", "8x4", 5, 1, True, True)]))
    response = admin_client.post(ADD, session_form(solitaire, "2025-11-03", [("GL", "8x4", 5, 1, True, True)]))
    assert "This game already has a session on that date" in response.content.decode()
    assert Attempt.objects.count() == 1


def test_only_games_played_against_deals_are_offered(admin_client, solitaire, club):
    text = admin_client.get(ADD).content.decode()
    assert ">Solitaire</option>" in text and ">Hearts</option>" not in text


def test_deleting_a_session_recomputes_the_game(admin_client, solitaire):
    admin_client.post(ADD, session_form(solitaire, "2025-11-03", [("K", "8x4", 5, 1, True, True)]))
    session = DealSession.objects.get()
    admin_client.post(reverse("admin:league_dealsession_delete", args=[session.pk]), {"post": "yes"})
    assert not AttemptRating.objects.exists() and not RatingTable.objects.get(game=solitaire).standings.exists()


def test_the_settings_are_the_tables_parameters_and_a_new_k_recomputes(admin_client, solitaire):
    admin_client.post(ADD, session_form(solitaire, "2025-11-03", [("K", "8x4", 5, 1, True, True)]))
    table = RatingTable.objects.get(game=solitaire)
    url = reverse("admin:ratings_ratingtable_change", args=[table.pk])
    text = admin_client.get(url).content.decode()
    for field in ("player_vs_deal__k", "player_vs_deal__level_boost", "player_vs_deal__first_attempt_only"):
        assert f'name="{field}"' in text
    data = {
        "name": table.name,
        "slug": table.slug,
        "description": "",
        "method": "player-vs-deal",
        "start_rating": "1500",
        "k_per_round": "10",
        "player_vs_deal__k": "16",
        "player_vs_deal__level_boost": "0.05",
        "player_vs_deal__inactive_days": "30",
    }
    response = admin_client.post(url, data, follow=True)
    assert (
        "recomputed with Player against deal: Start rating 1500, K 16, Level boost f 0.05" in response.content.decode()
    )
    assert AttemptRating.objects.get().k == 16
    bad = admin_client.post(url, {**data, "player_vs_deal__level_boost": "2"}).content.decode()
    assert "must be 0 to 1, not 2" in bad
    wrong = admin_client.post(url, {**data, "method": "club"}).content.decode()
    assert "Solitaire is played against deals, which only Player against deal rates." in wrong
