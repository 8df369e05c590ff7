"""Offline query latency on the sample corpus: engine time per route, p50/p95, after one warm-up question.

Usage: .venv/bin/python bench/query_latency.py [--repeat 5]
Writes bench/results/query_latency.json and .md. Needs `make index` (the real embedding model).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rag.assistant import Assistant  # noqa: E402
from rag.settings import Settings  # noqa: E402

QUESTIONS = [
    "How many articles per year and category?",
    "Average word count per category",
    "List politics articles",
    "Who writes the most articles?",
    "What do we have about children?",
    "Trends in fashion",
    "Anything about battery storage?",
    "Technology articles about crypto in 2023",
    "Doo ley ruling on 2023-04-17",
    "Between March and May 2023, anything about Mother's Day in fashion?",
]
RESULTS = Path(__file__).resolve().parent / "results"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    started = time.perf_counter()
    assistant = Assistant.build(Settings.from_env(provider="offline"))
    first = assistant.ask(QUESTIONS[4])
    cold_start_s = time.perf_counter() - started
    per_route: dict[str, list[float]] = {}
    without_embedding: dict[str, list[float]] = {}
    per_step: dict[str, list[float]] = {}
    for _ in range(args.repeat):
        for question in QUESTIONS:
            turn = assistant.ask(question)
            assert turn.error is None, (question, turn.error)
            timings = turn.trace.timings_ms
            per_route.setdefault(turn.route or "?", []).append(timings["total"])
            without_embedding.setdefault(turn.route or "?", []).append(timings["total"] - timings.get("embed.query", 0))
            for step, ms in turn.trace.timings_ms.items():
                per_step.setdefault(step, []).append(ms)
    summary = {
        route: {"n": len(v), "p50_ms": round(statistics.median(v), 1), "p95_ms": round(percentile(v, 0.95), 1),
                "p50_without_embedding_ms": round(statistics.median(without_embedding[route]), 1),
                "p95_without_embedding_ms": round(percentile(without_embedding[route], 0.95), 1)}
        for route, v in sorted(per_route.items())
    }
    steps = {step: round(statistics.median(v), 2) for step, v in sorted(per_step.items())}
    result = {
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(), "load": os.getloadavg()},
        "questions": QUESTIONS,
        "repeat": args.repeat,
        "cold_start_to_first_answer_s": round(cold_start_s, 2),
        "first_answer_ms": first.trace.timings_ms["total"],
        "per_route": summary,
        "median_step_ms": steps,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "query_latency.json").write_text(json.dumps(result, indent=2))
    lines = ["| route | questions | p50 ms | p95 ms | p50 ms without the question's embedding | p95 ms without it |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {route} | {s['n']} | {s['p50_ms']} | {s['p95_ms']} | {s['p50_without_embedding_ms']} | "
              f"{s['p95_without_embedding_ms']} |" for route, s in summary.items()]
    lines.append(f"\nMedian time embedding the question: {steps.get('embed.query', 0)} ms.")
    lines.append(f"\nCold start to first answer (model load included): {cold_start_s:.1f} s; "
                 f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.")
    (RESULTS / "query_latency.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
