"""The club secretary's side of the site. Every save and delete here goes through the service
functions (`ratings.services`, `league.services`), which validate, write, recompute and move the
pages' revision on in one transaction."""

from django.contrib import admin

from web.admin import catalogue, matchdays, rating_tables, seasons, site
from web.deals import admin as deals

site.configure(admin.site)

__all__ = ["catalogue", "deals", "matchdays", "rating_tables", "seasons", "site"]
