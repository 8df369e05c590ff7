"""Question set -> routing / SQL / retrieval / answer / latency / cost report, through the app's own Assistant.

A case file (YAML, versioned) names the table it was written for and lists cases:

    version: 1
    table: articles
    cases:
    - id: sql-count-2023            # unique
      question: "How many technology articles were published in 2023?"
      route: sql                    # expected route: sql | vector | hybrid
      alternatives: [hybrid]        # optional: other acceptable routes
      sql_result: {value: 16}       # or rows: [[...], ...]; order-insensitive unless `ordered: true`
      notes: "..."                  # optional
    - id: vec-children
      question: "What do we have about children?"
      route: vector
      relevant: [https://...]       # expected urls (a title or a row key is also accepted)
    - id: na-quantum
      question: "quantum computing in agriculture"
      route: vector
      no_answer: true               # nothing relevant exists: the answer must say so

Each case has exactly one of `sql_result`, `relevant` and `no_answer`. Expected rows may name fewer
columns than the product returns: they match when some choice of the result's columns reproduces
them (numbers within a small tolerance, text case-insensitively). `run_eval` asks every question
through `Assistant.ask` (or the one given, e.g. the app's cached engine) and returns an `EvalReport`;
`write_report` saves `report.json` and `summary.md`.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import re
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from rag.errors import ConfigError
from rag.settings import PROJECT_ROOT, Settings, mask_url

SUPPORTED_VERSIONS = (1,)
ROUTES = ("sql", "vector", "hybrid")
CASE_KEYS = {"id", "question", "route", "alternatives", "sql_result", "relevant", "no_answer", "ordered", "notes"}
DEFAULT_CASES = PROJECT_ROOT / "eval" / "sample.yaml"
DEFAULT_RESULTS = PROJECT_ROOT / "eval" / "results"
REL_TOL = 1e-3
ABS_TOL = 0.051  # the product may round averages to one decimal
NO_ANSWER = re.compile(r"found nothing relevant|no rows match|nothing to search|no matching rows", re.I)
KEPT_ROWS = 20  # rows of an actual SQL result kept per case in the report
WARM_UP_QUESTION = "warm-up question about nothing in particular"  # not scored; see run_eval


class CaseFileError(ConfigError):
    """The case file is missing, unreadable or malformed; the message names the file and the case."""

    title = "Bad case file"


# ---------------------------------------------------------------- the case file


@dataclass(frozen=True)
class ExpectedSQL:
    """Expected rows (a list of lists) or a single value."""

    rows: list[list[Any]] | None = None
    value: Any = None
    has_value: bool = False

    @property
    def is_empty(self) -> bool:
        return not self.has_value and not self.rows

    def to_dict(self) -> Any:
        return {"value": self.value} if self.has_value else self.rows


@dataclass(frozen=True)
class Case:
    id: str
    question: str
    route: str
    alternatives: tuple[str, ...] = ()
    sql_result: ExpectedSQL | None = None
    relevant: tuple[str, ...] = ()
    no_answer: bool = False
    ordered: bool = False
    notes: str = ""

    @property
    def kind(self) -> str:
        return "sql" if self.sql_result is not None else "retrieval" if self.relevant else "no_answer"

    @property
    def accepted_routes(self) -> tuple[str, ...]:
        return (self.route, *self.alternatives)

    @property
    def answer_exists(self) -> bool:
        """False when the right reply is 'nothing found' (no_answer, or an expected empty result)."""
        return not self.no_answer and not (self.sql_result is not None and self.sql_result.is_empty)


@dataclass(frozen=True)
class CaseSet:
    version: int
    table: str
    cases: tuple[Case, ...]
    source: str = "<cases>"


def load_cases(path: str | Path) -> CaseSet:
    """Read and validate a case file; any problem is a CaseFileError naming the file and the case."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CaseFileError(f"Cannot read the case file {path}: {error.strerror or error}.") from error
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise CaseFileError(f"{path} is not valid YAML: {error}".replace("\n", " ")) from error
    return parse_cases(document, source=str(path))


