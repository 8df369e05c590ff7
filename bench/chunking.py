"""Chunk size choice, measured: retrieval of facts buried deep in long articles, per chunk setting.

For each (size, overlap) setting the sample corpus is indexed with the real model into a scratch
directory, then every `long_fact` question of data/planted_facts.json is asked of the index
(global search, no filters). Reported per setting: document hit@1 and hit@5; whether a top-5 chunk
contains the buried fact (`answer` in the facts file) - the reason chunks exist; whether the offline
extractive answer quotes it; chunks built and index time.
Usage: .venv/bin/python bench/chunking.py [--settings 128:25,200:40,256:50]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rag.assistant import Assistant  # noqa: E402
from rag.data.index import VectorIndex  # noqa: E402
from rag.data.source import TableSource  # noqa: E402
from rag.providers import build_embedder  # noqa: E402
from rag.settings import PROJECT_ROOT, Settings  # noqa: E402

WORK = PROJECT_ROOT / "bench" / "work" / "chunking"
RESULTS = PROJECT_ROOT / "bench" / "results"


def evaluate(size: int, overlap: int, questions: list[dict]) -> dict:
    settings = Settings.from_env(index_dir=str(WORK / f"{size}-{overlap}"), chunk_tokens=size, chunk_overlap=overlap)
    shutil.rmtree(settings.index_dir, ignore_errors=True)
    embedder = build_embedder(settings)
    source = TableSource(settings.db_url, settings.table)
    index = VectorIndex(settings, embedder)
    started = time.perf_counter()
    report = index.sync(source)
    build_s = time.perf_counter() - started
    collection = index.collection()
    hit1 = hit5 = fact_chunk = fact_answer = 0
    assistant = Assistant.build(settings.replace(provider="offline"), source=source, index=index)
    for case in questions:
        vector = embedder.embed([case["question"]])[0]
        found = collection.query(query_embeddings=[vector], n_results=20, include=["metadatas", "documents"])
        urls = list(dict.fromkeys(metadata["url"] for metadata in found["metadatas"][0]))
        top = urls[:5]
        hit1 += bool(top) and top[0] == case["url"]
        hit5 += case["url"] in top
        fact_chunk += any(case["answer"] in document for document in found["documents"][0][:5])
        fact_answer += case["answer"] in assistant.ask(case["question"], route="vector").answer
    n = len(questions)
    return {"chunk_tokens": size, "overlap": overlap, "chunks": report.chunks_added, "build_s": round(build_s, 1),
            "hit@1": round(hit1 / n, 3), "hit@5": round(hit5 / n, 3), "fact_chunk@5": round(fact_chunk / n, 3),
            "fact_in_answer": round(fact_answer / n, 3),
            "questions": n}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--settings", default="128:25,200:40,256:50")
    args = parser.parse_args()
    facts = json.loads((PROJECT_ROOT / "data" / "planted_facts.json").read_text())
    questions = [f for f in facts if f["kind"] == "long_fact" and f.get("question") and f.get("answer")]
    rows = []
    for item in args.settings.split(","):
        size, overlap = (int(x) for x in item.split(":"))
        rows.append(evaluate(size, overlap, questions))
        print(rows[-1], flush=True)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "chunking.json").write_text(json.dumps({"load": os.getloadavg(), "results": rows}, indent=2))
    lines = ["| chunk tokens | overlap | chunks | doc hit@1 | doc hit@5 | fact chunk in top 5 | fact quoted in answer "
             "| build s |", "|---|---|---|---|---|---|---|---|"]
    lines += [f"| {r['chunk_tokens']} | {r['overlap']} | {r['chunks']} | {r['hit@1']} | {r['hit@5']} | "
              f"{r['fact_chunk@5']} | {r['fact_in_answer']} | {r['build_s']} |" for r in rows]
    (RESULTS / "chunking.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
