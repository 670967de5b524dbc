"""Two secretaries at the same moment: one reverts a change of matchday 2 while the other changes it
again, or both revert it. Run in the test process on PostgreSQL, and in a process of its own on an
SQLite file (the suite's SQLite database is in memory, where two connections cannot wait for each
other). Each thread answers "reverted", "refused: ..." or "saved"; anything else is a failure."""

from __future__ import annotations

import threading

from django.db import connection

from league.models import Matchday, Write
from ratings.models import Standing
from ratings.services.recompute import rebuild_all
from ratings.services.revert import RevertRefused, revert
from tests.conftest import results_of, store


def _edit(rounds: int) -> None:
    matchday = Matchday.objects.get(number=2)
    matchday.rounds = rounds
    store(matchday, list(results_of(matchday).values()))


def race(second: str) -> dict:
    """Matchday 2 changed (rounds 1), then its revert and, at the same moment, `second`: "edit"
    (rounds 5) or "revert" (the same change reverted twice). What each answered, the rounds kept,
    the writes made, and whether the stored ratings are what a full recompute gives."""
    before = Matchday.objects.get(number=2).rounds
    _edit(1)
    changed = Write.objects.order_by("-pk").first()
    start, answers = threading.Barrier(2, timeout=20), [None, None]

    def run(index: int, action: str) -> None:
        try:
            start.wait()
            if action == "edit":
                _edit(5)
                answers[index] = "saved"
            else:
                revert(Write.objects.get(pk=changed.pk))
                answers[index] = "reverted"
        except RevertRefused as refused:
            answers[index] = f"refused: {refused.problems[0]}"
        except Exception as error:  # noqa: BLE001 - the answer is the test's to judge
            answers[index] = f"error: {type(error).__name__}: {error}"
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(("revert", second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stored = sorted(Standing.objects.values_list("table_id", "player_id", "rating"))
    rebuild_all()
    return {
        "answers": answers,
        "rounds": Matchday.objects.get(number=2).rounds,
        "before": before,
        "reverts": Write.objects.filter(reverts=changed).count(),
        "consistent": stored == sorted(Standing.objects.values_list("table_id", "player_id", "rating")),
    }


def judged(outcome: dict, second: str) -> None:
    """What the two may answer, and what must hold whoever went first."""
    answers = outcome["answers"]
    assert not [a for a in answers if a.startswith("error")], answers
    assert outcome["consistent"], outcome
    if second == "revert":
        assert sorted(a.split(":")[0] for a in answers) == ["refused", "reverted"], answers
        assert outcome["reverts"] == 1 and outcome["rounds"] == outcome["before"]
    else:
        assert answers[1] == "saved" and outcome["rounds"] == 5, outcome  # the later save is kept
        assert answers[0] in ("reverted",) or "has been changed since" in answers[0], answers
        assert outcome["reverts"] == (1 if answers[0] == "reverted" else 0)
