"""The site's own pages: the list of clubs, and today's addresses of a one-club site."""

from __future__ import annotations

from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpResponsePermanentRedirect
from django.shortcuts import render

from league.models import Club, Matchday
from league.validation import name_key
from web.clubs.addresses import clubs_by_slug, is_page, urlconf


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
    """Any address no page has. A page's address without its last slash, or with its club's name in
    capitals (/north/standings, /North/), answers with a permanent redirect to the page, as Django's
    APPEND_SLASH would if this catch-all did not match first. So does an address of the days when the
    site held one club (/standings/, /players/3/), with one club, to that club's same page; otherwise
    nothing is there."""
    if request.method not in ("GET", "HEAD"):  # a browser would send a form's redirect on without it
        raise Http404("No page has this address.")
    if not rest.endswith("/") and is_page(f"/{rest}/", getattr(request, "urlconf", None)):
        return HttpResponsePermanentRedirect(request.get_full_path(force_append_slash=True))
    first, slash, after = rest.partition("/")
    if (club := _in_another_case(first)) is not None:
        lowered = f"/{club.slug}{slash}{after}"
        if not lowered.endswith("/") and is_page(lowered + "/", urlconf(club.slug, club.pk)):
            lowered += "/"  # one redirect, not two
        return _redirect(request, lowered)
    clubs = list(Club.objects.all()[:2])
    if len(clubs) != 1:
        raise Http404("No club has this address.")
    slug = clubs[0].slug
    for target in [f"/{slug}/{rest}"] + ([] if rest.endswith("/") else [f"/{slug}/{rest}/"]):
        if is_page(target, urlconf(slug)):
            return _redirect(request, target)
    raise Http404("No page has this address.")


def _in_another_case(first: str) -> Club | None:
    """The club whose address `first` is in another case (addresses are unique in any case): /North/
    for north, and /north/ for a club made with capitals, North."""
    wanted = first.lower()
    return next((club for slug, club in clubs_by_slug().items() if slug != first and slug.lower() == wanted), None)


def _redirect(request, path: str) -> HttpResponsePermanentRedirect:
    query = request.META.get("QUERY_STRING")
    return HttpResponsePermanentRedirect(f"{path}?{query}" if query else path)
