"""The committed benchmark results are what the committed scripts write: every Markdown file is the script's
rendering of its JSON file, and every label in the scale results is one the scale modules produce from the
product's own constants. Nothing here measures anything (no timed assertions)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bench import (
    chunking,
    fusion_replay,
    hnsw_search,
    ingest,
    interpretation,
    llm_cost,
    overhead_experiments,
    query_latency,
    resync,
    retrieval_calibration,
    retrieval_centring,
    retrieval_latency,
    retrieval_learned_rule,
    retrieval_query_text,
    retrieval_sentences,
)
from bench.common import RESULTS_DIR, pct
from bench.scale import filters, report, strategies
from rag.answer.retrieval import ROW_KEYS_PER_QUERY

RENDERERS: dict[str, Callable[[dict[str, Any]], str]] = {
    "query_scale": report.render_markdown, "ingest": ingest.render_markdown, "chunking": chunking.render_markdown,
    "resync": resync.render_markdown, "query_latency": query_latency.render_markdown,
    "overhead_experiments": overhead_experiments.render_markdown, "interpretation": interpretation.render_markdown,
    "llm_cost": llm_cost.render_markdown, "retrieval_calibration": retrieval_calibration.render_markdown,
    "retrieval_latency": retrieval_latency.render_markdown,
    "retrieval_query_text": retrieval_query_text.render_markdown,
    "retrieval_sentences": retrieval_sentences.render_markdown, "hnsw_search": hnsw_search.render_markdown,
    "fusion_replay": fusion_replay.render_markdown, "retrieval_centring": retrieval_centring.render_markdown,
    "retrieval_learned_rule": retrieval_learned_rule.render_markdown}
RESULTS = [(directory, name) for directory in (RESULTS_DIR, RESULTS_DIR / "quick") for name in RENDERERS
           if (directory / f"{name}.json").exists()]


@pytest.mark.parametrize(("directory", "name"), RESULTS, ids=[f"{d.name}/{n}" for d, n in RESULTS])
def test_every_results_file_is_the_scripts_rendering_of_its_json(directory: Path, name: str) -> None:
    data = json.loads((directory / f"{name}.json").read_text())
    assert (directory / f"{name}.md").read_text() == RENDERERS[name](data)


def test_every_results_json_has_a_markdown_file() -> None:
    assert {p.stem for p in RESULTS_DIR.glob("*.json")} == set(RENDERERS)


def scale_results() -> list[dict[str, Any]]:
    return [json.loads((d / "query_scale.json").read_text()) for d in (RESULTS_DIR, RESULTS_DIR / "quick")
            if (d / "query_scale.json").exists()]


def test_scale_filter_labels_are_ones_the_filters_module_produces() -> None:
    producible = set(filters.cases([f"k{i}" for i in range(ROW_KEYS_PER_QUERY)]))
    recorded = {label for data in scale_results() for size in data["sizes"].values()
                for label in size.get("filters", {}).get("cases", {})}
    assert recorded and recorded <= producible


def test_scale_strategy_labels_are_ones_the_strategies_module_produces() -> None:
    recorded = {label for data in scale_results() for size in data["sizes"].values()
                for case in size.get("strategies", {}).get("cases", {}).values() for label in case["strategies"]}
    assert recorded and recorded <= strategies.labels()


def test_the_product_strategy_label_names_the_products_constant() -> None:
    product = [label for label in strategies.labels() if label.endswith("(product)") and "$in" in label]
    assert product == [f"row_key $in, up to {ROW_KEYS_PER_QUERY:,} ids per query (product)"]


def test_percentiles_are_the_evaluations_own() -> None:
    assert pct([10.0, 20.0, 30.0, 40.0], 0.5) == 25.0
    assert pct([1.0, 2.0, 3.0], 0.95) == pytest.approx(2.9)
