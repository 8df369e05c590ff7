"""Settings: the registry, parsing from the environment, validation and what may be displayed."""

from __future__ import annotations

import dataclasses

import pytest

from rag.errors import ConfigError
from rag.settings import REGISTRY, Settings, mask_url

FIELDS = {f.name: f for f in dataclasses.fields(Settings)}


def test_registry_matches_the_dataclass() -> None:
    assert [s.name for s in REGISTRY] == list(FIELDS)
    for setting in REGISTRY:
        assert setting.default == FIELDS[setting.name].default, setting.name
        assert setting.help.strip(), setting.name
    assert len({s.env for s in REGISTRY}) == len(REGISTRY)


def test_from_env_parses_types() -> None:
    settings = Settings.from_env({
        "RAG_DB_URL": "sqlite:///other.db",
        "RAG_TABLE": "tickets",
        "RAG_CHUNK_TOKENS": "128",
        "RAG_CHUNK_OVERLAP": "16",
        "RAG_SQL_TIMEOUT_S": "2.5",
        "CHROMA_HOST": "chroma.internal",
        "CHROMA_PORT": "9000",
        "RAG_TOP_K": "7",
        "RAG_PROVIDER": "offline",
    })
    assert settings.db_url == "sqlite:///other.db"
    assert settings.table == "tickets"
    assert settings.chunk_tokens == 128 and isinstance(settings.chunk_tokens, int)
    assert settings.chunk_overlap == 16
    assert settings.sql_timeout_s == 2.5 and isinstance(settings.sql_timeout_s, float)
    assert settings.chroma_host == "chroma.internal"
    assert settings.chroma_port == 9000 and isinstance(settings.chroma_port, int)
    assert settings.top_k == 7
    assert settings.provider == "offline"
    # Anything not given keeps its default.
    assert settings.max_rows == Settings().max_rows


def test_from_env_ignores_empty_values() -> None:
    assert Settings.from_env({"RAG_TABLE": "", "RAG_TOP_K": ""}) == Settings.from_env({})


def test_from_env_with_no_variables_is_the_defaults() -> None:
    assert Settings.from_env({}) == Settings()


NUMERIC = [s for s in REGISTRY if isinstance(s.default, int | float) and not isinstance(s.default, bool)]


@pytest.mark.parametrize(
    "setting",
    [pytest.param(s, id=s.env) for s in NUMERIC],
)
def test_every_numeric_setting_is_parsed_as_a_number(setting) -> None:
    value = setting.default + 1 if setting.name != "chunk_overlap" else 10
    parsed = getattr(Settings.from_env({setting.env: str(value)}), setting.name)
    assert parsed == value
    assert type(parsed) is type(setting.default)


@pytest.mark.parametrize(("env", "raw"), [("RAG_TOP_K", "five"), ("CHROMA_PORT", "80.5"), ("RAG_SQL_TIMEOUT_S", "1s")])
def test_invalid_number_is_a_config_error(env: str, raw: str) -> None:
    with pytest.raises(ConfigError) as info:
        Settings.from_env({env: raw})
    assert env in str(info.value) and raw in str(info.value)


def test_overrides_win_and_none_is_ignored() -> None:
    env = {"RAG_TABLE": "tickets", "RAG_TOP_K": "3"}
    settings = Settings.from_env(env, table=None, top_k=None, index_dir=None)
    assert settings.table == "tickets" and settings.top_k == 3
    assert settings.index_dir == Settings().index_dir
    assert Settings.from_env(env, table="orders").table == "orders"


@pytest.mark.parametrize(
    "changes",
    [{"chunk_overlap": 200}, {"chunk_overlap": 250, "chunk_tokens": 200}, {"chunk_overlap": -1},
     {"chunk_tokens": 257}, {"chunk_tokens": 512, "chunk_overlap": 10}, {"provider": "openai"},
     {"top_k": 0}, {"max_rows": 0}],
)
def test_validated_rejects(changes: dict) -> None:
    with pytest.raises(ConfigError):
        Settings(**changes).validated()
    with pytest.raises(ConfigError):
        Settings().replace(**changes)


def test_validated_accepts_the_limits() -> None:
    assert Settings(chunk_tokens=256, chunk_overlap=255).validated().chunk_tokens == 256
    assert Settings(chunk_overlap=0).validated().chunk_overlap == 0


def test_from_env_validates() -> None:
    with pytest.raises(ConfigError, match="overlap"):
        Settings.from_env({"RAG_CHUNK_TOKENS": "50", "RAG_CHUNK_OVERLAP": "50"})


def test_settings_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Settings().table = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("provider", "key", "effective"),
    [("auto", "", "offline"), ("auto", "AIza-secret", "gemini"), ("offline", "AIza-secret", "offline"),
     ("gemini", "", "gemini"), ("fake", "", "fake")],
)
def test_effective_provider(provider: str, key: str, effective: str) -> None:
    assert Settings(provider=provider, google_api_key=key).effective_provider == effective


def test_effective_provider_from_env() -> None:
    assert Settings.from_env({}).effective_provider == "offline"
    assert Settings.from_env({"GOOGLE_API_KEY": "AIza-secret"}).effective_provider == "gemini"


def test_public_dict_hides_credentials() -> None:
    settings = Settings(db_url="postgresql+psycopg://reporter:s3cr3t-pw@db.internal:5432/news",
                        google_api_key="AIza-very-secret")
    public = settings.public_dict()
    assert "s3cr3t-pw" not in str(public)
    assert "AIza-very-secret" not in str(public)
    assert public["google_api_key"] == "set"
    assert public["db_url"] == "postgresql+psycopg://reporter:***@db.internal:5432/news"
    assert public["table"] == "articles"
    assert set(public) == set(FIELDS)
    assert Settings().public_dict()["google_api_key"] == "not set"
    assert "AIza-very-secret" not in repr(settings)


def test_mask_url_without_password_is_unchanged() -> None:
    assert mask_url("sqlite:////data/articles.db") == "sqlite:////data/articles.db"


@pytest.mark.parametrize(
    ("text", "parsed"),
    [("", {}), ("title=headline", {"title": "headline"}),
     (" Title = headline , content=body,,date=created_at ",
      {"title": "headline", "content": "body", "date": "created_at"})],
)
def test_role_overrides(text: str, parsed: dict[str, str]) -> None:
    assert Settings(column_roles=text).role_overrides() == parsed


@pytest.mark.parametrize("text", ["title", "title=", "=headline", "title=headline,content"])
def test_bad_role_overrides(text: str) -> None:
    with pytest.raises(ConfigError, match="title=headline"):
        Settings(column_roles=text).role_overrides()
