"""Every scale measurement in one process: throughput and cold start once, then per size the index build, filters,
queries and strategies, then memory at the largest size (or `--memory-size`).

Usage:
  .venv/bin/python -m bench.scale --quick                        # QUICK_SIZES, stand-in index (a few minutes)
  .venv/bin/python -m bench.scale                                # 1,000, 10,000 and 100,000 articles
  .venv/bin/python -m bench.scale --sizes 1000 10000 --skip memory
Results merge into bench/results/query_scale.json and .md (quick: bench/results/quick/).
"""

from __future__ import annotations

import argparse

from bench.common import stamp
from bench.scale import cold_start, filters, memory, queries, strategies, throughput
from bench.scale.corpus import Run, add_arguments

PER_SIZE = {filters.PART: filters.measure, queries.PART: queries.measure, strategies.PART: strategies.measure}
ONCE = {throughput.PART: throughput.measure, cold_start.PART: cold_start.measure}
PARTS = (*ONCE, *PER_SIZE, memory.PART)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_arguments(parser)
    memory.add_memory_arguments(parser)
    parser.add_argument("--skip", nargs="*", default=[], choices=PARTS, help="measurements not to run")
    args = parser.parse_args(argv)
    parts = [p for p in PARTS if p not in args.skip]
    run = Run.from_args(args, parts)
    for part, measure in ONCE.items():
        if part in parts:
            print(f"-- {part}", flush=True)
            run.data[part] = stamp(measure(run))
            run.save()
    for rows in run.sizes:
        entry = run.size(rows)
        for part, measure in PER_SIZE.items():
            if part in parts:
                print(f"-- {part} at {rows:,} articles", flush=True)
                entry[part] = stamp(measure(run, rows))
                run.save()
    if memory.PART in parts:
        print("-- memory", flush=True)
        memory.run_memory(run, args)
    run.finish()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
