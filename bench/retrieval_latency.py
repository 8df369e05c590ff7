"""What centring, keyword search and fusion add to a retrieval, at 10,000 articles (the issue's budget: <= 20 ms p50).

Usage: .venv/bin/python -m bench.retrieval_latency [--quick] [--rows 10000] [--repeats 5]
Writes bench/results/retrieval_latency.json and .md (`--quick`: 2,000 articles, one repeat, into
bench/results/quick/).

Reuses the synthetic corpus and hashing-embedded index of bench/scale (`python -m bench.scale.build`), copied to
bench/work/retrieval_latency/ so the copy's keyword index is filled there (timed: the one-off cost of adding
keyword search to an existing index; no embedding; the same sync stores the background sample). Then the vector
and hybrid questions of bench/scale are retrieved, dense only (plain and centred on the table) and fused, with the
route's pre-filters: per retrieval the time of the dense search (`vector.search` span; centred, it also fetches the
candidates' stored vectors), the keyword search (`keyword.search`), the fusion (`fusion`: RRF, and scoring
keyword-only chunks by their stored vectors), the question's background similarity (`background`, for "nothing
relevant") and the whole `retrieve` call. The question is embedded once per question beforehand (a
cache), so the figures are the search cost alone.
"""

from __future__ import annotations

import argparse
import shutil
import time
from typing import Any

from bench.common import WORK_DIR, load_span, machine_info, measured, stamp, summary, write_results
from bench.scale.corpus import QUESTIONS, db_path, index_dir, settings_for
from rag import tracing
from rag.answer.context import RetrievalOptions
from rag.answer.filters import chroma_filters, structured_only
from rag.answer.retrieval import retrieve
from rag.models import Trace

STAND_IN = "hashing"
WORK = WORK_DIR / "retrieval_latency"


def prepare(rows: int) -> tuple[Any, dict[str, Any]]:
    """An assistant over a copy of bench/scale's index with its keyword index filled; the fill's record."""
    from rag.assistant import Assistant

    source_dir = index_dir(rows, STAND_IN)
    if not source_dir.exists() or not db_path(rows).exists():
        raise SystemExit(f"no {rows:,}-article corpus: run `.venv/bin/python -m bench.scale.build --sizes {rows}`")
    target = WORK / source_dir.name
    if target.exists():
        shutil.rmtree(target)
    WORK.mkdir(parents=True, exist_ok=True)
    shutil.copytree(source_dir, target)
    settings = settings_for(rows, STAND_IN).replace(index_dir=str(target))
    assistant = Assistant.build(settings)
    fill: dict[str, Any] = {}
    with measured(fill):
        report = assistant.context.index.sync(assistant.context.source)
    fill.update(rows_copied=report.keyword_rows_copied, embedded_rows=report.new + report.changed,
                keyword_chunks=assistant.context.index.keywords.count(),
                keyword_file_mb=round(assistant.context.index.keywords.path.stat().st_size / 2**20, 1))
    return assistant, fill


class CachedEmbeddings:
    """Each question embedded once, so repeated retrievals time the search only."""

    def __init__(self, model: Any) -> None:
        self.model, self.cache = model, {}
        self.model_name = model.model_name

    def get_query_embedding(self, text: str) -> list[float]:
        if text not in self.cache:
            self.cache[text] = self.model.get_query_embedding(text)
        return self.cache[text]


