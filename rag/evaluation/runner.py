"""Ask every case through the app's `Assistant` and score each turn against its case."""

from __future__ import annotations

import dataclasses
import json
import re
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from rag.evaluation.cases import Case, CaseSet
from rag.evaluation.metrics import (
    hit_at_k,
    is_silent_error,
    recall_at_k,
    reciprocal_rank,
    says_no_answer,
    sql_result_match,
    states_count,
)
from rag.evaluation.report import EvalReport, summarise
from rag.models import Conversation, Route
from rag.settings import Settings, mask_url

READ_ONLY = re.compile(r"\bonly reads\b|\bread-only\b", re.I)  # the reply to a request to change the table
KEPT_ROWS = 20  # rows of an actual SQL result kept per case in the report
# Baseline retrievals per retrieval case: the whole question, no filters, same k (what a stock pipeline does).
BASELINE_MODES = ("dense", "keyword")
WARM_UP_QUESTION = "warm-up question about nothing in particular"  # not scored; see run_eval

@dataclass
class CaseResult:
    id: str
    question: str
    kind: str  # sql | retrieval | no_answer
    expected_route: str
    accepted_routes: list[str]
    actual_route: str | None
    route_ok: bool
    # route_ok only by the one equivalence of routes (see `same_search`): kept apart so strict routing is reported
    route_equivalent: bool = False
    reason: str = ""
    passed: bool = False
    failure_reasons: list[str] = field(default_factory=list)
    notes: str = ""
    answer: str = ""
    error: str | None = None
    # SQL
    sql: str | None = None
    sql_ok: bool | None = None
    silent: bool | None = None  # a wrong SQL answer whose reading showed nothing wrong (see is_silent_error)
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
    hit_at_1: bool | None = None
    recall: float | None = None
    reciprocal_rank: float | None = None
    # mode -> {hit_at_1, hit, reciprocal_rank} of the baseline retrievals (whole question, no filters, same k)
    baseline: dict[str, dict[str, Any]] = field(default_factory=dict)
    # mode -> {hit_at_1, hit, reciprocal_rank} of the product's own retrieval (route, pre-filters, text) with each
    # search alone ("dense", "keyword") and fused ("fused": the turn's chunks); from EngineResult.rankings
    modes: dict[str, dict[str, Any]] = field(default_factory=dict)
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
    # a turn of a conversation case: the case's id, the earlier turn it built on, and whether that was expected
    conversation: str = ""
    builds_on: int | None = None
    follows_ok: bool | None = None
    turn: dict[str, Any] | None = None  # the whole turn (with its trace), kept for failures

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def same_search(case: Case, route: str | None, outcome: Any) -> bool:
    """Whether a case that expects the hybrid route was answered by the same search under the vector route: a
    topic narrowed by values of categorical columns only, every one applied as a metadata pre-filter (== / in) to
    the dense and the keyword search alike, none dropped. The product routes such a question as semantic narrowed
    by metadata ("trends in fashion", "EMEA contracts linked to CPI"); people label it either way (on dev, 38
    cases hybrid, 60 vector), and both labels name one operation: the same rows searched. Any other condition (a
    date, a person, a number, a negation) makes it a selection SQL must run, and there the hybrid label is strict."""
    return (route == "vector" and "hybrid" in case.accepted_routes and bool(outcome.filters)
            and not outcome.filters_dropped and all(f.op in ("==", "in") for f in outcome.filters))


