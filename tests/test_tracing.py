"""Tracing: spans with timing, attributes and errors; per-turn isolation; LlamaIndex events forwarded."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from typing import Any

import pytest
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

from rag import tracing
from rag.models import LLMCall, Span, Trace


class EchoLLM(CustomLLM):
    """A tiny LlamaIndex LLM: answers 'echo: <prompt>'; optionally reports usage like Gemini does."""

    usage: dict[str, int] | None = None

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="echo")

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        raw = {"usage_metadata": self.usage, "model_version": "echo-1"} if self.usage else None
        return CompletionResponse(text=f"echo: {prompt}", raw=raw)

    @llm_completion_callback()
    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponseGen:
        yield CompletionResponse(text="echo", delta="echo")

    @llm_chat_callback()
    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        return ChatResponse(message=ChatMessage(role=MessageRole.ASSISTANT, content=f"echo: {messages[-1].content}"))


# --------------------------------------------------------------------------- spans


def test_span_records_name_start_duration_and_attributes() -> None:
    trace = Trace(question="q")
    with tracing.recording(trace):
        time.sleep(0.01)
        with tracing.span("sql.guard", sql="SELECT 1") as attrs:
            time.sleep(0.02)
            attrs["verdict"] = "allowed"
    [span] = trace.spans
    assert span.name == "sql.guard"
    assert span.attributes == {"sql": "SELECT 1", "verdict": "allowed"}
    assert span.error is None
    assert span.start_ms >= 10
    assert 20 <= span.duration_ms < 2000
    assert trace.total_ms == pytest.approx(span.start_ms + span.duration_ms)
    assert trace.timings_ms["sql.guard"] == span.duration_ms


def test_span_records_an_error_and_reraises() -> None:
    trace = Trace(question="q")
    with tracing.recording(trace), pytest.raises(ValueError, match="boom"), tracing.span("step", n=1):
        raise ValueError("boom")
    [span] = trace.spans
    assert span.error == "ValueError: boom"
    assert span.attributes == {"n": 1}
    assert span.duration_ms >= 0


def test_nested_spans_are_all_recorded_inner_first() -> None:
    trace = Trace(question="q")
    with tracing.recording(trace), tracing.span("outer"):
        with tracing.span("inner.a"):
            pass
        with tracing.span("inner.b"):
            pass
    assert [s.name for s in trace.spans] == ["inner.a", "inner.b", "outer"]
    outer = trace.spans[-1]
    for inner in trace.spans[:2]:
        assert outer.start_ms <= inner.start_ms
        assert inner.start_ms + inner.duration_ms <= outer.start_ms + outer.duration_ms + 0.01


def test_span_outside_a_recording_is_a_no_op() -> None:
    assert tracing.current() is None
    with tracing.span("free", a=1) as attrs:
        attrs["b"] = 2
    assert attrs == {"a": 1, "b": 2}


def test_recording_sets_and_resets_the_current_recorder() -> None:
    outer, inner = Trace(question="outer"), Trace(question="inner")
    with tracing.recording(outer) as outer_recorder:
        assert tracing.current() is outer_recorder
        with tracing.recording(inner) as inner_recorder:
            assert tracing.current() is inner_recorder
            with tracing.span("in.inner"):
                pass
        assert tracing.current() is outer_recorder
        with tracing.span("in.outer"):
            pass
    assert tracing.current() is None
    assert [s.name for s in inner.spans] == ["in.inner"]
    assert [s.name for s in outer.spans] == ["in.outer"]


def test_recording_is_reset_after_an_exception() -> None:
    with pytest.raises(RuntimeError), tracing.recording(Trace(question="q")):
        raise RuntimeError("x")
    assert tracing.current() is None


def test_two_threads_never_mix_their_traces() -> None:
    barrier = threading.Barrier(2)
    traces = {name: Trace(question=name) for name in ("a", "b")}
    errors: list[BaseException] = []

    def turn(name: str) -> None:
        try:
            with tracing.recording(traces[name]):
                for i in range(20):
                    barrier.wait(timeout=5)  # both threads inside their recordings at the same time
                    with tracing.span(f"{name}.{i}", owner=name):
                        EchoLLM().complete(f"prompt from {name} {i}")
        except BaseException as error:  # noqa: BLE001 - reported to the main thread
            errors.append(error)

    threads = [threading.Thread(target=turn, args=(name,)) for name in traces]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    assert not errors
    for name, trace in traces.items():
        assert [s.name for s in trace.spans] == [f"{name}.{i}" for i in range(20)]
        assert {s.attributes["owner"] for s in trace.spans} == {name}
        assert len(trace.llm_calls) == 20
        assert all(c.prompt.startswith(f"prompt from {name} ") for c in trace.llm_calls)


# --------------------------------------------------------------------------- LlamaIndex events


def test_llm_completion_is_recorded_with_estimated_tokens() -> None:
    trace = Trace(question="q", provider="echo-provider")
    with tracing.recording(trace):
        response = EchoLLM().complete("ping " * 10)
    assert response.text.startswith("echo: ping")
    [call] = trace.llm_calls
    assert call.prompt == "ping " * 10
    assert call.response == "echo: " + "ping " * 10
    assert call.prompt_tokens == (len("ping " * 10) + 3) // 4
    assert call.completion_tokens == (len(call.response) + 3) // 4
    assert call.model == "echo-provider"
    assert call.duration_ms >= 0
    assert trace.tokens == {"prompt": call.prompt_tokens, "completion": call.completion_tokens,
                            "total": call.prompt_tokens + call.completion_tokens}


def test_reported_usage_wins_over_the_estimate() -> None:
    trace = Trace(question="q")
    with tracing.recording(trace):
        EchoLLM(usage={"prompt_token_count": 123, "candidates_token_count": 45}).complete("hi")
    [call] = trace.llm_calls
    assert (call.prompt_tokens, call.completion_tokens, call.model) == (123, 45, "echo-1")


def test_llm_chat_is_recorded() -> None:
    trace = Trace(question="q")
    with tracing.recording(trace):
        EchoLLM().chat([ChatMessage(role=MessageRole.SYSTEM, content="be brief"),
                        ChatMessage(role=MessageRole.USER, content="hello")])
    [call] = trace.llm_calls
    assert call.prompt == "[system] be brief\n[user] hello"
    assert call.response == "echo: hello"


def test_llm_calls_outside_a_recording_are_not_kept() -> None:
    trace = Trace(question="q")
    EchoLLM().complete("nobody listens")
    with tracing.recording(trace):
        pass
    assert trace.llm_calls == []


def test_llm_call_purpose_is_the_enclosing_span() -> None:
    trace = Trace(question="q")
    with tracing.recording(trace):
        with tracing.span("validate"):
            pass
        with tracing.span("route.llm_selector"), tracing.span("llm.attempt"):
            EchoLLM().complete("choose a tool")
        with tracing.span("synthesize"):
            pass
        EchoLLM().complete("outside any span")
    assert [c.purpose for c in trace.llm_calls] == ["llm.attempt", "llm"]


def test_retrieval_events_become_spans() -> None:
    from llama_index.core import VectorStoreIndex
    from llama_index.core.embeddings import MockEmbedding
    from llama_index.core.schema import TextNode

    index = VectorStoreIndex([TextNode(text="a"), TextNode(text="b")], embed_model=MockEmbedding(embed_dim=8))
    trace = Trace(question="q")
    with tracing.recording(trace):
        index.as_retriever(similarity_top_k=2).retrieve("a")
    [span] = [s for s in trace.spans if s.name == "llamaindex.retrieve"]
    assert span.attributes == {"nodes": 2}


def test_trace_is_json_serialisable() -> None:
    trace = Trace(question="q", forced_route="sql")
    with tracing.recording(trace):
        with tracing.span("x", rows=[[1, "a"]], nested={"k": (1, 2)}):
            EchoLLM().complete("hi")
        trace.llm_calls.append(LLMCall("manual", "m", "p", "r", 1, 2))
    data = json.loads(json.dumps(trace.to_dict()))
    assert data["spans"][0]["name"] == "x"
    assert data["tokens"]["total"] == trace.tokens["total"]
    assert data["timings_ms"]["total"] == pytest.approx(trace.total_ms)
    assert isinstance(trace.spans[0], Span)


def test_instrumentation_is_installed_once() -> None:
    from llama_index.core.instrumentation import get_dispatcher

    for _ in range(3):
        with tracing.recording(Trace(question="q")):
            pass
    forwarders = [h for h in get_dispatcher().event_handlers if h.class_name() == "RagTraceForwarder"]
    assert len(forwarders) == 1


def test_offline_sql_writer_calls_are_recorded_without_tokens() -> None:
    from rag.understand.offline_writer import OfflineSQLWriter

    trace = Trace(question="q")
    with tracing.recording(trace):
        OfflineSQLWriter(lambda question: "SELECT 1").complete("how many articles?")
    [call] = trace.llm_calls
    assert call.response == "SELECT 1" and call.prompt == "how many articles?"
    assert (call.prompt_tokens, call.completion_tokens) == (0, 0)
