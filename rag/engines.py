"""The three query engines the router chooses from: SQL, vector (semantic) and hybrid.

- SQL: LlamaIndex `NLSQLTableQueryEngine` over `GuardedSQLDatabase`, whose `run_sql` lets nothing but
  a guarded SELECT reach the read-only connection.
- Vector: a LlamaIndex retriever over the Chroma collection with metadata filters inferred from the
  question and applied inside Chroma's query (pre-filtering).
- Hybrid: SQL selects the rows matching the structured part; the vector search then runs only over
  those rows' chunks (`row_key IN [...]`, batched).
Each engine records what it did into the current turn's trace and returns the composed answer.
"""

from __future__ import annotations

import contextvars
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from llama_index.core import VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.query_engine import CustomQueryEngine, NLSQLTableQueryEngine
from llama_index.core.schema import NodeWithScore, QueryBundle
from llama_index.core.utilities.sql_wrapper import SQLDatabase
from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
)
from llama_index.vector_stores.chroma import ChromaVectorStore
from pydantic import PrivateAttr

from rag import tracing
from rag.embeddings import Embedder
from rag.errors import QueryFailed, UnsafeSQL
from rag.index import MAX_AUTHOR_KEYS, VectorIndex
from rag.models import Chunk, Citation, DroppedFilter, Filter, QueryResult
from rag.offline import compose
from rag.offline.planner import Condition, Planner, QueryPlan
from rag.offline.text_to_sql import SQLBuilder
from rag.settings import Settings
from rag.source import TableSource
from rag.sql_guard import guard_sql, strip_sql_fences

# The result of the latest guarded SELECT in this context (thread or task): NLSQLTableQueryEngine only hands
# back text, and the engine is shared between sessions, so the rows travel beside it, never on a shared object.
_last_result: contextvars.ContextVar[QueryResult | None] = contextvars.ContextVar("rag_last_result", default=None)

HYBRID_MAX_KEYS = 50_000
# Row ids per `$in` query. Measured at 100k articles (bench/results/query_scale.md): one `$in` of 16,610 ids
# took 416 ms, the same ids in batches of 500 took 4.4 s; Chroma refuses lists above about 32,000 ids.
KEY_BATCH = 30_000
# Beyond one batch, conditions Chroma can hold are applied as metadata filters instead of an id list.
ID_LIST_LIMIT = KEY_BATCH
CHROMA_EXPRESSIBLE = ("category", "author", "number", "date")
CHUNKS_PER_ROW = 3  # chunks of one document the answer may quote from (a buried fact is rarely in the best one)
CANDIDATES_PER_RESULT = 10  # chunks fetched per wanted document, so several documents survive de-duplication
TRACE_ROWS = 200


class EmbedderAdapter(BaseEmbedding):
    """Our `Embedder` seen as a LlamaIndex embedding model (same weights for indexing and queries)."""

    _embedder: Any = PrivateAttr()

    def __init__(self, embedder: Embedder, **kwargs: Any) -> None:
        super().__init__(model_name=embedder.name, embed_batch_size=64, **kwargs)
        self._embedder = embedder

    @classmethod
    def class_name(cls) -> str:
        return "RagEmbedderAdapter"

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._embedder.embed([query])[0]

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._embedder.embed([text])[0]

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self._embedder.embed(texts)


