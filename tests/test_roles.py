"""Column roles from names and values: the same data under different column names gets the same roles, and
every categorical column becomes a grouping and filter dimension with its values recognised in questions."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from rag.data.source import TableSource
from rag.understand.planner import Planner
from rag.understand.text_to_sql import SQLBuilder

PEOPLE = ["Ana Ruiz", "Ben Ode", "Cleo Marsh", "Dev Patel", "Eli Stone", "Fay Wong"]
GROUPS = ["sci.space", "rec.sport.hockey", "comp.graphics", "talk.politics.misc"]
KINDS = ["Home & Kitchen", "Sports/Outdoors", "Toys & Games"]


def rows(n: int = 60) -> list[dict[str, object]]:
    return [{"link": f"https://forum.example/p/{i}", "headline": f"Post number {i} about thing {i * 7}",
             "poster": PEOPLE[i % len(PEOPLE)], "posted_at": f"2023-{1 + i % 12:02d}-{1 + i % 27:02d} 10:00:00",
             "group": GROUPS[i % len(GROUPS)], "kind": KINDS[i % len(KINDS)], "words": 100 + i,
             "body": f"Body text {i}. " + "Some words about the subject of the post. " * 12} for i in range(n)]


NAMINGS = {
    # role -> column name, per naming; None = the role's column is absent in that naming
    "posts": {"url": "link", "title": "headline", "authors": "poster", "date": "posted_at", "group": "newsgroup",
              "kind": "product_line", "numeric": "words", "content": "body"},
    "docs": {"url": None, "title": "name", "authors": "owner", "date": "created", "group": "type",
             "kind": "shelf", "numeric": "size", "content": "text"},
    "articles": {"url": "url", "title": "title", "authors": "authors", "date": "published_date",
                 "group": "article_category", "kind": "desk", "numeric": "word_count", "content": "full_content"},
    "opaque": {"url": "c1", "title": "c2", "authors": "c3", "date": "c4", "group": "c5", "kind": "c6",
               "numeric": "c7", "content": "c8"},
}


def build(tmp_path: Path, naming: dict[str, str | None]) -> TableSource:
    names = {"link": naming["url"], "headline": naming["title"], "poster": naming["authors"],
             "posted_at": naming["date"], "group": naming["group"], "kind": naming["kind"],
             "words": naming["numeric"], "body": naming["content"]}
    present = {k: v for k, v in names.items() if v}
    db = tmp_path / "t.db"
    with sqlite3.connect(db) as connection:
        types = {"words": "INTEGER"}
        connection.execute("CREATE TABLE t (" + ", ".join(f'"{v}" {types.get(k, "TEXT")}' for k, v in present.items())
                           + ")")
        for row in rows():
            connection.execute(f"INSERT INTO t VALUES ({', '.join('?' * len(present))})",
                               [row[k] for k in present])
    connection.close()
    return TableSource(f"sqlite:///{db}", "t")


@pytest.mark.parametrize("name", list(NAMINGS))
def test_same_data_same_roles_under_any_naming(tmp_path: Path, name: str) -> None:
    naming = NAMINGS[name]
    source = build(tmp_path, naming)
    roles = source.roles
    assert roles.content == naming["content"]
    assert roles.title == naming["title"]
    assert roles.authors == naming["authors"]
    assert roles.date == naming["date"]
    assert roles.url == naming["url"]
    assert set(roles.categorical) == {naming["group"], naming["kind"]}
    assert roles.numeric == [naming["numeric"]]
    for column in (roles.content, roles.title, roles.authors, naming["group"]):
        assert roles.evidence[column]  # every decision says why
    assert "distinct values" in roles.evidence[naming["group"]]
    source.close()


@pytest.mark.parametrize("name", list(NAMINGS))
def test_values_with_punctuation_and_every_categorical_column(tmp_path: Path, name: str) -> None:
    naming = NAMINGS[name]
    source = build(tmp_path, naming)
    planner = Planner("t", source.roles, source.profile())
    builder = SQLBuilder("t", source.roles, source.profile(), columns=list(source.columns))

    def run(question: str) -> list[tuple[object, ...]]:
        return [tuple(r) for r in source.run_select(builder.answer_sql(planner.plan(question))).rows]

    group, kind = naming["group"], naming["kind"]
    assert run("How many posts in sci.space?") == [(15,)]
    assert run("how many posts in sci space") == [(15,)]
    assert run("How many in home and kitchen?") == [(20,)]
    assert run("How many posts are not in Toys & Games?") == [(40,)]
    plan = planner.plan("How many posts per " + (group if not group.startswith("c") else "sci.space"))
    if not group.startswith("c"):
        assert plan.group_by and sorted(run("How many posts per " + group)) == sorted((g, 15) for g in GROUPS)
    assert [(c.column, c.value) for c in planner.plan("space posts in Sports/Outdoors").conditions] == [
        (kind, "Sports/Outdoors")]
    source.close()


def test_a_lower_case_word_is_not_an_author_name(tmp_path: Path) -> None:
    """Full author names link only when written as names or after an author cue."""
    source = build(tmp_path, NAMINGS["posts"])
    planner = Planner("t", source.roles, source.profile())
    assert [c.kind for c in planner.plan("posts by Cleo Marsh").conditions] == ["author"]
    assert [c.kind for c in planner.plan("Cleo Marsh posts about hockey").conditions] == ["author"]
    assert [c.kind for c in planner.plan("posts about a cleo marsh hike").conditions] == []
    source.close()
