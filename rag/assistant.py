"""The facade the app and the CLI call: `Assistant.build(settings).ask(question) -> Turn`, and the rest
of what pages need (the table's profile and roles, index status and sync, read-only overview queries).

`ask` validates the question, runs the router (or a forced engine) inside a trace recording, and turns
the engine's typed result, or any domain error, into a `Turn`. With Gemini, an unavailable LLM falls
back to the offline engine and the answer says so.

Long because it is the one facade: answering (ask, rerun, conversations) with its error handling, and what
pages need (profile, roles, index status and sync, overviews); each part is short and delegates.
"""

from __future__ import annotations

import dataclasses
import logging
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from rag import tracing
from rag.answer.chart_spec import choose_chart
from rag.answer.context import EmbedderAdapter, EngineContext
from rag.answer.markdown import escape_markdown
from rag.answer.router import build_engines, build_router
from rag.answer.sql_database import GuardedSQLDatabase
from rag.data import previews
from rag.data.index import IndexStatus, SyncReport, VectorIndex, index_error
from rag.data.labels import heading, label_of, reading_labels, title_case
from rag.data.role_store import RoleChange, RolesReport, change_roles, roles_report
from rag.data.source import TableProfile, TableSource
from rag.data.stock_sentences import repeated_sentences
from rag.errors import BadQuestion, InternalError, LLMUnavailable, RagError
from rag.history import History
from rag.llm.followup import standalone_question
from rag.llm.prompts import text_to_sql_prompt
from rag.llm.restatement import SearchRestater
from rag.llm.synthesis import LLMSynthesizer
from rag.models import (
    ConditionReading,
    Conversation,
    ConversationTurn,
    EngineResult,
    Interpretation,
    PlanEdit,
    QueryResult,
    Route,
    Span,
    Trace,
    Turn,
)
from rag.providers import Providers, build_providers, estimate_cost
from rag.settings import Settings
from rag.understand.followup import Detection, detect, plan_from_dict, plan_to_dict, resolve
from rag.understand.interpretation import apply_edit, describe_edit, is_certain, row_noun
from rag.understand.llm_reading import LLMReader, LLMReading
from rag.understand.offline_writer import OFFLINE_TEXT_TO_SQL_PROMPT, OfflineSQLWriter
from rag.understand.planner import Planner
from rag.understand.text_to_sql import SQLBuilder

logger = logging.getLogger(__name__)

KEPT_TABLE_ROWS = 50  # rows of an aggregate's grouped table kept in the conversation state
MAX_ROWS_OF_TURN = 50_000  # rows of an earlier answer a "which of those ..." search may look inside