def parse_cases(document: Any, source: str = "<cases>") -> CaseSet:
    def fail(message: str) -> CaseFileError:
        return CaseFileError(f"{source}: {message}")

    if not isinstance(document, dict):
        raise fail("expected a mapping with 'version', 'table' and 'cases'")
    unknown = set(document) - {"version", "table", "cases", "description"}
    if unknown:
        raise fail(f"unknown top-level key(s): {', '.join(sorted(map(str, unknown)))}")
    version = document.get("version")
    if version not in SUPPORTED_VERSIONS:
        raise fail(f"version {version!r} is not supported (supported: {', '.join(map(str, SUPPORTED_VERSIONS))})")
    table = document.get("table")
    if not isinstance(table, str) or not table.strip():
        raise fail("'table' must name the table the questions are about")
    raw_cases = document.get("cases")
    if not isinstance(raw_cases, list) or not raw_cases:
        raise fail("'cases' must be a non-empty list")
    cases: list[Case] = []
    seen: set[str] = set()
    for number, raw in enumerate(raw_cases, start=1):
        label = f"case #{number}" + (f" ({raw.get('id')!r})" if isinstance(raw, dict) and raw.get("id") else "")
        try:
            case = _parse_case(raw)
        except ValueError as error:
            raise fail(f"{label}: {error}") from error
        if case.id in seen:
            raise fail(f"{label}: duplicate id {case.id!r}")
        seen.add(case.id)
        cases.append(case)
    return CaseSet(version=version, table=table.strip(), cases=tuple(cases), source=source)


def _parse_case(raw: Any) -> Case:
    if not isinstance(raw, dict):
        raise ValueError("must be a mapping")
    unknown = set(raw) - CASE_KEYS
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(sorted(map(str, unknown)))}")
    case_id = raw.get("id")
    if not isinstance(case_id, str) or not case_id.strip():
        raise ValueError("'id' must be a non-empty string")
    question = raw.get("question")
    if not isinstance(question, str) or not question.strip():
        raise ValueError("'question' must be a non-empty string")
    route = raw.get("route")
    if route not in ROUTES:
        raise ValueError(f"'route' must be one of {', '.join(ROUTES)}, not {route!r}")
    alternatives = raw.get("alternatives") or []
    if not isinstance(alternatives, list) or any(a not in ROUTES for a in alternatives):
        raise ValueError(f"'alternatives' must be a list of routes ({', '.join(ROUTES)})")
    present = [k for k in ("sql_result", "relevant", "no_answer") if k in raw and raw[k] not in (None, False)]
    if len(present) != 1:
        raise ValueError("needs exactly one of 'sql_result', 'relevant' or 'no_answer: true'"
                         + (f" (has {', '.join(present)})" if present else ""))
    ordered = raw.get("ordered", False)
    if not isinstance(ordered, bool):
        raise ValueError("'ordered' must be true or false")
    notes = raw.get("notes") or ""
    if not isinstance(notes, str):
        raise ValueError("'notes' must be text")
    sql_result = _parse_sql_result(raw["sql_result"]) if "sql_result" in present else None
    if isinstance(raw.get("sql_result"), dict) and "ordered" in raw["sql_result"]:
        ordered = bool(raw["sql_result"]["ordered"])
    relevant: tuple[str, ...] = ()
    if "relevant" in present:
        items = raw["relevant"] if isinstance(raw["relevant"], list) else [raw["relevant"]]
        if not items or any(not isinstance(i, str | int) or not str(i).strip() for i in items):
            raise ValueError("'relevant' must be a non-empty list of urls or titles")
        relevant = tuple(str(i).strip() for i in items)
    if "no_answer" in present and raw["no_answer"] is not True:
        raise ValueError("'no_answer' must be true")
    return Case(id=case_id.strip(), question=question.strip(), route=route, alternatives=tuple(alternatives),
                sql_result=sql_result, relevant=relevant, no_answer="no_answer" in present, ordered=ordered,
                notes=notes.strip())


def _parse_sql_result(value: Any) -> ExpectedSQL:
    if isinstance(value, dict):
        unknown = set(value) - {"value", "rows", "ordered"}
        if unknown or ("value" in value) == ("rows" in value):
            raise ValueError("'sql_result' as a mapping needs exactly one of 'value' or 'rows' "
                             "(and an optional 'ordered')")
        if "value" in value:
            return ExpectedSQL(value=value["value"], has_value=True)
        value = value["rows"]
    if isinstance(value, list):
        if any(not isinstance(row, list) for row in value):
            raise ValueError("'sql_result' rows must be a list of lists, e.g. [[\"2023\", 16]]")
        widths = {len(row) for row in value}
        if len(widths) > 1 or 0 in widths:
            raise ValueError("'sql_result' rows must all have the same, non-zero number of values")
        return ExpectedSQL(rows=value)
    if isinstance(value, str | int | float | bool):
        return ExpectedSQL(value=value, has_value=True)
    raise ValueError("'sql_result' must be rows (a list of lists) or a single value")


