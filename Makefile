# Table 31: every target creates .venv when it is missing (python3 -m venv, then the lock).
VENV   ?= .venv
PYTHON ?= python3
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat requirements-dev.lock pyproject.toml | cksum | cut -d' ' -f1)
# node_modules, from package-lock.json (npm ci); defined before the targets that depend on it
NODE_STAMP := node_modules/.installed
PG_TEST_URL ?= postgresql+asyncpg://postgres@127.0.0.1:5432/test
# Python keeps each module compiled, and pytest each test module with its asserts rewritten, in
# __pycache__ (ignored by git): where the environment sets PYTHONDONTWRITEBYTECODE, every pytest
# worker would compile the whole suite again (~6 s of CPU each, a dozen workers a run)
unexport PYTHONDONTWRITEBYTECODE
# pytest-xdist workers, a test file on one worker (module-scoped servers and the fuzzers'
# tallies stay whole); WORKERS=0 runs in one process. The passes wait on real servers, sockets
# and timers as much as they compute, so each runs more workers than CI's two cores: WORKERS
# for the SQLite and PostgreSQL passes (6 spent more on starting and collecting than it saved),
# BROWSER_WORKERS for Chromium's (a browser and a server each; 4 took longer than 3),
# CLUSTER_WORKERS for the cluster's (nodes, nginx; bounds on time are leases)
WORKERS ?= 4
BROWSER_WORKERS ?= 3
CLUSTER_WORKERS ?= 4
# a file at a time, the longest first (tests/conftest.py orders them by the durations the last
# run left in .pytest_cache; xdist would otherwise hand out the files of most tests first)
PYTEST_ARGS := --dist loadfile --no-loadscope-reorder --durations=15
PYTEST := $(BIN)/python -m pytest -n $(WORKERS) $(PYTEST_ARGS)
# the folders the browser and the cluster passes collect (only theirs: each worker collecting
# the whole suite to deselect it cost seconds of CPU); tests/conftest.py's PASS_FOLDERS refuses
# a browser or cluster test anywhere else, which no pass would run
BROWSER_TESTS := tests/browser
CLUSTER_TESTS := tests/cluster tests/bench

.PHONY: run cluster test test-sqlite test-pg test-cluster test-browser lint format bench lock clean \
	extract update compile

$(STAMP): requirements-dev.lock pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -r requirements-dev.lock
	@rm -f $(VENV)/.installed-* && touch $@

venv: $(STAMP)

## The catalogs (docs/i18n.md): messages (the server's Python and templates) and js (the browser
## client's t()/tn()), a .po per language under app/i18n/locale/<lang>/LC_MESSAGES/. The .mo
## files, and the pseudo-locale qps's .po written from each .pot, are build products (ignored
## by git), compiled once the .pot or a .po changes: every target that serves or tests depends
## on the stamp, as on the venv's
LOCALE_DIR := app/i18n/locale
I18N_DOMAINS := messages js
I18N_LANGS := en el da fr it
I18N_POT := $(foreach d,$(I18N_DOMAINS),$(LOCALE_DIR)/$(d).pot)
I18N_PO := $(foreach l,$(I18N_LANGS),$(foreach d,$(I18N_DOMAINS),$(LOCALE_DIR)/$(l)/LC_MESSAGES/$(d).po))
I18N_STAMP := $(LOCALE_DIR)/.compiled

$(I18N_STAMP): $(STAMP) $(I18N_POT) $(I18N_PO) app/i18n/pseudo.py
	@for d in $(I18N_DOMAINS); do \
	  $(BIN)/python -m app.i18n.pseudo $(LOCALE_DIR)/$$d.pot $(LOCALE_DIR)/qps/LC_MESSAGES/$$d.po && \
	  $(BIN)/pybabel -q compile --statistics -d $(LOCALE_DIR) -D $$d || exit 1; \
	done
	@touch $@

## make compile: the .mo of every language and domain (and the pseudo-locale's catalogs)
compile: $(I18N_STAMP)

## make extract: every marked string into the templates (.pot), one per domain
extract: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg --project "Table 31" --sort-by-file -k Plural:1,2 \
	  -o $(LOCALE_DIR)/messages.pot app templates
	$(BIN)/pybabel -q extract -F babel-js.cfg --project "Table 31" --sort-by-file \
	  --no-default-keywords -k t -k tn:1,2 -k tc:1c,2 -o $(LOCALE_DIR)/js.pot static/js

## make update: each language's .po brought up to its .pot (new msgids added empty, changed
## ones marked fuzzy, gone ones kept as obsolete comments for the translators)
update: $(STAMP)
	@for d in $(I18N_DOMAINS); do for l in $(I18N_LANGS); do \
	  $(BIN)/pybabel -q update -i $(LOCALE_DIR)/$$d.pot -d $(LOCALE_DIR) -D $$d -l $$l || exit 1; \
	done; done

## make run: migrate the database (SQLite file by default), then serve on HOST:PORT
run: $(STAMP) $(I18N_STAMP)
	@$(BIN)/python -m app check-db
	$(BIN)/alembic upgrade head
	$(BIN)/python -m app serve

