"""Column roles chosen by the user (Data page, `python -m rag roles --set ...`), kept in a small JSON file and
applied whenever the table is opened.

Where: `<RAG_INDEX_DIR>/roles-<table>-<digest>.json`, the digest naming the database URL (password masked) and
the table as the collection name does, so two databases with a table of the same name never share choices.
With a Chroma server (CHROMA_HOST) Chroma does not use RAG_INDEX_DIR, and the directory still holds the
product's own files: this one lives there too (a local file beside the app, not on the server).

Precedence, lowest first: detection from names and values < this file < RAG_COLUMN_ROLES / `--columns` (an
explicit role=column wins over a saved choice for the same role or the same column; see
`roles.merge_overrides`). A saved column that is no longer in the table is ignored, not an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rag.data.labels import derive_label
from rag.data.roles import CHOICES, LIST_CHOICES
from rag.errors import ConfigError
from rag.settings import Settings, mask_url

if TYPE_CHECKING:
    from rag.data.source import TableSource

VERSION = 1


def roles_path(settings: Settings) -> Path:
    """The file holding the saved column roles of the configured table."""
    digest = hashlib.sha1(json.dumps([mask_url(settings.db_url), settings.table]).encode()).hexdigest()[:10]
    table = re.sub(r"[^a-zA-Z0-9_-]", "_", settings.table)[:40]
    return Path(settings.index_dir) / f"roles-{table}-{digest}.json"


def load_roles(settings: Settings) -> dict[str, str]:
    """Saved choices, {column: choice}; empty when nothing was saved. A file that cannot be read or holds
    something else is a ConfigError naming it and the way out."""
    path = roles_path(settings)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise ConfigError(f"The saved column roles in {path} cannot be read ({error.strerror or error}).") from error
    fix = "fix or delete the file, or run `python -m rag roles --reset`"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ConfigError(f"The saved column roles in {path} are not valid JSON ({error.msg}); {fix}.") from error
    columns = data.get("columns") if isinstance(data, dict) else None
    if not isinstance(columns, dict) or not all(isinstance(k, str) and v in CHOICES for k, v in columns.items()):
        raise ConfigError(f"The saved column roles in {path} should map columns to one of {', '.join(CHOICES)}; "
                          f"{fix}.")
    return dict(columns)


def load_labels(settings: Settings) -> dict[str, str]:
    """Saved column labels, {column: label} (the `labels` of the same file); empty when none were saved."""
    try:
        data = json.loads(roles_path(settings).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # a missing file has none; an unreadable one is reported by `load_roles`
    labels = data.get("labels") if isinstance(data, dict) else None
    if not isinstance(labels, dict):
        return {}
    return {k: v.strip() for k, v in labels.items() if isinstance(k, str) and isinstance(v, str) and v.strip()}


def save_roles(settings: Settings, choices: Mapping[str, str], labels: Mapping[str, str] | None = None) -> Path:
    """Write the choices and labels (atomically: a reader never sees half a file); `labels` None keeps the saved
    ones. No choices and no labels removes the file."""
    path = roles_path(settings)
    labels = load_labels(settings) if labels is None else {c: v.strip() for c, v in labels.items() if v.strip()}
    if not choices and not labels:
        path.unlink(missing_ok=True)
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {"version": VERSION, "table": settings.table, "source": mask_url(settings.db_url),
               "columns": dict(choices), **({"labels": dict(labels)} if labels else {})}
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(payload, file, indent=2, ensure_ascii=False)
            file.write("\n")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


# ---------------------------------------------------------------- what the Data page and `rag roles` show


@dataclass
class ColumnRole:
    """One column as the Data page lists it: its role (one of CHOICES), why, and who decided."""

    column: str
    type: str
    role: str
    evidence: str
    set_by: str  # "detected", "saved" (this file) or "RAG_COLUMN_ROLES" (the setting or --columns)
    label: str = ""  # what answers and charts call the column (saved, else derived from its name)


@dataclass
class RolesReport:
    table: str
    path: str  # the file saved choices go to
    columns: list[ColumnRole]
    missing: list[str]  # important roles no column plays
    ignored: list[str] = field(default_factory=list)  # saved for columns the table no longer has
    explicit: dict[str, str] = field(default_factory=dict)  # RAG_COLUMN_ROLES / --columns, role -> column
    choices: list[str] = field(default_factory=lambda: list(CHOICES))  # what a column's role may be set to

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def roles_report(source: TableSource, settings: Settings) -> RolesReport:
    roles = source.roles
    columns = [ColumnRole(name, info.type, roles.role_of(name), roles.evidence.get(name, ""),
                          source.role_set_by.get(name, "detected"), source.labels.get(name, ""))
               for name, info in source.columns.items()]
    return RolesReport(source.table, str(roles_path(settings)), columns, roles.missing(), list(source.ignored_roles),
                       settings.role_overrides())


@dataclass
class RoleChange:
    """What saving new choices did: the file, each column whose role changed, what the index needs."""

    path: str
    saved: dict[str, str]  # the file's choices now
    changed: list[tuple[str, str, str]]  # (column, role before, role after)
    reindex: list[str]  # why a sync is needed; empty: nothing is embedded or written again
    overridden: list[str] = field(default_factory=list)  # requests RAG_COLUMN_ROLES outranks
    relabelled: list[tuple[str, str, str]] = field(default_factory=list)  # (column, label before, label after)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def change_roles(settings: Settings, before: TableSource, choices: Mapping[str, str], *,
                 unset: Iterable[str] = (), reset: bool = False,
                 labels: Mapping[str, str] | None = None) -> RoleChange:
    """Save `choices` ({column: choice}) over the saved ones (none with `reset`; `unset` columns go back to
    detection) once they give valid roles, and say what the change means for the index. Applied when the
    table is next opened (a new Assistant, the next command). `labels` ({column: label}) change the saved
    labels: an empty label, or the derived one, goes back to the derived label."""
    from rag.data.index import reindex_reasons
    from rag.data.source import TableSource

    for column, choice in choices.items():
        if column not in before.columns:
            raise ConfigError(f"Column {column!r} is not in table {before.table!r} "
                              f"(columns: {', '.join(before.columns)}).")
        if choice not in CHOICES:
            raise ConfigError(f"Unknown column role {choice!r}; roles are {', '.join(CHOICES)}.")
    saved = {} if reset else dict(before.saved_roles)
    for column in unset:
        saved.pop(column, None)
    for column, choice in choices.items():
        if choice not in LIST_CHOICES:  # the column that played this role before goes back to detection
            saved = {c: ch for c, ch in saved.items() if ch != choice}
        saved[column] = choice
    saved_labels = load_labels(settings)
    for column, label in (labels or {}).items():
        if column not in before.columns:
            raise ConfigError(f"Column {column!r} is not in table {before.table!r}.")
        saved_labels.pop(column, None)
        if label.strip() and label.strip() != derive_label(column, before.table):
            saved_labels[column] = label.strip()
    after = TableSource.from_settings(settings, saved_roles=saved)  # a ConfigError leaves the file untouched
    try:
        path = save_roles(settings, saved, saved_labels)
        changed = [(c, before.roles.role_of(c), after.roles.role_of(c)) for c in after.columns
                   if before.roles.role_of(c) != after.roles.role_of(c)]
        explicit = settings.role_overrides()
        overridden = [f"{column} is {after.roles.role_of(column)}, not {choice}: RAG_COLUMN_ROLES (or --columns) "
                      "sets this column or role and wins over saved roles" for column, choice in choices.items()
                      if after.roles.role_of(column) != choice and (column in explicit.values() or choice in explicit)]
        labelled = {c: saved_labels.get(c) or derive_label(c, before.table) for c in before.labels}
        relabelled = [(c, before.labels[c], labelled[c]) for c in before.labels if before.labels[c] != labelled[c]]
        return RoleChange(str(path), saved, changed, reindex_reasons(before, after), overridden, relabelled)
    finally:
        after.close()
