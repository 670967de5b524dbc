"""The history page: every write to the club's data, newest first, each with what it changed (a
matchday's results before and after, in the entry page's lines), filterable by matchday and player.
For the club's secretaries only; never cached (staff are never served from the page cache)."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib.admin.views.decorators import staff_member_required
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from league.history import plays
from league.models import Change, Player, Write
from league.validation import ANY_WHOLE, MATCHDAY_NUMBERS, whole_number
from ratings.services.impact import impact
from ratings.services.revert import RevertRefused, plan, revert
from web.entry.lines import written_lines
from web.page_cache.ahead import rendered_ahead
from web.pages.access import works_on

PAGE_SIZE = 25
# A matchday's facts beside its results, as the history names them when they change.
FACTS = {"number": "Number", "date": "Date", "game": "Game", "rounds": "Rounds", "notes": "Notes"}


class HistoryFilter(forms.Form):
    matchday = forms.IntegerField(
        required=False, min_value=MATCHDAY_NUMBERS.lowest, max_value=MATCHDAY_NUMBERS.highest, label="Matchday"
    )
    player = forms.ModelChoiceField(Player.objects.none(), required=False, label="Player")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Player.objects.order_by("short_name")


@dataclass
class Shown:
    """One change as the page shows it: what it is, and its lines before and after (a matchday's
    results, or an object's fields that changed)."""

    label: str
    what: str
    before_lines: list[str]
    after_lines: list[str]

    @property
    def before(self) -> str:
        return "\n".join(self.before_lines)

    @property
    def after(self) -> str:
        return "\n".join(self.after_lines)


def _results(state: dict | None) -> list[str]:
    if state is None:
        return []
    return written_lines(plays(state))


def _facts(then: dict | None, now: dict | None) -> tuple[list[str], list[str]]:
    """The matchday's facts that differ (all of them for one added or deleted)."""
    names = [name for name in FACTS if then is None or now is None or then.get(name) != now.get(name)]
    return _named(then, names, FACTS), _named(now, names, FACTS)


def _fields(then: dict | None, now: dict | None) -> tuple[list[str], list[str]]:
    """An object's fields that differ, each `name: value` (all of them for one added or deleted)."""
    keys = [key for key in (now or then) if then is None or now is None or then.get(key) != now.get(key)]
    labels = {key: key.replace("_", " ").capitalize() for key in keys}
    return _named(then, keys, labels), _named(now, keys, labels)


def _named(state: dict | None, keys: list[str], labels: dict[str, str]) -> list[str]:
    return [f"{labels[key]}: {state[key]}" for key in keys if state.get(key) not in ("", None)] if state else []


def _attempts(state: dict | None) -> list[str]:
    """A solitaire session's attempts, one line each: `GL: 8x4 5 11982 won`."""
    if state is None:
        return []
    return [
        f"{a['player']}: {' '.join(map(str, a['deal']))} {'won' if a['won'] else 'lost'}"
        + ("" if a.get("rated", True) else " (not rated)")
        for a in state["attempts"]
    ]


def shown(change: Change) -> Shown:
    what = "added" if change.before is None else "deleted" if change.after is None else "changed"
    if change.kind == "matchday":
        before, after = _facts(change.before, change.after)
        return Shown(change.label, what, before + _results(change.before), after + _results(change.after))
    if change.kind == "session":
        return Shown(change.label, what, _attempts(change.before), _attempts(change.after))
    return Shown(change.label, what, *_fields(change.before, change.after))


def _secretary(request) -> None:
    if not works_on(request.user, request.club.pk):
        raise Http404("No page has this address.")  # another club's secretary: nothing to confirm


@staff_member_required
def history(request):
    _secretary(request)
    form = HistoryFilter(request.GET or None)
    writes = Write.objects.filter(club=request.club)
    if not form.is_bound:
        pass
    elif form.is_valid():
        if (number := form.cleaned_data["matchday"]) is not None:
            writes = writes.filter(changes__matchday=number)
        if (player := form.cleaned_data["player"]) is not None:
            writes = writes.filter(changes__players__contains=f"|{player.pk}|")
        writes = writes.distinct()
    else:
        writes = writes.none()
    page = Paginator(writes.select_related("reverts").prefetch_related("changes", "reverted_by"), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    entries = [(write, [shown(change) for change in write.changes.all()]) for write in page]
    query = request.GET.copy()
    query.pop("page", None)
    reverted = query.pop("reverted", [None])[0]
    done = Write.objects.filter(club=request.club, pk=_id(reverted)).first() if reverted else None
    return render(
        request,
        "history/history.html",
        {"form": form, "page": page, "entries": entries, "query": query.urlencode(), "reverted": done},
    )


def _id(text: str) -> int:
    """A write's id as `?reverted=` gives it: anything else (², 10**30, abc) finds no write."""
    try:
        return whole_number(text, "reverted", ANY_WHOLE)
    except ValueError:
        return 0


@staff_member_required
def revert_write(request, pk: int):
    """A write undone: what it changed, what reverting it would change in every table (the revert
    run and rolled back), what stands in the way; then, confirmed, the revert."""
    _secretary(request)
    write = get_object_or_404(Write.objects.filter(club=request.club).prefetch_related("changes"), pk=pk)
    overwrite = request.POST.get("overwrite") == "on"
    context = {"write": write, "changes": [shown(c) for c in write.changes.all()], "overwrite": overwrite}
    if request.method == "POST" and request.POST.get("action") == "revert":
        try:
            with transaction.atomic(), rendered_ahead():
                revert(write, user=request.user, reason=request.POST.get("reason", ""), overwrite=overwrite)
        except RevertRefused as refused:
            context["refused"] = refused.problems
        else:
            return redirect(f"{reverse('league:history')}?reverted={write.pk}")
    found = plan(write)
    context.update(plan=found, reason=request.POST.get("reason", ""))
    if not found.problems:
        try:
            context["impact"] = impact(request.club.pk, lambda: revert(write, overwrite=True), found.touched)
        except RevertRefused as refused:
            context["refused"] = refused.problems
    return render(request, "history/revert.html", context)
