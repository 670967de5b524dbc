"""Two secretaries at one moment, beyond a matchday's edit (tests/revert_race.py): a player's rename
reverted twice, or reverted while it is renamed again; a deleted matchday put back twice; a revert
reverted twice; a matchday's edit reverted while its player is merged away. Run in the test process
on PostgreSQL and in a process of its own on an SQLite file (tests/test_round4_history_revert.py).
Each thread answers "reverted", "saved", "merged" or "refused: ..."; anything else is a failure."""

from __future__ import annotations

import datetime
import threading

from django.core.exceptions import ValidationError
from django.db import connection

import league.history as history
from league.models import Game, Matchday, Player, Write
from league.results import Play, TypedResult
from league.services import save_player
from ratings.models import Standing
from ratings.services.matchdays import delete_matchdays
from ratings.services.players import merge_players
from ratings.services.recompute import rebuild_all
from ratings.services.revert import RevertRefused, revert
from tests.conftest import results_of, store

CASES = ["rename-twice", "rename-vs-rename", "delete-twice", "revert-of-revert-twice", "revert-vs-merge"]


def _latest() -> Write:
    return Write.objects.order_by("-pk").first()


def _rename(name: str) -> None:
    player = Player.objects.get(short_name_key__in=["k", "kay", "kai"])
    player.short_name = name
    save_player(player)


def _setup(case: str) -> tuple[Write, object, callable]:
    """The write to revert, the state it must come back to (or stay at), and the second action."""
    if case.startswith("rename"):
        _rename("Kay")
        second = (lambda: _rename("Kai")) if case == "rename-vs-rename" else None
        return _latest(), "K", second
    if case == "delete-twice":
        matchday = Matchday.objects.order_by("-number").first()
        kept = history.matchdays([matchday.pk])[matchday.pk]
        delete_matchdays([matchday])
        return _latest(), kept, None
    if case == "revert-of-revert-twice":
        matchday = Matchday.objects.get(number=2)
        matchday.rounds += 1
        store(matchday, list(results_of(matchday).values()))
        edited = history.matchdays([matchday.pk])[matchday.pk]
        revert(_latest())
        return _latest(), edited, None
    hearts = Game.objects.get(slug="hearts")
    number = Matchday.objects.order_by("-number").first().number + 1
    matchday = Matchday(number=number, date=datetime.date(2025, 11, 20), game=hearts, rounds=1)
    store(matchday, [TypedResult(Play(1), "Gerd"), TypedResult(Play(2), "R")])
    matchday.rounds = 2
    store(matchday, list(results_of(matchday).values()))
    gerd, gl = Player.objects.get(short_name="Gerd"), Player.objects.get(short_name="GL")
    return _latest(), None, lambda: merge_players(gl, gerd)


def race(case: str) -> dict:
    write, wanted, second = _setup(case)
    writes = Write.objects.count()
    start, answers = threading.Barrier(2, timeout=20), [None, None]

    def run(index: int, action) -> None:
        try:
            start.wait()
            if action is None:
                revert(Write.objects.get(pk=write.pk))
                answers[index] = "reverted"
            else:
                action()
                answers[index] = "merged" if case == "revert-vs-merge" else "saved"
        except (RevertRefused, ValidationError) as refused:
            answers[index] = f"refused: {'; '.join(getattr(refused, 'problems', None) or refused.messages)}"
        except Exception as error:  # noqa: BLE001 - the answer is the test's to judge
            answers[index] = f"error: {type(error).__name__}: {error}"
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(0, None)), threading.Thread(target=run, args=(1, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stored = sorted(Standing.objects.values_list("table_id", "player_id", "rating"))
    rebuild_all()
    if case.startswith("rename"):
        now = Player.objects.filter(short_name_key__in=["k", "kay", "kai"]).values_list("short_name", flat=True)[0]
    elif case == "revert-vs-merge":
        now = Player.objects.filter(short_name="Gerd").exists()
    else:
        number = (wanted or {}).get("number")
        key = Matchday.objects.filter(number=number).values_list("pk", flat=True).first()
        now = history.matchdays([key]).get(key) if key else None
    return {
        "case": case,
        "answers": answers,
        "now": now,
        "wanted": wanted,
        "writes": Write.objects.count() - writes,
        "reverts": Write.objects.filter(reverts=write).count(),
        "consistent": stored == sorted(Standing.objects.values_list("table_id", "player_id", "rating")),
    }


def judged(outcome: dict) -> None:
    """Whoever went first: nothing lost, nothing half-done, each answer says what happened and every
    write done is one entry of the history."""
    case, answers = outcome["case"], outcome["answers"]
    assert not [a for a in answers if a is None or a.startswith("error")], outcome
    assert outcome["consistent"], outcome
    done = [a for a in answers if not a.startswith("refused")]
    assert outcome["writes"] == len(done), outcome
    if case == "rename-vs-rename":
        assert answers[1] == "saved" and outcome["now"] == "Kai", outcome  # the later save is kept
        assert answers[0] == "reverted" or "has been changed since" in answers[0], outcome
    elif case == "revert-vs-merge":
        assert answers[1] == "merged" and outcome["now"] is False, outcome
        refused = answers[0].removeprefix("refused: ")
        assert answers[0] == "reverted" or "Gerd has been deleted since" in refused or "Gerd was merged" in refused
    else:  # the same revert twice: one does it, the other says it was done
        assert sorted(a.split(":")[0] for a in answers) == ["refused", "reverted"], outcome
        assert outcome["reverts"] == 1 and outcome["now"] == outcome["wanted"], outcome
        assert "since" in next(a for a in answers if a.startswith("refused")), outcome
