"""How far the fusion of the dense and BM25 rankings is from the best any fusion of them could do, on the dev questions.

Usage: .venv/bin/python -m bench.fusion_replay [--tables news,tickets,reviews,contracts]
Writes bench/results/fusion_replay.json and .md.

Every retrieval case of eval/<table>/dev.yaml is asked once through the offline assistant, so the route's own
pre-filters and SQL-selected rows apply; the trace's `vector.search` and `keyword.search` spans give the two rankings
the product fused (top_k x FUSION_DEPTH documents each, with their cosine similarity and BM25 score). Fusion rules are
then replayed on those same lists: the shipped one (`rag.answer.retrieval.fuse`), plain RRF with other constants,
convex combinations of normalised scores, each search's top few kept first, and the ceiling (a relevant document in
either search's top k), so a rule is judged on exactly what the product retrieved.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from bench.common import load_span, machine_info, measured, stamp, write_results
from bench.retrieval_common import TABLES, assistant_for, dev_cases
from rag.answer.retrieval import fuse, rrf
from rag.evaluation.metrics import hit_at_k

Lists = tuple[list[tuple[str, float]], list[tuple[str, float]]]  # (dense, keyword): (row key, score), best first


def rankings(turn: Any) -> Lists | None:
    """The dense and keyword rankings the turn's (last) retrieval fused; None when it retrieved nothing."""
    spans = {s.name: s.attributes for s in turn.trace.spans if s.name in ("vector.search", "keyword.search")}
    if not spans:
        return None
    dense = [(r["row_key"], r.get("centred", r["score"])) for r in spans.get("vector.search", {}).get("results", [])]
    keyword = [(r["row_key"], r["bm25"]) for r in spans.get("keyword.search", {}).get("results", [])]
    return dense, keyword


def keys(ranked: Sequence[tuple[str, float]]) -> list[str]:
    return [key for key, _ in ranked]


def convex(alpha: float, norm: str) -> Callable[[Lists, int], list[str]]:
    """alpha x dense + (1 - alpha) x BM25, each normalised over its list (min-max, or by its maximum); a document
    missing from a list scores 0 there; only documents in a search's top k are shown, as the shipped rule does."""
    def scaled(ranked: Sequence[tuple[str, float]]) -> dict[str, float]:
        if not ranked:
            return {}
        values = [score for _, score in ranked]
        low, high = (min(values), max(values)) if norm == "minmax" else (0.0, max(values))
        return {key: (score - low) / (high - low) if high > low else 1.0 for key, score in ranked}

    def rule(lists: Lists, top_k: int) -> list[str]:
        dense, keyword = scaled(lists[0]), scaled(lists[1])
        shown = set(keys(lists[0])[:top_k]) | set(keys(lists[1])[:top_k])
        score = {key: alpha * dense.get(key, 0.0) + (1 - alpha) * keyword.get(key, 0.0) for key in shown}
        return sorted(shown, key=lambda key: -score[key])
    return rule


def plain_rrf(constant: int) -> Callable[[Lists, int], list[str]]:
    """RRF over the full lists with the given constant, without the shipped top-k rule."""
    return lambda lists, top_k: rrf([keys(lists[0]), keys(lists[1])], constant)


def tops_first(first: int) -> Callable[[Lists, int], list[str]]:
    """Each search's top `first` documents before the rest, in RRF order."""
    def rule(lists: Lists, top_k: int) -> list[str]:
        order = fuse([keys(lists[0]), keys(lists[1])], top_k)
        kept = set(keys(lists[0])[:first]) | set(keys(lists[1])[:first])
        return [key for key in order if key in kept] + [key for key in order if key not in kept]
    return rule


def top(rule: Callable[[Lists, int], list[str]]) -> Callable[[Lists, int], list[str]]:
    """The rule's first top_k documents: what an answer shows."""
    return lambda lists, top_k: rule(lists, top_k)[:top_k]


RULES: dict[str, Callable[[Lists, int], list[str]]] = {  # each gives the documents an answer would show
    "shipped: RRF k=60, a document in either search's top k": top(lambda lists, k: fuse([keys(lists[0]),
                                                                                       keys(lists[1])], k)),
    "dense alone": top(lambda lists, k: keys(lists[0])),
    "keyword alone": top(lambda lists, k: keys(lists[1])),
    **{f"plain RRF k={constant}": top(plain_rrf(constant)) for constant in (2, 5, 10, 20, 60)},
    **{f"convex {norm} dense weight {a}": top(convex(a, norm)) for norm in ("minmax", "max")
       for a in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)},
    "each search's first kept": top(tops_first(1)),
    "each search's top 3 kept": top(tops_first(3)),
    # (not one answer: up to twice top_k documents, the most any fusion of the two lists could show)
    "ceiling: either search's top k": lambda lists, k: keys(lists[0])[:k] + keys(lists[1])[:k],
}


def identifiers(assistant: Any) -> dict[str, tuple[str, str, str]]:
    """(url, title, row key) of every row, as `rag eval` matches a relevant document, from the keyword index."""
    roles = assistant.context.source.roles
    with sqlite3.connect(assistant.context.index.keywords.path) as connection:
        rows = connection.execute("SELECT row_key, metadata FROM chunks WHERE chunk = 0").fetchall()
    found = {}
    for row_key, metadata in rows:
        values = json.loads(metadata)
        found[row_key] = (str(values.get(roles.url, "")) if roles.url else "",
                          str(values.get(roles.title, "")) if roles.title else "", row_key)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default=",".join(TABLES))
    args = parser.parse_args(argv)
    record: dict[str, Any] = {"tables": {}}
    with measured(record):
        for name in args.tables.split(","):
            assistant = assistant_for(TABLES[name])
            top_k = assistant.context.settings.top_k
            ids = identifiers(assistant)
            found = {rule: 0 for rule in RULES}
            cases = 0
            for case in dev_cases(TABLES[name]):
                lists = rankings(assistant.ask(case.question))
                if lists is None:
                    continue
                cases += 1
                for rule, fused in RULES.items():
                    shown = [ids.get(key, ("", "", key)) for key in fused(lists, top_k)]
                    found[rule] += hit_at_k(shown, case.relevant, len(shown))
            record["tables"][name] = {"cases": cases, "top_k": top_k, "found": found}
            print(f"  [{name}] {cases} cases: shipped {found[next(iter(RULES))]}", flush=True)
    record["machine"] = machine_info()
    stamp(record)
    path = write_results("fusion_replay", record, render_markdown(record))
    print(path.read_text())
    return 0


def render_markdown(record: dict[str, Any]) -> str:
    tables = record["tables"]
    lines = [
        "# Fusion replayed on the product's own rankings (dev questions)", "",
        f"Generated by `bench/fusion_replay.py` on {record['measured_at']} (commit {record['git']['commit']}); "
        f"{load_span(record)}. Each retrieval question of the dev sets asked once through the offline assistant; "
        "the dense and BM25 rankings it fused (20 documents each, under the route's pre-filters) replayed under each "
        "rule. Cell: questions with a relevant document in the rule's top 5.", "",
        "| rule | " + " | ".join(tables) + " | all |", "|---|" + "---:|" * (len(tables) + 1)]
    total_cases = sum(t["cases"] for t in tables.values())
    for rule in RULES:
        cells = [str(t["found"][rule]) for t in tables.values()]
        lines.append(f"| {rule} | " + " | ".join(cells) + f" | {sum(t['found'][rule] for t in tables.values())} |")
    lines.append("| questions | " + " | ".join(str(t["cases"]) for t in tables.values()) + f" | {total_cases} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
