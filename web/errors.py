from django.http import Http404


class NotFound(Http404):
    """A 404 whose message is written for the visitor; the 404 page shows it."""
