"""End-to-end in Chromium: a reading chip removes a condition and the edited reading is answered.

Uses the same server and browser set-up as tests/test_browser.py (sample database and index, offline engine).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_browser import OUTPUT, _launch, server  # noqa: F401 - `server` is the fixture

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_removing_a_reading_chip_in_a_real_browser(server: str, tmp_path: Path) -> None:  # noqa: F811
    from playwright.sync_api import expect, sync_playwright

    OUTPUT.mkdir(exist_ok=True)
    expect.set_options(timeout=90_000)
    with sync_playwright() as p:
        browser = _launch(p, tmp_path)
        page = browser.pages[0] if browser.pages else browser.new_page()
        try:
            page.goto(server, wait_until="domcontentloaded")
            box = page.get_by_test_id("stChatInputTextArea")
            expect(box).to_be_visible()
            box.fill("How many politics articles in 2023?")
            box.press("Enter")
            main = page.get_by_role("main")
            expect(main.get_by_text("Counted articles").first).to_be_visible()
            chip = main.get_by_role("button", name="published date 2023-01-01 to 2023-12-31")
            expect(chip).to_be_visible()
            chip.click()
            expect(main.get_by_text("Edit of #1")).to_be_visible()
            expect(main.get_by_text("Edited · Counted articles")).to_be_visible()
            page.wait_for_timeout(1000)
            page.screenshot(path=str(OUTPUT / "chat-edited-reading.png"))
        finally:
            browser.close()