class GuardedSQLDatabase(SQLDatabase):
    """A LlamaIndex SQLDatabase whose `run_sql` guards, runs read-only with limits, and records the trace."""

    def __init__(self, source: TableSource, max_rows: int) -> None:
        super().__init__(source.engine, include_tables=[source.table], sample_rows_in_table_info=0,
                         custom_table_info={source.table: source.describe()}, max_string_length=source.max_cell_chars)
        self.source = source
        self.max_rows = max_rows

    def check(self, sql: str, max_rows: int | None = None) -> str:
        """Guard `sql` and record the verdict; raises UnsafeSQL."""
        recorder = tracing.current()
        with tracing.span("sql.guard", sql=sql) as attrs:
            try:
                guarded = guard_sql(sql, table=self.source.table, columns=list(self.source.columns),
                                    dialect=self.source.dialect, max_rows=max_rows or self.max_rows)
            except UnsafeSQL as error:
                attrs["verdict"] = f"rejected: {error}"
                if recorder:
                    recorder.trace.sql = strip_sql_fences(sql) or sql
                    recorder.trace.sql_verdict = attrs["verdict"]
                raise
            verdict = "allowed" + (f" ({'; '.join(guarded.notes)})" if guarded.notes else "")
            attrs["verdict"] = verdict
        if recorder:
            recorder.trace.sql = guarded.sql
            recorder.trace.sql_verdict = verdict
        return guarded.sql

    def execute(self, sql: str, max_rows: int | None = None) -> QueryResult:
        """Guard, then run on the read-only connection; records rows into the trace.

        With `max_rows` (row keys for the hybrid route) cells are returned whole, so hashed row keys match
        the index, and one extra row is allowed through the guard to detect that the cap was hit."""
        safe_sql = self.check(sql, None if max_rows is None else max_rows + 1)
        with tracing.span("sql.execute", sql=safe_sql) as attrs:
            if max_rows is None:
                result = self.source.run_select(safe_sql)
            else:
                result = self.source.run_select(safe_sql, max_rows=max_rows, max_cell_chars=0)
            attrs.update(rows=len(result.rows), row_limit_hit=result.row_limit_hit)
        recorder = tracing.current()
        if recorder and max_rows is None:
            recorder.trace.columns = result.columns
            recorder.trace.rows = result.rows[:TRACE_ROWS]
            recorder.trace.row_count = len(result.rows)
        _last_result.set(result)
        return result

    def run_sql(self, command: str) -> tuple[str, dict]:
        result = self.execute(command)
        return str([tuple(r) for r in result.rows]), {"result": result.rows, "col_keys": result.columns}


@dataclass
class EngineContext:
    """Everything the engines share for one table; built once and safe to share between sessions."""

    settings: Settings
    source: TableSource
    index: VectorIndex
    planner: Planner
    sql_builder: SQLBuilder
    database: GuardedSQLDatabase
    embed_model: EmbedderAdapter
    llm: Any  # LlamaIndex LLM: OfflineSQLWriter or Gemini (or a scripted fake)
    synthesizer: Any | None = None  # callable(question, context_kind, payload) -> str for LLM answers
    min_score: float = 0.25
    _vector_index: VectorStoreIndex | None = field(default=None, repr=False)

    def vector_index(self) -> VectorStoreIndex:
        if self._vector_index is None:
            store = ChromaVectorStore(chroma_collection=self.index.collection())
            self._vector_index = VectorStoreIndex.from_vector_store(store, embed_model=self.embed_model)
        return self._vector_index


# ---------------------------------------------------------------- filters


def chroma_filters(plan: QueryPlan, context: EngineContext, *, with_dates: bool
                   ) -> tuple[list[Filter], list[DroppedFilter], MetadataFilters | None]:
    """Plan conditions -> LlamaIndex metadata filters, from allowed keys, operators and typed values only."""
    applied: list[Filter] = []
    dropped: list[DroppedFilter] = []
    parts: list[MetadataFilter | MetadataFilters] = []
    for condition in plan.conditions:
        converted = _condition_filter(condition, context, with_dates)
        if isinstance(converted, DroppedFilter):
            dropped.append(converted)
            continue
        if converted is None:
            continue
        filters, part = converted
        applied += filters
        parts.append(part)
    return applied, dropped, (MetadataFilters(filters=parts, condition=FilterCondition.AND) if parts else None)


def _condition_filter(condition: Condition, context: EngineContext, with_dates: bool
                      ) -> tuple[list[Filter], MetadataFilter | MetadataFilters] | DroppedFilter | None:
    if condition.kind == "category":
        values = condition.value if isinstance(condition.value, list) else [condition.value]
        op = FilterOperator.EQ if len(values) == 1 else FilterOperator.IN
        value: Any = values[0] if len(values) == 1 else values
        return ([Filter(condition.column, op.value, value, condition.words)],
                MetadataFilter(key=condition.column, value=value, operator=op))
    if condition.kind == "author":
        alternatives = [MetadataFilter(key=f"author_{i}", value=condition.value, operator=FilterOperator.EQ)
                        for i in range(MAX_AUTHOR_KEYS)]
        return ([Filter("author_*", "==", condition.value, condition.words)],
                MetadataFilters(filters=alternatives, condition=FilterCondition.OR))
    if condition.kind == "number":
        op = {">": FilterOperator.GT, ">=": FilterOperator.GTE, "<": FilterOperator.LT, "<=": FilterOperator.LTE,
              "=": FilterOperator.EQ}[condition.op]
        return ([Filter(condition.column, op.value, condition.value, condition.words)],
                MetadataFilter(key=condition.column, value=condition.value, operator=op))
    if condition.kind == "date":
        if not with_dates:
            return DroppedFilter(condition.describe(), "applied by SQL in the hybrid route")
        start, end = condition.value
        bounds: list[MetadataFilter] = []
        if start != date.min:
            bounds.append(MetadataFilter(key="date_ymd", value=_ymd(start), operator=FilterOperator.GTE))
        if end != date.max:
            bounds.append(MetadataFilter(key="date_ymd", value=_ymd(end), operator=FilterOperator.LTE))
        if not bounds:
            return None
        filters = [Filter("date_ymd", b.operator.value, b.value, condition.words) for b in bounds]
        return filters, MetadataFilters(filters=bounds, condition=FilterCondition.AND)
    return DroppedFilter(condition.describe(), f"Chroma cannot express a {condition.kind.replace('_', ' ')} match; "
                                               "the hybrid route applies it with SQL")


