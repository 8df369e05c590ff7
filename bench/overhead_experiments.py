"""Micro-benchmarks behind the ingestion-overhead suggestions (nothing in rag/ is changed).

Each experiment times the current way and the proposed way on the same inputs, alternating the two
(A B A B ...) so that load from other processes hits both alike, and reports medians and the ratio.

  tokenize   chunking's token counting: per-row tokenizer calls (today) vs one call per write batch,
             and the transformers wrapper vs the Rust `tokenizers` backend directly
  chunking   chunk_text for every row (today) vs a batched chunker that counts all rows' sentences at once
  double     the model's own tokenisation inside encode (the ceiling of "avoid double tokenisation")
  upsert     Chroma upsert cost per chunk at batch sizes 128..5000, and delete-by-row_key before writing
             rows that are new (a fresh build) vs skipping that delete
  threads    torch.set_num_threads 1 vs 2 (vs 4) and embed call size (134 vs 512 texts per encode call)
  batchsize  encode batch_size 64 (today) vs 32, 16, 8 on the same chunk texts
  resync     the no-change re-sync's parts: manifest read, SQL read, content hash (current vs cheaper)

Usage: .venv/bin/python -m bench.overhead_experiments [names...] [--rows 2000] [--quick]
Writes bench/results/overhead_experiments.json (merged by experiment name) and .md, and prints the figures.
`--quick`: 200 rows, 32 texts, one repeat, 1,000-row re-sync index; results in bench/results/quick/.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench.common import WORK_DIR, git_state, load_results, loadavg, machine_info, now, write_results
from bench.synthetic import build_synthetic_db
from rag.data.chunking import TextChunk, _cut_to_fit, _overlap_tail, chunk_text, split_sentences
from rag.data.embeddings import SentenceTransformerEmbedder
from rag.data.index import VectorIndex
from rag.data.source import SourceRow, TableSource
from rag.settings import Settings

WORK = WORK_DIR
CHUNK_TOKENS, OVERLAP = 200, 40
RESYNC_ROWS, QUICK_RESYNC_ROWS = 10_000, 1_000


def alternate(variants: dict[str, Callable[[], Any]], repeats: int) -> dict[str, Any]:
    """Run each variant `repeats` times, interleaved; medians of wall and CPU seconds, ratios to the first.

    CPU = this process's CPU time (all threads), which other processes' load inflates far less than wall
    time. A variant returns None, or (wall, cpu) seconds of its own timed core to exclude its setup."""
    wall: dict[str, list[float]] = {name: [] for name in variants}
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(repeats):
        for name, function in variants.items():
            started, cpu_started = time.perf_counter(), time.process_time()
            value = function()
            elapsed, cpu_elapsed = time.perf_counter() - started, time.process_time() - cpu_started
            if isinstance(value, tuple):
                elapsed, cpu_elapsed = value
            wall[name].append(elapsed)
            cpu[name].append(cpu_elapsed)
    first = next(iter(variants))
    base_wall, base_cpu = statistics.median(wall[first]), statistics.median(cpu[first])
    return {name: {"median_s": round(statistics.median(wall[name]), 4), "min_s": round(min(wall[name]), 4),
                   "median_cpu_s": round(statistics.median(cpu[name]), 4), "runs": repeats,
                   "vs_first": round(statistics.median(wall[name]) / base_wall, 3),
                   "cpu_vs_first": round(statistics.median(cpu[name]) / base_cpu, 3) if base_cpu else None}
            for name in variants}


# ----------------------------------------------------------------------------- inputs

def synthetic_rows(rows: int) -> tuple[TableSource, list[SourceRow]]:
    db = WORK / f"synthetic-{rows}.db"
    if not db.exists():
        build_synthetic_db(db, rows=rows)
    source = TableSource(f"sqlite:///{db}", "articles")
    return source, list(source.iter_rows())


def sample_rows() -> tuple[TableSource, list[SourceRow]]:
    from rag.data.sample_data import build_sample_db
    from rag.settings import SAMPLE_JSONL_PATH

    db = WORK / "sample-articles.db"
    if not db.exists():
        build_sample_db(SAMPLE_JSONL_PATH, db)
    source = TableSource(f"sqlite:///{db}", "articles")
    return source, list(source.iter_rows())


# ----------------------------------------------------------------------------- batched chunker (proposal)

def chunk_rows_batched(texts: Sequence[str], count_tokens: Callable[[Sequence[str]], list[int]]
                       ) -> list[list[TextChunk]]:
    """The same chunks as `chunk_text` for each text, with one tokenizer call for all texts' sentences."""
    sentences = [split_sentences(text) for text in texts]
    flat = [s for group in sentences for s in group]
    counts = count_tokens(flat)
    result: list[list[TextChunk]] = []
    position = 0
    for group in sentences:
        pieces: list[tuple[str, int]] = []
        for sentence in group:
            pieces.extend(_cut_to_fit(sentence, counts[position], CHUNK_TOKENS, count_tokens))
            position += 1
        result.append(_windows(pieces))
    return result


