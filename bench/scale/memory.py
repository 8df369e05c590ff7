"""Peak memory over one corpus size: `streamlit run app.py`, and a plain Python process with the same Assistant.

The app runs unmodified (offline provider, real query model) over the size's database and index (a stand-in
collection is copied and renamed to the real model's fingerprint, so the app opens it), driven by HTTP health checks
and, when Playwright and Debian's chromium are present, by APP_QUESTIONS typed into the chat; VmHWM and a sampled
RSS timeline are reported. The plain process asks every question of the query benchmark once.
Usage: .venv/bin/python -m bench.scale.memory [--quick] [--memory-size 10000]   (default: the largest size given)
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench.common import ROOT, RssSampler, clean_env, measured, stamp, status_kb
from bench.scale.corpus import (
    QUESTIONS,
    REAL_MODEL,
    WORK,
    Run,
    add_arguments,
    build_assistant,
    index_dir,
    make_embedders,
    query_index,
    settings_for,
)
from rag.data.index import VectorIndex

PART = "memory"
APP_QUESTIONS = ("How many articles per year and category?", "What do we have about children?",
                 "court rulings in 2021")
APP_TIMEOUT_S = 900.0
CHILD = "--child"


def app_index_dir(run: Run, rows: int) -> tuple[Path, str]:
    """An index directory the unmodified app can open with the real model.

    The app names its collection after the real model's fingerprint; a stand-in collection has another
    name. A copy of the directory gets its collection renamed (and its fingerprint metadata set) to the
    real model's, so the app answers over the same vectors and embeds questions with the real model."""
    embed = run.embed(rows)
    if embed == REAL_MODEL:
        return index_dir(rows, embed), "the real-model index itself"
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    source_dir = index_dir(rows, embed)
    target = source_dir.with_name(source_dir.name + "-app")
    stand_in = query_index(rows, embed, run.embedders)
    real = VectorIndex(settings_for(rows, REAL_MODEL).replace(index_dir=str(target)), run.embedders[REAL_MODEL],
                       client=object())
    built_at = json.loads(source_dir.with_suffix(".build.json").read_text()).get("built_at")
    marker = target / "renamed.json"
    if marker.exists() and json.loads(marker.read_text()) == {"from": stand_in.name, "to": real.name,
                                                               "built_at": built_at}:
        return target, f"copy of {source_dir.name} with the collection renamed to {real.name} (reused)"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source_dir, target)
    client = chromadb.PersistentClient(path=str(target), settings=ChromaSettings(anonymized_telemetry=False))
    collection = client.get_collection(stand_in.name)
    metadata = {**(collection.metadata or {}), **{k: str(v) for k, v in real.fingerprint().items()}}
    collection.modify(name=real.name, metadata=metadata)
    marker.write_text(json.dumps({"from": stand_in.name, "to": real.name, "built_at": built_at}))
    del client
    return target, f"copy of {source_dir.name} with the collection renamed to {real.name}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def app_memory(run: Run, rows: int, timeout_s: float) -> dict[str, Any]:
    """Peak RSS (VmHWM) of `streamlit run app.py` over this size, driven by health checks and chat questions."""
    record: dict[str, Any] = {"rows": rows, "questions": []}
    with measured(record):
        directory, how = app_index_dir(run, rows)
        record["index"] = how
        port = free_port()
        env = clean_env(RAG_DB_URL=settings_for(rows, REAL_MODEL).db_url, RAG_INDEX_DIR=str(directory),
                        RAG_EMBED_MODEL=REAL_MODEL, RAG_PROVIDER="offline")
        log_path = WORK / f"app-{rows}.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
                 "--server.address", "localhost", "--server.headless", "true", "--browser.gatherUsageStats", "false",
                 "--server.fileWatcherType", "none"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://localhost:{port}"
        try:
            with RssSampler(process.pid) as rss:
                record["health"] = wait_healthy(url, process, timeout_s)
                rss.mark("healthy")
                record["health_checks"] = [health(url) for _ in range(5)]
                rss.mark("after 5 health checks")
                record["browser"] = drive_browser(url, rss, record["questions"], timeout_s)
                record["vm_hwm_mb"] = round(status_kb(process.pid, "VmHWM") / 1024)
                record["vm_rss_end_mb"] = round(status_kb(process.pid, "VmRSS") / 1024)
            record["sampled_peak_rss_mb"] = round(rss.peak_kb / 1024)
            record["timeline"] = rss.marks
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        record["log_tail"] = log_path.read_text(errors="replace")[-1500:]
    return record


def health(url: str) -> float | None:
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as response:
            return round((time.perf_counter() - started) * 1000, 1) if response.status == 200 else None
    except OSError:
        return None


def wait_healthy(url: str, process: subprocess.Popen[bytes], timeout_s: float) -> dict[str, Any]:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout_s:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited with {process.returncode}")
        if health(url) is not None:
            return {"healthy_after_s": round(time.perf_counter() - started, 1)}
        time.sleep(0.5)
    raise RuntimeError(f"streamlit was not healthy after {timeout_s} s")


