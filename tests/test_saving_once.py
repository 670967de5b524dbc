"""Saving is idempotent: a preview carries a one-time token, stored in the database with what it
saved, so a second Save of the same preview (Back, a double click, a reload, another server) saves
nothing and says where the first went; the same for the admin's CSV upload. A preview whose matchday
number was taken meanwhile is shown again, renumbered, rather than saved as another matchday."""

import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from league import submissions
from league.models import Game, Matchday, Result, default_club
from league.submissions import Submission

ENTER = reverse("league:enter")
IMPORT = reverse("admin:league_matchday_import")
ROOT = Path(__file__).resolve().parent.parent


def form(lines, game=None, **fields):
    game = game or Game.objects.get(name="Hearts")
    data = {"date": "2025-11-20", "game": str(game.pk), "rounds": "3"}
    return {**data, **{f"line-{n}": text for n, text in enumerate(lines, start=1)}, **fields}


def preview(client, lines, game=None) -> dict:
    """The data the preview's Save button posts: the form as typed, its token and its number."""
    html = client.post(ENTER, form(lines, game, action="preview")).content.decode()
    hidden = dict(re.findall(r'name="(token|number)" value="([^"]*)"', html))
    assert re.fullmatch("[0-9a-f]{64}", hidden["token"]), "the preview carries a one-time token"
    return form(lines, game, action="save", **hidden)


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).replace("&#x27;", "'")


def test_a_second_save_of_one_preview_saves_nothing_and_links_to_the_matchday(admin_client, club):
    save = preview(admin_client, ["GL", "K = I", "J"])
    first = admin_client.post(ENTER, save)
    assert first.status_code == 302 and first["Location"] == "/card-games/enter/?saved=7"
    counts = Matchday.objects.count(), Result.objects.count()
    again = admin_client.post(ENTER, save)  # Back and Save, a double click, or a reload
    assert again.status_code == 200
    assert "This preview was already saved: Matchday 7 . Nothing was saved again." in text(again)
    assert 'href="/card-games/matchdays/7/"' in again.content.decode()
    assert (Matchday.objects.count(), Result.objects.count()) == counts
    assert Submission.objects.get(token=save["token"]).matchday == Matchday.objects.get(number=7)


def test_a_second_save_after_the_matchday_was_deleted_still_saves_nothing(admin_client, club):
    save = preview(admin_client, ["GL", "K"])
    admin_client.post(ENTER, save)
    Matchday.objects.get(number=7).delete()
    again = admin_client.post(ENTER, save)
    assert "already saved as Matchday 7, which has been deleted since" in text(again)
    assert not Matchday.objects.filter(number=7).exists()


def test_a_save_without_a_token_shows_the_preview_instead_of_saving(admin_client, club):
    response = admin_client.post(ENTER, form(["GL", "K"], action="save", number="7"))
    assert "Check the preview of matchday 7, then save it." in text(response)
    assert "Matchday 7: check, then save" in text(response)
    assert not Matchday.objects.filter(number=7).exists()


def test_a_preview_whose_number_was_taken_meanwhile_is_shown_again_renumbered(admin_client, club):
    stale = preview(admin_client, ["GL", "K"])
    admin_client.post(ENTER, preview(admin_client, ["I", "J"]))  # another preview saved in between
    assert set(Matchday.objects.get(number=7).results.values_list("player__short_name", flat=True)) == {"I", "J"}
    response = admin_client.post(ENTER, stale)
    page = text(response)
    assert "Matchday 7 was saved meanwhile, so nothing was saved: this preview is now matchday 8." in page
    assert "Matchday 8: check, then save" in page and 'href="/card-games/matchdays/7/"' in response.content.decode()
    assert not Matchday.objects.filter(number=8).exists()
    fresh = dict(re.findall(r'name="(token|number)" value="([^"]*)"', response.content.decode()))
    assert fresh["number"] == "8" and fresh["token"] != stale["token"]
    saved = admin_client.post(ENTER, {**stale, **fresh})
    assert saved["Location"] == "/card-games/enter/?saved=8"
    assert set(Matchday.objects.get(number=8).results.values_list("player__short_name", flat=True)) == {"GL", "K"}


def test_a_save_refused_by_the_rules_keeps_its_token_for_a_corrected_save(admin_client, club):
    save = preview(admin_client, ["GL 1", "K 2"])
    refused = admin_client.post(ENTER, {**save, "line-2": "K 3"})  # the services refuse it
    assert "placing 3 for K is outside 1..2" in text(refused)
    assert not Submission.objects.exists() and not Matchday.objects.filter(number=7).exists()
    assert admin_client.post(ENTER, save)["Location"] == "/card-games/enter/?saved=7"


