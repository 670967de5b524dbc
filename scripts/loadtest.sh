#!/usr/bin/env bash
# A bounded load test of the home and standings pages under gunicorn, on loopback only.
#
#   scripts/loadtest.sh            # PYTHON=.venv/bin/python DURATION=30 CONNECTIONS=8 THREADS=2 MATCHDAYS=50
#
# Sets up a throwaway SQLite site in a temporary folder (production settings, the club's demo data
# plus MATCHDAYS generated matchdays of 20 players), starts gunicorn on a free 127.0.0.1 port and
# runs wrk (apt-get install wrk) for DURATION seconds against each page, twice: first alone, then
# while `manage.py import_results --replace` rewrites the generated matchdays in a loop. Prints
# requests/s, p50 and p99 latency and errors for each run, then stops everything and removes the
# folder. It never targets any address but 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-.venv/bin/python}
DURATION=${DURATION:-30}
CONNECTIONS=${CONNECTIONS:-8}
THREADS=${THREADS:-2}
MATCHDAYS=${MATCHDAYS:-50}
command -v wrk >/dev/null || { echo "wrk not found: apt-get install wrk" >&2; exit 1; }
[ "$CONNECTIONS" -le 64 ] && [ "$THREADS" -le 4 ] && [ "$DURATION" -le 120 ] \
  || { echo "refusing an unbounded run: CONNECTIONS <= 64, THREADS <= 4, DURATION <= 120" >&2; exit 1; }

work=$(mktemp -d)
server=""
importer=""
cleanup() {
  [ -n "$importer" ] && kill "$importer" 2>/dev/null && wait "$importer" 2>/dev/null
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

port=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export DJANGO_SETTINGS_MODULE=config.settings LEAGUE_PRODUCTION=1 DEBUG=
export SECRET_KEY="load-test-only-$("$PYTHON" -c 'import secrets; print(secrets.token_urlsafe(50))')"
export ALLOWED_HOSTS=127.0.0.1 SECURE_SSL_REDIRECT=0 SECURE_COOKIES=0
export DATABASE_URL="sqlite:///$work/db.sqlite3" STATIC_ROOT="$work/static"
export BIND="127.0.0.1:$port" ACCESS_LOG=""

echo "Setting up: demo data plus $MATCHDAYS generated matchdays in $work"
"$PYTHON" manage.py migrate --no-input -v0
"$PYTHON" manage.py collectstatic --no-input -v0
"$PYTHON" manage.py load_demo >/dev/null
"$PYTHON" manage.py generate_league --players 20 --matchdays "$MATCHDAYS" --first 7 --start 2026-01-01 \
  "$work/league.csv" >/dev/null
"$PYTHON" manage.py import_results "$work/league.csv" >/dev/null

"$PYTHON" -m gunicorn -c gunicorn.conf.py >"$work/gunicorn.log" 2>&1 &
server=$!
for _ in $(seq 100); do
  curl -fso /dev/null "http://127.0.0.1:$port/standings/" && break
  sleep 0.2
done
workers=$(grep -c "Booting worker" "$work/gunicorn.log" || true)
echo "gunicorn on 127.0.0.1:$port with $workers workers; $(nproc) cores; wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s"
echo "home page $(curl -fs "http://127.0.0.1:$port/" | wc -c) bytes, standings $(curl -fs "http://127.0.0.1:$port/standings/" | wc -c) bytes"

measure() {  # measure LABEL PATH
  local out
  # Requests wrk gave up on may still hold workers: let them drain so runs do not overlap.
  curl -fso /dev/null --max-time 120 "http://127.0.0.1:$port/standings/" || true
  out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --timeout 30s --latency "http://127.0.0.1:$port$2")
  awk -v label="$1" -v path="$2" '
    /Requests\/sec/ { rps = $2 }
    $1 == "50%" { p50 = $2 }
    $1 == "99%" { p99 = $2 }
    /requests in/ { total = $1 }
    /Non-2xx/ { non2xx = $NF }
    /Socket errors/ { sock = $0; sub(/.*Socket errors: /, "", sock) }
    END {
      printf "%-22s %-12s %8s req/s  p50 %8s  p99 %8s  requests %6s  non-2xx %s  socket errors %s\n",
        label, path, rps, p50, p99, total, (non2xx == "" ? 0 : non2xx), (sock == "" ? "none" : sock)
    }' <<<"$out"
}

measure "alone" /
measure "alone" /standings/

(
  n=0
  while [ ! -e "$work/stop" ]; do
    if "$PYTHON" manage.py import_results --replace "$work/league.csv" >/dev/null 2>>"$work/import.err"; then
      n=$((n + 1)); echo "$n" >"$work/imports.ok"
    else
      echo x >>"$work/imports.failed"
    fi
  done
) &
importer=$!
sleep 1
measure "during imports" /
measure "during imports" /standings/
touch "$work/stop"  # the import under way finishes; no new one starts
wait "$importer" || true
importer=""
failed=0
[ -f "$work/imports.failed" ] && failed=$(wc -l <"$work/imports.failed")
echo "imports of $MATCHDAYS matchdays completed during the runs: $(cat "$work/imports.ok" 2>/dev/null || echo 0)," \
  "failed: $failed"
if [ -s "$work/import.err" ]; then sort "$work/import.err" | uniq -c | head -5; fi
echo "gunicorn: $(grep -c "WORKER TIMEOUT" "$work/gunicorn.log" || true) worker timeouts," \
  "$(grep -c "database is locked" "$work/gunicorn.log" || true) 'database is locked' errors"
