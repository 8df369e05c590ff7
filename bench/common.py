"""What every benchmark shares: paths, load averages, machine description, timers, percentiles, results files.

Benchmarks run as modules from the repository root (`.venv/bin/python -m bench.ingest`, `-m bench.scale`), so
`bench` and `rag` import without any sys.path manipulation; child processes are started the same way (`-m`,
cwd = ROOT). Every script takes `--quick` (small sizes, a smoke run of a few minutes at most); quick runs write
to bench/results/quick/ so they never overwrite the full results in bench/results/.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from rag.evaluation.metrics import percentile

ROOT = Path(__file__).resolve().parent.parent
RESULTS_DIR = ROOT / "bench" / "results"
WORK_DIR = ROOT / "bench" / "work"


def quiet_libraries() -> None:
    """No telemetry from Chroma; no "sequence longer than 256" warnings when the tokenizer counts long texts."""
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


quiet_libraries()


# ----------------------------------------------------------------------------- results files

def results_dir(quick: bool = False) -> Path:
    """bench/results/, or bench/results/quick/ for `--quick` runs."""
    directory = RESULTS_DIR / "quick" if quick else RESULTS_DIR
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def load_results(name: str, quick: bool = False, default: dict[str, Any] | None = None) -> dict[str, Any]:
    """The recorded `<name>.json` (for scripts that merge runs into it), or `default`."""
    path = results_dir(quick) / f"{name}.json"
    if path.exists():
        with contextlib.suppress(ValueError):
            return json.loads(path.read_text())
    return dict(default or {})


def write_results(name: str, data: dict[str, Any], markdown: str, quick: bool = False) -> Path:
    """Write `<name>.json` and `<name>.md` side by side; returns the Markdown path."""
    directory = results_dir(quick)
    (directory / f"{name}.json").write_text(json.dumps(data, indent=2, default=str) + "\n")
    path = directory / f"{name}.md"
    path.write_text(markdown if markdown.endswith("\n") else markdown + "\n")
    return path


# ----------------------------------------------------------------------------- machine and load

def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def now() -> str:
    return datetime.now().isoformat(timespec="seconds")


def load_span(record: dict[str, Any]) -> str:
    """"3.1 → 4.0": the 1-minute load average at the start and end of a measured block."""
    start, end = record.get("loadavg_start"), record.get("loadavg_end")
    return f"{start[0]:.1f} → {end[0]:.1f}" if start and end else "?"


def machine_info(libraries: bool = True) -> dict[str, Any]:
    """Cores, CPU, memory, Python; with `libraries`, the versions of torch, sentence-transformers and chromadb
    (importing torch takes seconds: scripts that never embed pass False)."""
    cpu_model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    memory_mb = None
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory_mb = round(int(line.split()[1]) / 1024)
    info: dict[str, Any] = {"cpu_count": os.cpu_count(), "cpu_model": cpu_model, "memory_mb": memory_mb,
                            "platform": platform.platform(), "python": platform.python_version()}
    import chromadb

    info["chromadb"] = chromadb.__version__
    if libraries:
        import sentence_transformers
        import torch

        info.update(torch=torch.__version__, torch_threads=torch.get_num_threads(),
                    sentence_transformers=sentence_transformers.__version__)
    return info


def describe_machine(machine: dict[str, Any]) -> str:
    """One sentence for the top of a results file."""
    torch = (f", torch {machine['torch']} ({machine.get('torch_threads')} threads)" if machine.get("torch") else "")
    return (f"{machine.get('cpu_count')} cores ({machine.get('cpu_model')}), {machine.get('memory_mb')} MB RAM; "
            f"Python {machine.get('python')}{torch}, chromadb {machine.get('chromadb')}")


def git_state() -> dict[str, Any]:
    """The commit measured, and whether rag/ had uncommitted changes at the time."""
    def run(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    return {"commit": run("rev-parse", "--short", "HEAD"),
            "rag_uncommitted": [line[3:] for line in run("status", "--porcelain", "rag").splitlines()]}


def stamp(record: dict[str, Any]) -> dict[str, Any]:
    """Adds when (measured_at) and on which code (git) a record was measured."""
    record.update(measured_at=now(), git=git_state())
    return record


def clean_env(**extra: str) -> dict[str, str]:
    """The environment for a child process: none of the caller's RAG_/CHROMA_/Gemini/Streamlit settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAG_", "GOOGLE_API_KEY", "CHROMA_", "STREAMLIT_"))}
    env.update({"ANONYMIZED_TELEMETRY": "False", "PYTHONUNBUFFERED": "1", "TRANSFORMERS_VERBOSITY": "error"}, **extra)
    return env


