"""Retrieval for the vector and hybrid routes: dense vectors and BM25 keywords, fused by reciprocal rank.

Both searches run under the same pre-filters (the Chroma metadata filters and, in the hybrid route, the
SQL-selected row keys), so keyword results never bring in a row the conditions exclude. Dense search alone
misses exact rare tokens (names, codes, version numbers); BM25 alone misses paraphrases. Each ranks documents
(a document by its best chunk, so one long document cannot fill the list); reciprocal rank fusion (RRF,
k = 60, Cormack et al. 2009) combines the two rankings: our own few lines rather than LlamaIndex's
`QueryFusionRetriever`, which fuses retrievers but cannot take the hybrid route's row-key lists and
per-row grouping. The trace records both lists and the fused ranks. The dense search ranks chunks centred on the
table (rag/answer/similarity.py); `Chunk.score` stays the plain cosine similarity (keyword-only chunks are scored
against their stored vectors), which the "nothing relevant" rule reads.

Which text is searched is chosen by measurement (bench/retrieval_query_text.py): see `RetrievalOptions`. With a
language model, the question restated in the words of the table's texts (rag/llm/restatement.py) is searched too,
dense and keyword, and its two rankings join the fusion.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from llama_index.core.schema import NodeWithScore, QueryBundle
from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
)

from rag import tracing
from rag.answer import compose
from rag.answer.context import EngineContext, RetrievalOptions
from rag.answer.markdown import escape_markdown
from rag.answer.similarity import Centring, as_score, cosine_similarities
from rag.data.keyword_index import KeywordHit
from rag.models import Chunk, Citation
from rag.understand.planner import QueryPlan, without_context
from rag.understand.vocabulary import LINKING_WORDS, STOPWORDS, WORD, initials

# Row ids per `$in` query. Measured at 100k articles (bench/results/query_scale.md): one `$in` of 16,610 ids
# took 616 ms, the same ids in batches of 500 took 6.9 s; Chroma refuses lists above about 32,000 ids.
ROW_KEYS_PER_QUERY = 30_000
CHUNKS_PER_ROW = 3  # chunks of one document the answer may quote from (a buried fact is rarely in the best one)
CANDIDATES_PER_RESULT = 10  # chunks fetched per wanted document, so several documents survive de-duplication
# When the candidates hold fewer than top_k documents (one huge row with hundreds of near-identical chunks can
# fill them all), search again without the rows already holding CHUNKS_PER_ROW candidates, at most this often.
MAX_SEARCH_ROUNDS = 4
RRF_K = 60  # reciprocal rank fusion constant (the usual value; it damps the weight of the very first ranks)
FUSION_DEPTH = 4  # documents per ranking entering the fusion, per wanted document (top_k x 4)
# A fused top-k document must be in one search's own top k (what that search alone would show); RRF over the full
# rankings orders those. Without that rule documents both searches rank low (8th and 8th: 2/68) outrank one a search
# ranks first (1/61): on the dev questions of all tables the dense top-3 document of a paraphrase (whose keyword hits
# share only common words) fell out of the top 5 in 6 of 170 cases (hit@5 news 109/109 -> 109/109, tickets 33/35 ->
# 34/35, reviews 20/26 -> 22/26; hit@1 107, 31, 16 -> 107, 31, 17).
CHROMA_OPERATORS = {FilterOperator.EQ: "$eq", FilterOperator.NE: "$ne", FilterOperator.GT: "$gt",
                    FilterOperator.GTE: "$gte", FilterOperator.LT: "$lt", FilterOperator.LTE: "$lte",
                    FilterOperator.IN: "$in", FilterOperator.NIN: "$nin"}


@dataclass
class Retrieved:
    """`top`: the best chunk of each of the top-k documents, in fused order; `evidence`: up to CHUNKS_PER_ROW
    of each, documents in the same order (each one's best similarity first); `ranks`: per top document its
    dense, keyword and fused rank, and with a restatement its restated_dense and restated_keyword rank (1-based;
    None when that search did not rank it)."""

    top: list[Chunk]
    evidence: list[Chunk]
    ranks: list[dict[str, Any]]
    rankings: dict[str, list[dict[str, str]]] = field(default_factory=dict)  # see EngineResult.rankings
    background: float | None = None  # the question's mean similarity to the table's sample (rag/data/background.py)
    restated: str | None = None  # the question restated in the texts' words by the language model, when searched

    @property
    def notes(self) -> list[str]:
        """What the reader of the answer should know about this search."""
        return [f"Also searched in the words of the texts, as the language model restated the question: "
                f"{self.restated!r}."] if self.restated else []


def to_chunk(node: NodeWithScore, context: EngineContext) -> Chunk:
    metadata = dict(node.node.metadata or {})
    roles = context.source.roles
    similarity = float(node.score or 0.0)
    # ChromaVectorStore reports exp(-distance); with cosine space, cosine similarity = 1 + ln(score).
    cosine = 1.0 + math.log(similarity) if similarity > 0 else 0.0
    return Chunk(
        id=node.node.node_id,
        row_key=str(metadata.get("row_key", "")),
        title=str(metadata.get(roles.title, "")) if roles.title else "",
        url=str(metadata.get(roles.url, "")) if roles.url else "",
        chunk=int(metadata.get("chunk", 0)),
        text=node.node.get_content(),
        score=round(min(1.0, max(0.0, cosine)), 4),
        metadata=_shown_metadata(metadata),
    )


def _shown_metadata(metadata: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in metadata.items() if k not in ("content_hash",) and not k.startswith("_")}


# ---------------------------------------------------------------- the text that is searched


def search_text(plan: QueryPlan, which: str) -> str:
    """`question`: the whole question; `minus_conditions`: without the words the structured conditions consumed
    (dates, category values, authors...), which the filters already apply; `topic`: the planner's topic words."""
    if which == "topic":
        return plan.topic or plan.question
    if which == "minus_conditions":
        return without_condition_words(plan) or plan.question
    if which != "question":
        raise ValueError(f"unknown search text {which!r}")
    return without_context(plan.question)  # (a sentence about the user's own doings is not what the rows say)


def without_condition_words(plan: QueryPlan) -> str:
    """The question without the words its conditions consumed, including what the user wrote for a word the
    planner read as a condition's ("MSAs" read as 'Master Services Agreement')."""
    text = plan.question.replace("’", "'")  # the planner's spans index this text
    cut = [False] * len(text)
    lower = text.lower()
    for condition in plan.conditions:
        spans: list[tuple[int, int]] = []
        if condition.span:
            spans.append(condition.span)
        else:
            said = [w.strip() for w in str(condition.words or "").split(", ")]
            said += [written for written, read in plan.corrections if read.lower() in map(str.lower, said)]
            for words in filter(None, said):
                found = re.search(rf"(?<!\w){re.escape(words.lower())}(?!\w)", lower)
                if found:
                    spans.append(found.span())
        for start, end in spans:
            for i in range(max(0, start), min(len(text), end)):
                cut[i] = True
    return " ".join("".join(ch for ch, gone in zip(text, cut, strict=True) if not gone).split())


def keyword_terms(text: str) -> list[str]:
    """BM25 query terms: the words of `text` without stop words, plus adjacent short fragments joined
    ("Doo ley" -> "dooley"), so a name split by a typo still matches."""
    words = [w.lower().strip("'-") for w in WORD.findall(text.replace("’", "'"))]
    words = [w[:-2] if w.endswith("'s") else w for w in words]
    kept = [w for w in words if w and w not in STOPWORDS and (len(w) > 1 or w.isdigit())]
    joined = [a + b for a, b in zip(kept, kept[1:], strict=False)
              if len(a) <= 5 and len(b) <= 5 and a.isalpha() and b.isalpha()]
    return list(dict.fromkeys([*kept, *joined]))


def acronym_terms(text: str, mentions: Callable[[str], bool | None]) -> list[str]:
    """The initials of runs of 3-5 words of `text` that the texts use as a word ("consumer price index" -> "cpi"
    where a contract says "indexed to the New Zealand CPI"): BM25 matches words, and a document often writes the
    short form of what a user spells out."""
    words = [w.lower() for w in WORD.findall(text.replace("’", "'")) if "'" not in w]
    found: list[str] = []
    for size in (3, 4, 5):
        for at in range(len(words) - size + 1):
            run = words[at:at + size]
            # (content words, linking words between them: one index look-up per such run)
            if any(w in STOPWORDS or not w.isalpha() for w in (run[0], run[-1])) or any(
                    w in STOPWORDS and w not in LINKING_WORDS or not w.isalpha() for w in run):
                continue
            letters = min(initials(run), key=len)  # (the linking words left out: "consumer price index" -> "cpi")
            if len(letters) >= 3 and letters not in found and letters not in words and mentions(letters):
                found.append(letters)
    return found


def chroma_where(filters: MetadataFilters | None) -> dict[str, Any] | None:
    """LlamaIndex metadata filters as the Chroma `where` dict ChromaVectorStore sends (the keyword index reads
    the same language, so both searches see the same rows)."""
    if filters is None or not filters.filters:
        return None
    parts: list[dict[str, Any]] = []
    for item in filters.filters:
        if isinstance(item, MetadataFilters):
            nested = chroma_where(item)
            if nested:
                parts.append(nested)
        else:
            parts.append({item.key: {CHROMA_OPERATORS[FilterOperator(item.operator)]: item.value}})
    if len(parts) <= 1:
        return parts[0] if parts else None
    return {"$or" if filters.condition == FilterCondition.OR else "$and": parts}


# ---------------------------------------------------------------- search and fusion


def retrieve(context: EngineContext, query: str | QueryPlan, filters: MetadataFilters | None,
             restrict_keys: Sequence[str] | None = None, *, options: RetrievalOptions | None = None) -> Retrieved:
    """Chunks of the top-k documents for `query` (a plan: its texts are chosen by `options`, by default the
    context's) under `filters`, optionally only among `restrict_keys`. With a restater (a language model), the
    plan's question is also searched as restated in the texts' words, and all rankings are fused."""
    options = options or context.retrieval
    restated = None
    if isinstance(query, QueryPlan):
        dense_text, keyword_text = search_text(query, options.dense_text), search_text(query, options.keyword_text)
        restated = context.restater(without_context(query.question)) if context.restater else None
    else:
        dense_text = keyword_text = query
    top_k = context.settings.top_k
    depth = top_k * FUSION_DEPTH
    searches = [("", dense_text, keyword_text)] + ([("restated_", restated, restated)] if restated else [])
    candidates: list[Chunk] = []
    hits: list[KeywordHit] = []
    lists: dict[str, list[str]] = {}
    embeddings: list[list[float]] = []
    centring = Centring()
    for prefix, dense_query, keyword_query in searches:
        with tracing.span(f"embed.{'restatement' if prefix else 'query'}", text=dense_query) as attrs:
            embeddings.append(embedding := context.embed_model.get_query_embedding(dense_query))
            if not prefix:
                centring = Centring.for_table(context.index.background.vectors(), len(embedding), options.centring)
            attrs["model"] = context.embed_model.model_name
            attrs["centred"] = centring.centred
        if options.mode != "keyword":
            found, ranking = _dense(context, embedding, dense_query, centring, filters, restrict_keys)
            lists[f"{prefix}dense"] = ranking[:depth]
            candidates += found
        if options.mode != "dense":
            found_hits = _keyword(context, keyword_query, filters, restrict_keys, depth)
            lists[f"{prefix}keyword"] = list(dict.fromkeys(hit.row_key for hit in found_hits))
            hits += found_hits
    candidates = best_score_per_chunk(candidates)  # (a chunk both texts found keeps its better similarity)
    with tracing.span("fusion", mode=options.mode, k=RRF_K, rankings=list(lists)) as attrs:
        fused = fuse(list(lists.values()), top_k)[:top_k]
        chosen = set(fused)
        pool = [c for c in candidates if c.row_key in chosen]
        known = {c.id for c in pool}
        extra = list({hit.id: hit for hit in hits if hit.row_key in chosen and hit.id not in known}.values())
        pool += _score_hits(context, extra, embeddings)
        per_row: dict[str, int] = {}
        evidence: list[Chunk] = []
        for chunk in sorted(pool, key=lambda c: c.score, reverse=True):
            if per_row.get(chunk.row_key, 0) < CHUNKS_PER_ROW:
                per_row[chunk.row_key] = per_row.get(chunk.row_key, 0) + 1
                evidence.append(chunk)
        best = {c.row_key: c for c in reversed(evidence)}  # the best chunk of each row
        top = [best[key] for key in fused if key in best]
        place = {key: number for number, key in enumerate(fused)}
        evidence.sort(key=lambda c: place[c.row_key])  # documents in the fused order (the trace's), best chunk first
        ranks = [{"row_key": c.row_key, "id": c.id, "fused_rank": place, "dense_rank": None, "keyword_rank": None,
                  **{f"{name}_rank": _rank(ranking, c.row_key) for name, ranking in lists.items()}, "score": c.score}
                 for place, c in enumerate(top, start=1)]
        attrs["results"] = ranks
    rankings: dict[str, list[dict[str, str]]] = {}
    first: dict[str, Chunk | KeywordHit] = {}
    for item in [*sorted(candidates, key=lambda c: c.score, reverse=True), *hits]:
        first.setdefault(item.row_key, item)
    for name, ranking in lists.items():
        rankings[name] = [_listed(context, first[key]) for key in ranking[:top_k]]
    with tracing.span("background") as attrs:  # the question's mean similarity to the table's sample
        attrs["mean_similarity"] = background = context.index.background.mean_similarity(embeddings[0])
    return Retrieved(top, evidence, ranks, rankings, background, restated)


def best_score_per_chunk(chunks: Iterable[Chunk]) -> list[Chunk]:
    """Each chunk once, with the best similarity it was found with."""
    best: dict[str, Chunk] = {}
    for chunk in chunks:
        if chunk.id not in best or chunk.score > best[chunk.id].score:
            best[chunk.id] = chunk
    return list(best.values())


def _listed(context: EngineContext, item: Chunk | KeywordHit) -> dict[str, str]:
    """A ranked document as the trace and the evaluation list it: row key, title, link."""
    if isinstance(item, Chunk):
        return {"row_key": item.row_key, "title": item.title, "url": item.url}
    url_key = context.source.roles.url
    return {"row_key": item.row_key, "title": item.title,
            "url": str(item.metadata.get(url_key, "")) if url_key else ""}


def fuse(rankings: Sequence[Sequence[str]], top_k: int) -> list[str]:
    """The documents in any search's top `top_k`, in the order of the RRF of the full rankings."""
    shown = {key for ranking in rankings for key in ranking[:top_k]}
    return [key for key in rrf(rankings) if key in shown]


def rrf(rankings: Iterable[Sequence[str]], k: int = RRF_K) -> list[str]:
    """Reciprocal rank fusion: each key scores the sum of 1 / (k + rank) over the rankings it appears in; ties
    go to the better single rank, then to the earlier ranking."""
    scores: dict[str, float] = {}
    best: dict[str, tuple[int, int]] = {}
    for number, ranking in enumerate(rankings):
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
            best[key] = min(best.get(key, (rank, number)), (rank, number))
    return sorted(scores, key=lambda key: (-scores[key], best[key]))


def _rank(ranking: Sequence[str], key: str) -> int | None:
    return ranking.index(key) + 1 if key in ranking else None


def _dense(context: EngineContext, embedding: list[float], text: str, centring: Centring,
           filters: MetadataFilters | None, restrict_keys: Sequence[str] | None) -> tuple[list[Chunk], list[str]]:
    """Candidate chunks of at least top_k documents, each scored by its plain cosine similarity to the question,
    and the documents ranked by the search: centred on the table when `centring` is (rag/answer/similarity.py)."""
    top_k = context.settings.top_k
    bundle = QueryBundle(query_str=text, embedding=centring.query(embedding))
    batches: list[MetadataFilters | None] = []
    if restrict_keys is None:
        batches.append(filters)
    else:
        for start in range(0, len(restrict_keys), ROW_KEYS_PER_QUERY):
            keys = list(restrict_keys[start:start + ROW_KEYS_PER_QUERY])
            key_filter = MetadataFilter(key="row_key", value=keys, operator=FilterOperator.IN)
            parts: list[Any] = [key_filter] + ([filters] if filters else [])
            batches.append(MetadataFilters(filters=parts, condition=FilterCondition.AND))
    candidates: list[Chunk] = []
    with tracing.span("vector.search", top_k=top_k, batches=len(batches), centred=centring.centred) as attrs:
        index = context.vector_index()
        rounds = 0
        for batch_filters in batches:
            found, used = _search_distinct_rows(index, bundle, batch_filters, top_k, context)
            candidates += found
            rounds += used
        centred: dict[str, float] = {}
        if centring.centred:  # Chroma's scores were the centred ones, clipped: both taken from the stored vectors
            vectors = _stored_vectors(context, [c.id for c in candidates])
            centred = cosine_similarities([bundle.embedding or embedding], vectors)
            plain = cosine_similarities([embedding], vectors)
            candidates = [replace(c, score=as_score(plain.get(c.id, 0.0))) for c in candidates]
        ranked = best_chunk_per_row(candidates, top_k * FUSION_DEPTH,
                                    key=(lambda c: centred.get(c.id, -1.0)) if centred else None)
        attrs["candidates"] = len(candidates)
        attrs["rounds"] = rounds
        attrs["results"] = [{"rank": rank, "row_key": c.row_key, "id": c.id, "score": c.score,
                             **({"centred": round(centred[c.id], 4)} if c.id in centred else {})}
                            for rank, c in enumerate(ranked, start=1)]
    return candidates, [c.row_key for c in ranked]


def _stored_vectors(context: EngineContext, ids: Sequence[str]) -> dict[str, Sequence[float]]:
    if not ids:
        return {}
    got = context.vector_index().vector_store.client.get(ids=list(dict.fromkeys(ids)), include=["embeddings"])
    return dict(zip(got["ids"], got["embeddings"], strict=True))


def _keyword(context: EngineContext, text: str, filters: MetadataFilters | None,
             restrict_keys: Sequence[str] | None, rows: int) -> list[KeywordHit]:
    """BM25 hits under the same pre-filters; none (and a note in the trace) when the keyword index is absent."""
    terms = keyword_terms(text)
    with tracing.span("keyword.search", terms=terms, rows=rows) as attrs:
        try:
            # ("tied to a consumer price index": the texts' 'CPI' too; timed with the search)
            terms += acronym_terms(text, context.index.keywords.mentions)
            attrs["terms"] = terms
            hits = context.index.keywords.search(terms, rows=rows, per_row=CHUNKS_PER_ROW,
                                                 where=chroma_where(filters), row_keys=restrict_keys)
        except FileNotFoundError:
            attrs["skipped"] = "no keyword index yet: run `python -m rag index` (dense search only)"
            return []
        except sqlite3.Error as error:
            attrs["skipped"] = f"keyword index unreadable ({error}); run `python -m rag index` (dense search only)"
            return []
        ranked = list(dict.fromkeys(hit.row_key for hit in hits))
        best = {hit.row_key: hit for hit in reversed(hits)}
        attrs["results"] = [{"rank": rank, "row_key": key, "id": best[key].id, "bm25": best[key].score}
                            for rank, key in enumerate(ranked, start=1)]
    return hits


def _score_hits(context: EngineContext, hits: Sequence[KeywordHit],
                embeddings: Sequence[Sequence[float]]) -> list[Chunk]:
    """Keyword-only chunks as `Chunk`s scored like the dense ones: their stored vectors' best plain cosine
    similarity to the searched texts."""
    scores = cosine_similarities(embeddings, _stored_vectors(context, [hit.id for hit in hits]))
    roles = context.source.roles
    return [Chunk(id=hit.id, row_key=hit.row_key,
                  title=str(hit.metadata.get(roles.title, "")) if roles.title else "",
                  url=str(hit.metadata.get(roles.url, "")) if roles.url else "", chunk=hit.chunk, text=hit.text,
                  score=as_score(scores.get(hit.id, 0.0)), metadata=_shown_metadata(hit.metadata)) for hit in hits]


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def _search_distinct_rows(index: Any, bundle: QueryBundle, filters: MetadataFilters | None, top_k: int,
                          context: EngineContext) -> tuple[list[Chunk], int]:
    """Candidates from at least `top_k` distinct rows when the filter allows them: each further round leaves
    out the rows that already hold CHUNKS_PER_ROW candidates (Chroma groups nothing by row itself)."""
    wanted = top_k * CANDIDATES_PER_RESULT
    found: list[Chunk] = []
    saturated: list[str] = []
    for rounds in range(1, MAX_SEARCH_ROUNDS + 1):
        parts: list[Any] = [filters] if filters else []
        if saturated:
            parts.append(MetadataFilter(key="row_key", value=list(saturated), operator=FilterOperator.NIN))
        round_filters = MetadataFilters(filters=parts, condition=FilterCondition.AND) if saturated else filters
        batch = [to_chunk(n, context) for n in index.as_retriever(similarity_top_k=wanted,
                                                                  filters=round_filters).retrieve(bundle)]
        found += batch
        per_row = Counter(chunk.row_key for chunk in found)
        if len(batch) < wanted or len(per_row) >= top_k:
            return found, rounds  # everything the filter allows was seen, or enough documents are in
        saturated = [key for key, count in per_row.items() if count >= CHUNKS_PER_ROW]
    return found, MAX_SEARCH_ROUNDS


def best_chunk_per_row(chunks: list[Chunk], limit: int, key: Callable[[Chunk], float] | None = None) -> list[Chunk]:
    """The best chunk of each document (by `key`, by default the score), best documents first: a result list is a
    list of sources."""
    best: dict[str, Chunk] = {}
    for chunk in sorted(chunks, key=key or (lambda c: c.score), reverse=True):
        best.setdefault(chunk.row_key, chunk)
    return list(best.values())[:limit]


# Thresholds of "relevant" (floor, strong) per embedding model, calibrated on the dev questions of every table
# (bench/retrieval_calibration.py, bench/results/retrieval_calibration.md), and the scale they were chosen on:
# "similarity" (the best chunk's cosine similarity) or "above_background" (the best similarity minus the
# question's background, its mean similarity to a sample of the table's chunks, rag/data/background.py). The
# calibration scores both and keeps the one with fewer wrong decisions on dev: for all-MiniLM-L6-v2 the raw
# similarity (25 wrong of 215 against 28; 23 with the small-set leniency below). Cosine scales differ between
# models, so an uncalibrated model (or the hashing stand-in), or a background scale without a stored sample, relies
# on the topic's words alone.
CALIBRATED_THRESHOLDS = {"all-MiniLM-L6-v2": (0.12, compose.STRONG_SCORE)}
CALIBRATED_SCALE = {"all-MiniLM-L6-v2": "similarity"}
UNCALIBRATED = (-math.inf, math.inf)  # relevant when the topic's words are mentioned, whatever the similarity
# Leniency for a small SQL-selected set (hybrid route): when the conditions alone select no more rows than an answer
# shows (top_k), the best of them is relevant from this similarity on, with or without the topic's words: the
# conditions already did most of the choosing (a paraphrased or misspelled topic inside the one ticket of that
# month). Calibrated with the thresholds above (bench/retrieval_calibration.py); none for an uncalibrated model.
CALIBRATED_SMALL_SET_FLOOR = {"all-MiniLM-L6-v2": 0.28}
# Below STRONG, a chunk at or above FLOOR makes the question relevant when it mentions every word of the topic, or
# when the words it does not mention, embedded together, are this similar to the chunk's stored vector: the missing
# words must be there in other words ("runs small" for "sizing"), not absent ("the cable car broke down" against its
# opening day). A model without an entry needs the topic's words mentioned instead (`compose.mentions_topic`).
CALIBRATED_SUPPORT = {"all-MiniLM-L6-v2": 0.34}
# STRONG inside rows narrowed by conditions (any number of them: SQL-selected in the hybrid route, or a metadata filter
# in the vector route): the conditions already chose the documents, so the best of them is relevant from a lower
# similarity (an answer in other words than the question's: "batteries running flat far too soon" at 0.40 among 98
# selected reviews). Calibrated with the four thresholds above (bench/retrieval_calibration.py): no-answer hybrid
# questions reach at most 0.31 on dev, the answered ones it turns relevant 0.37-0.40; wrong decisions 21 -> 19 of 228
# dev questions, plateau 0.31-0.37. Session 34 applied it to metadata-filtered searches too ("In the gadgets
# department, which reviews moan that the device runs out of juice" found the right review at 0.39): on the 1,164 dev
# questions answered from chunks the product's wrong decisions went 73 -> 68 (P 0.897 -> 0.930, R 0.767 -> 0.758);
# the bench's plateau for it is then 0.31-0.34.
CALIBRATED_RESTRICTED_STRONG = {"all-MiniLM-L6-v2": 0.34}


def relevance_thresholds(context: EngineContext, restricted: bool = False) -> tuple[float, float]:
    """(floor, strong): relevant = best similarity >= strong, or >= floor and the topic's words mentioned; inside
    rows narrowed by conditions (`restricted`) strong is the model's CALIBRATED_RESTRICTED_STRONG when lower."""
    model = context.embed_model.model_name
    floor, strong = CALIBRATED_THRESHOLDS.get(model, UNCALIBRATED)
    if restricted:
        strong = min(strong, CALIBRATED_RESTRICTED_STRONG.get(model, strong))
    return (floor if context.min_score is None else context.min_score), strong


def small_set_floor(context: EngineContext) -> float:
    """The similarity from which the best of a small SQL-selected set is relevant (see CALIBRATED_SMALL_SET_FLOOR)."""
    return CALIBRATED_SMALL_SET_FLOOR.get(context.embed_model.model_name, math.inf)


def topic_support(context: EngineContext, topic: str, chunks: Sequence[Chunk], floor: float) -> float:
    """The best support of the topic among the chunks at or above `floor` (see CALIBRATED_SUPPORT): 1.0 when one
    mentions every topic word, else the highest cosine similarity between the words a chunk does not mention
    (embedded together, one batch) and that chunk's stored vector; 0.0 without such chunks."""
    words = compose.topic_words(topic)
    candidates = [c for c in chunks if c.score >= floor]
    missing = {c.id: compose.uncovered_words(topic, c) for c in candidates}
    # (a chunk that mentions none of several words has nothing to support: its similarity was judged already)
    candidates = [c for c in candidates if len(words) < 2 or len(missing[c.id]) < len(words)]
    missing = {c.id: " ".join(missing[c.id]) for c in candidates}
    if not candidates or not all(missing.values()):
        return 1.0 if candidates else 0.0
    texts = list(dict.fromkeys(missing.values()))
    vectors = dict(zip(texts, context.embed_model.get_text_embedding_batch(texts), strict=True))
    stored = _stored_vectors(context, list(missing))
    similarities = [float(_cosine(vectors[missing[c.id]], stored[c.id])) for c in candidates if c.id in stored]
    return max(similarities, default=0.0)


def answer_from_chunks(context: EngineContext, question: str, plan: QueryPlan, chunks: list[Chunk],
                       restricted: bool = False, background: float | None = None,
                       selected: int | None = None, restated: str | None = None) -> tuple[str, list[Citation]]:
    """Answer from retrieved chunks, or say that nothing relevant was found: one rule for every route
    (`relevance_thresholds`, the rule of `compose.is_relevant`); the span records its inputs. Inside SQL-selected
    rows (`restricted`), when the conditions selected fewer documents than top_k, "nothing relevant" still names
    them, marked as chosen by the conditions, not by similarity (a misspelled topic or name still shows the one
    article of that day). When the conditions selected (`selected` rows) no more than top_k rows, the best of them
    is relevant from `small_set_floor` on, with or without the topic's words. A restatement (`restated`, see
    `retrieve`) stands for the topic: the chunks' similarities are already the better of question and
    restatement."""
    date_key = context.source.roles.date
    floor, strong = relevance_thresholds(context, restricted)
    relative = CALIBRATED_SCALE.get(context.embed_model.model_name) == "above_background"
    if relative and background is None and context.min_score is None:
        floor, strong = UNCALIBRATED  # no background sample (an index synced before it existed): the words alone
    topic = restated or plan.topic or question
    with tracing.span("synthesize", provider="llm" if context.synthesizer else "extractive") as attrs:
        best = max((c.score for c in chunks), default=0.0)
        above = round(best - (background or 0.0), 4) if relative else best
        mentioned = compose.mentions_topic(topic, chunks)
        needed = None if relative else CALIBRATED_SUPPORT.get(context.embed_model.model_name)
        support = None
        # below the unrestricted STRONG, also where the restricted one decides (the calibration reads it)
        if needed is not None and chunks and floor <= above < max(strong, relevance_thresholds(context)[1]):
            with tracing.span("support") as support_attrs:  # the words the chunks lack, embedded (one batch)
                support = support_attrs["support"] = round(topic_support(context, topic, chunks, floor), 4)
        covered = mentioned if needed is None else support is not None and support >= needed
        relevant = bool(chunks) and (above >= strong or above >= floor and covered)
        small_set = restricted and selected is not None and 0 < selected <= context.settings.top_k
        lenient = small_set_floor(context) if small_set else math.inf
        as_small_set = bool(chunks) and not relevant and above >= lenient
        relevant = relevant or as_small_set
        attrs.update(best_score=best, background=background, scale="above_background" if relative else "similarity",
                     above_background=round(best - background, 4) if background is not None else None,
                     compared=above, topic_mentioned=mentioned, support=support, support_needed=needed,
                     floor=None if math.isinf(floor) else floor, strong=None if math.isinf(strong) else strong,
                     selected_rows=selected, small_set_floor=None if math.isinf(lenient) else lenient,
                     relevant_as_small_set=as_small_set, relevant=relevant)
        # the similarity this question needed (shown in the reply; quotes come from chunks above it)
        threshold = max(0.0, ((background or 0.0) if relative else 0.0)
                        + (lenient if as_small_set else floor if covered or math.isinf(strong) else strong))
        if context.synthesizer and relevant:
            text = context.synthesizer.from_chunks(question, chunks)
            citations = unique_citations(c.citation(date_key or "") for c in chunks)
            numbers = compose.document_numbers(chunks)  # the documents' numbers in the prompt and the trace
            for citation in citations:
                citation.number = numbers.get(citation.row_key, 0)
        else:
            text, citations = compose.retrieval_answer(question, plan.topic, chunks, date_key=date_key,
                                                       min_score=threshold, relevant=relevant)
            rows = best_chunk_per_row(chunks, context.settings.top_k)
            if not relevant and restricted and 0 < len(rows) < context.settings.top_k:
                text += "\n\n" + selected_by_conditions(rows, date_key)
                attrs["selected_by_conditions"] = len(rows)
        attrs["citations"] = len(citations)
    return text, citations


def selected_by_conditions(rows: Sequence[Chunk], date_key: str | None) -> str:
    """The few documents the conditions alone selected (not cited: they are not an answer), escaped once."""
    noun = "document" if len(rows) == 1 else "documents"
    lines = [f"_The conditions alone select {len(rows)} {noun}; {'it is' if len(rows) == 1 else 'they are'} "
             "listed because the conditions chose them, not because of similarity:_"]
    for chunk in rows:
        day = str(chunk.metadata.get(date_key, ""))[:10] if date_key else ""
        dated = f", {escape_markdown(day, one_line=True)}" if day else ""
        lines.append(f"- *{escape_markdown(chunk.title or chunk.row_key, one_line=True)}*{dated}")
    return "\n".join(lines)


def unique_citations(citations: Iterable[Citation]) -> list[Citation]:
    seen: dict[str, Citation] = {}
    for citation in citations:
        seen.setdefault(citation.row_key or citation.url or citation.title, citation)
    return list(seen.values())