def _ymd(day: date) -> int:
    return day.year * 10000 + day.month * 100 + day.day


# ---------------------------------------------------------------- retrieval


def to_chunk(node: NodeWithScore, context: EngineContext) -> Chunk:
    metadata = dict(node.node.metadata or {})
    roles = context.source.roles
    similarity = float(node.score or 0.0)
    # ChromaVectorStore reports exp(-distance); with cosine space, cosine similarity = 1 + ln(score).
    cosine = 1.0 + math.log(similarity) if similarity > 0 else 0.0
    return Chunk(
        id=node.node.node_id,
        row_key=str(metadata.get("row_key", "")),
        title=str(metadata.get(roles.title, "")) if roles.title else "",
        url=str(metadata.get(roles.url, "")) if roles.url else "",
        chunk=int(metadata.get("chunk", 0)),
        text=node.node.get_content(),
        score=round(min(1.0, max(0.0, cosine)), 4),
        metadata={k: v for k, v in metadata.items() if k not in ("content_hash",) and not k.startswith("_")},
    )


def retrieve(context: EngineContext, query: str, filters: MetadataFilters | None,
             restrict_keys: Sequence[str] | None = None) -> list[Chunk]:
    """Chunks of the top-k documents for `query` under `filters`, optionally only among `restrict_keys`
    (batched). The trace records the best chunk per document; the caller gets up to CHUNKS_PER_ROW each."""
    top_k = context.settings.top_k
    with tracing.span("embed.query") as attrs:
        embedding = context.embed_model.get_query_embedding(query)
        attrs["model"] = context.embed_model.model_name
    bundle = QueryBundle(query_str=query, embedding=embedding)
    batches: list[MetadataFilters | None] = []
    if restrict_keys is None:
        batches.append(filters)
    else:
        for start in range(0, len(restrict_keys), KEY_BATCH):
            keys = list(restrict_keys[start:start + KEY_BATCH])
            key_filter = MetadataFilter(key="row_key", value=keys, operator=FilterOperator.IN)
            parts: list[Any] = [key_filter] + ([filters] if filters else [])
            batches.append(MetadataFilters(filters=parts, condition=FilterCondition.AND))
    candidates: list[Chunk] = []
    with tracing.span("vector.search", top_k=top_k, batches=len(batches)) as attrs:
        index = context.vector_index()
        for batch_filters in batches:
            retriever = index.as_retriever(similarity_top_k=top_k * CANDIDATES_PER_RESULT, filters=batch_filters)
            candidates += [to_chunk(n, context) for n in retriever.retrieve(bundle)]
        chunks = best_chunk_per_row(candidates, top_k)
        rows = {c.row_key for c in chunks}
        per_row: dict[str, int] = {}
        evidence = []  # up to CHUNKS_PER_ROW chunks of each top document, for the answer to quote from
        for chunk in sorted(candidates, key=lambda c: c.score, reverse=True):
            if chunk.row_key in rows and per_row.get(chunk.row_key, 0) < CHUNKS_PER_ROW:
                per_row[chunk.row_key] = per_row.get(chunk.row_key, 0) + 1
                evidence.append(chunk)
        attrs["candidates"] = len(candidates)
        attrs["results"] = [{"id": c.id, "score": c.score} for c in chunks]
    recorder = tracing.current()
    if recorder:
        recorder.trace.chunks = chunks
    return evidence


def best_chunk_per_row(chunks: list[Chunk], limit: int) -> list[Chunk]:
    """The best chunk of each document, best documents first: a result list is a list of sources."""
    best: dict[str, Chunk] = {}
    for chunk in sorted(chunks, key=lambda c: c.score, reverse=True):
        best.setdefault(chunk.row_key, chunk)
    return list(best.values())[:limit]


