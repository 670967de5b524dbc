# Two commands set everything up: `make run` and `make test`; `make serve` runs it in production.
# `make test` leaves the slow tests (processes, servers, Chromium, benchmarks) to `make test-all`.
PYTHON ?= python3
VENV ?= .venv
PORT ?= 8000
# pytest-xdist: a worker per core, at most one per Redis database (16); `TEST_PARALLEL=` runs in one process.
TEST_PARALLEL ?= -n auto --maxprocesses=16
BIN = $(VENV)/bin
STAMP = $(VENV)/.installed

.PHONY: run serve test test-all lint migrations-check install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when requirements.txt changes.
$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py load_demo --club demo
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Production: needs SECRET_KEY and ALLOWED_HOSTS in the environment (see README, Production in brief, and docs/operations.md).
serve: export LEAGUE_PRODUCTION = 1
serve: install
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py collectstatic --no-input -v0
	$(BIN)/python manage.py check --deploy
	$(BIN)/gunicorn -c gunicorn.conf.py

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

migrations-check: install
	$(BIN)/python manage.py makemigrations --check --dry-run

test: install migrations-check lint
	$(BIN)/python -m pytest $(TEST_PARALLEL) -m "not slow"

test-all: install migrations-check lint
	$(BIN)/python -m pytest $(TEST_PARALLEL)

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache
