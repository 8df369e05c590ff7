"""A learned "nothing relevant" rule against the calibrated one, on the dev questions of every table.

Usage: .venv/bin/python -m bench.retrieval_learned_rule [--tables news,tickets,reviews,contracts]
Writes bench/results/retrieval_learned_rule.json and .md.

Every retrieval and no-answer case of eval/<table>/dev.yaml is asked once through the offline assistant; its trace
gives the signals a rule could use: the calibrated rule's own inputs (best similarity, background, topic mentioned,
support, restricted, small set), the dense search's top 20 (the centred similarity the search ranked by, its gaps to
the 5th and to the mean of the top 20, the spread; the plain similarities' mean and spread), the BM25 list (hits, top
score, its gap to the 5th) and the agreement of the dense and keyword top 5. A logistic regression on those signals
(standardised, L2-penalised, fitted by Newton's method in numpy) is scored three ways: fitted and scored on all dev
questions, and leave-one-table-out (fitted on three tables, scored on the fourth: the case of a new table). Positive =
"nothing relevant". Only dev questions are read.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from bench.common import load_span, machine_info, measured, stamp, write_results
from bench.retrieval_calibration import confusion, rates
from bench.retrieval_common import TABLES, assistant_for, dev_cases

SIGNALS = ("best", "background", "mentioned", "support", "restricted", "small_set", "centred_top", "centred_gap_5",
           "centred_gap_mean", "centred_spread", "plain_mean", "plain_spread", "keyword_hits", "keyword_top",
           "keyword_gap_5", "both_top_5", "shared_top_5")
PENALTY = 1.0  # L2 on the standardised weights


def signals(turn: Any) -> dict[str, float] | None:
    """The signals of one answered-from-chunks turn; None when retrieval did not decide (an SQL route)."""
    spans = {s.name: s.attributes for s in turn.trace.spans}
    decided = [s.attributes for s in turn.trace.spans if s.name == "synthesize" and "best_score" in s.attributes]
    if not decided:
        return None
    rule = decided[-1]
    dense = spans.get("vector.search", {}).get("results") or []
    plain = sorted((r["score"] for r in dense), reverse=True)
    centred = [r.get("centred", r["score"]) for r in dense]
    keyword = spans.get("keyword.search", {}).get("results") or []
    bm25 = [-r["bm25"] for r in keyword]  # (FTS5's bm25 is negative, lower is better)
    fused = spans.get("fusion", {}).get("results") or []

    def padded(values: list[float], size: int = 20) -> list[float]:
        return (values + [values[-1] if values else 0.0] * size)[:size]

    c, p = padded(centred), padded(plain)
    return {"best": rule["best_score"], "background": rule.get("background") or 0.0,
            "mentioned": float(bool(rule["topic_mentioned"])),
            "support": rule["support"] if rule.get("support") is not None else float(rule["relevant"]),
            "restricted": float(turn.route == "hybrid" or bool(turn.result.filters)),
            "small_set": float(0 < (rule.get("selected_rows") or 0) <= 5),
            "centred_top": c[0], "centred_gap_5": c[0] - c[4], "centred_gap_mean": c[0] - float(np.mean(c[1:])),
            "centred_spread": float(np.std(c)), "plain_mean": float(np.mean(p)), "plain_spread": float(np.std(p)),
            "keyword_hits": float(len(keyword)), "keyword_top": bm25[0] if bm25 else 0.0,
            "keyword_gap_5": bm25[0] - bm25[min(4, len(bm25) - 1)] if bm25 else 0.0,
            "both_top_5": float(sum(1 for r in fused if (r.get("dense_rank") or 99) <= 5
                                    and (r.get("keyword_rank") or 99) <= 5)),
            "shared_top_5": float(len({r["row_key"] for r in dense[:5]} & {r["row_key"] for r in keyword[:5]})),
            "said_relevant": float(bool(rule["relevant"]))}


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean, scale, weights with the intercept first) of an L2-penalised logistic regression, by Newton's method."""
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    weights = np.zeros(z.shape[1])
    penalty = np.eye(z.shape[1]) * PENALTY
    penalty[0, 0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-z @ weights))
        gradient = z.T @ (p - y) + penalty @ weights
        hessian = (z.T * (p * (1 - p))) @ z + penalty
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if np.abs(step).max() < 1e-8:
            break
    return mean, scale, weights


def predict(model: tuple[np.ndarray, np.ndarray, np.ndarray], x: np.ndarray) -> np.ndarray:
    mean, scale, weights = model
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    return (z @ weights > 0).astype(int)  # 1 = "nothing relevant"


def scored(cases: list[dict[str, Any]], nothing: np.ndarray) -> dict[str, Any]:
    """Confusion counts and rates of "nothing relevant" decisions (1 = said) on `cases`."""
    return confusion([{**c, "said_relevant": not said} for c, said in zip(cases, nothing, strict=True)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default=",".join(TABLES))
    args = parser.parse_args(argv)
    record: dict[str, Any] = {"signals": list(SIGNALS), "penalty": PENALTY, "tables": {}}
    cases: list[dict[str, Any]] = []
    with measured(record):
        for name in args.tables.split(","):
            assistant = assistant_for(TABLES[name])
            record["tables"][name] = {"cases_file": TABLES[name].cases}
            for case in dev_cases(TABLES[name], kinds=("retrieval", "no_answer")):
                found = signals(assistant.ask(case.question))
                if found is not None:
                    cases.append({"table": name, "id": case.id, "no_answer": case.no_answer, **found})
            print(f"  [{name}] {sum(c['table'] == name for c in cases)} dev questions answered from chunks", flush=True)
    x = np.array([[c[s] for s in SIGNALS] for c in cases], dtype=float)
    y = np.array([int(c["no_answer"]) for c in cases])
    tables = [c["table"] for c in cases]
    in_sample = predict(fit(x, y), x)
    left_out = np.zeros(len(cases), dtype=int)
    for name in record["tables"]:
        rows = np.array([t == name for t in tables])
        left_out[rows] = predict(fit(x[~rows], y[~rows]), x[rows])
    def with_rates(counts: dict[str, int]) -> dict[str, Any]:
        return {**counts, **rates(counts)}

    per_table = {}
    for name in record["tables"]:
        rows = np.array([t == name for t in tables])
        own = [c for c in cases if c["table"] == name]
        per_table[name] = {"rule": with_rates(confusion(own)),
                           "learned_table_left_out": with_rates(scored(own, left_out[rows]))}
    record["results"] = {"rule": with_rates(confusion(cases)),  # the calibrated rule, as the product decided
                         "learned_in_sample": with_rates(scored(cases, in_sample)),
                         "learned_table_left_out": with_rates(scored(cases, left_out)), "per_table": per_table}
    record["questions"] = len(cases)
    record["no_answer"] = int(y.sum())
    record["machine"] = machine_info()
    stamp(record)
    path = write_results("retrieval_learned_rule", record, render_markdown(record))
    print(path.read_text())
    return 0


def render_markdown(record: dict[str, Any]) -> str:
    results = record["results"]

    def row(label: str, figures: dict[str, Any]) -> str:
        return (f"| {label} | {figures['tp']} | {figures['fn']} | {figures['fp']} | {figures['tn']} | "
                f"{figures['fp'] + figures['fn']} | {figures['precision']} | {figures['recall']} |")

    lines = ["# A learned 'nothing relevant' rule against the calibrated one (dev questions)", "",
             f"Generated by `bench/retrieval_learned_rule.py` on {record['measured_at']} (commit "
             f"{record['git']['commit']}); offline provider, real embedding model; {record['questions']} dev questions "
             f"answered from retrieved chunks ({record['no_answer']} with no answer in the table). "
             f"{record['machine']['cpu_count']} cores, load {load_span(record)}.", "",
             f"Logistic regression (L2 {record['penalty']}, standardised) on: {', '.join(record['signals'])}. "
             "Positive = replying 'nothing relevant'.", "",
             "| rule | nothing relevant, right (TP) | answered although nothing exists (FN) | nothing relevant "
             "although an answer exists (FP) | answered, right (TN) | wrong | precision | recall |",
             "|---|---:|---:|---:|---:|---:|---:|---:|",
             row("the calibrated rule (as the product decided)", results["rule"]),
             row("learned, fitted and scored on all dev questions", results["learned_in_sample"]),
             row("learned, each table scored by a fit on the other three", results["learned_table_left_out"])]
    for name, kinds in results["per_table"].items():
        lines += [row(f"{name}: the calibrated rule", kinds["rule"]),
                  row(f"{name}: learned on the other three tables", kinds["learned_table_left_out"])]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
