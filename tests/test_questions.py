"""The sample question set (eval/news/dev.yaml) against the sample database and the real index, offline.

Targets from the evaluation issue: routing accuracy >= 95%, SQL execution accuracy >= 90% and
retrieval hit@k >= 90%. A failure lists every missed case with its reason, so the planner can be fixed.
"""

from __future__ import annotations

import pytest
from conftest import skip_or_fail

from rag.errors import IndexMissing
from rag.evaluation.cases import load_cases
from rag.evaluation.report import EvalReport
from rag.evaluation.runner import run_eval
from rag.settings import PROJECT_ROOT, SAMPLE_DB_PATH, Settings

CASES = PROJECT_ROOT / "eval" / "news" / "dev.yaml"
INDEX_DIR = PROJECT_ROOT / "data" / "chroma"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def report() -> EvalReport:
    if not SAMPLE_DB_PATH.exists():
        skip_or_fail(f"{SAMPLE_DB_PATH} is missing: run `make data`")
    if not INDEX_DIR.is_dir() or not any(INDEX_DIR.iterdir()):
        skip_or_fail(f"{INDEX_DIR} is missing: run `make index` to build the sample index with the real model")
    settings = Settings(db_url=f"sqlite:///{SAMPLE_DB_PATH}", table="articles", index_dir=str(INDEX_DIR),
                        provider="offline")
    try:
        return run_eval(load_cases(CASES), settings)
    except IndexMissing as error:  # e.g. an index built with another embedding model; any other error fails
        skip_or_fail(f"the sample index cannot be used: {error}")


def missed(report: EvalReport, check: str) -> str:
    lines = []
    for case in report.cases:
        if (check == "route" and not case.route_ok) or (check == "sql" and case.sql_ok is False) or \
                (check == "retrieval" and case.hit is False):
            lines.append(f"  {case.id}: {case.question!r} -> {case.actual_route}: {'; '.join(case.failure_reasons)}")
    return "\n" + "\n".join(lines)


def test_no_case_errors(report: EvalReport) -> None:
    assert report.summary["errors"] == 0, [(c.id, c.error) for c in report.cases if c.error]


def test_routing_accuracy(report: EvalReport) -> None:
    assert report.summary["routing_accuracy"] >= 0.95, missed(report, "route")


def test_sql_execution_accuracy(report: EvalReport) -> None:
    assert report.summary["sql"]["accuracy"] >= 0.90, missed(report, "sql")


def test_retrieval_hit_at_k(report: EvalReport) -> None:
    assert report.summary["retrieval"]["hit_at_k"] >= 0.90, missed(report, "retrieval")
