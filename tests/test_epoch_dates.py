"""Dates stored as Unix epoch seconds or milliseconds (#12): detected from their values, recorded with evidence,
and every date feature answers as it does on the same rows with text dates: years, months, days, quarters,
weekdays, ranges, relative periods, listings that show the date, the index's date metadata and citations,
the Data page's month overview. The tables here also key their rows by an integer primary key.
"""

from __future__ import annotations

import calendar
import json
import sqlite3
import time
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from conftest import ARTICLE_ROWS, settings_for

from rag.answer.sql_guard import guard_sql
from rag.assistant import Assistant
from rag.cli import main
from rag.data.epoch import epoch_of_day, epoch_to_text, epoch_unit
from rag.data.roles import detect_roles
from rag.data.source import ColumnInfo
from rag.errors import ConfigError
from rag.llm.prompts import table_rules
from rag.understand.interpretation import interpret_sql

UNITS = {"s": 1, "ms": 1000}


def epoch(text: str, unit: str = "s") -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%d %H:%M:%S")) * UNITS[unit]


def items_db(path: Path, unit: str | None = "s") -> Path:
    """The sample rows as items(item_id INTEGER PRIMARY KEY, heading, writer, posted_at, section, length, body):
    an integer key, and the date as epoch numbers in `unit` (None: as text, the reference)."""
    with sqlite3.connect(path) as connection:
        connection.execute(f"CREATE TABLE items (item_id INTEGER PRIMARY KEY, heading TEXT, writer TEXT, "
                           f"posted_at {'INTEGER' if unit else 'TEXT'}, section TEXT, length INTEGER, body TEXT)")
        connection.executemany("INSERT INTO items VALUES (?, ?, ?, ?, ?, ?, ?)", [
            (100 + i, r["title"], r["authors"], epoch(r["published_date"], unit) if unit else r["published_date"],
             r["article_category"],
             len(r["full_content"].split()), r["full_content"]) for i, r in enumerate(ARTICLE_ROWS)])
    connection.close()
    return path


# ---------------------------------------------------------------- values decide, the name is one signal


def test_epoch_units_from_values() -> None:
    assert epoch_unit([1_681_723_800, 1_700_000_000, None]) == "s"
    assert epoch_unit([1_681_723_800_123, 1_700_000_000_000]) == "ms"
    assert epoch_unit([3, 5, 800, 2_500]) is None  # word counts
    assert epoch_unit([1_681_723_800, 1_681_723_800]) is None  # one value is no timeline
    assert epoch_unit([1_681_723_800, "2023-04-17"]) is None  # not all numbers
    assert epoch_unit([99_999_999_999, 1_700_000_000]) is None  # half of them far outside 1980..2050
    assert epoch_to_text(1_681_723_800, "s") == "2023-04-17 09:30:00"
    assert epoch_to_text(1_681_723_800_500, "ms") == "2023-04-17 09:30:00"
    assert epoch_of_day(date(2023, 4, 17), "s") == 1_681_689_600
    assert epoch_of_day(date(2023, 4, 17), "ms") == 1_681_689_600_000


def roles_of(columns: dict[str, str], rows: list[dict[str, Any]], **overrides: Any) -> Any:
    infos = {name: ColumnInfo(name, kind) for name, kind in columns.items()}
    return detect_roles(infos, rows, overrides, [], lambda column: len({r[column] for r in rows}))


BODY = "A long body of text that is clearly the content of the row. " * 5
STAMPS = [1_600_000_000 + 86_400 * 37 * i for i in range(40)]


@pytest.mark.parametrize("name", ["posted_at", "ts", "c4"])
def test_an_epoch_column_is_the_date_by_its_values_whatever_its_name(name: str) -> None:
    rows = [{"body": BODY + str(i), name: stamp} for i, stamp in enumerate(STAMPS)]
    roles = roles_of({"body": "text", name: "integer"}, rows)
    assert (roles.date, roles.date_unit, roles.numeric) == (name, "s", [])
    assert "values are epoch seconds" in roles.evidence[name]
    assert "epoch seconds from 2020-09-13 to 2024-08-26" in roles.evidence[name]


def test_a_date_name_alone_does_not_make_small_numbers_a_date() -> None:
    rows = [{"body": BODY + str(i), "created": i + 1, "size": stamp, "total_revenues": stamp + 7}
            for i, stamp in enumerate(STAMPS)]
    roles = roles_of({"body": "text", "created": "integer", "size": "integer", "total_revenues": "integer"}, rows)
    # "created" holds 1..40 (a counter); "size" and "total_revenues" hold numbers in the timestamp range but are
    # named like measures
    assert roles.date is None and roles.date_unit is None
    assert roles.numeric == ["created", "size", "total_revenues"]


