"""A merge while an import runs: Gerd is merged into GL while a file with Gerd's next matchday
(and, in the second case, one where GL and Gerd both played) is imported, the two started at the
same moment and then one a little after the other. Run in the test process on PostgreSQL and in a
process of its own on an SQLite file (tests/test_round4_merges.py). Each thread answers "merged",
"imported" or "refused: ..."; anything else is a failure."""

from __future__ import annotations

import datetime
import threading
import time

from django.core.exceptions import ValidationError
from django.db import connection

from league.models import Game, Matchday, Player, Result, Write
from league.results import Play, TypedResult
from ratings.models import Standing
from ratings.services.players import merge_players
from ratings.services.recompute import rebuild_all
from tests.conftest import store
from web.importing import ImportFailed, import_results

CSV = "matchday,date,game,rounds,player,placing,rated_placing\n"


def _file(number: int, both: bool, name: str) -> bytes:
    rows = [(name, 1), ("K", 2), ("I", 3)] + ([("GL", 4)] if both else [])
    return (CSV + "".join(f"{number},2025-11-2{number % 10},Hearts,1,{n},{p},\n" for n, p in rows)).encode()


def _gerd(number: int, name: str) -> None:
    """Gerd (`name`), entered as a player of their own, in matchday `number`."""
    matchday = Matchday(number=number, date=datetime.date(2025, 11, 20), game=Game.objects.get(slug="hearts"), rounds=1)
    store(matchday, [TypedResult(Play(1), name), TypedResult(Play(2), "R")])


def race(number: int, both: bool, delay: float) -> dict:
    """Gerd made (matchday `number`), then the merge and the import of matchday `number + 1`, the
    import started `delay` seconds after the merge (negative: before)."""
    name = f"Gerd{number}"  # a player of their own in every race of one database
    _gerd(number, name)
    gerd, gl = Player.objects.get(short_name=name), Player.objects.get(short_name="GL")
    writes = Write.objects.count()
    start, answers = threading.Barrier(2, timeout=20), [None, None]

    def run(index: int, action: str, wait: float) -> None:
        try:
            start.wait()
            time.sleep(max(wait, 0))
            if action == "merge":
                merge_players(Player.objects.get(pk=gl.pk), Player.objects.get(pk=gerd.pk))
                answers[index] = "merged"
            else:
                import_results(_file(number + 1, both, name))
                answers[index] = "imported"
        except (ValidationError, ImportFailed) as refused:
            answers[index] = f"refused: {' '.join(getattr(refused, 'errors', None) or refused.messages)}"
        except Exception as error:  # noqa: BLE001 - the answer is the test's to judge
            answers[index] = f"error: {type(error).__name__}: {error}"
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=(0, "merge", -delay)),
        threading.Thread(target=run, args=(1, "import", delay)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stored = sorted(Standing.objects.values_list("table_id", "player_id", "rating"))
    rebuild_all()
    imported = Matchday.objects.filter(number=number + 1).first()
    return {
        "answers": answers,
        "both": both,
        "name": name,
        "gerd_left": Player.objects.filter(pk=gerd.pk).exists(),
        "imported": None if imported is None else sorted(imported.results.values_list("player__short_name", flat=True)),
        "gerd_results": Result.objects.filter(player__short_name=name).count(),
        "writes": Write.objects.count() - writes,
        "consistent": stored == sorted(Standing.objects.values_list("table_id", "player_id", "rating")),
    }


def judged(outcome: dict) -> None:
    """Whoever went first: nothing half-done, every write done in the history, a refusal says why."""
    answers = outcome["answers"]
    assert not [a for a in answers if a is None or a.startswith("error")], outcome
    assert outcome["consistent"], outcome
    done = [answers[0] == "merged", answers[1] == "imported"]
    assert outcome["writes"] == sum(done), outcome  # each done write is one entry of the history
    assert outcome["gerd_left"] == (answers[0] != "merged"), outcome
    if answers[1] == "imported":
        shown = outcome["imported"]
        assert shown is not None and len(shown) == (4 if outcome["both"] else 3), outcome
        assert len(set(shown)) == len(shown), outcome  # no one twice
        if answers[0] == "merged":
            assert outcome["name"] not in shown and "GL" in shown, outcome
    else:
        assert outcome["imported"] is None, outcome
        assert outcome["name"] in answers[1] or "GL" in answers[1], outcome  # the refusal names who
    if answers[0] != "merged":
        assert outcome["name"] in answers[0] or "GL" in answers[0], outcome
    if outcome["both"]:
        assert not all(done), outcome  # GL and Gerd in one matchday: one of the two is refused