def drive_browser(url: str, rss: RssSampler, questions: list[dict[str, Any]], timeout_s: float) -> str:
    """Type APP_QUESTIONS into the chat with Playwright and Debian's chromium (never downloaded)."""
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        return "not driven: /usr/bin/chromium is missing"
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        return "not driven: playwright is not installed"
    timeout_ms = int(timeout_s * 1000)
    profile = WORK / "chromium-profile"
    shutil.rmtree(profile, ignore_errors=True)
    with sync_playwright() as p:
        browser = p.chromium.launch_persistent_context(
            str(profile), executable_path=str(chromium), headless=False,
            args=["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
            viewport={"width": 1600, "height": 1300})
        page = browser.pages[0] if browser.pages else browser.new_page()
        try:
            started = time.perf_counter()
            page.goto(url, wait_until="domcontentloaded")
            box = page.get_by_test_id("stChatInputTextArea")
            expect(box).to_be_visible(timeout=timeout_ms)  # the page rendered: the assistant was built
            rss.mark("chat page rendered (assistant built)")
            questions.append({"event": "page load", "seconds": round(time.perf_counter() - started, 1)})
            turn = page.get_by_test_id("stSidebar").get_by_role("combobox", name="Turn")
            for number, question in enumerate(APP_QUESTIONS, start=1):
                started = time.perf_counter()
                box.fill(question)
                box.press("Enter")
                expect(turn).to_have_value(re.compile(rf"^#{number} · "), timeout=timeout_ms)
                rss.mark(f"answered: {question}")
                questions.append({"question": question, "seconds": round(time.perf_counter() - started, 1),
                                  "turn": turn.input_value()})
        except Exception as error:  # noqa: BLE001 - report what was reached rather than failing the benchmark
            return f"partly driven: {type(error).__name__}: {str(error)[:300]}"
        finally:
            browser.close()
    return "driven: questions typed into the chat in headless chromium"


def child(rows: int, real_max_rows: int) -> int:
    """Child process: the Assistant of the query benchmark over this size; prints its VmHWM as JSON."""
    run = Run(quick=False, sizes=[rows], real_max_rows=real_max_rows, rebuild=False, data={},
              embedders=make_embedders())
    marks: dict[str, Any] = {"after_imports_mb": round(status_kb("self", "VmHWM") / 1024)}
    assistant = build_assistant(rows, run.embed(rows), run.embedders)
    run.embedders[REAL_MODEL].embed(["warm-up"])
    marks["after_build_and_model_mb"] = round(status_kb("self", "VmHWM") / 1024)
    errors = sum(bool(assistant.ask(q).error) for questions in QUESTIONS.values() for q in questions)
    marks.update(vm_hwm_mb=round(status_kb("self", "VmHWM") / 1024),
                 vm_rss_end_mb=round(status_kb("self", "VmRSS") / 1024),
                 questions=sum(len(q) for q in QUESTIONS.values()), errors=errors)
    print(json.dumps(marks))
    return 0


def assistant_memory(run: Run, rows: int) -> dict[str, Any]:
    record: dict[str, Any] = {"rows": rows}
    with measured(record):
        done = subprocess.run([sys.executable, "-m", "bench.scale.memory", CHILD, str(rows), str(run.real_max_rows)],
                              cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        return {**record, "error": done.stderr[-2000:]}
    return {**record, **json.loads(done.stdout.strip().splitlines()[-1])}


def measure(run: Run, rows: int, app_timeout_s: float = APP_TIMEOUT_S) -> dict[str, Any]:
    record: dict[str, Any] = {"rows": rows, "assistant_process": assistant_memory(run, rows)}
    print(f"  assistant process: {record['assistant_process'].get('vm_hwm_mb')} MB", flush=True)
    try:
        record["app"] = app_memory(run, rows, app_timeout_s)
    except Exception as error:  # noqa: BLE001 - the app could not be driven: say so, keep the rest
        record["app"] = {"rows": rows, "error": f"{type(error).__name__}: {error}"}
    print(f"  app: {record['app'].get('vm_hwm_mb')} MB ({record['app'].get('browser') or record['app'].get('error')})",
          flush=True)
    return record


def add_memory_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--memory-size", type=int, default=None, help="size measured (default: the largest size)")
    parser.add_argument("--app-timeout", type=float, default=APP_TIMEOUT_S)


def run_memory(run: Run, args: argparse.Namespace) -> None:
    rows = args.memory_size or max(run.sizes)
    run.size(rows)
    run.data.setdefault(PART, {})[str(rows)] = stamp(measure(run, rows, args.app_timeout))
    run.save()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == CHILD:
        return child(int(argv[1]), int(argv[2]))
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_arguments(parser)
    add_memory_arguments(parser)
    args = parser.parse_args(argv)
    run = Run.from_args(args, [PART])
    run_memory(run, args)
    run.finish()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
