# Two commands set everything up: `make run` and `make test`; `make serve` runs it in production.
# `make test` leaves the slow tests (processes, servers, Chromium, benchmarks) to `make test-all`.
PYTHON ?= python3
VENV ?= .venv
PORT ?= 8000
# pytest-xdist: a worker per core, at most one per Redis database (16); `TEST_PARALLEL=` runs in one process.
TEST_PARALLEL ?= -n auto --maxprocesses=16
BIN = $(VENV)/bin
STAMP = $(VENV)/.installed
TEST_STAMP = $(VENV)/.installed-test

.PHONY: run serve test test-all lint migrations-check install install-test clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when a requirements file changes. The site needs requirements.txt only; the test tools
# (pytest, Playwright, ruff...) are in requirements-test.txt, which `make test` adds.
$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

$(TEST_STAMP): requirements.txt requirements-test.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
	touch $(STAMP) $(TEST_STAMP)

install: $(STAMP)

install-test: $(TEST_STAMP)

run: install
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py load_demo --club demo --if-no-clubs
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Production: needs SECRET_KEY and ALLOWED_HOSTS in the environment (see README, Production in brief, and docs/operations.md).
serve: export LEAGUE_PRODUCTION = 1
serve: install
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py collectstatic --no-input -v0
	$(BIN)/python manage.py check --deploy
	$(BIN)/gunicorn -c gunicorn.conf.py

lint: install-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

migrations-check: install-test
	$(BIN)/python manage.py makemigrations --check --dry-run

test: install-test migrations-check lint
	$(BIN)/python -m pytest $(TEST_PARALLEL) -m "not slow"

test-all: install-test migrations-check lint
	$(BIN)/python -m pytest $(TEST_PARALLEL)

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache
