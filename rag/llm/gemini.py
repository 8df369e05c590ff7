"""Gemini as a LlamaIndex LLM behind `ResilientLLM`: bounded retries with backoff, errors in plain words.

- `build_gemini(settings)`: LlamaIndex `GoogleGenAI`, built without contacting the service (explicit
  `max_tokens` and `context_window`), its own retries off, wrapped in `ResilientLLM`. It refuses to
  start under pytest: a real provider never runs in the test suite.
- `ResilientLLM`: bounded retries with exponential backoff and jitter on timeouts, HTTP 429 and 5xx;
  a rejected key or a bad request fails at once; the final failure is `LLMUnavailable`, in plain words.
  Every attempt is a span (`llm.attempt`) of the turn's trace.
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from llama_index.core.base.llms.types import (
    ChatMessage,
    ChatResponse,
    ChatResponseGen,
    CompletionResponse,
    CompletionResponseGen,
    LLMMetadata,
)
from llama_index.core.llms.custom import CustomLLM
from pydantic import PrivateAttr

from rag import tracing
from rag.errors import ConfigError, LLMUnavailable
from rag.models import LLMCall
from rag.settings import Settings
from rag.tracing import messages_text

GEMINI_MAX_OUTPUT_TOKENS = 8192  # generous: Gemini 2.5 "thinking" tokens count against this limit
GEMINI_CONTEXT_WINDOWS = {  # input tokens; anything else named gemini-* is assumed to have 1M
    "gemini-2.5-flash": 1_048_576,
    "gemini-2.5-flash-lite": 1_048_576,
    "gemini-2.5-pro": 1_048_576,
}
DEFAULT_CONTEXT_WINDOW = 1_048_576

RETRYABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})
KEY_REJECTED_STATUS = frozenset({401, 403})

# ---------------------------------------------------------------- Gemini


def build_gemini(settings: Settings, *, allow_under_test: bool = False,
                 sleep: Callable[[float], None] = time.sleep) -> ResilientLLM:
    """Gemini as a LlamaIndex LLM, constructed explicitly and without any network call.

    Raises ConfigError without an API key, and under pytest unless `allow_under_test=True`.
    """
    if "PYTEST_CURRENT_TEST" in os.environ and not allow_under_test:
        raise ConfigError("A real Gemini provider must not start under the test runner; inject a ScriptedLLM "
                          "with build_providers(settings, llm=...).")
    if not settings.google_api_key:
        raise ConfigError("GOOGLE_API_KEY is not set, so Gemini cannot be used; set it or choose the offline "
                          "provider.")
    from google.genai import types
    from llama_index.llms.google_genai import GoogleGenAI

    model = settings.gemini_model
    inner = GoogleGenAI(
        model=model,
        api_key=settings.google_api_key,
        # Gemini 3 models are meant to run at their default temperature; older ones answer at 0.
        temperature=0.0 if re.match(r"gemini-[12](\.|-)", model) else None,
        # Both given, so the constructor does not call models.get() on the service.
        max_tokens=GEMINI_MAX_OUTPUT_TOKENS,
        context_window=GEMINI_CONTEXT_WINDOWS.get(model, DEFAULT_CONTEXT_WINDOW),
        max_retries=0,  # ResilientLLM retries (bounded, traced); no hidden tenacity loop underneath
        is_function_calling_model=False,
        http_options=types.HttpOptions(timeout=int(settings.llm_timeout_s * 1000)),
    )
    return ResilientLLM(inner, max_attempts=settings.llm_retries, provider_label="Gemini", model=model,
                        sleep=sleep)


def gemini_error(code: int, message: str = "", status: str = "") -> Exception:
    """The exception google-genai raises for HTTP `code` (ClientError 4xx, ServerError 5xx), built offline."""
    from google.genai import errors

    body = {"error": {"code": code, "message": message or f"HTTP {code}", "status": status or str(code)}}
    if 400 <= code < 500:
        return errors.ClientError(code, body)
    if 500 <= code < 600:
        return errors.ServerError(code, body)
    return errors.APIError(code, body)


# ---------------------------------------------------------------- retries


@dataclass(frozen=True)
class Failure:
    """How one failed call is handled: retried or not, and how it is described to the user."""

    retryable: bool
    label: str  # "HTTP 503", "timeout", "connection error"
    key_rejected: bool = False


def classify_error(error: BaseException) -> Failure | None:
    """A provider/transport failure, or None for anything else (a bug, which must not be hidden)."""
    code = _status_code(error)
    text = f"{type(error).__name__} {error}".lower()
    if code is not None:
        if code in KEY_REJECTED_STATUS or (code == 400 and ("api key" in text or "api_key" in text)):
            return Failure(False, f"HTTP {code}", key_rejected=True)
        return Failure(code in RETRYABLE_STATUS or 500 <= code < 600, f"HTTP {code}")
    if isinstance(error, TimeoutError) or "timeout" in type(error).__name__.lower() or "timed out" in text:
        return Failure(True, "timeout")
    if _is_transport_error(error):
        return Failure(True, "connection error")
    if "resource_exhausted" in text or "rate limit" in text:
        return Failure(True, "HTTP 429")
    if "unavailable" in text and "overloaded" in text:
        return Failure(True, "HTTP 503")
    return None


def _status_code(error: BaseException) -> int | None:
    for value in (getattr(error, "code", None), getattr(error, "status_code", None),
                  getattr(getattr(error, "response", None), "status_code", None)):
        if isinstance(value, int) and 100 <= value < 600:
            return value
    return None


def _is_transport_error(error: BaseException) -> bool:
    if isinstance(error, ConnectionError):
        return True
    try:
        import httpx
    except ImportError:  # pragma: no cover - httpx comes with google-genai
        return False
    return isinstance(error, httpx.TransportError)


_RETRY_DELAY = re.compile(r"retrydelay['\"]?\s*[:=]\s*['\"]?(\d+(?:\.\d+)?)s", re.IGNORECASE)


class ResilientLLM(CustomLLM):
    """Wraps a LlamaIndex LLM: bounded retries with backoff on transient failures, each attempt traced.

    `max_attempts` counts every call, the first included. Between attempts it waits
    `base_delay * 2**(n-1)` seconds (capped at `max_delay`, or the server's retryDelay when given)
    with jitter; `sleep` is injectable so tests never wait.
    """

    model: str = "unknown"
    provider_label: str = "language model"
    max_attempts: int = 3
    base_delay: float = 1.0
    max_delay: float = 8.0

    _inner: Any = PrivateAttr()
    _sleep: Callable[[float], None] = PrivateAttr()
    _random: random.Random = PrivateAttr()

    def __init__(self, inner: Any, *, max_attempts: int = 3, base_delay: float = 1.0, max_delay: float = 8.0,
                 provider_label: str = "language model", model: str | None = None,
                 sleep: Callable[[float], None] = time.sleep, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(model=model or getattr(inner, "model", None) or inner.metadata.model_name,
                         provider_label=provider_label, max_attempts=max(1, int(max_attempts)),
                         base_delay=base_delay, max_delay=max_delay, **kwargs)
        self._inner = inner
        self._sleep = sleep
        self._random = random.Random(seed)

    @classmethod
    def class_name(cls) -> str:
        return "ResilientLLM"

    @property
    def inner(self) -> Any:
        return self._inner

    @property
    def metadata(self) -> LLMMetadata:
        meta = self._inner.metadata
        return LLMMetadata(context_window=meta.context_window, num_output=meta.num_output,
                           is_chat_model=meta.is_chat_model, is_function_calling_model=False,
                           model_name=meta.model_name, system_role=meta.system_role)

    # The inner LLM emits LlamaIndex's LLM events (and so the trace's llm_calls); these methods are
    # deliberately not decorated again, or every call would be recorded twice.

    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return self._call("complete", prompt, lambda: self._inner.complete(prompt, formatted=formatted, **kwargs))

    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        return self._call("chat", messages_text(messages), lambda: self._inner.chat(messages, **kwargs))

    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponseGen:
        return self._stream("stream_complete", prompt,
                            lambda: self._inner.stream_complete(prompt, formatted=formatted, **kwargs))

    def stream_chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponseGen:
        return self._stream("stream_chat", messages_text(messages),
                            lambda: self._inner.stream_chat(messages, **kwargs))

    async def acomplete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return self.complete(prompt, formatted=formatted, **kwargs)

    async def achat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        return self.chat(messages, **kwargs)

    # ------------------------------------------------------------ retry loop

    def _call(self, method: str, prompt: str, call: Callable[[], Any]) -> Any:
        for attempt in range(1, self.max_attempts + 1):
            attrs: dict[str, Any] = {}
            started = time.perf_counter()
            try:
                with tracing.span("llm.attempt", attempt=attempt, of=self.max_attempts, method=method,
                                  model=self.model) as attrs:
                    result = call()
                    attrs["outcome"] = "ok"
                return result
            except Exception as error:
                failure = classify_error(error)
                if failure is None:
                    attrs["outcome"] = "error (not retried)"
                    raise
                self._record_failed_call(prompt, error, failure, (time.perf_counter() - started) * 1000)
                if not failure.retryable or attempt == self.max_attempts:
                    attrs["outcome"] = f"failed ({failure.label})"
                    raise self._unavailable(failure, attempt) from error
                delay = self._delay(attempt, error)
                # The span is already closed; its attributes dict is shared, so this still lands in the trace.
                attrs.update(outcome=f"retry ({failure.label})", retry_in_s=round(delay, 3))
            self._sleep(delay)
        raise AssertionError("unreachable")  # pragma: no cover

    def _stream(self, method: str, prompt: str, start: Callable[[], Iterator[Any]]) -> Iterator[Any]:
        """Retries until the first piece arrives; a failure in mid-stream is not retried."""

        def first_piece() -> tuple[Any, Iterator[Any]]:
            stream = iter(start())
            return next(stream, None), stream

        first, stream = self._call(method, prompt, first_piece)

        def chained() -> Iterator[Any]:
            if first is not None:
                yield first
            yield from stream

        return chained()

    def _delay(self, attempt: int, error: BaseException) -> float:
        delay = min(self.max_delay, self.base_delay * 2 ** (attempt - 1))
        if hinted := _RETRY_DELAY.search(str(error)):
            delay = min(self.max_delay, max(delay, float(hinted.group(1))))
        return delay / 2 + self._random.uniform(0, delay / 2)  # "equal jitter"

    def _unavailable(self, failure: Failure, attempts: int) -> LLMUnavailable:
        label = self.provider_label
        subject = label if label[:1].isupper() else f"The {label}"
        if failure.key_rejected:
            return LLMUnavailable(f"The {label} API key was rejected.")
        if not failure.retryable:
            return LLMUnavailable(f"{subject} refused the request ({failure.label}).")
        plural = "attempt" if attempts == 1 else "attempts"
        return LLMUnavailable(f"{subject} did not answer after {attempts} {plural} ({failure.label}).")

    def _record_failed_call(self, prompt: str, error: BaseException, failure: Failure, duration_ms: float) -> None:
        """Failed attempts emit no LlamaIndex end event, so they are added to the trace's LLM calls here."""
        recorder = tracing.current()
        if recorder is not None:
            recorder.add_llm_call(LLMCall(purpose="llm.attempt (failed)", model=self.model, prompt=prompt,
                                          response="", duration_ms=round(duration_ms, 3),
                                          error=f"{failure.label}: {type(error).__name__}: {error}"[:500]))
