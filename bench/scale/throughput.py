"""Embedding throughput in this run: the product's embedder against the model's own `encode`, same batch, same process.

A fixed batch of the sample corpus's first chunk texts (title + chunk, as indexed) is embedded by both, interleaved;
then one question is embedded 20 times by each, and once more with torch's default intra-op threads against one
thread (not a product setting: it shows whether threads help a single short query on this shared machine).
Usage: .venv/bin/python -m bench.scale.throughput [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from bench.common import measured, pct, stamp, timed_ms
from bench.scale.corpus import FIXED_QUERY, REAL_MODEL, Run, add_arguments
from rag.data.embeddings import SentenceTransformerEmbedder
from rag.data.index import VectorIndex
from rag.data.source import TableSource
from rag.settings import SAMPLE_DB_PATH, Settings

PART = "embedding_throughput"
TEXTS, QUICK_TEXTS = 64, 16  # 64: one model batch (Settings.embed_batch_size)
ROUNDS, QUICK_ROUNDS = 2, 1
QUERY_RUNS = 20
THREAD_RUNS, QUICK_THREAD_RUNS = 30, 5


def fixed_batch(embedder: SentenceTransformerEmbedder, count: int) -> list[str]:
    """The first `count` chunk texts (title + chunk, as indexed) of the sample corpus."""
    settings = Settings(db_url=f"sqlite:///{SAMPLE_DB_PATH}", provider="offline")
    source = TableSource(settings.db_url, settings.table)
    index = VectorIndex(settings, embedder)
    texts: list[str] = []
    for row in source.iter_rows():
        if (row.content or "").strip():
            texts += index.chunks_for(row, source, "x")[2]
        if len(texts) >= count:
            break
    return texts[:count]


def measure(run: Run) -> dict[str, Any]:
    embedder: SentenceTransformerEmbedder = run.embedders[REAL_MODEL]
    texts = fixed_batch(embedder, QUICK_TEXTS if run.quick else TEXTS)
    rounds = QUICK_ROUNDS if run.quick else ROUNDS
    record: dict[str, Any] = {"texts": len(texts), "batch_size": embedder.batch_size, "rounds": rounds}
    product: list[float] = []
    model_only: list[float] = []
    query_model, query_product = [], []
    with measured(record):
        embedder.embed(texts[:8])  # warm-up
        for _ in range(rounds):
            _, ms, _ = timed_ms(lambda: embedder.model.encode(
                texts, batch_size=embedder.batch_size, normalize_embeddings=True, convert_to_numpy=True,
                show_progress_bar=False))
            model_only.append(len(texts) / ms * 1000)
            _, ms, _ = timed_ms(lambda: embedder.embed(texts))
            product.append(len(texts) / ms * 1000)
        for _ in range(QUERY_RUNS):
            query_model.append(timed_ms(lambda: embedder.model.encode(
                [FIXED_QUERY], normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False))[1])
            query_product.append(timed_ms(lambda: embedder.embed([FIXED_QUERY]))[1])
    record["query_embed_by_torch_threads"] = query_embed_threads(
        embedder, QUICK_THREAD_RUNS if run.quick else THREAD_RUNS)
    record.update(
        product_chunks_per_s=round(statistics.mean(product), 2),
        model_chunks_per_s=round(statistics.mean(model_only), 2),
        product_vs_model=round(statistics.mean(product) / statistics.mean(model_only), 3),
        rounds_product=[round(x, 2) for x in product], rounds_model=[round(x, 2) for x in model_only],
        query_embed_median_ms={"product": round(statistics.median(query_product), 2),
                               "model": round(statistics.median(query_model), 2)})
    print(f"  product {record['product_chunks_per_s']} chunks/s, model {record['model_chunks_per_s']} chunks/s",
          flush=True)
    return record


def query_embed_threads(embedder: SentenceTransformerEmbedder, runs: int) -> dict[str, Any]:
    """One question embedded with torch's default thread count vs one thread (interleaved, restored after)."""
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
                        _, wall, cpu = timed_ms(lambda: embedder.embed([FIXED_QUERY]))
                        entry = samples.setdefault(threads, {"wall": [], "cpu": []})
                        entry["wall"].append(wall)
                        entry["cpu"].append(cpu)
    finally:
        torch.set_num_threads(default)
    record["threads"] = {str(t): {"wall_median_ms": round(statistics.median(v["wall"]), 1),
                                  "wall_p95_ms": round(pct(v["wall"], 0.95), 1),
                                  "cpu_median_ms": round(statistics.median(v["cpu"]), 1)} for t, v in samples.items()}
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_arguments(parser)
    run = Run.from_args(parser.parse_args(argv), [PART])
    started = time.perf_counter()
    run.data[PART] = stamp(measure(run))
    print(f"  {time.perf_counter() - started:.0f} s", flush=True)
    run.finish()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
