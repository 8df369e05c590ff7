"""Span recording for one turn, fed by the product's own steps and by LlamaIndex's instrumentation.

Call sites are one line: `with span("sql.guard", sql=sql) as attrs: ...`. The active recorder lives in
a context variable, so engines deep inside LlamaIndex record into the right turn without globals
being passed around, and concurrent Streamlit sessions never mix their traces.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from llama_index.core.instrumentation import get_dispatcher
from llama_index.core.instrumentation.event_handlers import BaseEventHandler
from llama_index.core.instrumentation.events import BaseEvent
from llama_index.core.instrumentation.events.llm import (
    LLMChatEndEvent,
    LLMChatStartEvent,
    LLMCompletionEndEvent,
    LLMCompletionStartEvent,
)
from llama_index.core.instrumentation.events.retrieval import RetrievalEndEvent, RetrievalStartEvent

from rag.models import LLMCall, Span, Trace

_current: contextvars.ContextVar[TraceRecorder | None] = contextvars.ContextVar("rag_trace", default=None)


class TraceRecorder:
    """Collects spans and LLM calls for one turn into its `Trace`."""

    def __init__(self, trace: Trace, on_span: Callable[[Span], None] | None = None,
                 on_token: Callable[[str], None] | None = None) -> None:
        self.trace = trace
        self.on_span = on_span  # called as each step ends (the UI shows live progress with it)
        self.on_token = on_token  # called with the answer so far while an LLM streams it
        self.started = time.perf_counter()
        self._open_llm: dict[str, tuple[float, str, bool]] = {}
        self._open_spans: list[str] = []
        self._open_events: dict[str, float] = {}

    def now_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000

    @contextmanager
    def span(self, name: str, **attributes: Any) -> Iterator[dict[str, Any]]:
        """Time a step; the yielded dict can be filled with outputs while the step runs."""
        start = self.now_ms()
        attrs = dict(attributes)
        error: str | None = None
        self._open_spans.append(name)
        try:
            yield attrs
        except BaseException as exc:
            error = f"{type(exc).__name__}: {exc}"
            raise
        finally:
            self._open_spans.pop()
            finished = Span(name, round(start, 3), round(self.now_ms() - start, 3), attrs, error)
            self.trace.spans.append(finished)
            if self.on_span is not None:
                self.on_span(finished)

    def add_llm_call(self, call: LLMCall) -> None:
        self.trace.llm_calls.append(call)

    # LlamaIndex events ------------------------------------------------------------------

    def on_event(self, event: BaseEvent) -> None:
        if isinstance(event, LLMCompletionStartEvent):
            self._open_llm[str(event.span_id)] = (self.now_ms(), event.prompt, _is_offline(event.model_dict))
        elif isinstance(event, LLMChatStartEvent):
            prompt = messages_text(event.messages)
            self._open_llm[str(event.span_id)] = (self.now_ms(), prompt, _is_offline(event.model_dict))
        elif isinstance(event, LLMCompletionEndEvent | LLMChatEndEvent):
            start, prompt, offline = self._open_llm.pop(str(event.span_id), (self.now_ms(), "", False))
            response = event.response
            text = getattr(response, "text", None) or str(getattr(getattr(response, "message", None), "content", ""))
            usage = _usage(response)
            model = str((getattr(response, "raw", None) or {}).get("model_version", "")) if isinstance(
                getattr(response, "raw", None), dict) else ""
            self.trace.llm_calls.append(LLMCall(
                purpose=self._open_spans[-1] if self._open_spans else "llm",
                model=model or self.trace.provider, prompt=prompt, response=text or "",
                # Deterministic code behind LlamaIndex's LLM interface (the offline SQL writer) bills no tokens.
                prompt_tokens=0 if offline else usage[0] or estimate_tokens(prompt),
                completion_tokens=0 if offline else usage[1] or estimate_tokens(text),
                duration_ms=round(self.now_ms() - start, 3)))
        elif isinstance(event, RetrievalStartEvent):
            self._open_events[str(event.span_id)] = self.now_ms()
        elif isinstance(event, RetrievalEndEvent):
            start = self._open_events.pop(str(event.span_id), self.now_ms())
            self.trace.spans.append(Span("llamaindex.retrieve", round(start, 3), round(self.now_ms() - start, 3),
                                         {"nodes": len(event.nodes)}))


def _is_offline(model_dict: dict[str, Any] | None) -> bool:
    """An LLM that declares `free_of_charge` (deterministic code behind the LLM interface) bills no tokens."""
    return bool((model_dict or {}).get("free_of_charge"))


def _usage(response: Any) -> tuple[int, int]:
    raw = getattr(response, "raw", None)
    usage = None
    if isinstance(raw, dict):
        usage = raw.get("usage_metadata") or raw.get("usage")
    elif raw is not None:
        usage = getattr(raw, "usage_metadata", None)
    if usage is None:
        extra = getattr(response, "additional_kwargs", {}) or {}
        return int(extra.get("prompt_tokens", 0) or 0), int(extra.get("completion_tokens", 0) or 0)
    get = usage.get if isinstance(usage, dict) else (lambda k, d=None: getattr(usage, k, d))
    return int(get("prompt_token_count", 0) or 0), int(get("candidates_token_count", 0) or 0)


def messages_text(messages: Any) -> str:
    """Chat messages as one text, the way traces show prompts: `[role] content` per line."""
    return "\n".join(f"[{m.role.value}] {m.content}" for m in messages)


def estimate_tokens(text: str | None) -> int:
    """Roughly 4 characters per token, used when the provider reports no usage."""
    return (len(text) + 3) // 4 if text else 0


class _Forwarder(BaseEventHandler):
    """Sends every LlamaIndex event to the recorder of the current turn, if any."""

    @classmethod
    def class_name(cls) -> str:
        return "RagTraceForwarder"

    def handle(self, event: BaseEvent, **kwargs: Any) -> None:
        recorder = _current.get()
        if recorder is not None:
            recorder.on_event(event)


_installed = False
_install_lock = threading.Lock()


def install_instrumentation() -> None:
    """Attach the forwarder to LlamaIndex's root dispatcher once per process."""
    global _installed
    with _install_lock:
        if not _installed:
            get_dispatcher().add_event_handler(_Forwarder())
            _installed = True


@contextmanager
def recording(trace: Trace, on_span: Callable[[Span], None] | None = None,
              on_token: Callable[[str], None] | None = None) -> Iterator[TraceRecorder]:
    install_instrumentation()
    recorder = TraceRecorder(trace, on_span, on_token)
    token = _current.set(recorder)
    try:
        yield recorder
    finally:
        _current.reset(token)


def current() -> TraceRecorder | None:
    return _current.get()


@contextmanager
def span(name: str, **attributes: Any) -> Iterator[dict[str, Any]]:
    """Record a step into the current turn; a no-op recorder outside a turn (e.g. in unit tests)."""
    recorder = _current.get()
    if recorder is None:
        yield dict(attributes)
        return
    with recorder.span(name, **attributes) as attrs:
        yield attrs
