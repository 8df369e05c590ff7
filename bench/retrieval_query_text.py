"""Which text of the question to search, and dense vs keyword (BM25) vs fused, on the dev questions of every table.

Usage: .venv/bin/python -m bench.retrieval_query_text [--quick] [--tables news,tickets,reviews]
Writes bench/results/retrieval_query_text.json and .md (`--quick`: fewer configurations, into bench/results/quick/).

Every retrieval case of eval/<table>/dev.yaml is asked through the offline assistant (so the route's own
pre-filters and SQL-selected rows apply) once per configuration (`RetrievalOptions`: mode, the text embedded,
the text matched by BM25); its chunks are scored like `rag eval` (hit@1, hit@5, MRR). Texts: `question` (the
whole question), `minus_conditions` (without the words consumed by structured conditions: dates, category
values, authors) and `topic` (the planner's topic residue). Baselines (stock searches): the whole question, no
filters, not centred, dense / keyword / fused. Also records the retrieval steps' time per configuration (trace spans).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from bench.common import load_span, machine_info, measured, pct, stamp, write_results
from bench.retrieval_common import TABLES, aggregate, assistant_for, dev_cases, hits_table, score
from rag import tracing
from rag.answer.context import RetrievalOptions
from rag.answer.retrieval import retrieve
from rag.models import Trace

TEXTS = ("question", "minus_conditions", "topic")
SHORT = {"question": "question", "minus_conditions": "minus conditions", "topic": "topic"}
RETRIEVAL_STEPS = ("embed.query", "vector.search", "keyword.search", "fusion")


def configurations(quick: bool) -> list[RetrievalOptions]:
    dense = [RetrievalOptions(dense_text=t, keyword_text=t, mode="dense") for t in TEXTS]
    keyword = [RetrievalOptions(dense_text=t, keyword_text=t, mode="keyword") for t in TEXTS]
    fused = [RetrievalOptions(dense_text=d, keyword_text=k, mode="fused") for d in TEXTS for k in TEXTS]
    if quick:
        return [dense[0], dense[2], keyword[0], fused[0], fused[8]]
    return dense + keyword + fused


def label(options: RetrievalOptions) -> str:
    if options.mode == "dense":
        return f"dense: {SHORT[options.dense_text]}"
    if options.mode == "keyword":
        return f"keyword: {SHORT[options.keyword_text]}"
    return f"fused: dense {SHORT[options.dense_text]} + keyword {SHORT[options.keyword_text]}"


def baselines(assistant: Any, question: str) -> dict[str, list[Any]]:
    """A stock search: the whole question, no filters, not centred, same k: dense, keyword and fused."""
    found = {}
    for mode in ("dense", "keyword", "fused"):
        found[mode] = retrieve(assistant.context, question, None,
                               options=RetrievalOptions(mode=mode, centring=0.0)).top
    return found


def ask_every_case(name: str, configs: list[RetrievalOptions], label: Callable[[RetrievalOptions], str],
                   stock: bool = False) -> tuple[int, list[dict[str, Any]]]:
    """Every dev retrieval case of table `name` asked with each configuration (and, with `stock`, scored by the stock
    searches first, traced apart): (k, one entry per case with its results by configuration label)."""
    table = TABLES[name]
    assistant = assistant_for(table)
    k = assistant.settings.top_k
    cases = dev_cases(table)
    per_case: list[dict[str, Any]] = []
    for case in cases:
        entry: dict[str, Any] = {"id": case.id, "question": case.question, "results": {}}
        if stock:
            with tracing.recording(Trace(question=case.question)):
                for mode, chunks in baselines(assistant, case.question).items():
                    entry["results"][f"baseline {mode}"] = score(case, chunks, k)
        for options in configs:
            entry["results"][label(options)] = asked_with(assistant, case, options, k)
        assistant.context.retrieval = RetrievalOptions()
        per_case.append(entry)
        print(f"  [{name}] {len(per_case)}/{len(cases)} {case.id}", flush=True)
    return k, per_case


def asked_with(assistant: Any, case: Any, options: RetrievalOptions, k: int) -> dict[str, Any]:
    """The case asked through the assistant with these retrieval options: its chunks scored like `rag eval`, its
    route, and the retrieval steps' time."""
    assistant.context.retrieval = options
    turn = assistant.ask(case.question)
    result = score(case, list(turn.result.chunks), k)
    timings = turn.trace.timings_ms
    result.update(route=turn.route, retrieval_ms=round(sum(timings.get(s, 0.0) for s in RETRIEVAL_STEPS), 2),
                  steps_ms={s: timings[s] for s in RETRIEVAL_STEPS if s in timings})
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="five configurations")
    parser.add_argument("--tables", default=",".join(TABLES))
    args = parser.parse_args(argv)
    configs = configurations(args.quick)
    record: dict[str, Any] = {"configs": [label(c) for c in configs], "tables": {}}
    with measured(record):
        for name in args.tables.split(","):
            table = TABLES[name]
            k, per_case = ask_every_case(name, configs, label, stock=True)
            names = [f"baseline {m}" for m in ("dense", "keyword", "fused")] + [label(c) for c in configs]
            record["tables"][name] = {
                "cases_file": table.cases, "k": k, "cases": per_case,
                "summary": {n: aggregate([c["results"][n] for c in per_case]) for n in names},
                "latency_ms": {label(c): latency([x["results"][label(c)] for x in per_case]) for c in configs}}
    record["overall"] = {n: aggregate([c["results"][n] for t in record["tables"].values() for c in t["cases"]])
                         for n in next(iter(record["tables"].values()))["summary"]}
    record["machine"] = machine_info()
    stamp(record)
    path = write_results("retrieval_query_text", record, render_markdown(record), quick=args.quick)
    print(path.read_text())
    return 0


