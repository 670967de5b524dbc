"""The entry page as two secretaries use it: their previews, and their saves at the same moment.

`two_saves_at_once` runs in the test process on PostgreSQL, and in a process of its own on an SQLite
file (the suite's SQLite database is in memory, where two connections cannot wait for each other).
"""

from __future__ import annotations

import re
import threading

from django.db import connection
from django.test import Client
from django.urls import reverse

from league.models import Game, Matchday

ENTER = reverse("league:enter")


def form(lines, **fields) -> dict:
    data = {"date": "2025-11-20", "game": str(Game.objects.get(name="Hearts").pk), "rounds": "3"}
    return {**data, **{f"line-{n}": line for n, line in enumerate(lines, start=1)}, **fields}


def preview(client, lines, **fields) -> dict:
    """What the preview's Save button posts: the form as typed, its one-time token and its number."""
    html = client.post(ENTER, form(lines, action="preview", **fields)).content.decode()
    hidden = dict(re.findall(r'name="(token|number)" value="([^"]*)"', html))
    assert set(hidden) == {"token", "number"}, "the preview carries a token and its number"
    return form(lines, action="save", **fields, **hidden)


def text(response) -> str:
    html = response.content.decode() if hasattr(response, "content") else response
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'").replace("&quot;", '"')


def previewed_matchday(page: str) -> int | None:
    shown = re.search(r"Matchday (\d+): check, then save", page)
    return int(shown[1]) if shown else None


def players_of(number: int) -> list[str]:
    matchday = Matchday.objects.filter(number=number).first()
    return sorted(matchday.results.values_list("player__short_name", flat=True)) if matchday else []


def two_saves_at_once(user, *, one_preview: bool = False) -> dict:
    """Two secretaries preview matchday 7 (GL and K; I and J) and save at the same moment: each reads
    the next number before either saves. Then the one who lost saves the preview they were shown.
    What each was answered, and what was saved. With `one_preview`, both save the first preview (a
    double click reaching two servers)."""
    from web.entry import views as view

    clients = [Client(), Client()]
    for client in clients:
        client.force_login(user)
    saves = [preview(clients[0], ["GL", "K"]), preview(clients[1], ["I", "J"])]
    if one_preview:
        saves[1] = saves[0]
    both_read, first_read, answers = threading.Barrier(2, timeout=20), threading.local(), [None, None]
    next_number = view._next_number

    def read_then_wait() -> int:
        number = next_number()
        if not getattr(first_read, "done", False):
            first_read.done = True
            both_read.wait()
        return number

    def save(index: int) -> None:
        try:
            answers[index] = clients[index].post(ENTER, saves[index])
        finally:
            connection.close()

    view._next_number = read_then_wait
    try:
        threads = [threading.Thread(target=save, args=(i,)) for i in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        view._next_number = next_number
    statuses = sorted(a.status_code for a in answers)
    lost = next((i for i, a in enumerate(answers) if a.status_code == 200), None)
    outcome = {"statuses": statuses, "saved": [a["Location"] for a in answers if a.status_code == 302]}
    if lost is not None and one_preview:
        outcome.update(answer=text(answers[lost].content.decode()))
    elif lost is not None:
        page = answers[lost].content.decode()
        outcome.update(answer=text(page), renumbered=previewed_matchday(text(page)))
        fresh = dict(re.findall(r'name="(token|number)" value="([^"]*)"', page))
        then = clients[lost].post(ENTER, {**saves[lost], **fresh})
        outcome["then"] = then.get("Location", then.status_code)
    outcome["matchdays"] = {n: players_of(n) for n in (7, 8)}
    return outcome
