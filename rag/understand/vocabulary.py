"""Words the offline planner recognises, derived from the table where possible.

Nothing here names the sample table: category values, author names and dimension words come from
the detected column roles and the table's profile; the fixed lists are plain English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rag.data.source import ColumnRoles, TableProfile

# Common alternative names for typical category values; only used when the value exists in the table.
CATEGORY_SYNONYMS: dict[str, tuple[str, ...]] = {
    "technology": ("tech", "technologies", "technological", "it"),
    "business": ("economy", "economic", "finance", "financial", "markets", "corporate"),
    "sports": ("sport", "sporting", "athletics"),
    "travel": ("tourism", "travelling", "traveling", "trips"),
    "health": ("medical", "medicine", "healthcare", "wellness"),
    "entertainment": ("showbiz", "celebrity", "movies", "films", "music", "tv"),
    "politics": ("political", "government", "policy"),
    "fashion": ("style", "clothing", "apparel"),
    "science": ("scientific", "research"),
}

DIMENSION_WORDS: dict[str, tuple[str, ...]] = {
    "year": ("year", "years", "yearly", "annual", "annually"),
    "month": ("month", "months", "monthly"),
    "day": ("day", "days", "daily", "date", "dates"),
    "category": ("category", "categories", "section", "sections", "topic area", "kind", "type", "types"),
    "author": ("author", "authors", "writer", "writers", "reporter", "reporters", "journalist", "journalists",
               "byline", "bylines"),
}

STOPWORDS = frozenset("""
a an the of in on at by per to for from with without within into onto over under about around regarding re
concerning and or but nor not no yes so as than then that this these those there here it its it's is are was
were be been being am do does did done doing have has had having can could would should will shall may might
must i me my we us our you your he him his she her they them their what which who whom whose where when why
how please tell show give find get fetch list display let lets know want need see look looking search
searching any anything something everything some all every each many much more most few several such own same
other article articles story stories news piece pieces item items post posts document documents doc docs
record records row rows entry entries text texts content contents coverage covered covering cover covers
report reported reporting written write writes wrote publish published publishing posted dated mention
mentions mentioned mentioning discuss discusses discussed discussing talk talks talking say says said related
relating relevant info information details detail latest recent recently new newest kind type like just also
only even ever really very quite happened happen happening going on up out off again between during since
until till before after database table archive collection data dataset
exist exists existing available present overall number numbers break breakdown down distribution
title titles headline headlines opened created filed submitted raised logged assigned handled handle handles owned
""".split())  # noqa: SIM905 - a word list reads better as text

WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-]*")


def singular(word: str) -> str:
    """Crude English singular for matching ('categories' -> 'category', 'sports' -> 'sport')."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def column_words(column: str | None) -> tuple[str, ...]:
    """'article_category' -> ('article_category', 'article category', 'category')."""
    if not column:
        return ()
    lower = column.lower()
    parts = [p for p in re.split(r"[_\W]+", lower) if p]
    return tuple(dict.fromkeys([lower, " ".join(parts), *(parts[-1:] if parts else [])]))


@dataclass
class Vocabulary:
    """Phrases to look for in questions, each mapped to what it means for this table."""

    categories: dict[str, str] = field(default_factory=dict)  # phrase -> real category value
    authors: dict[str, str] = field(default_factory=dict)  # lower-case full name -> real name
    author_parts: dict[str, set[str]] = field(default_factory=dict)  # surname/first name -> real names
    dimensions: dict[str, str] = field(default_factory=dict)  # phrase -> year|month|day|category|author
    measures: dict[str, str] = field(default_factory=dict)  # phrase -> numeric column
    entity_words: frozenset[str] = frozenset()

    @classmethod
    def build(cls, table: str, roles: ColumnRoles, profile: TableProfile) -> Vocabulary:
        vocab = cls()
        for value in profile.categories:
            lower = value.lower().strip()
            phrases = {lower, singular(lower), lower + "s"}
            phrases.update(CATEGORY_SYNONYMS.get(lower, ()))
            phrases.update(CATEGORY_SYNONYMS.get(singular(lower) + "s", ()))
            for phrase in phrases:
                vocab.categories.setdefault(phrase, value)
        for name in profile.authors:
            vocab.authors[name.lower()] = name
            for part in name.lower().split():
                if len(part) > 2:
                    vocab.author_parts.setdefault(part, set()).add(name)
        for dimension, words in DIMENSION_WORDS.items():
            for word in words:
                vocab.dimensions[word] = dimension
        for word in column_words(roles.category):
            vocab.dimensions.setdefault(word, "category")
            vocab.dimensions.setdefault(word + "s", "category")
        for word in column_words(roles.authors):
            vocab.dimensions.setdefault(word, "author")
            vocab.dimensions.setdefault(singular(word), "author")
        for column in roles.numeric:
            for word in column_words(column)[:2]:  # 'word_count', 'word count' (never the bare 'count')
                vocab.measures[word] = column
            parts = column.lower().split("_")
            if parts[0] in {"word", "words"}:
                for phrase in ("words", "word", "length", "long", "size"):
                    vocab.measures.setdefault(phrase, column)
        base = table.lower()
        vocab.entity_words = frozenset({base, singular(base), *column_words(base)})
        return vocab
