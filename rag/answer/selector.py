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