def measure(assistant: Any, repeats: int) -> dict[str, Any]:
    context = assistant.context
    context.vector_index()  # built with the real embedding adapter, before the cache replaces it
    context.embed_model = CachedEmbeddings(context.embed_model)  # type: ignore[assignment]
    searches = []  # (route, question, plan, filters, restrict_keys) as the route's engine would search
    for route in ("vector", "hybrid"):
        for question in QUESTIONS[route]:
            plan = context.planner.plan(question)
            keys = None
            if plan.route()[0].value == "hybrid":  # the SQL-selected rows, as the hybrid engine selects them
                run = context.database.execute(context.sql_builder.row_keys_sql(plan, context.source.key_columns),
                                               max_rows=50_000)
                keys = [context.source.key_of(dict(zip(run.result.columns, row, strict=True)))
                        for row in run.result.rows]
                _, _, filters = chroma_filters(structured_only(plan), with_dates=False)
            else:
                _, _, filters = chroma_filters(plan, with_dates=True)
            searches.append((route, question, plan, filters, keys))
    samples: dict[str, dict[str, list[float]]] = {}
    for _ in range(repeats + 1):  # the first pass warms caches and is not counted
        for route, question, plan, filters, keys in searches:
            for name, options in (("dense, plain", RetrievalOptions(mode="dense", centring=0.0)),
                                  ("dense", RetrievalOptions(mode="dense")), ("fused", RetrievalOptions())):
                trace = Trace(question=question)
                with tracing.recording(trace):
                    started = time.perf_counter()
                    retrieve(context, plan, filters, keys, options=options)
                    total = (time.perf_counter() - started) * 1000
                bucket = samples.setdefault(f"{route} {name}", {"retrieve": [], "vector.search": [],
                                                                "keyword.search": [], "fusion": [], "background": []})
                if _ == 0:
                    continue
                bucket["retrieve"].append(total)
                for span in trace.spans:
                    if span.name in ("vector.search", "keyword.search", "fusion", "background"):
                        bucket[span.name].append(span.duration_ms)
    figures = {name: {step: summary(values) for step, values in steps.items() if values}
               for name, steps in samples.items()}
    for route in ("vector", "hybrid"):
        plain, dense = samples[f"{route} dense, plain"]["retrieve"], samples[f"{route} dense"]["retrieve"]
        fused, background = samples[f"{route} fused"]["retrieve"], samples[f"{route} dense"]["background"]
        figures[f"{route} extra (dense - plain dense: centring)"] = {
            "retrieve": summary([d - p for d, p in zip(dense, plain, strict=True)])}
        extra = [f - d for f, d in zip(fused, dense, strict=True)]
        figures[f"{route} extra (fused - dense)"] = {"retrieve": summary(extra)}
        # everything issue 14 added to a retrieval: centring, keyword search + fusion, and the background similarity
        figures[f"{route} extra (fused - plain dense + background)"] = {
            "retrieve": summary([f - p + b for f, p, b in zip(fused, plain, background, strict=True)])}
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,000 articles, one repeat")
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    rows, repeats = (2_000, 1) if args.quick else (args.rows, args.repeats)
    record: dict[str, Any] = {"rows": rows, "repeats": repeats, "questions": {r: len(QUESTIONS[r])
                                                                              for r in ("vector", "hybrid")}}
    with measured(record):
        assistant, record["keyword_fill"] = prepare(rows)
        record["figures"] = measure(assistant, repeats)
    record["machine"] = machine_info(libraries=False)
    stamp(record)
    path = write_results("retrieval_latency", record, render_markdown(record), quick=args.quick)
    print(path.read_text())
    return 0


def render_markdown(record: dict[str, Any]) -> str:
    fill = record["keyword_fill"]
    lines = ["# Centring, keyword search and fusion: the extra retrieval cost", "",
             f"Generated by `bench/retrieval_latency.py` on {record['measured_at']} (commit "
             f"{record['git']['commit']}); {record['rows']:,} synthetic articles (bench/scale's corpus, hashing "
             f"stand-in vectors), {record['questions']['vector']} vector and {record['questions']['hybrid']} hybrid "
             f"questions x {record['repeats']} repeats after a warm-up pass, the question's embedding cached; "
             f"{record['machine']['cpu_count']} cores, load {load_span(record)}.", "",
             f"Filling the keyword index of the existing index (no embedding): {fill['rows_copied']:,} rows, "
             f"{fill['keyword_chunks']:,} chunks in {fill['wall_s']:.1f} s; the side file is "
             f"{fill['keyword_file_mb']} MB.", "",
             "| retrieval | step | n | p50 ms | p95 ms | max ms |", "|---|---|---:|---:|---:|---:|"]
    for name, steps in record["figures"].items():
        for step, s in steps.items():
            lines.append(f"| {name} | `{step}` | {s['n']} | {s['p50_ms']} | {s['p95_ms']} | {s['max_ms']} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
