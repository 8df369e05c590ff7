"""Sentence-level scoring of the retrieval candidates, measured against the product's fusion on the dev questions.

Usage: .venv/bin/python -m bench.retrieval_sentences [--tables news,tickets,reviews,contracts]
Writes bench/results/retrieval_sentences.json and .md.

A chunk's vector averages all its sentences, so one clause buried among others ("Neither party may solicit the
other's employees" inside a staffing contract) weighs little against the question. This benchmark asks whether
scoring each candidate by its best single sentence would find more right documents. Every retrieval case of
eval/<table>/dev.yaml is asked through the offline assistant (its route, pre-filters and SQL-selected rows apply);
the candidates are the documents of the dense and keyword searches (the trace's `vector.search` and
`keyword.search` results, 20 each); each candidate's best sentence (`rag.data.chunking.split_sentences`) is
scored by cosine similarity to the whole question with the index's own model. Rankings compared at hit@5:

- `product (fused)`: the product's answer (RRF of dense and keyword);
- `dense`, `keyword`: each search alone (the same candidates);
- `best sentence`: the candidates ordered by their best sentence;
- `RRF dense + keyword + sentence`: the sentence ranking as a third list of the product's fusion;
- `RRF max(chunk, sentence) + keyword`: the dense list re-ordered by the better of chunk and sentence score.
"""

from __future__ import annotations

import argparse
from typing import Any

from bench.common import load_span, machine_info, measured, stamp, write_results
from bench.retrieval_common import TABLES, assistant_for, dev_cases
from rag.answer.retrieval import RRF_K, rrf
from rag.data.chunking import split_sentences
from rag.evaluation.metrics import hit_at_k

RANKINGS = ("product (fused)", "dense", "keyword", "best sentence", "RRF dense + keyword + sentence",
            "RRF max(chunk, sentence) + keyword")


def span_results(turn: Any, name: str) -> list[dict[str, Any]]:
    spans = [s for s in turn.trace.spans if s.name == name]
    return list(spans[-1].attributes.get("results", [])) if spans else []


def rankings(assistant: Any, question: str) -> tuple[dict[str, list[str]], dict[str, tuple[str, str, str]]] | None:
    """The compared rankings of row keys for one question, and each candidate's (url, title, row_key); None when
    the question was not answered by a retrieval."""
    context = assistant.context
    turn = assistant.ask(question)
    dense, keyword = span_results(turn, "vector.search"), span_results(turn, "keyword.search")
    if not dense and not keyword:
        return None
    ids = list(dict.fromkeys(r["id"] for r in dense + keyword))
    got = context.vector_index().vector_store.client.get(ids=ids, include=["documents", "metadatas"])
    chunks = {i: (text or "", meta or {}) for i, text, meta in zip(got["ids"], got["documents"], got["metadatas"],
                                                                   strict=True)}
    roles = context.source.roles
    keys = {}
    sentences: dict[str, list[str]] = {}
    for result in dense + keyword:
        text, meta = chunks.get(result["id"], ("", {}))
        keys[result["row_key"]] = (str(meta.get(roles.url, "")) if roles.url else "",
                                   str(meta.get(roles.title, "")) if roles.title else "", result["row_key"])
        sentences.setdefault(result["row_key"], []).extend(split_sentences(text) or [text])
    flat = [(key, s) for key, group in sentences.items() for s in group]
    vectors = context.embed_model.get_text_embedding_batch([s for _, s in flat])
    query = context.embed_model.get_query_embedding(question)
    best: dict[str, float] = {}
    for (key, _), vector in zip(flat, vectors, strict=True):
        best[key] = max(best.get(key, -1.0), sum(a * b for a, b in zip(query, vector, strict=True)))
    dense_rows = list(dict.fromkeys(r["row_key"] for r in dense))
    keyword_rows = list(dict.fromkeys(r["row_key"] for r in keyword))
    chunk_score = {r["row_key"]: r["score"] for r in reversed(dense)}
    sentence_rows = sorted(best, key=lambda key: -best[key])
    better = sorted(dense_rows + [k for k in keyword_rows if k not in chunk_score],
                    key=lambda key: -max(chunk_score.get(key, 0.0), best.get(key, 0.0)))
    k = context.settings.top_k
    shown3 = {*dense_rows[:k], *keyword_rows[:k], *sentence_rows[:k]}
    shown2 = {*better[:k], *keyword_rows[:k]}
    product = [r["row_key"] for r in span_results(turn, "fusion")]
    return {"product (fused)": product, "dense": dense_rows, "keyword": keyword_rows, "best sentence": sentence_rows,
            "RRF dense + keyword + sentence": [x for x in rrf([dense_rows, keyword_rows, sentence_rows], RRF_K)
                                               if x in shown3],
            "RRF max(chunk, sentence) + keyword": [x for x in rrf([better, keyword_rows], RRF_K) if x in shown2]}, keys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default=",".join(TABLES))
    args = parser.parse_args(argv)
    record: dict[str, Any] = {"rankings": list(RANKINGS), "tables": {}}
    with measured(record):
        for name in args.tables.split(","):
            table = TABLES[name]
            assistant = assistant_for(table)
            k = assistant.settings.top_k
            hits = {ranking: 0 for ranking in RANKINGS}
            cases = 0
            for case in dev_cases(table):
                found = rankings(assistant, case.question)
                if found is None:
                    continue
                ranked, keys = found
                cases += 1
                for ranking, rows in ranked.items():
                    hits[ranking] += hit_at_k([keys.get(row, ("", "", row)) for row in rows], case.relevant, k)
            record["tables"][name] = {"cases_file": table.cases, "cases": cases, "hit_at_5": hits}
            print(f"  [{name}] {cases} cases: {hits}", flush=True)
    record["machine"] = machine_info()
    stamp(record)
    path = write_results("retrieval_sentences", record, render_markdown(record))
    print(path.read_text())
    return 0


def render_markdown(record: dict[str, Any]) -> str:
    tables = record["tables"]
    lines = ["# Best-sentence scoring of the candidates vs the product's fusion (dev questions)", "",
             f"Generated by `bench/retrieval_sentences.py` on {record['measured_at']} (commit "
             f"{record['git']['commit']}); real embedding model, offline provider; retrieval cases of "
             + ", ".join(f"`{t['cases_file']}`" for t in tables.values())
             + f". {record['machine']['cpu_count']} cores, load {load_span(record)}. hit@5 (documents):", "",
             "| ranking | " + " | ".join(tables) + " | all |", "|---|" + "---:|" * (len(tables) + 1)]
    total = sum(t["cases"] for t in tables.values())
    for ranking in record["rankings"]:
        cells = [f"{t['hit_at_5'][ranking]}/{t['cases']}" for t in tables.values()]
        lines.append(f"| {ranking} | " + " | ".join(cells)
                     + f" | {sum(t['hit_at_5'][ranking] for t in tables.values())}/{total} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
