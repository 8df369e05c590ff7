"""Query benchmarks at scale: latency per route, Chroma filter latency, cold start and app memory.

For each size (synthetic articles from bench/synthetic.py; 1,000, 10,000 and 100,000 by default) this
1. writes the database under bench/work/query_scale/ (reused when it already holds that many rows);
2. builds the Chroma index ONCE (reused afterwards; `--rebuild` forces a new build) and reports its build
   time. Sizes above `--real-max-rows` are embedded with the deterministic stand-in `HashingEmbedder`
   (same 384 dimensions; latency does not depend on vector content) because the real model embeds only a
   few chunks per second on this machine. QUESTIONS are always embedded with the real all-MiniLM-L6-v2:
   the assistant gets the real embedder in its providers but a `VectorIndex` whose fingerprint matches the
   stand-in collection, and every vector/hybrid turn's `embed.query` span is checked for the real model;
3. measures Chroma filter latency directly on the collection with a fixed query vector (no filter,
   category equality, numeric date range, `row_key $in` lists of 10 / 100 / 1,000 keys; n_results=5,
   median of 20 runs);
4. asks ~10 questions per route (sql, vector, hybrid) 3 times through `Assistant.ask` (offline provider)
   and reports p50/p95 of the trace total and of wall time, per-step medians and per-question medians.
Once per run: cold start on the sample corpus (fresh process to first answer, in phases), the embedding
throughput of the product's embedder vs the model's own `encode` on the same fixed batch, and, at the
largest size, the peak memory of `streamlit run app.py` pointed at that size (driven by HTTP health checks
and, when Playwright and Debian's chromium are present, questions typed into the chat) plus the peak
memory of a plain Python process running the same Assistant over the same index.

The machine has 2 cores and other work runs on it: every measurement records os.getloadavg() at its
start and end.

Usage:
  .venv/bin/python bench/query_scale.py --quick                # 1,000 articles only
  .venv/bin/python bench/query_scale.py                        # 1,000, 10,000 and 100,000
  .venv/bin/python bench/query_scale.py --sizes 10000 100000   # any sizes; results merge by size
Results: bench/results/query_scale.json (merged by size across runs) and bench/results/query_scale.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.synthetic import DEFAULT_SEED, DEFAULT_WORDS, build_synthetic_db, describe_db  # noqa: E402
from rag.answer.hybrid_engine import MAX_SELECTED_ROWS  # noqa: E402
from rag.answer.retrieval import CANDIDATES_PER_RESULT, ROW_KEYS_PER_QUERY  # noqa: E402
from rag.assistant import Assistant  # noqa: E402
from rag.data.embeddings import HashingEmbedder, SentenceTransformerEmbedder  # noqa: E402
from rag.data.index import VectorIndex  # noqa: E402
from rag.data.source import TableSource  # noqa: E402
from rag.providers import Providers  # noqa: E402
from rag.settings import SAMPLE_DB_PATH, Settings  # noqa: E402

RESULTS_DIR = ROOT / "bench" / "results"
WORK_DIR = ROOT / "bench" / "work" / "query_scale"
REAL_MODEL = "all-MiniLM-L6-v2"
STAND_IN = "hashing"
DEFAULT_SIZES = (1_000, 10_000, 100_000)
FILTER_RUNS = 20
STRATEGY_RUNS = 3
CHROMA_MAX_IN = 32_000  # a longer `$in` list fails in Chroma 1.5 ("too many SQL variables"), measured at 33,000
STRATEGY_QUESTIONS = ("court rulings in 2021", "What was written about elections in 2019?",
                      "articles longer than 150 words about hospitals",
                      "Between March and May 2023, anything about Mother's Day in fashion?")
PARTS = ("filters", "queries", "strategies")
FIXED_QUERY = "court ruling on the electoral map"
THROUGHPUT_TEXTS = 64  # one model batch of chunk texts
APP_QUESTIONS = ("How many articles per year and category?", "What do we have about children?",
                 "court rulings in 2021")

QUESTIONS: dict[str, list[str]] = {
    "sql": [
        "How many articles per year and category?",
        "Average word count per category",
        "List politics articles from March 2023",
        "Who writes the most articles?",
        "Which month of 2022 had the most technology articles?",
        "How many sports articles were published in 2021?",
        "What is the longest article?",
        "Share of articles per category",
        "Latest five travel articles",
        "How many articles did Leopold Farrant write in 2023?",
    ],
    "vector": [
        "What do we have about children?",
        "Trends in fashion",
        "Anything about battery storage?",
        "What are people saying about interest rates?",
        "news about vaccines and hospitals",
        "stories about football transfers",
        "politics articles about elections",
        "What do sports writers say about injuries?",
        "Which bank plans to offer crypto custody to its clients?",
        "Any stories about airlines and delays?",
    ],
    "hybrid": [
        "Technology articles about crypto in 2023",
        "Between March and May 2023, anything about Mother's Day in fashion?",
        "court rulings in 2021",
        "What did Leopold Farrant write about football in 2022?",
        "album reviews from March 2023",
        "labour disputes and unions in June 2022",
        "sleeper train travel story from January 2020",
        "articles longer than 150 words about hospitals",
        "news about ferries in the past month",
        "What was written about elections in 2019?",
    ],
}


# ----------------------------------------------------------------------------- machine, load, memory

def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


@contextlib.contextmanager
def measured(record: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Adds load averages at start and end and the wall seconds of the block to `record`."""
    record["loadavg_start"] = loadavg()
    started = time.perf_counter()
    try:
        yield record
    finally:
        record["wall_s"] = round(time.perf_counter() - started, 3)
        record["loadavg_end"] = loadavg()


def machine_info() -> dict[str, Any]:
    import chromadb
    import sentence_transformers
    import torch

    cpu_model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    memory_mb = None
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory_mb = round(int(line.split()[1]) / 1024)
    return {"cpu_count": os.cpu_count(), "cpu_model": cpu_model, "memory_mb": memory_mb,
            "platform": platform.platform(), "python": platform.python_version(), "torch": torch.__version__,
            "torch_threads": torch.get_num_threads(), "sentence_transformers": sentence_transformers.__version__,
            "chromadb": chromadb.__version__}


