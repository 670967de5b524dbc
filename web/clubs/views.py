"""The site's own pages: the list of clubs, and today's addresses of a one-club site."""

from __future__ import annotations

from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.urls import Resolver404, resolve

from league.models import Club, Matchday
from league.validation import name_key
from web.clubs.addresses import urlconf


def club_list(request):
    """Every club with its latest matchday, or the one club's home page (a permanent redirect)."""
    clubs = Club.objects.all()
    if len(clubs[:2]) == 1 and not request.GET:
        return HttpResponsePermanentRedirect(f"/{clubs[0].slug}/")
    search = request.GET.get("q", "").strip()
    if search:  # compared by name key, as names are everywhere: any case of any script
        key = name_key(search)
        names = clubs.values_list("pk", "name", "slug")
        clubs = clubs.filter(pk__in=[pk for pk, name, slug in names if key in name_key(name) or key in slug])
    latest = Matchday.objects.filter(club=OuterRef("pk")).order_by("-date", "-number")
    clubs = clubs.annotate(
        latest_date=Subquery(latest.values("date")[:1]), latest_game=Subquery(latest.values("game__name")[:1])
    )
    return render(request, "clubs/list.html", {"clubs": clubs, "search": search})


def old_address(request, rest: str):
    """An address of the days when the site held one club (/standings/, /players/3/): with one club,
    a permanent redirect to the same page of that club; otherwise nothing is there."""
    clubs = list(Club.objects.all()[:2])
    if len(clubs) != 1:
        raise Http404("No club has this address.")
    target = f"/{clubs[0].slug}/{rest}"
    try:
        found = resolve(target, urlconf=urlconf(clubs[0].slug))
    except Resolver404:
        found = None
    if found is None or found.url_name == "old_address":
        raise Http404("No page has this address.")
    query = request.META.get("QUERY_STRING")
    return HttpResponsePermanentRedirect(f"{target}?{query}" if query else target)
