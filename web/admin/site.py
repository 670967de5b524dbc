"""The admin as a club secretary sees it: the league's name in the header, and the league's own
entries (matchdays first) above the login lockouts and user groups a secretary seldom needs."""

import functools
from contextlib import nullcontext
from functools import wraps

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.exceptions import NotRegistered
from django.contrib.contenttypes.models import ContentType
from django.contrib.contenttypes.views import shortcut
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import Http404
from django.urls import path
from django.utils.functional import SimpleLazyObject

from league import history
from league.models import Club, Write, club_reverse
from web.page_cache.ahead import rendered_ahead
from web.pages.access import clubs_of

APP_ORDER = {"league": 0, "ratings": 1, "auth": 2, "axes": 3}
MODEL_ORDER = {"Matchday": 0, "Player": 1, "Game": 2, "DealSession": 3, "Category": 4, "Season": 5, "Page": 6}


def configure(site: admin.AdminSite) -> None:
    site.site_header = f"{settings.LEAGUE_NAME}: administration"
    site.site_title = f"{settings.LEAGUE_NAME} admin"
    site.index_title = "Results, players and rating tables"
    original = site.get_app_list

    def get_app_list(request, app_label=None):
        apps = original(request, app_label)
        for app in apps:
            app["models"].sort(key=lambda m: (MODEL_ORDER.get(m["object_name"], len(MODEL_ORDER)), m["name"]))
        return sorted(apps, key=lambda a: (APP_ORDER.get(a["app_label"], len(APP_ORDER)), a["name"]))

    site.get_app_list = get_app_list
    context = site.each_context

    def each_context(request):
        return {**context(request), "entry_pages": SimpleLazyObject(lambda: entry_pages(request.user))}

    site.each_context = each_context
    admin_view = site.admin_view

    def recorded_view(view, cacheable=False):
        """Every admin page's writes are in the history as the admin's, by the user."""

        @wraps(view)
        def by_user(request, *args, **kwargs):
            ahead = rendered_ahead() if request.method == "POST" else nullcontext()  # web.page_cache.ahead
            with history.way_in(Write.Way.ADMIN, request.user), ahead:
                return view(request, *args, **kwargs)

        return admin_view(by_user, cacheable)

    site.admin_view = recorded_view
    urls = site.get_urls

    def get_urls():
        view = site.admin_view(functools.partial(view_on_site, site))
        replaced = path("r/<path:content_type_id>/<path:object_id>/", view, name="view_on_site")
        return [replaced if getattr(p, "name", None) == "view_on_site" else p for p in urls()]

    site.get_urls = get_urls


def view_on_site(site: admin.AdminSite, request, content_type_id, object_id):
    """The admin's "view on site", for what the user may see in the admin. Django's finds the object
    with the model's base manager, which no club's scope narrows: its redirect would confirm another
    club's object."""
    try:
        model_admin = site.get_model_admin(ContentType.objects.get_for_id(content_type_id).model_class())
        rows = model_admin.get_queryset(request)
        shown = model_admin.has_view_permission(request) and rows.filter(pk=object_id).exists()
    except (ObjectDoesNotExist, ValidationError, ValueError, NotRegistered):
        shown = False
    if not shown:
        raise Http404("No page has this address.")
    return shortcut(request, content_type_id, object_id)


def entry_pages(user) -> list[tuple[str, str]]:
    """The name and entry page of each club the user works on, for the admin's links to them."""
    clubs = clubs_of(user)
    shown = Club.objects.all() if clubs is None else Club.objects.filter(pk__in=clubs)
    return [(club.name, club_reverse(club.pk, "league:enter")) for club in shown]
