"""What the retrieval benchmarks share: the dev question sets of every table with their databases and indexes,
an assistant per table (its keyword index brought in line first), and scoring a turn's chunks like `rag eval`.

Tables (README "Evaluation" builds the two extra databases and their indexes in data/eval/):
news = data/articles.db + data/chroma; tickets, reviews and contracts = data/eval/*.db + data/eval/chroma.
Only dev question sets are read here: tuning never looks at eval/*/test.yaml.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import ROOT
from rag.evaluation.cases import Case, load_cases
from rag.evaluation.metrics import hit_at_k, reciprocal_rank
from rag.settings import Settings


@dataclass(frozen=True)
class Table:
    name: str
    cases: str
    db_url: str
    table: str
    index_dir: str


TABLES = {
    # The indexes are built by `make run` (the sample) and `rag eval` (README "Evaluation"), with absolute URLs (part of
    # a collection's fingerprint).
    "news": Table("news", "eval/news/dev.yaml", Settings().db_url, "articles", "data/chroma"),
    "tickets": Table("tickets", "eval/tickets/dev.yaml", f"sqlite:///{ROOT}/data/eval/tickets.db", "tickets",
                     "data/eval/chroma"),
    "reviews": Table("reviews", "eval/reviews/dev.yaml", f"sqlite:///{ROOT}/data/eval/reviews.db", "reviews",
                     "data/eval/chroma"),
    "contracts": Table("contracts", "eval/contracts/dev.yaml", f"sqlite:///{ROOT}/data/eval/contracts.db",
                       "contracts", "data/eval/chroma"),
}


def assistant_for(table: Table) -> Any:
    """The offline assistant over one table, its index synced first (unchanged rows are not embedded; the
    keyword index is filled from Chroma's stored chunks when it lacks them)."""
    from rag.assistant import Assistant

    db_url = table.db_url
    assert (Path(db_url.removeprefix("sqlite:///"))).exists(), f"{db_url} is missing (README 'Evaluation')"
    settings = Settings.from_env(provider="offline", db_url=db_url, table=table.table,
                                 index_dir=str(ROOT / table.index_dir))
    assistant = Assistant.build(settings)
    try:
        assistant.context.index.collection()
    except Exception as error:  # never build a new collection by accident (a URL spelled differently)
        raise SystemExit(f"no index for {table.name} ({error}); build it first (README 'Evaluation')") from error
    report = assistant.context.index.sync(assistant.context.source)
    if report.new or report.changed:
        print(f"  [{table.name}] the index was behind the table: {report.new} new, {report.changed} changed rows",
              flush=True)
    return assistant


def dev_cases(table: Table, kinds: tuple[str, ...] = ("retrieval",)) -> list[Case]:
    return [case for case in load_cases(ROOT / table.cases).cases if case.kind in kinds]


def score(case: Case, chunks: list[Any], k: int) -> dict[str, Any]:
    """hit@1, hit@k and reciprocal rank of a ranked chunk list (one chunk per document), as `rag eval` scores."""
    keys = [(c.url, c.title, c.row_key) for c in chunks]
    return {"hit1": hit_at_k(keys, case.relevant, 1), "hit": hit_at_k(keys, case.relevant, k),
            "rr": round(reciprocal_rank(keys[:k], case.relevant), 4)}


def aggregate(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    if not n:
        return {"n": 0}
    return {"n": n, "hit1": sum(r["hit1"] for r in rows), "hit": sum(r["hit"] for r in rows),
            "mrr": round(sum(r["rr"] for r in rows) / n, 3)}


def figures(summary: dict[str, Any]) -> str:
    """hit@1 | hit@k | MRR cells of an `aggregate`."""
    n = summary["n"]
    return f"{summary['hit1']}/{n} | {summary['hit']}/{n} | {summary['mrr']:.3f}" if n else "- | - | -"


def hits_table(tables: dict[str, Any], overall: dict[str, Any], names: Sequence[str]) -> list[str]:
    """A Markdown table: one row per configuration in `names`, hit@1 / hit@5 / MRR per table and over all tables
    (`tables`: name -> {"summary": {configuration: aggregate}}; `overall`: configuration -> aggregate)."""
    lines = ["| configuration | " + " | ".join(f"{n} hit@1 | {n} hit@5 | {n} MRR" for n in tables)
             + " | all hit@1 | all hit@5 | all MRR |", "|---|" + "---:|" * (3 * len(tables) + 3)]
    for name in names:
        cells = [figures(t["summary"][name]) for t in tables.values()]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {figures(overall[name])} |")
    return lines