def _record_filters(applied: list[Filter], dropped: list[DroppedFilter]) -> None:
    recorder = tracing.current()
    if recorder:
        recorder.trace.filters = applied
        recorder.trace.filters_dropped += dropped


def answer_from_chunks(context: EngineContext, question: str, plan: QueryPlan, chunks: list[Chunk],
                       restricted: bool = False) -> tuple[str, list[Citation]]:
    """Answer from retrieved chunks; inside SQL-selected rows (`restricted`) a lower similarity suffices,
    because the structured part of the question already chose the documents."""
    date_key = context.source.roles.date
    min_score = context.min_score * (0.5 if restricted else 1.0)
    with tracing.span("synthesize", provider="llm" if context.synthesizer else "extractive") as attrs:
        if context.synthesizer and compose.is_relevant(plan.topic or question, chunks, min_score):
            text = context.synthesizer.from_chunks(question, chunks)
            citations = _unique_citations(c.citation(date_key or "") for c in chunks)
        else:
            text, citations = compose.retrieval_answer(question, plan.topic, chunks, date_key=date_key,
                                                       min_score=min_score)
        attrs["citations"] = len(citations)
    return text, citations


def _unique_citations(citations: Any) -> list[Citation]:
    seen: dict[str, Citation] = {}
    for citation in citations:
        seen.setdefault(citation.row_key or citation.url or citation.title, citation)
    return list(seen.values())


# ---------------------------------------------------------------- engines


class EngineResult:
    """What every engine hands back to the assistant besides the answer text (kept off pydantic)."""

    def __init__(self, citations: list[Citation] | None = None, result: QueryResult | None = None) -> None:
        self.citations = citations or []
        self.result = result


class VectorEngine(CustomQueryEngine):
    """Semantic search over all chunks, narrowed by the metadata filters Chroma can hold."""

    context: Any

    def custom_query(self, query_str: str) -> Any:
        plan = self.context.planner.plan(query_str)
        with tracing.span("filters.infer") as attrs:
            applied, dropped, filters = chroma_filters(plan, self.context, with_dates=True)
            attrs.update(applied=[f.describe() for f in applied], dropped=[d.description for d in dropped])
        _record_filters(applied, dropped)
        chunks = retrieve(self.context, plan.topic or query_str, filters)
        text, citations = answer_from_chunks(self.context, query_str, plan, chunks)
        return _response(text, EngineResult(citations))


class HybridEngine(CustomQueryEngine):
    """SQL selects the rows for the structured part; semantic search runs only inside them."""

    context: Any

    def custom_query(self, query_str: str) -> Any:
        context: EngineContext = self.context
        plan = context.planner.plan(query_str)
        with tracing.span("sql.write", writer="offline") as attrs:
            sql = context.sql_builder.row_keys_sql(plan, context.source.key_columns)
            attrs["sql"] = sql
        result = context.database.execute(sql, max_rows=HYBRID_MAX_KEYS)
        keys = [context.source.key_of(dict(zip(result.columns, row, strict=True))) for row in result.rows]
        recorder = tracing.current()
        if recorder:
            recorder.trace.restricted_row_keys = len(keys)
            recorder.trace.columns, recorder.trace.rows = result.columns, result.rows[:TRACE_ROWS]
            recorder.trace.row_count = len(keys)
        if not keys:
            _record_filters([Filter("row_key", "in", "0 rows selected by SQL")], [])
            conditions = "; ".join(c.describe() for c in plan.conditions)
            return _response(f"No rows match the structured part of the question ({conditions}), so there was "
                             "nothing to search.", EngineResult())
        if len(keys) > ID_LIST_LIMIT and all(c.kind in CHROMA_EXPRESSIBLE for c in plan.conditions):
            # The same rows, cheaper: every condition SQL applied is also a Chroma filter (dates as date_ymd
            # numbers), so one filtered query replaces len(keys) / KEY_BATCH id-list queries.
            applied, dropped, filters = chroma_filters(plan, context, with_dates=True)
            note = (f"{len(keys):,} rows matched the structured part; the search ran inside them through the "
                    "same conditions as metadata filters instead of a list of row ids.")
            if recorder:
                recorder.trace.notes.append(note)
            _record_filters(applied, dropped)
            chunks = retrieve(context, plan.topic or query_str, filters)
            text, citations = answer_from_chunks(context, query_str, plan, chunks, restricted=True)
            return _response(text, EngineResult(citations))
        capped = ""
        if result.row_limit_hit:
            capped = (f"More than {HYBRID_MAX_KEYS:,} rows matched the structured part; only the first "
                      f"{HYBRID_MAX_KEYS:,} rows were searched.")
            if recorder:
                recorder.trace.notes.append(capped)
        # Conditions SQL applied are not repeated in Chroma; the category/author ones are redundant but cheap.
        applied, dropped, filters = chroma_filters(_structured_only(plan), context, with_dates=False)
        _record_filters([Filter("row_key", "in", f"{len(keys)} rows selected by SQL")] + applied, dropped)
        chunks = retrieve(context, plan.topic or query_str, filters, restrict_keys=keys)
        text, citations = answer_from_chunks(context, query_str, plan, chunks, restricted=True)
        if capped:
            text += f"\n\n_{capped}_"
        return _response(text, EngineResult(citations))


