"""The site's addresses: the admin, then the pages (web.urls)."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("web.urls")),
]

handler400 = "web.pages.errors.request_refused"
handler404 = "web.pages.errors.not_found"
handler500 = "web.pages.errors.server_error"