# ---------------------------------------------------------------- metric functions (pure)


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        text = value.strip().replace(",", "")
        if re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text):
            return float(text)
    return None


def values_match(expected: Any, actual: Any, *, rel_tol: float = REL_TOL, abs_tol: float = ABS_TOL) -> bool:
    """Numbers within a small tolerance (a numeric string counts as a number); other values as trimmed,
    case-insensitive text; None equals the empty string."""
    a, b = _number(expected), _number(actual)
    if a is not None and b is not None:
        return math.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol)
    left = "" if expected is None else str(expected).strip().casefold()
    right = "" if actual is None else str(actual).strip().casefold()
    return left == right


def _rows_equal(expected: Sequence[Any], actual: Sequence[Any]) -> bool:
    return len(expected) == len(actual) and all(values_match(e, a) for e, a in zip(expected, actual, strict=True))


def multiset_match(expected: Sequence[Sequence[Any]], actual: Sequence[Sequence[Any]]) -> bool:
    """True when the rows can be paired one to one (bipartite matching, so tolerance never mis-pairs)."""
    if len(expected) != len(actual):
        return False
    options = [[j for j, row in enumerate(actual) if _rows_equal(exp_row, row)] for exp_row in expected]
    owner: dict[int, int] = {}

    def assign(i: int, visited: set[int]) -> bool:
        for j in options[i]:
            if j in visited:
                continue
            visited.add(j)
            if j not in owner or assign(owner[j], visited):
                owner[j] = i
                return True
        return False

    return all(assign(i, set()) for i in range(len(expected)))


def rows_match(expected: Sequence[Sequence[Any]], actual: Sequence[Sequence[Any]], *, ordered: bool = False) -> bool:
    """Expected rows vs a result: same number of rows, and some choice of the result's columns (as many as
    the expected rows have, in any order) reproduces them; row order matters only when `ordered`."""
    if len(expected) != len(actual):
        return False
    if not expected:
        return True
    width = len(expected[0])
    actual_width = min(len(row) for row in actual)
    if width > actual_width:
        return False

    def column_fits(j: int, c: int) -> bool:
        wanted = [[row[j]] for row in expected]
        got = [[row[c]] for row in actual]
        return all(_rows_equal(w, g) for w, g in zip(wanted, got, strict=True)) if ordered \
            else multiset_match(wanted, got)

    candidates = [[c for c in range(actual_width) if column_fits(j, c)] for j in range(width)]
    for columns in itertools.product(*candidates):
        if len(set(columns)) != width:
            continue
        projected = [[row[c] for c in columns] for row in actual]
        if (all(_rows_equal(e, p) for e, p in zip(expected, projected, strict=True)) if ordered
                else multiset_match(expected, projected)):
            return True
    return False


def value_match(expected: Any, actual_rows: Sequence[Sequence[Any]]) -> bool:
    """A single expected value: the result is one row and one of its cells is that value."""
    return len(actual_rows) == 1 and any(values_match(expected, cell) for cell in actual_rows[0])


def sql_result_match(expected: ExpectedSQL, actual_rows: Sequence[Sequence[Any]], *, ordered: bool = False) -> bool:
    if expected.has_value:
        return value_match(expected.value, actual_rows)
    return rows_match(expected.rows or [], actual_rows, ordered=ordered)


def confusion_matrix(pairs: Iterable[tuple[str, str | None]], labels: Sequence[str] = ROUTES
                     ) -> dict[str, dict[str, int]]:
    """expected -> actual -> count, over the given labels plus 'none' (no route: an error before routing)."""
    columns = [*labels, "none"]
    matrix = {expected: dict.fromkeys(columns, 0) for expected in labels}
    for expected, actual in pairs:
        row = matrix.setdefault(expected, dict.fromkeys(columns, 0))
        key = actual if actual in columns else "none"
        row[key] = row.get(key, 0) + 1
    return matrix