def score_case(case: Case, turn: Any, k: int, roles: Any = None) -> CaseResult:
    """Compare one turn with its case; every failed check adds a plain reason. With the table's `roles`,
    a wrong SQL answer whose case states its reference SQL is also judged silent or visible."""
    trace, outcome = turn.trace, turn.result
    route = turn.route
    rows = outcome.result.rows if outcome.result else []
    result = CaseResult(id=case.id, question=case.question, kind=case.kind, expected_route=case.route,
                        accepted_routes=list(case.accepted_routes), actual_route=route,
                        route_ok=route in case.accepted_routes, reason=outcome.reason, notes=case.notes,
                        answer=turn.answer, error=turn.error, sql=outcome.sql,
                        columns=list(outcome.result.columns) if outcome.result else [],
                        rows=[list(r) for r in rows[:KEPT_ROWS]], row_count=len(rows),
                        filters=[f.describe() for f in outcome.filters], latency_ms=trace.timings_ms.get("total", 0.0),
                        timings_ms=dict(trace.timings_ms), llm_calls=len(trace.llm_calls),
                        llm_models=dict(Counter(c.model for c in trace.llm_calls)), tokens=dict(trace.tokens),
                        cost_usd=float(turn.cost_usd or 0.0), turn_id=turn.id)
    reasons = result.failure_reasons
    if turn.error:
        reasons.append(f"error: {turn.error}")
    if case.refuses:  # a request to change the table: no query of any kind, and a reply that says so
        result.expected_route, result.accepted_routes, result.route_ok = "none", ["none"], route is None
        if route is not None or outcome.sql or outcome.chunks:
            reasons.append(f"ran a query ({route or 'SQL'}) for a request to change the table")
        if not READ_ONLY.search(turn.answer or ""):
            reasons.append("the answer does not say that the app only reads the table")
        result.passed = not reasons
        if not result.passed:
            result.turn = turn.to_dict()
        return result
    if not result.route_ok and same_search(case, route, outcome):
        result.route_ok = result.route_equivalent = True
    if not result.route_ok:
        wanted = " or ".join(case.accepted_routes)
        reasons.append(f"routed to {route or 'no route'}, expected {wanted}")
    if case.sql_result is not None:
        result.expected_sql_result = case.sql_result.to_dict()
        if route != "sql" or not outcome.sql:
            result.sql_ok = False
            reasons.append(f"no SQL result to compare: the question went to the {route or 'no'} route")
        else:
            result.sql_ok = sql_result_match(case.sql_result, rows, ordered=case.ordered, columns=result.columns) \
                or states_count(turn.answer, case.sql_result)
            if not result.sql_ok:
                reasons.append(f"SQL result differs: got {len(rows)} row(s) {_preview(rows)}, expected "
                               f"{_preview(case.sql_result.to_dict())}" + (" in this order" if case.ordered else ""))
    chunks = list(outcome.chunks)
    if chunks:
        result.best_score = max(c.score for c in chunks)
    if case.relevant or case.no_answer:
        result.retrieved = [{"title": c.title, "url": c.url, "row_key": c.row_key, "score": c.score}
                            for c in chunks[:k]]
    if case.relevant:
        result.relevant = list(case.relevant)
        keys = [(c.url, c.title, c.row_key) for c in chunks]
        result.hit = hit_at_k(keys, case.relevant, k)
        result.hit_at_1 = hit_at_k(keys, case.relevant, 1)
        result.recall = round(recall_at_k(keys, case.relevant, k), 4)
        result.reciprocal_rank = round(reciprocal_rank(keys[:k], case.relevant), 4)
        if outcome.rankings:
            result.modes = {mode: _ranked(keys, case.relevant, k) for mode, keys in
                            [("fused", keys), *((mode, [(d["url"], d["title"], d["row_key"]) for d in ranked])
                                                for mode, ranked in outcome.rankings.items())]}
        if not result.hit:
            titles = "; ".join(f"{c.title} ({c.score:.2f})" for c in chunks[:k]) or "nothing"
            reasons.append(f"no relevant document in the top {k}: retrieved {titles}")
    result.said_no_answer = says_no_answer(turn.answer, route, len(chunks), turn.error)
    if case.no_answer and not result.said_no_answer and not turn.error:
        best = max((c.score for c in chunks), default=0.0)
        reasons.append(f"answered although nothing relevant exists (best similarity {best:.2f})")
    elif case.answer_exists and result.said_no_answer:
        reasons.append("replied that nothing was found although an answer exists")
    sql_ran = route == "sql" and bool(outcome.sql) and str(outcome.sql_verdict or "").startswith("allowed")
    result.cited = turn.error is None and (bool(turn.citations) or sql_ran)
    result.passed = not reasons
    if case.sql_result is not None and case.reference_sql and roles is not None:
        result.silent = (not result.passed and not turn.error
                         and is_silent_error(case.reference_sql, outcome.interpretation, roles))
    if not result.passed:
        result.turn = turn.to_dict()
    return result


