"""Question set -> routing / SQL / retrieval / answer / latency / cost report, through the app's own Assistant.

A case file (YAML, versioned) names the table it was written for and lists cases:

    version: 1
    table: articles
    cases:
    - id: sql-count-2023            # unique
      question: "How many technology articles were published in 2023?"
      route: sql                    # expected route: sql | vector | hybrid
      alternatives: [hybrid]        # optional: other acceptable routes
      sql_result: {value: 16}       # or rows: [[...], ...]; order-insensitive unless `ordered: true`
      reference_sql: "SELECT ..."   # optional: the hand-written query sql_result was computed from
      notes: "..."                  # optional
    - id: vec-children
      question: "What do we have about children?"
      route: vector
      relevant: [https://...]       # expected urls (a title or a row key is also accepted)
    - id: na-quantum
      question: "quantum computing in agriculture"
      route: vector
      no_answer: true               # nothing relevant exists: the answer must say so
    - id: change-delete
      question: "delete all politics articles"
      refuses: true                 # a request to change the table: no query runs, the answer says it only reads

A conversation is a case with `turns` instead of a question: each turn is a case of its own (same keys, no
`id`; scored as `<id>#<n>`), asked in order in one conversation, and may say which earlier turn it must build
on (`follows: 1`) or that it must not be merged into any (`follows: false`). A turn with `explains: true` asks
how an earlier answer was reached ("why SQL?"): it needs no route or expected result, and passes when no query
ran and the answer names the route of the turn it explains (`follows`, by default the previous one):

    - id: conv-year
      turns:
      - question: "How many articles per category in 2023?"
        route: sql
        sql_result: [["business", 14], ...]
      - question: "and in 2022?"
        route: sql
        follows: 1
        sql_result: [["fashion", 1], ["health", 1], ["politics", 1]]
      - question: "why SQL?"
        explains: true

Each case has exactly one of `sql_result`, `relevant` and `no_answer`. Expected rows may name fewer
columns than the product returns: they match when some choice of the result's columns reproduces
them (numbers within a small tolerance, text case-insensitively). Question sets live per table in
`eval/<table>/dev.yaml` (tune on these) and `eval/<table>/test.yaml` (written before tuning, frozen).
`rag.evaluation.runner.run_eval` asks every question through `Assistant.ask` (or the one given, e.g.
the app's cached engine) and returns an `EvalReport`; `write_report` saves `report.json` and `summary.md`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from rag.errors import ConfigError
from rag.settings import PROJECT_ROOT

SUPPORTED_VERSIONS = (1,)
ROUTES = ("sql", "vector", "hybrid")
CASE_KEYS = {"id", "question", "route", "alternatives", "sql_result", "relevant", "no_answer", "ordered", "notes",
             "reference_sql", "refuses"}
TURN_KEYS = (CASE_KEYS - {"id"}) | {"follows", "explains"}  # a turn of a conversation case
CONVERSATION_KEYS = {"id", "turns", "notes"}
DEFAULT_CASES = PROJECT_ROOT / "eval" / "news" / "dev.yaml"

class CaseFileError(ConfigError):
    """The case file is missing, unreadable or malformed; the message names the file and the case."""

    title = "Bad case file"


# ---------------------------------------------------------------- the case file


@dataclass(frozen=True)
class ExpectedSQL:
    """Expected rows (a list of lists) or a single value."""

    rows: list[list[Any]] | None = None
    value: Any = None
    has_value: bool = False

    @property
    def is_empty(self) -> bool:
        """No rows, or a single value of NULL (the latest date of no rows): the right reply says nothing was found."""
        return (not self.has_value and not self.rows) or (self.has_value and self.value is None)

    def to_dict(self) -> Any:
        return {"value": self.value} if self.has_value else self.rows


@dataclass(frozen=True)
class Case:
    id: str
    question: str
    route: str
    alternatives: tuple[str, ...] = ()
    sql_result: ExpectedSQL | None = None
    relevant: tuple[str, ...] = ()
    no_answer: bool = False
    ordered: bool = False
    notes: str = ""
    reference_sql: str = ""
    # A turn of a conversation: the earlier turn it must build on (0: it must not build on any; None: unchecked),
    # and whether it asks how an earlier answer was reached (then it has no route or expected result).
    follows: int | None = None
    explains: bool = False
    refuses: bool = False  # a request to change the table: passes when no query ran and the answer says it only reads

    @property
    def kind(self) -> str:
        if self.explains:
            return "explain"
        if self.refuses:
            return "refusal"
        return "sql" if self.sql_result is not None else "retrieval" if self.relevant else "no_answer"

    @property
    def accepted_routes(self) -> tuple[str, ...]:
        return (self.route, *self.alternatives)

    @property
    def answer_exists(self) -> bool:
        """False when the right reply is 'nothing found' (no_answer, or an expected empty result)."""
        return not self.no_answer and not (self.sql_result is not None and self.sql_result.is_empty)


@dataclass(frozen=True)
class ConversationCase:
    """Questions asked in order in one conversation, each with its own expectation."""

    id: str
    turns: tuple[Case, ...]
    notes: str = ""


@dataclass(frozen=True)
class CaseSet:
    version: int
    table: str
    cases: tuple[Case, ...]
    source: str = "<cases>"
    conversations: tuple[ConversationCase, ...] = ()

    @property
    def turn_count(self) -> int:
        """Questions asked by a run: the single cases and every turn of every conversation."""
        return len(self.cases) + sum(len(c.turns) for c in self.conversations)


def load_cases(path: str | Path) -> CaseSet:
    """Read and validate a case file; any problem is a CaseFileError naming the file and the case."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CaseFileError(f"Cannot read the case file {path}: {error.strerror or error}.") from error
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise CaseFileError(f"{path} is not valid YAML: {error}".replace("\n", " ")) from error
    return parse_cases(document, source=str(path))


