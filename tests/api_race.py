"""Two posts of one matchday with one `Idempotency-Key` at the same moment, as two servers would get
a client's retry: run in the test process on PostgreSQL, and in a process of its own on an SQLite
file (the suite's SQLite database is in memory, where two connections cannot wait for each other).
Each thread answers [status, body]; a thread that raised answers ["error", ...]."""

from __future__ import annotations

import threading

from django.db import connection
from django.test import Client

from league.models import IdempotentPost, Matchday, Write
from tests.api_client import NIGHT, post, secretary_token


def race(same_body: bool) -> dict:
    """The two answers, and what was saved: matchdays, the API's writes, the keys kept."""
    _, token = secretary_token()
    before = Matchday.objects.count()
    bodies = [NIGHT, NIGHT if same_body else {**NIGHT, "rounds": 4}]
    start, answers = threading.Barrier(2, timeout=20), [None, None]

    def run(index: int) -> None:
        try:
            start.wait()
            response = post(Client(), bodies[index], token, key="night-of-2025-11-20")
            answers[index] = [response.status_code, response.json()]
        except Exception as error:  # noqa: BLE001 - the answer is the test's to judge
            answers[index] = ["error", f"{type(error).__name__}: {error}"]
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {
        "answers": answers,
        "added": Matchday.objects.count() - before,
        "writes": Write.objects.filter(way=Write.Way.API).count(),
        "keys": IdempotentPost.objects.count(),
    }


def judged(outcome: dict, same_body: bool) -> None:
    """One save whoever came first; the same body gets the same answer twice, another body a 422."""
    answers = outcome["answers"]
    assert not [a for a in answers if a[0] == "error"], answers
    assert (outcome["added"], outcome["writes"], outcome["keys"]) == (1, 1, 1), outcome
    statuses = sorted(a[0] for a in answers)
    if same_body:
        assert statuses == [201, 201] and answers[0][1] == answers[1][1], answers
    else:
        assert statuses == [201, 422], answers
