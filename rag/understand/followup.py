"""Follow-up questions: whether a question builds on an earlier answer, and the complete plan it then means.

In a chat, "and in 2022?", "only politics", "by month instead", "which of those mention elections?" and
"why SQL?" are not questions of their own. `detect` looks for evidence that a question leans on the previous
answer, and only evidence counts:

- a leading "and", "but", "now", "so", "also" (weak: a question that names its rows and asks for something,
  "and how many articles were published in 2022?", is still a question of its own);
- "what about", "how about", "only"/"just" first, "the same", "instead", "too"/"as well";
- a pronoun with no referent in the question: "those", "these", "them", "they", "show it by month";
- a fragment: no row noun, nothing asked, only conditions or a grouping ("in 2022?", "politics?", "per author");
- "for all years", "overall", "remove the category": a condition or the grouping taken away;
- "why", "how did you get that", "explain" with nothing else to ask: an explanation of the previous answer.

The cue words are cut out and what remains is read by the same planner as any question ("and in 2022?" ->
"in 2022" -> a date condition). `resolve` then edits the previous turn's plan into a complete plan: a new
condition replaces the previous one on the same column ("and in 2022?"), or is added ("only politics"); a
grouping replaces the previous one ("by month instead"); a new computation replaces the previous one ("the
average word count?"); new topic words replace or add the text match ("what about crypto?"). "which of those
mention elections?" is a search restricted to the rows the previous answer showed (kind `restrict`), and "why
SQL?" asks for no new query at all (kind `explain`). A question without evidence is never merged.

Long because detection and every kind of resolution (replace, add, regroup, restrict, explain) are one
decision over the same previous plan.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from rag.data.labels import derive_label
from rag.data.roles import row_noun
from rag.understand.interpretation import reading
from rag.understand.planner import (
    CALENDAR_DIMENSIONS,
    COMPARE_WORDS,
    ENTITY_NOUNS,
    NUM,
    OPS,
    Condition,
    Planner,
    QueryPlan,
    number_value,
    zipf_of,
)
from rag.understand.vocabulary import STOPWORDS, WORD, singular

# "why SQL?", "how did you get that?", "explain": the previous answer explained, when nothing else is asked.
EXPLAIN_CUE = re.compile(r"^(?:(?:and|but|so|ok(?:ay)?)[\s,]+)?(why|how come|explain|how did you|how was (?:that|this|"
                         r"it)|what did you do)\b", re.I)
EXPLAIN_WORDS = frozenset("""
sql semantic vector hybrid search searched searching route routed routing engine tool path that this it its the a an
answer answered answering result results query queries use used using did do does you your was is were be been
choose chose chosen pick picked go went to with via by through get got compute computed calculate calculated
work worked find found reach reached come came up so one not why how explain explained me on for come there
the that's it's here number way method approach instead of rather than and or
""".split())  # noqa: SIM905 - a word list reads better as text
DEICTIC = frozenset({"that", "this", "it", "there", "these", "those", "them"})  # the earlier answer, pointed at
PLAIN_ZIPF = 4.0  # wordfreq Zipf: a word at least this common is phrasing ("arrive" 4.3), not a topic ("crypto" 3.6)
# "and over 2,500?": a comparison with a number and no column after it
BARE_COMPARISON = re.compile(rf"\b({COMPARE_WORDS})\s+{NUM}(?!\s*[a-z])", re.I)
ROUTE_WORDS = {"sql": "sql", "semantic": "vector", "vector": "vector", "hybrid": "hybrid"}
LEAD = re.compile(r"^(and|but|also|now|then|ok(?:ay)?|so|plus|alright|right)\b[\s,]*", re.I)
WHAT_ABOUT = re.compile(r"^(?:what|how)\s+about\b[\s,]*", re.I)
ONLY = re.compile(r"^(?:only|just)\b(?!\s+(?:\d+|one|two|three|four|five|a few)\b)\s*(?:(?:the\s+)?ones?\b\s*)?"
                  r"|\bonly\s+(?:the\s+ones?|those|these)\b", re.I)
SAME = re.compile(r"^(?:(?:do|show|give me|ask|run)\s+)?(?:the\s+)?same\b(?:\s+(?:thing|question|query|again|one|ones|"
                  r"as before|as above))?(?:\s*,?\s*but)?(?:\s+(?:for|with))?\b|\bthe same (?:thing|question|query|"
                  r"again)\b|\bsame as (?:before|above)\b", re.I)
INSTEAD = re.compile(r"\s*,?\s*\binstead\b(?:\s+of\s+(?:the\s+)?[\w.&'-]+(?:\s+\d{4})?)?", re.I)
ALSO = re.compile(r"\s*,?\s*\b(?:too|as well|also|additionally|in addition)\b", re.I)
# Pronouns that point at an earlier answer. "which of those", "of them", "among these" restrict to its rows.
RESTRICTING = re.compile(r"\b(?:(?:which|what|who|any|some|all|none|each|one)\s+(?:ones?\s+)?)?(?:of|among|amongst|"
                         r"from|within|in)\s+(?:those|these|them)\b(?:\s+(?:ones|{rows}))?", re.I)
POINTING_VERBS = (r"show|break|split|plot|chart|graph|group|sort|order|do|make|list|give me|draw|count|redo|repeat|"
                  r"put|display|rank")
# "those"/"these" followed by a function word, a verb or a row noun stand for the earlier rows; followed by
# another noun ("those elections") they are a determiner and prove nothing.
POINTING_NEXT = (r"that|which|who|with|without|from|in|on|about|mention|mentions|mentioning|are|were|is|was|by|"
                 r"published|written|have|has|had|do|did|ones|of|where|whose|and|or|talk|talking|discuss|discussing|"
                 r"cover|covering|covered|say|said|contain|containing|sorted|ordered|grouped|per|only|again|here|there")
DROP_GROUPING = re.compile(r"\b(?:overall|in total|all together|without (?:the )?(?:grouping|breakdown)|not (?:grouped|"
                           r"broken down)|(?:drop|remove|no) (?:the )?(?:grouping|breakdown))\b", re.I)
EXPLICIT_TURN = re.compile(r"(?:\bturn\s*|#)(\d{1,3})\b", re.I)
QUESTION_START = re.compile(r"^(?:what|which|who|where|when|how|is|are|was|were|do|does|did|can|could|tell|show|"
                            r"give|find|list|any|anything|count)\b", re.I)
LISTING_INTENTS = ("list", "latest", "earliest", "longest", "shortest")
NUMBER_WORD = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|a few|"
                         r"several|all)\b", re.I)


@dataclass
class Detection:
    """Whether `question` builds on an earlier answer, with the evidence either way.

    `kind`: "edit" (a complete plan edited from the previous one), "restrict" (a search inside the previous
    answer's rows), "explain" (how the previous answer was reached) or "none" (a question of its own).
    `remainder` is the question without its follow-up cues, and `plan` the planner's reading of it."""

    question: str
    kind: str = "none"
    evidence: list[str] = field(default_factory=list)
    reason: str = ""  # why it is not a follow-up
    remainder: str = ""
    plan: QueryPlan | None = None
    also: bool = False  # "too", "as well": add to the previous values or grouping instead of replacing them
    drop_columns: list[str] = field(default_factory=list)
    drop_grouping: bool = False
    refers_to: int | None = None  # "#2" or "turn 2" named in the question
    route_named: str | None = None  # "why SQL?": the route an explanation asks about (sql, vector, hybrid)

    @property
    def is_follow_up(self) -> bool:
        return self.kind != "none"


@dataclass
class FollowUp:
    """A follow-up resolved against the turn it builds on: the complete plan, what changed and what was kept."""

    kind: str  # edit | restrict
    base: int  # number of the turn it builds on
    plan: QueryPlan
    changes: list[str] = field(default_factory=list)  # "with published_date 2022 instead of 2023"
    inherited: list[str] = field(default_factory=list)  # what was kept from the base turn's reading

    def describe(self) -> str:
        return ", ".join(self.changes) or "unchanged"


# ---------------------------------------------------------------- detection


def detect(question: str, planner: Planner) -> Detection:
    """The evidence that `question` is a follow-up (see the module's docstring); never looks at earlier turns."""
    found = Detection(question=question)
    text = " ".join(question.replace("’", "'").split()).strip()
    explicit = EXPLICIT_TURN.search(text)
    if explicit:
        found.refers_to = int(explicit.group(1))
    core = text.rstrip("?!. ")
    explain = EXPLAIN_CUE.match(core)
    if explain:
        rest = EXPLICIT_TURN.sub(" ", core[explain.end():]).lower()
        words = [w.strip("'") for w in WORD.findall(rest)]
        # besides the words of explaining, plain English that names nothing in the table, pointing back at the
        # answer ("how did you arrive at that figure?"); a rare word or a table's word asks something new
        plain = [w for w in words if w not in EXPLAIN_WORDS and not w.isdigit()]
        points_back = bool(DEICTIC & set(words))
        if all(points_back and not planner.is_table_word(w) and (w in STOPWORDS or zipf_of(w) >= PLAIN_ZIPF)
               for w in plain):
            found.kind = "explain"
            named = [ROUTE_WORDS[w] for w in words if w in ROUTE_WORDS]
            found.route_named = named[0] if named else None
            found.evidence.append(f"asks how an answer was reached ({explain.group(0).strip()!r}, nothing else)")
            return found
    remainder, strong, weak = core, [], []
    if found.refers_to is not None:
        strong.append(f"names turn #{found.refers_to}")
        remainder = EXPLICIT_TURN.sub(" ", remainder)
        remainder = re.sub(r"\b(?:as|like|than|of|from|in)\s+(?=\s|$)", " ", remainder)

    lead = LEAD.match(remainder)
    if lead:
        weak.append(f"starts with {lead.group(1).lower()!r}")
        remainder = remainder[lead.end():]
    for pattern, label in ((WHAT_ABOUT, "'what about'"), (SAME, "'the same'"), (ONLY, "'only'")):
        match = pattern.search(remainder)
        if match:
            strong.append(f"{label} ({match.group(0).strip()!r})")
            remainder = (remainder[:match.start()] + " " + remainder[match.end():]).strip()
    match = INSTEAD.search(remainder)
    if match:
        strong.append(f"'instead' ({match.group(0).strip(' ,')!r})")
        remainder = remainder[:match.start()] + " " + remainder[match.end():]
    match = ALSO.search(remainder)
    if match:
        found.also = True
        weak.append(f"{match.group(0).strip(' ,')!r}")
        remainder = remainder[:match.start()] + " " + remainder[match.end():]

    rows = "|".join(sorted((re.escape(w) for w in _row_nouns(planner)), key=len, reverse=True))
    restricting = re.compile(RESTRICTING.pattern.format(rows=rows), re.I)
    restrict = False
    for match in list(restricting.finditer(remainder))[:1]:
        strong.append(f"{match.group(0).strip()!r} refers to an earlier answer's rows")
        restrict = True
        remainder = remainder[:match.start()] + " " + remainder[match.end():]
    pointing = re.compile(rf"\b(?:those|these)\s+(?:ones|{rows})\b|\b(?:those|these)\b(?=\s*$|\s+(?:{POINTING_NEXT})\b)"
                          rf"|\b(?:them|they)\b|\b(?P<verb>{POINTING_VERBS})\s+(?:it|that|this)\b"
                          rf"|\bthat\s+(?:list|result|table|answer|query|one)s?\b", re.I)
    matches = list(pointing.finditer(remainder))
    if matches:
        strong.append(f"{matches[0].group(0)!r} has no referent in the question")
        remainder = pointing.sub(lambda m: f" {m.group('verb') or ''} ", remainder)

    cues = list(strong)  # the cues that point back by themselves (not "overall", "for all years")
    drops = _drops(remainder, planner)
    for words, column in drops:
        strong.append(f"takes away a condition ({words!r})")
        found.drop_columns.append(column)
        remainder = remainder.replace(words, " ")
    grouping = DROP_GROUPING.search(remainder)
    if grouping:
        strong.append(f"takes away the grouping ({grouping.group(0)!r})")
        found.drop_grouping = True
        remainder = remainder[:grouping.start()] + " " + remainder[grouping.end():]

    if strong or weak:
        remainder = re.sub(r"\b(?:the\s+)?ones\b", " ", remainder, flags=re.I)  # "only the politics ones"
    found.remainder = " ".join(remainder.split()).strip(" ,;")
    plan = planner.plan(found.remainder) if WORD.search(found.remainder) else QueryPlan(question="")
    has_rows = _names_rows(found.remainder, planner)
    read = plan.conditions or plan.group_by or plan.limit or asks_for_something(plan)
    if (plan.topic or not read) and not has_rows and WORD.search(found.remainder):
        completed = _completed(found.remainder, planner)
        if completed is not None:
            strong.append(f"a fragment, read as {completed.question!r}")
            found.remainder, plan = completed.question, completed
    found.plan = plan
    asks = asks_for_something(plan)
    fragment = not has_rows and not asks and not plan.topic and bool(plan.conditions or plan.group_by or plan.limit)
    if fragment:
        what = "a grouping" if plan.group_by and not plan.conditions else "only conditions"
        strong.append(f"a fragment: {what}, no question of its own")
    elif asks and not has_rows and not plan.topic and not plan.conditions and not plan.group_by and (
            not QUESTION_START.match(found.remainder) or len(WORD.findall(found.remainder)) <= 3):
        strong.append("a fragment: asks for a computation of nothing it names")
    content = bool(plan.conditions or plan.group_by or plan.topic or asks or plan.limit or found.drop_columns
                   or found.drop_grouping)
    if not strong and not weak:
        found.reason = "no follow-up cue, pronoun or fragment: a question of its own"
        return found
    if not strong and has_rows and (asks or plan.group_by or plan.topic):
        found.reason = (f"{' and '.join(weak)}, but the question names its rows and what it asks: a question of "
                        "its own")
        found.evidence = weak
        return found
    if not cues and not restrict and has_rows and asks and QUESTION_START.match(found.remainder):
        # "How many health articles are there in total?": "in total", "for all years" end a complete question
        found.reason = (f"{' and '.join(strong + weak)}, but it is a complete question that names its rows and "
                        "what it asks: a question of its own")
        found.evidence = strong + weak
        found.drop_columns, found.drop_grouping = [], False
        return found
    if not content and not restrict:
        found.reason = "follow-up cues but nothing to change or ask"
        found.evidence = strong + weak
        return found
    found.evidence = strong + weak
    found.kind = "restrict" if restrict and plan.topic else "edit"
    return found


def _completed(remainder: str, planner: Planner) -> QueryPlan | None:
    """A fragment whose words are not all read on their own, read as the short question it stands for: a month
    name ("what about May?" -> "in May"), a superlative or a value of the rows ("and the shortest?" -> "the shortest
    articles", "only the 1-star ones" -> "1-star reviews"). None when no such reading explains every word."""
    if len(WORD.findall(remainder)) > 4:
        return None
    bare = re.sub(r"^(?:the|a|an)\s+", "", remainder, flags=re.I)
    noun = row_noun(planner.table)
    for candidate in (f"in {remainder}", f"{remainder} {noun}", f"{bare} {noun}"):
        plan = planner.plan(candidate)
        if not plan.topic and not plan.unused and (plan.conditions or plan.group_by or plan.intent_span is not None):
            return plan
    return None


def asks_for_something(plan: QueryPlan) -> bool:
    """Whether the question's own words ask for a computation or listing (a grouping alone makes the planner count,
    and that is not asking)."""
    if plan.intent_span is not None:
        return True
    return plan.intent != "topic" and not (plan.intent == "count" and plan.group_by)


def _row_nouns(planner: Planner) -> set[str]:
    return set(planner.vocab.entity_words) | set(ENTITY_NOUNS)


def _names_rows(text: str, planner: Planner) -> bool:
    nouns = _row_nouns(planner)
    return any(w.lower() in nouns or singular(w.lower()) in nouns for w in WORD.findall(text))


def _drops(text: str, planner: Planner) -> list[tuple[str, str]]:
    """("for all years", date column), ("remove the category", category column) ...: conditions taken away."""
    words = "|".join(sorted((re.escape(w) for w in planner.vocab.dimensions), key=len, reverse=True))
    pattern = re.compile(rf"\b(?:(?:for|in|across|over|from|of)\s+)?(?:all|any|every)\s+(?:the\s+)?"
                         rf"({words}|time|dates?)\b"
                         rf"|\b(?:drop|remove|ignore|forget|lift|clear|without)\s+(?:the\s+)?({words}|dates?|time)"
                         rf"\s+(?:filter|condition|restriction|limit)s?\b"
                         rf"|\b(?:drop|remove|ignore|forget|lift|clear)\s+(?:the\s+)?({words}|dates?)\b"
                         rf"|\b(?:regardless|irrespective|independently)\s+of\s+(?:the\s+)?({words}|dates?|time)\b"
                         rf"|\bno matter (?:the|which|what)\s+({words}|dates?|time)\b", re.I)
    roles = planner.roles
    found = []
    for match in pattern.finditer(text):
        word = next(group for group in match.groups() if group).lower()
        dimension = "day" if word in ("time", "date", "dates") else planner.vocab.dimensions.get(word)
        column = roles.date if dimension in CALENDAR_DIMENSIONS else {
            "category": roles.category, "author": roles.authors}.get(
            dimension or "", dimension if dimension in roles.categorical else None)
        if column:
            found.append((match.group(0), column))
    return found


# ---------------------------------------------------------------- resolution


def _bare_threshold(remainder: str, base: QueryPlan, new: QueryPlan) -> Condition | None:
    """"and over 2,500?" after "... longer than 1,000 words": a comparison that names no column bounds the column
    of the earlier turn's numeric conditions, when they are all on one column."""
    columns = {c.column for c in base.conditions if c.kind == "number"}
    match = BARE_COMPARISON.search(remainder)
    if len(columns) != 1 or not match or any(c.kind == "number" for c in new.conditions):
        return None
    op = OPS[re.sub(r"\s+", " ", match.group(1).lower())]
    return Condition("number", columns.pop(), op, number_value(match.group(2)), match.group(0))


def resolve(found: Detection, base: QueryPlan, base_number: int,
            labels: Mapping[str, str] | None = None) -> FollowUp:
    """The complete plan `found` means, edited from the plan of turn `base_number` (which is not changed); the
    changes are said in the columns' `labels` ("only category: politics"), as the reading says them."""

    def brief(condition: Condition, *, column: bool = True) -> str:
        return short(condition, column=column, labels=labels)

    new = found.plan or QueryPlan(question="")
    if found.kind == "restrict":
        plan = QueryPlan(question=found.question, intent="topic", topic=new.topic,
                         conditions=[_unspanned(c) for c in new.conditions], unused=list(new.unused),
                         corrections=list(new.corrections),
                         evidence=list(new.evidence))
        changes = [f"among its rows, about '{new.topic}'"]
        changes += [f"only {brief(c)}" for c in new.conditions]
        return FollowUp("restrict", base_number, plan, changes, inherited=[f"the rows of #{base_number}"])

    threshold = _bare_threshold(found.remainder, base, new)
    if threshold is not None:  # the number is the new bound, not words of a topic
        numbers = set(WORD.findall(threshold.words))
        new = dataclasses.replace(new, conditions=[*new.conditions, threshold],
                                  topic=" ".join(w for w in new.topic.split() if w not in numbers))
    conditions = [_unspanned(c) for c in base.conditions]
    kept_from_base = list(conditions)
    copy_of = {id(o): c for o, c in zip(base.conditions, conditions, strict=True)}
    evidence = list(base.evidence)
    changes: list[str] = []
    gone: list[Condition] = []
    for column in found.drop_columns:
        dropped = [c for c in conditions if c.column == column]
        if dropped:
            changes.append("without " + ", ".join(brief(c) for c in dropped))
            gone += dropped
            conditions = [c for c in conditions if c.column != column]
    for condition in (_unspanned(c) for c in new.conditions):
        same = [c for c in conditions if _same_slot(c, condition)]
        if same and found.also and _widenable(same[0], condition):
            values = _values(same[0]) + [v for v in _values(condition) if v not in _values(same[0])]
            merged = dataclasses.replace(same[0], op="in", value=values, words=f"{same[0].words}, {condition.words}")
            conditions[conditions.index(same[0])] = merged
            changes.append(f"also {brief(condition)}")
        elif same:
            at = conditions.index(same[0])
            conditions = [c for c in conditions if c not in same]
            conditions.insert(at, condition)
            gone += same
            old = ", ".join(brief(c, column=c.column != condition.column) for c in same)
            changes.append(f"with {brief(condition)} instead of {old}")
        else:
            conditions.append(condition)
            changes.append(f"only {brief(condition)}" if _narrows(condition) else f"with {brief(condition)}")
    evidence = [e for e in evidence if not any(c.words and repr(c.words) in e for c in gone)]

    plan = dataclasses.replace(base, question=found.question, conditions=conditions, group_by=list(base.group_by),
                               unused=list(new.unused), corrections=list(new.corrections), intent_span=None)
    if base.topic and not (new.topic and not found.also):
        # The earlier topic is kept: the text searched is the earlier question (without the words of the conditions
        # this one replaced or took away) with what this one adds, not "only the closed ones" on its own.
        plan.question = " ".join(filter(None, [_without_words(base.question, gone), found.remainder]))
    if base.population is not None:
        plan.population = [copy_of[id(p)] for p in base.population
                           if id(p) in copy_of and any(copy_of[id(p)] is c for c in conditions)]
    if found.drop_grouping and plan.group_by:
        changes.append("without the grouping per " + ", ".join(plan.group_by))
        plan.group_by = []
        if plan.intent == "count" and base.limit and base.order_most:
            plan.limit, plan.order_most, plan.with_ties = None, False, False
    if new.group_by:
        if found.also:
            added = [d for d in new.group_by if d not in plan.group_by]
            plan.group_by += added
            if added:
                changes.append("also per " + ", ".join(added))
        elif new.group_by != plan.group_by:
            before = plan.group_by
            plan.group_by = list(new.group_by)
            instead = " instead of per " + ", ".join(before) if before else ""
            changes.append("per " + ", ".join(plan.group_by) + instead)
        if plan.intent in ("topic", *LISTING_INTENTS) and not (new.intent_span and new.intent in LISTING_INTENTS):
            plan.intent, plan.limit = "count", new.limit
        if new.order_most and (not base.order_most or new.limit != base.limit):
            plan.order_most, plan.with_ties, plan.limit = True, new.with_ties, new.limit
            changes.append(f"the top {new.limit}" if new.limit else "most first")
    asked = asks_for_something(new) and not (found.drop_grouping and new.intent == "sum" and not new.measure)
    if asked and (new.intent, new.measure) != (base.intent, base.measure):
        plan.intent, plan.measure, plan.missing = new.intent, new.measure, new.missing
        plan.missing_value = new.missing_value
        plan.limit, plan.order_most, plan.with_ties = new.limit, new.order_most, new.with_ties
        if new.intent in LISTING_INTENTS and base.intent in LISTING_INTENTS and base.limit and \
                not NUMBER_WORD.search(found.question):
            plan.limit = base.limit  # "and the longest?" after "the shortest" or "the 3 shortest": as many as before
        changes.append(f"{_action(new)} instead of {_action(base)}")
        if new.intent in LISTING_INTENTS and not new.group_by and plan.group_by:
            plan.group_by = []
    elif new.limit is not None and new.limit != base.limit and not new.group_by:
        plan.limit = new.limit
        plan.order_most = plan.order_most or new.order_most
        changes.append(f"the top {new.limit}")
    if new.topic:
        if base.topic and not found.also:
            changes.append(f"about '{new.topic}' instead of '{base.topic}'")
            plan.topic = new.topic
        else:
            plan.topic = " ".join(filter(None, [base.topic, new.topic]))
            changes.append(f"about '{new.topic}'")
    # The route's reason names the follow-up itself (rag.assistant); the evidence stays the words' evidence, without
    # what the follow-up replaced (the old grouping, the old computation).
    if plan.group_by != base.group_by:
        evidence = [e for e in evidence if not e.startswith("group by ")]
    if (plan.intent, plan.measure) != (base.intent, base.measure):
        evidence = [e for e in evidence if not e.startswith(f"{base.intent} (")]
    plan.evidence = [*evidence, *[e for e in new.evidence if e not in evidence]]
    inherited = [_action(base)] + [brief(c) for c in conditions if any(c is k for k in kept_from_base)]
    if base.group_by and plan.group_by == base.group_by:
        inherited.append("per " + ", ".join(base.group_by))
    if base.topic and plan.topic == base.topic:
        inherited.append(f"about '{base.topic}'")
    return FollowUp("edit", base_number, plan, changes or ["unchanged"], inherited)


def _without_words(text: str, conditions: list[Condition]) -> str:
    """`text` without the words the `conditions` were read from."""
    for words in (w.strip() for c in conditions for w in str(c.words or "").split(", ")):
        if words:
            text = re.sub(rf"(?<!\w)(?:(?:in|from|of|on|for|during)\s+)?{re.escape(words)}(?!\w)", " ", text,
                          flags=re.I)
    return " ".join(text.split())


def _unspanned(condition: Condition) -> Condition:
    """A copy without its span: spans index the question a condition was read from, not the follow-up's."""
    return dataclasses.replace(condition, span=None)


def _same(a: Condition, b: Condition) -> bool:
    return (a.kind, a.column, a.op, repr(a.value)) == (b.kind, b.column, b.op, repr(b.value))


def _slot(condition: Condition) -> tuple[str, str]:
    kind = {"author_like": "author", "date": "date", "weekday": "weekday"}.get(condition.kind, condition.kind)
    if kind in ("category", "missing"):
        kind = "value"
    return kind, condition.column


def _same_slot(old: Condition, new: Condition) -> bool:
    """Whether `new` takes the place of `old`: the same column, read the same way (a date for a date, a value for
    a value; numbers only when they bound the column from the same side)."""
    if _slot(old) != _slot(new):
        return False
    if old.kind == "number" and new.kind == "number":
        side = {">": "low", ">=": "low", "<": "high", "<=": "high"}
        return side.get(old.op, "both") == side.get(new.op, "both") or "both" in (side.get(old.op, "both"),
                                                                                   side.get(new.op, "both"))
    return True


def _widenable(old: Condition, new: Condition) -> bool:
    return old.kind == new.kind == "category" and old.op in ("=", "in") and new.op in ("=", "in")


def _values(condition: Condition) -> list[Any]:
    return list(condition.value) if isinstance(condition.value, list) else [condition.value]


def _narrows(condition: Condition) -> bool:
    return condition.kind in ("category", "author", "author_like") and condition.op in ("=", "in", "like")


def _action(plan: QueryPlan) -> str:
    if plan.intent == "topic" and not plan.group_by:
        return f"searching for '{plan.topic}'" if plan.topic else "listing"
    names = {"count": "counting", "avg": "average", "sum": "total", "max": "highest", "min": "lowest", "range": "range",
             "share": "share", "list": "listing", "latest": "newest", "earliest": "oldest", "longest": "longest",
             "shortest": "shortest", "span": "date span"}
    name = names.get(plan.intent, plan.intent)
    return f"{name} {plan.measure}" if plan.measure and plan.intent not in ("count", "list", "share") else name


def short(condition: Condition, *, column: bool = True, labels: Mapping[str, str] | None = None) -> str:
    """A condition in few words: a whole year as "published date 2023", a whole month as "2023-03"."""
    name = (labels or {}).get(condition.column) or derive_label(condition.column)  # as the reading calls it
    prefix = f"{name} " if column else ""
    if condition.kind == "date":
        start, end = condition.value
        if start != date.min and end != date.max:
            if (start.month, start.day, end.month, end.day) == (1, 1, 12, 31) and start.year == end.year:
                return f"{prefix}{start.year}"
            if start.day == 1 and start.year == end.year and start.month == end.month and \
                    (end + timedelta(days=1)).day == 1:
                return f"{prefix}{start.isoformat()[:7]}"
    text = reading(condition, labels).text
    return text if column or not text.startswith(name) else text[len(name):].lstrip(": ")


# ---------------------------------------------------------------- plans as plain data (conversation state)


def plan_to_dict(plan: QueryPlan) -> dict[str, Any]:
    """A plan as JSON-ready data (every field; conditions with dates as ISO strings, the share's population as
    positions in the conditions); `plan_from_dict` reads it back."""
    data: dict[str, Any] = {}
    for item in dataclasses.fields(plan):
        value = getattr(plan, item.name)
        if item.name == "conditions":
            value = [_condition_to_dict(c) for c in value]
        elif item.name == "population":
            value = None if value is None else [i for i, c in enumerate(plan.conditions)
                                                if any(c is p for p in value)]
        elif item.name == "corrections":
            value = [list(pair) for pair in value]
        elif isinstance(value, tuple | list):
            value = list(value)
        data[item.name] = value
    return data


def plan_from_dict(data: dict[str, Any]) -> QueryPlan:
    names = {item.name for item in dataclasses.fields(QueryPlan)}
    values = {key: value for key, value in data.items() if key in names}
    conditions = [_condition_from_dict(c) for c in values.get("conditions") or []]
    values["conditions"] = conditions
    population = values.get("population")
    values["population"] = None if population is None else [conditions[i] for i in population
                                                            if 0 <= i < len(conditions)]
    values["corrections"] = [tuple(pair) for pair in values.get("corrections") or []]
    if values.get("intent_span") is not None:
        values["intent_span"] = tuple(values["intent_span"])
    return QueryPlan(**values)


def _condition_to_dict(condition: Condition) -> dict[str, Any]:
    value = condition.value
    if condition.kind == "date":
        value = [value[0].isoformat(), value[1].isoformat()]
    return {"kind": condition.kind, "column": condition.column, "op": condition.op, "value": value,
            "words": condition.words}


def _condition_from_dict(data: dict[str, Any]) -> Condition:
    value = data.get("value")
    if data.get("kind") == "date":
        value = (date.fromisoformat(value[0]), date.fromisoformat(value[1]))
    return Condition(str(data["kind"]), str(data["column"]), str(data["op"]), value, str(data.get("words", "")))
