"""A typed plan (or SQL a language model wrote) -> the `Interpretation` shown above every answer.

The restatement names what was computed or searched, every condition with the words it came from, and
the words of the question nothing explained, so a wrong reading is visible rather than a silent filter.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from datetime import date

import sqlglot
from sqlglot import exp

from rag.data.epoch import epoch_to_text
from rag.data.labels import derive_label
from rag.data.roles import row_noun
from rag.models import Alternative, ConditionReading, Interpretation, PlanEdit
from rag.understand.planner import (
    HAS,
    NUMBER_SIDE,
    NUMBER_SIDES,
    PART_OF_DAY,
    PEOPLE_SIDES,
    PERIODS,
    WEEKDAY_SIDES,
    Condition,
    QueryPlan,
    days_named,
    is_two_sided,
)
from rag.understand.vocabulary import plural, singular


def ordinal(n: int) -> str:
    """2 -> "2nd", 3 -> "3rd", 11 -> "11th"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"

ACTIONS = {"count": "Counted {rows}", "avg": "Average {measure}", "median": "Median {measure}",
           "sum": "Total {measure}", "max": "Highest {measure}", "min": "Lowest {measure}", "share": "Share of {rows}",
           "range": "Range of {measure} (highest minus lowest)", "span": "First and last date, and the days between",
           "gap": "Longest gap between consecutive {rows} (days between their dates)",
           "idle": "Newest date of each group, the oldest first (days since, to the newest row)",
           "list": "Listed {rows}", "latest": "Newest {rows}", "earliest": "Oldest {rows}",
           "longest": "Longest {rows} by {measure}", "shortest": "Shortest {rows} by {measure}"}


LENGTH_WORDS = re.compile(r"\b(?:words?|length|characters?|size|pages?|duration|minutes)\b", re.I)
BOUND_WORDS = {">": "more than", ">=": "at least", "<": "fewer than", "<=": "at most", "=": "exactly"}
LEVEL_WORDS = {">": "above", ">=": "at least", "<": "below", "<=": "at most", "=": "exactly"}  # of a value, not a count