def status_kb(pid: int | str, field: str) -> int:
    with contextlib.suppress(OSError, ValueError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


class RssSampler:
    """Samples VmRSS of `pid` every `interval` seconds in a daemon thread; keeps the peak and a timeline."""

    def __init__(self, pid: int | str = "self", interval: float = 0.25) -> None:
        self.pid, self.interval = pid, interval
        self.peak_kb = 0
        self.started = time.perf_counter()
        self.marks: list[dict[str, Any]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="rss-sampler")

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak_kb = max(self.peak_kb, status_kb(self.pid, "VmRSS"))
            self._stop.wait(self.interval)

    def mark(self, label: str) -> None:
        """Record the RSS now and the peak so far under `label` (a point on the timeline)."""
        rss = status_kb(self.pid, "VmRSS")
        self.peak_kb = max(self.peak_kb, rss)
        self.marks.append({"at_s": round(time.perf_counter() - self.started, 1), "event": label,
                           "rss_mb": round(rss / 1024), "peak_so_far_mb": round(self.peak_kb / 1024)})

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (as bench/query_latency.py)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def summary(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    return {"n": len(values), "p50_ms": round(statistics.median(values), 1),
            "p95_ms": round(percentile(values, 0.95), 1), "max_ms": round(max(values), 1)}


# ----------------------------------------------------------------------------- settings, db, index

def embed_choice(rows: int, real_max_rows: int) -> str:
    return REAL_MODEL if rows <= real_max_rows else STAND_IN


def db_path(rows: int) -> Path:
    return WORK_DIR / f"synthetic-{rows}.db"


def index_dir(rows: int, embed: str) -> Path:
    return WORK_DIR / f"index-{rows}-{'real' if embed == REAL_MODEL else 'hashing'}"


def settings_for(rows: int, embed: str) -> Settings:
    """Settings of the collection at this size (its fingerprint names the embedder that built it)."""
    return Settings(db_url=f"sqlite:///{db_path(rows)}", index_dir=str(index_dir(rows, embed)), embed_model=embed,
                    provider="offline")


def ensure_db(rows: int) -> dict[str, Any]:
    path = db_path(rows)
    meta_path = path.with_suffix(".json")
    wanted = {"rows": rows, "seed": DEFAULT_SEED, "words": DEFAULT_WORDS}
    if path.exists() and meta_path.exists():
        meta = json.loads(meta_path.read_text())
        if all(meta.get(k) == v for k, v in wanted.items()):
            return {**meta, "reused": True}
    record: dict[str, Any] = dict(wanted)
    with measured(record):
        build_synthetic_db(path, rows=rows, seed=DEFAULT_SEED, words=DEFAULT_WORDS)
    record.update(described=describe_db(path), built_at=datetime.now().isoformat(timespec="seconds"))
    meta_path.write_text(json.dumps(record, indent=2))
    return {**record, "reused": False}


def progress_logger(label: str) -> Callable[[Any], None]:
    started = time.perf_counter()
    last = [0.0]

    def progress(update: Any) -> None:
        now = time.perf_counter() - started
        if now - last[0] >= 30 or update.phase == "done":
            last[0] = now
            print(f"  [{label}] {update.phase} {update.done:,}/{update.total:,} rows after {now:,.0f} s "
                  f"(load {loadavg()[0]})", flush=True)
    return progress


def ensure_index(rows: int, embed: str, embedders: dict[str, Any], rebuild: bool) -> dict[str, Any]:
    """Build the collection once; later runs reuse it and report the recorded build."""
    settings = settings_for(rows, embed)
    meta_path = index_dir(rows, embed).with_suffix(".build.json")
    index = VectorIndex(settings, embedders[embed])
    if meta_path.exists() and not rebuild:
        meta = json.loads(meta_path.read_text())
        try:
            count = index.collection().count()
        except Exception as error:  # noqa: BLE001 - any failure to open means: rebuild, and say why
            count, why = None, f"{type(error).__name__}: {error}"
        else:
            why = f"the collection holds {count:,} chunks, the recorded build {meta['chunks']:,}"
        if count == meta["chunks"]:
            return {**meta, "reused": True}
        print(f"  not reusing the recorded index build ({why})", flush=True)
    source = TableSource(settings.db_url, settings.table)
    record: dict[str, Any] = {"rows": rows, "embed_model": embedders[embed].name,
                              "stand_in_embedding": embed != REAL_MODEL, "collection": index.name,
                              "index_dir": str(index_dir(rows, embed).relative_to(ROOT))}
    print(f"building the index for {rows:,} rows with {embedders[embed].name} ...", flush=True)
    with RssSampler() as rss, measured(record):
        report = index.sync(source, rebuild=True, progress=progress_logger(f"index {rows:,}"))
    record.update(build_s=report.seconds, embed_s=round(report.embed_seconds, 2), chunks=report.chunks_added,
                  chunks_per_s=round(report.chunks_added / report.seconds, 1) if report.seconds else None,
                  non_embed_s=round(report.seconds - report.embed_seconds, 2),
                  peak_rss_mb_during_build=round(rss.peak_kb / 1024),
                  built_at=datetime.now().isoformat(timespec="seconds"))
    meta_path.write_text(json.dumps(record, indent=2))
    return {**record, "reused": False}


def query_index(rows: int, embed: str, embedders: dict[str, Any]) -> VectorIndex:
    """The collection as built (stand-in fingerprint when the stand-in built it)."""
    return VectorIndex(settings_for(rows, embed), embedders[embed])


def build_assistant(rows: int, embed: str, embedders: dict[str, Any]) -> Assistant:
    """Queries embed with the real model; the index is the collection as built at this size."""
    settings = settings_for(rows, REAL_MODEL).replace(index_dir=str(index_dir(rows, embed)))
    return Assistant.build(settings, providers=Providers(embedders[REAL_MODEL]),
                           index=query_index(rows, embed, embedders))


# ----------------------------------------------------------------------------- Chroma filter latency

def filter_latency(rows: int, embed: str, embedders: dict[str, Any], runs: int) -> dict[str, Any]:
    index = query_index(rows, embed, embedders)
    collection = index.collection()
    vector = embedders[REAL_MODEL].embed([FIXED_QUERY])[0]
    all_keys = sorted(index.manifest(collection))  # row keys of committed rows, spread over the whole table
    step = max(1, len(all_keys) // 1000)
    keys = all_keys[::step][:1000]
    cases: dict[str, dict[str, Any] | None] = {
        "none": None,
        "equality (article_category = politics)": {"article_category": "politics"},
        "date range (date_ymd 2023-01-01..2023-03-31)": {"$and": [{"date_ymd": {"$gte": 20230101}},
                                                                   {"date_ymd": {"$lte": 20230331}}]},
        "row_key $in 10": {"row_key": {"$in": keys[:10]}},
        "row_key $in 100": {"row_key": {"$in": keys[:100]}},
        "row_key $in 1,000": {"row_key": {"$in": keys[:1000]}},
    }
    record: dict[str, Any] = {"runs": runs, "n_results": 5, "collection_count": collection.count(), "cases": {}}
    with measured(record):
        for label, where in cases.items():
            timings, cpu = [], []
            returned = 0
            collection.query(query_embeddings=[vector], n_results=5, where=where)  # warm-up, not counted
            for _ in range(runs):
                started, cpu_started = time.perf_counter(), time.process_time()
                result = collection.query(query_embeddings=[vector], n_results=5, where=where,
                                          include=["metadatas", "distances"])
                timings.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - cpu_started) * 1000)
                returned = len(result["ids"][0])
            record["cases"][label] = {"median_ms": round(statistics.median(timings), 2),
                                      "p95_ms": round(percentile(timings, 0.95), 2),
                                      "min_ms": round(min(timings), 2),
                                      "cpu_median_ms": round(statistics.median(cpu), 2), "returned": returned}
        # How the hybrid route really calls Chroma: batches of 500 keys, 10 candidates per wanted result.
        timings, cpu = [], []
        for _ in range(runs):
            started, cpu_started = time.perf_counter(), time.process_time()
            collection.query(query_embeddings=[vector], n_results=50, where={"row_key": {"$in": keys[:500]}},
                             include=["metadatas", "documents", "distances"])
            timings.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - cpu_started) * 1000)
        record["cases"]["row_key $in 500, n_results=50, with documents (one hybrid batch)"] = {
            "median_ms": round(statistics.median(timings), 2), "p95_ms": round(percentile(timings, 0.95), 2),
            "min_ms": round(min(timings), 2), "cpu_median_ms": round(statistics.median(cpu), 2), "returned": 50}
    return record


# ----------------------------------------------------------------------------- query latency

