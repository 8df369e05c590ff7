"""A deterministic synthetic corpus for the ingestion benchmark: sample sentences under new metadata.

Every article recombines whole sentences of `data/articles.jsonl` (drawn from articles of its own
category, so the prose stays on topic) into paragraphs, under a recombined title, a unique url, one of
the sample's 8 categories, a date spread over 2019-2024 and authors from the sample's pool (single,
several, or empty). The output is a SQLite file with exactly the sample schema
(`articles(url, title, authors, published_date, article_category, word_count, full_content)`).

Length: articles default to ~110-150 words (about 140-190 of the model's word pieces plus the title),
so each becomes one 200-token chunk and 10,000 articles embed in well under an hour on 2 loaded cores.
`--words` changes the target (e.g. `--words 600` for ~4 chunks per article).

Usage as a CLI:  .venv/bin/python -m bench.synthetic --rows 10000 --out bench/work/synthetic-10k.db
Usage as a module:  `build_synthetic_db(Path("x.db"), rows=500)`; `generate_articles(500)` yields dicts.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from rag.data.chunking import split_sentences
from rag.data.sample_data import SAMPLE_COLUMNS, word_count
from rag.settings import SAMPLE_JSONL_PATH

DEFAULT_SEED = 20240601
DEFAULT_WORDS = 130  # target words per article; each article draws its own target within +-15%
DATE_START = datetime(2019, 1, 1)
DATE_END = datetime(2024, 12, 31, 23, 59, 59)
AUTHOR_SHARES = (("empty", 0.10), ("single", 0.70), ("several", 0.20))
DDL = ("CREATE TABLE articles (url TEXT, title TEXT, authors TEXT, published_date TEXT, "
       "article_category TEXT, word_count INTEGER, full_content TEXT)")
SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class SamplePool:
    """What the generator recombines, read once from the sample corpus."""

    categories: tuple[str, ...]
    sentences: dict[str, tuple[str, ...]]  # category -> sentences of its articles
    titles: dict[str, tuple[str, ...]]  # category -> titles
    authors: tuple[str, ...]  # every distinct single name


def load_pool(jsonl_path: Path = SAMPLE_JSONL_PATH) -> SamplePool:
    records = [json.loads(line) for line in jsonl_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    sentences: dict[str, list[str]] = {}
    titles: dict[str, list[str]] = {}
    authors: set[str] = set()
    for record in records:
        category = record["article_category"]
        # Quoted sentences split mid-quote look odd but are harmless; very short fragments are dropped.
        sentences.setdefault(category, []).extend(
            s for s in split_sentences(record["full_content"]) if len(s.split()) >= 5)
        titles.setdefault(category, []).append(record["title"])
        authors.update(name.strip() for name in (record["authors"] or "").split(";") if name.strip())
    categories = tuple(sorted(sentences))
    return SamplePool(categories=categories,
                      sentences={c: tuple(sentences[c]) for c in categories},
                      titles={c: tuple(titles[c]) for c in categories},
                      authors=tuple(sorted(authors)))


def _recombined_title(rng: random.Random, titles: tuple[str, ...]) -> str:
    """The head of one sample title joined to the tail of another of the same category."""
    first, second = rng.sample(titles, 2)
    head, tail = first.split(), second.split()
    cut_head = rng.randint(max(1, len(head) // 3), max(1, (2 * len(head)) // 3))
    cut_tail = rng.randint(max(1, len(tail) // 3), max(1, (2 * len(tail)) // 3))
    return " ".join(head[:cut_head] + tail[cut_tail:])


def _authors(rng: random.Random, pool: tuple[str, ...]) -> str:
    roll = rng.random()
    if roll < AUTHOR_SHARES[0][1]:
        return ""
    if roll < AUTHOR_SHARES[0][1] + AUTHOR_SHARES[1][1]:
        return rng.choice(pool)
    return "; ".join(rng.sample(pool, rng.randint(2, 3)))


def _body(rng: random.Random, sentences: tuple[str, ...], target_words: int) -> str:
    """Sentences drawn without repetition until the target is reached, in paragraphs of 2-4 sentences."""
    chosen: list[str] = []
    words = 0
    used: set[int] = set()
    for _ in range(20 * target_words):  # bounded: a tiny pool cannot loop forever
        if words >= target_words or len(used) >= len(sentences):
            break
        index = rng.randrange(len(sentences))
        if index in used:
            continue
        sentence = sentences[index]
        if chosen and words + len(sentence.split()) > target_words * 1.1:
            if words >= target_words * 0.8:
                break  # close enough: stop rather than overshoot
            continue  # too long for the room left: draw another sentence
        used.add(index)
        chosen.append(sentence)
        words += len(sentence.split())
    paragraphs: list[str] = []
    while chosen:
        size = rng.randint(2, 4)
        paragraphs.append(" ".join(chosen[:size]))
        chosen = chosen[size:]
    return "\n\n".join(paragraphs)


def generate_articles(rows: int, *, seed: int = DEFAULT_SEED, words: int = DEFAULT_WORDS,
                      pool: SamplePool | None = None) -> Iterator[dict[str, object]]:
    """`rows` synthetic articles as dicts with the sample's columns; the same seed gives the same corpus."""
    pool = pool or load_pool()
    rng = random.Random(seed)
    span = int((DATE_END - DATE_START).total_seconds())
    for number in range(rows):
        category = pool.categories[number % len(pool.categories)] if number < len(pool.categories) \
            else rng.choice(pool.categories)
        title = _recombined_title(rng, pool.titles[category])
        published = DATE_START + timedelta(seconds=rng.randrange(span))
        target = max(20, round(words * rng.uniform(0.85, 1.15)))
        content = _body(rng, pool.sentences[category], target)
        slug = SLUG.sub("-", title.lower()).strip("-")[:60]
        yield {
            "url": f"https://synthetic.example/{category}/{published:%Y/%m}/{slug}-{number:06d}",
            "title": title,
            "authors": _authors(rng, pool.authors),
            "published_date": published.strftime("%Y-%m-%d %H:%M:%S"),
            "article_category": category,
            "word_count": word_count(content),
            "full_content": content,
        }


