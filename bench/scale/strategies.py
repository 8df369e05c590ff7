"""How the hybrid step searches the SQL-selected rows: the product's way against alternatives, on the collection.

For each question of STRATEGY_QUESTIONS the planner and SQL builder select the row keys exactly as the hybrid
route does (at most MAX_SELECTED_ROWS), the topic is embedded with the real model, and each strategy asks Chroma
for top_k x CANDIDATES_PER_RESULT chunks per query, keeping the best chunk per row:
  - the product's id list: `row_key $in` lists of up to ROW_KEYS_PER_QUERY ids (one query below that many rows);
  - the same conditions as metadata filters (what the product does above ID_LIST_LIMIT rows, when every
    condition is one Chroma can hold);
  - `row_key $in` in smaller batches (COMPARED_BATCHES; 500 was the product's batch before it sent one list);
  - one global query for enough candidates that top_k selected rows survive, kept by row key in Python.
Quality = overlap of each strategy's top_k rows with a brute-force ranking of every chunk the filter admits. The
vector route's category pre-filter is compared with a global query kept by category the same way.
Usage: .venv/bin/python -m bench.scale.strategies [--quick] [--sizes 1000 10000]
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

from llama_index.vector_stores.chroma.base import _to_chroma_filter

from bench.common import measured, timed_ms
from bench.scale.corpus import REAL_MODEL, Run, build_assistant, main_for
from rag.answer.filters import CHROMA_EXPRESSIBLE, chroma_filters
from rag.answer.hybrid_engine import ID_LIST_LIMIT, MAX_SELECTED_ROWS
from rag.answer.retrieval import CANDIDATES_PER_RESULT, ROW_KEYS_PER_QUERY

PART = "strategies"
RUNS, QUICK_RUNS = 3, 1
STRATEGY_QUESTIONS = ("court rulings in 2021", "What was written about elections in 2019?",
                      "articles longer than 150 words about hospitals",
                      "Between March and May 2023, anything about Mother's Day in fashion?")
VECTOR_CASE = ("Trends in fashion", "fashion")  # question, its category
COMPARED_BATCHES = (500, 5_000)
GLOBAL_MAX_CANDIDATES = 2_000
EXACT_BATCH = 5_000  # row keys per `get` of the brute-force ranking
CHROMA_MAX_IN = 32_000  # a longer `$in` list fails in Chroma 1.5 ("too many SQL variables"), measured at 33,000
ID_LIST = f"row_key $in, up to {ROW_KEYS_PER_QUERY:,} ids per query"
AS_FILTERS = "the same conditions as metadata filters"
GLOBAL_KEEP_ROWS = "global top-N, keep SQL-selected rows"
EQUALITY = "equality pre-filter (product)"
GLOBAL_KEEP_CATEGORY = "global top-N, keep the category"
PRODUCT = " (product)"

Ranked = Callable[[], tuple[list[str], int]]  # -> (row keys best first, Chroma queries sent)


def batch_label(size: int) -> str:
    return f"row_key $in batches of {size:,}"


def labels() -> set[str]:
    """Every strategy label this module can record."""
    return {ID_LIST, ID_LIST + PRODUCT, AS_FILTERS, AS_FILTERS + PRODUCT, GLOBAL_KEEP_ROWS, EQUALITY,
            GLOBAL_KEEP_CATEGORY, *(batch_label(size) for size in COMPARED_BATCHES)}


def rows_by_distance(metadatas: list[dict[str, Any]], distances: list[float]) -> list[str]:
    """Row keys in order of their best chunk (what `best_chunk_per_row` keeps)."""
    ordered: list[str] = []
    for metadata, _ in sorted(zip(metadatas, distances, strict=True), key=lambda pair: pair[1]):
        if metadata["row_key"] not in ordered:
            ordered.append(str(metadata["row_key"]))
    return ordered


def exact_rows(collection: Any, vector: list[float], wheres: list[dict[str, Any]], top_k: int) -> list[str]:
    """Brute-force ranking over every chunk the filters admit (numpy, cosine on unit vectors)."""
    import numpy as np

    metadatas: list[dict[str, Any]] = []
    embeddings: list[Any] = []
    for where in wheres:
        got = collection.get(where=where, include=["embeddings", "metadatas"])
        metadatas += got["metadatas"]
        embeddings += list(got["embeddings"])
    if not embeddings:
        return []
    distances = 1.0 - np.asarray(embeddings) @ np.asarray(vector)
    return rows_by_distance(metadatas, distances.tolist())[:top_k]


def compare(strategies: dict[str, Ranked], exact: list[str], runs: int, info: dict[str, Any]) -> dict[str, Any]:
    results = {}
    for label, function in strategies.items():
        wall, cpu = [], []
        rows: list[str] = []
        queries = 0
        for _ in range(runs):
            (rows, queries), wall_ms, cpu_ms = timed_ms(function)
            wall.append(wall_ms)
            cpu.append(cpu_ms)
        results[label] = {"median_ms": round(statistics.median(wall), 1),
                          "cpu_median_ms": round(statistics.median(cpu), 1), "chroma_queries": queries,
                          "overlap_with_exact": f"{len(set(rows) & set(exact))}/{len(exact)}", "found": len(rows)}
    return {**info, "strategies": results}


def measure(run: Run, rows: int) -> dict[str, Any]:
    runs = QUICK_RUNS if run.quick else RUNS
    assistant = build_assistant(rows, run.embed(rows), run.embedders)
    context = assistant.context
    collection = context.index.collection()
    total_chunks, total_rows = collection.count(), context.source.count_rows()
    top_k = context.settings.top_k
    wanted = top_k * CANDIDATES_PER_RESULT
    real = run.embedders[REAL_MODEL]
    record: dict[str, Any] = {"runs": runs, "top_k": top_k, "n_results_per_query": wanted, "cases": {}}

    def query(vector: list[float], n: int, where: dict[str, Any] | None) -> tuple[list[dict[str, Any]], list[float]]:
        result = collection.query(query_embeddings=[vector], n_results=n, where=where,
                                  include=["metadatas", "documents", "distances"])
        return result["metadatas"][0], result["distances"][0]

    def batched(vector: list[float], keys: list[str], size: int) -> Ranked:
        def ranked() -> tuple[list[str], int]:
            metadatas: list[dict[str, Any]] = []
            distances: list[float] = []
            starts = range(0, len(keys), size)
            for start in starts:
                found = query(vector, wanted, {"row_key": {"$in": keys[start:start + size]}})
                metadatas += found[0]
                distances += found[1]
            return rows_by_distance(metadatas, distances)[:top_k], len(starts)
        return ranked

    def filtered(vector: list[float], where: dict[str, Any]) -> Ranked:
        return lambda: (rows_by_distance(*query(vector, wanted, where))[:top_k], 1)

    def global_then_keep(vector: list[float], admitted: Callable[[dict[str, Any]], bool], share: float) -> Ranked:
        n = min(total_chunks, GLOBAL_MAX_CANDIDATES, max(wanted, int(wanted / max(share, 1e-9))))

        def ranked() -> tuple[list[str], int]:
            kept = [(m, d) for m, d in zip(*query(vector, n, None), strict=True) if admitted(m)]
            return rows_by_distance([m for m, _ in kept], [d for _, d in kept])[:top_k], 1
        return ranked

    with measured(record):
        for question in STRATEGY_QUESTIONS:
            plan = context.planner.plan(question)
            sql = context.sql_builder.row_keys_sql(plan, context.source.key_columns)
            result = context.database.execute(sql, max_rows=MAX_SELECTED_ROWS).result
            keys = [context.source.key_of(dict(zip(result.columns, row, strict=True))) for row in result.rows]
            if not keys:
                continue
            vector = real.embed([plan.topic or question])[0]
            exact = exact_rows(collection, vector, [{"row_key": {"$in": keys[i:i + EXACT_BATCH]}}
                                                    for i in range(0, len(keys), EXACT_BATCH)], top_k)
            expressible = all(c.kind in CHROMA_EXPRESSIBLE for c in plan.conditions)
            as_filters = expressible and len(keys) > ID_LIST_LIMIT  # what the product does
            strategies: dict[str, Ranked] = {ID_LIST + ("" if as_filters else PRODUCT):
                                             batched(vector, keys, ROW_KEYS_PER_QUERY)}
            where = chroma_filters(plan, with_dates=True)[2] if expressible else None
            if where is not None:
                strategies[AS_FILTERS + (PRODUCT if as_filters else "")] = filtered(vector, _to_chroma_filter(where))
            for size in COMPARED_BATCHES:
                if size < len(keys):
                    strategies[batch_label(size)] = batched(vector, keys, size)
            strategies[GLOBAL_KEEP_ROWS] = global_then_keep(vector, lambda m, ks=set(keys): m["row_key"] in ks,
                                                            len(keys) / total_rows)
            info = {"route": "hybrid", "selected_rows": len(keys)}
            record["cases"][question] = compare(strategies, exact, runs, info)
            print(f"  {question}: " + ", ".join(f"{k} {v['median_ms']} ms {v['overlap_with_exact']}"
                                               for k, v in record["cases"][question]["strategies"].items()), flush=True)
        question, category = VECTOR_CASE
        count = context.source.run_select(
            f"SELECT COUNT(*) FROM {context.source.table} WHERE article_category = '{category}'").rows[0][0]
        vector = real.embed([context.planner.plan(question).topic or question])[0]
        where = {"article_category": category}
        record["cases"][question] = compare(
            {EQUALITY: filtered(vector, where),
             GLOBAL_KEEP_CATEGORY: global_then_keep(vector, lambda m: m.get("article_category") == category,
                                                    count / total_rows)},
            exact_rows(collection, vector, [where], top_k), runs, {"route": "vector", "selected_rows": count})
    return record


def main(argv: list[str] | None = None) -> int:
    return main_for(__doc__ or "", PART, measure, argv)


if __name__ == "__main__":
    raise SystemExit(main())