def _structured_only(plan: QueryPlan) -> QueryPlan:
    """The plan's conditions Chroma can also hold (used to double-check inside the restricted rows)."""
    return QueryPlan(question=plan.question, conditions=[c for c in plan.conditions if c.chroma_ok],
                     topic=plan.topic)


class SQLEngine(CustomQueryEngine):
    """Text-to-SQL through LlamaIndex's NLSQLTableQueryEngine, guarded, with one corrective retry."""

    context: Any
    nl_sql: Any  # NLSQLTableQueryEngine

    def custom_query(self, query_str: str) -> Any:
        context: EngineContext = self.context
        _last_result.set(None)
        question = query_str
        error: Exception | None = None
        for attempt in range(2):
            with tracing.span("sql.nl_to_sql", attempt=attempt + 1) as attrs:
                response = self.nl_sql.query(question)
                attrs["sql"] = (response.metadata or {}).get("sql_query")
            error = _recorded_error(context, response)
            if error is None:
                break
            if isinstance(error, UnsafeSQL) or not context.synthesizer:
                raise error  # never retry a rejected statement; offline SQL is deterministic
            question = (f"{query_str}\n\nThe previous SQL failed with this error: {error}\n"
                        "Write a corrected single SELECT statement.")
        if error is not None:
            raise error
        result = _last_result.get() or QueryResult([], [])
        plan = context.planner.plan(query_str)
        roles = context.source.roles
        with tracing.span("synthesize", provider="llm" if context.synthesizer else "template"):
            conditions = "; ".join(c.describe() for c in plan.conditions)
            text, citations = compose.sql_answer(result, conditions, title_col=roles.title, url_col=roles.url,
                                                 date_col=roles.date)
            if context.synthesizer and result.rows:
                text = context.synthesizer.from_rows(query_str, result, fallback=text)
        sql = tracing.current().trace.sql if tracing.current() else None
        if sql:
            text += f"\n\n_Computed with SQL over table `{context.source.table}` (see the trace)._"
        return _response(text, EngineResult(citations, result))


def _recorded_error(context: EngineContext, response: Any) -> Exception | None:
    """NLSQLTableQueryEngine turns SQL errors into 'Error: ...' text; recover the real error."""
    if _last_result.get() is not None:
        return None
    recorder = tracing.current()
    verdict = recorder.trace.sql_verdict if recorder else None
    if verdict and verdict.startswith("rejected"):
        return UnsafeSQL(verdict.removeprefix("rejected: "))
    text = str(getattr(response, "response", "") or "")
    message = text.removeprefix("Error: ").strip() or "the query returned nothing"
    for span in reversed(recorder.trace.spans if recorder else []):
        if span.name == "sql.execute" and span.error:
            message = span.error.split(": ", 1)[-1]
            break
    return QueryFailed(message)


def _response(text: str, payload: EngineResult) -> Any:
    from llama_index.core.base.response.schema import Response

    return Response(response=text, metadata={"engine_result": payload})


def build_sql_engine(context: EngineContext, text_to_sql_prompt: Any | None) -> SQLEngine:
    # NLSQLTableQueryEngine builds {schema} from reflection only (SQLDatabase.custom_table_info is not used
    # there); the column roles, category values and date format reach the prompt through context_query_kwargs.
    nl_sql = NLSQLTableQueryEngine(sql_database=context.database, tables=[context.source.table], llm=context.llm,
                                   text_to_sql_prompt=text_to_sql_prompt, synthesize_response=False,
                                   embed_model=context.embed_model,
                                   context_query_kwargs={context.source.table: context.source.describe()})
    return SQLEngine(context=context, nl_sql=nl_sql)
