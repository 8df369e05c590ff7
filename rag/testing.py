"""Test support: the scripted fake LLM the tests inject through `build_providers(settings, llm=...)`.

`ScriptedLLM` answers from a queue of scripted replies and records every prompt it receives.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from llama_index.core.base.llms.types import (
    ChatMessage,
    ChatResponse,
    CompletionResponse,
    CompletionResponseGen,
    LLMMetadata,
    MessageRole,
)
from llama_index.core.llms.callbacks import llm_chat_callback, llm_completion_callback
from llama_index.core.llms.custom import CustomLLM
from pydantic import PrivateAttr

from rag.llm.restatement import RESTATEMENT_MARKER
from rag.tracing import messages_text
from rag.understand.llm_reading import READING_MARKER

Reply = str | BaseException | type[BaseException] | Callable[[str], str]


@dataclass
class ScriptedCall:
    method: str  # "complete" | "chat" | "stream_complete"
    prompt: str


class ScriptedLLM(CustomLLM):
    """A fake LLM for tests: answers from a queue of scripted replies and records every prompt.

    Each reply is a string, an exception (raised when reached), or a callable(prompt) -> str. An empty
    queue raises AssertionError, so an unexpected call fails the test.
    """

    model: str = "scripted-fake"

    _replies: list[Reply] = PrivateAttr()
    _reading: Reply | None = PrivateAttr()
    _restatement: Reply = PrivateAttr()
    _calls: list[ScriptedCall] = PrivateAttr()
    _lock: threading.Lock = PrivateAttr()

    def __init__(self, replies: Iterable[Reply] = (), *, model: str = "scripted-fake", reading: Reply | None = None,
                 restatement: Reply = "", **kwargs: Any) -> None:
        """`reading`, when given, answers every question-reading prompt (rag.understand.llm_reading) without taking
        a reply from the queue, so a test scripts the same replies whether or not the offline reading was certain
        enough to skip that call. `restatement` answers every search-restatement prompt (rag.llm.restatement) the
        same way; its default, an empty reply, searches the question alone."""
        super().__init__(model=model, **kwargs)
        self._reading = reading
        self._restatement = restatement
        self._replies = list(replies)
        self._calls = []
        self._lock = threading.Lock()

    @classmethod
    def class_name(cls) -> str:
        return "ScriptedLLM"

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name=self.model, is_chat_model=False, is_function_calling_model=False,
                           context_window=100_000, num_output=2_000)

    @property
    def calls(self) -> list[ScriptedCall]:
        return list(self._calls)

    @property
    def prompts(self) -> list[str]:
        return [call.prompt for call in self._calls]

    @property
    def remaining(self) -> int:
        return len(self._replies)

    def add(self, *replies: Reply) -> None:
        with self._lock:
            self._replies.extend(replies)

    def _next(self, method: str, prompt: str) -> str:
        with self._lock:
            self._calls.append(ScriptedCall(method, prompt))
            if self._reading is not None and READING_MARKER in prompt:
                reply = self._reading
            elif RESTATEMENT_MARKER in prompt:
                reply = self._restatement
            elif not self._replies:
                raise AssertionError(f"no scripted reply left (call {len(self._calls)}: {method} {prompt[:200]!r})")
            else:
                reply = self._replies.pop(0)
        if isinstance(reply, BaseException):
            raise reply
        if isinstance(reply, type) and issubclass(reply, BaseException):
            raise reply()
        if callable(reply):
            return str(reply(prompt))
        return str(reply)

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return CompletionResponse(text=self._next("complete", prompt))

    @llm_completion_callback()
    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponseGen:
        text = self._next("stream_complete", prompt)
        yield CompletionResponse(text=text, delta=text)

    @llm_chat_callback()
    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        text = self._next("chat", messages_text(messages))
        return ChatResponse(message=ChatMessage(role=MessageRole.ASSISTANT, content=text))