def score_turn(case: Case, turn: Any, conversation: Conversation, k: int, roles: Any = None) -> CaseResult:
    """Score one turn of a conversation case: as a single case, plus whether it built on the earlier turn it
    should have (or on none); an `explains` turn passes when no query ran and the answer names the explained
    turn's route."""
    reading = turn.result.interpretation
    builds_on = reading.builds_on if reading is not None else None
    if case.explains:
        trace = turn.trace
        result = CaseResult(id=case.id, question=case.question, kind="explain", expected_route="none",
                            accepted_routes=["none"], actual_route=turn.route, route_ok=turn.route is None,
                            reason=turn.result.reason, notes=case.notes, answer=turn.answer, error=turn.error,
                            sql=turn.result.sql, latency_ms=trace.timings_ms.get("total", 0.0),
                            timings_ms=dict(trace.timings_ms), llm_calls=len(trace.llm_calls),
                            tokens=dict(trace.tokens), cost_usd=float(turn.cost_usd or 0.0), turn_id=turn.id)
        if turn.error:
            result.failure_reasons.append(f"error: {turn.error}")
        if turn.route is not None or turn.result.sql:
            result.failure_reasons.append(f"ran a query ({turn.route or 'SQL'}) instead of explaining an answer")
        explained = conversation.find(case.follows or 0)
        if explained is not None and explained.route:
            label = Route(explained.route).label
            if label.lower() not in turn.answer.lower():
                result.failure_reasons.append(f"the explanation does not name the {label} route of #{case.follows}")
    else:
        result = score_case(case, turn, k, roles)
    result.builds_on = builds_on
    if case.follows is not None:
        result.follows_ok = (builds_on or 0) == case.follows
        if not result.follows_ok:
            result.failure_reasons.append(
                f"answered on its own, expected to build on #{case.follows}" if builds_on is None else
                f"built on #{builds_on}, but it is a question of its own" if case.follows == 0 else
                f"built on #{builds_on}, expected #{case.follows}")
    result.passed = not result.failure_reasons
    if not result.passed and result.turn is None:
        result.turn = turn.to_dict()
    return result


def _ranked(keys: list[Any], relevant: Sequence[str], k: int) -> dict[str, Any]:
    return {"hit_at_1": hit_at_k(keys, relevant, 1), "hit": hit_at_k(keys, relevant, k),
            "reciprocal_rank": round(reciprocal_rank(keys[:k], relevant), 4)}


def baseline_retrieval(assistant: Any, case: Case, k: int) -> dict[str, dict[str, Any]]:
    """The retrieval a stock pipeline would do, per mode in BASELINE_MODES: the whole question, no filters, no
    centring, the same k. Not part of the turn (its latency is not counted); {} when the assistant has no search
    context."""
    from rag.answer.context import RetrievalOptions
    from rag.answer.retrieval import retrieve
    from rag.errors import RagError

    context = getattr(assistant, "context", None)
    if context is None:
        return {}
    figures: dict[str, dict[str, Any]] = {}
    for mode in BASELINE_MODES:
        try:
            chunks = retrieve(context, case.question, None, options=RetrievalOptions(mode=mode, centring=0.0)).top
        except RagError:
            continue
        figures[mode] = _ranked([(c.url, c.title, c.row_key) for c in chunks], case.relevant, k)
    return figures


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
    source = getattr(assistant, "source", None)
    roles = source.roles if source is not None else None
    for number, case in enumerate(cases.cases, start=1):
        try:
            result = score_case(case, assistant.ask(case.question), settings.top_k, roles)
            if case.relevant:
                result.baseline = baseline_retrieval(assistant, case, settings.top_k)
        except Exception as error:  # noqa: BLE001 - one broken case must not end the run
            result = _crashed(case, error)
        results.append(result)
        if progress:
            progress(number, cases.turn_count, result)
    number = len(cases.cases)
    for conversation in cases.conversations:
        state = Conversation()
        for case in conversation.turns:
            number += 1
            try:
                result = score_turn(case, assistant.ask(case.question, conversation=state), state, settings.top_k,
                                    roles)
                if case.relevant:  # the baseline knows no conversation: the turn's words as typed, unfiltered
                    result.baseline = baseline_retrieval(assistant, case, settings.top_k)
            except Exception as error:  # noqa: BLE001 - one broken case must not end the run
                result = _crashed(case, error)
            result.conversation = conversation.id
            results.append(result)
            if progress:
                progress(number, cases.turn_count, result)
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