def query_latency(rows: int, embed: str, embedders: dict[str, Any], repeats: int) -> dict[str, Any]:
    record: dict[str, Any] = {"repeats": repeats, "questions_per_route": {r: len(q) for r, q in QUESTIONS.items()}}
    with measured(record):
        started = time.perf_counter()
        assistant = build_assistant(rows, embed, embedders)
        record["assistant_build_s"] = round(time.perf_counter() - started, 2)
        # Warm-up: one question per route, timed but not counted (first Chroma load, first SQL plans).
        record["first_answer_ms"] = {}
        for route, questions in QUESTIONS.items():
            turn = assistant.ask(questions[0])
            record["first_answer_ms"][route] = round(turn.trace.timings_ms["total"], 1)
        turns: list[dict[str, Any]] = []
        for repeat in range(repeats):
            for expected, questions in QUESTIONS.items():
                for question in questions:
                    wall_started, cpu_started = time.perf_counter(), time.process_time()
                    turn = assistant.ask(question)
                    wall_ms = (time.perf_counter() - wall_started) * 1000
                    record_ = turn_record(turn, expected, wall_ms, repeat)
                    record_["cpu_ms"] = round((time.process_time() - cpu_started) * 1000, 2)
                    turns.append(record_)
            print(f"  [queries {rows:,}] repeat {repeat + 1}/{repeats} done (load {loadavg()[0]})", flush=True)
    record.update(analyse_turns(turns))
    record["turns"] = turns
    return record


def turn_record(turn: Any, expected: str, wall_ms: float, repeat: int) -> dict[str, Any]:
    spans = turn.trace.spans
    embed_models = sorted({str(s.attributes.get("model")) for s in spans if s.name == "embed.query"})
    searches = [s for s in spans if s.name == "vector.search"]
    return {"question": turn.question, "expected_route": expected, "route": turn.route, "repeat": repeat,
            "total_ms": round(turn.trace.timings_ms["total"], 2), "wall_ms": round(wall_ms, 2),
            "steps_ms": {k: v for k, v in turn.trace.timings_ms.items() if k != "total"},
            "error": turn.error, "query_embed_models": embed_models,
            "hybrid_row_keys": getattr(turn.trace, "restricted_row_keys", None),
            "chroma_batches": sum(int(s.attributes.get("batches", 0)) for s in searches),
            "results": len(turn.citations)}


def analyse_turns(turns: list[dict[str, Any]]) -> dict[str, Any]:
    per_route: dict[str, Any] = {}
    steps: dict[str, dict[str, list[float]]] = {}
    for t in turns:
        t["group"] = t["route"] or t["expected_route"]  # a failed turn has no route: count it where it was sent
    for route in QUESTIONS:
        chosen = [t for t in turns if t["group"] == route]
        per_route[route] = {"trace_total": summary([t["total_ms"] for t in chosen]),
                            "wall": summary([t["wall_ms"] for t in chosen]),
                            "cpu": summary([t["cpu_ms"] for t in chosen]),
                            "errors": sum(1 for t in chosen if t["error"])}
        for t in chosen:
            for step, ms in t["steps_ms"].items():
                steps.setdefault(route, {}).setdefault(step, []).append(ms)
    per_question: dict[str, Any] = {}
    for t in turns:
        entry = per_question.setdefault(t["question"], {"expected_route": t["expected_route"], "route": t["route"],
                                                        "total": [], "errors": set(), "row_keys": t["hybrid_row_keys"],
                                                        "chroma_batches": t["chroma_batches"]})
        entry["total"].append(t["total_ms"])
        if t["error"]:
            entry["errors"].add(t["error"][:200])
    questions = {q: {"expected_route": e["expected_route"], "route": e["route"],
                     "median_ms": round(statistics.median(e["total"]), 1), "max_ms": round(max(e["total"]), 1),
                     "hybrid_row_keys": e["row_keys"], "chroma_batches": e["chroma_batches"],
                     "errors": sorted(e["errors"])} for q, e in per_question.items()}
    models = sorted({m for t in turns for m in t["query_embed_models"]})
    embedded = [t for t in turns if t["route"] in ("vector", "hybrid") and not t["error"]]
    return {
        "per_route": per_route,
        "median_step_ms": {route: {step: round(statistics.median(v), 2) for step, v in sorted(s.items())}
                           for route, s in steps.items()},
        "per_question": questions,
        "misrouted": sorted({t["question"] for t in turns if t["route"] != t["expected_route"]}),
        "query_embedding": {"models_seen_in_embed_query_spans": models,
                            "retrieval_turns": len(embedded),
                            "all_retrieval_turns_used_real_model": bool(embedded) and all(
                                t["query_embed_models"] == [REAL_MODEL] for t in embedded)},
    }


# ----------------------------------------------------------------------------- search strategies (rag/ suggestions)

def _rows_by_distance(metadatas: list[dict[str, Any]], distances: list[float]) -> list[str]:
    """Row keys in order of their best chunk (what `best_chunk_per_row` keeps)."""
    ordered: list[str] = []
    for metadata, _ in sorted(zip(metadatas, distances, strict=True), key=lambda pair: pair[1]):
        if metadata["row_key"] not in ordered:
            ordered.append(str(metadata["row_key"]))
    return ordered


def _exact_rows(collection: Any, vector: list[float], where_batches: list[dict[str, Any]], top_k: int) -> list[str]:
    """Brute-force ranking over every chunk the filter admits (numpy, cosine on unit vectors)."""
    import numpy as np

    metadatas: list[dict[str, Any]] = []
    embeddings: list[Any] = []
    for where in where_batches:
        got = collection.get(where=where, include=["embeddings", "metadatas"])
        metadatas += got["metadatas"]
        embeddings += list(got["embeddings"])
    if not embeddings:
        return []
    distances = 1.0 - np.asarray(embeddings) @ np.asarray(vector)
    return _rows_by_distance(metadatas, distances.tolist())[:top_k]


def _timed(function: Callable[[], tuple[list[str], int]], runs: int) -> dict[str, Any]:
    timings, cpu = [], []
    rows: list[str] = []
    queries = 0
    for _ in range(runs):
        started, cpu_started = time.perf_counter(), time.process_time()
        rows, queries = function()
        timings.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - cpu_started) * 1000)
    return {"median_ms": round(statistics.median(timings), 1), "cpu_median_ms": round(statistics.median(cpu), 1),
            "chroma_queries": queries, "rows": rows}


