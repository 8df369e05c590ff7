"""A deterministic LlamaIndex selector: routes from the planner's typed plan and states its reason."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from llama_index.core.base.base_selector import BaseSelector, SelectorResult, SingleSelection
from llama_index.core.prompts.mixin import PromptDictType
from llama_index.core.schema import QueryBundle
from llama_index.core.tools.types import ToolMetadata

from rag.models import Route


class OfflineSelector(BaseSelector):
    """Picks the tool whose name is the plan's route (tools are named 'sql', 'vector', 'hybrid')."""

    def __init__(self, route_for: Callable[[str], tuple[Route, str]]) -> None:
        self._route_for = route_for

    def _select(self, choices: Sequence[ToolMetadata], query: QueryBundle) -> SelectorResult:
        route, reason = self._route_for(query.query_str)
        names = [choice.name for choice in choices]
        return SelectorResult(selections=[SingleSelection(index=names.index(route.value), reason=reason)])

    async def _aselect(self, choices: Sequence[ToolMetadata], query: QueryBundle) -> SelectorResult:
        return self._select(choices, query)

    def _get_prompts(self) -> dict[str, Any]:
        return {}

    def _update_prompts(self, prompts: PromptDictType) -> None:
        """No prompts: nothing to update."""


class ValidatedSelector(BaseSelector):
    """Wraps an LLM selector: an answer that is not exactly one valid tool index falls back to `fallback`."""

    def __init__(self, inner: BaseSelector, fallback: BaseSelector,
                 certain: Callable[[str], bool] = lambda question: False) -> None:
        self._inner = inner
        self._fallback = fallback
        self._certain = certain  # when the offline reading is certain, the model is not asked to route

    def _select(self, choices: Sequence[ToolMetadata], query: QueryBundle) -> SelectorResult:
        from rag.errors import LLMUnavailable
        from rag.tracing import span

        if self._certain(query.query_str):
            with span("route.offline_certain") as attrs:
                selection = self._fallback.select(choices, query).selections[0]
                attrs["choice"] = choices[selection.index].name
            return SelectorResult(selections=[SingleSelection(
                index=selection.index, reason=f"{selection.reason} (offline reading certain: no model call to route)")])
        with span("route.llm_selector") as attrs:
            try:
                result = self._inner.select(choices, query)
                indices = [s.index for s in result.selections]
                if len(indices) == 1 and 0 <= indices[0] < len(choices):
                    attrs["choice"] = choices[indices[0]].name
                    return result
                problem = f"selector answered {[i + 1 for i in indices]}, not one of 1..{len(choices)}"
            except LLMUnavailable:
                raise  # the whole turn falls back to the offline engine, instead of retrying again per step
            except Exception as error:  # noqa: BLE001 - unparsable or failed selector output
                problem = f"selector failed: {error}"
            attrs["problem"] = problem
        fallback = self._fallback.select(choices, query)
        selection = fallback.selections[0]
        return SelectorResult(selections=[SingleSelection(
            index=selection.index, reason=f"{selection.reason} (offline rules; LLM {problem})")])

    async def _aselect(self, choices: Sequence[ToolMetadata], query: QueryBundle) -> SelectorResult:
        return self._select(choices, query)

    def _get_prompts(self) -> dict[str, Any]:
        return self._inner._get_prompts()

    def _update_prompts(self, prompts: PromptDictType) -> None:
        self._inner._update_prompts(prompts)