def _is_relevant(item: Any, relevant: Sequence[str]) -> bool:
    """`item` is a retrieved (url, title, row_key) or a plain identifier."""
    keys = item if isinstance(item, tuple | list) else (item,)
    keys = [str(k).strip().casefold() for k in keys if k not in (None, "")]
    return any(r.strip().casefold() in keys for r in relevant)


def reciprocal_rank(retrieved: Sequence[Any], relevant: Sequence[str]) -> float:
    for rank, item in enumerate(retrieved, start=1):
        if _is_relevant(item, relevant):
            return 1.0 / rank
    return 0.0


def hit_at_k(retrieved: Sequence[Any], relevant: Sequence[str], k: int) -> bool:
    return any(_is_relevant(item, relevant) for item in retrieved[:k])


def recall_at_k(retrieved: Sequence[Any], relevant: Sequence[str], k: int) -> float:
    """Share of the relevant items found in the top k (at most k / len(relevant) when there are more)."""
    if not relevant:
        return 0.0
    found = {r for r in relevant for item in retrieved[:k] if _is_relevant(item, [r])}
    return len(found) / len(relevant)


def percentile(values: Sequence[float], p: float) -> float | None:
    """Linear-interpolated percentile (p in 0..100); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    position = (len(ordered) - 1) * p / 100
    low, high = math.floor(position), math.ceil(position)
    return round(ordered[low] + (ordered[high] - ordered[low]) * (position - low), 3)


def _rate(numerator: float, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None


def says_no_answer(answer: str, route: str | None, chunks: int, error: str | None) -> bool:
    """The reply says nothing was found ('found nothing relevant', 'No rows match'), or a retrieval route
    came back with no chunk at all."""
    if error:
        return False
    return bool(NO_ANSWER.search(answer or "")) or (route in ("vector", "hybrid") and chunks == 0)


# ---------------------------------------------------------------- scoring one case


@dataclass
class CaseResult:
    id: str
    question: str
    kind: str  # sql | retrieval | no_answer
    expected_route: str
    accepted_routes: list[str]
    actual_route: str | None
    route_ok: bool
    reason: str = ""
    passed: bool = False
    failure_reasons: list[str] = field(default_factory=list)
    notes: str = ""
    answer: str = ""
    error: str | None = None
    # SQL
    sql: str | None = None
    sql_ok: bool | None = None
    expected_sql_result: Any = None
    columns: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    row_count: int = 0
    # retrieval
    filters: list[str] = field(default_factory=list)
    retrieved: list[dict[str, Any]] = field(default_factory=list)
    relevant: list[str] = field(default_factory=list)
    best_score: float | None = None  # similarity of the best retrieved chunk
    hit: bool | None = None
    recall: float | None = None
    reciprocal_rank: float | None = None
    # answer
    said_no_answer: bool = False
    cited: bool = False
    # cost and time
    latency_ms: float = 0.0
    timings_ms: dict[str, float] = field(default_factory=dict)
    llm_calls: int = 0
    llm_models: dict[str, int] = field(default_factory=dict)  # calls per model ('offline' = the SQL writer)
    tokens: dict[str, int] = field(default_factory=dict)
    cost_usd: float = 0.0
    turn_id: str | None = None
    turn: dict[str, Any] | None = None  # the whole turn (with its trace), kept for failures

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def score_case(case: Case, turn: Any, k: int) -> CaseResult:
    """Compare one turn with its case; every failed check adds a plain reason."""
    trace = turn.trace
    route = turn.route
    result = CaseResult(id=case.id, question=case.question, kind=case.kind, expected_route=case.route,
                        accepted_routes=list(case.accepted_routes), actual_route=route,
                        route_ok=route in case.accepted_routes, reason=trace.reason, notes=case.notes,
                        answer=turn.answer, error=turn.error, sql=trace.sql, columns=list(trace.columns),
                        rows=[list(r) for r in trace.rows[:KEPT_ROWS]], row_count=trace.row_count,
                        filters=[f.describe() for f in trace.filters], latency_ms=trace.timings_ms.get("total", 0.0),
                        timings_ms=dict(trace.timings_ms), llm_calls=len(trace.llm_calls),
                        llm_models=dict(Counter(c.model for c in trace.llm_calls)), tokens=dict(trace.tokens),
                        cost_usd=float(turn.cost_usd or 0.0), turn_id=turn.id)
    reasons = result.failure_reasons
    if turn.error:
        reasons.append(f"error: {turn.error}")
    if not result.route_ok:
        wanted = " or ".join(case.accepted_routes)
        reasons.append(f"routed to {route or 'no route'}, expected {wanted}")
    if case.sql_result is not None:
        result.expected_sql_result = case.sql_result.to_dict()
        if route != "sql" or not trace.sql:
            result.sql_ok = False
            reasons.append(f"no SQL result to compare: the question went to the {route or 'no'} route")
        else:
            result.sql_ok = sql_result_match(case.sql_result, trace.rows, ordered=case.ordered)
            if trace.row_count > len(trace.rows):
                result.sql_ok = False
                reasons.append(f"the result has {trace.row_count} rows; only {len(trace.rows)} were kept to compare")
            elif not result.sql_ok:
                reasons.append(f"SQL result differs: got {trace.row_count} row(s) {_preview(trace.rows)}, expected "
                               f"{_preview(case.sql_result.to_dict())}" + (" in this order" if case.ordered else ""))
    chunks = list(trace.chunks)
    if chunks:
        result.best_score = max(c.score for c in chunks)
    if case.relevant or case.no_answer:
        result.retrieved = [{"title": c.title, "url": c.url, "row_key": c.row_key, "score": c.score}
                            for c in chunks[:k]]
    if case.relevant:
        result.relevant = list(case.relevant)
        keys = [(c.url, c.title, c.row_key) for c in chunks]
        result.hit = hit_at_k(keys, case.relevant, k)
        result.recall = round(recall_at_k(keys, case.relevant, k), 4)
        result.reciprocal_rank = round(reciprocal_rank(keys[:k], case.relevant), 4)
        if not result.hit:
            titles = "; ".join(f"{c.title} ({c.score:.2f})" for c in chunks[:k]) or "nothing"
            reasons.append(f"no relevant document in the top {k}: retrieved {titles}")
    result.said_no_answer = says_no_answer(turn.answer, route, len(chunks), turn.error)
    if case.no_answer and not result.said_no_answer and not turn.error:
        best = max((c.score for c in chunks), default=0.0)
        reasons.append(f"answered although nothing relevant exists (best similarity {best:.2f})")
    elif case.answer_exists and result.said_no_answer:
        reasons.append("replied that nothing was found although an answer exists")
    sql_ran = route == "sql" and bool(trace.sql) and str(trace.sql_verdict or "").startswith("allowed")
    result.cited = turn.error is None and (bool(turn.citations) or sql_ran)
    result.passed = not reasons
    if not result.passed:
        result.turn = turn.to_dict()
    return result


def _crashed(case: Case, error: BaseException) -> CaseResult:
    """An unexpected exception (a bug, not a domain error): recorded, and the run goes on."""
    text = "".join(traceback.format_exception_only(type(error), error)).strip()
    return CaseResult(id=case.id, question=case.question, kind=case.kind, expected_route=case.route,
                      accepted_routes=list(case.accepted_routes), actual_route=None, route_ok=False, notes=case.notes,
                      error=f"crashed: {text}", failure_reasons=[f"crashed: {text}"],
                      expected_sql_result=case.sql_result.to_dict() if case.sql_result else None,
                      turn={"traceback": traceback.format_exc()})


def _preview(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit] + "…"


# ---------------------------------------------------------------- the report


@dataclass
class EvalReport:
    meta: dict[str, Any]
    summary: dict[str, Any]
    cases: list[CaseResult]

    @property
    def failures(self) -> list[CaseResult]:
        return [c for c in self.cases if not c.passed]

    def to_dict(self) -> dict[str, Any]:
        return {"meta": self.meta, "summary": self.summary, "cases": [c.to_dict() for c in self.cases]}

    def summary_dict(self) -> dict[str, Any]:
        """What `python -m rag eval --json` prints: meta, figures and one line per failure."""
        return {"meta": self.meta, "summary": self.summary,
                "failures": [{"id": c.id, "question": c.question, "expected_route": c.expected_route,
                              "actual_route": c.actual_route, "reasons": c.failure_reasons} for c in self.failures]}


def _latency(values: Sequence[float]) -> dict[str, Any]:
    return {"n": len(values), "p50": percentile(values, 50), "p95": percentile(values, 95),
            "mean": round(sum(values) / len(values), 3) if values else None,
            "max": round(max(values), 3) if values else None}


def summarise(results: Sequence[CaseResult], k: int) -> dict[str, Any]:
    total = len(results)
    routed = sum(r.route_ok for r in results)
    by_route: dict[str, dict[str, Any]] = {}
    for route in ROUTES:
        group = [r for r in results if r.expected_route == route]
        by_route[route] = {"cases": len(group), "routing_accuracy": _rate(sum(r.route_ok for r in group), len(group)),
                           "pass_rate": _rate(sum(r.passed for r in group), len(group))}
    sql = [r for r in results if r.kind == "sql"]
    retrieval = [r for r in results if r.kind == "retrieval"]
    no_answer = [r for r in results if r.kind == "no_answer"]
    answerable = [r for r in results if r.kind != "no_answer" and not _expects_empty(r)]
    latency_by_route: dict[str, list[float]] = defaultdict(list)
    latency_by_step: dict[str, list[float]] = defaultdict(list)
    for r in results:
        if r.actual_route:
            latency_by_route[r.actual_route].append(r.latency_ms)
        for step, ms in r.timings_ms.items():
            if step != "total":
                latency_by_step[step].append(ms)
    calls = sum(r.llm_calls for r in results)
    tokens: Counter[str] = Counter()
    models: Counter[str] = Counter()
    for r in results:
        tokens.update(r.tokens)
        models.update(r.llm_models)
    hit_scores = [r.best_score for r in retrieval if r.hit and r.best_score is not None]
    empty_scores = [r.best_score for r in no_answer if r.best_score is not None]
    cost = round(sum(r.cost_usd for r in results), 6)
    return {
        "cases": total,
        "passed": sum(r.passed for r in results),
        "pass_rate": _rate(sum(r.passed for r in results), total),
        "errors": sum(1 for r in results if r.error),
        "routing_accuracy": _rate(routed, total),
        "routing_correct": routed,
        "confusion": confusion_matrix((r.expected_route, r.actual_route) for r in results),
        "by_route": by_route,
        "sql": {"cases": len(sql), "correct": sum(bool(r.sql_ok) for r in sql),
                "accuracy": _rate(sum(bool(r.sql_ok) for r in sql), len(sql))},
        "retrieval": {"cases": len(retrieval), "k": k,
                      "hit_at_k": _rate(sum(bool(r.hit) for r in retrieval), len(retrieval)),
                      "recall_at_k": _rate(sum(r.recall or 0.0 for r in retrieval), len(retrieval)),
                      "mrr": _rate(sum(r.reciprocal_rank or 0.0 for r in retrieval), len(retrieval)),
                      # Where a 'nothing relevant' threshold could sit: best scores of hits vs of no-answer cases.
                      "best_score_when_hit": {"min": min(hit_scores, default=None),
                                              "p10": percentile(hit_scores, 10), "p50": percentile(hit_scores, 50)},
                      "best_score_when_no_answer": {"max": max(empty_scores, default=None),
                                                    "p50": percentile(empty_scores, 50)}},
        "answers": {"answerable_cases": len(answerable),
                    "citation_rate": _rate(sum(r.cited for r in answerable), len(answerable)),
                    "no_answer_rate_when_answer_exists": _rate(sum(r.said_no_answer for r in answerable),
                                                               len(answerable)),
                    "no_answer_cases": len(no_answer),
                    "correct_no_answer_rate": _rate(sum(r.said_no_answer for r in no_answer), len(no_answer))},
        "latency_ms": {"all": _latency([r.latency_ms for r in results if r.actual_route]),
                       "by_route": {route: _latency(latency_by_route.get(route, [])) for route in ROUTES},
                       "by_step": {step: _latency(values) for step, values in sorted(latency_by_step.items())}},
        "llm": {"calls": calls, "calls_per_question": _rate(calls, total), "calls_by_model": dict(models),
                "tokens": {"prompt": tokens["prompt"], "completion": tokens["completion"], "total": tokens["total"]},
                "tokens_per_question": _rate(tokens["total"], total),
                "cost_usd": cost, "cost_per_question_usd": round(cost / total, 6) if total else None},
        "failures": [r.id for r in results if not r.passed],
    }


def _expects_empty(result: CaseResult) -> bool:
    return result.kind == "sql" and result.expected_sql_result == []


def run_eval(cases: CaseSet, settings: Settings, *, assistant: Any | None = None,
             progress: Callable[[int, int, CaseResult], None] | None = None) -> EvalReport:
    """Ask every case through the app's Assistant (built from `settings` unless given) and score it."""
    from rag.assistant import Assistant

    started_at = datetime.now(UTC).isoformat(timespec="seconds")
    clock = time.perf_counter()
    build_ms = 0.0
    if assistant is None:
        assistant = Assistant.build(settings)
        build_ms = round((time.perf_counter() - clock) * 1000, 1)
    warm = time.perf_counter()
    assistant.ask(WARM_UP_QUESTION)  # loads the embedding model and caches, so case latencies are steady-state
    warm_up_ms = round((time.perf_counter() - warm) * 1000, 1)
    results: list[CaseResult] = []
    for number, case in enumerate(cases.cases, start=1):
        try:
            result = score_case(case, assistant.ask(case.question), settings.top_k)
        except Exception as error:  # noqa: BLE001 - one broken case must not end the run
            result = _crashed(case, error)
        results.append(result)
        if progress:
            progress(number, len(cases.cases), result)
    meta = {
        "cases_file": cases.source, "version": cases.version, "case_table": cases.table,
        "table": settings.table, "db": mask_url(settings.db_url), "index_dir": settings.index_dir,
        "embed_model": settings.embed_model, "top_k": settings.top_k,
        "provider": getattr(assistant, "provider_label", settings.effective_provider),
        "started_at": started_at, "build_ms": build_ms, "warm_up_ms": warm_up_ms,
        "duration_s": round(time.perf_counter() - clock, 2),
    }
    if settings.table != cases.table:
        meta["warning"] = f"the cases were written for table {cases.table!r} but ran against {settings.table!r}"
    return EvalReport(meta=meta, summary=summarise(results, settings.top_k), cases=results)