def search_strategies(rows: int, embed: str, embedders: dict[str, Any], runs: int) -> dict[str, Any]:
    """How the hybrid step could search the SQL-selected rows, measured on the collection.

    The product (rag/answer/retrieval.retrieve) sends `row_key $in` batches of ROW_KEYS_PER_QUERY keys, one
    Chroma query each,
    asking for top_k * CANDIDATES_PER_RESULT chunks with documents. Alternatives: larger batches (Chroma
    refuses lists above ~32,000 keys), and one global query for enough candidates that top_k SQL-selected
    rows survive (N = candidates / share of rows selected, at most 2,000), kept by key in Python. Quality is
    the overlap of each strategy's top_k rows with a brute-force ranking of every chunk of the selected rows.
    The same comparison is made for the vector route's category equality filter."""
    assistant = build_assistant(rows, embed, embedders)
    context = assistant.context
    collection = context.index.collection()
    total_chunks = collection.count()
    total_rows = context.source.count_rows()
    top_k = context.settings.top_k
    wanted = top_k * CANDIDATES_PER_RESULT
    include = ["metadatas", "documents", "distances"]
    real = embedders[REAL_MODEL]
    record: dict[str, Any] = {"runs": runs, "top_k": top_k, "n_results_per_query": wanted, "cases": {}}

    def query(vector: list[float], n: int, where: dict[str, Any] | None) -> tuple[list[dict[str, Any]], list[float]]:
        result = collection.query(query_embeddings=[vector], n_results=n, where=where, include=include)
        return result["metadatas"][0], result["distances"][0]

    def batched(vector: list[float], keys: list[str], size: int) -> Callable[[], tuple[list[str], int]]:
        def run() -> tuple[list[str], int]:
            metadatas: list[dict[str, Any]] = []
            distances: list[float] = []
            batches = range(0, len(keys), size)
            for start in batches:
                found = query(vector, wanted, {"row_key": {"$in": keys[start:start + size]}})
                metadatas += found[0]
                distances += found[1]
            return _rows_by_distance(metadatas, distances)[:top_k], len(batches)
        return run

    def global_then_keep(vector: list[float], admitted: Callable[[dict[str, Any]], bool], share: float
                         ) -> Callable[[], tuple[list[str], int]]:
        n = min(total_chunks, 2000, max(wanted, int(wanted / max(share, 1e-9))))

        def run() -> tuple[list[str], int]:
            metadatas, distances = query(vector, n, None)
            kept = [(m, d) for m, d in zip(metadatas, distances, strict=True) if admitted(m)]
            return _rows_by_distance([m for m, _ in kept], [d for _, d in kept])[:top_k], 1
        return run

    with measured(record):
        for question in STRATEGY_QUESTIONS:
            plan = context.planner.plan(question)
            sql = context.sql_builder.row_keys_sql(plan, context.source.key_columns)
            result = context.database.execute(sql, max_rows=MAX_SELECTED_ROWS)
            keys = [context.source.key_of(dict(zip(result.columns, row, strict=True))) for row in result.rows]
            if not keys:
                continue
            vector = real.embed([plan.topic or question])[0]
            keyset = set(keys)
            exact = _exact_rows(collection, vector, [{"row_key": {"$in": keys[i:i + 5000]}}
                                                     for i in range(0, len(keys), 5000)], top_k)
            strategies: dict[str, Callable[[], tuple[list[str], int]]] = {
                f"$in batches of {ROW_KEYS_PER_QUERY:,} (product)": batched(vector, keys, ROW_KEYS_PER_QUERY)}
            for size in (5_000, 10_000):
                if size < len(keys):
                    strategies[f"$in batches of {size:,}"] = batched(vector, keys, size)
            if len(keys) <= CHROMA_MAX_IN:
                strategies["one $in with all keys"] = batched(vector, keys, len(keys))
            strategies["global top-N, keep SQL-selected rows"] = global_then_keep(
                vector, lambda m, ks=keyset: m["row_key"] in ks, len(keys) / total_rows)
            record["cases"][question] = _case(strategies, exact, runs, {"route": "hybrid", "selected_rows": len(keys)})
        # The vector route's equality pre-filter against a global query kept by category.
        question, category = "Trends in fashion", "fashion"
        count_sql = f"SELECT COUNT(*) FROM {context.source.table} WHERE article_category = '{category}'"
        share = context.source.run_select(count_sql).rows[0][0] / total_rows
        vector = real.embed([context.planner.plan(question).topic or question])[0]
        where = {"article_category": category}
        exact = _exact_rows(collection, vector, [where], top_k)
        strategies = {
            "equality pre-filter (product)": lambda: (_rows_by_distance(*query(vector, wanted, where))[:top_k], 1),
            "global top-N, keep the category": global_then_keep(
                vector, lambda m: m.get("article_category") == category, share)}
        record["cases"][question] = _case(strategies, exact, runs, {"route": "vector", "selected_rows":
                                                                    round(share * total_rows)})
    return record


def _case(strategies: dict[str, Callable[[], tuple[list[str], int]]], exact: list[str], runs: int,
          info: dict[str, Any]) -> dict[str, Any]:
    results = {}
    for label, function in strategies.items():
        measured_ = _timed(function, runs)
        rows = measured_.pop("rows")
        measured_["overlap_with_exact"] = f"{len(set(rows) & set(exact))}/{len(exact)}"
        measured_["found"] = len(rows)
        results[label] = measured_
    return {**info, "strategies": results}


# ----------------------------------------------------------------------------- embedding throughput

def fixed_batch(embedders: dict[str, Any]) -> list[str]:
    """The first THROUGHPUT_TEXTS chunk texts (title + chunk, as indexed) of the sample corpus."""
    settings = Settings(db_url=f"sqlite:///{SAMPLE_DB_PATH}", provider="offline")
    source = TableSource(settings.db_url, settings.table)
    index = VectorIndex(settings, embedders[REAL_MODEL])
    texts: list[str] = []
    for row in source.iter_rows():
        if (row.content or "").strip():
            texts += index.chunks_for(row, source, "x")[2]
        if len(texts) >= THROUGHPUT_TEXTS:
            break
    return texts[:THROUGHPUT_TEXTS]


def embedding_throughput(embedders: dict[str, Any], rounds: int = 2) -> dict[str, Any]:
    """The product's embedder vs the model's own `encode` on the same batch, interleaved, same process."""
    embedder: SentenceTransformerEmbedder = embedders[REAL_MODEL]
    texts = fixed_batch(embedders)
    record: dict[str, Any] = {"texts": len(texts), "batch_size": embedder.batch_size, "rounds": rounds}
    product: list[float] = []
    model_only: list[float] = []
    with measured(record):
        embedder.embed(texts[:8])  # warm-up
        for _ in range(rounds):
            started = time.perf_counter()
            embedder.model.encode(texts, batch_size=embedder.batch_size, normalize_embeddings=True,
                                  convert_to_numpy=True, show_progress_bar=False)
            model_only.append(len(texts) / (time.perf_counter() - started))
            started = time.perf_counter()
            embedder.embed(texts)
            product.append(len(texts) / (time.perf_counter() - started))
        query_model, query_product = [], []
        for _ in range(20):
            started = time.perf_counter()
            embedder.model.encode([FIXED_QUERY], normalize_embeddings=True, convert_to_numpy=True,
                                  show_progress_bar=False)
            query_model.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            embedder.embed([FIXED_QUERY])
            query_product.append((time.perf_counter() - started) * 1000)
    record["query_embed_by_torch_threads"] = query_embed_threads(embedder)
    record.update(
        product_chunks_per_s=round(statistics.mean(product), 2),
        model_chunks_per_s=round(statistics.mean(model_only), 2),
        product_vs_model=round(statistics.mean(product) / statistics.mean(model_only), 3),
        rounds_product=[round(x, 2) for x in product], rounds_model=[round(x, 2) for x in model_only],
        query_embed_median_ms={"product": round(statistics.median(query_product), 2),
                               "model": round(statistics.median(query_model), 2)})
    return record


