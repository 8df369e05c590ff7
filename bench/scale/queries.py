"""Query latency per route: ~10 questions per route (sql, vector, hybrid) through `Assistant.ask`, offline provider.

After one warm-up question per route (timed, not counted), every question is asked `repeats` times; reported per
route: p50/p95/max of the trace total, of wall time and of this process's CPU time; medians per step; per-question
medians; misrouted questions; and a check that every retrieval turn embedded its question with the real model.
Usage: .venv/bin/python -m bench.scale.queries [--quick] [--sizes 1000 10000] [--repeats 3]
`--render-only` re-analyses the recorded turns and rewrites the Markdown, measuring nothing.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from bench.common import load_results, loadavg, measured, summary, timed_ms, write_results
from bench.scale.corpus import QUESTIONS, REAL_MODEL, RESULTS_NAME, Run, add_arguments, build_assistant

PART = "queries"
REPEATS, QUICK_REPEATS = 3, 1


def measure(run: Run, rows: int, repeats: int | None = None) -> dict[str, Any]:
    repeats = repeats or (QUICK_REPEATS if run.quick else REPEATS)
    record: dict[str, Any] = {"repeats": repeats, "questions_per_route": {r: len(q) for r, q in QUESTIONS.items()}}
    with measured(record):
        assistant, build_ms, _ = timed_ms(lambda: build_assistant(rows, run.embed(rows), run.embedders))
        record["assistant_build_s"] = round(build_ms / 1000, 2)
        record["first_answer_ms"] = {route: round(assistant.ask(questions[0]).trace.timings_ms["total"], 1)
                                     for route, questions in QUESTIONS.items()}
        turns: list[dict[str, Any]] = []
        for repeat in range(repeats):
            for expected, questions in QUESTIONS.items():
                for question in questions:
                    turn, wall_ms, cpu_ms = timed_ms(lambda q=question: assistant.ask(q))
                    turns.append({**turn_record(turn, expected, wall_ms, repeat), "cpu_ms": round(cpu_ms, 2)})
            print(f"  [queries {rows:,}] repeat {repeat + 1}/{repeats} done (load {loadavg()[0]})", flush=True)
    record.update(analyse_turns(turns))
    record["turns"] = turns
    for route, result in record["per_route"].items():
        print(f"  {route}: {result['trace_total']}", flush=True)
    return record


def turn_record(turn: Any, expected: str, wall_ms: float, repeat: int) -> dict[str, Any]:
    spans = turn.trace.spans
    searches = [s for s in spans if s.name == "vector.search"]
    return {"question": turn.question, "expected_route": expected, "route": turn.route, "repeat": repeat,
            "total_ms": round(turn.trace.timings_ms["total"], 2), "wall_ms": round(wall_ms, 2),
            "steps_ms": {k: v for k, v in turn.trace.timings_ms.items() if k != "total"},
            "error": turn.error,
            "query_embed_models": sorted({str(s.attributes.get("model")) for s in spans if s.name == "embed.query"}),
            "hybrid_row_keys": turn.result.restricted_row_keys,
            "chroma_batches": sum(int(s.attributes.get("batches", 0)) for s in searches),
            "results": len(turn.citations)}


def analyse_turns(turns: list[dict[str, Any]]) -> dict[str, Any]:
    """Per route, per step and per question figures from the recorded turns."""
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
        "query_embedding": {"models_seen_in_embed_query_spans": models, "retrieval_turns": len(embedded),
                            "all_retrieval_turns_used_real_model": bool(embedded) and all(
                                t["query_embed_models"] == [REAL_MODEL] for t in embedded)},
    }


def render_only(quick: bool) -> int:
    from bench.scale.report import render_markdown

    data = load_results(RESULTS_NAME, quick, {"sizes": {}})
    for size in data["sizes"].values():
        if "queries" in size:
            size["queries"].update(analyse_turns(size["queries"]["turns"]))
    print(write_results(RESULTS_NAME, data, render_markdown(data), quick).read_text())
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_arguments(parser)
    parser.add_argument("--repeats", type=int, default=None, help=f"default {REPEATS} ({QUICK_REPEATS} with --quick)")
    parser.add_argument("--render-only", action="store_true")
    args = parser.parse_args(argv)
    if args.render_only:
        return render_only(args.quick)
    run = Run.from_args(args, [PART])
    run.per_size(PART, lambda r, rows: measure(r, rows, args.repeats))
    run.finish()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
