"""LlamaIndex `RouterQueryEngine` over the three engines; the routing policy itself lives in the planner.

Tool descriptions say what each tool does (LlamaIndex shows them in the trace); the offline selector routes
from the typed plan. With a language model, a question the offline reading is unsure of is read by the model
as JSON instead (rag.understand.llm_reading), and that reading picks the engine: no separate routing call.
"""

from __future__ import annotations

from typing import Any

from llama_index.core.query_engine import RouterQueryEngine
from llama_index.core.tools import QueryEngineTool, ToolMetadata

from rag.answer.context import EngineContext
from rag.answer.hybrid_engine import HybridEngine
from rag.answer.selector import OfflineSelector
from rag.answer.sql_engine import build_sql_engine
from rag.answer.vector_engine import VectorEngine
from rag.models import Route

TOOL_DESCRIPTIONS = {
    Route.SQL: ("Runs SQL over the table. Use for counts, averages, sums, minimum/maximum, shares, rankings, "
                "group-by breakdowns (per year, month, category, author) and listings or extremes filtered "
                "only by structured columns (dates, categories, authors, numbers), when no topic is asked about."),
    Route.VECTOR: ("Semantic search over the documents' text. Use when the question asks about a topic, theme "
                   "or content, optionally restricted only by an exact category or an exact author name."),
    Route.HYBRID: ("SQL first selects the rows matching structured conditions (dates, months, date ranges, "
                   "partial or fuzzy names, numeric conditions), then semantic search runs only inside those "
                   "rows. Use when a topic is asked about together with such conditions."),
}


def route_for(context: EngineContext, question: str) -> tuple[Route, str]:
    return context.planner.plan(question).route()


def build_engines(context: EngineContext, text_to_sql_prompt: Any | None) -> dict[Route, Any]:
    return {
        Route.SQL: build_sql_engine(context, text_to_sql_prompt),
        Route.VECTOR: VectorEngine(context=context),
        Route.HYBRID: HybridEngine(context=context),
    }


def build_router(context: EngineContext, engines: dict[Route, Any]) -> RouterQueryEngine:
    """The router over the three engines, selecting from the offline reading. With a language model, questions
    that reading is unsure of never reach it: the model's own JSON reading picks the engine (rag.assistant)."""
    tools = [QueryEngineTool(query_engine=engines[route],
                             metadata=ToolMetadata(name=route.value, description=TOOL_DESCRIPTIONS[route]))
             for route in (Route.SQL, Route.VECTOR, Route.HYBRID)]
    selector = OfflineSelector(lambda question: route_for(context, question))
    return RouterQueryEngine(selector=selector, query_engine_tools=tools, llm=context.llm)