def parse_cases(document: Any, source: str = "<cases>") -> CaseSet:
    def fail(message: str) -> CaseFileError:
        return CaseFileError(f"{source}: {message}")

    if not isinstance(document, dict):
        raise fail("expected a mapping with 'version', 'table' and 'cases'")
    unknown = set(document) - {"version", "table", "cases", "description"}
    if unknown:
        raise fail(f"unknown top-level key(s): {', '.join(sorted(map(str, unknown)))}")
    version = document.get("version")
    if version not in SUPPORTED_VERSIONS:
        raise fail(f"version {version!r} is not supported (supported: {', '.join(map(str, SUPPORTED_VERSIONS))})")
    table = document.get("table")
    if not isinstance(table, str) or not table.strip():
        raise fail("'table' must name the table the questions are about")
    raw_cases = document.get("cases")
    if not isinstance(raw_cases, list) or not raw_cases:
        raise fail("'cases' must be a non-empty list")
    cases: list[Case] = []
    conversations: list[ConversationCase] = []
    seen: set[str] = set()
    for number, raw in enumerate(raw_cases, start=1):
        label = f"case #{number}" + (f" ({raw.get('id')!r})" if isinstance(raw, dict) and raw.get("id") else "")
        try:
            item: Case | ConversationCase = (_parse_conversation(raw) if isinstance(raw, dict) and "turns" in raw
                                             else _parse_case(raw))
        except ValueError as error:
            raise fail(f"{label}: {error}") from error
        if item.id in seen:
            raise fail(f"{label}: duplicate id {item.id!r}")
        seen.add(item.id)
        if isinstance(item, ConversationCase):
            conversations.append(item)
        else:
            cases.append(item)
    return CaseSet(version=version, table=table.strip(), cases=tuple(cases), source=source,
                   conversations=tuple(conversations))


def _text(raw: dict[str, Any], key: str) -> str:
    """`raw[key]`, which must be a non-empty string (returned as written)."""
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"'{key}' must be a non-empty string")
    return value


