"""Cold start on the sample corpus: a fresh process to the first answer, in phases (median of `--runs`).

The child (`python -c CHILD`, started from the repository root with a clean environment) imports rag, builds the
assistant, imports torch and sentence-transformers, loads the model, answers a semantic question, then a second.
Needs `make index` (the sample corpus indexed with the real model).
Usage: .venv/bin/python -m bench.scale.cold_start [--quick] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from typing import Any

from bench.common import ROOT, clean_env, loadavg, measured, stamp
from bench.scale.corpus import Run, add_arguments

PART = "cold_start"
RUNS, QUICK_RUNS = 3, 1
FIRST_QUESTION, SECOND_QUESTION = "What do we have about children?", "Trends in fashion"

CHILD = f"""
import json, time
t_main = time.time()
from rag.assistant import Assistant
from rag.settings import Settings
t_import = time.time()
assistant = Assistant.build(Settings.from_env(provider="offline"))
t_build = time.time()
import sentence_transformers  # noqa: F401  (torch)
t_torch = time.time()
assistant.providers.embedder.model
t_model = time.time()
turn = assistant.ask({FIRST_QUESTION!r})
t_first = time.time()
second = assistant.ask({SECOND_QUESTION!r})
t_second = time.time()
print(json.dumps({{"t_main": t_main, "t_import": t_import, "t_build": t_build, "t_torch": t_torch,
                  "t_model": t_model, "t_first": t_first, "t_second": t_second, "route": turn.route,
                  "error": turn.error, "citations": len(turn.citations), "second_route": second.route}}))
"""


def measure(run: Run, runs: int | None = None) -> dict[str, Any]:
    runs = runs or (QUICK_RUNS if run.quick else RUNS)
    record: dict[str, Any] = {"corpus": "sample (data/articles.db + data/chroma, real model)", "runs": []}
    with measured(record):
        for _ in range(runs):
            load = loadavg()
            t_spawn = time.time()
            done = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=clean_env(), capture_output=True,
                                  text=True, timeout=600)
            t_exit = time.time()
            if done.returncode != 0:
                record["runs"].append({"error": done.stderr[-2000:]})
                continue
            t = json.loads(done.stdout.strip().splitlines()[-1])
            record["runs"].append({
                "python_startup_s": round(t["t_main"] - t_spawn, 2),
                "import_rag_s": round(t["t_import"] - t["t_main"], 2),
                "assistant_build_s": round(t["t_build"] - t["t_import"], 2),
                "import_torch_sentence_transformers_s": round(t["t_torch"] - t["t_build"], 2),
                "model_load_s": round(t["t_model"] - t["t_torch"], 2),
                "first_answer_s": round(t["t_first"] - t["t_model"], 3),
                "second_answer_s": round(t["t_second"] - t["t_first"], 3),
                "process_start_to_first_answer_s": round(t["t_first"] - t_spawn, 2),
                "process_exit_s": round(t_exit - t_spawn, 2), "route": t["route"], "error": t["error"],
                "citations": t["citations"], "loadavg_start": load})
    good = [r for r in record["runs"] if r.get("error") is None]
    if good:
        record["median"] = {k: round(statistics.median(r[k] for r in good), 3) for k in good[0] if k.endswith("_s")}
    print(f"  cold start: {record.get('median')}", flush=True)
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_arguments(parser)
    parser.add_argument("--runs", type=int, default=None, help=f"default {RUNS} ({QUICK_RUNS} with --quick)")
    args = parser.parse_args(argv)
    run = Run.from_args(args, [PART])
    run.data[PART] = stamp(measure(run, args.runs))
    run.finish()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