def test_save_once_runs_the_save_once_per_token(db):
    token, runs = submissions.new_token(), []

    def save():
        runs.append(1)
        return "result", None, "the first save"

    assert submissions.save_once(token, save, default_club()) == "result"
    with pytest.raises(submissions.AlreadySaved) as again:
        submissions.save_once(token, save, default_club())
    assert again.value.submission.saved == "the first save" and runs == [1]


def test_tokens_older_than_a_session_are_dropped_at_the_next_save(db):
    def save():
        return "result", None, "saved"

    old, recent = submissions.new_token(), submissions.new_token()
    submissions.save_once(old, save, default_club())
    submissions.save_once(recent, save, default_club())
    now = timezone.now()
    Submission.objects.filter(token=old).update(saved_at=now - submissions.KEPT - timedelta(minutes=1))
    Submission.objects.filter(token=recent).update(saved_at=now - submissions.KEPT + timedelta(minutes=1))
    submissions.save_once(submissions.new_token(), save, default_club())
    assert not Submission.objects.filter(token=old).exists()
    with pytest.raises(submissions.AlreadySaved):  # still within its time
        submissions.save_once(recent, save, default_club())


# The admin's CSV upload

CSV = (
    b"matchday,date,game,rounds,player,placing,rated_placing\n7,2025-11-20,Hearts,3,GL,1,\n7,2025-11-20,Hearts,3,K,2,\n"
)


def upload_preview(client) -> str:
    response = client.post(IMPORT, {"file": SimpleUploadedFile("results.csv", CSV, content_type="text/csv")})
    return re.search(r'name="confirm" value="([0-9a-f]{64})"', response.content.decode())[1]


def test_a_second_confirmation_of_one_upload_imports_nothing(admin_client, club):
    token = upload_preview(admin_client)
    session = dict(admin_client.session)  # as another server, or a Back to a page of the old session, sees it
    assert admin_client.post(IMPORT, {"confirm": token}).status_code == 302
    counts = Matchday.objects.count(), Result.objects.count()
    stale = admin_client.session
    stale.update(session)
    stale.save()
    again = admin_client.post(IMPORT, {"confirm": token})
    assert again.status_code == 302 and again["Location"] == reverse("admin:league_matchday_changelist")
    said = " ".join(str(m) for m in get_messages(again.wsgi_request))
    assert "That file was already imported (1 matchday with 2 results.); nothing was imported again." in said
    assert (Matchday.objects.count(), Result.objects.count()) == counts


def test_an_upload_refused_at_confirmation_leaves_no_token(admin_client, club):
    token = upload_preview(admin_client)
    admin_client.post(ENTER, preview(admin_client, ["I", "J"]))  # matchday 7 taken meanwhile
    response = admin_client.post(IMPORT, {"confirm": token})
    assert "Matchday 7 already exists" in text(response)
    assert not Submission.objects.filter(token=token).exists()


# Two saves of one preview at the same moment, on a database file as the site runs (the suite's own
# database is in memory): the second waits for the first's transaction, then finds the token taken.

TWO_SAVES = """
import threading, time, django
django.setup()
from django.core.management import call_command
from django.db import connection
from league import submissions
from league.models import Player, default_club
call_command("migrate", verbosity=0)
token, outcomes, start = submissions.new_token(), [], threading.Barrier(2)
club = default_club()

def save(name):
    def write():
        Player.objects.create(name=name, short_name=name)
        time.sleep(0.3)
        return name, None, name
    start.wait()
    try:
        outcomes.append(submissions.save_once(token, write, club))
    except submissions.AlreadySaved as done:
        outcomes.append("already saved as " + done.submission.saved)
    finally:
        connection.close()

threads = [threading.Thread(target=save, args=(name,)) for name in ("A", "B")]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(sorted(outcomes), Player.objects.count())
"""


def test_two_simultaneous_saves_of_one_preview_save_once(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LEAGUE_PRODUCTION": "",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    result = subprocess.run(
        [sys.executable, "-c", TWO_SAVES], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    saved, count = result.stdout.strip().rsplit(" ", 1)
    assert count == "1"
    assert saved in ("['A', 'already saved as A']", "['B', 'already saved as B']")
