"""How many of the exact nearest chunks Chroma's HNSW search returns, and what a wider search costs.

    .venv/bin/python -m bench.hnsw_search [--quick]

Chroma answers a vector query from an HNSW graph, an approximate search: with its default `ef_search` of 100 a
query can miss some of the chunks truly nearest to it, and a collection smaller than its `sync_threshold` (1,000)
rebuilds its graph at every process start, so the misses change from one start to the next. This measures, per
`ef_search`, the share of the exact top 5 and top 50 (cosine, NumPy over all vectors) that the query returns, and
the time of one single-question query (as the app asks). Vectors: every chunk vector stored by the evaluation
indexes (real all-MiniLM-L6-v2 vectors of the four tables' texts), then 10,000 and 100,000 vectors made of those
and noisy copies of them (each a real vector plus Gaussian noise of norm about 0.5, normalised). Queries: the
evaluation's dev and test questions, embedded with the real model. Each size and `ef_search` is built in an
in-memory Chroma collection of its own (the value is read when a process loads the graph). Run from the repository
root; needs the indexes the evaluation uses (data/chroma, data/eval/chroma).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import chromadb
import numpy as np
import yaml

from bench.common import ROOT, stamp, summary, write_results
from rag.data.embeddings import SentenceTransformerEmbedder
from rag.data.index import HNSW_EF_SEARCH

INDEX_DIRS = (ROOT / "data" / "chroma", ROOT / "data" / "eval" / "chroma")
EF_VALUES = (100, 200, HNSW_EF_SEARCH, 800)
SIZES = (None, 10_000, 100_000)  # None: the real vectors alone
NOISE = 0.5 / np.sqrt(384)  # per dimension: a noise vector of norm about 0.5
BATCH = 5_000


def stored_vectors() -> np.ndarray:
    """Every chunk vector of the evaluation's collections."""
    vectors = []
    for directory in INDEX_DIRS:
        client = chromadb.PersistentClient(str(directory))
        for listed in client.list_collections():
            got = client.get_collection(listed.name).get(include=["embeddings"])
            vectors.append(np.asarray(got["embeddings"], dtype=np.float32))
    return np.vstack(vectors)


def questions(limit: int | None) -> list[str]:
    asked = []
    for table in ("news", "tickets", "reviews", "contracts"):
        for split in ("dev", "test"):
            path = ROOT / "eval" / table / f"{split}.yaml"
            cases = yaml.safe_load(Path(path).read_text())["cases"] if path.exists() else []
            asked += [case["question"] for case in cases if case.get("question")]
    return asked[:limit] if limit else asked


def corpus(real: np.ndarray, size: int | None, rng: np.random.Generator) -> np.ndarray:
    if size is None or size <= len(real):
        return real if size is None else real[:size]
    copies = real[rng.integers(0, len(real), size - len(real))]
    copies = copies + rng.normal(0.0, NOISE, copies.shape).astype(np.float32)
    return np.vstack([real, copies / np.linalg.norm(copies, axis=1, keepdims=True)])


def measure(vectors: np.ndarray, queries: np.ndarray, k: int = 50) -> list[dict[str, Any]]:
    """One collection per `ef_search` (Chroma applies the value when a process first loads the graph, so a
    collection is built with it rather than changed between measurements)."""
    client = chromadb.EphemeralClient()
    ids = [str(i) for i in range(len(vectors))]
    exact = np.argsort(-(queries @ vectors.T), axis=1)[:, :k]
    rows = []
    for ef in EF_VALUES:
        name = f"hnsw-{len(vectors)}-{ef}"
        collection = client.create_collection(name, configuration={"hnsw": {"space": "cosine", "ef_search": ef}})
        started = time.perf_counter()
        for start in range(0, len(vectors), BATCH):
            collection.add(ids=ids[start:start + BATCH], embeddings=vectors[start:start + BATCH].tolist())
        built_s = time.perf_counter() - started
        collection.query(query_embeddings=queries[:1].tolist(), n_results=k, include=[])  # warm
        timings, top5, top50 = [], [], []
        for query, truth in zip(queries, exact, strict=True):
            started = time.perf_counter()
            found = collection.query(query_embeddings=[query.tolist()], n_results=k, include=[])["ids"][0]
            timings.append((time.perf_counter() - started) * 1000)
            got = [int(i) for i in found]
            top5.append(len(set(got[:5]) & set(truth[:5].tolist())) / 5)
            top50.append(len(set(got) & set(truth.tolist())) / k)
        rows.append({"vectors": len(vectors), "ef_search": ef, "questions": len(queries), "build_s": round(built_s, 1),
                     "top5_recall": round(float(np.mean(top5)), 4), "top50_recall": round(float(np.mean(top50)), 4),
                     "query": summary(timings)})
        print(rows[-1], flush=True)
        client.delete_collection(name)
    return rows


def render_markdown(data: dict[str, Any]) -> str:
    lines = ["# HNSW search: recall of the exact nearest chunks and time per query", "",
             f"Measured {data['measured_at']} on {data['git'].get('commit', '?')[:10]}. Generated by "
             "`bench/hnsw_search.py` (see its docstring for the vectors and questions).", "",
             "| vectors | ef_search | questions | top-5 recall | top-50 recall | query p50 ms | p95 ms |",
             "|---:|---:|---:|---:|---:|---:|---:|"]
    for row in data["rows"]:
        lines.append(f"| {row['vectors']:,} | {row['ef_search']} | {row['questions']:,} | {row['top5_recall']:.2%} | "
                     f"{row['top50_recall']:.2%} | {row['query']['p50_ms']} | {row['query']['p95_ms']} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 questions, the real vectors and 10,000 only")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    real = stored_vectors()
    queries = np.asarray(SentenceTransformerEmbedder().embed(questions(200 if args.quick else None)),
                         dtype=np.float32)
    rows = []
    for size in SIZES[:2] if args.quick else SIZES:
        rows += measure(corpus(real, size, rng), queries)
    data = stamp({"rows": rows, "real_vectors": len(real)})
    print(write_results("hnsw_search", data, render_markdown(data), quick=args.quick))


if __name__ == "__main__":
    main()
