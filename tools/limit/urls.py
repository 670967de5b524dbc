"""One view: the captured page for the path asked for, from memory."""

import json
import os

from django.http import HttpResponse, HttpResponseNotFound
from django.urls import re_path

with open(os.environ["LIMIT_PAGES"], encoding="utf-8") as pages_file:
    PAGES = {path: (p["content_type"], p["body"].encode("latin-1")) for path, p in json.load(pages_file).items()}


def page(request):
    found = PAGES.get(request.get_full_path())
    if found is None:
        return HttpResponseNotFound()
    content_type, body = found
    return HttpResponse(body, content_type=content_type)


urlpatterns = [re_path(r"", page)]
