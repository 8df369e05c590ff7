"""The layers keep their arrows pointing down: read every module's imports with `ast` and check them.

Layers, lowest first (a module may import its own layer and those below it, never above):
  base        rag.settings, rag.models, rag.errors, rag.tracing
  data        rag.data.*            the read-only source, column roles, chunking, embeddings, the index
  llm         rag.llm.*             Gemini behind retries, prompts, synthesis
  understand  rag.understand.*      vocabulary, dates, planner, offline text-to-SQL
  answer      rag.answer.*          guard, engines, router, composition, chart specs
  top         rag.assistant, rag.providers, rag.cli, rag.evaluation.*, rag.testing, rag.__main__
The core (`rag`) never imports streamlit or the UI package `ui`; `ui` and `pages` may import the core.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("base", "data", "llm", "understand", "answer", "top")
BASE = {"rag.settings", "rag.models", "rag.errors", "rag.tracing", "rag"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str:
    if module in BASE:
        return "base"
    for layer in ("data", "llm", "understand", "answer"):
        if module == f"rag.{layer}" or module.startswith(f"rag.{layer}."):
            return layer
    return "top"


def imports_of(path: Path) -> list[tuple[str, int]]:
    """Every module `path` imports (at any depth, including inside functions), with its line."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, node.lineno))
            found += [(f"{node.module}.{alias.name}", node.lineno) for alias in node.names
                      if node.module in ("rag", "ui") or node.module.endswith((".data", ".llm", ".answer"))]
    return found


CORE = sorted((ROOT / "rag").rglob("*.py"))


def test_the_core_has_modules_in_every_layer() -> None:
    layers = {layer_of(module_name(path)) for path in CORE}
    assert layers == set(LAYERS)


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_core_imports_point_down(path: Path) -> None:
    module = module_name(path)
    own = LAYERS.index(layer_of(module))
    wrong = []
    for imported, line in imports_of(path):
        top = imported.split(".")[0]
        if top in ("streamlit", "ui"):
            wrong.append(f"line {line}: {imported} (the core never imports the UI)")
        elif top == "rag" and imported not in BASE | {"rag"}:
            target = LAYERS.index(layer_of(imported))
            if target > own:
                wrong.append(f"line {line}: {imported} ({layer_of(imported)} is above {layer_of(module)})")
    assert not wrong, f"{module} imports upwards:\n" + "\n".join(wrong)


def test_pages_reach_the_core_only_through_the_facade_and_base() -> None:
    """Pages and UI helpers use the assistant, domain types and settings; never engines, stores or the index."""
    allowed = BASE | {"rag.assistant", "rag.evaluation", "rag.evaluation.cases", "rag.answer.chart_spec",
                      "rag.answer.markdown", "rag.data.index", "rag.data.source"}
    wrong = []
    for path in sorted((ROOT / "pages").glob("*.py")) + sorted((ROOT / "ui").glob("*.py")) + [ROOT / "app.py"]:
        for imported, line in imports_of(path):
            if imported.startswith("rag") and imported not in allowed and not any(
                    imported.startswith(f"{name}.") for name in allowed if name != "rag"):
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {imported}")
    assert not wrong, "\n".join(wrong)


def test_the_checker_sees_an_upward_import(tmp_path: Path) -> None:
    """The check itself works: a data module importing the answer layer is reported."""
    bad = tmp_path / "bad.py"
    bad.write_text("from rag.answer.router import build_router\n", encoding="utf-8")
    [(imported, _)] = [(m, n) for m, n in imports_of(bad) if m.startswith("rag")]
    assert LAYERS.index(layer_of(imported)) > LAYERS.index(layer_of("rag.data.index"))
