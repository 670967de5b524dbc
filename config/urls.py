"""The site's addresses (web.urls): the admin, the list of clubs; a club's pages are added for a
request for one (web.clubs.addresses)."""

from web.urls import HANDLERS, site_patterns

urlpatterns = site_patterns()

handler400 = HANDLERS["handler400"]
handler404 = HANDLERS["handler404"]
handler500 = HANDLERS["handler500"]
