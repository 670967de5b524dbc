import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# Each worker compiles its templates and renders the home page once now, not on a visitor's request.
from web.page_cache.warmup import warm_up  # noqa: E402 - needs the application's settings loaded

warm_up(application)
