"""The sample question set (eval/news/dev.yaml) against the sample database and the real index, offline.

Targets from the evaluation issue: routing accuracy >= 95%, SQL execution accuracy >= 90% and
retrieval hit@k >= 90%. A failure lists every missed case with its reason, so the planner can be fixed.

The targets hold on the original cases. The cases added later to find failures to tune on (ids `d2-`, `h-`) are
run too and their failures are reported (an expected failure listing them), not gated, until they are tuned.
"""

from __future__ import annotations

import pytest
from conftest import skip_or_fail

from rag.errors import IndexMissing
from rag.evaluation.cases import load_cases
from rag.evaluation.report import EvalReport, summarise
from rag.evaluation.runner import run_eval
from rag.settings import PROJECT_ROOT, SAMPLE_DB_PATH, Settings

CASES = PROJECT_ROOT / "eval" / "news" / "dev.yaml"
INDEX_DIR = PROJECT_ROOT / "data" / "chroma"
LATER = ("d2-", "h-")  # id prefixes of the dev cases added after the targets were set (h-: paraphrases, #14)

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


@pytest.fixture(scope="module")
def original(report: EvalReport) -> dict:
    """The summary of the original cases, on which the targets are asserted."""
    return summarise([c for c in report.cases if not c.id.startswith(LATER)], report.summary["retrieval"]["k"])


def missed(report: EvalReport, check: str) -> str:
    lines = []
    for case in report.cases:
        if case.id.startswith(LATER):
            continue
        if (check == "route" and not case.route_ok) or (check == "sql" and case.sql_ok is False) or \
                (check == "retrieval" and case.hit is False):
            lines.append(f"  {case.id}: {case.question!r} -> {case.actual_route}: {'; '.join(case.failure_reasons)}")
    return "\n" + "\n".join(lines)


def test_no_case_errors(report: EvalReport) -> None:
    assert report.summary["errors"] == 0, [(c.id, c.error) for c in report.cases if c.error]


def test_routing_accuracy(original: dict, report: EvalReport) -> None:
    assert original["routing_accuracy"] >= 0.95, missed(report, "route")


def test_sql_execution_accuracy(original: dict, report: EvalReport) -> None:
    assert original["sql"]["accuracy"] >= 0.90, missed(report, "sql")


def test_retrieval_hit_at_k(original: dict, report: EvalReport) -> None:
    assert original["retrieval"]["hit_at_k"] >= 0.90, missed(report, "retrieval")


def test_later_cases_are_reported(report: EvalReport) -> None:
    """The later cases are in the run; each one that fails is listed (as an expected failure, shown by -ra)."""
    later = [c for c in report.cases if c.id.startswith(LATER)]
    assert later, f"no {LATER} case in {CASES}"
    failed = [f"  {c.id}: {c.question!r} -> {c.actual_route}: {'; '.join(c.failure_reasons)}"
              for c in later if not c.passed]
    if failed:
        pytest.xfail(f"{len(failed)} of {len(later)} later dev cases fail (reported, not gated):\n" + "\n".join(failed))


def test_conversation_turns(report: EvalReport) -> None:
    """The multi-turn dev cases (issue 11): each turn right, and built on the turn it should (or on none)."""
    figures = report.summary["conversations"]
    failed = [f"  {c.id}: {c.question!r} -> {'; '.join(c.failure_reasons)}" for c in report.cases
              if c.conversation and not c.passed]
    assert figures["cases"] >= 10 and figures["turns"] >= 20
    assert figures["turn_accuracy"] >= 0.90, "\n" + "\n".join(failed)
