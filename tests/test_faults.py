"""Fault injection: damaged, deleted or unreachable parts of the search index (issue #10).

Each test breaks a real store the way a disk, an operator or a network would (deletes Chroma's HNSW
segment folder, truncates or deletes its SQLite file, points at a closed port, stops a real `chroma run`
server under a running assistant) and checks three things: the product says in plain words what happened
and what to do, SQL questions keep working, and the documented repair repairs it.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import chromadb
import pytest
from chromadb.api.shared_system_client import SharedSystemClient
from chromadb.config import Settings as ChromaSettings
from conftest import CountingEmbedder, make_articles_db, settings_for
from streamlit.testing.v1 import AppTest

from rag.assistant import Assistant
from rag.cli import main
from rag.data.embeddings import HashingEmbedder
from rag.data.index import VectorIndex
from rag.data.source import TableSource
from rag.errors import IndexMissing
from rag.models import Turn
from rag.settings import REGISTRY, Settings

ROOT = Path(__file__).resolve().parent.parent
SQL_QUESTION = "How many articles per category?"
SEMANTIC_QUESTION = "Tell me about bike lanes"
HYBRID_QUESTION = "articles about bees in May 2023"
# Chroma keeps the newest ~1,000 vectors of a local collection in its log and the rest only in the HNSW
# segment folder: a table this size has vectors that exist nowhere else once that folder is gone.
BIG_TABLE_ROWS = 1_100


def source_for(settings: Settings) -> TableSource:
    return TableSource.from_settings(settings)


def build_small(root: Path) -> tuple[Settings, TableSource]:
    db = make_articles_db(root / "articles.db")
    settings = settings_for(db, root / "index")
    source = source_for(settings)
    VectorIndex(settings, HashingEmbedder()).sync(source)
    return settings, source


def build_big(root: Path) -> tuple[Settings, TableSource]:
    rows = [{"url": f"u{i}", "title": f"Report {i}", "authors": "Ann Lee", "published_date": "2023-01-02 10:00:00",
             "article_category": "Reports", "full_content": f"Report number {i} covers subject{i} and area{i % 37}."}
            for i in range(BIG_TABLE_ROWS)]
    db = make_articles_db(root / "articles.db", rows)
    settings = settings_for(db, root / "index")
    source = source_for(settings)
    assert VectorIndex(settings, HashingEmbedder()).sync(source).chunks_added == BIG_TABLE_ROWS
    return settings, source


def segment_folders(index_dir: Path) -> list[Path]:
    """Chroma's per-segment folders (named by UUID) beside chroma.sqlite3."""
    found = []
    for path in index_dir.iterdir():
        try:
            uuid.UUID(path.name)
        except ValueError:
            continue
        if path.is_dir():
            found.append(path)
    return found


def assert_plain(turn: Turn, *words: str) -> None:
    """A failed turn whose message is plain words: no exception class names, no traceback."""
    assert turn.error, turn.answer
    for bad in ("Unexpected error", "Traceback", "RustBindingsAPI", "bindings", "ConnectError", "InternalError"):
        assert bad not in turn.answer, turn.answer
    for word in words:
        assert word.lower() in turn.answer.lower(), turn.answer


def assert_sql_works(assistant: Assistant) -> None:
    turn = assistant.ask(SQL_QUESTION)
    assert turn.error is None, turn.answer
    assert turn.route == "sql" and turn.result.result and turn.result.result.rows


# --------------------------------------------------------------------------- HNSW segment folder deleted


