# Two commands: `make run` serves the app, `make test` runs the whole suite. Both install what is missing.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PORT ?= 8501
DB := data/articles.db

.PHONY: install data index run test test-fast lint bench clean-index

$(STAMP): pyproject.toml .ci/constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# CPU build from the local wheel; a plain `torch` requirement would pull a multi-GB CUDA build.
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[dev]' -c .ci/constraints.txt  # test tools pinned
	touch $(STAMP)

install: $(STAMP)

$(DB): data/articles.jsonl | $(STAMP)
	$(PY) -m rag build-sample

data: $(DB)

index: $(DB)
	$(PY) -m rag index

run: index
	$(VENV)/bin/streamlit run app.py --server.address localhost --server.port $(PORT)

lint: $(STAMP)
	$(VENV)/bin/ruff check .

# The whole suite. .ci/postgres runs pytest with a PostgreSQL server up and stops it afterwards (if it started it).
test: index
	bash .ci/browser-deps
	$(VENV)/bin/ruff check .
	bash .ci/postgres $(PY) -m pytest -q --durations=15

# The inner loop: no real embedding model, servers or browser (about a minute).
test-fast: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q -m "not slow and not browser"

bench: $(DB)
	$(PY) bench/ingest.py

clean-index:
	rm -rf data/chroma