def _rows_named(count: int, table: str) -> str:
    """"3 articles", "1 article": a count of the table's rows in words."""
    noun = row_noun(table)
    return f"{count} {noun[:-1] if count == 1 and noun.endswith('s') else noun}"


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
    reader: LLMReader | None = None  # with a language model: reads the questions the offline parser is unsure of

    @classmethod
    def build(cls, settings: Settings, *, providers: Providers | None = None, source: TableSource | None = None,
              index: VectorIndex | None = None) -> Assistant:
        """Wire source, index, planner, engines and router for the configured provider."""
        providers = providers or build_providers(settings)
        source = source or TableSource.from_settings(settings)
        index = index or VectorIndex(settings, providers.embedder)
        profile = source.profile()
        planner = Planner(source.table, source.roles, profile, text_mentions=index.keywords.mentions,
                          embed=providers.embedder.embed,
                          stock_sentences=lambda: [s for s, _ in repeated_sentences(index.keywords.texts())])
        date_is_text = bool(source.roles.date) and source.columns[source.roles.date].type != "date"
        builder = SQLBuilder(source.table, source.roles, profile, source.dialect, date_is_text=date_is_text,
                             columns=list(source.columns))

        def write_sql(question: str) -> str:
            return builder.answer_sql(planner.plan(question))

        offline_llm = OfflineSQLWriter(write_sql)
        database = GuardedSQLDatabase(source, settings.max_rows)
        embed_model = EmbedderAdapter(providers.embedder)
        uses_llm = providers.llm is not None

        def context_for(llm: Any, synthesizer: Any, restater: Any = None) -> EngineContext:
            return EngineContext(settings=settings, source=source, index=index, planner=planner, sql_builder=builder,
                                 database=database, embed_model=embed_model, llm=llm, synthesizer=synthesizer,
                                 restater=restater)

        fallback = None
        if uses_llm:
            offline_context = context_for(offline_llm, None)
            offline_engines = build_engines(offline_context, OFFLINE_TEXT_TO_SQL_PROMPT)
            fallback = cls(settings, offline_context, offline_engines,
                           build_router(offline_context, offline_engines),
                           Providers(providers.embedder))
            # The language model's prompts speak of this table: its name, row noun and column rules.
            synthesizer = LLMSynthesizer(providers.llm, table=source.table, date_key=source.roles.date,
                                         token_budget=settings.synthesis_tokens)
            restater = SearchRestater(providers.llm, table=source.table) if settings.search_restatement else None
            context = context_for(providers.llm, synthesizer, restater)
            engines = build_engines(context, text_to_sql_prompt(source.table, source.roles))
        else:
            context = context_for(offline_llm, None)
            engines = build_engines(context, OFFLINE_TEXT_TO_SQL_PROMPT)
        router = build_router(context, engines)
        reader = LLMReader(providers.llm, planner) if uses_llm else None
        return cls(settings, context, engines, router, providers, fallback, reader)

    @property
    def provider_label(self) -> str:
        return self.providers.provider_name if self.providers.llm is None else \
            f"{self.providers.provider_name} ({self.providers.model_name})"

    def ask(self, question: Any, route: Route | str | None = None,
            on_step: Callable[[Span], None] | None = None, on_token: Callable[[str], None] | None = None, *,
            conversation: Conversation | None = None) -> Turn:
        """Answer one question; never raises for domain errors (they become the turn's error).

        `on_step` is called with each step's span as it ends, for live progress; `on_token` with the answer
        so far while an LLM streams it (offline answers arrive whole). With a `conversation`, a follow-up ("and in
        2022?", "which of those mention elections?", "why SQL?") is answered from the earlier turn it builds on
        (rag.understand.followup), and the turn is added to the conversation; a question that is not a follow-up
        is answered on its own. A forced `route` re-asks the question as written."""
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
            with tracing.span("understand"):  # the first question loads word frequencies: seconds, not untraced
                change = assistant.context.planner.plan(trace.question).change
            if change:
                return assistant._read_only(trace.question, change, trace)
            if conversation is not None and forced is None:
                followed = assistant._follow_up(trace.question, conversation, trace)
                if followed is not None:
                    return followed
            return assistant._answer(trace.question, forced, trace)

        turn = self._guarded(trace, answer, on_step, on_token)
        if conversation is not None:
            self.remember(conversation, turn)
        return turn

    def rerun(self, turn: Turn, edit: PlanEdit, on_step: Callable[[Span], None] | None = None, *,
              conversation: Conversation | None = None) -> Turn:
        """Answer `turn`'s question again from its reading with the user's edit applied (a condition removed,
        an alternative chosen), without parsing the question again; the new turn says it was edited (and joins
        `conversation`, when given)."""
        edited = self._rerun(turn, edit, on_step)
        if conversation is not None:
            self.remember(conversation, edited)
        return edited

    def ask_again(self, turn: Turn, route: Route | str, on_step: Callable[[Span], None] | None = None,
                  on_token: Callable[[str], None] | None = None, *, conversation: Conversation | None = None) -> Turn:
        """"Ask again as ...": answer `turn` again on a forced `route`. A follow-up keeps what it inherited: its
        resolved reading (conditions, grouping, computation of the turn it built on) is answered on that route, and
        a search inside an earlier answer's rows ("which of those ...") stays inside the same rows (with SQL: the
        earlier turn's conditions plus the topic as a text match). Any other question is asked again as written.
        The new turn joins `conversation`, when given. A follow-up a language model rewrote (its reading has no
        plan) is asked again as the standalone question it was rewritten into."""
        reading = turn.result.interpretation
        if reading is not None and reading.builds_on is not None and reading.plan is None and reading.standalone:
            return self._ask_standalone_again(turn, reading, route, on_step, on_token, conversation)
        if reading is None or reading.builds_on is None or reading.plan is None:
            return self.ask(turn.question, route=route, on_step=on_step, on_token=on_token, conversation=conversation)
        trace = Trace(question=turn.question, provider=self.provider_label)
        try:
            forced = Route(route)
        except ValueError:
            return self._failed(trace, BadQuestion(f"Unknown route {route!r}; choose sql, vector or hybrid."))
        trace.forced_route = forced.value
        number, plan = reading.builds_on, reading.plan
        base = conversation.find(number) if conversation is not None else None
        restricted = any(c.column == "row_key" for c in reading.conditions)
        if restricted and (base is None or base.plan is None):
            trace.notes.append(f"#{number}, whose rows this question searched, is no longer in the conversation: "
                               "asked again as written.")
            return self.ask(turn.question, route=route, on_step=on_step, on_token=on_token, conversation=conversation)

        def answer(assistant: Assistant) -> Turn:
            kept = f"keeps what it took from #{number}"
            if restricted:
                assert base is not None and base.plan is not None
                if forced == Route.SQL:  # SQL cannot name rows by key: the earlier turn's conditions select them
                    earlier = plan_from_dict(base.plan)
                    sql_plan = dataclasses.replace(
                        earlier, question=turn.question, intent="list", measure=None, group_by=[], limit=None,
                        order_most=False, with_ties=False, intent_span=None, topic=plan.topic,
                        conditions=[*earlier.conditions, *plan.conditions], population=None)
                    reason = (f"forced by the user; {kept}: its conditions select the rows, the topic "
                              f"{plan.topic!r} becomes a text match")
                    with tracing.span("route", route=forced.value, reason=reason, builds_on=number):
                        pass
                    response = assistant.engines[Route.SQL].answer(turn.question, sql_plan)
                else:
                    rows = assistant._rows_of(base)
                    reason = f"forced by the user; {kept}: a search for {plan.topic!r} inside the {len(rows)} rows"
                    with tracing.span("route", route=forced.value, reason=reason, builds_on=number):
                        pass
                    response = assistant.engines[Route.HYBRID].answer_within(turn.question, plan, rows, f"#{number}")
            else:
                reason = f"forced by the user; {kept} ({reading.followup or 'its reading'})"
                with tracing.span("route", route=forced.value, reason=reason, builds_on=number):
                    pass
                response = assistant.engines[forced].answer(turn.question, plan)
            again = assistant._turn(turn.question, response, forced, reason, trace)
            new = again.result.interpretation
            if new is not None:
                new.builds_on, new.followup = number, reading.followup
                if restricted:
                    new.conditions.insert(0, next(c for c in reading.conditions if c.column == "row_key"))
                again.answer = assistant._with_restatement(again.result, str(response.response))
            return again

        trace.notes.append(f"Asked again as {forced.label}, keeping what it took from #{number}.")
        again = self._guarded(trace, answer, on_step, on_token)
        if conversation is not None:
            self.remember(conversation, again)
        return again

    def _ask_standalone_again(self, turn: Turn, reading: Interpretation, route: Route | str,
                              on_step: Callable[[Span], None] | None, on_token: Callable[[str], None] | None,
                              conversation: Conversation | None) -> Turn:
        """'Ask again as' on a follow-up the language model rewrote: its standalone question, on the forced route;
        the new turn keeps the follow-up's words, says what it builds on and joins `conversation`."""
        again = self.ask(reading.standalone, route=route, on_step=on_step, on_token=on_token)
        again.question = turn.question
        again.trace.notes.append(f"Asked again as the follow-up of #{reading.builds_on} was rewritten: "
                                 f"{reading.standalone!r}.")
        new = again.result.interpretation
        if new is not None and again.error is None:
            before = self._with_restatement(again.result, "")
            body = again.answer[len(before):] if again.answer.startswith(before) else again.answer
            new.builds_on, new.standalone, new.followup = reading.builds_on, reading.standalone, reading.followup
            again.answer = self._with_restatement(again.result, body)
        if conversation is not None:
            self.remember(conversation, again)
        return again

    def _rerun(self, turn: Turn, edit: PlanEdit, on_step: Callable[[Span], None] | None) -> Turn:
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
        elif (reading := self._model_reading(question, trace)) is not None:
            return self._answer_reading(question, reading, trace)
        else:
            with recorder.span("route+answer") as attrs:
                response = self.router.query(question)
                selection = response.metadata["selector_result"].selections[0]
                route, reason = (Route.SQL, Route.VECTOR, Route.HYBRID)[selection.index], selection.reason
                if self.reader is not None and is_certain(self.context.planner.plan(question)):
                    reason += " (offline reading certain: the language model was not asked to read or route)"
                attrs.update(route=route.value, reason=reason)
        return self._turn(question, response, route, reason, trace)

    def _model_reading(self, question: str, trace: Trace) -> LLMReading | None:
        """The language model's validated reading of a question the offline parser is unsure of; None when there
        is no model, the offline reading is certain (no call is made), or the model's reading was rejected twice
        (the offline reading answers, and the trace says why)."""
        if self.reader is None:
            return None
        offline = self.context.planner.plan(question)
        if is_certain(offline):
            return None  # the reason says so
        reading = self.reader.read(question, offline)
        if reading.plan is None and not reading.free_sql:
            trace.notes.append("The language model's reading was rejected twice (" + "; ".join(reading.problems) +
                               "); the offline reading answered instead.")
            return None
        return reading

    def _answer_reading(self, question: str, reading: LLMReading, trace: Trace) -> Turn:
        """Answer from the model's reading: its plan drives the engine it routes to (no second call to route);
        a computation the reading cannot express goes to text-to-SQL, which the model writes."""
        if reading.plan is None:
            route, reason = Route.SQL, "read by the language model: a computation only SQL written for it can express"
            with tracing.span("route", route=route.value, reason=reason, read_by="language model"):
                pass
            return self._turn(question, self.engines[Route.SQL].query(question), route, reason, trace)
        route, reason = reading.plan.route()  # its evidence starts "read by the language model"
        with tracing.span("route", route=route.value, reason=reason, read_by="language model"):
            pass
        response = self.engines[route].answer(question, reading.plan)
        result: EngineResult | None = (response.metadata or {}).get("engine_result")
        if result is not None and result.interpretation is not None:
            result.interpretation.read_by = "language model"
        return self._turn(question, response, route, reason, trace)

    def _turn(self, question: str, response: Any, route: Route, reason: str, trace: Trace) -> Turn:
        result: EngineResult = (response.metadata or {}).get("engine_result") or EngineResult()
        result.route, result.reason = route.value, reason
        chart = (choose_chart(result.result, self.context.source.labels, self.context.source.table)
                 if route == Route.SQL else None)
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

    def _read_only(self, question: str, verb: str, trace: Trace) -> Turn:
        """A request to change the table ("delete all politics articles"): a plain answer, no query of any kind."""
        table, rows = self.context.source.table, self.row_noun
        with tracing.span("read_only", verb=verb):
            pass
        text = (f"This app only reads the table `{table}`: it cannot {escape_markdown(verb, one_line=True)} "
                f"{rows} or change any value, and nothing was run. Ask a question about the {rows} instead, for "
                f"example how many there are, or what they say about a topic.")
        result = EngineResult(reason=f"asks to change the table ({verb!r}): this app only reads it; no query",
                              interpretation=Interpretation(f"Not run: a request to {verb} data (the app only reads)"))
        trace.notes.append(f"A request to change the table ({verb!r}); answered without a query.")
        return Turn(question=question, answer=self._with_restatement(result, text), trace=trace, result=result)

    def _failed(self, trace: Trace, error: RagError) -> Turn:
        trace.error = f"{error.title}: {error}"
        result = error.partial if isinstance(error.partial, EngineResult) else EngineResult()
        if error.sql_run is not None and result.sql is None:
            result.record_sql(error.sql_run)
        result.route = result.route or trace.forced_route
        # The message may quote a value, a statement or an exception's text: data, escaped once like any other.
        return Turn(question=trace.question, answer=f"**{error.title}.** {escape_markdown(error)}", trace=trace,
                    result=result, error=str(error))

    # ---------------------------------------------------------------- conversations

    def _follow_up(self, question: str, conversation: Conversation, trace: Trace) -> Turn | None:
        """The turn answering `question` as a follow-up of an earlier turn of `conversation`, or None when it is a
        question of its own (never merged) or there is nothing to build on."""
        found = detect(question, self.context.planner)
        with tracing.span("followup", kind=found.kind, evidence=found.evidence) as attrs:
            if found.reason:
                attrs["not_a_follow_up"] = found.reason
            base = self._base_of(found, conversation)
            if found.is_follow_up and base is None:
                attrs["not_a_follow_up"] = "no earlier answer in this conversation to build on"
            if base is not None:
                attrs.update(builds_on=base.number, base_question=base.question, remainder=found.remainder)
        if not found.is_follow_up or base is None:
            return None
        if found.kind == "explain":
            return self._explain(question, base, trace)
        if self.providers.llm is not None and found.kind != "restrict":
            rewritten = self._rewritten(question, base, trace)
            if rewritten is not None:
                return rewritten
        assert base.plan is not None
        source = self.context.source
        followup = resolve(found, plan_from_dict(base.plan), base.number,
                           labels=reading_labels(source.labels, source.roles, source.table))
        plan, change = followup.plan, followup.describe()
        rows = None
        if followup.kind == "restrict":
            rows = self._rows_of(base)
            change = f"among its {_rows_named(len(rows), self.context.source.table)}, about '{plan.topic}'"
            change += "".join(f", {c}" for c in followup.changes[1:])
            route, reason = Route.HYBRID, (f"follow-up of #{base.number}: a search for {plan.topic!r} inside the "
                                           f"{len(rows)} rows of its answer")
        else:
            route, reason = plan.route()
            reason = f"follow-up of #{base.number} ({change}); {reason}"
        trace.notes.append(f"Follow-up of #{base.number} ({base.question!r}): kept "
                           f"{'; '.join(followup.inherited) or 'nothing'}; changed: {change}.")
        with tracing.span("route", route=route.value, reason=reason, builds_on=base.number, changes=followup.changes,
                          inherited=followup.inherited, plan=plan_to_dict(plan)):
            pass
        if rows is not None:
            response = self.engines[Route.HYBRID].answer_within(question, plan, rows, f"#{base.number}")
        else:
            response = self.engines[route].answer(question, plan)
        turn = self._turn(question, response, route, reason, trace)
        reading = turn.result.interpretation
        if reading is not None:
            reading.builds_on = base.number
            reading.followup = f"Same as #{base.number}, {change}" if rows is None else f"Builds on #{base.number}"
            if rows is not None:
                reading.conditions.insert(0, ConditionReading(
                    "row_key", "in", len(rows), "", f"among the {_rows_named(len(rows), self.context.source.table)} "
                    f"of #{base.number}"))
            turn.answer = self._with_restatement(turn.result, str(response.response))
        return turn

    @staticmethod
    def _base_of(found: Detection, conversation: Conversation) -> ConversationTurn | None:
        """The earlier turn a follow-up builds on: the one it names ("#2"), else the last answer (for "why ...?",
        the last turn that was not itself an explanation, even a failed one)."""
        if found.refers_to is not None:
            named = conversation.find(found.refers_to)
            if named is not None and (found.kind == "explain" or named.plan is not None):
                return named
        if found.kind == "explain":
            answered = [t for t in reversed(conversation.turns) if t.plan is not None or t.error]
            by_route = [t for t in answered if found.route_named and t.route == found.route_named]
            return (by_route or answered or [None])[0]
        return conversation.last_answer()

    def _rows_of(self, base: ConversationTurn) -> list[str]:
        """The row keys of the rows an earlier answer showed (kept with it, or selected again by SQL from its plan)."""
        if base.row_keys is not None:
            return list(base.row_keys)
        assert base.plan is not None
        source = self.context.source
        with tracing.span("sql.write", writer=f"rows of #{base.number}") as attrs:
            attrs["sql"] = sql = self.context.sql_builder.answered_rows_sql(plan_from_dict(base.plan),
                                                                             source.key_columns)
        run = self.context.database.execute(sql, max_rows=MAX_ROWS_OF_TURN)
        assert run.result is not None
        return [source.key_of(dict(zip(run.result.columns, row, strict=True))) for row in run.result.rows]

    def _explain(self, question: str, base: ConversationTurn, trace: Trace) -> Turn:
        """How turn `base` was answered (route and why, its reading, conditions and SQL); no new query runs."""
        with tracing.span("explain", builds_on=base.number, route=base.route):
            pass
        name = escape_markdown(base.question, one_line=True)
        if base.error:
            problem = escape_markdown(base.error, one_line=True)
            lines = [f"Turn #{base.number} (“{name}”) could not be answered: {problem}"]
        else:
            label = Route(base.route).label if base.route in {r.value for r in Route} else "no"
            lines = [f"Turn #{base.number} (“{name}”) went to the **{label}** route because: "
                     f"{escape_markdown(base.reason, one_line=True)}."]
        if base.reading:
            lines.append(f"Its reading: {escape_markdown(base.reading, one_line=True)}.")
        if base.conditions:
            lines.append("Conditions: " + "; ".join(escape_markdown(c, one_line=True) for c in base.conditions) + ".")
        if base.sql:
            lines.append(f"The SQL that ran: {escape_markdown(base.sql, one_line=True)}")
        if base.builds_on is not None:
            lines.append(f"It built on #{base.builds_on}.")
        lines.append("No new query was run for this explanation.")
        result = EngineResult(reason=f"explains #{base.number}: no new query", interpretation=Interpretation(
            f"Explained how #{base.number} was answered", builds_on=base.number, followup=f"About #{base.number}"))
        trace.notes.append(f"Explained turn #{base.number} ({base.question!r}); no query ran.")
        return Turn(question=question, answer=self._with_restatement(result, "\n\n".join(lines)), trace=trace,
                    result=result)

    def _rewritten(self, question: str, base: ConversationTurn, trace: Trace) -> Turn | None:
        """With a language model: the follow-up rewritten as a question of its own from the earlier turn's question,
        reading and SQL (never its answer text), then answered as usual; the reading says how it was read. None when
        the follow-up is too long to rewrite within the token budget (the offline resolution answers it)."""
        standalone = standalone_question(self.context.llm, base.question, base.reading, base.sql, question,
                                         rows=row_noun(self.context.source.table))
        if standalone is None:
            trace.notes.append("The follow-up is too long to be rewritten by the language model within the "
                               "rewrite's token budget; it was resolved from the earlier reading offline.")
            return None
        trace.notes.append(f"Follow-up of #{base.number} ({base.question!r}), rewritten as: {standalone!r}.")
        turn = self._answer(standalone, None, trace)
        turn.question = question
        reading = turn.result.interpretation
        if reading is not None:
            before = self._with_restatement(turn.result, "")
            body = turn.answer[len(before):] if turn.answer.startswith(before) else turn.answer
            reading.builds_on, reading.standalone = base.number, standalone
            reading.followup = f"Builds on #{base.number}, read as '{standalone}'"
            turn.answer = self._with_restatement(turn.result, body)
        return turn

    def remember(self, conversation: Conversation, turn: Turn) -> ConversationTurn:
        """Add `turn` to `conversation` with what a follow-up may build on: its plan, and the rows it showed (row
        keys for a listing or a search, the grouped table for an aggregate)."""
        result, reading = turn.result, turn.result.interpretation
        plan = reading.plan if reading is not None else None
        if plan is None and turn.error is None and turn.route is not None:
            # A language model wrote the SQL: the offline reading of the question stands in for its plan.
            plan = self.context.planner.plan((reading.standalone if reading else "") or turn.question)
        row_keys: list[str] | None = None
        table: QueryResult | None = None
        rows = result.result
        if turn.route in (Route.VECTOR.value, Route.HYBRID.value):
            row_keys = list(dict.fromkeys(c.row_key for c in result.chunks))
        elif turn.route == Route.SQL.value and rows is not None:
            if plan is not None and plan.is_aggregate:
                table = QueryResult(list(rows.columns), [list(r) for r in rows.rows[:KEPT_TABLE_ROWS]],
                                    row_limit_hit=rows.row_limit_hit or len(rows.rows) > KEPT_TABLE_ROWS)
            else:
                keys = self.context.source.key_columns
                if keys and all(k in rows.columns for k in keys):
                    row_keys = [self.context.source.key_of(dict(zip(rows.columns, row, strict=True)))
                                for row in rows.rows]
        remembered = ConversationTurn(
            number=conversation.next_number, turn_id=turn.id, question=turn.question, route=turn.route,
            reason=result.reason, reading=reading.restatement() if reading else "",
            conditions=[c.text for c in reading.conditions] if reading else [], sql=result.sql,
            plan=plan_to_dict(plan) if plan is not None and turn.error is None else None, row_keys=row_keys,
            table=table, builds_on=reading.builds_on if reading else None, error=turn.error)
        conversation.turns.append(remembered)
        return remembered

    # ---------------------------------------------------------------- what pages need besides answers

    @property
    def source(self) -> TableSource:
        return self.context.source

    @property
    def row_noun(self) -> str:
        """What the table's rows are called, from its name ("articles", "tickets")."""
        return row_noun(self.context.source.table)

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

    def set_roles(self, choices: Mapping[str, str], *, reset: bool = False,
                  labels: Mapping[str, str] | None = None) -> RoleChange:
        """Save per-column role choices ({column: role}, `reset` first forgets every saved one) once they give
        valid roles, and changed column labels ({column: label}; empty: back to the derived one). They apply to
        the next assistant built for these settings (this one keeps its roles); the returned change says whether
        the index needs a sync."""
        return change_roles(self.settings, self.context.source, choices, reset=reset, labels=labels)

    def overview(self, by: str) -> QueryResult | None:
        """Rows per category (`by="category"`) or per month (`by="month"`), through the SQL guard;
        None when the table has no such column."""
        source = self.context.source
        if by == "category" and source.roles.category:
            sql = previews.category_counts_sql(source.table, source.roles.category, source.dialect)
        elif by == "month" and source.roles.date:
            sql = previews.month_counts_sql(source.table, source.roles.date, source.dialect, source.roles.date_unit)
        else:
            return None
        return self.context.database.execute(sql).result

    def overview_titles(self, by: str) -> tuple[str, dict[str, str]]:
        """The title and axis titles of an `overview` chart, in the table's words: ("Tickets by Status",
        {"category": "Status", "month": "Month", "articles": "Number of tickets"})."""
        source = self.context.source
        rows = row_noun(source.table)
        name = "month" if by == "month" else source.labels.get(source.roles.category or "", "category")
        axes = {by: heading(name), "articles": f"Number of {rows}"}
        return title_case(f"{rows} by {axes[by]}"), axes

    def column_headers(self, columns: Sequence[str]) -> list[str]:
        """Result columns as table headers: each one's label ("Category", "Number of articles"); the names
        themselves when two labels would be the same."""
        source = self.context.source
        headers = [heading(label_of(column, source.labels, source.table)) for column in columns]
        return headers if len(set(headers)) == len(headers) else list(columns)

    @cached_property
    def history(self) -> History:
        """The app's own store of conversations, turns and feedback (`rag.history`), opened on first use; with
        RAG_APP_STORE=off it stores nothing."""
        return History.from_settings(self.settings)