def query_embed_threads(embedder: SentenceTransformerEmbedder, runs: int = 30) -> dict[str, Any]:
    """One question embedded with torch's default thread count vs one thread (interleaved, restored after).

    Not a product setting: it shows whether intra-op threads help or hurt a single short query on this
    (shared, loaded) machine."""
    import torch

    default = torch.get_num_threads()
    samples: dict[int, dict[str, list[float]]] = {}
    record: dict[str, Any] = {"default_threads": default, "runs_per_round": runs, "rounds": 2}
    try:
        with measured(record):
            for _ in range(2):
                for threads in sorted({default, 1}, reverse=True):
                    torch.set_num_threads(threads)
                    embedder.embed([FIXED_QUERY])
                    for _ in range(runs):
                        started, cpu_started = time.perf_counter(), time.process_time()
                        embedder.embed([FIXED_QUERY])
                        entry = samples.setdefault(threads, {"wall": [], "cpu": []})
                        entry["wall"].append((time.perf_counter() - started) * 1000)
                        entry["cpu"].append((time.process_time() - cpu_started) * 1000)
    finally:
        torch.set_num_threads(default)
    record["threads"] = {str(t): {"wall_median_ms": round(statistics.median(v["wall"]), 1),
                                  "wall_p95_ms": round(percentile(v["wall"], 0.95), 1),
                                  "cpu_median_ms": round(statistics.median(v["cpu"]), 1)} for t, v in samples.items()}
    return record


# ----------------------------------------------------------------------------- cold start

COLD_START_SCRIPT = r"""
import json, sys, time
t_main = time.time()
sys.path.insert(0, sys.argv[1])
from rag.assistant import Assistant
from rag.settings import Settings
t_import = time.time()
assistant = Assistant.build(Settings.from_env(provider="offline"))
t_build = time.time()
import sentence_transformers  # noqa: F401  (torch)
t_torch = time.time()
assistant.providers.embedder.model
t_model = time.time()
turn = assistant.ask("What do we have about children?")
t_first = time.time()
second = assistant.ask("Trends in fashion")
t_second = time.time()
print(json.dumps({"t_main": t_main, "t_import": t_import, "t_build": t_build, "t_torch": t_torch,
                  "t_model": t_model, "t_first": t_first, "t_second": t_second, "route": turn.route,
                  "error": turn.error, "citations": len(turn.citations), "second_route": second.route}))
"""


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAG_", "GOOGLE_API_KEY", "CHROMA_", "STREAMLIT_"))}
    env.update({"ANONYMIZED_TELEMETRY": "False", "PYTHONUNBUFFERED": "1", "TRANSFORMERS_VERBOSITY": "error"}, **extra)
    return env


def cold_start(runs: int) -> dict[str, Any]:
    record: dict[str, Any] = {"corpus": "sample (data/articles.db + data/chroma, real model)", "runs": []}
    with measured(record):
        for _ in range(runs):
            load = loadavg()
            t_spawn = time.time()
            done = subprocess.run([sys.executable, "-c", COLD_START_SCRIPT, str(ROOT)], cwd=ROOT, env=clean_env(),
                                  capture_output=True, text=True, timeout=600)
            t_exit = time.time()
            if done.returncode != 0:
                record["runs"].append({"error": done.stderr[-2000:]})
                continue
            t = json.loads(done.stdout.strip().splitlines()[-1])
            record["runs"].append({
                "python_startup_s": round(t["t_main"] - t_spawn, 2),
                "import_rag_s": round(t["t_import"] - t["t_main"], 2),
                "assistant_build_s": round(t["t_build"] - t["t_import"], 2),
                "import_torch_sentence_transformers_s": round(t["t_torch"] - t["t_build"], 2),
                "model_load_s": round(t["t_model"] - t["t_torch"], 2),
                "first_answer_s": round(t["t_first"] - t["t_model"], 3),
                "second_answer_s": round(t["t_second"] - t["t_first"], 3),
                "process_start_to_first_answer_s": round(t["t_first"] - t_spawn, 2),
                "process_exit_s": round(t_exit - t_spawn, 2), "route": t["route"], "error": t["error"],
                "citations": t["citations"], "loadavg_start": load})
    good = [r for r in record["runs"] if "error" not in r or r["error"] is None]
    if good:
        record["median"] = {k: round(statistics.median(r[k] for r in good), 3) for k in good[0]
                            if k.endswith("_s")}
    return record


# ----------------------------------------------------------------------------- memory at the largest size

def app_index_dir(rows: int, embed: str, embedders: dict[str, Any]) -> tuple[Path, str]:
    """An index directory the unmodified app can open with the real model.

    The app names its collection after the real model's fingerprint; a stand-in collection has another
    name. A copy of the directory gets its collection renamed (and its fingerprint metadata set) to the
    real model's, so the app answers over the same vectors and embeds questions with the real model."""
    if embed == REAL_MODEL:
        return index_dir(rows, embed), "the real-model index itself"
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    source_dir = index_dir(rows, embed)
    target = source_dir.with_name(source_dir.name + "-app")
    stand_in = query_index(rows, embed, embedders)
    real = VectorIndex(settings_for(rows, REAL_MODEL).replace(index_dir=str(target)), embedders[REAL_MODEL],
                       client=object())
    marker = target / "renamed.json"
    if marker.exists() and json.loads(marker.read_text()).get("from") == stand_in.name and \
            json.loads(marker.read_text()).get("built_at") == json.loads(
                source_dir.with_suffix(".build.json").read_text()).get("built_at"):
        return target, f"copy of {source_dir.name} with the collection renamed to {real.name} (reused)"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source_dir, target)
    client = chromadb.PersistentClient(path=str(target), settings=ChromaSettings(anonymized_telemetry=False))
    collection = client.get_collection(stand_in.name)
    metadata = {**(collection.metadata or {}), **{k: str(v) for k, v in real.fingerprint().items()}}
    collection.modify(name=real.name, metadata=metadata)
    marker.write_text(json.dumps({"from": stand_in.name, "to": real.name, "built_at": json.loads(
        source_dir.with_suffix(".build.json").read_text()).get("built_at")}))
    del client
    return target, f"copy of {source_dir.name} with the collection renamed to {real.name}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def app_memory(rows: int, embed: str, embedders: dict[str, Any], timeout_s: float) -> dict[str, Any]:
    """Peak RSS (VmHWM) of `streamlit run app.py` over this size, driven by health checks and chat questions."""
    record: dict[str, Any] = {"rows": rows, "questions": []}
    if not (ROOT / "app.py").exists():
        return {**record, "skipped": "app.py does not exist"}
    with measured(record):
        directory, how = app_index_dir(rows, embed, embedders)
        record["index"] = how
        port = free_port()
        env = clean_env(RAG_DB_URL=settings_for(rows, REAL_MODEL).db_url, RAG_INDEX_DIR=str(directory),
                        RAG_EMBED_MODEL=REAL_MODEL, RAG_PROVIDER="offline")
        log_path = WORK_DIR / f"app-{rows}.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
                 "--server.address", "localhost", "--server.headless", "true", "--browser.gatherUsageStats", "false",
                 "--server.fileWatcherType", "none"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        record["pid"] = process.pid
        url = f"http://localhost:{port}"
        try:
            with RssSampler(process.pid) as rss:
                record["health"] = wait_healthy(url, process, timeout_s)
                rss.mark("healthy")
                record["health_checks"] = [health(url) for _ in range(5)]
                rss.mark("after 5 health checks")
                record["browser"] = drive_browser(url, rss, record["questions"], timeout_s)
                record["vm_hwm_mb"] = round(status_kb(process.pid, "VmHWM") / 1024)
                record["vm_rss_end_mb"] = round(status_kb(process.pid, "VmRSS") / 1024)
            record["sampled_peak_rss_mb"] = round(rss.peak_kb / 1024)
            record["timeline"] = rss.marks
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        record["log_tail"] = log_path.read_text(errors="replace")[-1500:]
    return record


def health(url: str) -> float | None:
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as response:
            return round((time.perf_counter() - started) * 1000, 1) if response.status == 200 else None
    except OSError:
        return None


