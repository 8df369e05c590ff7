"""Domain types shared by the core and the UI: plain, JSON-serialisable dataclasses.

No framework object (LlamaIndex node, Chroma result, Streamlit widget) is ever stored in these.
"""

from __future__ import annotations

import dataclasses
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any


class Route(StrEnum):
    SQL = "sql"
    VECTOR = "vector"
    HYBRID = "hybrid"

    @property
    def label(self) -> str:
        return {"sql": "SQL", "vector": "Semantic", "hybrid": "Hybrid"}[self.value]


@dataclass
class QueryResult:
    """Rows of a guarded SELECT, with what was cut to keep them displayable."""

    columns: list[str]
    rows: list[list[Any]]
    row_limit_hit: bool = False
    truncated_cells: int = 0


@dataclass
class Citation:
    title: str
    url: str
    published_date: str
    row_key: str = ""
    number: int = 0  # the [n] the answer cites it by (the trace's number of the retrieved document); 0: its position


@dataclass
class Chunk:
    """One retrieved chunk; `score` is a similarity normalised to 0..1 (1 = identical)."""

    id: str
    row_key: str
    title: str
    url: str
    chunk: int
    text: str
    score: float
    metadata: dict[str, Any] = field(default_factory=dict)

    def citation(self, date_key: str = "published_date") -> Citation:
        return Citation(self.title, self.url, str(self.metadata.get(date_key, "")), self.row_key)


@dataclass
class Span:
    """One timed step of a turn; `start_ms` is relative to the start of the turn."""

    name: str
    start_ms: float
    duration_ms: float
    attributes: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


@dataclass
class LLMCall:
    purpose: str
    model: str
    prompt: str
    response: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    duration_ms: float = 0.0
    error: str | None = None


@dataclass
class Filter:
    """A metadata condition in plain terms: `key op value` (op one of == != > < >= <= in nin)."""

    key: str
    op: str
    value: Any
    source: str = ""  # the words of the question it came from

    def describe(self) -> str:
        return f"{self.key} {self.op} {self.value!r}"


@dataclass
class DroppedFilter:
    description: str
    reason: str


@dataclass
class ChartSpec:
    """A chart as data: a type from a fixed set and column names that exist in the result."""

    kind: str  # "bar" | "line" | "grouped_bar" | "stacked_bar" | "metric" | "table"
    x: str | None = None
    y: str | None = None
    color: str | None = None
    title: str = ""
    labels: dict[str, str] = field(default_factory=dict)  # column -> axis or legend title ("Number of articles")
    time_x: bool = False  # x holds periods (years, months, days): kept in time order, gaps not bridged
    horizontal: bool = False  # long category labels: bars drawn sideways, the labels readable


@dataclass
class ConditionReading:
    """One condition as the user should read it, with the question words it came from."""

    column: str
    op: str
    value: Any
    words: str = ""
    text: str = ""  # plain restatement, e.g. "published_date 2023-03-01 to 2023-03-31"
    ref: str = ""  # what removing it removes: "condition:2", "topic" ("" = cannot be removed)


@dataclass
class PlanEdit:
    """A change the user makes to how a question was read, re-run without parsing the question again."""

    drop: list[str] = field(default_factory=list)  # refs of conditions to remove ("condition:2", "topic")
    drop_grouping: bool = False
    search_unused: bool = False  # also require the text to mention the words that were not used


@dataclass
class Alternative:
    """Another reading of the same question, offered with one click (and in `ask --json`)."""

    label: str
    edit: PlanEdit