def test_deleted_hnsw_folder_is_detected_by_status_and_repaired_by_index(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str],
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    settings, source = build_big(tmp_path)
    index_dir = Path(settings.index_dir)
    folders = segment_folders(index_dir)
    assert folders
    for folder in folders:
        shutil.rmtree(folder)
    assert (index_dir / "chroma.sqlite3").exists()  # Chroma's own bookkeeping still says "1,100 chunks"
    SharedSystemClient.clear_system_cache()  # what a new process sees (this one still holds the vectors in memory)

    status = VectorIndex(settings, CountingEmbedder()).status(source)
    assert status.exists and not status.healthy
    assert status.problem and "damaged" in status.problem and "rebuild" in status.problem.lower()

    assistant = Assistant.build(settings)
    with pytest.raises(IndexMissing, match="damaged"):
        assistant.check_index()
    assert_sql_works(assistant)
    assert_plain(assistant.ask("reports about subject5 in January 2023", route="hybrid"), "damaged", "rebuild")

    # The command line: status says "rebuild", `rag index` rebuilds, status is healthy again.
    for setting in REGISTRY:
        monkeypatch.delenv(setting.env, raising=False)
    common = ["--db", settings.db_url, "--index-dir", str(index_dir)]
    monkeypatch.setenv("RAG_EMBED_MODEL", "hashing")
    assert main(["status", *common]) == 1
    assert "rebuild" in capsys.readouterr().out.lower()
    assert main(["index", *common]) == 0
    out = capsys.readouterr().out
    assert f"{BIG_TABLE_ROWS} chunks embedded" in out and "damaged" in out
    assert main(["status", *common]) == 0
    capsys.readouterr()

    repaired = VectorIndex(settings, HashingEmbedder())
    assert repaired.status(source).healthy
    every = repaired.collection().get(include=["embeddings"])  # failed with "Error finding id" before the repair
    assert len(every["ids"]) == BIG_TABLE_ROWS and all(len(vector) == HashingEmbedder().dim
                                                       for vector in every["embeddings"])
    turn = Assistant.build(settings).ask("reports about subject5 in January 2023", route="hybrid")
    assert turn.error is None and turn.result.chunks  # the filtered search that failed runs again


def test_status_of_a_healthy_index_checks_its_vectors_without_embedding(tmp_path: Path) -> None:
    settings, source = build_small(tmp_path)
    embedder = CountingEmbedder()
    status = VectorIndex(settings, embedder).status(source)
    assert status.healthy and status.problem is None
    assert embedder.count == 0  # the check queries stored vectors; it never embeds


# --------------------------------------------------------------------------- Chroma's SQLite file truncated


