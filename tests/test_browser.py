"""End-to-end: `streamlit run app.py` on a free localhost port, driven by Debian's Chromium through Playwright.

The first test uses the sample database and index (data/articles.db, data/chroma) with the real embedding
model; the second a table of hostile rows (tests/test_ui_hostile.py) indexed with the hashing embedder, and
checks that nothing from the data is rendered as markup or fetched. No browser is ever downloaded: the tests
skip themselves when /usr/bin/chromium is missing (`.ci/browser-deps` installs it in CI, where a missing browser fails
the run instead: see conftest.skip_or_fail). Screenshots are saved
under test-output/.
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
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from conftest import skip_or_fail

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


def _require_browser() -> None:
    if not CHROMIUM.exists():
        skip_or_fail("Debian chromium is not installed at /usr/bin/chromium (run .ci/browser-deps as root)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        skip_or_fail("the playwright python package is not installed")


@contextmanager
def _serve(tmp_path: Path, settings: dict[str, str]) -> Iterator[str]:
    """`streamlit run app.py` on a free port with these RAG_* settings (and nothing else from the environment)."""
    port = _free_port()
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("RAG_", "GOOGLE_API_KEY", "CHROMA_", "STREAMLIT_"))}
    env.update({"RAG_PROVIDER": "offline", "ANONYMIZED_TELEMETRY": "False", "PYTHONUNBUFFERED": "1", **settings})
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


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    _require_browser()
    if not SAMPLE_DB.exists() or not SAMPLE_INDEX.exists():
        skip_or_fail("the sample database and index are not built (run `make index`)")
    with _serve(tmp_path, {"RAG_DB_URL": f"sqlite:///{SAMPLE_DB}", "RAG_INDEX_DIR": str(SAMPLE_INDEX),
                           "RAG_APP_STORE_URL": f"sqlite:///{tmp_path / 'app.db'}"}) as url:  # not data/chroma
        yield url


def _launch(p: Any, tmp_path: Path) -> Any:
    # Playwright takes the profile directory as an argument rather than as `--user-data-dir`; `headless`
    # is left to the `--headless=new` flag so Playwright adds no flag of its own.
    return p.chromium.launch_persistent_context(
        str(tmp_path / "chromium-profile"), executable_path=str(CHROMIUM), headless=False,
        args=["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        viewport={"width": 1600, "height": 1300})


def test_ask_an_example_question_in_a_real_browser(server: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    OUTPUT.mkdir(exist_ok=True)
    # Lazily loaded element code (Plotly, data grid, select boxes) can take 20 s to parse on a 2-core runner.
    expect.set_options(timeout=90_000)
    with sync_playwright() as p:
        browser = _launch(p, tmp_path)
        page = browser.pages[0] if browser.pages else browser.new_page()
        try:
            # A deep link is the fresh server's first request: Streamlit's legacy pages/ mode would run
            # pages/data.py without app.py; the page's guard sends it through app.py to the app's default page.
            page.goto(f"{server}/data", wait_until="domcontentloaded")
            # The first load builds the engine and warms up the embedding model (about 10 s). Meanwhile the
            # legacy file-name menu of the pages/ directory (app, chat, data, ...) must not show, and the
            # sidebar opens at the width app.py sets (it stayed at 300 px for the first visitor).
            example = page.get_by_role("button", name="How many articles per year and category?")
            legacy_menus = 0
            while not example.is_visible():
                legacy_menus += page.get_by_test_id("stSidebarNav").count()
                page.wait_for_timeout(200)
            assert legacy_menus == 0, "Streamlit's file-name page menu showed during the first start"
            sidebar = page.get_by_test_id("stSidebar")
            expect(sidebar.get_by_role("link", name="Traces")).to_be_visible()  # the app's own page menu
            width = sidebar.bounding_box()["width"]
            assert 430 <= width <= 450, f"sidebar {width} px on the first request"
            example.click()

            main = page.get_by_role("main")
            expect(main.get_by_text("Computed with SQL over table")).to_be_visible()
            turn = sidebar.get_by_role("combobox", name="Turn")  # the inspector's turn picker names the route
            expect(turn).to_have_value(re.compile(r"^#1 · SQL · How many articles"))
            expect(sidebar.get_by_text("Guard: allowed")).to_be_visible()
            expect(sidebar.get_by_test_id("stCode").filter(has_text="GROUP BY").first).to_be_visible()
            expect(main.locator(".main-svg").first).to_be_visible()  # the Plotly chart drew
            page.wait_for_timeout(2000)
            page.screenshot(path=str(OUTPUT / "chat-sql.png"))
            _assert_text_contrast(page, code=True)  # the inspector's SQL included

            # A semantic question typed into the chat box: quotes with citations, chunks in the inspector.
            box = page.get_by_test_id("stChatInputTextArea")
            box.fill("What do we have about children?")
            box.press("Enter")
            expect(main.get_by_text("Here is what the documents say")).to_be_visible()
            expect(turn).to_have_value(re.compile(r"^#2 · Semantic · What do we have about children"))
            expect(main.locator("a[href^='https://meridianherald.example/']").first).to_be_visible()
            expect(sidebar.get_by_text(re.compile(r"^Retrieved chunks \(\d+, \d+ cited"))).to_be_visible()
            sidebar.get_by_test_id("stExpander").first.click()  # open the best chunk: score bar and text
            expect(sidebar.get_by_text("similarity").first).to_be_visible()
            page.wait_for_timeout(2500)  # let lazy elements finish rendering before the screenshot
            page.screenshot(path=str(OUTPUT / "chat.png"))

            # "Ask again as SQL": the two answers side by side.
            main.get_by_role("button", name=re.compile(r"(^|\s)SQL$")).last.click()
            comparison = main.get_by_test_id("stChatMessage").last
            expect(comparison.get_by_text("Compared with the earlier answer")).to_be_visible()
            columns = comparison.get_by_test_id("stColumn")
            expect(columns).to_have_count(2)
            expect(columns.first.get_by_text("chosen by the router", exact=True)).to_be_visible()
            expect(columns.last.get_by_text("forced by the user", exact=True)).to_be_visible()
            expect(turn).to_have_value(re.compile(r"^#3 · SQL · What do we have about children"))
            page.wait_for_timeout(2500)
            comparison.evaluate("element => element.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(500)
            box = comparison.bounding_box()  # the heading and the top of both columns (README: docs/compare-view.png)
            page.screenshot(path=str(OUTPUT / "compare.png"), clip={"x": box["x"] - 8, "y": max(box["y"] - 8, 0),
                                                                    "width": box["width"] + 16, "height": 520})
            _assert_text_contrast(page)

            # A reload brings the conversation back from the app's store: the URL names it (?chat=...).
            assert "chat=" in page.url, page.url
            last = turn.input_value()
            page.reload(wait_until="domcontentloaded")
            expect(turn).to_have_value(last)  # the inspector opens the last turn again
            expect(main.get_by_text("What do we have about children?").first).to_be_visible()
            expect(main.get_by_text("How many articles per year and category?").first).to_be_visible()
            expect(main.get_by_text("Here is what the documents say").first).to_be_visible()
            expect(main.get_by_role("button", name="How many articles per year and category?")).to_have_count(0)
            assert "chat=" in page.url, page.url

            # The other pages' text reaches WCAG AA as well (the Data page's captions hold inline code).
            for name, shown in (("Traces", main.get_by_role("heading", name="Traces")),
                                ("Data", main.get_by_text("Save roles"))):
                sidebar.get_by_role("link", name=name).click()
                expect(shown).to_be_visible()
                page.wait_for_timeout(2500)
                _assert_text_contrast(page, captions=1)

            # A browser that prefers dark gets the dark theme: its text reaches AA too (the chat with its chart
            # type selector and inspector, and the Data page with its buttons).
            page.emulate_media(color_scheme="dark")
            for name, shown in (("Chat", main.get_by_text("What do we have about children?").first),
                                ("Data", main.get_by_text("Save roles"))):
                sidebar.get_by_role("link", name=name).click()
                expect(shown).to_be_visible()
                page.wait_for_timeout(2500)
                background = page.evaluate("getComputedStyle(document.querySelector('.stApp')).backgroundColor")
                assert background != "rgb(255, 255, 255)", background  # the dark theme, not the light one
                _assert_text_contrast(page, captions=1)
        except BaseException:
            page.screenshot(path=str(OUTPUT / "browser-failure.png"))
            raise
        finally:
            browser.close()
    assert (OUTPUT / "chat.png").stat().st_size > 10_000


# WCAG contrast of every visible text node, computed in the page: its colour (times the opacity of it and its
# ancestors) composed over the first opaque background behind it. Material icon glyphs are not text (WCAG asks
# 3:1 of such graphics) and disabled controls are exempt. Code (the inspector's SQL) is measured like any text.
CONTRAST_JS = r"""
() => {
  const parse = c => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
    const p = m[1].split(',').map(parseFloat); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const over = (fg, bg) => ({r: fg.r * fg.a + bg.r * (1 - fg.a), g: fg.g * fg.a + bg.g * (1 - fg.a),
                             b: fg.b * fg.a + bg.b * (1 - fg.a), a: 1});
  const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const background = el => { const layers = [];
    for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; } }
    return layers.reverse().reduce((bg, layer) => over(layer, bg), {r: 255, g: 255, b: 255, a: 1}); };
  const opacity = el => { let o = 1;
    for (let e = el; e; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity);
    return o; };
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim(), el = node.parentElement;
    if (!text || el.closest('svg, [data-testid=stIconMaterial], button[disabled]')) continue;  // disabled: exempt
    const box = el.getBoundingClientRect(), style = getComputedStyle(el);
    if (!box.width || !box.height || style.visibility === 'hidden') continue;
    const color = parse(style.color); if (!color) continue;
    const bg = background(el), fg = over({...color, a: color.a * opacity(el)}, bg);
    const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const where = el.closest('[data-testid]');
    found.push({text: text.slice(0, 60), ratio: (hi + 0.05) / (lo + 0.05), testid: where ? where.dataset.testid : '',
                code: !!el.closest('[data-testid=stCode]')});
  }
  return found;
}
"""


def _assert_text_contrast(page: Any, captions: int = 3, *, code: bool = False) -> None:
    """Every visible text on the page reaches WCAG AA (4.5:1), the captions (reason, row counts, provider, "Answered
    as ...") included, and the SQL the inspector shows (plain text: Streamlit's token colours are below AA)."""
    measured = page.evaluate(CONTRAST_JS)
    measured_captions = [m for m in measured if m["testid"] == "stCaptionContainer"]
    assert len(measured_captions) >= captions, measured_captions
    assert not code or any(m["code"] for m in measured), "the SQL shown was not measured"
    low = [m for m in measured if m["ratio"] < 4.5]
    assert not low, low


# ---------------------------------------------------------------- hostile rows: rendered as text, never fetched

URL_IN_TEXT = re.compile(r"(?:https?://|www\.)[^\s\"'<>()\[\]]+", re.IGNORECASE)
OWN_BADGES = {"table_chart SQL", "travel_explore Semantic", "join_inner Hybrid", "alt_route forced",  # icon, label
              "memory offline engine", "error No answer"}


@pytest.fixture
def hostile_server(tmp_path: Path) -> Iterator[str]:
    _require_browser()
    from conftest import ARTICLE_ROWS, indexed_articles
    from test_ui_hostile import HOSTILE_ROWS

    _, settings = indexed_articles(tmp_path, [*ARTICLE_ROWS, *HOSTILE_ROWS], name="hostile.db")
    with _serve(tmp_path, {"RAG_DB_URL": settings.db_url, "RAG_INDEX_DIR": str(tmp_path / "index"),
                           "RAG_EMBED_MODEL": "hashing"}) as url:
        yield url


def _data_hosts() -> set[str]:
    """Hosts of every URL written anywhere in the hostile rows' text (not their own url column)."""
    from test_ui_hostile import HOSTILE_ROWS

    found = {match.group() for row in HOSTILE_ROWS for column, value in row.items() if column != "url"
             for match in URL_IN_TEXT.finditer(str(value))}
    return {urlparse(url if "://" in url else f"http://{url}").hostname or "" for url in found}


def test_hostile_rows_are_shown_as_text_and_nothing_is_fetched(hostile_server: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright
    from test_ui_hostile import CATEGORIES, SPAN, TITLES

    hosts = _data_hosts()
    assert hosts == {"example.invalid", "www.example.invalid"}
    OUTPUT.mkdir(exist_ok=True)
    expect.set_options(timeout=90_000)
    requests: list[str] = []
    with sync_playwright() as p:
        browser = _launch(p, tmp_path)
        browser.on("request", lambda request: requests.append(request.url))  # every page, frame and fetch
        page = browser.pages[0] if browser.pages else browser.new_page()
        main = page.get_by_role("main")
        sidebar = page.get_by_test_id("stSidebar")

        def ask(question: str, shown: str) -> None:
            box = page.get_by_test_id("stChatInputTextArea")
            box.fill(question)
            box.press("Enter")
            expect(main.get_by_text(shown).last).to_be_visible()

        def visible_text() -> str:
            return page.evaluate("document.body.innerText").replace("\u2060", "")

        try:
            page.goto(hostile_server, wait_until="domcontentloaded")
            expect(page.get_by_role("button", name="How many articles per year and category?")).to_be_visible()
            ask("How many articles per category?", "groups by category")
            expect(main.locator(".main-svg").first).to_be_visible()
            ask("List all articles", "Found 12 articles")
            ask("Tell me about rooftop beekeeping hives", "Here is what the documents say")
            for expander in sidebar.get_by_test_id("stExpander").all()[:3]:  # chunk texts and metadata
                expander.locator("summary").click()
            page.wait_for_timeout(2500)
            page.screenshot(path=str(OUTPUT / "hostile-chat.png"), full_page=True)

            text = visible_text()
            for title in TITLES:  # each hostile title reads as written, bidi override made visible
                assert title.replace("\u202e", "‹U+202E›") in text, title
            assert "\u202e" not in text and "\\<" not in text
            for selector in ("img[src*='example.invalid']", "a[href*='example.invalid']", "iframe", "script[src]",
                             "[data-testid=stMain] .stMarkdownColoredText", ".main-svg a"):
                assert page.locator(selector).count() == 0 or selector == "script[src]", selector
            badges = {" ".join(b.split()) for b in page.locator(".stMarkdownBadge").all_inner_texts()}
            assert badges <= OWN_BADGES, badges
            icons = [i.strip() for i in page.locator("span[role=img]").all_inner_texts()]
            assert "home" not in icons, icons
            chart = main.locator(".main-svg").first
            assert chart.locator("tspan[style*='60px'], text[style*='60px']").count() == 0
            assert SPAN in " ".join(chart.locator("text").all_text_contents())  # the category, drawn as text

            sidebar.get_by_role("link", name="Data").click()  # the app's own page menu (app.py)
            expect(main.get_by_role("heading", name="Column roles")).to_be_visible()
            expect(main.get_by_text("Save roles")).to_be_visible()  # each column's role can be changed
            expect(main.locator(".main-svg").first).to_be_visible()
            page.wait_for_timeout(2500)
            page.screenshot(path=str(OUTPUT / "hostile-data.png"), full_page=True)
            labels = " ".join(main.locator(".main-svg text").all_text_contents())
            for category in CATEGORIES:
                assert category in labels, category
            assert main.locator(".main-svg a, .main-svg tspan[style*='60px']").count() == 0
        except BaseException:
            page.screenshot(path=str(OUTPUT / "browser-hostile-failure.png"), full_page=True)
            raise
        finally:
            browser.close()
    fetched = [url for url in requests if urlparse(url).hostname in hosts]
    assert not fetched, fetched
    assert requests, "requests were recorded"