def wait_healthy(url: str, process: subprocess.Popen[bytes], timeout_s: float) -> dict[str, Any]:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout_s:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited with {process.returncode}")
        if health(url) is not None:
            return {"healthy_after_s": round(time.perf_counter() - started, 1)}
        time.sleep(0.5)
    raise RuntimeError(f"streamlit was not healthy after {timeout_s} s")


def drive_browser(url: str, rss: RssSampler, questions: list[dict[str, Any]], timeout_s: float) -> str:
    """Type APP_QUESTIONS into the chat with Playwright and Debian's chromium (never downloaded)."""
    import re

    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        return "not driven: /usr/bin/chromium is missing"
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        return "not driven: playwright is not installed"
    timeout_ms = int(timeout_s * 1000)
    profile = WORK_DIR / "chromium-profile"
    shutil.rmtree(profile, ignore_errors=True)
    with sync_playwright() as p:
        browser = p.chromium.launch_persistent_context(
            str(profile), executable_path=str(chromium), headless=False,
            args=["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
            viewport={"width": 1600, "height": 1300})
        page = browser.pages[0] if browser.pages else browser.new_page()
        try:
            started = time.perf_counter()
            page.goto(url, wait_until="domcontentloaded")
            box = page.get_by_test_id("stChatInputTextArea")
            expect(box).to_be_visible(timeout=timeout_ms)  # the page rendered: the assistant was built
            rss.mark("chat page rendered (assistant built)")
            questions.append({"event": "page load", "seconds": round(time.perf_counter() - started, 1)})
            turn = page.get_by_test_id("stSidebar").get_by_role("combobox", name="Turn")
            for number, question in enumerate(APP_QUESTIONS, start=1):
                started = time.perf_counter()
                box.fill(question)
                box.press("Enter")
                expect(turn).to_have_value(re.compile(rf"^#{number} · "), timeout=timeout_ms)
                seconds = round(time.perf_counter() - started, 1)
                rss.mark(f"answered: {question}")
                questions.append({"question": question, "seconds": seconds, "turn": turn.input_value()})
        except Exception as error:  # noqa: BLE001 - report what was reached rather than failing the benchmark
            return f"partly driven: {type(error).__name__}: {str(error)[:300]}"
        finally:
            browser.close()
    return "driven: questions typed into the chat in headless chromium"


ASSISTANT_MEMORY_MODE = "--assistant-memory-child"


def assistant_memory_child(rows: int, embed: str) -> int:
    """Child process: the same Assistant as the query benchmark over this size; prints VmHWM as JSON."""
    embedders = {REAL_MODEL: SentenceTransformerEmbedder(REAL_MODEL), STAND_IN: HashingEmbedder()}
    marks: dict[str, int] = {"after_imports_mb": round(status_kb("self", "VmHWM") / 1024)}
    assistant = build_assistant(rows, embed, embedders)
    embedders[REAL_MODEL].embed(["warm-up"])
    marks["after_build_and_model_mb"] = round(status_kb("self", "VmHWM") / 1024)
    errors = 0
    for questions in QUESTIONS.values():
        for question in questions:
            errors += bool(assistant.ask(question).error)
    marks["vm_hwm_mb"] = round(status_kb("self", "VmHWM") / 1024)
    marks["vm_rss_end_mb"] = round(status_kb("self", "VmRSS") / 1024)
    print(json.dumps({**marks, "questions": sum(len(q) for q in QUESTIONS.values()), "errors": errors}))
    return 0


def assistant_memory(rows: int, embed: str) -> dict[str, Any]:
    record: dict[str, Any] = {"rows": rows}
    with measured(record):
        done = subprocess.run([sys.executable, str(Path(__file__).resolve()), ASSISTANT_MEMORY_MODE, str(rows), embed],
                              cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        return {**record, "error": done.stderr[-2000:]}
    return {**record, **json.loads(done.stdout.strip().splitlines()[-1])}


# ----------------------------------------------------------------------------- results

def load_results() -> dict[str, Any]:
    path = RESULTS_DIR / "query_scale.json"
    if path.exists():
        with contextlib.suppress(ValueError):
            return json.loads(path.read_text())
    return {"sizes": {}}


def write_results(data: dict[str, Any]) -> None:
    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR / "query_scale.json").write_text(json.dumps(data, indent=2, default=str))
    (RESULTS_DIR / "query_scale.md").write_text(render_markdown(data))


def _load(record: dict[str, Any]) -> str:
    start, end = record.get("loadavg_start"), record.get("loadavg_end")
    return f"{start[0]:.1f} → {end[0]:.1f}" if start and end else "?"


def render_markdown(data: dict[str, Any]) -> str:
    machine = data.get("machine", {})
    sizes = sorted(data["sizes"].values(), key=lambda s: s["rows"])
    lines = ["# Query benchmarks at scale", "",
             f"Machine: {machine.get('cpu_count')} cores ({machine.get('cpu_model')}), {machine.get('memory_mb')} MB "
             f"RAM; Python {machine.get('python')}, torch {machine.get('torch')} ({machine.get('torch_threads')} "
             f"threads), chromadb {machine.get('chromadb')}. Other work ran on the machine during these runs: "
             "load averages (1 min) are given at the start → end of every measurement. Generated by "
             "`bench/query_scale.py`; raw figures, every turn and per-question medians in `query_scale.json`.", ""]
    stand_in = [f"{s['rows']:,}" for s in sizes if s["index"].get("stand_in_embedding")]
    real = [f"{s['rows']:,}" for s in sizes if not s["index"].get("stand_in_embedding")]
    lines += [f"Index embeddings: real all-MiniLM-L6-v2 at {', '.join(real) or 'no size'}; deterministic stand-in "
              f"`HashingEmbedder` (384 dimensions) at {', '.join(stand_in) or 'no size'}. Questions are always "
              "embedded with the real model (checked on every vector and hybrid turn's `embed.query` span).", ""]
    lines += ["## Index build (once per size)", "",
              "| articles | chunks | embedding | build s | in embedder s | chunks/s | peak RSS MB "
              "| load start → end | built |",
              "|---:|---:|---|---:|---:|---:|---:|---|---|"]
    for s in sizes:
        b = s["index"]
        kind = "stand-in" if b.get("stand_in_embedding") else "real"
        lines.append(f"| {s['rows']:,} | {b.get('chunks', 0):,} | {kind} | {b.get('build_s')} | {b.get('embed_s')} "
                     f"| {b.get('chunks_per_s')} | "
                     f"{b.get('peak_rss_mb_during_build')} | {_load(b)} | {b.get('built_at')} |")
    lines += ["", "## Query latency per route (offline provider, trace total)", "",
              f"{sizes[0]['queries']['questions_per_route']['sql'] if sizes else 10} questions per route × "
              f"{sizes[0]['queries']['repeats'] if sizes else 3} repeats after one warm-up question per route; "
              "grouped by the route actually taken. Wall = time around `Assistant.ask`; CPU = this process's CPU "
              "time over the same call (all threads; less sensitive to the machine's load than wall time). A turn "
              "that failed (e.g. the 5-s SQL time limit) has no route; it is counted under the route it was sent "
              "to, its time included.", "",
              "| articles | route | n | p50 ms | p95 ms | max ms | wall p50 ms | wall p95 ms | CPU p50 ms | errors "
              "| load start → end |",
              "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for s in sizes:
        q = s["queries"]
        for route, r in q["per_route"].items():
            t, w, c = r["trace_total"], r["wall"], r.get("cpu", {})
            lines.append(f"| {s['rows']:,} | {route} | {t.get('n', 0)} | {t.get('p50_ms')} | {t.get('p95_ms')} | "
                         f"{t.get('max_ms')} | {w.get('p50_ms')} | {w.get('p95_ms')} | {c.get('p50_ms')} | "
                         f"{r['errors']} | {_load(q)} |")
    lines.append("")
    for s in sizes:
        q = s["queries"]
        wrong = [m for m in q.get("misrouted", []) if not q["per_question"][m]["errors"]]
        failed = {m: e["errors"] for m, e in q["per_question"].items() if e["errors"]}
        embedding = q.get("query_embedding", {})
        lines.append(f"- {s['rows']:,}: misrouted {', '.join(wrong) or 'none'}; failed "
                     + ("; ".join(f"'{m}' ({', '.join(e)[:90]})" for m, e in failed.items()) or "none")
                     + f"; query embedding in every retrieval turn's `embed.query` span: "
                       f"{', '.join(embedding.get('models_seen_in_embed_query_spans', []))} "
                       f"({embedding.get('retrieval_turns')} turns); assistant built in "
                       f"{q.get('assistant_build_s')} s.")
    lines += ["", "Median per step (ms; `route+answer` contains the steps under it):", ""]
    steps = sorted({step for s in sizes for r in s["queries"]["median_step_ms"].values() for step in r})
    lines += ["| articles | route | " + " | ".join(steps) + " |", "|---:|---|" + "---:|" * len(steps)]
    for s in sizes:
        for route, r in s["queries"]["median_step_ms"].items():
            lines.append(f"| {s['rows']:,} | {route} | " + " | ".join(str(r.get(step, "")) for step in steps) + " |")
    slow = _slowest_questions(sizes)
    if slow:
        lines += ["", "Slowest questions at the largest size (median of the repeats):", "",
                  "| question | route | median ms | SQL-selected rows | Chroma queries | error |",
                  "|---|---|---:|---:|---:|---|"]
        lines += slow
    lines += ["", "## Chroma filter latency (direct `collection.query`, fixed real-model query vector)", "",
              f"n_results=5, median wall ms of {FILTER_RUNS} runs after one warm-up (median CPU ms of this process "
              "in brackets); last row: one batch as the hybrid route "
              "sends it (500 keys, 50 candidates, documents included). docs/DESIGN.md's earlier measurement at 100k: "
              "about 3 ms unfiltered, 80 ms equality, 240 ms numeric range.", ""]
    cases = list(sizes[0]["filters"]["cases"]) if sizes else []
    lines += ["| filter | " + " | ".join(f"{s['rows']:,} ms" for s in sizes) + " |",
              "|---|" + "---:|" * len(sizes)]
    for case in cases:
        cells = [s["filters"]["cases"].get(case, {}) for s in sizes]
        lines.append(f"| {case} | " + " | ".join(f"{c.get('median_ms', '')} ({c.get('cpu_median_ms', '')})"
                                                 for c in cells) + " |")
    lines.append("| load start → end | " + " | ".join(_load(s["filters"]) for s in sizes) + " |")
    lines += _strategies_markdown(sizes)
    lines += _run_level_markdown(data)
    return "\n".join(lines) + "\n"


def _strategies_markdown(sizes: list[dict[str, Any]]) -> list[str]:
    measured_sizes = [s for s in sizes if s.get("strategies")]
    if not measured_sizes:
        return []
    first = measured_sizes[0]["strategies"]
    lines = ["", "## How the SQL-selected rows are searched (measured alternatives to rag/engines.retrieve)", "",
             f"Same real-model query vector and SQL-selected row keys as the hybrid route; each strategy asks Chroma "
             f"for {first['n_results_per_query']} candidates per query and keeps the best chunk per row; median of "
             f"{first['runs']} runs. Overlap = shared rows between the strategy's top {first['top_k']} and a "
             "brute-force ranking of every chunk the filter admits (ties between identical synthetic chunks can "
             f"cost one). Chroma refuses `$in` lists above about {CHROMA_MAX_IN:,} keys (\"too many SQL variables\" at "
             "33,000). Last case: the vector route's category pre-filter against a global query kept by category. "
             "Overlap is a retrieval-quality signal only where the index holds real-model vectors; over a stand-in "
             "index the real-model query and the hashing vectors are unrelated, distances are nearly uniform and the "
             "overlap only shows whether a strategy is exact or approximate. Measured after the queries of each "
             "size, not during them (see the load column).",
             "", "| articles | question | rows | strategy | Chroma queries | median ms | CPU ms | overlap | load |",
             "|---:|---|---:|---|---:|---:|---:|---|---|"]
    for size in measured_sizes:
        for question, case in size["strategies"]["cases"].items():
            for label, r in case["strategies"].items():
                lines.append(f"| {size['rows']:,} | {question} | {case['selected_rows']:,} | {label} | "
                             f"{r['chroma_queries']} | {r['median_ms']} | {r['cpu_median_ms']} | "
                             f"{r['overlap_with_exact']} | {_load(size['strategies'])} |")
    return lines


def _slowest_questions(sizes: list[dict[str, Any]]) -> list[str]:
    if not sizes:
        return []
    largest = sizes[-1]["queries"]["per_question"]
    ranked = sorted(largest.items(), key=lambda item: item[1]["median_ms"], reverse=True)[:8]
    lines = []
    for question, e in ranked:
        keys = "" if e["hybrid_row_keys"] is None else f"{e['hybrid_row_keys']:,}"
        lines.append(f"| {question} | {e['route']} | {e['median_ms']} | {keys} | {e['chroma_batches'] or ''} | "
                     f"{'; '.join(e['errors'])[:120]} |")
    return lines


def _run_level_markdown(data: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    cold = data.get("cold_start")
    if cold and cold.get("median"):
        m = cold["median"]
        lines += ["", "## Cold start (sample corpus, fresh process to first answer)", "",
                  f"Median of {len(cold['runs'])} runs of a fresh `python -c` process: build the assistant, load the "
                  "model, answer a semantic question. Load " + _load(cold) + ".", "",
                  "| phase | seconds |", "|---|---:|"]
        labels = {"python_startup_s": "interpreter start",
                  "import_rag_s": "import rag (LlamaIndex, Chroma, SQLAlchemy)",
                  "assistant_build_s": "Assistant.build (table profile, engines)",
                  "import_torch_sentence_transformers_s": "import torch + sentence-transformers",
                  "model_load_s": "model load", "first_answer_s": "first answer",
                  "process_start_to_first_answer_s": "**process start → first answer**",
                  "second_answer_s": "second answer (warm)"}
        lines += [f"| {label} | {m.get(key)} |" for key, label in labels.items() if key in m]
    throughput = data.get("embedding_throughput")
    if throughput:
        t = throughput
        lines += ["", "## Embedding throughput in this run (real model)", "",
                  f"Fixed batch of {t['texts']} sample chunk texts (title + chunk, ≤200 word pieces), batch size "
                  f"{t['batch_size']}, {t['rounds']} interleaved rounds; load {_load(t)}.", "",
                  "| path | chunks/s | one query ms (median of 20) |", "|---|---:|---:|",
                  f"| product embedder (`SentenceTransformerEmbedder.embed`) | {t['product_chunks_per_s']} | "
                  f"{t['query_embed_median_ms']['product']} |",
                  f"| model alone (`SentenceTransformer.encode`) | {t['model_chunks_per_s']} | "
                  f"{t['query_embed_median_ms']['model']} |", "",
                  f"Product / model = {t['product_vs_model']}. docs/DESIGN.md's figure for an unloaded machine is "
                  "about 25 chunks/s and 16 ms per question; the difference is the load from other work."]
        threads = t.get("query_embed_by_torch_threads")
        if threads:
            lines += ["", "One question embedded with torch's default intra-op threads vs one thread (2 interleaved "
                          f"rounds of {threads['runs_per_round']}; load {_load(threads)}):", "",
                      "| torch threads | wall median ms | wall p95 ms | CPU median ms |", "|---:|---:|---:|---:|"]
            lines += [f"| {n} | {v['wall_median_ms']} | {v['wall_p95_ms']} | {v['cpu_median_ms']} |"
                      for n, v in threads["threads"].items()]
    memory = data.get("memory") or {}
    app = memory.get("app")
    python_proc = memory.get("assistant_process")
    if app or python_proc:
        rows = (app or python_proc or {}).get("rows", 0)
        lines += ["", f"## Peak memory at {rows:,} articles", ""]
        if app and "vm_hwm_mb" in app:
            lines += [f"`streamlit run app.py` (offline provider, real query model) over the {rows:,}-article "
                      f"database and index ({app.get('index')}): **VmHWM {app['vm_hwm_mb']} MB** (sampled peak "
                      f"{app.get('sampled_peak_rss_mb')} MB); {app.get('browser')}; load {_load(app)}.", "",
                      "| event | at s | RSS MB | peak so far MB |", "|---|---:|---:|---:|"]
            lines += [f"| {m['event']} | {m['at_s']} | {m['rss_mb']} | {m['peak_so_far_mb']} |"
                      for m in app.get("timeline", [])]
            timed = [q for q in app.get("questions", []) if "question" in q]
            if timed:
                lines += ["", "Answer time in the browser (question typed → turn shown): " + "; ".join(
                    f"{q['question']} {q['seconds']} s" for q in timed) + "."]
        elif app:
            lines.append(f"App not measured: {app.get('skipped') or app.get('error')}.")
        if python_proc and "vm_hwm_mb" in python_proc:
            lines += ["", f"A plain Python process with the same Assistant over the same index, asking all "
                          f"{python_proc['questions']} questions once: VmHWM {python_proc['vm_hwm_mb']} MB "
                          f"(after build + model load {python_proc['after_build_and_model_mb']} MB); load "
                          f"{_load(python_proc)}."]
    return lines


# ----------------------------------------------------------------------------- main

def run_size(rows: int, args: argparse.Namespace, embedders: dict[str, Any], data: dict[str, Any]) -> None:
    embed = embed_choice(rows, args.real_max_rows)
    print(f"== {rows:,} articles (index embedding: {embed})", flush=True)
    result: dict[str, Any] = data["sizes"].get(str(rows), {})  # parts not run this time are kept
    result.update(rows=rows, db=ensure_db(rows))
    result["index"] = ensure_index(rows, embed, embedders, args.rebuild)
    print(f"  index: {result['index'].get('chunks')} chunks, build {result['index'].get('build_s')} s"
          f"{' (reused)' if result['index'].get('reused') else ''}", flush=True)
    if "filters" in args.parts:
        result["filters"] = filter_latency(rows, embed, embedders, FILTER_RUNS)
        print("  filters: " + ", ".join(f"{k.split(' (')[0]} {v['median_ms']} ms"
                                        for k, v in result["filters"]["cases"].items()), flush=True)
    if "queries" in args.parts:
        result["queries"] = query_latency(rows, embed, embedders, args.repeats)
        for route, r in result["queries"]["per_route"].items():
            print(f"  {route}: {r['trace_total']}", flush=True)
    if "strategies" in args.parts:
        result["strategies"] = search_strategies(rows, embed, embedders, STRATEGY_RUNS)
        for question, case in result["strategies"]["cases"].items():
            print(f"  {question}: " + ", ".join(f"{k} {v['median_ms']} ms {v['overlap_with_exact']}"
                                               for k, v in case["strategies"].items()), flush=True)
    result["measured_at"] = datetime.now().isoformat(timespec="seconds")
    data["sizes"][str(rows)] = result
    write_results(data)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == ASSISTANT_MEMORY_MODE:
        return assistant_memory_child(int(argv[1]), argv[2])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES))
    parser.add_argument("--quick", action="store_true", help="1,000 articles only")
    parser.add_argument("--real-max-rows", type=int, default=1_000,
                        help="largest size embedded with the real model; larger sizes use the stand-in")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument("--rebuild", action="store_true", help="rebuild indexes even when a build is recorded")
    parser.add_argument("--memory-size", type=int, default=None,
                        help="size for the app/process memory measurement (default: the largest size run)")
    parser.add_argument("--skip", nargs="*", default=[], choices=["cold", "throughput", "memory"],
                        help="run-level measurements to skip")
    parser.add_argument("--parts", nargs="+", default=list(PARTS), choices=PARTS,
                        help="per-size measurements to run (others keep their recorded results)")
    parser.add_argument("--app-timeout", type=float, default=900.0)
    parser.add_argument("--render-only", action="store_true",
                        help="re-analyse the recorded turns and rewrite the Markdown, measuring nothing")
    args = parser.parse_args(argv)
    if args.render_only:
        data = load_results()
        for size in data["sizes"].values():
            if "queries" in size:
                size["queries"].update(analyse_turns(size["queries"]["turns"]))
        write_results(data)
        print((RESULTS_DIR / "query_scale.md").read_text())
        return 0
    sizes = [1_000] if args.quick else sorted(set(args.sizes))
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    data = load_results()
    data["machine"] = machine_info()
    data.pop("run", None)
    run = {"started_at": datetime.now().isoformat(timespec="seconds"), "sizes": sizes, "parts": args.parts,
           "skipped": args.skip, "real_max_rows": args.real_max_rows, "loadavg_start": loadavg()}
    data.setdefault("runs", []).append(run)
    embedders: dict[str, Any] = {REAL_MODEL: SentenceTransformerEmbedder(REAL_MODEL), STAND_IN: HashingEmbedder()}
    if "throughput" not in args.skip:
        data["embedding_throughput"] = embedding_throughput(embedders)
        print(f"embedding throughput: {data['embedding_throughput']}", flush=True)
    if "cold" not in args.skip:
        data["cold_start"] = cold_start(args.cold_runs)
        print(f"cold start: {data['cold_start'].get('median')}", flush=True)
    write_results(data)
    for rows in sizes:
        run_size(rows, args, embedders, data)
    if "memory" not in args.skip:
        rows = args.memory_size or max(sizes)
        embed = embed_choice(rows, args.real_max_rows)
        data["memory"] = {"assistant_process": assistant_memory(rows, embed)}
        print(f"assistant process memory: {data['memory']['assistant_process']}", flush=True)
        write_results(data)
        try:
            data["memory"]["app"] = app_memory(rows, embed, embedders, args.app_timeout)
        except Exception as error:  # noqa: BLE001 - the app could not be driven: say so, keep the rest
            data["memory"]["app"] = {"rows": rows, "error": f"{type(error).__name__}: {error}"}
        print(f"app memory: {({k: v for k, v in data['memory']['app'].items() if k != 'log_tail'})}", flush=True)
    run.update(finished_at=datetime.now().isoformat(timespec="seconds"), loadavg_end=loadavg(),
               bench_process_vm_hwm_mb=round(status_kb("self", "VmHWM") / 1024))
    write_results(data)
    print((RESULTS_DIR / "query_scale.md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