def interpret(plan: QueryPlan, table: str, labels: Mapping[str, str] | None = None) -> Interpretation:
    """The reading of `plan`, in the columns' human labels (`labels`, {column: label}; derived from the names
    when not given: "article_category" of table "articles" reads "category")."""
    rows = row_noun(table)
    labels = {**{c: derive_label(c, table) for c in _columns(plan)}, "part_of_week": "weekday or weekend",
              **(labels or {})}
    for group in plan.group_by:  # "with an author vs without one"
        if group.startswith(PART_OF_DAY):
            labels[group] = f"before or after {group[len(PART_OF_DAY):]}:00"
        if group.startswith(WEEKDAY_SIDES):  # ("Friday or Monday-Thursday")
            labels[group] = " or ".join(days_named([int(d) for d in days.split(",")])
                                        for days in group[len(WEEKDAY_SIDES):].split("/"))
        if group.startswith(NUMBER_SIDES):  # ("2,000 words or more vs under")
            side = NUMBER_SIDE.match(group[len(NUMBER_SIDES):])
            if side:
                name, value = derive_label(side["column"], table), float(side["value"])
                labels[group] = (f"{name} {value:g} or more, or below" if side["op"] == ">=" else
                                 f"{name} above {value:g}, or {value:g} or less")
        if group.startswith(PEOPLE_SIDES):
            labels[group] = f"{group[len(PEOPLE_SIDES):]} or more people named, or fewer"
        if group.startswith(PERIODS):
            labels[group] = "period"
        if group.startswith(HAS):
            labels[group] = f"with or without {labels.get(group[len(HAS):]) or derive_label(group[len(HAS):], table)}"
    measure = labels.get(plan.measure or "", plan.measure)
    if plan.per_group:
        order = {"latest": "Newest {rows}", "earliest": "Oldest {rows}", "longest": "Longest {rows} by {measure}",
                 "shortest": "Shortest {rows} by {measure}", "min": "{Rows} with the lowest {measure}"}.get(
            plan.intent, "{Rows} with the highest {measure}")
        action = order.format(rows=rows, Rows=rows.capitalize(), measure=measure) + \
            f" ({plan.limit or 1} of each, ties kept)"
    elif plan.intent == "topic" and not plan.is_aggregate:
        action = f"Searched the text for '{plan.topic}'" if plan.topic else f"Listed {rows}"
        if not plan.topic and plan.measure:  # ("when does CT-2023-0442 expire": its end, shown)
            action += f" with their {measure}"
    else:
        unmeasured = "text length" if plan.intent in ("longest", "shortest") else "rows"
        action = ACTIONS.get(plan.intent, "Counted {rows}").format(rows=rows, measure=measure or unmeasured)
        if plan.share_of_measure:  # ("of all the words …, what percentage came out in June")
            action = f"Share of the total {measure}"
        for intent, also in plan.also:  # "…, and what's his avg rating"
            action += " and " + ACTIONS[intent].format(rows=rows, measure=labels.get(also, also)).lower()
        if plan.intent in ("longest", "shortest") and measure and not LENGTH_WORDS.search(measure):
            # "the five most helpful reviews": ordered by a count, not long ("Longest reviews by helpful votes")
            action = f"{rows.capitalize()} with the {'most' if plan.intent == 'longest' else 'fewest'} {measure}"
        if plan.distinct:
            action = f"Counted different {labels.get(plan.distinct, plan.distinct)} values"
            if plan.first_dated:  # ("how many brand-new counterparties in 2024")
                action += f", each dated by its first {singular(rows)}"
        if plan.limit:
            end = "bottom" if plan.group_by and not plan.order_most else "top"  # groups ranked lowest first
            end = "top and bottom" if plan.contrast_ranked == "both" else end  # ("rose the most, and fell the most")
            action += f" ({end} {plan.limit})" if plan.intent not in ("latest", "earliest") else f" ({plan.limit})"
        if plan.intent in ("latest", "earliest") and not plan.limit and not plan.is_aggregate:  # "oldest first"
            action = f"Listed {rows}, {'newest' if plan.intent == 'latest' else 'oldest'} first"
        if plan.ranking in ("top", "bottom") and plan.intent in ("longest", "shortest") and not plan.group_by:
            action = (f"{rows.capitalize()} with the {'highest' if plan.intent == 'longest' else 'lowest'} {measure}"
                      f" ({plan.limit or 1})")
        if plan.sorted_rows and plan.intent in ("longest", "shortest") and not plan.limit:  # "sorted by rating"
            action = f"Listed {rows}, {'highest' if plan.intent == 'longest' else 'lowest'} {measure} first"
    if plan.scale and plan.measure and plan.is_aggregate:  # "in millions", a term of months "in years"
        action += f", in {plan.scale[1]}"
    if plan.ties_at_limit and not plan.per_group:  # "if several are tied for third place, list all of them"
        action += ", ties at the last place kept"
    if plan.cumulative and plan.group_by:  # "running total of tickets opened month by month"
        action += ", with the running total"
    if plan.nth:  # "the 2nd biggest lease", "the runner-up brand": which place of the order, ties sharing one
        action = f"{action.split(' (')[0]}: the {ordinal(plan.nth)} value, ties counted once"
    if plan.group_by and not plan.limit and (plan.order_most or plan.order_least):  # "busiest first"
        action += ", highest first" if plan.order_most else ", lowest first"
    if plan.none_of:  # "which agents have never had an urgent ticket"
        action = f"{plural(labels.get(plan.group_by[0], plan.group_by[0])).capitalize()} without any matching {rows}"
        action = f"Counted {action[0].lower()}{action[1:]}" if plan.distinct else action
        action += f", each with its number of {rows}" if ("count", None) in plan.also and not plan.distinct else ""
    if plan.count_per:  # "average number of tickets per agent"
        statistic = "Median" if plan.intent == "median" else "Average"
        counted = f"total {labels.get(plan.measure, plan.measure)}" if plan.measure else f"number of {rows}"
        action = f"{statistic} {counted} per {labels.get(plan.count_per, plan.count_per)}"
    if plan.group_size:  # "brands with more than 150 reviews": which groups were kept
        op, number = plan.group_size
        action += (f", only groups with {BOUND_WORDS[op]} {number} {rows}" if plan.group_by
                   else f", and whether they are {BOUND_WORDS[op]} {number}")
    if plan.group_spread:  # "writers with a byline in more than one section"
        dimension, op, number = plan.group_spread
        action += f", only groups with {BOUND_WORDS[op]} {number} different {labels.get(dimension, dimension)}"
        if plan.spread_values:  # ("… and for which ones?": a row per group and value, with its number of rows)
            action = (f"Counted {rows} per {labels.get(plan.group_by[0], plan.group_by[0])} and "
                      f"{labels.get(dimension, dimension)}, only groups with {BOUND_WORDS[op]} {number} different "
                      f"{labels.get(dimension, dimension)}")
    if plan.group_share:  # "sections with at least a quarter of their stories co-written"
        op, percent = plan.group_share
        action += f", only groups where it is {LEVEL_WORDS[op]} {percent:g}%"
    if plan.group_bound:  # "sections that averaged more than 850 words"
        op, number = plan.group_bound
        words = LEVEL_WORDS[op]
        said = "the overall average" if number is None else f"{number:,}"
        statistic = "total" if plan.intent == "sum" else "average"
        action += (f", only groups whose {statistic} is {words} {said}" if plan.group_by
                   else f", and whether it is {words} {said}")
    if plan.contrast and plan.contrast_ranked:  # "which agent's count fell the most between Q1 and Q2"
        per = labels.get(plan.contrast_per, plan.contrast_per)
        action += (f", each {per}'s later value against its earlier: ranked by how far it " + {
            "fell": "fell", "rose": "rose", "both": "changed (the largest rise first)"}[plan.contrast_ranked])
    elif plan.contrast:  # "did Q2 beat Q1": one row, not a group per compared value
        sides = [labels.get(d, d) for d in plan.group_by if is_two_sided(d)]  # ("co-authored … than solo ones")
        action += (f" ({sides[0]})" if sides else "") + ", the first compared value against the second: " + (
            "how far apart they are" if plan.contrast == "gap" else "how far the first falls short of the second"
            if plan.contrast == "shortfall" else "how many of the first per one of the second"
            if plan.contrast == "ratio" else "their difference") + (
            ", also in percent of the second" if plan.change_percent else "") + (
            f", and whether the first is {'less' if plan.contrast == '<' else 'more'}" if plan.contrast in ("<", ">")
            and not plan.contrast_only else "")
        if plan.contrast_per:  # "which sections published more in Q2 than in Q1"
            per = labels.get(plan.contrast_per, plan.contrast_per)
            action += f", for each {per}" + (
                f", only the {per} values where the first is {'less' if plan.contrast == '<' else 'more'}"
                if plan.contrast_only else "")
    readings = [reading(c, labels) for c in plan.conditions]
    for number, read in enumerate(readings):
        read.ref = f"condition:{number}"
    if plan.intent == "share":  # say which conditions define the whole the share is taken of
        # a grouped share is either within each group or each group's part of one whole (every condition)
        population = plan.share_whole if plan.share_within_groups or not plan.group_by else plan.conditions
        for condition, read in zip(plan.conditions, readings, strict=True):
            if any(condition is p for p in population):
                read.text = f"of all with {read.text}"
        if plan.group_by:
            # (the two sides of one test are each "side": "Share of each side's articles · per word count …")
            groups = " and ".join("side" if is_two_sided(g) else labels.get(g, g) for g in plan.group_by)
            action = action.replace(f"Share of {rows}", f"Share of each {groups}'s {rows}" if plan.share_within_groups
                                    else f"Each {groups}'s share of the {rows}", 1)
    if plan.topic and (plan.is_aggregate or plan.intent != "topic"):
        target = "title or text contains" if plan.is_aggregate else "searched the text for"
        target = f"of all whose {target}" if plan.topic_in_whole else target
        said = " or ".join(f"'{w}'" for w in plan.topic.split()) if plan.topic_any else f"'{plan.topic}'"
        readings.append(ConditionReading("text", "contains", plan.topic, plan.topic, f"{target} {said}",
                                         ref="topic"))
    alternatives = []
    if plan.is_aggregate and plan.unused:
        words = " ".join(plan.unused)
        alternatives.append(Alternative(f"Only {rows} whose text mentions '{words}'", PlanEdit(search_unused=True)))
    if plan.is_aggregate and plan.topic:
        alternatives.append(Alternative(f"All {rows}, without the text match on '{plan.topic}'",
                                        PlanEdit(drop=["topic"])))
    grouping = ([plan.contrast_per] if plan.contrast_per else [] if plan.none_of or plan.contrast
                else list(plan.group_by))  # (the groups are the answer)
    return Interpretation(action, readings, grouping, list(plan.unused), alternatives,
                          corrections=[list(pair) for pair in plan.corrections], plan=plan,
                          group_labels=[labels.get(g, g) for g in grouping])


