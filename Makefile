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

# Benchmarks (bench/; results in bench/results/, see README "Benchmarks"). Full runs timed on this 2-core machine
# on 2026-12-01 under load 3-9 from other work: query_latency 10 s, resync 20 s, interpretation 2 s, retrieval_latency
# under a minute, retrieval_calibration 30 s, llm_cost 3 min, chunking 5 min (three builds of the sample),
# retrieval_query_text 6 min, overhead_experiments 23 min, ingest 30 min (sample, then 10,000 synthetic articles with
# the real model), scale 6 min at 1,000 and 10,000 articles plus about 30 min at 100,000 (its index alone took
# 14 min to build on 2026-11-30): about 1 hour 45 minutes in all. `make bench-quick` runs the quick variants (small
# sizes, results in bench/results/quick/; retrieval_calibration has none): about 6 minutes.
bench: index
	$(PY) -m bench.query_latency
	$(PY) -m bench.resync
	$(PY) -m bench.interpretation
	$(PY) -m bench.retrieval_latency
	$(PY) -m bench.retrieval_calibration
	$(PY) -m bench.llm_cost
	$(PY) -m bench.chunking
	$(PY) -m bench.retrieval_query_text
	$(PY) -m bench.retrieval_sentences
	$(PY) -m bench.overhead_experiments
	$(PY) -m bench.ingest
	$(PY) -m bench.scale

.PHONY: bench-quick
bench-quick: index
	$(PY) -m bench.query_latency --quick
	$(PY) -m bench.resync --quick
	$(PY) -m bench.interpretation --quick
	$(PY) -m bench.retrieval_latency --quick
	$(PY) -m bench.llm_cost --quick
	$(PY) -m bench.chunking --quick
	$(PY) -m bench.retrieval_query_text --quick
	$(PY) -m bench.ingest --quick
	$(PY) -m bench.overhead_experiments --quick
	$(PY) -m bench.scale --quick

clean-index:
	rm -rf data/chroma
