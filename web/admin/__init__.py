"""The club secretary's side of the site: the league's admin (matchdays, the catalogue of games and
categories, rating tables, the upload), and every feature's admin registered with it (the seasons',
the solitaire sessions'). Every save and delete here goes through the service functions
(`ratings.services`, `league.services`), which validate, write, recompute and move the pages'
revision on in one transaction."""

from django.contrib import admin

from web.admin import catalogue, clubs, matchdays, rating_tables, site
from web.api import admin as api
from web.deals import admin as deals
from web.seasons import admin as seasons

site.configure(admin.site)

__all__ = ["api", "catalogue", "clubs", "deals", "matchdays", "rating_tables", "seasons", "site"]