def _windows(pieces: list[tuple[str, int]]) -> list[TextChunk]:
    chunks: list[TextChunk] = []
    window: list[tuple[str, int]] = []
    size = 0
    for sentence, tokens in pieces:
        if window and size + tokens > CHUNK_TOKENS:
            chunks.append(TextChunk(len(chunks), " ".join(s for s, _ in window), size))
            window, size = _overlap_tail(window, OVERLAP, CHUNK_TOKENS - tokens)
        window.append((sentence, tokens))
        size += tokens
    if window:
        chunks.append(TextChunk(len(chunks), " ".join(s for s, _ in window), size))
    return chunks


def backend_counter(embedder: SentenceTransformerEmbedder) -> Callable[[Sequence[str]], list[int]]:
    """Token counts from the Rust tokenizer directly, skipping the transformers wrapper."""
    backend = embedder.model.tokenizer.backend_tokenizer

    def count(texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        return [len(e.ids) for e in backend.encode_batch(list(texts), add_special_tokens=False)]
    return count


# ----------------------------------------------------------------------------- experiments

def exp_tokenize(embedder: SentenceTransformerEmbedder, rows: list[SourceRow], repeats: int) -> dict[str, Any]:
    per_row = [split_sentences(r.content or "") for r in rows]
    flat = [s for group in per_row for s in group]
    backend = backend_counter(embedder)
    assert backend(flat) == embedder.count_tokens(flat), "backend counts differ from the wrapper's"
    batch = 128  # rows per _write today (pending estimate of 2 per short row, flushed at 256)

    def wrapper_per_row() -> None:
        for group in per_row:
            embedder.count_tokens(group)

    def wrapper_per_write_batch() -> None:
        for start in range(0, len(per_row), batch):
            embedder.count_tokens([s for g in per_row[start:start + batch] for s in g])

    def backend_per_row() -> None:
        for group in per_row:
            backend(group)

    def backend_per_write_batch() -> None:
        for start in range(0, len(per_row), batch):
            backend([s for g in per_row[start:start + batch] for s in g])

    timings = alternate({"wrapper, one call per row (today)": wrapper_per_row,
                         "wrapper, one call per 128 rows": wrapper_per_write_batch,
                         "tokenizers backend, one call per row": backend_per_row,
                         "tokenizers backend, one call per 128 rows": backend_per_write_batch}, repeats)
    return {"rows": len(rows), "sentences": len(flat), "timings": timings,
            "per_row_ms": {k: round(v["median_s"] / len(rows) * 1000, 3) for k, v in timings.items()},
            "per_row_cpu_ms": {k: round(v["median_cpu_s"] / len(rows) * 1000, 3) for k, v in timings.items()}}


def exp_chunking(embedder: SentenceTransformerEmbedder, rows: list[SourceRow], repeats: int) -> dict[str, Any]:
    texts = [r.content or "" for r in rows]
    backend = backend_counter(embedder)
    today = [chunk_text(t, max_tokens=CHUNK_TOKENS, overlap=OVERLAP, count_tokens=embedder.count_tokens)[0]
             for t in texts]
    for counter in (embedder.count_tokens, backend):
        proposed = [c for start in range(0, len(texts), 128)
                    for c in chunk_rows_batched(texts[start:start + 128], counter)]
        assert proposed == today, "batched chunker must give identical chunks"

    def current() -> None:
        for text in texts:
            chunk_text(text, max_tokens=CHUNK_TOKENS, overlap=OVERLAP, count_tokens=embedder.count_tokens)

    def batched(counter: Callable[[Sequence[str]], list[int]]) -> Callable[[], None]:
        def run() -> None:
            for start in range(0, len(texts), 128):
                chunk_rows_batched(texts[start:start + 128], counter)
        return run

    timings = alternate({"chunk_text per row (today)": current,
                         "batched per 128 rows, wrapper": batched(embedder.count_tokens),
                         "batched per 128 rows, tokenizers backend": batched(backend)}, repeats)
    return {"rows": len(rows), "chunks": sum(len(c) for c in today), "identical_chunks": True, "timings": timings,
            "per_row_ms": {k: round(v["median_s"] / len(rows) * 1000, 3) for k, v in timings.items()},
            "per_row_cpu_ms": {k: round(v["median_cpu_s"] / len(rows) * 1000, 3) for k, v in timings.items()}}


def embed_texts(index: VectorIndex, source: TableSource, rows: list[SourceRow], limit: int) -> list[str]:
    texts: list[str] = []
    for row in rows:
        texts += index.chunks_for(row, source, "x")[2]
        if len(texts) >= limit:
            break
    return texts[:limit]


def exp_double(embedder: SentenceTransformerEmbedder, texts: list[str], repeats: int) -> dict[str, Any]:
    model = embedder.model

    def tokenize_only() -> None:
        for start in range(0, len(texts), embedder.batch_size):
            model.tokenize(texts[start:start + embedder.batch_size])

    def encode() -> None:
        model.encode(texts, batch_size=embedder.batch_size, normalize_embeddings=True, convert_to_numpy=True,
                     show_progress_bar=False)

    timings = alternate({"encode (tokenise + model)": encode, "model.tokenize only": tokenize_only}, repeats)
    return {"texts": len(texts), "timings": timings,
            "tokenize_share_of_encode": timings["model.tokenize only"]["vs_first"]}


def _fake_chunks(count: int, seed: int = 1) -> tuple[list[str], list[str], list[list[float]], list[dict[str, Any]]]:
    rng = random.Random(seed)
    ids, docs, vectors, metas = [], [], [], []
    for i in range(count):
        vector = [rng.gauss(0, 1) for _ in range(384)]
        norm = sum(v * v for v in vector) ** 0.5
        ids.append(f"{hashlib.sha1(str(i).encode()).hexdigest()[:20]}:0")
        docs.append(" ".join(rng.choice(("alpha", "harbour", "council", "season", "fabric")) for _ in range(140)))
        vectors.append([v / norm for v in vector])
        metas.append({"url": f"https://synthetic.example/{i}", "title": f"Title {i}", "authors": "A; B",
                      "published_date": "2021-03-15 03:44:45", "article_category": "business", "word_count": 130,
                      "date_ymd": 20210315, "year": 2021, "month": 3, "author_0": "A", "author_1": "B",
                      "row_key": f"https://synthetic.example/{i}", "content_hash": "0" * 32, "chunk": 0,
                      "n_chunks": 1})
    return ids, docs, vectors, metas


def _timed_build(ids: list[str], docs: list[str], vectors: Any, metas: list[dict[str, Any]], *, batch: int,
                 with_documents: bool = True, delete_first: bool = False, as_numpy: bool = False,
                 hnsw: dict[str, Any] | None = None) -> tuple[float, float]:
    """(wall, CPU) seconds to write every record into a fresh persistent collection, `batch` per upsert."""
    import chromadb
    import numpy as np
    from chromadb.config import Settings as ChromaSettings

    path = tempfile.mkdtemp(dir=WORK, prefix="upsert-")
    try:
        client = chromadb.PersistentClient(path=path, settings=ChromaSettings(anonymized_telemetry=False))
        collection = client.create_collection("bench-upsert", configuration={"hnsw": {"space": "cosine",
                                                                                       **(hnsw or {})}})
        array = np.asarray(vectors, dtype=np.float32)
        started, cpu = time.perf_counter(), time.process_time()
        for s in range(0, len(ids), batch):
            if delete_first:
                collection.delete(where={"row_key": {"$in": [m["row_key"] for m in metas[s:s + batch]]}})
            embeddings = array[s:s + batch] if as_numpy else array[s:s + batch].tolist()
            collection.upsert(ids=ids[s:s + batch], embeddings=embeddings, metadatas=metas[s:s + batch],
                              documents=docs[s:s + batch] if with_documents else None)
        return time.perf_counter() - started, time.process_time() - cpu
    finally:
        shutil.rmtree(path, ignore_errors=True)


def exp_upsert(total: int, repeats: int) -> dict[str, Any]:
    """Chroma write cost per chunk (fresh collection, realistic metadata and ~900-character documents)."""
    ids, docs, vectors, metas = _fake_chunks(total)

    def variant(**kwargs: Any) -> Callable[[], tuple[float, float]]:
        return lambda: _timed_build(ids, docs, vectors, metas, **kwargs)

    timings = alternate({
        "batches of 128, delete by row_key first (today: ~130-chunk writes)": variant(batch=128, delete_first=True),
        "batches of 128, no delete for new rows": variant(batch=128),
        "batches of 512": variant(batch=512),
        "batches of 2000": variant(batch=2000),
        "batches of 5000": variant(batch=5000),
        "batches of 128, numpy embeddings (no .tolist())": variant(batch=128, as_numpy=True),
        "batches of 128, no documents (FTS) stored": variant(batch=128, with_documents=False),
        "batches of 128, hnsw batch_size 1000 / sync_threshold 10000":
            variant(batch=128, hnsw={"batch_size": 1000, "sync_threshold": 10000}),
    }, repeats)
    return {"chunks": total, "timings": {k: {**v, "ms_per_chunk": round(v["median_s"] / total * 1000, 3),
                                             "cpu_ms_per_chunk": round(v["median_cpu_s"] / total * 1000, 3)}
                                         for k, v in timings.items()}}


def exp_threads(embedder: SentenceTransformerEmbedder, texts: list[str], repeats: int) -> dict[str, Any]:
    import torch

    model = embedder.model
    original = torch.get_num_threads()

    def encode_with(threads: int, call_size: int) -> Callable[[], None]:
        def run() -> None:
            torch.set_num_threads(threads)
            for start in range(0, len(texts), call_size):
                model.encode(texts[start:start + call_size], batch_size=embedder.batch_size,
                             normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
        return run

    try:
        threads = alternate({f"{original} threads, calls of 134 (today)": encode_with(original, 134),
                             "1 thread, calls of 134": encode_with(1, 134),
                             f"{original} threads, calls of 512": encode_with(original, 512),
                             f"{2 * original} threads, calls of 134": encode_with(2 * original, 134)}, repeats)
        batch_sizes = {}
        for size in (16, 32, 64, 128):
            def run(size: int = size) -> None:
                model.encode(texts, batch_size=size, normalize_embeddings=True, convert_to_numpy=True,
                             show_progress_bar=False)
            batch_sizes[f"batch_size {size}"] = run
        batches = alternate(batch_sizes, repeats)
    finally:
        torch.set_num_threads(original)
    return {"texts": len(texts), "default_threads": original,
            "threads_and_call_size": {k: {**v, "chunks_per_s": round(len(texts) / v["median_s"], 2)}
                                      for k, v in threads.items()},
            "encode_batch_size": {k: {**v, "chunks_per_s": round(len(texts) / v["median_s"], 2)}
                                  for k, v in batches.items()}}


def exp_batchsize(embedder: SentenceTransformerEmbedder, texts: list[str], repeats: int) -> dict[str, Any]:
    """`encode(batch_size=...)` on the same chunk texts (Settings.embed_batch_size, RAG_EMBED_BATCH)."""
    model = embedder.model
    variants = {}
    for size in (64, 32, 16, 8):
        def run(size: int = size) -> None:
            model.encode(texts, batch_size=size, normalize_embeddings=True, convert_to_numpy=True,
                         show_progress_bar=False)
        variants[f"batch_size {size}" + (" (today)" if size == embedder.batch_size else "")] = run
    timings = alternate(variants, repeats)
    return {"texts": len(texts), "timings": {k: {**v, "chunks_per_s": round(len(texts) / v["median_s"], 2),
                                                 "chunks_per_cpu_s": round(len(texts) / v["median_cpu_s"], 2)}
                                             for k, v in timings.items()}}


def exp_embed_pipelining(embedder: SentenceTransformerEmbedder, texts: list[str], repeats: int) -> dict[str, Any]:
    """Does Chroma's upsert overlap with the model (threads)? Serial embed+upsert vs upsert in a thread."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    ids, docs, vectors, metas = _fake_chunks(len(texts) * repeats * 4, seed=2)
    path = tempfile.mkdtemp(dir=WORK, prefix="pipe-")
    client = chromadb.PersistentClient(path=path, settings=ChromaSettings(anonymized_telemetry=False))
    collection = client.create_collection("bench-pipe", configuration={"hnsw": {"space": "cosine"}})
    cursor = [0]

    def upsert_next() -> None:
        s = cursor[0]
        e = s + len(texts)
        cursor[0] = e
        collection.upsert(ids=ids[s:e], documents=docs[s:e], embeddings=vectors[s:e], metadatas=metas[s:e])

    def embed() -> None:
        embedder.embed(texts)

    def serial() -> None:
        embed()
        upsert_next()

    def overlapped() -> None:
        worker = threading.Thread(target=upsert_next)
        worker.start()
        embed()
        worker.join()

    try:
        timings = alternate({"embed then upsert (today)": serial, "upsert in a thread during embed": overlapped,
                             "embed only": embed, "upsert only": upsert_next}, repeats)
    finally:
        shutil.rmtree(path, ignore_errors=True)
    return {"texts": len(texts), "timings": timings}


def _hashing_index(rows: int, rebuild: bool) -> tuple[VectorIndex, TableSource, Any]:
    """A synthetic table and its index built with the hashing embedder: the same records as the real
    index (ids, documents, metadata, 384-d vectors), without an hour of the model."""
    from rag.data.embeddings import HashingEmbedder

    db = WORK / f"synthetic-{rows}.db"
    if not db.exists():
        build_synthetic_db(db, rows=rows)
    index_dir = WORK / f"index-resync-{rows}"
    if rebuild:
        shutil.rmtree(index_dir, ignore_errors=True)
    settings = Settings(db_url=f"sqlite:///{db}", index_dir=str(index_dir), embed_model="hashing-384").validated()
    source = TableSource(settings.db_url, settings.table)
    index = VectorIndex(settings, HashingEmbedder())
    index.sync(source)  # builds when missing, else a no-change sync
    return index, source, index.collection()


def exp_manifest(rows: int, repeats: int) -> dict[str, Any]:
    """Ways to read the manifest (row_key -> content hash, chunk count) that a no-change re-sync needs."""
    from rag.data.index import chunk_id

    index, source, collection = _hashing_index(rows, rebuild=False)
    keys = [row.key for row in source.iter_rows()]
    sidecar = WORK / f"manifest-{rows}.json"
    sidecar.write_text(json.dumps(index.manifest(collection)))

    def one_page() -> None:
        collection.get(where={"chunk": 0}, include=["metadatas"])

    def by_ids() -> None:
        ids = [chunk_id(key, 0) for key in keys]
        for start in range(0, len(ids), 5000):
            collection.get(ids=ids[start:start + 5000], include=["metadatas"])

    def ids_only() -> None:
        collection.get(where={"chunk": 0}, include=[])

    def sidecar_json() -> None:
        json.loads(sidecar.read_text())

    timings = alternate({"where chunk=0, pages of 5000 with offset (today)": lambda: index.manifest(collection),
                         "where chunk=0, one get without limit": one_page,
                         "get by chunk-0 ids (from the table's row keys), 5000 per call": by_ids,
                         "where chunk=0, ids only (include=[]; hash and count would live in the id)": ids_only,
                         "sidecar JSON file written at the end of a sync": sidecar_json}, repeats)
    source.close()
    return {"rows": rows, "timings": timings}


def exp_resync(embedder: SentenceTransformerEmbedder, rows: int, repeats: int) -> dict[str, Any]:
    """Parts of a no-change re-sync on an index built with the hashing embedder (same records, no model)."""
    index, source, collection = _hashing_index(rows, rebuild=True)
    source_rows = list(source.iter_rows())

    def hash_simple(row: SourceRow) -> str:
        digest = hashlib.sha256()
        for part in (row.title, row.content or "", repr(sorted(row.metadata.items()))):
            digest.update(part.encode("utf-8", errors="replace"))
            digest.update(b"\x00")
        return digest.hexdigest()[:32]

    timings = alternate({
        "full no-change sync": lambda: index.sync(source),
        "manifest (chunk-0 metadatas, pages of 5000)": lambda: index.manifest(collection),
        "sql read (iter_rows)": lambda: list(source.iter_rows()),
        "content_hash x rows (json.dumps + sha256)": lambda: [index.content_hash(r) for r in source_rows],
        "hash without json.dumps (proposal)": lambda: [hash_simple(r) for r in source_rows],
        "collection.count()": collection.count,
    }, repeats)
    source.close()
    return {"rows": rows, "timings": timings}


EXPERIMENTS = ("tokenize", "chunking", "double", "upsert", "threads", "batchsize", "pipelining", "resync",
               "manifest")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Overhead micro-benchmarks for rag/data/index.py and chunking.py")
    parser.add_argument("names", nargs="*", choices=[*EXPERIMENTS, []], default=[])
    parser.add_argument("--rows", type=int, default=2000, help="synthetic rows for tokenize/chunking")
    parser.add_argument("--texts", type=int, default=256, help="chunk texts for the model experiments")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="small inputs, one repeat; results in results/quick/")
    args = parser.parse_args(argv)
    if args.quick:
        args.rows, args.texts, args.repeats = 200, 32, 1
    resync_rows = QUICK_RESYNC_ROWS if args.quick else RESYNC_ROWS
    names = args.names or list(EXPERIMENTS)
    WORK.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = load_results("overhead_experiments", args.quick)
    results["machine"] = machine_info()
    embedder = SentenceTransformerEmbedder()
    embedder.embed(["warm-up"])
    source, rows = synthetic_rows(args.rows)
    sample_source, samples = sample_rows()
    index = VectorIndex(Settings(db_url=source.db_url, index_dir=str(WORK / "index-unused")), embedder)
    texts = embed_texts(index, source, rows, args.texts)
    for name in names:
        load_before = loadavg()
        started = time.perf_counter()
        if name == "tokenize":
            outcome = {"synthetic": exp_tokenize(embedder, rows, args.repeats),
                       "sample": exp_tokenize(embedder, samples, args.repeats)}
        elif name == "chunking":
            outcome = {"synthetic": exp_chunking(embedder, rows, args.repeats),
                       "sample": exp_chunking(embedder, samples, args.repeats)}
        elif name == "double":
            outcome = exp_double(embedder, texts, args.repeats)
        elif name == "upsert":
            outcome = exp_upsert(500 if args.quick else 5000, max(1, args.repeats // 2))
        elif name == "threads":
            outcome = exp_threads(embedder, texts, max(1, args.repeats // 2))
        elif name == "batchsize":
            outcome = exp_batchsize(embedder, texts, args.repeats)
        elif name == "pipelining":
            outcome = exp_embed_pipelining(embedder, texts[:134], args.repeats)
        elif name == "resync":
            outcome = exp_resync(embedder, resync_rows, args.repeats)
        else:
            outcome = exp_manifest(resync_rows, args.repeats)
        outcome["loadavg_before"] = load_before
        outcome["loadavg_after"] = loadavg()
        outcome["seconds"] = round(time.perf_counter() - started, 1)
        outcome["measured_at"] = now()
        outcome["git"] = git_state()
        results[name] = outcome
        print(f"== {name}\n{json.dumps(outcome, indent=2)}", flush=True)
        write_results("overhead_experiments", results, render_markdown(results), args.quick)
    source.close()
    sample_source.close()
    shutil.rmtree(WORK / "index-unused", ignore_errors=True)
    return 0


def _tables(value: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every {variant: {median_s, ...}} table inside an experiment's outcome, with its path."""
    if not isinstance(value, dict):
        return []
    if value and all(isinstance(v, dict) and "median_s" in v for v in value.values()):
        return [("", value)]
    return [(f"{key} / {path}".rstrip(" /"), table) for key, inner in value.items() for path, table in _tables(inner)]


def render_markdown(results: dict[str, Any]) -> str:
    lines = ["# Overhead micro-benchmarks", "",
             "Generated by `bench/overhead_experiments.py`: each experiment alternates its variants (A B A B ...) so "
             "that load from other processes hits them alike; medians of wall and CPU seconds, ratio to the first "
             "variant. Raw figures in `overhead_experiments.json`."]
    for name in EXPERIMENTS:
        outcome = results.get(name)
        if not outcome:
            continue
        load = f"{outcome['loadavg_before'][0]:.1f} → {outcome['loadavg_after'][0]:.1f}"
        lines += ["", f"## {name}", "",
                  f"Measured {outcome['measured_at']} (commit {outcome.get('git', {}).get('commit', '?')}), "
                  f"{outcome['seconds']} s, load {load}."]
        for path, table in _tables({k: v for k, v in outcome.items() if not k.startswith("loadavg")}):
            lines += ["", *([f"{path}:", ""] if path else []), "| variant | median s | CPU s | × first | CPU × first |",
                      "|---|---:|---:|---:|---:|"]
            lines += [f"| {variant} | {v['median_s']} | {v['median_cpu_s']} | {v['vs_first']} | {v['cpu_vs_first']} |"
                      for variant, v in table.items()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