def is_certain(plan: QueryPlan) -> bool:
    """Whether the offline reading leaves nothing to doubt: every word explained by structure or marked as the
    subject ("about ...", "mentioning ..."), no unused word, no typo corrected, no measure missing, no alternative
    reading; then a language model is not asked to route."""
    alternatives = plan.is_aggregate and bool(plan.unused or plan.topic)
    explained = not plan.topic or plan.topic_marked
    return (explained and not plan.unused and not plan.corrections and plan.missing is None and not alternatives
            and bool(plan.conditions or plan.group_by or plan.intent != "topic" or plan.topic))


def apply_edit(plan: QueryPlan, edit: PlanEdit) -> QueryPlan:
    """A copy of `plan` with the user's edit applied (the question is not parsed again)."""
    dropped = {int(ref.split(":")[1]) for ref in edit.drop if ref.startswith("condition:")}
    conditions = [c for number, c in enumerate(plan.conditions) if number not in dropped]
    population = None if plan.population is None else [c for c in plan.population if c in conditions]
    edited = dataclasses.replace(plan, conditions=conditions, unused=list(plan.unused), population=population,
                                 group_by=[] if edit.drop_grouping else list(plan.group_by),
                                 evidence=[*plan.evidence, "edited by the user"],
                                 # (a contrast without its compared values or sides counts the rows left)
                                 contrast=plan.contrast if any(isinstance(c.value, list) and len(c.value) == 2
                                                               for c in conditions)
                                 or not edit.drop_grouping and any(is_two_sided(d) for d in plan.group_by) else "")
    if "topic" in edit.drop and edited.topic:
        edited.unused = [*edited.unused, *edited.topic.split()]
        edited.topic = ""
    if edit.search_unused and edited.unused:
        edited.topic = " ".join(filter(None, [edited.topic, *edited.unused]))
        edited.unused = []
    return edited