def truncate_chroma_file(index_dir: Path) -> None:
    path = index_dir / "chroma.sqlite3"
    with path.open("r+b") as handle:
        handle.truncate(path.stat().st_size // 2)


def test_truncated_chroma_file_is_explained_sql_keeps_working_and_rebuild_repairs(tmp_path: Path) -> None:
    settings, source = build_small(tmp_path)
    truncate_chroma_file(Path(settings.index_dir))

    assistant = Assistant.build(settings)  # the table is fine: the assistant starts
    with pytest.raises(IndexMissing, match="damaged"):
        assistant.check_index()
    assert_sql_works(assistant)
    for _ in range(2):  # the second attempt once said "'RustBindingsAPI' object has no attribute 'bindings'"
        turn = assistant.ask(SEMANTIC_QUESTION)
        assert_plain(turn, "damaged", "--rebuild", "SQL questions still work")
    assert_sql_works(assistant)
    status = assistant.index_status()
    assert not status.healthy and status.problem and "damaged" in status.problem

    with pytest.raises(IndexMissing, match="--rebuild"):  # a plain sync does not move files on its own
        assistant.sync_index()
    report = assistant.sync_index(rebuild=True)
    assert report.new == 8 and report.moved_aside and ".corrupt-" in report.moved_aside
    fresh = Assistant.build(settings)
    fresh.check_index()
    turn = fresh.ask(SEMANTIC_QUESTION)
    assert turn.error is None and turn.citations


def _app_env(monkeypatch: pytest.MonkeyPatch, settings: Settings, **extra: str) -> None:
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    values = {"RAG_DB_URL": settings.db_url, "RAG_INDEX_DIR": settings.index_dir, "RAG_EMBED_MODEL": "hashing",
              "RAG_PROVIDER": "offline", "CHROMA_HOST": "", **extra}
    for name, value in values.items():
        monkeypatch.setenv(name, value)


def _texts(block: Any) -> str:
    return "\n".join(str(getattr(node, "value", "")) for node in block)


def test_app_with_a_truncated_chroma_file_keeps_the_data_page_and_sql(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    settings, _ = build_small(tmp_path)
    truncate_chroma_file(Path(settings.index_dir))
    _app_env(monkeypatch, settings)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90).run()
    assert not at.exception, at.exception
    banner = _texts(at.main.warning)
    assert "damaged" in banner and "Data page" in banner
    at.chat_input[0].set_value(SQL_QUESTION).run()
    assert not at.exception
    assert at.session_state["turns"][-1].error is None
    at.switch_page("pages/data.py").run()  # the page the banner sends the user to is there
    assert not at.exception, at.exception
    assert at.title[0].value == "Data"
    assert "damaged" in _texts(at.main.warning)
    assert "bindings" not in _texts(at.main)


# --------------------------------------------------------------------------- Chroma's SQLite file deleted


def test_deleted_chroma_file_is_reported_missing_or_damaged_not_unbuilt(tmp_path: Path) -> None:
    settings, source = build_small(tmp_path)
    (Path(settings.index_dir) / "chroma.sqlite3").unlink()
    status = VectorIndex(settings, HashingEmbedder()).status(source)
    assert not status.healthy and status.problem
    assert "missing or damaged" in status.problem and "not been built" not in status.problem
    turn = Assistant.build(settings).ask(SEMANTIC_QUESTION)
    assert_plain(turn, "missing or damaged")


def test_never_built_index_still_says_so(tmp_path: Path) -> None:
    db = make_articles_db(tmp_path / "articles.db")
    settings = settings_for(db, tmp_path / "index")
    status = VectorIndex(settings, HashingEmbedder()).status(source_for(settings))
    assert status.problem and "has not been built yet" in status.problem


# --------------------------------------------------------------------------- an unreachable Chroma server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("localhost", 0))
        return sock.getsockname()[1]


def test_closed_chroma_port_leaves_sql_working(tmp_path: Path) -> None:
    db = make_articles_db(tmp_path / "articles.db")
    settings = settings_for(db, tmp_path / "index", chroma_host="localhost", chroma_port=free_port())
    assistant = Assistant.build(settings)  # the search server is not needed to start
    assert_sql_works(assistant)
    for question in (SEMANTIC_QUESTION, HYBRID_QUESTION):
        assert_plain(assistant.ask(question), "search server", "unreachable", "SQL questions still work")
    with pytest.raises(IndexMissing, match="unreachable"):
        assistant.check_index()
    status = assistant.index_status()
    assert not status.healthy and status.problem and "unreachable" in status.problem


def test_app_with_a_closed_chroma_port_keeps_the_data_page_and_sql(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    db = make_articles_db(tmp_path / "articles.db")
    settings = settings_for(db, tmp_path / "index")
    _app_env(monkeypatch, settings, CHROMA_HOST="localhost", CHROMA_PORT=str(free_port()))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90).run()
    assert not at.exception, at.exception
    assert "unreachable" in _texts(at.main.warning)
    at.chat_input[0].set_value(SQL_QUESTION).run()
    assert at.session_state["turns"][-1].error is None
    at.switch_page("pages/data.py").run()
    assert not at.exception, at.exception
    assert "unreachable" in _texts(at.main.warning)


class ChromaServer:
    """A real `chroma run` on a free port, stopped and started again on the same data directory."""

    def __init__(self, path: Path, log: Path) -> None:
        self.path, self.log, self.port = path, log, free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        chroma = Path(sys.executable).parent / "chroma"
        with self.log.open("ab") as log:
            self.process = subprocess.Popen([str(chroma), "run", "--path", str(self.path), "--port", str(self.port)],
                                            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            try:
                chromadb.HttpClient(host="localhost", port=self.port,
                                    settings=ChromaSettings(anonymized_telemetry=False)).heartbeat()
                return
            except Exception:  # noqa: BLE001 - not up yet
                assert self.process.poll() is None, self.log.read_text()
                assert time.monotonic() < deadline, "the Chroma server did not answer within 60 s"
                time.sleep(0.25)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@pytest.mark.slow
def test_chroma_server_stopped_under_a_running_assistant(tmp_path: Path) -> None:
    server = ChromaServer(tmp_path / "server", tmp_path / "chroma.log")
    server.start()
    try:
        db = make_articles_db(tmp_path / "articles.db")
        settings = settings_for(db, tmp_path / "index", chroma_host="localhost", chroma_port=server.port)
        VectorIndex(settings, HashingEmbedder()).sync(source_for(settings))
        assistant = Assistant.build(settings)
        for question in (SEMANTIC_QUESTION, HYBRID_QUESTION):
            assert assistant.ask(question).error is None

        server.stop()
        for question in (SEMANTIC_QUESTION, HYBRID_QUESTION):
            assert_plain(assistant.ask(question), "search server", "unreachable", "SQL questions still work")
        assert_sql_works(assistant)
        with pytest.raises(IndexMissing, match="unreachable"):
            assistant.check_index()

        server.start()  # same data directory, same port: the same assistant answers again
        for question in (SEMANTIC_QUESTION, HYBRID_QUESTION):
            turn = assistant.ask(question)
            assert turn.error is None and turn.citations, turn.answer
        assistant.check_index()
    finally:
        server.stop()