def latency(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Retrieval steps (embedding the question, dense search, keyword search, fusion) per turn, and the keyword
    search alone."""
    total = [r["retrieval_ms"] for r in results if r.get("steps_ms")]
    keyword = [r["steps_ms"]["keyword.search"] for r in results if "keyword.search" in r.get("steps_ms", {})]
    return {"n": len(total), "p50_ms": round(pct(total, 0.5), 1) if total else None,
            "keyword_p50_ms": round(pct(keyword, 0.5), 2) if keyword else None,
            "keyword_p95_ms": round(pct(keyword, 0.95), 2) if keyword else None}


def render_markdown(record: dict[str, Any]) -> str:
    machine = record["machine"]
    tables = record["tables"]
    lines = ["# Which text to search: dense, keyword and fused retrieval on the dev questions", "",
             f"Generated by `bench/retrieval_query_text.py` on {record['measured_at']} (commit "
             f"{record['git']['commit']}); real embedding model, offline provider; retrieval cases of "
             + ", ".join(f"`{t['cases_file']}`" for t in tables.values())
             + f". {machine['cpu_count']} cores, load {load_span(record)}.", "",
             "Each configuration asks every question through the assistant, so the route's pre-filters apply; "
             "`question` embeds or matches the whole question, `minus conditions` the question without the words "
             "structured conditions consumed, `topic` the planner's topic residue. Baselines: the whole question, "
             "no filters.", "", *hits_table(tables, record["overall"], list(record["overall"]))]
    lines += ["", "Retrieval time per turn (embedding the question, dense search, keyword search, fusion; p50) and "
              "the keyword search alone (p50 / p95), ms:", "",
              "| configuration | " + " | ".join(f"{n} p50 | {n} keyword p50 / p95" for n in tables) + " |",
              "|---|" + "---:|" * (2 * len(tables))]
    for name in record["configs"]:
        cells = []
        for t in tables.values():
            timing = t["latency_ms"][name]
            keyword = ("-" if timing["keyword_p50_ms"] is None
                       else f"{timing['keyword_p50_ms']} / {timing['keyword_p95_ms']}")
            cells.append(f"{timing['p50_ms']} | {keyword}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    misses: list[str] = []
    for table_name, t in tables.items():
        for case in t["cases"]:
            missed = [n for n, r in case["results"].items() if not r["hit"]]
            if missed:
                misses.append(f"- {table_name} `{case['id']}` ({case['question']}): missed by "
                              + ", ".join(missed))
    lines += ["", f"## Misses ({len(misses)} questions missed by at least one configuration)", "", *misses]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
