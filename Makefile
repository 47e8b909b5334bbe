# Table 31: every target creates .venv when it is missing (python3 -m venv, then the lock).
VENV   ?= .venv
PYTHON ?= python3
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat requirements-dev.lock pyproject.toml | cksum | cut -d' ' -f1)
PG_TEST_URL ?= postgresql+asyncpg://postgres@127.0.0.1:5432/test

.PHONY: run test test-pg test-browser lint format bench lock clean

$(STAMP): requirements-dev.lock pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -r requirements-dev.lock
	@rm -f $(VENV)/.installed-* && touch $@

venv: $(STAMP)

## make run: migrate the database (SQLite file by default), then serve on HOST:PORT
run: $(STAMP)
	$(BIN)/alembic upgrade head
	$(BIN)/python -m app serve

## make test: every test on SQLite; the browser tests (Chromium) in a pytest run of their own,
## since Playwright's sync API keeps an event loop running in the main thread
test: $(STAMP)
	$(BIN)/python -m pytest -m "not browser"
	$(BIN)/python -m pytest -m browser

## make test-pg: the same suite on PostgreSQL (skipped with a notice when it is not reachable)
test-pg: $(STAMP)
	TEST_DATABASE_URL=$(PG_TEST_URL) $(BIN)/python -m pytest -m "not browser"

## make test-browser: only the Playwright tests in Chromium
test-browser: $(STAMP)
	$(BIN)/python -m pytest -m browser

lint: $(STAMP)
	$(BIN)/ruff check app tests bench migrations
	$(BIN)/ruff format --check app tests bench migrations
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff check --fix app tests bench migrations
	$(BIN)/ruff format app tests bench migrations

## make bench: the engines and the database, then 1,000 tables x 5 sockets side by side with the
## bare endpoint: clients acting as fast as the game lets them, then at people's pace (~9 min)
bench: $(STAMP)
	mkdir -p bench/results
	$(BIN)/python -m bench.engines --json bench/results/engines.json
	$(BIN)/python -m bench.load --sizes 1000x5 --json bench/results/load.json
	$(BIN)/python -m bench.load --sizes 1000x5 --think-ms 2000 --seconds 15 --json bench/results/people.json

lock:
	rm -rf /tmp/table31-lock && $(PYTHON) -m venv /tmp/table31-lock
	/tmp/table31-lock/bin/pip install -q -e '.[dev]'
	/tmp/table31-lock/bin/pip freeze --exclude-editable > requirements-dev.lock

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
