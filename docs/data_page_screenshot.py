"""Screenshot of the Data page's column roles for the README: `.venv/bin/python docs/data_page_screenshot.py`.

Builds a forum-posts table named unlike the sample (`posts(link, headline, poster, posted_at, newsgroup, flair,
thread_id, words, body)`, `posted_at` in Unix epoch seconds) in a temporary directory, indexes it with the
hashing embedder, saves two role choices (`newsgroup` as the main category rather than `flair`; `thread_id` plays
no role: an identifier, not a measure) and one label (`newsgroup` reads "forum"), serves the app with
`streamlit run` on a free port and photographs the Data page in headless Chromium (Debian's /usr/bin/chromium,
driven by Playwright; nothing is downloaded). Writes docs/data-page-roles.png.
"""

from __future__ import annotations

import calendar
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rag.data.embeddings import HashingEmbedder  # noqa: E402
from rag.data.index import VectorIndex  # noqa: E402
from rag.data.role_store import save_roles  # noqa: E402
from rag.data.source import TableSource  # noqa: E402
from rag.settings import Settings  # noqa: E402

OUT = ROOT / "docs" / "data-page-roles.png"
GROUPS = ["sci.space", "rec.autos", "comp.graphics", "talk.politics.misc", "rec.sport.hockey", "sci.med"]
PEOPLE = ["Ana Ruiz", "Ben Ode", "Cleo Marsh", "Dev Patel", "Eli Stone", "Fay Wong", "Gus Lind"]
FLAIRS = ["question", "answer", "news"]


def build(base: Path) -> Settings:
    db = base / "forum.db"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE posts (link TEXT, headline TEXT, poster TEXT, posted_at INTEGER, "
                           "newsgroup TEXT, flair TEXT, thread_id INTEGER, words INTEGER, body TEXT)")
        rows = []
        for i in range(400):
            body = (f"Post {i} in {GROUPS[i % 6]}. " + "A few sentences about the thread's subject, with details. "
                    * (3 + i % 9))
            rows.append((f"https://forum.example/t/{i // 3}/p/{i}", f"Re: thread {i // 3} on topic {i * 7 % 97}",
                         PEOPLE[i % 7], calendar.timegm((2023, 1 + i % 12, 1 + i % 28, i % 24, 15, 0)), GROUPS[i % 6],
                         FLAIRS[i % 3], i // 3, len(body.split()), body))
        connection.executemany("INSERT INTO posts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    connection.close()
    settings = Settings(db_url=f"sqlite:///{db}", table="posts", index_dir=str(base / "index"), embed_model="hashing",
                        provider="offline")
    VectorIndex(settings, HashingEmbedder()).sync(TableSource.from_settings(settings))
    save_roles(settings, {"newsgroup": "category", "thread_id": "none"}, {"newsgroup": "forum"})
    return settings


def serve(settings: Settings, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAG_", "GOOGLE_API_KEY", "CHROMA_"))}
    env.update({"RAG_DB_URL": settings.db_url, "RAG_TABLE": settings.table, "RAG_INDEX_DIR": settings.index_dir,
                "RAG_EMBED_MODEL": "hashing", "RAG_PROVIDER": "offline", "ANONYMIZED_TELEMETRY": "False"})
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
         "--server.address", "localhost", "--server.headless", "true", "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"], cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    url = f"http://localhost:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                return process, url
        except OSError:
            time.sleep(0.5)
    process.terminate()
    raise SystemExit(f"streamlit did not start:\n{log.read_text(errors='replace')[-2000:]}")


def main() -> None:
    from playwright.sync_api import expect, sync_playwright

    with tempfile.TemporaryDirectory() as directory:
        base = Path(directory)
        process, url = serve(build(base), base / "streamlit.log")
        try:
            expect.set_options(timeout=90_000)
            with sync_playwright() as p:
                browser = p.chromium.launch_persistent_context(
                    str(base / "profile"), executable_path="/usr/bin/chromium", headless=False,
                    args=["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          "--disable-background-networking", "--disable-component-update", "--disable-sync"],
                    viewport={"width": 1400, "height": 2200})
                page = browser.pages[0] if browser.pages else browser.new_page()
                page.goto(url, wait_until="domcontentloaded")
                page.get_by_role("link", name="Data").click()
                main_area = page.get_by_role("main")
                expect(main_area.get_by_text("Save roles")).to_be_visible()
                expect(main_area.locator(".main-svg").first).to_be_visible()
                page.wait_for_timeout(2500)
                form = page.get_by_test_id("stForm")
                top = page.get_by_role("heading", name="Column roles").bounding_box()
                bottom = page.get_by_role("button", name="Back to detected roles").bounding_box()
                box = form.bounding_box()
                assert top and bottom and box
                page.screenshot(path=str(OUT), full_page=True,
                                clip={"x": box["x"] - 24, "y": top["y"] - 16, "width": box["width"] + 48,
                                      "height": bottom["y"] + bottom["height"] - top["y"] + 32})
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=15)
    shrink(OUT)
    print(f"wrote {OUT}")


def shrink(path: Path) -> None:
    """64 colours are plenty for a page of text and keep the PNG small (about 40 kB instead of 105 kB)."""
    from PIL import Image

    with Image.open(path) as image:
        quantized = image.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    quantized.save(path, optimize=True)


if __name__ == "__main__":
    main()