# ----------------------------------------------------------------------------- timers and statistics

@contextlib.contextmanager
def measured(record: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Adds load averages at start and end and the wall seconds of the block to `record`."""
    record["loadavg_start"] = loadavg()
    started = time.perf_counter()
    try:
        yield record
    finally:
        record["wall_s"] = round(time.perf_counter() - started, 3)
        record["loadavg_end"] = loadavg()


def timed_ms(function: Callable[[], Any]) -> tuple[Any, float, float]:
    """(result, wall ms, CPU ms of this process) of one call."""
    started, cpu_started = time.perf_counter(), time.process_time()
    result = function()
    return result, (time.perf_counter() - started) * 1000, (time.process_time() - cpu_started) * 1000


def pct(values: Sequence[float], share: float) -> float:
    """Percentile for a share in 0..1 (rag.evaluation.metrics.percentile: linear interpolation)."""
    value = percentile(values, share * 100)
    return float("nan") if value is None else value


def summary(values: Sequence[float]) -> dict[str, Any]:
    """n, p50, p95 and max of millisecond timings."""
    if not values:
        return {"n": 0}
    return {"n": len(values), "p50_ms": round(pct(values, 0.5), 1), "p95_ms": round(pct(values, 0.95), 1),
            "max_ms": round(max(values), 1)}


def progress_printer(label: str, every_s: float = 30.0) -> Callable[[Any], None]:
    """A `VectorIndex.sync` progress callback that prints at most every `every_s` seconds, and at the end."""
    started = time.perf_counter()
    last = [0.0]

    def progress(update: Any) -> None:
        elapsed = time.perf_counter() - started
        if elapsed - last[0] >= every_s or update.phase == "done":
            last[0] = elapsed
            print(f"  [{label}] {update.phase} {update.done:,}/{update.total:,} rows after {elapsed:,.0f} s "
                  f"(load {loadavg()[0]})", flush=True)
    return progress


# ----------------------------------------------------------------------------- memory

def status_kb(pid: int | str, field: str) -> int:
    """A kB field of /proc/PID/status (VmRSS, VmHWM); 0 when unreadable."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


class RssSampler:
    """Samples VmRSS of `pid` every `interval` seconds in a daemon thread.

    Keeps the overall peak, the peak per phase (`set_phase`) and a timeline of `mark`s."""

    def __init__(self, pid: int | str = "self", interval: float = 0.25, phase: str = "start") -> None:
        self.pid, self.interval, self.phase = pid, interval, phase
        self.peak_kb = 0
        self.peaks_kb: dict[str, int] = {}
        self.samples = 0
        self.marks: list[dict[str, Any]] = []
        self.started = time.perf_counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="rss-sampler")

    def _sample(self) -> int:
        rss = status_kb(self.pid, "VmRSS")
        self.peak_kb = max(self.peak_kb, rss)
        self.peaks_kb[self.phase] = max(self.peaks_kb.get(self.phase, 0), rss)
        return rss

    def _run(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self.samples += 1
            self._stop.wait(self.interval)

    def set_phase(self, phase: str) -> None:
        self._sample()  # the end of the previous phase
        self.phase = phase
        self._sample()

    def mark(self, label: str) -> None:
        """Record the RSS now and the peak so far under `label` (a point on the timeline)."""
        rss = self._sample()
        self.marks.append({"at_s": round(time.perf_counter() - self.started, 1), "event": label,
                           "rss_mb": round(rss / 1024), "peak_so_far_mb": round(self.peak_kb / 1024)})

    def peak_mb(self, phase: str | None = None) -> float:
        return (self.peak_kb if phase is None else self.peaks_kb.get(phase, 0)) / 1024

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()