def test_text_dates_win_over_timestamps_and_other_timestamps_are_no_measure() -> None:
    rows = [{"body": BODY + str(i), "published_date": f"2023-01-{1 + i % 28:02d}", "edited_at": stamp * 1000,
             "words": 100 + i} for i, stamp in enumerate(STAMPS)]
    roles = roles_of({"body": "text", "published_date": "text", "edited_at": "integer", "words": "integer"}, rows)
    assert (roles.date, roles.date_unit, roles.numeric) == ("published_date", None, ["words"])
    assert "epoch milliseconds" in roles.evidence["edited_at"] and roles.evidence["edited_at"].startswith("no role")
    chosen = roles_of({"body": "text", "published_date": "text", "edited_at": "integer", "words": "integer"}, rows,
                      date="edited_at")
    assert (chosen.date, chosen.date_unit) == ("edited_at", "ms")


def test_a_number_column_that_holds_no_timestamps_cannot_be_set_as_the_date() -> None:
    rows = [{"body": BODY + str(i), "words": 100 + i} for i in range(10)]
    with pytest.raises(ConfigError, match="not Unix timestamps"):
        roles_of({"body": "text", "words": "integer"}, rows, date="words")


# ---------------------------------------------------------------- every date feature, as on text dates

QUESTIONS = [
    "How many {noun} per year?",
    "How many {noun} per month in 2023?",
    "How many {noun} per day in March 2023?",
    "How many {noun} per quarter?",
    "How many {noun} were published between March and May 2023?",
    "How many {noun} since April 2023?",
    "How many {noun} before 2020?",
    "How many {noun} in the last 3 months?",
    "How many {noun} on 12 March 2023?",
    "How many {noun} were published on weekends?",
    "How many {noun} per category in 2023?",
    "What is the average length of {noun} in 2023?",
    "List {noun} from March 2023",
    "What is the latest {singular}?",
    "List the earliest 3 {noun}",
    "What is the newest {singular} in each section?",
    "the first {singular} of each writer",
]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    """The same table with text dates."""
    folder = tmp_path_factory.mktemp("text-dates")
    return Assistant.build(settings_for(items_db(folder / "items.db", None), folder / "index", table="items"))


