"""The command line: build-sample, import-csv, index, status and its one-line error messages."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest
from conftest import make_articles_db, sha256_file, write_db

from rag.cli import main
from rag.settings import REGISTRY


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No setting leaks in from the developer's environment; the hashing embedder keeps tests fast; logs of
    unexpected errors go to the test's own folder, never to the developer's ~/.cache."""
    for setting in REGISTRY:
        monkeypatch.delenv(setting.env, raising=False)
    monkeypatch.setenv("RAG_EMBED_MODEL", "hashing")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def rows(db: Path, sql: str) -> list[tuple]:
    connection = sqlite3.connect(db)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def assert_one_line_error(err: str, *words: str) -> None:
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    for word in words:
        assert word in err


# --------------------------------------------------------------------------- build-sample


def test_build_sample(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    jsonl = tmp_path / "articles.jsonl"
    records = [
        {"url": f"https://x/{i}", "title": f"Title {i}", "authors": "A; B" if i else "", "published_date":
         f"2023-0{i + 1}-01 00:00:00", "article_category": "News", "full_content": "word " * (i + 3)}
        for i in range(3)
    ]
    jsonl.write_text("\n".join(json.dumps(r) for r in records) + "\n\n", encoding="utf-8")
    out = tmp_path / "sample.db"
    assert main(["build-sample", "--jsonl", str(jsonl), "--out", str(out)]) == 0
    assert "3 articles" in capsys.readouterr().out
    assert rows(out, "SELECT url, word_count FROM articles ORDER BY url") == [
        ("https://x/0", 3), ("https://x/1", 4), ("https://x/2", 5)]
    # Rebuilding replaces the file instead of appending, and leaves no temporary file.
    assert main(["build-sample", "--jsonl", str(jsonl), "--out", str(out)]) == 0
    assert rows(out, "SELECT count(*) FROM articles") == [(3,)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["articles.jsonl", "sample.db"]


# --------------------------------------------------------------------------- import-csv


def test_import_csv_creates_a_new_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv_path = tmp_path / "tickets.csv"
    csv_path.write_bytes(
        b"ticket_id,subject,body,opened_at\n"
        b"1,Login fails,The user cannot log in.,2023-01-02\n"
        b"2,Caf\xe9 menu,Latin-1 byte in the subject.,2023-01-03\n"
        b'3,"Quoted, comma",,2023-01-04\n'
    )
    db = tmp_path / "support.db"
    assert main(["import-csv", str(csv_path), "--db", f"sqlite:///{db}", "--table", "tickets"]) == 0
    assert "imported 3 rows into table tickets" in capsys.readouterr().out
    assert rows(db, "SELECT * FROM tickets ORDER BY ticket_id") == [
        (1, "Login fails", "The user cannot log in.", "2023-01-02"),
        (2, "Caf\ufffd menu", "Latin-1 byte in the subject.", "2023-01-03"),
        (3, "Quoted, comma", None, "2023-01-04"),
    ]
    types = {name: kind for _, name, kind, *_ in rows(db, "PRAGMA table_info(tickets)")}
    assert types == {"ticket_id": "INTEGER", "subject": "TEXT", "body": "TEXT", "opened_at": "TEXT"}

    checksum = sha256_file(db)
    assert main(["import-csv", str(csv_path), "--db", f"sqlite:///{db}", "--table", "tickets"]) == 2
    captured = capsys.readouterr()
    assert_one_line_error(captured.err, "already exists", "tickets")
    assert captured.out == ""
    assert sha256_file(db) == checksum


def test_import_csv_next_to_an_existing_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = make_articles_db(tmp_path / "articles.db")
    before = rows(db, "SELECT * FROM articles")
    csv_path = tmp_path / "extra.csv"
    csv_path.write_text("id,name\n1,one\n2,two\n", encoding="utf-8")
    assert main(["import-csv", str(csv_path), "--db", f"sqlite:///{db}", "--table", "extra"]) == 0
    assert rows(db, "SELECT * FROM extra") == [(1, "one"), (2, "two")]
    assert rows(db, "SELECT * FROM articles") == before


@pytest.mark.parametrize(
    ("content", "table", "words"),
    [("id,bad name\n1,x\n", "fine", ["bad name"]), ("id\n1\n", "drop table", ["drop table"]), ("", "t", ["header"])],
)
def test_import_csv_rejects_bad_names(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str,
                                      table: str, words: list[str]) -> None:
    csv_path = tmp_path / "in.csv"
    csv_path.write_text(content, encoding="utf-8")
    assert main(["import-csv", str(csv_path), "--db", f"sqlite:///{tmp_path / 'x.db'}", "--table", table]) == 2
    assert_one_line_error(capsys.readouterr().err, *words)


def test_import_csv_missing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["import-csv", str(tmp_path / "nope.csv"), "--db", f"sqlite:///{tmp_path / 'x.db'}",
                 "--table", "t"])
    assert code == 2
    assert_one_line_error(capsys.readouterr().err, "nope.csv")


# --------------------------------------------------------------------------- index and status


def test_index_and_status_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = make_articles_db(tmp_path / "articles.db")
    common = ["--db", f"sqlite:///{db}", "--index-dir", str(tmp_path / "index"), "--json"]

    assert main(["status", *common]) == 1  # no index yet
    status = json.loads(capsys.readouterr().out)
    assert status["exists"] is False and status["healthy"] is False and status["missing"] == 8

    assert main(["index", *common]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["rows"] == 8 and report["new"] == 8 and report["chunks_added"] > 8
    assert report["collection"].startswith("rag-articles-")

    assert main(["status", *common]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["healthy"] is True
    assert status["documents"] == 8 and status["chunks"] == report["chunks_added"]
    assert status["embed_model"].startswith("hashing")
    assert status["roles"]["content"] == "full_content" and status["roles"]["category"] == "article_category"

    assert main(["index", *common]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["unchanged"] == 8 and again["chunks_added"] == 0

    write_db(db, "DELETE FROM articles WHERE article_category = 'Sports'")
    assert main(["status", *common]) == 1
    assert json.loads(capsys.readouterr().out)["orphaned"] == 2


def test_index_plain_text_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = make_articles_db(tmp_path / "articles.db", [
        {"url": "u1", "title": "One", "full_content": "Some text."},
        {"url": "u2", "title": "Two", "full_content": None},
    ])
    assert main(["index", "--db", f"sqlite:///{db}", "--index-dir", str(tmp_path / "index")]) == 0
    out = capsys.readouterr().out
    assert "2 rows: 1 new" in out
    assert "skipped u2: empty or NULL content" in out


def test_index_columns_override(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = make_articles_db(tmp_path / "articles.db")
    common = ["--db", f"sqlite:///{db}", "--index-dir", str(tmp_path / "index"), "--json"]
    assert main(["status", *common, "--columns", "category=authors"]) == 1
    assert json.loads(capsys.readouterr().out)["roles"]["category"] == "authors"
    assert main(["status", *common, "--columns", "category=nope"]) == 2
    assert_one_line_error(capsys.readouterr().err, "Configuration error", "nope")


def test_rebuild_moves_a_corrupt_index_aside(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = make_articles_db(tmp_path / "articles.db")
    index_dir = tmp_path / "index"
    index_dir.mkdir()
    (index_dir / "chroma.sqlite3").write_bytes(b"this is not a database" * 100)
    common = ["--db", f"sqlite:///{db}", "--index-dir", str(index_dir), "--json"]
    assert main(["index", *common]) == 2
    assert_one_line_error(capsys.readouterr().err, "Index not ready", "--rebuild")
    assert main(["index", *common, "--rebuild"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["new"] == 8
    assert "moved the unreadable index directory" in captured.err
    assert [p.name.startswith("index.corrupt-") for p in tmp_path.iterdir()].count(True) == 1
    assert main(["status", *common]) == 0


@pytest.mark.parametrize("command", ["index", "status"])
def test_missing_database_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    missing = tmp_path / "missing.db"
    code = main([command, "--db", f"sqlite:///{missing}", "--index-dir", str(tmp_path / "index")])
    assert code == 2
    captured = capsys.readouterr()
    assert_one_line_error(captured.err, "Database unavailable", str(missing))
    assert captured.out == ""
    assert not missing.exists()


def test_missing_table_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = make_articles_db(tmp_path / "articles.db")
    assert main(["status", "--db", f"sqlite:///{db}", "--table", "orders",
                 "--index-dir", str(tmp_path / "index")]) == 2
    assert_one_line_error(capsys.readouterr().err, "orders", "articles")


def test_invalid_setting_in_env_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAG_TOP_K", "many")
    db = make_articles_db(tmp_path / "articles.db")
    assert main(["status", "--db", f"sqlite:///{db}", "--index-dir", str(tmp_path / "index")]) == 2
    assert_one_line_error(capsys.readouterr().err, "RAG_TOP_K")


def test_import_csv_with_a_byte_order_mark(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv_path = tmp_path / "excel.csv"
    csv_path.write_bytes(b"\xef\xbb\xbfid,name\r\n1,one\r\n")
    assert main(["import-csv", str(csv_path), "--db", f"sqlite:///{tmp_path / 'x.db'}", "--table", "t"]) == 0
    assert rows(tmp_path / "x.db", "SELECT id, name FROM t") == [(1, "one")]


def test_import_csv_keeps_leading_zeros(tmp_path: Path) -> None:
    csv_path = tmp_path / "codes.csv"
    csv_path.write_text("postcode,city\n01234,Aville\n00501,Btown\n", encoding="utf-8")
    assert main(["import-csv", str(csv_path), "--db", f"sqlite:///{tmp_path / 'x.db'}", "--table", "codes"]) == 0
    assert rows(tmp_path / "x.db", "SELECT postcode FROM codes") == [("01234",), ("00501",)]


def test_import_csv_accepts_fields_over_the_csv_modules_default_limit(tmp_path: Path) -> None:
    body = "word " * 60_000  # 300,000 characters; Python's csv module stops at 131,072 by default
    csv_path = tmp_path / "long.csv"
    csv_path.write_text(f'id,title,body\n1,Long one,"{body}"\n2,Short,tiny\n', encoding="utf-8")
    assert main(["import-csv", str(csv_path), "--db", f"sqlite:///{tmp_path / 'x.db'}", "--table", "docs"]) == 0
    assert rows(tmp_path / "x.db", "SELECT id, length(body) FROM docs ORDER BY id") == [(1, len(body)), (2, 4)]


def test_import_csv_creates_a_missing_destination_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv_path = tmp_path / "t.csv"
    csv_path.write_text("id,body\n1,text\n", encoding="utf-8")
    db = tmp_path / "new" / "folder" / "t.db"
    assert main(["import-csv", str(csv_path), "--db", f"sqlite:///{db}", "--table", "t"]) == 0
    out = capsys.readouterr().out
    assert f"created folder {db.parent}" in out  # said out loud, so a mistyped path is noticed
    assert rows(db, "SELECT id, body FROM t") == [(1, "text")]


def test_import_csv_into_an_unwritable_place_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv_path = tmp_path / "t.csv"
    csv_path.write_text("id,body\n1,text\n", encoding="utf-8")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    assert main(["import-csv", str(csv_path), "--db", f"sqlite:///{blocker / 't.db'}", "--table", "t"]) == 2
    assert_one_line_error(capsys.readouterr().err, str(blocker))


@pytest.mark.parametrize("delimiter", [";", "\t", "|"])
def test_import_csv_detects_the_delimiter(tmp_path: Path, delimiter: str) -> None:
    lines = ["id;title;body;amount", "1;Invoice;Paid, with thanks; see note;12,50", "2;Refund;Returned goods;-3,00"]
    text = "\n".join(line.replace(";", delimiter) if delimiter != ";" else line for line in lines) + "\n"
    if delimiter == ";":  # a field holding the delimiter is quoted, as spreadsheet programs write it
        text = text.replace("Paid, with thanks; see note", '"Paid, with thanks; see note"')
    else:
        text = text.replace("Paid, with thanks" + delimiter + " see note", "Paid, with thanks; see note")
    csv_path = tmp_path / "export.csv"
    csv_path.write_text(text, encoding="utf-8")
    assert main(["import-csv", str(csv_path), "--db", f"sqlite:///{tmp_path / 'x.db'}", "--table", "t"]) == 0
    assert rows(tmp_path / "x.db", "SELECT * FROM t ORDER BY id") == [
        (1, "Invoice", "Paid, with thanks; see note", "12,50"), (2, "Refund", "Returned goods", "-3,00")]


def test_import_csv_refuses_rows_with_more_fields_than_the_header(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    csv_path = tmp_path / "t.csv"
    csv_path.write_text("id,body\n1,fine\n2,unquoted, comma\n", encoding="utf-8")
    assert main(["import-csv", str(csv_path), "--db", f"sqlite:///{tmp_path / 'x.db'}", "--table", "t"]) == 2
    assert_one_line_error(capsys.readouterr().err, "Line 3", "3 fields", "header names 2")
    assert not (tmp_path / "x.db").exists()


def test_import_csv_keeps_commas_when_other_characters_are_frequent(tmp_path: Path) -> None:
    csv_path = tmp_path / "plain.csv"
    csv_path.write_text("id,title,body\n1,A;B,one; two; three\n2,C,four; five\n", encoding="utf-8")
    assert main(["import-csv", str(csv_path), "--db", f"sqlite:///{tmp_path / 'x.db'}", "--table", "t"]) == 0
    assert rows(tmp_path / "x.db", "SELECT * FROM t ORDER BY id") == [(1, "A;B", "one; two; three"),
                                                                       (2, "C", "four; five")]


def test_ask_json_carries_the_interpretation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`ask --json` states how the question was read: restatement, conditions with their words, unused words."""
    db = make_articles_db(tmp_path / "articles.db")
    common = ["--db", f"sqlite:///{db}", "--index-dir", str(tmp_path / "index")]
    assert main(["index", *common]) == 0
    capsys.readouterr()
    assert main(["ask", "How many articles did we put out in 2023 that are not about sports?", *common,
                 "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["route"] == "sql" and answer["unused_words"] == ["put"]
    assert [(c["column"], c["op"]) for c in answer["conditions"]] == [("published_date", "between"),
                                                                      ("article_category", "!=")]
    assert answer["interpretation"].startswith("Counted articles · published date 2023-01-01 to 2023-12-31")
    assert answer["answer"].startswith("_Counted articles")
    assert answer["alternatives"] == ["Only articles whose text mentions 'put'"]


def test_ask_session_runs_a_conversation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`ask --session FILE` keeps the conversation in a JSON file: the second question builds on the first."""
    db = make_articles_db(tmp_path / "articles.db")
    session = tmp_path / "chat" / "session.json"
    common = ["--db", f"sqlite:///{db}", "--index-dir", str(tmp_path / "index"), "--session", str(session), "--json"]
    assert main(["ask", "How many articles per category in 2023?", *common]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["builds_on"] is None and session.is_file()
    assert main(["ask", "only sports", *common]) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["builds_on"] == 1 and second["rows"] == [["Sports", 2]]
    assert second["interpretation"].startswith("Same as #1, only category: Sports · Counted articles")
    state = json.loads(session.read_text(encoding="utf-8"))
    assert [t["question"] for t in state["turns"]] == ["How many articles per category in 2023?", "only sports"]
    assert state["turns"][1]["builds_on"] == 1 and state["turns"][0]["table"]["rows"]
    # Without the session the same words are a question of their own.
    assert main(["ask", "only sports", *common[:4], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["builds_on"] is None
    # A damaged session file is one plain line, and the file is left as it was.
    session.write_text("{not json", encoding="utf-8")
    assert main(["ask", "and in 2022?", *common]) == 2
    assert_one_line_error(capsys.readouterr().err, "session file", "Delete it")
    assert session.read_text(encoding="utf-8") == "{not json"


# --------------------------------------------------------------------------- unexpected errors (bugs)


def test_unexpected_error_is_logged_to_a_file_and_told_in_one_paragraph(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import rag.cli

    def broken(args: object) -> int:
        raise ZeroDivisionError("division by zero\nsecond line of the message")

    monkeypatch.setattr(rag.cli, "cmd_status", broken)  # a bug in a command, as the user would meet it
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = make_articles_db(tmp_path / "articles.db")
    code = main(["status", "--db", f"postgresql://reader:s3cret@localhost:1/x?db={db}"])
    assert code == 3
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    logs = list((tmp_path / "cache" / "table-rag" / "logs").glob("cli-*.log"))
    assert len(logs) == 1
    assert str(logs[0]) in err and "ZeroDivisionError" in err
    logged = logs[0].read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in logged and "in broken" in logged
    assert "status" in logged and "s3cret" not in logged  # the command line is logged with the password masked


# --------------------------------------------------------------------------- PostgreSQL URLs and drivers (no server)


def test_plain_postgresql_url_uses_the_installed_driver(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("psycopg2")
    from rag.data.source import driver_url

    assert driver_url("postgresql://u:pw@localhost/db").drivername == "postgresql+psycopg2"
    assert driver_url("postgres://u:pw@localhost/db").drivername == "postgresql+psycopg2"
    assert driver_url("postgresql+psycopg2://u:pw@localhost/db").drivername == "postgresql+psycopg2"
    for url in (f"postgresql://reader:pw@localhost:{free_port()}/db",
                f"postgresql+psycopg2://reader:pw@localhost:{free_port()}/db"):
        assert main(["status", "--db", url, "--index-dir", str(tmp_path / "index")]) == 2
        err = capsys.readouterr().err
        assert_one_line_error(err, "Database unavailable")  # reached the server's port: the driver was found
        assert "pw@" not in err


@pytest.mark.parametrize("url", ["postgresql://reader:pw@localhost:5432/db", "postgresql+psycopg2://reader:pw@localhost/db"])
def test_missing_postgres_driver_is_a_one_line_instruction(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setitem(sys.modules, "psycopg2", None)  # None in sys.modules: `import psycopg2` fails, as uninstalled
    monkeypatch.setitem(sys.modules, "psycopg", None)
    assert main(["status", "--db", url, "--index-dir", str(tmp_path / "index")]) == 2
    assert_one_line_error(capsys.readouterr().err, "Configuration error", "pip install '.[postgres]'")
    csv_path = tmp_path / "t.csv"
    csv_path.write_text("id,body\n1,text\n", encoding="utf-8")
    assert main(["import-csv", str(csv_path), "--db", url, "--table", "t"]) == 2
    assert_one_line_error(capsys.readouterr().err, "pip install '.[postgres]'")


def test_import_csv_to_an_unreachable_postgres_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("psycopg2")
    csv_path = tmp_path / "t.csv"
    csv_path.write_text("id,body\n1,text\n", encoding="utf-8")
    assert main(["import-csv", str(csv_path), "--db", f"postgresql://w:pw@localhost:{free_port()}/db",
                 "--table", "t"]) == 2
    assert_one_line_error(capsys.readouterr().err, "Database unavailable")


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("localhost", 0))
        return sock.getsockname()[1]
