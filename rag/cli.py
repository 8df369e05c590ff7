"""Command line: `python -m rag build-sample | import-csv | index | status | roles | ask | eval`.

Every command that reads the table takes `--db` and `--table` (default: the sample database).
Errors are printed as one plain sentence on stderr with exit code 2; never a traceback. An unexpected
error (a bug) exits with 3 after one paragraph naming a log file that holds the traceback:
`$XDG_CACHE_HOME/table-rag/logs/` (default `~/.cache/table-rag/logs/`), outside the project and the index
directory, so it works when the index is damaged or the checkout is read-only.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import tempfile
import traceback
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from rag.errors import ConfigError, RagError
from rag.settings import SAMPLE_DB_PATH, SAMPLE_JSONL_PATH, Settings, mask_url

Command = Callable[[argparse.Namespace], int]


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help="SQLAlchemy URL of the source database (default: the sample)")
    parser.add_argument("--table", help="table name (default: articles)")
    parser.add_argument("--index-dir", help="directory of the local Chroma index")
    parser.add_argument("--columns", help="column role overrides, e.g. 'title=headline,content=body'")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def settings_from(args: argparse.Namespace) -> Settings:
    return Settings.from_env(db_url=args.db, table=args.table, index_dir=getattr(args, "index_dir", None),
                             column_roles=getattr(args, "columns", None))


def open_source(settings: Settings) -> Any:
    from rag.data.source import TableSource

    return TableSource.from_settings(settings)


def open_index(settings: Settings) -> Any:
    """The vector index (Chroma is opened on first use; `sync(rebuild=True)` moves an unreadable directory aside)."""
    from rag.data.index import VectorIndex
    from rag.providers import build_embedder

    return VectorIndex(settings, build_embedder(settings))


def cmd_build_sample(args: argparse.Namespace) -> int:
    from rag.data.sample_data import build_sample_db

    count = build_sample_db(Path(args.jsonl), Path(args.out))
    print(f"built {args.out}: {count} articles")
    return 0


def cmd_import_csv(args: argparse.Namespace) -> int:
    from rag.data.sample_data import import_csv

    count = import_csv(Path(args.file), args.db, args.table, say=print)
    print(f"imported {count} rows into table {args.table}")
    return 0


def cmd_index(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    settings = settings_from(args)
    source = open_source(settings)
    index = open_index(settings)
    bar = tqdm(total=source.count_rows(), unit="row", desc="indexing", disable=args.json, file=sys.stderr)

    def progress(update: Any) -> None:
        bar.total = update.total
        bar.n = update.done
        bar.set_postfix_str(update.phase)
        bar.refresh()

    report = index.sync(source, rebuild=args.rebuild, progress=progress)
    bar.close()
    if report.moved_aside:
        print(f"moved the unreadable index directory to {report.moved_aside}", file=sys.stderr)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(f"{report.rows} rows: {report.new} new, {report.changed} changed, {report.unchanged} unchanged, "
              f"{report.deleted} deleted, {len(report.skipped)} skipped; {report.chunks_added} chunks embedded "
              f"in {report.seconds:.1f} s (embedding {report.embed_seconds:.1f} s) into {report.collection}")
        if report.repaired:
            print(f"  repaired: {report.repaired}")
        if report.roles_changed:
            print(f"  every row written again: {report.roles_changed}")
        for skip in report.skipped[:20]:
            print(f"  skipped {skip['row_key']}: {skip['reason']}")
        for note in report.notes[:20]:
            print(f"  note {note['row_key']}: {note['note']}")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    source = open_source(settings)
    status = open_index(settings).status(source)
    if args.json:
        report = roles_of(source, settings)
        print(json.dumps({**status.to_dict(), "roles": source.roles.as_dict(), "columns": report["columns"],
                          "missing_roles": report["missing"], "roles_file": report["path"]}, indent=2,
                         ensure_ascii=False))
    else:
        print(f"table {settings.table}: {status.rows} rows; index {status.collection}: "
              f"{'present' if status.exists else 'MISSING'}, {status.documents} documents, {status.chunks} chunks, "
              f"{status.missing} missing, {status.stale} stale, {status.orphaned} orphaned")
        if status.stale_reason:
            print(f"every row is stale: {status.stale_reason}; `python -m rag index` writes them again")
        if status.problem:
            print(status.problem)
    return 0 if status.healthy else 1


def roles_of(source: Any, settings: Settings) -> dict[str, Any]:
    from rag.data.role_store import roles_report

    return roles_report(source, settings).to_dict()


def print_roles(report: dict[str, Any]) -> None:
    width = max([len(c["column"]) for c in report["columns"]] + [6])
    labels = max([len(c.get("label", "")) for c in report["columns"]] + [5])
    print(f"table {report['table']}: column roles (saved choices: {report['path']})")
    print(f"  {'column':<{width}}  {'type':<7}  {'role':<11}  {'label':<{labels}}  {'set by':<16}  evidence")
    for c in report["columns"]:
        print(f"  {c['column']:<{width}}  {c['type']:<7}  {c['role']:<11}  {c.get('label', ''):<{labels}}  "
              f"{c['set_by']:<16}  {c['evidence']}")
    if report["missing"]:
        print(f"no column plays: {', '.join(report['missing'])}; questions about them cannot be answered "
              "(set one with --set ROLE=COLUMN)")
    if report["ignored"]:
        print(f"saved roles ignored (columns not in the table): {', '.join(report['ignored'])}")


def cmd_roles(args: argparse.Namespace) -> int:
    """Show the column roles, or change and save them (`--set ROLE=COLUMN`, `--unset COLUMN`, `--reset`)."""
    from rag.data.role_store import change_roles

    settings = settings_from(args)
    choices: dict[str, str] = {}
    for pair in args.set or []:
        role, sep, column = pair.partition("=")
        if not sep or not role.strip() or not column.strip():
            raise ConfigError(f"--set {pair!r} should look like ROLE=COLUMN, e.g. title=headline")
        choices[column.strip()] = role.strip().lower()
    try:
        source = open_source(settings)
    except ConfigError:
        if not args.reset:
            raise
        from rag.data.role_store import save_roles

        save_roles(settings, {})  # the saved roles themselves may be what cannot be used: forget them first
        source = open_source(settings)
    change = None
    labels: dict[str, str] = {}
    for pair in getattr(args, "label", None) or []:
        column, sep, label = pair.partition("=")
        if not sep or not column.strip():
            raise ConfigError(f"--label {pair!r} should look like COLUMN=LABEL, e.g. article_category=section")
        labels[column.strip()] = label.strip()
    if choices or args.unset or args.reset or labels:
        change = change_roles(settings, source, choices, unset=args.unset or [], reset=args.reset,
                              labels=labels).to_dict()
        source.close()
        source = open_source(settings)
    report = roles_of(source, settings)
    if args.json:
        print(json.dumps({**report, "change": change}, indent=2, ensure_ascii=False))
        return 0
    print_roles(report)
    if change is not None:
        print(f"saved {change['path']}" if change["saved"] else f"no saved roles left ({change['path']} removed)")
        for column, before, after in change["changed"]:
            print(f"  {column}: {before} -> {after}")
        for line in change["overridden"]:
            print(f"  {line}")
        for column, before, after in change["relabelled"]:
            print(f"  {column} reads '{after}' (was '{before}')")
        if change["reindex"]:
            print("the index needs a sync (`python -m rag index`): " + "; ".join(change["reindex"]))
        elif change["changed"]:
            print("nothing to re-index: the stored chunks do not depend on these roles")
    return 0


def turn_json(turn: Any) -> dict[str, Any]:
    """The `ask --json` contract: stable keys later tools rely on."""
    trace, result = turn.trace, turn.result
    rows = result.result
    return {
        "question": turn.question,
        "answer": turn.answer,
        "route": turn.route,
        "reason": result.reason,
        "interpretation": result.interpretation.restatement() if result.interpretation else None,
        "conditions": [dataclasses.asdict(c) for c in result.interpretation.conditions]
        if result.interpretation else [],
        "unused_words": result.interpretation.unused_words if result.interpretation else [],
        "alternatives": [a.label for a in result.interpretation.alternatives] if result.interpretation else [],
        "corrections": result.interpretation.corrections if result.interpretation else [],
        "builds_on": result.interpretation.builds_on if result.interpretation else None,
        "forced_route": trace.forced_route,
        "provider": trace.provider,
        "sql": result.sql,
        "sql_verdict": result.sql_verdict,
        "columns": rows.columns if rows else [],
        "rows": rows.rows if rows else [],
        "row_count": len(rows.rows) if rows else 0,
        "filters": [f.describe() for f in result.filters],
        "filters_dropped": [{"filter": d.description, "reason": d.reason} for d in result.filters_dropped],
        "chunks": [{"title": c.title, "url": c.url, "score": c.score, "chunk": c.chunk, "row_key": c.row_key,
                    "text": c.text} for c in result.chunks],
        "citations": [{"title": c.title, "url": c.url, "published_date": c.published_date, "number": c.number or i}
                      for i, c in enumerate(turn.citations, start=1)],
        "chart": None if turn.chart is None else turn.chart.__dict__,
        "timings_ms": trace.timings_ms,
        "llm_calls": len(trace.llm_calls),
        "tokens": trace.tokens,
        "cost_usd": turn.cost_usd,
        "notes": result.notes + trace.notes,
        "error": turn.error,
    }


def cmd_ask(args: argparse.Namespace) -> int:
    from rag.assistant import Assistant

    settings = settings_from(args)
    conversation = load_session(Path(args.session)) if args.session else None
    assistant = Assistant.build(settings)
    turn = assistant.ask(args.question, route=args.route, conversation=conversation)
    if conversation is not None:
        save_session(Path(args.session), conversation)
    if args.json:
        print(json.dumps(turn_json(turn), indent=2, ensure_ascii=False, default=str))
    else:
        print(f"[{turn.route or 'no route'}] {turn.result.reason}")
        print(turn.answer)
        if turn.citations:
            print("Sources:")
        for number, citation in enumerate(turn.citations, start=1):  # numbered as the answer cites them
            print(f"  [{citation.number or number}] {citation.title} ({citation.published_date}) {citation.url}")
        rows = turn.result.result
        if rows and rows.rows and turn.route == "sql":
            print("  " + " | ".join(rows.columns))
            for row in rows.rows[:20]:
                print("  " + " | ".join(str(v) for v in row))
        print(f"  {turn.trace.timings_ms['total']:.0f} ms")
    return 0 if turn.error is None else 1


def load_session(path: Path) -> Any:
    """The conversation state in `path` (a new, empty one when the file does not exist yet)."""
    from rag.models import Conversation

    if not path.exists():
        return Conversation()
    try:
        return Conversation.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ConfigError(f"Cannot read the session file {path}: {error}. Delete it to start a new "
                          "conversation.") from error


def save_session(path: Path, conversation: Any) -> None:
    """Write the conversation state next to `path` first, then move it into place (never half a file)."""
    text = json.dumps(conversation.to_dict(), indent=2, ensure_ascii=False, default=str) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    except OSError as error:
        raise ConfigError(f"Cannot write the session file {path}: {error.strerror or error}.") from error


def cmd_eval(args: argparse.Namespace) -> int:
    """Run a question set through the app's Assistant; write report.json and summary.md under --out."""
    from rag.evaluation import DEFAULT_CASES, load_cases, run_eval, write_report

    cases = load_cases(args.cases or DEFAULT_CASES)
    settings = Settings.from_env(db_url=args.db, table=args.table or cases.table, index_dir=args.index_dir,
                                 column_roles=args.columns, provider=args.provider)

    def progress(number: int, total: int, result: Any) -> None:
        if not args.json:
            mark = "ok  " if result.passed else "FAIL"
            print(f"[{number:>3}/{total}] {mark} {result.id} ({result.actual_route or 'no route'})", file=sys.stderr)

    report = run_eval(cases, settings, progress=progress)
    paths = write_report(report, args.out)
    if args.json:
        print(json.dumps({**report.summary_dict(), "written": {k: str(v) for k, v in paths.items()}}, indent=2,
                         ensure_ascii=False, default=str))
    else:
        s = report.summary
        print(f"{s['passed']}/{s['cases']} cases passed; routing {s['routing_accuracy']} "
              f"(strict {s['routing_strict_correct']}/{s['cases']}), SQL {s['sql']['accuracy']}, "
              f"hit@{s['retrieval']['k']} {s['retrieval']['hit_at_k']}, MRR {s['retrieval']['mrr']}")
        print(f"wrote {paths['report']} and {paths['summary']}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m rag", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("build-sample", help="build the sample SQLite database from data/articles.jsonl")
    p.add_argument("--jsonl", default=str(SAMPLE_JSONL_PATH))
    p.add_argument("--out", default=str(SAMPLE_DB_PATH))
    p.set_defaults(func=cmd_build_sample)

    p = sub.add_parser("import-csv", help="load a CSV into a NEW table (the only command that writes)")
    p.add_argument("file")
    p.add_argument("--db", required=True, help="SQLAlchemy URL, e.g. sqlite:///mydata.db")
    p.add_argument("--table", required=True)
    p.set_defaults(func=cmd_import_csv)

    p = sub.add_parser("index", help="create or incrementally update the search index")
    _common(p)
    p.add_argument("--rebuild", action="store_true", help="drop the collection and embed everything again")
    p.set_defaults(func=cmd_index)

    p = sub.add_parser("status", help="rows in the table vs documents in the index")
    _common(p)
    p.set_defaults(func=cmd_status)

    p = sub.add_parser("roles", help="show the column roles with their evidence; change and save them")
    _common(p)
    p.add_argument("--set", action="append", metavar="ROLE=COLUMN",
                   help="give COLUMN a role (content, title, date, category, authors, url, id, categorical, "
                        "numeric, none); repeatable")
    p.add_argument("--unset", action="append", metavar="COLUMN", help="forget the saved role of COLUMN")
    p.add_argument("--reset", action="store_true", help="forget every saved role (back to detection)")
    p.add_argument("--label", action="append", metavar="COLUMN=LABEL",
                   help="what answers and charts call COLUMN (empty LABEL: derived from its name); repeatable")
    p.set_defaults(func=cmd_roles)

    p = sub.add_parser("ask", help="answer one question")
    p.add_argument("question")
    _common(p)
    p.add_argument("--route", choices=["sql", "vector", "hybrid"], help="force a route")
    p.add_argument("--session", metavar="FILE",
                   help="a conversation: follow-ups ('and in 2022?', 'which of those ...') build on the earlier "
                        "questions kept in this JSON file, which the answer is added to (delete it to start over)")
    p.set_defaults(func=cmd_ask)

    p = sub.add_parser("eval", help="run a question set and report routing, SQL, retrieval, latency and cost")
    p.add_argument("--cases", help="case file (default: the project's eval/news/dev.yaml)")
    _common(p)
    p.add_argument("--provider", choices=["offline", "gemini"], help="language provider (default: from settings)")
    p.add_argument("--out", help="output directory (default: eval/results/<timestamp>/)")
    p.set_defaults(func=cmd_eval)

    return parser


def log_dir() -> Path:
    """Where the CLI logs unexpected errors: $XDG_CACHE_HOME/table-rag/logs (default ~/.cache/table-rag/logs)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "table-rag" / "logs"


def log_unexpected(argv: Sequence[str]) -> Path | None:
    """Write the current exception's traceback to a new log file (a temporary folder when the cache is not
    writable); the command line is logged with URL passwords masked. None when nothing could be written."""
    command = " ".join(mask_url(arg) if "://" in arg else arg for arg in argv)
    text = f"{datetime.now().isoformat(timespec='seconds')} python -m rag {command}\n\n{traceback.format_exc()}"
    name = f"cli-{datetime.now():%Y%m%d-%H%M%S}-{os.getpid()}.log"
    for directory in (log_dir(), Path(tempfile.gettempdir()) / "table-rag-logs"):
        try:
            directory.mkdir(parents=True, exist_ok=True)
            (directory / name).write_text(text, encoding="utf-8")
            return directory / name
        except OSError:
            continue
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except RagError as error:
        print(f"{error.title}: {' '.join(str(error).split())}", file=sys.stderr)  # one line, whatever a driver says
        return 2
    except OSError as error:
        print(f"File error: {error.strerror or error}: {error.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; the next run continues where this one stopped", file=sys.stderr)
        return 130
    except Exception as error:  # noqa: BLE001 - a bug: one paragraph for the user, the traceback in a file
        path = log_unexpected(argv)
        detail = " ".join(str(error).split())[:200]
        where = f"the full traceback is in {path}" if path else "the traceback could not be written to a log file"
        print(f"Unexpected error ({type(error).__name__}{': ' + detail if detail else ''}). This is a bug in the "
              f"tool, not a problem with your data or command line; {where}. Please include it when you report "
              "the problem.", file=sys.stderr)
        return 3