@pytest.fixture(scope="module", params=["s", "ms"])
def epoch_items(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    folder = tmp_path_factory.mktemp(f"epoch-{request.param}")
    db = items_db(folder / "items.db", request.param)
    assistant = Assistant.build(settings_for(db, folder / "index", table="items"))
    assistant.sync_index()
    return assistant


def rows_of(assistant: Assistant, question: str) -> list[list[Any]]:
    turn = assistant.ask(question)
    assert turn.error is None and turn.route == "sql", (question, turn.error, turn.route, turn.result.sql)
    assert turn.result.sql_verdict and turn.result.sql_verdict.startswith("allowed"), turn.result.sql_verdict
    return turn.result.result.rows


def test_roles_profile_and_row_keys(epoch_items: Assistant) -> None:
    source = epoch_items.source
    unit = source.roles.date_unit
    assert (source.roles.date, source.roles.id, source.key_columns) == ("posted_at", "item_id", ["item_id"])
    assert unit in UNITS and source.roles.numeric == ["length"]
    assert f"values are epoch {'seconds' if unit == 's' else 'milliseconds'}" in source.roles.evidence["posted_at"]
    profile = source.profile()
    assert (profile.date_min, profile.date_max) == ("2018-11-05 10:15:00", "2023-09-28 16:20:00")
    assert "posted_at holds epoch" in source.describe() and "'2023-09-28 16:20:00'" in source.describe()
    assert {row.key for row in source.iter_rows()} == {str(100 + i) for i in range(len(ARTICLE_ROWS))}


@pytest.mark.parametrize("question", QUESTIONS)
def test_date_questions_answer_as_on_text_dates(epoch_items: Assistant, reference: Assistant, question: str) -> None:
    question = question.format(noun="items", singular="item")
    on_epoch, on_text = rows_of(epoch_items, question), rows_of(reference, question)
    assert on_epoch == on_text and on_text, question
    # what the SQL shows is the date as text, never the raw number
    assert not any(isinstance(v, int) and v > 10**8 for row in on_epoch for v in row), on_epoch


def test_the_generated_sql_converts_and_passes_the_guard(epoch_items: Assistant) -> None:
    unit = epoch_items.source.roles.date_unit
    turn = epoch_items.ask("How many items per month in 2023?")
    converted = "DATETIME(\"posted_at\", 'unixepoch')" if unit == "s" else "DATETIME(CAST(\"posted_at\" AS REAL) / 1000"
    assert converted in turn.result.sql, turn.result.sql
    assert f'"posted_at" >= {epoch("2023-01-01 00:00:00", unit)}' in turn.result.sql  # the raw number is compared
    columns = list(epoch_items.source.columns)
    for dialect in ("sqlite", "postgres"):
        builder = type(epoch_items.context.sql_builder)(
            "items", epoch_items.source.roles, epoch_items.profile(), dialect, columns=columns)
        for question in ("How many items per month in 2023?", "How many items on weekends?", "List items from 2023",
                         "How many items per quarter?"):
            sql = builder.answer_sql(epoch_items.context.planner.plan(question))
            assert guard_sql(sql, table="items", columns=columns, dialect=dialect).sql.startswith(sql)


def test_chunks_citations_and_overview_show_dates(epoch_items: Assistant) -> None:
    stored = epoch_items.context.index.collection().get(include=["metadatas"])["metadatas"]
    assert {m["posted_at"][:10] for m in stored} >= {"2023-05-18", "2018-11-05"}
    assert all(m["date_ymd"] == int(m["posted_at"][:10].replace("-", "")) for m in stored)

    turn = epoch_items.ask("items about bees in 2023")
    assert turn.route == "hybrid" and turn.error is None, turn.result.reason
    assert turn.citations[0].title == "The quiet return of urban beekeeping"
    assert turn.citations[0].published_date == "2023-05-18 07:00:00" and turn.citations[0].row_key == "107"
    assert "2023-05-18" in turn.answer

    turn = epoch_items.ask("What do we have about vaccine trials?")
    assert turn.route == "vector" and turn.citations[0].published_date == "2018-11-05 10:15:00"

    overview = epoch_items.overview("month")
    assert overview is not None and overview.rows[0] == ["2018-11", 1] and ["2023-03", 2] in overview.rows


def test_the_language_model_is_told_how_the_date_is_stored(epoch_items: Assistant) -> None:
    roles = epoch_items.source.roles
    rules = table_rules("items", roles)
    assert f"holds Unix epoch {'seconds' if roles.date_unit == 's' else 'milliseconds'} (UTC)" in rules
    assert "DATETIME(posted_at" in rules and "TO_TIMESTAMP(posted_at" in rules and "holds text" not in rules


def test_epoch_numbers_in_a_column_declared_as_a_date(tmp_path: Path) -> None:
    """SQLite lets an ORM declare `posted_at DATETIME` and store epoch seconds in it: still a date, converted."""
    db = tmp_path / "typed.db"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE notes (note_id INTEGER PRIMARY KEY, body TEXT, posted_at DATETIME)")
        connection.executemany("INSERT INTO notes VALUES (?, ?, ?)", [
            (i, BODY + str(i), epoch(f"{2021 + i % 3}-0{1 + i % 9}-1{i % 10} 08:00:00")) for i in range(30)])
    connection.close()
    assistant = Assistant.build(settings_for(db, tmp_path / "index", table="notes"))
    roles = assistant.source.roles
    assert (roles.date, roles.date_unit) == ("posted_at", "s")
    assert rows_of(assistant, "How many notes per year?") == [["2021", 10], ["2022", 10], ["2023", 10]]
    assert rows_of(assistant, "How many notes in March 2022?") == [[sum(
        1 for i in range(30) if i % 3 == 1 and i % 9 == 2)]]


def test_a_csv_with_epoch_seconds_imports_and_reads_as_dates(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A new user's path: import-csv stores the epoch column as INTEGER, `roles --json` shows it as the date with
    its evidence, and a question per month answers in dates."""
    monkeypatch.setenv("RAG_EMBED_MODEL", "hashing")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    lines = ["id,subject,created_ts,queue,text"] + [
        f"{i},Ticket {i} about printer {i * 3},{epoch(f'2024-0{1 + i % 6}-1{i % 9} 09:00:00')},"
        f"{['billing', 'access', 'hardware'][i % 3]},\"The printer on floor {i} jams every morning, again and again.\""
        for i in range(1, 31)]
    (tmp_path / "tickets.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'tickets.db'}"
    assert main(["import-csv", str(tmp_path / "tickets.csv"), "--db", db, "--table", "tickets"]) == 0
    capsys.readouterr()
    common = ["--db", db, "--table", "tickets", "--index-dir", str(tmp_path / "index")]
    assert main(["roles", *common, "--json"]) == 0
    columns = {c["column"]: c for c in json.loads(capsys.readouterr().out)["columns"]}
    assert columns["created_ts"]["type"] == "integer" and columns["created_ts"]["role"] == "date"
    assert "epoch seconds from 2024-01-" in columns["created_ts"]["evidence"]
    assert main(["ask", "How many tickets per month?", *common, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["rows"] == [[f"2024-0{m}", 5] for m in range(1, 7)], answer["sql"]


def test_a_language_models_sql_on_an_epoch_date_reads_back_as_dates() -> None:
    """With Gemini the reading is read back from the SQL it wrote: comparisons of the epoch column with numbers
    show the dates they stand for; without the column's unit they stay numbers."""
    sql = ("SELECT COUNT(*) FROM items WHERE posted_at >= 1677628800 AND posted_at < 1680307200 "
           "AND section = 'Sports' AND length > 100")
    reading = interpret_sql(sql, "sqlite", {"posted_at": "posted at"}, {"posted_at": "s"})
    assert [r.text for r in reading.conditions] == ["posted at at least 2023-03-01", "posted at below 2023-04-01",
                                                    "section: Sports", "length above 100"]
    shown = interpret_sql(sql.replace("1677628800", "1677628800000").replace("1680307200", "1680307230500"),
                          "sqlite", {}, {"posted_at": "ms"})
    assert shown.conditions[1].text.endswith("below 2023-04-01 00:00:30")
    assert "1,677,628,800" in interpret_sql(sql, "sqlite").conditions[0].text
