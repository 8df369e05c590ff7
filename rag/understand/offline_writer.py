"""The offline engine's stand-in for an LLM inside LlamaIndex: it only writes SQL, deterministically.

`NLSQLTableQueryEngine` asks its LLM to turn a question into SQL. Offline, the text-to-SQL prompt
is just the question (`OFFLINE_TEXT_TO_SQL_PROMPT`), and this class answers it from the planner, so
the offline and Gemini paths run through the same LlamaIndex engine, guard and trace.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from llama_index.core.base.llms.types import (
    ChatMessage,
    ChatResponse,
    CompletionResponse,
    CompletionResponseGen,
    LLMMetadata,
    MessageRole,
)
from llama_index.core.llms.callbacks import llm_completion_callback
from llama_index.core.llms.custom import CustomLLM
from llama_index.core.prompts import PromptTemplate
from llama_index.core.prompts.prompt_type import PromptType
from pydantic import PrivateAttr

OFFLINE_TEXT_TO_SQL_PROMPT = PromptTemplate("{query_str}", prompt_type=PromptType.TEXT_TO_SQL)


class OfflineSQLWriter(CustomLLM):
    """A LlamaIndex LLM whose only skill is `write_sql(question) -> SQL`."""

    _write_sql: Callable[[str], str] = PrivateAttr()

    def __init__(self, write_sql: Callable[[str], str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._write_sql = write_sql

    @classmethod
    def class_name(cls) -> str:
        return "OfflineSQLWriter"

    def to_payload(self) -> dict[str, Any]:
        """What instrumentation events carry; `free_of_charge` tells the trace that its calls bill no tokens."""
        return {**super().to_payload(), "free_of_charge": True}

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="offline", is_chat_model=False, context_window=100_000, num_output=2_000)

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return CompletionResponse(text=self._write_sql(prompt))

    @llm_completion_callback()
    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponseGen:
        text = self._write_sql(prompt)
        yield CompletionResponse(text=text, delta=text)

    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        question = next((m.content for m in reversed(messages) if m.role == MessageRole.USER), "") or ""
        return ChatResponse(message=ChatMessage(role=MessageRole.ASSISTANT, content=self._write_sql(question)))