## make cluster: NODES nodes (n1, n2, ...) behind nginx on PORT (8000), on PostgreSQL (DATABASE_URL;
## postgresql+asyncpg://postgres@127.0.0.1:5432/table31 by default, created when missing) and
## Redis (REDIS_URL; redis://127.0.0.1:6379/0): migrates once, starts them, prints where to open;
## Ctrl-C stops everything it started (app/cluster/launcher.py)
NODES ?= 2
cluster: $(STAMP) $(I18N_STAMP)
	$(BIN)/python -m app cluster --nodes $(NODES)

## make test: everything, each pass stopping the run when it fails: the linters, every test on
## SQLite (make test-sqlite), the browser tests (Chromium) in a pytest run of their own
## (Playwright's sync API keeps an event loop running in the main thread), then the cluster's
## (make test-cluster). One pass at a time: side by side (make -j) they took about as long
## (725 s against 734, the SQLite pass keeping both cores busy), and under that load the
## cluster's swarm, a page's first socket and the table's fit at one screen size failed
## (docs/performance.md, "The test suite").
## The -m selections split the suite: no test runs twice, none is left out. The accessibility
## tests inject node_modules/axe-core, so node_modules is installed first (npm ci)
test: $(STAMP) $(NODE_STAMP) $(I18N_STAMP)
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory test-sqlite
	$(MAKE) --no-print-directory test-browser
	$(MAKE) --no-print-directory test-cluster

## make test-sqlite: every test but the browser's and the cluster's, on SQLite
test-sqlite: $(STAMP) $(I18N_STAMP)
	$(PYTEST) -m "not browser and not cluster"

## make test-cluster: cluster mode across real processes (nodes, nginx, PostgreSQL, Redis; each
## test skips with a notice when one is missing); the swarm's failover check alone, since its
## bounds on time are the lease's and two cores are all there is
test-cluster: $(STAMP) $(I18N_STAMP)
	$(BIN)/python -m pytest -n $(CLUSTER_WORKERS) $(PYTEST_ARGS) -m cluster --ignore=tests/cluster/test_swarm.py $(CLUSTER_TESTS)
	$(BIN)/python -m pytest -m cluster --durations=5 tests/cluster/test_swarm.py

## make test-pg: the same suite on PostgreSQL (skipped with a notice when it is not reachable),
## less the suites that open no database at all (the pure rule engines, the rule book, the
## project's layout), which would run exactly as they did on SQLite
PURE_SUITES := --ignore=tests/games --ignore=tests/rulebook --ignore=tests/project
test-pg: $(STAMP) $(I18N_STAMP)
	@echo "PostgreSQL pass: tests/games, tests/rulebook and tests/project open no database; they ran on SQLite"
	TEST_DATABASE_URL=$(PG_TEST_URL) $(PYTEST) -m "not browser and not cluster" --ignore=tests/cluster $(PURE_SUITES)

## make test-browser: only the Playwright tests in Chromium
test-browser: $(STAMP) $(NODE_STAMP) $(I18N_STAMP)
	$(BIN)/python -m pytest -n $(BROWSER_WORKERS) $(PYTEST_ARGS) -m browser $(BROWSER_TESTS)

## the front end's tools (package.json): Biome, the linter, and axe-core, which the browser tests
## inject; npm ci when node_modules is missing or older than the lock
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

lint: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff check app tests bench migrations
	$(BIN)/ruff format --check app tests bench migrations
	$(BIN)/mypy
	node_modules/.bin/biome lint --error-on-warnings static

format: $(STAMP)
	$(BIN)/ruff check --fix app tests bench migrations
	$(BIN)/ruff format app tests bench migrations

## make bench: the engines and the database, then 1,000 tables x 5 sockets side by side with the
## bare endpoint: clients acting as fast as the game lets them, then at people's pace (~9 min)
bench: $(STAMP) $(I18N_STAMP)
	mkdir -p bench/results
	$(BIN)/python -m bench.engines --json bench/results/engines.json
	$(BIN)/python -m bench.load --sizes 1000x5 --json bench/results/load.json
	$(BIN)/python -m bench.load --sizes 1000x5 --think-ms 2000 --seconds 15 --json bench/results/people.json

## make bench-cluster: 200 tables x 5 sockets through nginx on 1 node and on 2 nodes side by side
## (CPU per action by layer: nginx, nodes, writers, Redis, PostgreSQL), failover after kill -9
## with a 10 s and a 3 s lease, then 600 x 5 at people's pace; needs PostgreSQL, Redis, nginx (~15 min)
.PHONY: bench-cluster
bench-cluster: $(STAMP) $(I18N_STAMP)
	mkdir -p bench/results
	$(BIN)/python -m bench.cluster --json bench/results/cluster.json
	$(BIN)/python -m bench.cluster --tables 600 --think-ms 2000 --seconds 15 --no-failover --json bench/results/cluster-people.json

lock:
	rm -rf /tmp/table31-lock && $(PYTHON) -m venv /tmp/table31-lock
	/tmp/table31-lock/bin/pip install -q -e '.[dev]'
	/tmp/table31-lock/bin/pip freeze --exclude-editable > requirements-dev.lock

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