# ---------------------------------------------------------------- writing


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _scores(figures: dict[str, Any], *keys: str) -> str:
    return " / ".join("n/a" if figures.get(k) is None else f"{figures[k]:.2f}" for k in keys)


def _ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}"


def _cell(text: Any, limit: int = 160) -> str:
    value = " ".join(str(text).split())
    value = value if len(value) <= limit else value[:limit] + "…"
    return value.replace("|", "\\|")


def summary_markdown(report: EvalReport) -> str:
    s, m = report.summary, report.meta
    lines = [
        "# Evaluation summary", "",
        f"Cases `{m['cases_file']}` (version {m['version']}) on table `{m['table']}` of `{m['db']}`; "
        f"provider {m['provider']}; embeddings {m['embed_model']}; k = {m['top_k']}; started {m['started_at']}, "
        f"{m['duration_s']} s (engine build {m['build_ms']} ms, warm-up {m['warm_up_ms']} ms, not in the latencies).",
        "",
    ]
    if m.get("warning"):
        lines += [f"**Warning:** {m['warning']}.", ""]
    answers, retrieval, sql = s["answers"], s["retrieval"], s["sql"]
    mrr = "n/a" if retrieval["mrr"] is None else f"{retrieval['mrr']:.3f}"
    lines += [
        "| Figure | Value |", "|---|---|",
        f"| Cases passed | {s['passed']} / {s['cases']} ({_pct(s['pass_rate'])}) |",
        f"| Routing accuracy | {_pct(s['routing_accuracy'])} ({s['routing_correct']} / {s['cases']}) |",
        f"| SQL execution accuracy | {_pct(sql['accuracy'])} ({sql['correct']} / {sql['cases']}) |",
        f"| Retrieval hit@{retrieval['k']} | {_pct(retrieval['hit_at_k'])} ({retrieval['cases']} cases) |",
        f"| Retrieval recall@{retrieval['k']} | {_pct(retrieval['recall_at_k'])} |",
        f"| Retrieval MRR | {mrr} |",
        f"| Citation rate (answerable) | {_pct(answers['citation_rate'])} |",
        f"| 'No answer' replies when an answer exists | {_pct(answers['no_answer_rate_when_answer_exists'])} |",
        f"| Correct 'no answer' when none exists | {_pct(answers['correct_no_answer_rate'])} "
        f"({answers['no_answer_cases']} cases) |",
        f"| Errors | {s['errors']} |",
        f"| Best similarity: hits (min / p10 / p50) | "
        f"{_scores(retrieval['best_score_when_hit'], 'min', 'p10', 'p50')} |",
        f"| Best similarity: no-answer cases (max / p50) | "
        f"{_scores(retrieval['best_score_when_no_answer'], 'max', 'p50')} |",
        f"| LLM calls per question | {s['llm']['calls_per_question']} (by model: {s['llm']['calls_by_model'] or '-'}; "
        "'offline' is the deterministic SQL writer) |",
        f"| Tokens per question | {s['llm']['tokens_per_question']} |",
        f"| Estimated cost | ${s['llm']['cost_usd']:.4f} "
        f"(${s['llm']['cost_per_question_usd'] or 0:.6f} per question) |",
        "", "## Routing", "", "Confusion matrix (rows: expected route, columns: actual route).", "",
        "| expected \\ actual | " + " | ".join([*ROUTES, "none"]) + " |", "|---" * (len(ROUTES) + 2) + "|",
    ]
    for expected, row in s["confusion"].items():
        lines.append(f"| {expected} | " + " | ".join(str(row.get(c, 0)) for c in [*ROUTES, "none"]) + " |")
    lines += ["", "| Expected route | Cases | Routing accuracy | Pass rate |", "|---|---|---|---|"]
    for route, figures in s["by_route"].items():
        lines.append(f"| {route} | {figures['cases']} | {_pct(figures['routing_accuracy'])} | "
                     f"{_pct(figures['pass_rate'])} |")
    lines += ["", "## Latency (ms)", "", "| Route / step | n | p50 | p95 | max |", "|---|---|---|---|---|"]
    latency = s["latency_ms"]
    lines.append(f"| all | {latency['all']['n']} | {_ms(latency['all']['p50'])} | {_ms(latency['all']['p95'])} | "
                 f"{_ms(latency['all']['max'])} |")
    for route, figures in latency["by_route"].items():
        lines.append(f"| route {route} | {figures['n']} | {_ms(figures['p50'])} | {_ms(figures['p95'])} | "
                     f"{_ms(figures['max'])} |")
    for step, figures in latency["by_step"].items():
        lines.append(f"| step `{step}` | {figures['n']} | {_ms(figures['p50'])} | {_ms(figures['p95'])} | "
                     f"{_ms(figures['max'])} |")
    failures = report.failures
    lines += ["", f"## Failures ({len(failures)})", ""]
    if not failures:
        lines.append("None.")
    for r in failures:
        lines += [f"### `{r.id}` — {_cell(r.question, 200)}", "",
                  f"- expected route **{' / '.join(r.accepted_routes)}**, actual **{r.actual_route or 'none'}**; "
                  f"reason: {_cell(r.reason, 300)}"]
        lines += [f"- {_cell(reason, 600)}" for reason in r.failure_reasons]
        if r.sql:
            lines.append(f"- SQL: `{_cell(r.sql, 600)}`")
        if r.kind == "sql":
            lines.append(f"- expected: `{_cell(json.dumps(r.expected_sql_result, ensure_ascii=False), 600)}`")
        if r.retrieved:
            lines.append("- retrieved: " + "; ".join(f"{_cell(c['title'], 90)} ({c['score']:.2f})"
                                                     for c in r.retrieved))
        lines.append(f"- turn `{r.turn_id}` (full trace in report.json)")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def default_out_dir() -> Path:
    return DEFAULT_RESULTS / datetime.now().strftime("%Y%m%d-%H%M%S")


def write_report(report: EvalReport, out_dir: str | Path | None = None) -> dict[str, Path]:
    """Write `report.json` (everything, with the full turn of each failure) and `summary.md`."""
    out = Path(out_dir) if out_dir else default_out_dir()
    out.mkdir(parents=True, exist_ok=True)
    paths = {"report": out / "report.json", "summary": out / "summary.md"}
    paths["report"].write_text(json.dumps(report.to_dict(), indent=2, ensure_ascii=False, default=str) + "\n",
                               encoding="utf-8")
    paths["summary"].write_text(summary_markdown(report), encoding="utf-8")
    return paths