def build_synthetic_db(out: Path, *, rows: int, seed: int = DEFAULT_SEED, words: int = DEFAULT_WORDS) -> int:
    """Write `rows` synthetic articles to a new SQLite file at `out` (replaced atomically); returns rows."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.unlink(missing_ok=True)
    connection = sqlite3.connect(tmp)
    try:
        with connection:
            connection.execute(DDL)
            connection.executemany(
                f"INSERT INTO articles ({', '.join(SAMPLE_COLUMNS)}) VALUES ({', '.join('?' * len(SAMPLE_COLUMNS))})",
                ([article[c] for c in SAMPLE_COLUMNS] for article in generate_articles(rows, seed=seed, words=words)),
            )
    finally:
        connection.close()
    tmp.replace(out)
    return rows


def describe_db(path: Path) -> dict[str, object]:
    """Row count, words per article and category spread of a built database (for the results file)."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows, avg_words, min_words, max_words = connection.execute(
            "SELECT count(*), avg(word_count), min(word_count), max(word_count) FROM articles").fetchone()
        categories = dict(connection.execute(
            "SELECT article_category, count(*) FROM articles GROUP BY 1 ORDER BY 1").fetchall())
        years = dict(connection.execute(
            "SELECT substr(published_date, 1, 4), count(*) FROM articles GROUP BY 1 ORDER BY 1").fetchall())
        empty_authors = connection.execute("SELECT count(*) FROM articles WHERE authors = ''").fetchone()[0]
        several = connection.execute("SELECT count(*) FROM articles WHERE authors LIKE '%;%'").fetchone()[0]
    finally:
        connection.close()
    return {"rows": rows, "avg_words": round(avg_words or 0, 1), "min_words": min_words, "max_words": max_words,
            "categories": categories, "years": years, "empty_authors": empty_authors,
            "several_authors": several}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write a deterministic synthetic articles database.")
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--out", type=Path, default=Path("bench/work/synthetic-10k.db"))
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--words", type=int, default=DEFAULT_WORDS, help="target words per article (+-15%%)")
    args = parser.parse_args(argv)
    build_synthetic_db(args.out, rows=args.rows, seed=args.seed, words=args.words)
    print(json.dumps({"out": str(args.out), **describe_db(args.out)}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
