"""The clubs a site holds: which club a request is for (its first path segment), the list of clubs
at `/`, and today's addresses of a one-club site sent on to that club's."""
