"""The site's addresses: the admin, then the pages (web.urls)."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("web.urls")),
]

handler400 = "web.views.errors.request_refused"
handler404 = "web.views.errors.not_found"
handler500 = "web.views.errors.server_error"
