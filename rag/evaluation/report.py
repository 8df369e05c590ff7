"""The evaluation report: figures summarised over scored cases, written as report.json and summary.md."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rag.evaluation.cases import ROUTES
from rag.evaluation.metrics import confusion_matrix, percentile, rate
from rag.settings import PROJECT_ROOT

if TYPE_CHECKING:
    from rag.evaluation.runner import CaseResult

DEFAULT_RESULTS = PROJECT_ROOT / "eval" / "results"

@dataclass
class EvalReport:
    meta: dict[str, Any]
    summary: dict[str, Any]
    cases: list[CaseResult]

    @property
    def failures(self) -> list[CaseResult]:
        return [c for c in self.cases if not c.passed]

    def to_dict(self) -> dict[str, Any]:
        return {"meta": self.meta, "summary": self.summary, "cases": [c.to_dict() for c in self.cases]}

    def summary_dict(self) -> dict[str, Any]:
        """What `python -m rag eval --json` prints: meta, figures and one line per failure."""
        return {"meta": self.meta, "summary": self.summary,
                "failures": [{"id": c.id, "question": c.question, "expected_route": c.expected_route,
                              "actual_route": c.actual_route, "reasons": c.failure_reasons} for c in self.failures]}


def _latency(values: Sequence[float]) -> dict[str, Any]:
    return {"n": len(values), "p50": percentile(values, 50), "p95": percentile(values, 95),
            "mean": round(sum(values) / len(values), 3) if values else None,
            "max": round(max(values), 3) if values else None}


def summarise(results: Sequence[CaseResult], k: int) -> dict[str, Any]:
    total = len(results)
    routed = sum(r.route_ok for r in results)
    by_route: dict[str, dict[str, Any]] = {}
    for route in ROUTES:
        group = [r for r in results if r.expected_route == route]
        by_route[route] = {"cases": len(group), "routing_accuracy": rate(sum(r.route_ok for r in group), len(group)),
                           "pass_rate": rate(sum(r.passed for r in group), len(group))}
    sql = [r for r in results if r.kind == "sql"]
    retrieval = [r for r in results if r.kind == "retrieval"]
    no_answer = [r for r in results if r.kind == "no_answer"]
    answerable = [r for r in results if r.kind not in ("no_answer", "explain") and not _expects_empty(r)]
    latency_by_route: dict[str, list[float]] = defaultdict(list)
    latency_by_step: dict[str, list[float]] = defaultdict(list)
    for r in results:
        if r.actual_route:
            latency_by_route[r.actual_route].append(r.latency_ms)
        for step, ms in r.timings_ms.items():
            if step != "total":
                latency_by_step[step].append(ms)
    calls = sum(r.llm_calls for r in results)
    tokens: Counter[str] = Counter()
    models: Counter[str] = Counter()
    for r in results:
        tokens.update(r.tokens)
        models.update(r.llm_models)
    hit_scores = [r.best_score for r in retrieval if r.hit and r.best_score is not None]
    empty_scores = [r.best_score for r in no_answer if r.best_score is not None]
    cost = round(sum(r.cost_usd for r in results), 6)
    return {
        "cases": total,
        "passed": sum(r.passed for r in results),
        "pass_rate": rate(sum(r.passed for r in results), total),
        "errors": sum(1 for r in results if r.error),
        "routing_accuracy": rate(routed, total),
        "routing_correct": routed,
        # without the one equivalence of routes (runner.same_search): the labels as written
        "routing_strict_correct": routed - sum(r.route_equivalent for r in results),
        "routing_equivalent": sum(r.route_equivalent for r in results),
        "confusion": confusion_matrix((r.expected_route, r.actual_route) for r in results),
        "by_route": by_route,
        "sql": {"cases": len(sql), "correct": sum(bool(r.sql_ok) for r in sql),
                "accuracy": rate(sum(bool(r.sql_ok) for r in sql), len(sql))},
        "retrieval": {"cases": len(retrieval), "k": k,
                      "hit_at_1": rate(sum(bool(r.hit_at_1) for r in retrieval), len(retrieval)),
                      "hit_at_k": rate(sum(bool(r.hit) for r in retrieval), len(retrieval)),
                      "recall_at_k": rate(sum(r.recall or 0.0 for r in retrieval), len(retrieval)),
                      "mrr": rate(sum(r.reciprocal_rank or 0.0 for r in retrieval), len(retrieval)),
                      # Where a 'nothing relevant' threshold could sit: best scores of hits vs of no-answer cases.
                      "best_score_when_hit": {"min": min(hit_scores, default=None),
                                              "p10": percentile(hit_scores, 10), "p50": percentile(hit_scores, 50)},
                      "best_score_when_no_answer": {"max": max(empty_scores, default=None),
                                                    "p50": percentile(empty_scores, 50)},
                      # The same cases retrieved as a stock pipeline would: whole question, no filters, same k.
                      "baseline": _baselines(retrieval),
                      # The product's retrieval with each search alone and fused (same route, filters and text).
                      "modes": _modes(retrieval)},
        "answers": {"answerable_cases": len(answerable),
                    "citation_rate": rate(sum(r.cited for r in answerable), len(answerable)),
                    "no_answer_rate_when_answer_exists": rate(sum(r.said_no_answer for r in answerable),
                                                               len(answerable)),
                    "no_answer_cases": len(no_answer),
                    "correct_no_answer_rate": rate(sum(r.said_no_answer for r in no_answer), len(no_answer)),
                    "nothing_relevant": _nothing_relevant(no_answer, retrieval)},
        "latency_ms": {"all": _latency([r.latency_ms for r in results if r.actual_route]),
                       "by_route": {route: _latency(latency_by_route.get(route, [])) for route in ROUTES},
                       "by_step": {step: _latency(values) for step, values in sorted(latency_by_step.items())}},
        "llm": {"calls": calls, "calls_per_question": rate(calls, total), "calls_by_model": dict(models),
                "tokens": {"prompt": tokens["prompt"], "completion": tokens["completion"], "total": tokens["total"]},
                "tokens_per_question": rate(tokens["total"], total),
                "cost_usd": cost, "cost_per_question_usd": round(cost / total, 6) if total else None},
        "failures": [r.id for r in results if not r.passed],
        "conversations": _conversations(results),
        # wrong SQL answers whose reading showed nothing wrong, among cases that state their reference SQL
        "silent_errors": {"judged": sum(r.silent is not None for r in results),
                          "count": sum(bool(r.silent) for r in results),
                          "cases": [r.id for r in results if r.silent]},
    }


def _conversations(results: Sequence[CaseResult]) -> dict[str, Any]:
    """Conversation cases: turns answered correctly, follow-ups built on the right turn, non-follow-ups kept apart."""
    turns = [r for r in results if r.conversation]
    ids = list(dict.fromkeys(r.conversation for r in turns))
    judged = [r for r in turns if r.follows_ok is not None]
    return {"cases": len(ids), "turns": len(turns), "turns_correct": sum(r.passed for r in turns),
            "turn_accuracy": rate(sum(r.passed for r in turns), len(turns)),
            "all_turns_correct": sum(all(r.passed for r in turns if r.conversation == i) for i in ids),
            "follow_up_links_judged": len(judged), "follow_up_links_correct": sum(bool(r.follows_ok) for r in judged)}


def _nothing_relevant(no_answer: Sequence[CaseResult], retrieval: Sequence[CaseResult]) -> dict[str, Any]:
    """'Nothing relevant' (or 'no rows match') as a decision: recall = share of no-answer questions answered so,
    precision = share of such replies to retrieval and no-answer questions that were right (an answer existed
    for none of them); every reply counts, whatever the route."""
    right = sum(r.said_no_answer for r in no_answer)
    wrong = sum(r.said_no_answer for r in retrieval)
    return {"no_answer_cases": len(no_answer), "right": right, "wrong": wrong,
            "precision": rate(right, right + wrong), "recall": rate(right, len(no_answer))}


def _modes(retrieval: Sequence[CaseResult]) -> dict[str, dict[str, Any]]:
    scored = [r for r in retrieval if r.modes]
    return {mode: {"cases": len(scored), "hit_at_1": rate(sum(bool(r.modes[mode]["hit_at_1"]) for r in scored),
                                                             len(scored)),
                   "hit_at_k": rate(sum(bool(r.modes[mode]["hit"]) for r in scored), len(scored)),
                   "mrr": rate(sum(r.modes[mode]["reciprocal_rank"] for r in scored), len(scored))}
            for mode in ("dense", "keyword", "fused") if scored and all(mode in r.modes for r in scored)}


def _baselines(retrieval: Sequence[CaseResult]) -> dict[str, dict[str, Any]]:
    modes = sorted({mode for r in retrieval for mode in r.baseline})
    figures = {}
    for mode in modes:
        scored = [r.baseline[mode] for r in retrieval if mode in r.baseline]
        figures[mode] = {"cases": len(scored), "hit_at_1": rate(sum(bool(b["hit_at_1"]) for b in scored), len(scored)),
                         "hit_at_k": rate(sum(bool(b["hit"]) for b in scored), len(scored)),
                         "mrr": rate(sum(b["reciprocal_rank"] for b in scored), len(scored))}
    return figures


def _expects_empty(result: CaseResult) -> bool:
    return result.kind == "sql" and result.expected_sql_result == []


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _scores(figures: dict[str, Any], *keys: str) -> str:
    return " / ".join("n/a" if figures.get(k) is None else f"{figures[k]:.2f}" for k in keys)


def _num(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}"


def _cell(text: Any, limit: int = 160) -> str:
    value = " ".join(str(text).split())
    value = value if len(value) <= limit else value[:limit] + "…"
    return value.replace("|", "\\|")


def summary_markdown(report: EvalReport) -> str:
    s, m = report.summary, report.meta
    lines = [
        "# Evaluation summary", "",
        f"Cases `{m['cases_file']}` (version {m['version']}) on table `{m['table']}` of `{m['db']}`; "
        f"provider {m['provider']}; embeddings {m['embed_model']}; k = {m['top_k']}; started {m['started_at']}, "
        f"{m['duration_s']} s (engine build {m['build_ms']} ms, warm-up {m['warm_up_ms']} ms, not in the latencies).",
        "",
    ]
    if m.get("warning"):
        lines += [f"**Warning:** {m['warning']}.", ""]
    answers, retrieval, sql = s["answers"], s["retrieval"], s["sql"]
    mrr = "n/a" if retrieval["mrr"] is None else f"{retrieval['mrr']:.3f}"
    lines += [
        "| Figure | Value |", "|---|---|",
        f"| Cases passed | {s['passed']} / {s['cases']} ({_pct(s['pass_rate'])}) |",
        f"| Routing accuracy | {_pct(s['routing_accuracy'])} ({s['routing_correct']} / {s['cases']}"
        + (f"; {s['routing_equivalent']} of them by the same search with metadata filters where hybrid was labelled"
           if s["routing_equivalent"] else "") + ") |",
        f"| SQL execution accuracy | {_pct(sql['accuracy'])} ({sql['correct']} / {sql['cases']}) |",
        f"| silent errors (wrong SQL answers whose reading looked right) | {s['silent_errors']['count']} of "
        f"{s['silent_errors']['judged']} judged |",
        f"| Retrieval hit@1 | {_pct(retrieval.get('hit_at_1'))} |",
        f"| Retrieval hit@{retrieval['k']} | {_pct(retrieval['hit_at_k'])} ({retrieval['cases']} cases) |",
        f"| Retrieval recall@{retrieval['k']} | {_pct(retrieval['recall_at_k'])} |",
        f"| Retrieval MRR | {mrr} |",
        *[f"| Baseline {mode} (whole question, no filters): hit@1 / hit@{retrieval['k']} / MRR | "
          f"{_pct(b['hit_at_1'])} / {_pct(b['hit_at_k'])} / {_num(b['mrr'])} ({b['cases']} cases) |"
          for mode, b in retrieval.get("baseline", {}).items()],
        *[f"| Product retrieval, {mode}{' (the answer)' if mode == 'fused' else ' alone'}: hit@1 / "
          f"hit@{retrieval['k']} / MRR | {_pct(b['hit_at_1'])} / {_pct(b['hit_at_k'])} / {_num(b['mrr'])} "
          f"({b['cases']} cases) |" for mode, b in retrieval.get("modes", {}).items()],
        f"| Citation rate (answerable) | {_pct(answers['citation_rate'])} |",
        f"| 'No answer' replies when an answer exists | {_pct(answers['no_answer_rate_when_answer_exists'])} |",
        f"| Correct 'no answer' when none exists | {_pct(answers['correct_no_answer_rate'])} "
        f"({answers['no_answer_cases']} cases) |",
        *([f"| 'Nothing relevant' replies: precision / recall | {_pct(nothing['precision'])} / "
           f"{_pct(nothing['recall'])} ({nothing['right']} right, {nothing['wrong']} to questions with an answer; "
           f"{nothing['no_answer_cases']} no-answer cases) |"] if (nothing := answers.get("nothing_relevant")) else []),
        f"| Errors | {s['errors']} |",
        *([f"| Conversation turns correct | {_pct(conv['turn_accuracy'])} ({conv['turns_correct']} / {conv['turns']} "
           f"turns of {conv['cases']} conversations; {conv['all_turns_correct']} conversations all correct; "
           f"{conv['follow_up_links_correct']} / {conv['follow_up_links_judged']} built on the right turn) |"]
          if (conv := s.get("conversations") or {}).get("turns") else []),
        f"| Best similarity: hits (min / p10 / p50) | "
        f"{_scores(retrieval['best_score_when_hit'], 'min', 'p10', 'p50')} |",
        f"| Best similarity: no-answer cases (max / p50) | "
        f"{_scores(retrieval['best_score_when_no_answer'], 'max', 'p50')} |",
        f"| LLM calls per question | {s['llm']['calls_per_question']} (by model: {s['llm']['calls_by_model'] or '-'}; "
        "'offline' is the deterministic SQL writer) |",
        f"| Tokens per question | {s['llm']['tokens_per_question']} |",
        f"| Estimated cost | ${s['llm']['cost_usd']:.4f} "
        f"(${s['llm']['cost_per_question_usd'] or 0:.6f} per question) |",
        "", "## Routing", "", "Confusion matrix (rows: expected route, columns: actual route).", "",
        "| expected \\ actual | " + " | ".join([*ROUTES, "none"]) + " |", "|---" * (len(ROUTES) + 2) + "|",
    ]
    for expected, row in s["confusion"].items():
        lines.append(f"| {expected} | " + " | ".join(str(row.get(c, 0)) for c in [*ROUTES, "none"]) + " |")
    lines += ["", "| Expected route | Cases | Routing accuracy | Pass rate |", "|---|---|---|---|"]
    for route, figures in s["by_route"].items():
        lines.append(f"| {route} | {figures['cases']} | {_pct(figures['routing_accuracy'])} | "
                     f"{_pct(figures['pass_rate'])} |")
    lines += ["", "## Latency (ms)", "", "| Route / step | n | p50 | p95 | max |", "|---|---|---|---|---|"]
    latency = s["latency_ms"]
    lines.append(f"| all | {latency['all']['n']} | {_ms(latency['all']['p50'])} | {_ms(latency['all']['p95'])} | "
                 f"{_ms(latency['all']['max'])} |")
    for route, figures in latency["by_route"].items():
        lines.append(f"| route {route} | {figures['n']} | {_ms(figures['p50'])} | {_ms(figures['p95'])} | "
                     f"{_ms(figures['max'])} |")
    for step, figures in latency["by_step"].items():
        lines.append(f"| step `{step}` | {figures['n']} | {_ms(figures['p50'])} | {_ms(figures['p95'])} | "
                     f"{_ms(figures['max'])} |")
    failures = report.failures
    lines += ["", f"## Failures ({len(failures)})", ""]
    if not failures:
        lines.append("None.")
    for r in failures:
        lines += [f"### `{r.id}` — {_cell(r.question, 200)}", "",
                  f"- expected route **{' / '.join(r.accepted_routes)}**, actual **{r.actual_route or 'none'}**; "
                  f"reason: {_cell(r.reason, 300)}"]
        lines += [f"- {_cell(reason, 600)}" for reason in r.failure_reasons]
        if r.sql:
            lines.append(f"- SQL: `{_cell(r.sql, 600)}`")
        if r.kind == "sql":
            lines.append(f"- expected: `{_cell(json.dumps(r.expected_sql_result, ensure_ascii=False), 600)}`")
        if r.retrieved:
            lines.append("- retrieved: " + "; ".join(f"{_cell(c['title'], 90)} ({c['score']:.2f})"
                                                     for c in r.retrieved))
        lines.append(f"- turn `{r.turn_id}` (full trace in report.json)")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def default_out_dir() -> Path:
    return DEFAULT_RESULTS / datetime.now().strftime("%Y%m%d-%H%M%S")


def write_report(report: EvalReport, out_dir: str | Path | None = None) -> dict[str, Path]:
    """Write `report.json` (everything, with the full turn of each failure) and `summary.md`."""
    out = Path(out_dir) if out_dir else default_out_dir()
    out.mkdir(parents=True, exist_ok=True)
    paths = {"report": out / "report.json", "summary": out / "summary.md"}
    paths["report"].write_text(json.dumps(report.to_dict(), indent=2, ensure_ascii=False, default=str) + "\n",
                               encoding="utf-8")
    paths["summary"].write_text(summary_markdown(report), encoding="utf-8")
    return paths