def describe_edit(interpretation: Interpretation, edit: PlanEdit) -> str:
    """The edit in words, for the trace and the restatement ("removed: published_date 2023-03-01 ...")."""
    parts = [f"removed {c.text}" for c in interpretation.conditions if c.ref and c.ref in edit.drop]
    if edit.drop_grouping and interpretation.group_by:
        parts.append("removed the grouping per " + interpretation.grouping())
    if edit.search_unused and interpretation.unused_words:
        parts.append("text must mention " + " ".join(interpretation.unused_words))
    return "; ".join(parts) or "no change"


# Comparisons in words: "category: politics", "word count at least 1,000".
OPERATOR_WORDS = {"=": ":", "!=": " is not", "in": " is one of", "not in": " is none of", ">": " above",
                  ">=": " at least", "<": " below", "<=": " at most"}


def _columns(plan: QueryPlan) -> list[str]:
    return [*(c.column for c in plan.conditions), *plan.group_by, *([plan.measure] if plan.measure else [])]


def reading(condition: Condition, labels: Mapping[str, str] | None = None) -> ConditionReading:
    """One condition as the user reads it, in the column's label (`labels`; else derived from its name)."""
    column, value = condition.column, condition.value
    name = (labels or {}).get(column) or derive_label(column)
    if condition.kind == "date":
        start, end = value
        low = None if start == date.min else start.isoformat()
        high = None if end == date.max else end.isoformat()
        if low and high:
            text = f"{name} {low}" if low == high else f"{name} {low} to {high}"
        else:
            text = f"{name} from {low}" if low else f"{name} until {high}"
        if condition.op == "not between":  # "not in 2023": the rows outside the period
            text = text.replace(f"{name} ", f"{name} not ", 1)
        return ConditionReading(column, condition.op, [low, high], condition.words, text)
    if condition.kind == "date_any":
        periods = [a.isoformat() if a == b else f"{a.isoformat()} to {b.isoformat()}" for a, b in value]
        return ConditionReading(column, "in", [[a.isoformat(), b.isoformat()] for a, b in value], condition.words,
                                f"{name} " + " or ".join(periods))
    if condition.kind in ("weekday", "hour", "month"):
        text = condition.describe()
        text = name + text[len(column):] if text.startswith(column) else text
        op = {"weekday": f"weekday {condition.op}", "month": f"month {condition.op}"}.get(condition.kind,
                                                                                       f"hour {condition.op}")
        return ConditionReading(column, op, value, condition.words, text)
    if condition.kind == "missing":
        return ConditionReading(column, condition.op, None, condition.words, f"{name} {condition.op}")
    if condition.kind == "average":  # "longer than the average article"
        side = "above" if condition.op == ">" else "below"
        return ConditionReading(column, f"{side} average", None, condition.words,
                                f"{name} {side} the average of the matching rows")
    if condition.kind == "people_count":  # "co-written": how many people the cell names
        return ConditionReading(column, condition.op, value, condition.words,
                                f"number of {name}{OPERATOR_WORDS.get(condition.op, ' ' + condition.op)} {value}")
    if condition.kind == "text_like":  # (no column: the title or the text)
        said = "does not contain" if condition.op == "not contains" else condition.op
        words = (", ".join(f"'{v}'" for v in value[:-1]) + f" or '{value[-1]}'") if isinstance(value, list) \
            else f"'{value}'"
        return ConditionReading(column, condition.op, value, condition.words,
                                f"{name or 'title or text'} {said} {words}")
    if condition.kind == "author_like":
        return ConditionReading(column, "contains", value, condition.words, f"{name} contains '{value}'")
    if condition.kind == "author" and condition.op == "in":
        return ConditionReading(column, "includes one of", value, condition.words,
                                f"{name} includes " + " or ".join(f"'{v}'" for v in value))
    if condition.kind == "author":
        verb = "does not include" if condition.op == "!=" else "includes"
        return ConditionReading(column, verb, value, condition.words, f"{name} {verb} '{value}'")
    shown = ", ".join(str(v) for v in value) if isinstance(value, list) else (
        f"{value:,}" if isinstance(value, int | float) and not isinstance(value, bool) else str(value))
    op = OPERATOR_WORDS.get(condition.op, f" {condition.op}")
    return ConditionReading(column, condition.op, value, condition.words, f"{name}{op} {shown}")


