"""The facade the app and the CLI call: `Assistant.build(settings).ask(question) -> Turn`, and the rest
of what pages need (the table's profile and roles, index status and sync, read-only overview queries).

`ask` validates the question, runs the router (or a forced engine) inside a trace recording, and turns
the engine's typed result, or any domain error, into a `Turn`. With Gemini, an unavailable LLM falls
back to the offline engine and the answer says so.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rag import tracing
from rag.answer.chart_spec import choose_chart
from rag.answer.context import EmbedderAdapter, EngineContext
from rag.answer.markdown import escape_markdown
from rag.answer.router import build_engines, build_router
from rag.answer.sql_database import GuardedSQLDatabase
from rag.data import previews
from rag.data.index import IndexStatus, SyncReport, VectorIndex, index_error
from rag.data.role_store import RoleChange, RolesReport, change_roles, roles_report
from rag.data.source import TableProfile, TableSource
from rag.errors import BadQuestion, InternalError, LLMUnavailable, RagError
from rag.llm.prompts import text_to_sql_prompt
from rag.llm.synthesis import LLMSynthesizer
from rag.models import EngineResult, PlanEdit, QueryResult, Route, Span, Trace, Turn
from rag.providers import Providers, build_providers, estimate_cost
from rag.settings import Settings
from rag.understand.interpretation import apply_edit, describe_edit
from rag.understand.offline_writer import OFFLINE_TEXT_TO_SQL_PROMPT, OfflineSQLWriter
from rag.understand.planner import Planner
from rag.understand.text_to_sql import SQLBuilder

logger = logging.getLogger(__name__)


def validate_question(question: Any, max_chars: int) -> str:
    """A clean question or BadQuestion, before any engine (or LLM) runs."""
    if isinstance(question, bytes | bytearray):
        try:
            question = bytes(question).decode("utf-8")
        except UnicodeDecodeError as error:
            raise BadQuestion("The question is not valid UTF-8 text.") from error
    if not isinstance(question, str):
        raise BadQuestion("The question must be text.")
    text = question.strip()
    if not text:
        raise BadQuestion("Please type a question.")
    if len(text) > max_chars:
        raise BadQuestion(f"The question is {len(text):,} characters long; the limit is {max_chars:,}. "
                          "Please shorten it.")
    controls = sum(1 for ch in text if unicodedata.category(ch) in ("Cc", "Cs", "Co") and ch not in "\n\t\r")
    if "\x00" in text or controls > max(2, len(text) // 20) or "\ufffd" in text:
        raise BadQuestion("The question contains binary or unreadable characters.")
    return " ".join(text.split())


@dataclass
class Assistant:
    settings: Settings
    context: EngineContext
    engines: dict[Route, Any]
    router: Any
    providers: Providers
    fallback: Assistant | None = None

    @classmethod
    def build(cls, settings: Settings, *, providers: Providers | None = None, source: TableSource | None = None,
              index: VectorIndex | None = None) -> Assistant:
        """Wire source, index, planner, engines and router for the configured provider."""
        providers = providers or build_providers(settings)
        source = source or TableSource.from_settings(settings)
        index = index or VectorIndex(settings, providers.embedder)
        profile = source.profile()
        planner = Planner(source.table, source.roles, profile)
        date_is_text = bool(source.roles.date) and source.columns[source.roles.date].type != "date"
        builder = SQLBuilder(source.table, source.roles, profile, source.dialect, date_is_text=date_is_text,
                             columns=list(source.columns))

        def write_sql(question: str) -> str:
            return builder.answer_sql(planner.plan(question))

        offline_llm = OfflineSQLWriter(write_sql)
        database = GuardedSQLDatabase(source, settings.max_rows)
        embed_model = EmbedderAdapter(providers.embedder)
        uses_llm = providers.llm is not None

        def context_for(llm: Any, synthesizer: Any) -> EngineContext:
            return EngineContext(settings=settings, source=source, index=index, planner=planner, sql_builder=builder,
                                 database=database, embed_model=embed_model, llm=llm, synthesizer=synthesizer)

        fallback = None
        if uses_llm:
            offline_context = context_for(offline_llm, None)
            offline_engines = build_engines(offline_context, OFFLINE_TEXT_TO_SQL_PROMPT)
            fallback = cls(settings, offline_context, offline_engines,
                           build_router(offline_context, offline_engines, use_llm_selector=False),
                           Providers(providers.embedder))
            # The language model's prompts speak of this table: its name, row noun and column rules.
            synthesizer = LLMSynthesizer(providers.llm, table=source.table, date_key=source.roles.date,
                                         token_budget=settings.synthesis_tokens)
            context = context_for(providers.llm, synthesizer)
            engines = build_engines(context, text_to_sql_prompt(source.table, source.roles))
        else:
            context = context_for(offline_llm, None)
            engines = build_engines(context, OFFLINE_TEXT_TO_SQL_PROMPT)
        router = build_router(context, engines, use_llm_selector=uses_llm)
        return cls(settings, context, engines, router, providers, fallback)

    @property
    def provider_label(self) -> str:
        return self.providers.provider_name if self.providers.llm is None else \
            f"{self.providers.provider_name} ({self.providers.model_name})"

    def ask(self, question: Any, route: Route | str | None = None,
            on_step: Callable[[Span], None] | None = None, on_token: Callable[[str], None] | None = None) -> Turn:
        """Answer one question; never raises for domain errors (they become the turn's error).

        `on_step` is called with each step's span as it ends, for live progress; `on_token` with the answer
        so far while an LLM streams it (offline answers arrive whole)."""
        try:
            forced = Route(route) if route else None
        except ValueError:
            trace = Trace(question=str(question)[:2000], provider=self.provider_label)
            return self._failed(trace, BadQuestion(f"Unknown route {route!r}; choose sql, vector or hybrid."))
        trace = Trace(question=str(question)[:2000] if not isinstance(question, bytes) else "<binary>",
                      provider=self.provider_label, forced_route=forced.value if forced else None)

        def answer(assistant: Assistant) -> Turn:
            if assistant is self:
                with tracing.span("validate"):
                    trace.question = validate_question(question, self.settings.max_question_chars)
            return assistant._answer(trace.question, forced, trace)

        return self._guarded(trace, answer, on_step, on_token)

    def rerun(self, turn: Turn, edit: PlanEdit, on_step: Callable[[Span], None] | None = None) -> Turn:
        """Answer `turn`'s question again from its reading with the user's edit applied (a condition removed,
        an alternative chosen), without parsing the question again; the new turn says it was edited."""
        reading = turn.result.interpretation
        trace = Trace(question=turn.question, provider=self.provider_label)
        if reading is None or reading.plan is None:
            return self._failed(trace, BadQuestion("This answer's reading cannot be edited (it was read from SQL a "
                                                   "language model wrote); rephrase the question instead."))
        change = describe_edit(reading, edit)
        trace.notes.append(f"Edited from turn {turn.id}: {change}.")
        plan = apply_edit(reading.plan, edit)

        def answer(assistant: Assistant) -> Turn:
            route, reason = plan.route()
            with tracing.span("route", route=route.value, reason=reason, edited=change):
                pass
            response = assistant.engines[route].answer(turn.question, plan)
            edited = assistant._turn(turn.question, response, route, f"edited by the user ({change}); {reason}", trace)
            if edited.result.interpretation is not None:
                edited.result.interpretation.edited_from = turn.id
                edited.answer = assistant._with_restatement(edited.result, str(response.response))
            return edited

        return self._guarded(trace, answer, on_step, None)

    def _guarded(self, trace: Trace, answer: Callable[[Assistant], Turn], on_step: Callable[[Span], None] | None,
                 on_token: Callable[[str], None] | None) -> Turn:
        """Run `answer` inside the turn's trace recording; domain errors, an unavailable LLM (answered by the
        offline engine when there is one) and bugs all end as a readable turn."""
        with tracing.recording(trace, on_step, on_token) as recorder:
            try:
                return answer(self)
            except LLMUnavailable as error:
                if self.fallback is None:
                    return self._failed(trace, error)
                trace.notes.append(f"{error} Answered by the offline engine instead.")
                with recorder.span("fallback.offline"):
                    turn = answer(self.fallback)
                turn.answer = f"_The language model was unavailable ({escape_markdown(str(error), one_line=True)}); " \
                              f"this answer comes from the offline engine._\n\n{turn.answer}"
                turn.cost_usd = estimate_cost(self.providers.model_name, trace.tokens)  # calls made before failing
                return turn
            except RagError as error:
                return self._failed(trace, error)
            except Exception as error:  # noqa: BLE001 - a bug must still end as a readable turn, with a log
                index_problem = index_error(error, self.settings)
                if index_problem is not None:  # the search index failed (server down, files damaged): plain words
                    logger.warning("search index failure answering %r: %r", trace.question, error)
                    self.context._vector_index = None  # reopened by the next question (after a rebuild elsewhere)
                    return self._failed(trace, index_problem)
                logger.exception("unexpected error answering %r", trace.question)
                return self._failed(trace, InternalError(f"An unexpected error occurred ({type(error).__name__}); "
                                                         "it has been logged. Please try rephrasing."))

    def _answer(self, question: str, forced: Route | None, trace: Trace) -> Turn:
        recorder = tracing.current()
        assert recorder is not None
        if forced:
            route, reason = forced, "forced by the user"
            with recorder.span("route", route=route.value, reason=reason):
                pass
            response = self.engines[forced].query(question)
        else:
            with recorder.span("route+answer") as attrs:
                response = self.router.query(question)
                selection = response.metadata["selector_result"].selections[0]
                route, reason = (Route.SQL, Route.VECTOR, Route.HYBRID)[selection.index], selection.reason
                attrs.update(route=route.value, reason=reason)
        return self._turn(question, response, route, reason, trace)

    def _turn(self, question: str, response: Any, route: Route, reason: str, trace: Trace) -> Turn:
        result: EngineResult = (response.metadata or {}).get("engine_result") or EngineResult()
        result.route, result.reason = route.value, reason
        chart = choose_chart(result.result) if route == Route.SQL else None
        turn = Turn(question=question, answer=self._with_restatement(result, str(response.response)), trace=trace,
                    result=result, chart=chart)
        turn.cost_usd = estimate_cost(self.providers.model_name, trace.tokens)
        return turn

    @staticmethod
    def _with_restatement(result: EngineResult, answer: str) -> str:
        """The reading first, so a misreading is never silent."""
        if result.interpretation is None:
            return answer
        return f"_{escape_markdown(result.interpretation.restatement(), one_line=True)}_\n\n{answer}"

    def _failed(self, trace: Trace, error: RagError) -> Turn:
        trace.error = f"{error.title}: {error}"
        result = error.partial if isinstance(error.partial, EngineResult) else EngineResult()
        if error.sql_run is not None and result.sql is None:
            result.record_sql(error.sql_run)
        result.route = result.route or trace.forced_route
        # The message may quote a value, a statement or an exception's text: data, escaped once like any other.
        return Turn(question=trace.question, answer=f"**{error.title}.** {escape_markdown(error)}", trace=trace,
                    result=result, error=str(error))

    # ---------------------------------------------------------------- what pages need besides answers

    @property
    def source(self) -> TableSource:
        return self.context.source

    def profile(self) -> TableProfile:
        """Row count, categories, authors and date range of the table (computed once, then cached)."""
        return self.context.source.profile()

    def check_index(self) -> None:
        """Raises IndexMissing when the index is missing, damaged, unreachable or built with another model."""
        self.context.index.check()

    def index_status(self) -> IndexStatus:
        return self.context.index.status(self.context.source)

    def sync_index(self, *, rebuild: bool = False, progress: Callable[[Any], None] | None = None) -> SyncReport:
        """Bring the index up to date with the table (only changed rows are embedded)."""
        return self.context.index.sync(self.context.source, rebuild=rebuild, progress=progress)

    def roles(self) -> RolesReport:
        """Each column with its role, the evidence and who set it; the important roles no column plays."""
        return roles_report(self.context.source, self.settings)

    def missing_roles(self) -> list[str]:
        """Important roles (title, date, category, authors) no column plays."""
        return self.context.source.roles.missing()

    def set_roles(self, choices: Mapping[str, str], *, reset: bool = False) -> RoleChange:
        """Save per-column role choices ({column: role}, `reset` first forgets every saved one) once they give
        valid roles. They apply to the next assistant built for these settings (this one keeps its roles); the
        returned change says whether the index needs a sync."""
        return change_roles(self.settings, self.context.source, choices, reset=reset)

    def overview(self, by: str) -> QueryResult | None:
        """Rows per category (`by="category"`) or per month (`by="month"`), through the SQL guard;
        None when the table has no such column."""
        source = self.context.source
        if by == "category" and source.roles.category:
            sql = previews.category_counts_sql(source.table, source.roles.category, source.dialect)
        elif by == "month" and source.roles.date:
            sql = previews.month_counts_sql(source.table, source.roles.date, source.dialect)
        else:
            return None
        return self.context.database.execute(sql).result
