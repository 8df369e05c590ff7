"""End-to-end in Chromium (#13): a conversation, its feedback and its traces survive a server restart.

A tiny table indexed with the hashing embedder (quick to serve) and a store file in tmp_path: the first server
answers a question and records a thumbs-down with a comment; it is stopped; a second server on the same store opens
the conversation's link with the turn and its rating, and its Traces page lists the turn and opens its trace.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_browser import OUTPUT, _launch, _require_browser, _serve

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_conversation_survives_a_server_restart(tmp_path: Path) -> None:
    _require_browser()
    from conftest import indexed_articles
    from playwright.sync_api import expect, sync_playwright

    _, settings = indexed_articles(tmp_path)
    env = {"RAG_DB_URL": settings.db_url, "RAG_INDEX_DIR": str(tmp_path / "index"), "RAG_EMBED_MODEL": "hashing",
           "RAG_APP_STORE_URL": f"sqlite:///{tmp_path / 'app.db'}"}
    OUTPUT.mkdir(exist_ok=True)
    for run in ("first", "second"):
        (tmp_path / run).mkdir()
    expect.set_options(timeout=90_000)
    with sync_playwright() as p:
        browser = _launch(p, tmp_path)
        page = browser.pages[0] if browser.pages else browser.new_page()
        try:
            with _serve(tmp_path / "first", env) as url:
                page.goto(url, wait_until="domcontentloaded")
                box = page.get_by_test_id("stChatInputTextArea")
                expect(box).to_be_visible()
                box.fill("Tell me about bike lanes")
                box.press("Enter")
                main = page.get_by_role("main")
                expect(main.get_by_text("City council approves new bike lanes").first).to_be_visible()
                expect(page).to_have_url(re.compile(r"[?&]chat=[0-9a-f]{32}"))
                main.get_by_role("radio", name="Thumbs down").click()
                main.get_by_role("button", name="Comment").click()
                comment = page.get_by_label("Comment (optional, kept with your rating)")
                comment.fill("the second source is off topic")
                comment.press("Enter")
                page.wait_for_timeout(1500)  # the callback stores it on the rerun
                link = page.url.replace(url, "")

            with _serve(tmp_path / "second", env) as url:  # a new server process on the same store
                page.goto(url + link, wait_until="domcontentloaded")
                main = page.get_by_role("main")
                expect(main.get_by_text("Tell me about bike lanes").first).to_be_visible()
                expect(main.get_by_text("City council approves new bike lanes").first).to_be_visible()
                sidebar = page.get_by_test_id("stSidebar")
                expect(sidebar.get_by_role("combobox", name="Turn")).to_have_value(
                    re.compile(r"^#1 · Semantic · Tell me about bike lanes"))
                main.get_by_role("button", name="Comment").click()
                expect(page.get_by_label("Comment (optional, kept with your rating)")).to_have_value(
                    "the second source is off topic")
                page.keyboard.press("Escape")

                box = page.get_by_test_id("stChatInputTextArea")  # the conversation goes on after the restart
                box.fill("How many articles per category?")
                box.press("Enter")
                expect(main.get_by_text("Counted articles").first).to_be_visible()

                page.goto(url + "/traces", wait_until="domcontentloaded")
                main = page.get_by_role("main")
                expect(main.get_by_role("heading", name="How many articles per category?")).to_be_visible()  # newest
                grid = main.get_by_test_id("stDataFrame").first  # the list of turns (the others are in the trace)
                expect(grid).to_be_visible()
                page.wait_for_timeout(1500)  # the grid draws on a canvas: click the second row's selection box
                frame = grid.bounding_box()
                page.mouse.click(frame["x"] + 16, frame["y"] + 35 + 35 + 17)
                expect(main.get_by_role("heading", name="Tell me about bike lanes")).to_be_visible()
                expect(main.get_by_test_id("stMarkdownContainer").filter(  # its rating, under the answer
                    has_text="the second source is off topic").first).to_be_visible()
                expect(main.get_by_text("Retrieved chunks").first).to_be_visible()
                expect(page).to_have_url(re.compile(r"[?&]turn=[0-9a-f]{12}"))
                page.wait_for_timeout(2000)
                page.screenshot(path=str(OUTPUT / "traces.png"), full_page=True)
        except BaseException:
            page.screenshot(path=str(OUTPUT / "browser-history-failure.png"))
            raise
        finally:
            browser.close()