def _parse_conversation(raw: dict[str, Any]) -> ConversationCase:
    unknown = set(raw) - CONVERSATION_KEYS
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(sorted(map(str, unknown)))} (a conversation has id, turns, notes)")
    case_id = _text(raw, "id")
    turns_raw = raw.get("turns")
    if not isinstance(turns_raw, list) or len(turns_raw) < 2:
        raise ValueError("'turns' must be a list of at least two turns")
    notes = raw.get("notes") or ""
    if not isinstance(notes, str):
        raise ValueError("'notes' must be text")
    turns = []
    for number, turn in enumerate(turns_raw, start=1):
        if not isinstance(turn, dict):
            raise ValueError(f"turn {number} must be a mapping")
        unknown = set(turn) - TURN_KEYS
        if unknown:
            raise ValueError(f"turn {number}: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
        follows = turn.get("follows")
        if follows is False:
            follows = 0
        elif follows is not None and (not isinstance(follows, int) or isinstance(follows, bool)
                                      or not 1 <= follows < number):
            raise ValueError(f"turn {number}: 'follows' must be false or the number of an earlier turn "
                             f"(1 to {number - 1})")
        explains = turn.get("explains", False)
        if not isinstance(explains, bool):
            raise ValueError(f"turn {number}: 'explains' must be true or false")
        fields = {k: v for k, v in turn.items() if k not in ("follows", "explains")}
        try:
            if explains:
                extra = set(fields) - {"question", "notes"}
                if extra or number == 1 or follows == 0:
                    raise ValueError("an 'explains' turn has only a question (and notes), follows an earlier turn, "
                                     "and cannot be the first")
                question = _text(fields, "question")
                case = Case(id=f"{case_id.strip()}#{number}", question=question.strip(), route="",
                            notes=str(fields.get("notes") or "").strip(), follows=follows or number - 1,
                            explains=True)
            else:
                case = dataclasses.replace(_parse_case({"id": f"{case_id.strip()}#{number}", **fields}),
                                           follows=follows)
        except ValueError as error:
            raise ValueError(f"turn {number}: {error}") from error
        turns.append(case)
    return ConversationCase(id=case_id.strip(), turns=tuple(turns), notes=notes.strip())


def _parse_case(raw: Any) -> Case:
    if not isinstance(raw, dict):
        raise ValueError("must be a mapping")
    unknown = set(raw) - CASE_KEYS
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(sorted(map(str, unknown)))}")
    case_id = _text(raw, "id")
    question = _text(raw, "question")
    if "refuses" in raw:
        if raw["refuses"] is not True or set(raw) - {"id", "question", "refuses", "notes"}:
            raise ValueError("a 'refuses: true' case has only an id, a question and notes (no route or result)")
        return Case(id=case_id.strip(), question=question.strip(), route="", notes=str(raw.get("notes") or "").strip(),
                    refuses=True)
    route = raw.get("route")
    if route not in ROUTES:
        raise ValueError(f"'route' must be one of {', '.join(ROUTES)}, not {route!r}")
    alternatives = raw.get("alternatives") or []
    if not isinstance(alternatives, list) or any(a not in ROUTES for a in alternatives):
        raise ValueError(f"'alternatives' must be a list of routes ({', '.join(ROUTES)})")
    # (a result of 0 is a result: `0 in (None, False)` is true)
    present = [k for k in ("sql_result", "relevant", "no_answer") if k in raw and raw[k] is not None
               and raw[k] is not False]
    if len(present) != 1:
        raise ValueError("needs exactly one of 'sql_result', 'relevant' or 'no_answer: true'"
                         + (f" (has {', '.join(present)})" if present else ""))
    ordered = raw.get("ordered", False)
    if not isinstance(ordered, bool):
        raise ValueError("'ordered' must be true or false")
    notes = raw.get("notes") or ""
    if not isinstance(notes, str):
        raise ValueError("'notes' must be text")
    reference_sql = raw.get("reference_sql") or ""
    if not isinstance(reference_sql, str):
        raise ValueError("'reference_sql' must be text")
    sql_result = _parse_sql_result(raw["sql_result"]) if "sql_result" in present else None
    if isinstance(raw.get("sql_result"), dict) and "ordered" in raw["sql_result"]:
        ordered = bool(raw["sql_result"]["ordered"])
    relevant: tuple[str, ...] = ()
    if "relevant" in present:
        items = raw["relevant"] if isinstance(raw["relevant"], list) else [raw["relevant"]]
        if not items or any(not isinstance(i, str | int) or not str(i).strip() for i in items):
            raise ValueError("'relevant' must be a non-empty list of urls or titles")
        relevant = tuple(str(i).strip() for i in items)
    if "no_answer" in present and raw["no_answer"] is not True:
        raise ValueError("'no_answer' must be true")
    return Case(id=case_id.strip(), question=question.strip(), route=route, alternatives=tuple(alternatives),
                sql_result=sql_result, relevant=relevant, no_answer="no_answer" in present, ordered=ordered,
                notes=notes.strip(), reference_sql=reference_sql.strip())


def _parse_sql_result(value: Any) -> ExpectedSQL:
    if isinstance(value, dict):
        unknown = set(value) - {"value", "rows", "ordered"}
        if unknown or ("value" in value) == ("rows" in value):
            raise ValueError("'sql_result' as a mapping needs exactly one of 'value' or 'rows' "
                             "(and an optional 'ordered')")
        if "value" in value:
            return ExpectedSQL(value=value["value"], has_value=True)
        value = value["rows"]
    if isinstance(value, list):
        if any(not isinstance(row, list) for row in value):
            raise ValueError("'sql_result' rows must be a list of lists, e.g. [[\"2023\", 16]]")
        widths = {len(row) for row in value}
        if len(widths) > 1 or 0 in widths:
            raise ValueError("'sql_result' rows must all have the same, non-zero number of values")
        return ExpectedSQL(rows=value)
    if isinstance(value, str | int | float | bool):
        return ExpectedSQL(value=value, has_value=True)
    raise ValueError("'sql_result' must be rows (a list of lists) or a single value")
