"""Chroma filter latency, measured directly on the collection with a fixed real-model query vector.

Cases: no filter, a category equality, a numeric date range, `row_key $in` lists of 10 / 100 / 1,000 keys
(n_results=5), and the hybrid route's query shape (n_results = top_k x CANDIDATES_PER_RESULT, documents
included) at list lengths HYBRID_LIST_LENGTHS up to ROW_KEYS_PER_QUERY, the most ids the product sends in one query.
Median of FILTER_RUNS runs after one warm-up per case.
Usage: .venv/bin/python -m bench.scale.filters [--quick] [--sizes 1000 10000]
"""

from __future__ import annotations

import statistics
from typing import Any

from bench.common import measured, pct, timed_ms
from bench.scale.corpus import FIXED_QUERY, REAL_MODEL, Run, main_for, query_index
from rag.answer.retrieval import CANDIDATES_PER_RESULT, ROW_KEYS_PER_QUERY
from rag.settings import Settings

PART = "filters"
FILTER_RUNS, QUICK_FILTER_RUNS = 20, 5
N_RESULTS = 5
IN_LIST_LENGTHS = (10, 100, 1_000)
HYBRID_LIST_LENGTHS = (500, 5_000, ROW_KEYS_PER_QUERY)  # 500: the product's batch before it sent one list
HYBRID_N_RESULTS = Settings.top_k * CANDIDATES_PER_RESULT


def in_label(length: int) -> str:
    return f"row_key $in {length:,}"


def hybrid_label(length: int) -> str:
    return f"row_key $in {length:,}, n_results={HYBRID_N_RESULTS}, with documents"


def spread(keys: list[str], count: int) -> list[str]:
    """`count` keys spread over the whole table."""
    return keys[::max(1, len(keys) // count)][:count]


def cases(keys: list[str]) -> dict[str, tuple[dict[str, Any] | None, int, list[str]]]:
    """label -> (where, n_results, include) for a collection whose committed row keys are `keys`."""
    plain = ["metadatas", "distances"]
    found: dict[str, tuple[dict[str, Any] | None, int, list[str]]] = {
        "none": (None, N_RESULTS, plain),
        "equality (article_category = politics)": ({"article_category": "politics"}, N_RESULTS, plain),
        "date range (date_ymd 2023-01-01..2023-03-31)": (
            {"$and": [{"date_ymd": {"$gte": 20230101}}, {"date_ymd": {"$lte": 20230331}}]}, N_RESULTS, plain),
    }
    for length in IN_LIST_LENGTHS:
        if length <= len(keys):
            found[in_label(length)] = ({"row_key": {"$in": spread(keys, length)}}, N_RESULTS, plain)
    for length in HYBRID_LIST_LENGTHS:
        if length <= len(keys):
            found[hybrid_label(length)] = ({"row_key": {"$in": spread(keys, length)}}, HYBRID_N_RESULTS,
                                           ["metadatas", "documents", "distances"])
    return found


def measure(run: Run, rows: int) -> dict[str, Any]:
    runs = QUICK_FILTER_RUNS if run.quick else FILTER_RUNS
    index = query_index(rows, run.embed(rows), run.embedders)
    collection = index.collection()
    vector = run.embedders[REAL_MODEL].embed([FIXED_QUERY])[0]
    keys = sorted(index.manifest(collection))  # row keys of committed rows
    record: dict[str, Any] = {"runs": runs, "n_results": N_RESULTS, "collection_count": collection.count(),
                              "cases": {}}
    with measured(record):
        for label, (where, n_results, include) in cases(keys).items():
            collection.query(query_embeddings=[vector], n_results=n_results, where=where)  # warm-up, not counted
            wall, cpu = [], []
            returned = 0
            for _ in range(runs):
                result, wall_ms, cpu_ms = timed_ms(lambda w=where, n=n_results, i=include: collection.query(
                    query_embeddings=[vector], n_results=n, where=w, include=i))
                wall.append(wall_ms)
                cpu.append(cpu_ms)
                returned = len(result["ids"][0])
            record["cases"][label] = {"median_ms": round(statistics.median(wall), 2),
                                      "p95_ms": round(pct(wall, 0.95), 2), "min_ms": round(min(wall), 2),
                                      "cpu_median_ms": round(statistics.median(cpu), 2), "returned": returned}
            print(f"  {label}: {record['cases'][label]['median_ms']} ms", flush=True)
    return record


def main(argv: list[str] | None = None) -> int:
    return main_for(__doc__ or "", PART, measure, argv)


if __name__ == "__main__":
    raise SystemExit(main())
