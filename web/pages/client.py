"""Who sent a request, for the API's per-address limit and the admin's login lockout: the
connection's address, or, behind `TRUSTED_PROXIES` proxies that each add the address they were
sent from to `X-Forwarded-For`, the address the outermost of them saw. Entries a client wrote
itself stand to the left of those and are never read."""

from __future__ import annotations

import ipaddress

from django.conf import settings


def client_address(request) -> str:
    remote = request.META.get("REMOTE_ADDR", "")
    proxies = settings.TRUSTED_PROXIES
    if proxies <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if len(forwarded) < proxies:  # not sent through every proxy: the left-most is the nearest to the client
        candidate = forwarded[0] if forwarded else remote
    else:
        candidate = forwarded[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:  # not an address: the proxy's own
        return remote
