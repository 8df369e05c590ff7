"""End-to-end: `streamlit run app.py` on a free localhost port, driven by Debian's Chromium through Playwright.

Uses the sample database and index (data/articles.db, data/chroma) with the real embedding model. No
browser is ever downloaded: the test skips itself when /usr/bin/chromium is missing (`.ci/browser-deps`
installs it in CI). A screenshot is saved under test-output/.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
SAMPLE_DB = ROOT / "data" / "articles.db"
SAMPLE_INDEX = ROOT / "data" / "chroma"
OUTPUT = ROOT / "test-output"
STARTUP_TIMEOUT_S = 120

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_healthy(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"streamlit exited with {server.returncode}:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    tail = log.read_text(errors="replace")[-3000:]
    pytest.fail(f"streamlit did not become healthy in {STARTUP_TIMEOUT_S} s:\n{tail}")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed at /usr/bin/chromium (run .ci/browser-deps as root)")
    if not SAMPLE_DB.exists() or not SAMPLE_INDEX.exists():
        pytest.skip("the sample database and index are not built (run `make index`)")
    pytest.importorskip("playwright.sync_api", reason="the playwright python package is not installed")
    port = _free_port()
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("RAG_", "GOOGLE_API_KEY", "CHROMA_", "STREAMLIT_"))}
    env.update({"RAG_DB_URL": f"sqlite:///{SAMPLE_DB}", "RAG_INDEX_DIR": str(SAMPLE_INDEX), "RAG_PROVIDER": "offline",
                "ANONYMIZED_TELEMETRY": "False", "PYTHONUNBUFFERED": "1"})
    log = tmp_path / "streamlit.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
             "--server.address", "localhost", "--server.headless", "true", "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none"],
            cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
    try:
        url = f"http://localhost:{port}"
        _wait_healthy(url, process, log)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def test_ask_an_example_question_in_a_real_browser(server: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    OUTPUT.mkdir(exist_ok=True)
    # Lazily loaded element code (Plotly, data grid, select boxes) can take 20 s to parse on a 2-core runner.
    expect.set_options(timeout=90_000)
    with sync_playwright() as p:
        # Playwright takes the profile directory as an argument rather than as `--user-data-dir`; `headless`
        # is left to the `--headless=new` flag so Playwright adds no flag of its own.
        browser = p.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"), executable_path=str(CHROMIUM), headless=False,
            args=["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
            viewport={"width": 1600, "height": 1300})
        page = browser.pages[0] if browser.pages else browser.new_page()
        try:
            # A deep link is the fresh server's first request: Streamlit's legacy pages/ mode would run
            # pages/data.py without app.py; the page's guard sends it through app.py to the app's default page.
            page.goto(f"{server}/data", wait_until="domcontentloaded")
            # The first load builds the engine and warms up the embedding model (about 10 s).
            example = page.get_by_role("button", name="How many articles per year and category?")
            expect(example).to_be_visible()
            example.click()

            main = page.get_by_role("main")
            sidebar = page.get_by_test_id("stSidebar")
            expect(main.get_by_text("Computed with SQL over table")).to_be_visible()
            turn = sidebar.get_by_role("combobox", name="Turn")  # the inspector's turn picker names the route
            expect(turn).to_have_value(re.compile(r"^#1 · SQL · How many articles"))
            expect(sidebar.get_by_text("Guard: allowed")).to_be_visible()
            expect(sidebar.get_by_test_id("stCode").filter(has_text="GROUP BY").first).to_be_visible()
            expect(main.locator(".main-svg").first).to_be_visible()  # the Plotly chart drew
            page.wait_for_timeout(2000)
            page.screenshot(path=str(OUTPUT / "chat-sql.png"))

            # A semantic question typed into the chat box: quotes with citations, chunks in the inspector.
            box = page.get_by_test_id("stChatInputTextArea")
            box.fill("What do we have about children?")
            box.press("Enter")
            expect(main.get_by_text("Here is what the documents say")).to_be_visible()
            expect(turn).to_have_value(re.compile(r"^#2 · Semantic · What do we have about children"))
            expect(main.locator("a[href^='https://meridianherald.example/']").first).to_be_visible()
            expect(sidebar.get_by_text("Retrieved chunks")).to_be_visible()
            sidebar.get_by_test_id("stExpander").first.click()  # open the best chunk: score bar and text
            expect(sidebar.get_by_text("similarity").first).to_be_visible()
            page.wait_for_timeout(2500)  # let lazy elements finish rendering before the screenshot
            page.screenshot(path=str(OUTPUT / "chat.png"))
        except BaseException:
            page.screenshot(path=str(OUTPUT / "browser-failure.png"))
            raise
        finally:
            browser.close()
    assert (OUTPUT / "chat.png").stat().st_size > 10_000
