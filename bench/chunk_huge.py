"""Chunking a huge row: time of chunk_text on a 5 MB text with max_chunks=50 (the index's per-row cap).

The cap cuts the text before it is split and tokenised, so the time should not depend on the row's size:
each size is timed with the deterministic hashing tokenizer and, when it loads, the real model's tokenizer.
tests/test_chunking.py checks the cut itself (how much text is tokenised), not the time.
Usage: .venv/bin/python bench/chunk_huge.py [--repeat 5]; prints the table and writes bench/work/chunk_huge.json.
Measured on the 2-core machine (median of 3): 0.005 s (hashing) and 0.036 s (all-MiniLM-L6-v2 tokenizer) for
0.5 MB and for 5 MB alike, against the 2 s the timed test used to allow.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rag.data.chunking import chunk_text  # noqa: E402
from rag.data.embeddings import HashingEmbedder  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "work" / "chunk_huge.json"  # bench/work/ is not committed
SIZES_MB = (0.05, 0.5, 5.0)


def sentences(chars: int) -> str:
    parts, total, i = [], 0, 0
    while total < chars:
        part = f"Sentence number {i} talks about topic {i % 7}."
        parts.append(part)
        total += len(part) + 1
        i += 1
    return " ".join(parts)


def timed(text: str, count_tokens, repeat: int) -> dict[str, float]:
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        chunks, truncated = chunk_text(text, max_tokens=200, overlap=40, count_tokens=count_tokens, max_chunks=50)
        runs.append(time.perf_counter() - started)
    return {"median_s": round(statistics.median(runs), 4), "max_s": round(max(runs), 4), "chunks": len(chunks),
            "truncated": truncated}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    tokenizers = {"hashing": HashingEmbedder().count_tokens}
    try:
        from rag.data.embeddings import SentenceTransformerEmbedder

        tokenizers["all-MiniLM-L6-v2"] = SentenceTransformerEmbedder().count_tokens
    except Exception as error:  # noqa: BLE001 - the model is optional for this measurement
        print(f"real tokenizer unavailable ({error}); hashing only", file=sys.stderr)
    results = {}
    for size in SIZES_MB:
        text = sentences(int(size * 1_000_000))
        for name, count_tokens in tokenizers.items():
            results[f"{size:g} MB, {name}"] = row = timed(text, count_tokens, args.repeat)
            print(f"{size:>5g} MB  {name:<18} median {row['median_s']:.3f} s  max {row['max_s']:.3f} s  "
                  f"{row['chunks']} chunks")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"machine": platform.platform(), "python": platform.python_version(),
                                   "repeat": args.repeat, "results": results}, indent=2) + "\n")
    print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
