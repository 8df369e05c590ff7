"""What the scale measurements share: the synthetic corpora, their indexes, the assistant over them, the questions,
the command line and the merged results file.

Sizes above `--real-max-rows` are embedded with the deterministic stand-in `HashingEmbedder` (same 384
dimensions; latency does not depend on vector content) because the real model embeds only a few chunks per
second on this machine. Questions are always embedded with the real all-MiniLM-L6-v2: the assistant gets the real
embedder in its providers but a `VectorIndex` whose fingerprint matches the stand-in collection.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import (
    ROOT,
    WORK_DIR,
    RssSampler,
    git_state,
    load_results,
    loadavg,
    machine_info,
    measured,
    now,
    progress_printer,
    stamp,
    status_kb,
    write_results,
)
from bench.synthetic import DEFAULT_SEED, DEFAULT_WORDS, build_synthetic_db, describe_db
from rag.assistant import Assistant
from rag.data.embeddings import HashingEmbedder, SentenceTransformerEmbedder
from rag.data.index import VectorIndex
from rag.data.source import TableSource
from rag.providers import Providers
from rag.settings import Settings

RESULTS_NAME = "query_scale"
WORK = WORK_DIR / "query_scale"
REAL_MODEL = Settings.embed_model  # the product's default embedding model
STAND_IN = "hashing"
DEFAULT_SIZES = (1_000, 10_000, 100_000)
DEFAULT_REAL_MAX_ROWS = 1_000
QUICK_SIZES = (2_000,)
QUICK_REAL_MAX_ROWS = 0  # quick runs index with the stand-in: seconds instead of minutes
FIXED_QUERY = "court ruling on the electoral map"

QUESTIONS: dict[str, list[str]] = {
    "sql": [
        "How many articles per year and category?",
        "Average word count per category",
        "List politics articles from March 2023",
        "Who writes the most articles?",
        "Which month of 2022 had the most technology articles?",
        "How many sports articles were published in 2021?",
        "What is the longest article?",
        "Share of articles per category",
        "Latest five travel articles",
        "How many articles did Leopold Farrant write in 2023?",
    ],
    "vector": [
        "What do we have about children?",
        "Trends in fashion",
        "Anything about battery storage?",
        "What are people saying about interest rates?",
        "news about vaccines and hospitals",
        "stories about football transfers",
        "politics articles about elections",
        "What do sports writers say about injuries?",
        "Which bank plans to offer crypto custody to its clients?",
        "Any stories about airlines and delays?",
    ],
    "hybrid": [
        "Technology articles about crypto in 2023",
        "Between March and May 2023, anything about Mother's Day in fashion?",
        "court rulings in 2021",
        "What did Leopold Farrant write about football in 2022?",
        "album reviews from March 2023",
        "labour disputes and unions in June 2022",
        "sleeper train travel story from January 2020",
        "articles longer than 150 words about hospitals",
        "news about ferries in the past month",
        "What was written about elections in 2019?",
    ],
}


# ----------------------------------------------------------------------------- corpora and indexes

def make_embedders() -> dict[str, Any]:
    """The real model (loaded lazily on first use) and the stand-in, by name."""
    return {REAL_MODEL: SentenceTransformerEmbedder(REAL_MODEL), STAND_IN: HashingEmbedder()}


def embed_choice(rows: int, real_max_rows: int) -> str:
    return REAL_MODEL if rows <= real_max_rows else STAND_IN


def db_path(rows: int) -> Path:
    return WORK / f"synthetic-{rows}.db"


def index_dir(rows: int, embed: str) -> Path:
    return WORK / f"index-{rows}-{'real' if embed == REAL_MODEL else 'hashing'}"


def settings_for(rows: int, embed: str) -> Settings:
    """Settings of the collection at this size (its fingerprint names the embedder that built it)."""
    return Settings(db_url=f"sqlite:///{db_path(rows)}", index_dir=str(index_dir(rows, embed)), embed_model=embed,
                    provider="offline")


def ensure_db(rows: int) -> dict[str, Any]:
    """The synthetic database of this size, written once (reused while seed and length match)."""
    path = db_path(rows)
    meta_path = path.with_suffix(".json")
    wanted = {"rows": rows, "seed": DEFAULT_SEED, "words": DEFAULT_WORDS}
    if path.exists() and meta_path.exists():
        meta = json.loads(meta_path.read_text())
        if all(meta.get(k) == v for k, v in wanted.items()):
            return {**meta, "reused": True}
    WORK.mkdir(parents=True, exist_ok=True)
    record: dict[str, Any] = dict(wanted)
    with measured(record):
        build_synthetic_db(path, rows=rows, seed=DEFAULT_SEED, words=DEFAULT_WORDS)
    record.update(described=describe_db(path), built_at=now())
    meta_path.write_text(json.dumps(record, indent=2))
    return {**record, "reused": False}


def ensure_index(rows: int, embed: str, embedders: dict[str, Any], rebuild: bool) -> dict[str, Any]:
    """Build the collection once (the `build` measurement); later runs reuse it and report the recorded build."""
    settings = settings_for(rows, embed)
    meta_path = index_dir(rows, embed).with_suffix(".build.json")
    index = VectorIndex(settings, embedders[embed])
    if meta_path.exists() and not rebuild:
        meta = json.loads(meta_path.read_text())
        try:
            count = index.collection().count()
        except Exception as error:  # noqa: BLE001 - any failure to open means: rebuild, and say why
            count, why = None, f"{type(error).__name__}: {error}"
        else:
            why = f"the collection holds {count:,} chunks, the recorded build {meta['chunks']:,}"
        if count == meta["chunks"]:
            return {**meta, "reused": True}
        print(f"  not reusing the recorded index build ({why})", flush=True)
    source = TableSource(settings.db_url, settings.table)
    record: dict[str, Any] = {"rows": rows, "embed_model": embedders[embed].name,
                              "stand_in_embedding": embed != REAL_MODEL, "collection": index.name,
                              "index_dir": str(index_dir(rows, embed).relative_to(ROOT))}
    print(f"building the index for {rows:,} rows with {embedders[embed].name} ...", flush=True)
    with RssSampler() as rss, measured(record):
        report = index.sync(source, rebuild=True, progress=progress_printer(f"index {rows:,}"))
    record.update(build_s=report.seconds, embed_s=round(report.embed_seconds, 2), chunks=report.chunks_added,
                  chunks_per_s=round(report.chunks_added / report.seconds, 1) if report.seconds else None,
                  non_embed_s=round(report.seconds - report.embed_seconds, 2),
                  peak_rss_mb_during_build=round(rss.peak_kb / 1024), built_at=now(), git=git_state())
    meta_path.write_text(json.dumps(record, indent=2))
    return {**record, "reused": False}


def query_index(rows: int, embed: str, embedders: dict[str, Any]) -> VectorIndex:
    """The collection as built (stand-in fingerprint when the stand-in built it)."""
    return VectorIndex(settings_for(rows, embed), embedders[embed])


def build_assistant(rows: int, embed: str, embedders: dict[str, Any]) -> Assistant:
    """Queries embed with the real model; the index is the collection as built at this size."""
    settings = settings_for(rows, REAL_MODEL).replace(index_dir=str(index_dir(rows, embed)))
    return Assistant.build(settings, providers=Providers(embedders[REAL_MODEL]),
                           index=query_index(rows, embed, embedders))


# ----------------------------------------------------------------------------- one run: arguments, results

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true",
                        help=f"sizes {', '.join(f'{s:,}' for s in QUICK_SIZES)} with the stand-in index embedding, "
                             "fewer repeats; results in bench/results/quick/")
    parser.add_argument("--sizes", type=int, nargs="+", default=None,
                        help=f"articles per corpus (default {' '.join(str(s) for s in DEFAULT_SIZES)})")
    parser.add_argument("--real-max-rows", type=int, default=None,
                        help=f"largest size indexed with the real model (default {DEFAULT_REAL_MAX_ROWS:,}); "
                             "larger sizes use the stand-in")
    parser.add_argument("--rebuild", action="store_true", help="rebuild indexes even when a build is recorded")


@dataclass
class Run:
    """One invocation: its arguments, the merged results it updates, the embedders it shares between parts."""

    quick: bool
    sizes: list[int]
    real_max_rows: int
    rebuild: bool
    data: dict[str, Any]
    embedders: dict[str, Any] = field(default_factory=make_embedders)
    record: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_args(cls, args: argparse.Namespace, parts: Iterable[str]) -> Run:
        sizes = sorted(set(args.sizes or (QUICK_SIZES if args.quick else DEFAULT_SIZES)))
        real_max = args.real_max_rows if args.real_max_rows is not None else (
            QUICK_REAL_MAX_ROWS if args.quick else DEFAULT_REAL_MAX_ROWS)
        data = load_results(RESULTS_NAME, args.quick, {"sizes": {}})
        data["machine"] = machine_info()
        run = cls(args.quick, sizes, real_max, args.rebuild, data)
        run.record = {"started_at": now(), "parts": list(parts), "sizes": sizes, "quick": args.quick,
                      "real_max_rows": real_max, "loadavg_start": loadavg(), "git": git_state()}
        data.setdefault("runs", []).append(run.record)
        return run

    def embed(self, rows: int) -> str:
        return embed_choice(rows, self.real_max_rows)

    def size(self, rows: int) -> dict[str, Any]:
        """The results entry of this size, with its database and index ready (built when missing)."""
        entry = self.data["sizes"].setdefault(str(rows), {"rows": rows})
        entry["db"] = ensure_db(rows)
        built = ensure_index(rows, self.embed(rows), self.embedders, self.rebuild)
        if not built.get("reused") or "index" not in entry:
            entry["index"] = built
        print(f"== {rows:,} articles: {built.get('chunks'):,} chunks indexed with {built.get('embed_model')}, "
              f"build {built.get('build_s')} s{' (reused)' if built.get('reused') else ''}", flush=True)
        self.save()
        return entry

    def per_size(self, part: str, measure: Callable[[Run, int], dict[str, Any]]) -> None:
        """Measure `part` at every size of the run, saving after each."""
        for rows in self.sizes:
            entry = self.size(rows)
            print(f"-- {part} at {rows:,} articles", flush=True)
            entry[part] = stamp(measure(self, rows))
            self.save()

    def save(self) -> None:
        from bench.scale.report import render_markdown

        write_results(RESULTS_NAME, self.data, render_markdown(self.data), self.quick)

    def finish(self) -> None:
        self.record.update(finished_at=now(), loadavg_end=loadavg(),
                           bench_process_vm_hwm_mb=round(status_kb("self", "VmHWM") / 1024))
        self.save()


def main_for(doc: str, part: str, measure: Callable[[Run, int], dict[str, Any]],
             argv: list[str] | None = None) -> int:
    """The command line of a per-size measurement: measure `part` at every size, merge, rewrite the Markdown."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    add_arguments(parser)
    run = Run.from_args(parser.parse_args(argv), [part])
    run.per_size(part, measure)
    run.finish()
    return 0
