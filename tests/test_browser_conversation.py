"""End-to-end in Chromium: a three-turn conversation on the sample, ending in "which of those ...".

Uses the same server and browser set-up as tests/test_browser.py (sample database and index, offline engine). The
second turn's reading must say it builds on the first; the third must say it builds on the second and searched only
its 14 rows, and every source it cites must be one of those rows (the 2023 politics articles).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_browser import OUTPUT, _launch, server  # noqa: F401 - `server` is the fixture

pytestmark = [pytest.mark.browser, pytest.mark.slow]

POLITICS_2023 = "https://meridianherald.example/politics/2023/"


def test_a_three_turn_conversation_in_a_real_browser(server: str, tmp_path: Path) -> None:  # noqa: F811
    from playwright.sync_api import expect, sync_playwright

    OUTPUT.mkdir(exist_ok=True)
    expect.set_options(timeout=90_000)
    with sync_playwright() as p:
        browser = _launch(p, tmp_path)
        page = browser.pages[0] if browser.pages else browser.new_page()
        main = page.get_by_role("main")
        sidebar = page.get_by_test_id("stSidebar")
        turn = sidebar.get_by_role("combobox", name="Turn")

        def ask(question: str) -> None:
            box = page.get_by_test_id("stChatInputTextArea")
            expect(box).to_be_enabled()
            box.fill(question)
            box.press("Enter")

        try:
            page.goto(server, wait_until="domcontentloaded")
            ask("How many articles per category in 2023?")
            expect(turn).to_have_value(re.compile(r"^#1 · SQL · How many articles per category"))
            expect(main.get_by_text("Counted articles").first).to_be_visible()

            ask("only politics")
            expect(turn).to_have_value(re.compile(r"^#2 · SQL · only politics"))
            expect(main.get_by_text(re.compile(r"Same as #1, only .*politics"))).to_be_visible()

            ask("which of those mention elections?")
            expect(turn).to_have_value(re.compile(r"^#3 · Hybrid · which of those mention elections"))
            reading = main.get_by_text(re.compile(r"^Builds on #2 · .*among the 14 articles of #2"))
            expect(reading).to_be_visible()
            expect(sidebar.get_by_text("search restricted to the 14 rows of #2")).to_be_visible()
            last = main.get_by_test_id("stChatMessage").last
            sources = last.locator("a[href^='https://meridianherald.example/']")
            expect(sources.first).to_be_visible()
            hrefs = [sources.nth(i).get_attribute("href") or "" for i in range(sources.count())]
            assert hrefs and all(href.startswith(POLITICS_2023) for href in hrefs), hrefs
            page.wait_for_timeout(2000)
            page.screenshot(path=str(OUTPUT / "chat-conversation.png"), full_page=True)
        except BaseException:
            page.screenshot(path=str(OUTPUT / "browser-conversation-failure.png"), full_page=True)
            raise
        finally:
            browser.close()