# A language model's comparisons of a column with a value, in words ("category: politics").
SQL_COMPARISONS = {exp.EQ: "=", exp.NEQ: "!=", exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<="}


def _sql_condition(part: exp.Expression, labels: Mapping[str, str], dialect: str,
                   epoch_dates: Mapping[str, str] | None = None) -> str:
    """A WHERE condition of model-written SQL as the user reads it: a plain comparison of a column with a value
    in the column's label ("category: politics", "published date at least 2023-01-01"; a number compared with an
    epoch date column, `epoch_dates` {column: unit}, as the date it stands for), anything else as the SQL it is."""
    op = SQL_COMPARISONS.get(type(part))
    column, value = part.args.get("this"), part.args.get("expression")
    if op and isinstance(column, exp.Column) and isinstance(value, exp.Literal):
        literal: object = value.this if value.is_string else value.to_py()
        unit = (epoch_dates or {}).get(column.name)
        if unit and isinstance(literal, int | float) and (moment := epoch_to_text(literal, unit)):
            literal = moment.removesuffix(" 00:00:00")
        name = labels.get(column.name) or derive_label(column.name)
        shown = f"{literal:,}" if isinstance(literal, int | float) and not isinstance(literal, bool) else literal
        return f"{name}{OPERATOR_WORDS[op]} {shown}"
    return part.sql(dialect=dialect)


def interpret_sql(sql: str, dialect: str = "sqlite", labels: Mapping[str, str] | None = None,
                  epoch_dates: Mapping[str, str] | None = None) -> Interpretation:
    """What a language model's SQL computes, read back from its tree: each AND-ed WHERE condition (a plain
    comparison in the column's label, else as written; an epoch date column, `epoch_dates` {column: unit},
    compared with dates) and the grouping, in the columns' `labels`."""
    labels = labels or {}
    try:
        tree = sqlglot.parse_one(sql, read=dialect)
    except sqlglot.errors.ParseError:
        return Interpretation("Ran the SQL shown in the trace")
    readings = []
    where = tree.find(exp.Where)
    if where is not None:
        for part in where.this.flatten() if isinstance(where.this, exp.And) else [where.this]:
            column = next((c.name for c in part.find_all(exp.Column)), "")
            readings.append(ConditionReading(column, type(part).__name__.lower(), None, "",
                                             _sql_condition(part, labels, dialect, epoch_dates)))
    grouped = list((tree.args.get("group") or exp.Group()).expressions)
    groups = [g.sql(dialect=dialect) for g in grouped]
    group_labels = [labels.get(g.name) or derive_label(g.name) if isinstance(g, exp.Column) else g.sql(dialect=dialect)
                    for g in grouped]
    aggregates = [a.sql(dialect=dialect) for a in tree.find_all(exp.AggFunc)]
    action = ("Computed " + ", ".join(aggregates)) if aggregates else "Selected rows"
    return Interpretation(action, readings, groups, group_labels=group_labels)