@dataclass
class Interpretation:
    """How a question was read: what was computed or searched, each condition, and the words nothing used.

    Shown as one line above every answer (`restatement`), so a misreading is visible instead of silent."""

    action: str  # "Counted articles", "Average word_count", "Searched the text for 'crypto'"
    conditions: list[ConditionReading] = field(default_factory=list)
    group_by: list[str] = field(default_factory=list)  # the dimensions ("year", "category") or columns grouped by
    unused_words: list[str] = field(default_factory=list)
    alternatives: list[Alternative] = field(default_factory=list)
    corrections: list[list[str]] = field(default_factory=list)  # [as written, as read] for each corrected typo
    edited_from: str | None = None  # id of the turn whose reading the user edited into this one
    plan: Any = field(default=None, repr=False)  # the understanding layer's plan, to re-run an edit from
    builds_on: int | None = None  # a follow-up: the number of the earlier turn of the conversation it builds on
    # how it builds on it, shown first: "Same as #2, with published_date 2022 instead of 2023", "About #2"
    followup: str = ""
    standalone: str = ""  # the follow-up as a question of its own, when a language model rewrote it
    group_labels: list[str] = field(default_factory=list)  # `group_by` as the user reads it ("status", "section")
    read_by: str = ""  # "language model" when the model's JSON reading (validated) replaced the offline one

    def restatement(self) -> str:
        parts = [self.action, *(c.text for c in self.conditions)]
        if self.read_by:
            parts.insert(0, f"Read by the {self.read_by}")
        if self.builds_on is not None:
            parts.insert(0, self.followup or f"Builds on #{self.builds_on}")
        if self.group_by:
            parts.append("per " + self.grouping())
        if self.unused_words:
            parts.append("not used: " + ", ".join(f"'{w}'" for w in self.unused_words))
        if self.corrections:
            parts.append("read " + ", ".join(f"'{typed}' as '{read}'" for typed, read in self.corrections))
        return ("Edited · " if self.edited_from else "") + " · ".join(parts)


    def grouping(self) -> str:
        """The grouping in words: "year and category"."""
        return and_list(self.group_labels if len(self.group_labels) == len(self.group_by) else self.group_by)


def and_list(words: list[str]) -> str:
    """'year', 'year and category', 'year, month and category'."""
    return " and ".join(words) if len(words) <= 2 else ", ".join(words[:-1]) + " and " + words[-1]


@dataclass
class ConversationTurn:
    """What a follow-up question may build on: one earlier turn of a conversation, as plain data.

    `plan` is the understanding layer's plan as plain data (`rag.understand.followup.plan_to_dict`), so the
    state is JSON as it stands (`rag ask --session FILE`). `row_keys` are the rows a row answer showed (a SQL
    listing's rows, the retrieved documents); None for an aggregate, whose grouped table is `table`."""

    number: int  # position in the conversation, 1-based: the "#2" of "Same as #2"
    turn_id: str
    question: str
    route: str | None = None
    reason: str = ""
    reading: str = ""  # the restatement shown above the answer
    conditions: list[str] = field(default_factory=list)  # each condition as the user read it
    sql: str | None = None
    plan: dict[str, Any] | None = None
    row_keys: list[str] | None = None
    table: QueryResult | None = None
    builds_on: int | None = None
    error: str | None = None


@dataclass
class Conversation:
    """The state of one chat session (or one `--session` file): its turns, oldest first."""

    turns: list[ConversationTurn] = field(default_factory=list)

    @property
    def next_number(self) -> int:
        return len(self.turns) + 1

    def last_answer(self) -> ConversationTurn | None:
        """The most recent turn a follow-up can build on: one that answered with a reading (not an error, not an
        explanation of another turn)."""
        return next((t for t in reversed(self.turns) if t.plan is not None and t.error is None), None)

    def find(self, number: int) -> ConversationTurn | None:
        return next((t for t in self.turns if t.number == number), None)

    def clear(self) -> None:
        self.turns.clear()

    def to_dict(self) -> dict[str, Any]:
        return {"version": 1, "turns": [dataclasses.asdict(t) for t in self.turns]}

    @classmethod
    def from_dict(cls, data: Any) -> Conversation:
        """The state written by `to_dict`; raises ValueError when it is not one."""
        if not isinstance(data, dict) or data.get("version") != 1 or not isinstance(data.get("turns"), list):
            raise ValueError("not a conversation state (expected version 1 and a list of turns)")
        names = {f.name for f in dataclasses.fields(ConversationTurn)}
        turns = []
        for raw in data["turns"]:
            if not isinstance(raw, dict) or not isinstance(raw.get("number"), int):
                raise ValueError("every turn of a conversation state needs a number")
            values = {k: v for k, v in raw.items() if k in names}
            if isinstance(values.get("table"), dict):
                values["table"] = QueryResult(**values["table"])
            try:
                turns.append(ConversationTurn(**values))
            except TypeError as error:
                raise ValueError(f"a turn of the conversation state is incomplete ({error})") from error
        return cls(turns)


