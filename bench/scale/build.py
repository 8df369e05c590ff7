"""Index build per corpus size: seconds, seconds inside the embedder, chunks/s, peak memory.

Each size's synthetic database and index are built once under bench/work/query_scale/ and reused by the other
measurements; this module reports the recorded build, or builds again with `--rebuild`.
Usage: .venv/bin/python -m bench.scale.build [--quick] [--sizes 1000 10000] [--rebuild]
"""

from __future__ import annotations

import argparse

from bench.scale.corpus import Run, add_arguments

PART = "index"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_arguments(parser)
    run = Run.from_args(parser.parse_args(argv), [PART])
    for rows in run.sizes:
        run.size(rows)
    run.finish()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