@dataclass
class SQLRun:
    """One guarded SELECT: the statement as checked, the guard's verdict, and its rows when it ran."""

    sql: str
    verdict: str
    result: QueryResult | None = None


@dataclass
class EngineResult:
    """Everything an engine found for one turn besides the answer text; travels on `Response.metadata`.

    `result` holds the full rows of the SQL route (or, for the hybrid route, the rows SQL selected);
    display caps are the UI's business. `chunks` is the best chunk of each retrieved document."""

    route: str | None = None
    reason: str = ""
    interpretation: Interpretation | None = None
    sql: str | None = None
    sql_verdict: str | None = None
    result: QueryResult | None = None
    restricted_row_keys: int | None = None
    filters: list[Filter] = field(default_factory=list)
    filters_dropped: list[DroppedFilter] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Retrieval routes: per single search ("dense", "keyword"), the documents it ranked under the same pre-filters,
    # best first, as {row_key, title, url}: what that search alone would have returned (`chunks` is the fused list).
    rankings: dict[str, list[dict[str, str]]] = field(default_factory=dict)

    def record_sql(self, run: SQLRun) -> None:
        self.sql, self.sql_verdict = run.sql, run.verdict
        if run.result is not None:
            self.result = run.result


@dataclass
class Trace:
    """What happened while one turn was answered: timed steps, LLM calls and notes (never the answer)."""

    question: str
    provider: str = "offline"
    forced_route: str | None = None
    spans: list[Span] = field(default_factory=list)
    llm_calls: list[LLMCall] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def total_ms(self) -> float:
        return max((s.start_ms + s.duration_ms for s in self.spans), default=0.0)

    @property
    def timings_ms(self) -> dict[str, float]:
        timings: dict[str, float] = {}
        for span in self.spans:
            timings[span.name] = round(timings.get(span.name, 0.0) + span.duration_ms, 3)
        timings["total"] = round(self.total_ms, 3)
        return timings

    @property
    def tokens(self) -> dict[str, int]:
        prompt = sum(c.prompt_tokens for c in self.llm_calls)
        completion = sum(c.completion_tokens for c in self.llm_calls)
        return {"prompt": prompt, "completion": completion, "total": prompt + completion}

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["timings_ms"] = self.timings_ms
        data["tokens"] = self.tokens
        return data


@dataclass
class Turn:
    """One question and its answer, as kept in the chat history."""

    question: str
    answer: str
    trace: Trace
    result: EngineResult = field(default_factory=EngineResult)
    chart: ChartSpec | None = None
    error: str | None = None
    feedback: int | None = None  # +1 / -1
    feedback_comment: str = ""  # the optional words sent with the thumbs
    cost_usd: float = 0.0
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    created_at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    @property
    def route(self) -> str | None:
        return self.result.route

    @property
    def citations(self) -> list[Citation]:
        return self.result.citations

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["route"] = self.route
        data["trace"] = self.trace.to_dict()
        if data["result"]["interpretation"] is not None:  # the plan is a re-run handle, not part of the record
            data["result"]["interpretation"].pop("plan", None)
        return data
