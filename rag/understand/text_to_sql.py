"""Deterministic text-to-SQL: a `QueryPlan` becomes a sqlglot expression, rendered for the dialect.

User words never reach the SQL text except as sqlglot literals (quoted and escaped by sqlglot), and
the result still goes through the SQL guard like any LLM-written statement.
"""

from __future__ import annotations

import dataclasses
from datetime import date, timedelta
from typing import Any

import sqlglot
from sqlglot import exp

from rag.data.epoch import date_text_sql, epoch_of_day
from rag.data.roles import ends_of
from rag.data.source import ColumnRoles, TableProfile, sqlglot_dialect
from rag.errors import NotInTable
from rag.understand.dates import period_label
from rag.understand.planner import (
    HAS,
    NUMBER_SIDE,
    NUMBER_SIDES,
    PART_OF_DAY,
    PEOPLE_SIDES,
    PERIODS,
    UNIT_SIZES,
    WEEKDAY_SIDES,
    WEEKDAYS,
    WEEKEND,
    Condition,
    QueryPlan,
    days_named,
    is_calendar,
    is_two_sided,
    periods_of,
    text_match_words,
    zipf_of,
)
from rag.understand.vocabulary import GENERIC_COLUMN_WORDS, PEOPLE_NAMED, singular, text_length_measure

DIMENSION_LENGTH = {"year": 4, "month": 7, "day": 10}
# the columns of a widest gap between consecutive rows (see SQLBuilder._widest_gap)
GAP_COLUMNS = ("earlier", "earlier_date", "later", "later_date", "days_between", "empty_days")
ROLE_OF_DIMENSION = {"year": "date", "month": "date", "day": "date", "author": "authors"}  # column role behind it
MAX_AUTHOR_UNION = 500  # beyond this many authors, group by the raw authors column
NAME_COLUMN = "rag_author"  # column of the derived table of author names (unlikely to clash with the table's)
LIST_LIMIT = 50
MAX_LISTED_LABELS = 3  # categorical columns a listing shows besides the main category
END_DATE_NAME = "end_date"  # how a listing names the rows' derived end date (`ColumnRoles.end`)
# Averages, shares and ratios are shown to two decimals: one decimal hid real differences (3.66 and 3.70 are both
# "3.7" on a 1-5 rating), so a wrong population could not be told from the right one.
DECIMALS = 2
CONTRASTED = ("first_value", "second_value")  # the two compared values inside a contrast's query


class SQLBuilder:
    """Builds SELECTs for one table from plans; knows the column roles, nothing about the sample."""

    def __init__(self, table: str, roles: ColumnRoles, profile: TableProfile, dialect: str = "sqlite",
                 date_is_text: bool = True, columns: list[str] | None = None) -> None:
        self.table = table
        self.columns = columns  # every column of the table (row keys may hash all of them)
        self.profile_authors = sorted(profile.authors)
        self.roles = roles
        self.profile = profile
        self.dialect = sqlglot_dialect(dialect)
        self.date_is_text = date_is_text

    # ---------------------------------------------------------------- public

    def answer_sql(self, plan: QueryPlan) -> str:
        """The SELECT that answers a compute/listing plan (topic words become a text match); averages, shares and
        ratios rounded to the decimals the question asks when fewer than the two shown by default."""
        sql = self._answer_sql(plan)
        if plan.scale and plan.measure:
            sql = self._scaled(sql, plan)
        if plan.empty_label:
            sql = self._empty_group_named(sql, plan.empty_label)
        if plan.decimals is None:
            return sql

        def fewer(node: exp.Expression) -> exp.Expression:
            decimals = node.args.get("decimals") if isinstance(node, exp.Round) else None
            if isinstance(decimals, exp.Literal) and decimals.this == str(DECIMALS):
                node.set("decimals", exp.Literal.number(plan.decimals))
            return node

        return sqlglot.parse_one(sql, read=self.dialect).transform(fewer).sql(dialect=self.dialect)

    def _empty_group_named(self, sql: str, label: str) -> str:
        """"Put contracts with no region under 'unknown'": the outer SELECT's groups of a column shown with that name
        where the column is empty (NULL or blank), one group with the blank ones."""
        select = sqlglot.parse_one(sql, read=self.dialect)
        grouped = select.args.get("group") if isinstance(select, exp.Select) else None
        if grouped is None:
            return sql
        if any(isinstance(key, exp.Column) and key.name == NAME_COLUMN and key.table == "names"
               for key in grouped.expressions):
            return self._nobody_named(select, label).sql(dialect=self.dialect)
        keys = {key.name for key in grouped.expressions if isinstance(key, exp.Column)}
        for projection in select.expressions:
            column = projection.this if isinstance(projection, exp.Alias) else None
            if isinstance(column, exp.Column) and projection.alias in keys and column.table in ("", self.table):
                text = exp.func("TRIM", exp.cast(column.copy(), "TEXT"))
                named = exp.func("COALESCE", exp.func("NULLIF", text, exp.Literal.string("")),
                                 exp.Literal.string(label))
                projection.set("this", named)
                # (grouped by the named value: by the column's own name a database groups NULL and blank apart)
                for key in grouped.expressions:
                    if isinstance(key, exp.Column) and key.name == projection.alias:
                        key.replace(named.copy())
        return select.sql(dialect=self.dialect)

    def _nobody_named(self, select: exp.Select, label: str) -> exp.Select:
        """"how many does each manager have? (Show any that nobody owns as 'unassigned')": grouped per person named in
        a cell (the derived table `names`), the rows naming nobody are one more group with that name."""
        for subquery in select.find_all(exp.Subquery):
            if subquery.alias == "names":
                subquery.set("this", exp.union(subquery.this, exp.select(exp.Literal.string(label)), distinct=False))
        for join in select.args.get("joins") or []:
            on = join.args.get("on")
            if on is not None:
                nobody = exp.and_(exp.EQ(this=exp.column(NAME_COLUMN, table="names"),
                                         expression=exp.Literal.string(label)),
                                  self._is_empty(exp.column(self.roles.authors, table=self.table, quoted=True)))
                join.set("on", exp.or_(exp.paren(on.copy()), exp.paren(nobody)))
        return select

    def _scaled(self, sql: str, plan: QueryPlan) -> str:
        """"in millions of euros": the outer SELECT's sums, averages and extremes of the measure divided by the scale,
        rounded like an average and named with it (total_value_eur_millions); counts and the rows' own values stay."""
        assert plan.scale and plan.measure
        factor, word = plan.scale
        select = sqlglot.parse_one(sql, read=self.dialect)
        if not isinstance(select, exp.Select):
            return sql
        renamed: dict[str, str] = {}
        for projection in select.expressions:
            inner = projection.this if isinstance(projection, exp.Alias) else None
            value = inner.this if isinstance(inner, exp.Round) else inner
            if not isinstance(value, (exp.Sum, exp.Avg, exp.Max, exp.Min, exp.Median)) or not any(
                    column.name == plan.measure for column in value.find_all(exp.Column)):
                continue
            # (a smaller unit multiplies: a term of years "in months" is times 12)
            divided = exp.Div(this=value.copy(), expression=exp.Literal.number(f"{float(factor)}")) if factor >= 1 \
                else exp.Mul(this=value.copy(), expression=exp.Literal.number(f"{float(round(1 / factor))}"))
            decimals = plan.decimals if plan.decimals is not None else DECIMALS
            projection.set("this", exp.Round(this=divided, decimals=exp.Literal.number(decimals)))
            # (avg_term_months read in years is avg_term_years)
            held = next((part for part in plan.measure.split("_") if singular(part) in UNIT_SIZES), None)
            renamed[projection.alias] = projection.alias.replace(f"_{held}", f"_{word}") \
                if held and f"_{held}" in projection.alias else f"{projection.alias}_{word}"
            projection.set("alias", exp.to_identifier(renamed[projection.alias]))
        for column in select.find_all(exp.Column):  # (the ORDER BY of the renamed values)
            if not column.table and column.name in renamed and column.find_ancestor(exp.Select) is select:
                column.set("this", exp.to_identifier(renamed[column.name]))
        return select.sql(dialect=self.dialect)

    def _answer_sql(self, plan: QueryPlan) -> str:
        ended = self._dated_by_end(plan)
        if ended is not self:
            return ended._answer_sql(plan)
        where = self.where(self._scope(plan), include_topic=True)
        if plan.per_group:
            return self._per_group(plan, where).sql(dialect=self.dialect)
        if plan.none_of and where is not None:
            # ("which months of 2023 had no unsigned articles": the date picks the months, the rest the rows none of
            # them may have; every month of every year had passed)
            matched, kept = self._counted_and_kept(plan)
            groups = self._groups_without(plan, matched, kept) if matched is not None else self._groups_without(
                plan, where)
            if plan.distinct:  # ("how many of our counterparties have never had an NDA": their number)
                groups.set("order", None)
                groups = exp.select(exp.alias_(exp.Count(this=exp.Star()), f"{plan.distinct}_count")).from_(
                    exp.Subquery(this=groups, alias=exp.TableAlias(this=exp.to_identifier("found"))))
            return groups.sql(dialect=self.dialect)
        if self._ranks_every_group(plan):
            # "which agent has the fewest high-priority tickets": every agent is ranked, one with none of them too
            # (filtering first left her out and named the agent with one); only conditions on the grouped columns
            # pick groups, the others pick the rows counted in each
            counted, kept = self._counted_and_kept(plan)
            return self._aggregate(plan, kept, counted=counted).sql(dialect=self.dialect)
        if plan.intent == "span" and self.roles.date:
            return self._date_span(plan, where).sql(dialect=self.dialect)
        if plan.intent == "gap" and self.roles.date:
            return self._widest_gap(where).sql(dialect=self.dialect)
        if plan.intent == "idle" and self.roles.date and plan.group_by:
            return self._longest_idle(plan, where).sql(dialect=self.dialect)
        query = self._aggregate(plan, where) if plan.is_aggregate else self._listing(plan, where)
        if plan.is_aggregate and plan.spread_values and plan.group_spread and len(plan.group_by) == 1:
            query = self._spread_values(plan, where, query)
        return query.sql(dialect=self.dialect)

    def _spread_values(self, plan: QueryPlan, where: exp.Expression | None, groups: exp.Select) -> exp.Select:
        """"… written for more than one section? If so who, and for which ones?": a row per passing group and each
        of its values of the spread's dimension, with the number of rows of the pair (`groups` selects the groups
        that pass, under the name of the grouping)."""
        group = plan.group_by[0]
        people = group == "author" and self._people_joined
        key, name = (exp.column(NAME_COLUMN, table="names"), "author") if people else self._grouping(group)
        value, value_name = self._grouping(plan.group_spread[0])
        count, count_name = self._value(dataclasses.replace(plan, intent="count", measure=None, distinct=""), where)
        groups.set("order", None)
        groups.set("limit", None)
        passed = exp.select(exp.column(name)).from_(exp.Subquery(this=groups, alias=exp.TableAlias(
            this=exp.to_identifier("spread"))))
        kept = exp.and_(key.copy().isin(query=passed), exp.not_(self._is_empty(value.copy())))
        source = self._names_join() if people else exp.select().from_(self._table())
        query = source.select(exp.alias_(key, name), exp.alias_(value, value_name), exp.alias_(count, count_name))
        query = query.where(exp.and_(where, kept) if where is not None else kept)
        return query.group_by(exp.column(name), exp.column(value_name)).order_by(exp.column(name),
                                                                                exp.column(value_name))

    def _dated_by_end(self, plan: QueryPlan) -> SQLBuilder:
        """"contracts that run out in Oct, Nov or Dec 2024, count per month": when the rows' periods are their ends
        (`ColumnRoles.end`) and never their dates, the calendar groupings and the order are the ends' too (it grouped
        by the month they were signed); a builder whose date is the end, else this one."""
        end = self.roles.end
        dated = {c.column for c in plan.conditions if c.kind in ("date", "date_any")}
        if not end or self.roles.date_unit or end not in dated or self.roles.date in dated or not any(
                is_calendar(d) for d in plan.group_by):
            return self
        return SQLBuilder(self.table, dataclasses.replace(self.roles, date=end), self.profile, self.dialect,
                          self.date_is_text, self.columns)

    def _counted_and_kept(self, plan: QueryPlan) -> tuple[exp.Expression | None, exp.Expression | None]:
        """(WHERE of the rows counted in each group, WHERE of the groups kept): the conditions on the grouped columns
        (the date, for a calendar grouping) pick the groups, the others (and the topic) the rows."""
        grouped = {self.roles.date if is_calendar(d) else self._group_column(d) for d in plan.group_by}
        counted = self.where(dataclasses.replace(plan, conditions=[c for c in plan.conditions
                                                                   if c.column not in grouped]), include_topic=True)
        kept = self.where(dataclasses.replace(plan, conditions=[c for c in plan.conditions if c.column in grouped],
                                              topic=""), include_topic=False)
        return counted, kept

    def _date_span(self, plan: QueryPlan, where: exp.Expression | None) -> exp.Select:
        """"How many days lie between the first ticket and the newest?": the first and the last date, and the days
        between them (calendar days, in the table's dialect); per group when the plan groups."""
        first = exp.Min(this=self._text(self.roles.date or ""))
        last = exp.Max(this=self._text(self.roles.date or ""))
        days = exp.DateDiff(this=exp.cast(last.copy(), "DATE"), expression=exp.cast(first.copy(), "DATE"),
                            unit=exp.var("DAY"))
        if len(plan.group_by) == 1:  # (each person of a multi-author cell in their own group)
            source, group, name = self._group_source(plan.group_by[0])
            groups = [(group, name)]
        else:
            source, groups = exp.select().from_(self._table()), [self._grouping(d) for d in plan.group_by]
        query = source.select(*(exp.alias_(e, name) for e, name in groups), exp.alias_(first, "first_date"),
                              exp.alias_(last, "last_date"), exp.alias_(days, "days_between"))
        if where is not None:
            query = query.where(where)
        if not groups:
            return query
        query = query.group_by(*(exp.column(name) for _, name in groups))
        if plan.limit:  # ("which writer has the longest stretch between their first and latest article")
            return query.order_by(exp.Ordered(this=days.copy(), desc=plan.order_most)).limit(plan.limit)
        return query.order_by(*(exp.column(name) for _, name in groups))

    def _longest_idle(self, plan: QueryPlan, where: exp.Expression | None) -> exp.Select:
        """"Which agent has gone the longest without a new ticket": each group's newest date, the oldest first, and the
        days from it to the table's newest day (the anchor of every relative period)."""
        source, group, name = self._group_source(plan.group_by[0])
        last = exp.Max(this=self._text(self.roles.date or ""))
        newest = exp.Literal.string((self.profile.date_max or "")[:10])
        days = exp.DateDiff(this=exp.cast(newest, "DATE"), expression=exp.cast(last.copy(), "DATE"),
                            unit=exp.var("DAY"))
        query = source.select(exp.alias_(group, name), exp.alias_(last, "last_date"),
                              exp.alias_(days, "days_since")).where(exp.not_(exp.Is(this=group.copy(),
                                                                                       expression=exp.Null())))
        if where is not None:
            query = query.where(where)
        return query.group_by(exp.column(name)).order_by(exp.Ordered(this=last.copy())).limit(plan.limit or 1)

    def _widest_gap(self, where: exp.Expression | None) -> exp.Select:
        """"The longest quiet spell between two consecutive tickets": of the matching rows in date order, the pairs
        that follow each other with the most calendar days between their dates (ties kept), each with its two rows
        and the days between (`days_between`) and without a row (`empty_days`: one fewer)."""
        date_col = self._col(self.roles.date or "")
        label = self.roles.title or self.roles.id or self.roles.url or self.roles.date or ""
        named = self._col(label)
        order = exp.Order(expressions=[exp.Ordered(this=date_col.copy())])

        def before(value: exp.Expression) -> exp.Expression:
            return exp.Window(this=exp.Lag(this=value), order=order.copy())

        day = self._text(self.roles.date or "")
        pairs = exp.select(exp.alias_(before(named.copy()), "earlier"), exp.alias_(before(day.copy()), "earlier_date"),
                           exp.alias_(named, "later"), exp.alias_(day, "later_date")).from_(self._table())
        pairs = pairs.where(exp.not_(exp.Is(this=date_col.copy(), expression=exp.Null())))
        if where is not None:
            pairs = pairs.where(where)
        days = exp.DateDiff(this=exp.cast(exp.column("later_date"), "DATE"),
                            expression=exp.cast(exp.column("earlier_date"), "DATE"), unit=exp.var("DAY"))
        ranked = exp.select("earlier", "earlier_date", "later", "later_date", exp.alias_(days, "days_between"),
                            exp.alias_(exp.Window(this=exp.Anonymous(this="RANK"), order=exp.Order(
                                expressions=[exp.Ordered(this=days.copy(), desc=True)])), "gap_rank")).from_(
            exp.Subquery(this=pairs, alias=exp.TableAlias(this=exp.to_identifier("pairs")))).where(
            exp.not_(exp.Is(this=exp.column("earlier_date"), expression=exp.Null())))
        empty = exp.Sub(this=exp.column("days_between"), expression=exp.Literal.number(1))
        return exp.select(*GAP_COLUMNS[:-1], exp.alias_(empty, GAP_COLUMNS[-1])).from_(
            exp.Subquery(this=ranked, alias=exp.TableAlias(this=exp.to_identifier("ranked")))).where(
            exp.EQ(this=exp.column("gap_rank"), expression=exp.Literal.number(1))).order_by(exp.column("later_date"))

    def _ranks_every_group(self, plan: QueryPlan) -> bool:
        """Groups of a column ranked by how many of their rows match ("rank the agents by urgent tickets", "which
        brand has the fewest 1-star reviews"), or kept when few enough match ("which brands got fewer than 5 one-star
        reviews"): a group with no matching row belongs there, at 0."""
        at_most = bool(plan.group_size) and (plan.group_size[0] in ("<", "<=") or plan.group_size == ("=", 0))
        return (plan.intent == "count" and bool(plan.group_by) and not plan.distinct and not plan.count_per
                and not plan.top_per and (not plan.group_size or at_most) and not plan.group_bound
                and not plan.group_spread
                and not plan.also and not plan.contrast and not plan.share_within_groups
                # (not an order alone: "by severity, most severe first" lists the groups there are)
                and (plan.with_ties or bool(plan.limit) or bool(plan.ranking) or plan.every_group or at_most
                     or self._names_groups(plan))
                and all(not is_calendar(d) and not d.startswith(HAS) for d in plan.group_by)
                and (bool(plan.topic) or any(c.column not in {self._group_column(d) for d in plan.group_by}
                                             for c in plan.conditions)))

    def _names_groups(self, plan: QueryPlan) -> bool:
        """The groups are values the question names ("politics vs sports articles in 2022"): each is shown, at 0
        when none of its rows match."""
        grouped = {self._group_column(d) for d in plan.group_by}
        return any(c.op == "in" and c.kind in ("category", "author") and c.column in grouped for c in plan.conditions)

    def _group_column(self, dimension: str) -> str | None:
        return {"author": self.roles.authors, "category": self.roles.category}.get(dimension, dimension)

    def count_sql(self, plan: QueryPlan) -> str:
        """SELECT COUNT(*) of the rows a listing plan matches (a listing shows the first LIST_LIMIT of them)."""
        query = exp.select(exp.Count(this=exp.Star())).from_(self._table())
        where = self.where(plan, include_topic=True)
        return (query.where(where) if where is not None else query).sql(dialect=self.dialect)

    def row_keys_sql(self, plan: QueryPlan, key_columns: list[str]) -> str:
        """SELECT of the row keys matching the structured part of a hybrid plan."""
        columns = [self._col(c) for c in (key_columns or list(self._all_columns()))]
        query = exp.select(*columns).from_(self._table())
        where = self.where(plan, include_topic=False)
        if where is not None:
            query = query.where(where)
        return query.sql(dialect=self.dialect)

    def answered_rows_sql(self, plan: QueryPlan, key_columns: list[str]) -> str:
        """SELECT of the row keys of the rows a SQL answer was about: a listing's rows in its order and limit;
        for an aggregate, every row it counted (its conditions and text match). For "which of those ..."."""
        columns = [self._col(c) for c in (key_columns or list(self._all_columns()))]
        where = self.where(self._scope(plan), include_topic=True)
        if plan.per_group:
            query = self._per_group(plan, where, key_columns=key_columns or list(self._all_columns()))
        elif plan.none_of and where is not None:  # the rows of the groups that have none matching
            source, group, name = self._group_source(plan.group_by[0])
            groups = exp.select(exp.column(name)).from_(exp.Subquery(
                this=self._groups_without(plan, where), alias=exp.TableAlias(this=exp.to_identifier("found"))))
            query = source.select(*columns).where(group.isin(query=groups)).distinct()
        elif plan.is_aggregate:
            query = exp.select(*columns).from_(self._table())
            query = query.where(where) if where is not None else query
        else:
            query = self._listing(plan, where).select(*columns, append=False)
        return query.sql(dialect=self.dialect)

    # ---------------------------------------------------------------- pieces

    @staticmethod
    def _scope(plan: QueryPlan) -> QueryPlan:
        """The plan whose conditions select the rows an answer reads: for a share within groups only its whole
        (each group's part is counted inside, see `_value`)."""
        return dataclasses.replace(plan, conditions=plan.share_whole) if plan.share_within_groups else plan

    def _table(self) -> exp.Table:
        return exp.to_table(self.table, dialect=self.dialect)

    def _col(self, name: str) -> exp.Expression:
        """A column; the text's length in characters for the measure of that name (a table without a length
        column, see `text_length_measure`)."""
        if self.roles.content and name == text_length_measure(self.roles.content) and name not in (self.columns or ()):
            return exp.func("LENGTH", exp.column(self.roles.content, quoted=True))
        if self.roles.authors and name == PEOPLE_NAMED and name not in (self.columns or ()):
            return self._people_in(exp.column(self.roles.authors, quoted=True))
        if (ends := ends_of(name)) and name not in (self.columns or ()):
            return self._end_date(*ends)
        return exp.column(name, quoted=True)

    def _end_date(self, start: str, term: str, unit: str) -> exp.Expression:
        """A row's end, its date plus its term ("signed_on + term_months"): a date text 'YYYY-MM-DD' in SQLite, a DATE
        in PostgreSQL. A month after 31 January is the last day of February in both (SQLite's DATE alone runs over
        into March: the smaller of that and the last day of the month the term ends in)."""
        day, count = self._text(start), exp.column(term, quoted=True)
        if unit in ("WEEK", "YEAR"):  # (as days and months: every dialect adds those)
            count = exp.Mul(this=count, expression=exp.Literal.number(7 if unit == "WEEK" else 12))
            unit = "DAY" if unit == "WEEK" else "MONTH"
        if self.dialect != "sqlite":
            return exp.cast(exp.DateAdd(this=exp.cast(day, "DATE"), expression=count, unit=exp.var(unit)), "DATE")

        def shifted(*modifiers: exp.Expression) -> exp.Expression:
            return exp.Anonymous(this="DATE", expressions=[day.copy(), *modifiers])

        def units(number: exp.Expression) -> exp.Expression:
            return exp.DPipe(this=exp.paren(number), expression=exp.Literal.string(f" {unit}"))

        if unit == "DAY":
            return shifted(units(count))
        month_end = shifted(exp.Literal.string("start of month"),
                            units(exp.Add(this=count.copy(), expression=exp.Literal.number(1))),
                            exp.Literal.string("-1 day"))
        return exp.Least(this=shifted(units(count)), expressions=[month_end])

    def _all_columns(self) -> list[str]:
        if self.columns:
            return list(self.columns)
        return [c for c in self.roles.as_dict().values() if isinstance(c, str)] + list(self.roles.numeric)

    def _text(self, column: str) -> exp.Expression:
        """The date column as text 'YYYY-MM-DD ...': as stored, cast, or converted from epoch numbers."""
        col = self._col(column)
        if column == self.roles.date and self.roles.date_unit:
            return date_text_sql(col, self.roles.date_unit, self.dialect)
        if ends_of(column) and self.dialect != "sqlite":  # (a DATE there; SQLite's DATE() is text already)
            return exp.cast(col, "TEXT")
        return col if self.date_is_text else exp.cast(col, "TEXT")

    def _shown(self, column: str, table: str | None = None) -> exp.Expression:
        """A column as a listing shows it (qualified by `table` when given): an epoch date as its date text, under
        the column's own name."""
        col = exp.column(column, table=table, quoted=True) if table else self._col(column)
        if column == self.roles.date and self.roles.date_unit:
            return exp.alias_(date_text_sql(col, self.roles.date_unit, self.dialect), column, quoted=True)
        if ends_of(column) and not isinstance(col, exp.Column):
            return exp.alias_(col, END_DATE_NAME, quoted=True)
        return col if isinstance(col, exp.Column) else exp.alias_(col, column, quoted=True)

    def _dimension(self, dimension: str, within_year: bool = False) -> tuple[exp.Expression, str]:
        """A grouping's expression and name; a quarter or half `within_year` ('Q1') when the year is its own group
        ("per quarter, 2023 vs 2022": each quarter's two years side by side, not '2022-Q1' beside 2022)."""
        if dimension == "quarter" and self.roles.date:
            return self._part_of_year(3, "Q", with_year=not within_year), "quarter"
        if dimension == "half" and self.roles.date:
            return self._part_of_year(6, "H", with_year=not within_year), "half"
        if dimension == "weekday" and self.roles.date:
            return self._weekday_name(), "weekday"
        if dimension == "hour" and self.roles.date:  # "what hour of the day": 0-23
            return self._hour(), "hour"
        column = dimension.removeprefix(HAS)
        held = (column in (self.roles.authors, self.roles.category, *self.roles.categorical)
                if dimension.startswith(HAS) else self.roles.authors if dimension.startswith(PEOPLE_SIDES)
                else dimension.startswith(NUMBER_SIDES) or self.roles.date)
        if is_two_sided(dimension) and held:
            # "with an author vs without one", "2 or more people", "weekend vs weekday": the side a row falls on
            test, yes, no = self._side_test(dimension)
            name = (f"has_{column}" if dimension.startswith(HAS) else "people" if dimension.startswith(PEOPLE_SIDES)
                    else f"{NUMBER_SIDE.match(column[len(NUMBER_SIDES):])['column']}_side"
                    if dimension.startswith(NUMBER_SIDES) else "days_of_week" if dimension.startswith(WEEKDAY_SIDES)
                    else dimension.split(":")[0])
            return exp.Case(ifs=[exp.If(this=test, true=exp.Literal.string(yes))], default=exp.Literal.string(no)), name
        if dimension.startswith(PERIODS) and self.roles.date:  # "the last 30 days vs the 30 days before"
            unit = self._epoch_unit(self.roles.date)
            return exp.Case(ifs=[exp.If(this=self._date_range(self._col(self.roles.date), start, end, unit),
                                        true=exp.Literal.string(name or period_label(start, end)))
                                 for start, end, name in periods_of(dimension)]), "period"
        if dimension == "week" and self.roles.date:
            return self._week(), "week"
        if dimension == "decade" and self.roles.date:  # "1990s"
            decade = exp.func("SUBSTR", self._text(self.roles.date), exp.Literal.number(1), exp.Literal.number(3))
            return exp.DPipe(this=decade, expression=exp.Literal.string("0s")), "decade"
        if dimension in DIMENSION_LENGTH and self.roles.date:
            expression = exp.func("SUBSTR", self._text(self.roles.date), exp.Literal.number(1),
                                  exp.Literal.number(DIMENSION_LENGTH[dimension]))
            return expression, dimension
        if dimension == "category" and self.roles.category:
            return self._col(self.roles.category), self.roles.category
        if dimension == "author" and self.roles.authors:
            return self._col(self.roles.authors), self.roles.authors
        if self._is_yes_no(dimension):
            return self._yes_no(dimension), dimension  # "verified vs not verified", not 1 and 0
        if dimension in self.roles.categorical or dimension in self.roles.numeric:  # a small scale ("per rating")
            return self._col(dimension), dimension
        if dimension == "title" and self.roles.title:  # "which headline was used twice": titles that repeat
            return self._col(self.roles.title), self.roles.title
        raise LookupError(f"the table has no column for {dimension}")

    def where(self, plan: QueryPlan, *, include_topic: bool) -> exp.Expression | None:
        plain = [c for c in plan.conditions if c.kind != "average"]
        parts = [self._condition(c) for c in plain]
        if include_topic and plan.topic:
            matches = [self._text_match(word) for word in text_match_words(plan.topic)]
            parts += [exp.paren(exp.or_(*matches))] if plan.topic_any and len(matches) > 1 else matches
        parts = [p for p in parts if p is not None]
        # "longer than the average article": the number against the average of the rows the other conditions match
        others = exp.and_(*parts) if parts else None
        for condition in (c for c in plan.conditions if c.kind == "average"):
            average = exp.select(exp.Avg(this=self._col(condition.column))).from_(self._table())
            operator = exp.GT if condition.op == ">" else exp.LT
            parts.append(operator(this=self._col(condition.column),
                                  expression=exp.paren(average.where(others.copy()) if others else average)))
        return exp.and_(*parts) if parts else None

    def _condition(self, condition: Condition) -> exp.Expression | None:
        col = self._col(condition.column)
        if condition.kind == "category":
            values = condition.value if isinstance(condition.value, list) else [condition.value]
            matched = (col.eq(exp.Literal.string(values[0])) if len(values) == 1
                       else col.isin(*(exp.Literal.string(v) for v in values)))
            if condition.op not in ("!=", "not in"):
                return matched
            # "everything except Electronics": rows with no value are not Electronics either (NOT (NULL = ...) is
            # unknown, which dropped them)
            return exp.paren(exp.or_(exp.Is(this=col.copy(), expression=exp.Null()), exp.not_(matched)))
        if condition.kind == "weekday":
            weekday = self._weekday().isin(*(exp.Literal.number(d) for d in condition.value))
            return exp.not_(weekday) if condition.op == "not in" else weekday
        if condition.kind == "month":  # a month of any year
            month = self._date_part("%m", "MONTH").isin(*(exp.Literal.number(m) for m in condition.value))
            return exp.not_(month) if condition.op == "not in" else month
        if condition.kind == "hour":
            compare = exp.LT if condition.op == "<" else exp.GTE
            return compare(this=self._hour(), expression=exp.Literal.number(condition.value))
        if condition.kind == "missing":
            empty = self._is_empty(col)
            return exp.not_(empty) if condition.op == "is not empty" else empty
        if condition.kind == "author" and condition.op == "in":
            return exp.paren(exp.or_(*(self._author_match(condition.column, name) for name in condition.value)))
        if condition.kind == "date_any":
            return exp.paren(exp.or_(*(self._date_range(col, start, end, self._epoch_unit(condition.column))
                                       for start, end in condition.value)))
        if condition.kind == "author":
            matched = self._author_match(condition.column, condition.value)
            if condition.op != "!=":
                return matched
            # not by this person: also rows with no one named (a NULL cell would make NOT (...) unknown)
            return exp.or_(exp.Is(this=self._col(condition.column), expression=exp.Null()), exp.not_(matched))
        if condition.kind == "author_like":
            return exp.func("LOWER", col).like(exp.Literal.string(f"%{_escape_like(condition.value.lower())}%"))
        if condition.kind == "date":
            period = self._date_range(col, *condition.value, self._epoch_unit(condition.column))
            if condition.op == "not between":  # outside the period (a row without a date is outside it too)
                return exp.or_(exp.Is(this=col.copy(), expression=exp.Null()), exp.not_(period))
            return period
        if condition.kind == "number" and condition.op == "in":
            return col.isin(*(exp.Literal.number(v) for v in condition.value))
        if condition.kind == "number":
            operator = {">": exp.GT, ">=": exp.GTE, "<": exp.LT, "<=": exp.LTE, "=": exp.EQ,
                        "!=": exp.NEQ}[condition.op]
            return operator(this=col, expression=exp.Literal.number(condition.value))
        if condition.kind == "text_like":  # one named text column ("whose subject mentions …"), else title and text
            if condition.column not in (self.roles.title, self.roles.content):
                found = self._text_match(str(condition.value))
            else:  # (words listed as alternatives: any of them)
                found = None
                for value in condition.value if isinstance(condition.value, list) else [condition.value]:
                    text = _escape_like(str(value).lower())
                    pattern = {"starts with": f"{text}%", "ends with": f"%{text}"}.get(condition.op, f"%{text}%")
                    like = exp.func("LOWER", col).like(exp.Literal.string(pattern))
                    found = like if found is None else exp.or_(found, like)
            # ("not counting the 'Explainer:' ones": left out; a row without text is kept)
            return exp.not_(exp.Coalesce(this=found, expressions=[exp.false()])) if condition.op == "not contains" \
                else found
        if condition.kind == "row_id":  # "ticket 17", "R-035871"
            values = condition.value if isinstance(condition.value, list) else [condition.value]
            literals = [exp.Literal.number(v) if isinstance(v, int) else exp.Literal.string(str(v)) for v in values]
            return col.eq(literals[0]) if len(literals) == 1 else col.isin(*literals)
        if condition.kind == "people_count":
            operator = {">": exp.GT, ">=": exp.GTE, "<": exp.LT, "<=": exp.LTE, "=": exp.EQ}[condition.op]
            return operator(this=self._people_in(col), expression=exp.Literal.number(condition.value))
        return None

    @staticmethod
    def _yes_word(column: str) -> str:
        """What a 1 in a 0/1 column says: 'verified' for verified_purchase (the first word of its name that is not a
        generic column word)."""
        words = [w for w in column.lower().split("_") if w and w not in GENERIC_COLUMN_WORDS] or [column.lower()]
        return words[0]

    def _is_yes_no(self, column: str) -> bool:
        return column in self.roles.numeric and self.profile.numeric_ranges.get(column) == (0.0, 1.0)

    def _yes_no(self, column: str) -> exp.Expression:
        """A 0/1 column as words: 'verified' / 'not verified' for verified_purchase, NULL left empty."""
        word = self._yes_word(column)
        col = self._col(column)
        return exp.Case(ifs=[exp.If(this=exp.EQ(this=col, expression=exp.Literal.number(1)),
                                    true=exp.Literal.string(word)),
                             exp.If(this=exp.EQ(this=col.copy(), expression=exp.Literal.number(0)),
                                    true=exp.Literal.string(f"not {word}"))])

    @staticmethod
    def _is_empty(value: exp.Expression) -> exp.Expression:
        """(value IS NULL OR TRIM(CAST(value AS TEXT)) = ''): no value, or only blanks."""
        blank = exp.EQ(this=exp.func("TRIM", exp.cast(value.copy(), "TEXT")), expression=exp.Literal.string(""))
        return exp.paren(exp.or_(exp.Is(this=value, expression=exp.Null()), blank))

    def _epoch_unit(self, column: str) -> str | None:
        return self.roles.date_unit if column == self.roles.date else None

    def _side_test(self, dimension: str) -> tuple[exp.Expression, str, str]:
        """A two-sided grouping as (the test, the label of the rows that pass, the label of the others)."""
        if dimension.startswith(PART_OF_DAY):
            hour = int(dimension[len(PART_OF_DAY):])
            before, after = (("before noon", "noon or later") if hour == 12 else
                             (f"before {hour:02d}:00", f"{hour:02d}:00 or later"))
            return exp.LT(this=self._hour(), expression=exp.Literal.number(hour)), before, after
        if dimension.startswith(HAS):  # ("with a named author and those without one")
            column = dimension.removeprefix(HAS)
            word = self._yes_word(column).removesuffix("s")
            return exp.Not(this=self._is_empty(self._col(column))), f"has {word}", f"no {word}"
        if dimension.startswith(NUMBER_SIDES):  # ("2,000 words or more vs under 2,000 words")
            side = NUMBER_SIDE.match(dimension[len(NUMBER_SIDES):])
            assert side
            column, value = side["column"], float(side["value"])
            bound = exp.Literal.number(f"{value:g}")
            name = column.replace("_", " ")
            if side["op"] == ">=":
                return exp.GTE(this=self._col(column), expression=bound), f"{name} {value:g} or more", \
                    f"{name} below {value:g}"
            return exp.GT(this=self._col(column), expression=bound), f"{name} above {value:g}", \
                f"{name} {value:g} or less"
        if dimension.startswith(WEEKDAY_SIDES):  # ("on a Friday vs Monday to Thursday")
            first, second = ([int(d) for d in days.split(",")] for days in dimension[len(WEEKDAY_SIDES):].split("/"))
            test = exp.In(this=self._weekday(), expressions=[exp.Literal.number(d) for d in first])
            return test, days_named(first), days_named(second)
        if dimension.startswith(PEOPLE_SIDES):
            least = int(dimension[len(PEOPLE_SIDES):])
            many = exp.GTE(this=self._people_in(self._col(self.roles.authors or "")),
                           expression=exp.Literal.number(least))
            return many, f"{least} or more", f"fewer than {least}"
        weekend = exp.In(this=self._weekday(), expressions=[exp.Literal.number(d) for d in WEEKEND])
        return weekend, "weekend", "weekday"

    @staticmethod
    def _date_range(col: exp.Expression, start: date, end: date, epoch_unit: str | None = None
                    ) -> exp.Expression | None:
        """start <= col < the day after end (open ends left out): text comparisons, or for an epoch column
        number comparisons with the epoch of those days (UTC midnight)."""
        def bound(day: date) -> exp.Expression:
            if epoch_unit:
                return exp.Literal.number(epoch_of_day(day, epoch_unit))
            return exp.Literal.string(day.isoformat())

        parts = []
        if start != date.min:
            parts.append(exp.GTE(this=col, expression=bound(start)))
        if end != date.max:
            parts.append(exp.LT(this=col, expression=bound(end + timedelta(days=1))))
        return exp.and_(*parts) if parts else None

    def _weekday_name(self) -> exp.Expression:
        """The day of the week by name ("Tuesday"): a grouping people read (groups keep the week's order, see
        `_group_order`)."""
        case = exp.Case(this=self._weekday())
        for number, name in enumerate(WEEKDAYS):
            case = case.when(exp.Literal.number(number), exp.Literal.string(name.capitalize()))
        return case

    def _group_order(self, dimension: str, name: str, week_start: int | None = None) -> exp.Expression:
        """How groups are ordered when nothing ranks them: by their value, days of the week Sunday first (or from
        the day the question starts the week on: "monday first")."""
        if dimension == "weekday" and self.roles.date:
            if week_start:
                shifted = exp.Add(this=exp.Min(this=self._weekday()), expression=exp.Literal.number(7 - week_start))
                return exp.Mod(this=exp.Paren(this=shifted), expression=exp.Literal.number(7))
            return exp.Min(this=self._weekday())
        if dimension.startswith(PERIODS) and self.roles.date:  # (periods named in words: "before 2023", "2023")
            return exp.Min(this=self._col(self.roles.date))
        return exp.column(name)

    def _hour(self) -> exp.Expression:
        """Hour of the day (0-23) of the date column, in the table's dialect."""
        return self._date_part("%H", "HOUR")

    def _weekday(self) -> exp.Expression:
        """Day of the week of the date column, 0 = Sunday .. 6 = Saturday, in the table's dialect."""
        return self._date_part("%w", "DOW")

    def _date_part(self, sqlite_format: str, field: str) -> exp.Expression:
        """A number from the date column: SQLite's STRFTIME(`sqlite_format`), elsewhere EXTRACT(`field`)."""
        assert self.roles.date
        if self.dialect == "sqlite":
            day = self._text(self.roles.date) if self.roles.date_unit else self._col(self.roles.date)
            part: exp.Expression = exp.func("STRFTIME", exp.Literal.string(sqlite_format), day)
        else:
            part = exp.Extract(this=exp.var(field), expression=exp.cast(self._text(self.roles.date), "TIMESTAMP"))
        return exp.cast(part, "INTEGER")

    def _week(self) -> exp.Expression:
        """The Monday that starts the date's week, as text 'YYYY-MM-DD', in the table's dialect."""
        assert self.roles.date
        text = self._text(self.roles.date)
        if self.dialect == "sqlite":  # the next Sunday (or the day itself), then six days back
            return exp.func("DATE", text, exp.Literal.string("weekday 0"), exp.Literal.string("-6 days"))
        monday = exp.func("DATE_TRUNC", exp.Literal.string("week"), exp.cast(text, "TIMESTAMP"))
        return exp.cast(exp.cast(monday, "DATE"), "TEXT")

    def _part_of_year(self, months: int, letter: str, with_year: bool = True) -> exp.Expression:
        """'YYYY-Qn' (months=3) or 'YYYY-Hn' (months=6) from the date column (text 'YYYY-MM-...' or a date),
        portable: substrings and arithmetic; 'Qn' / 'Hn' without `with_year`."""
        assert self.roles.date
        text = self._text(self.roles.date)
        month = exp.cast(exp.func("SUBSTR", text, exp.Literal.number(6), exp.Literal.number(2)), "INTEGER")
        # integer division on both sides ((month + 2) / 3): a cast of a real quotient rounds on PostgreSQL, which
        # put September in Q4
        number = exp.Div(this=exp.paren(exp.Add(this=month, expression=exp.Literal.number(months - 1))),
                         expression=exp.Literal.number(months), typed=True)
        year = exp.func("SUBSTR", text, exp.Literal.number(1), exp.Literal.number(4))
        if not with_year:
            return exp.DPipe(this=exp.Literal.string(letter), expression=exp.cast(number, "TEXT"))
        return exp.DPipe(this=exp.DPipe(this=year, expression=exp.Literal.string(f"-{letter}")),
                         expression=exp.cast(number, "TEXT"))

    def _author_match(self, column: str, name: str) -> exp.Expression:
        """Whole-name match inside a multi-author cell (so 'Jane Doe' never matches 'Jane Doerr')."""
        needle = _escape_like(name).replace(" ", "")
        return self._normalised_authors(self._col(column)).like(exp.Literal.string(f"%;{needle};%"))

    @staticmethod
    def _people_in(column: exp.Expression) -> exp.Expression:
        """How many names a cell holds: 0 when empty, else one more than its separators (';', ',' or '|')."""
        cell: exp.Expression = column.copy()
        for separator in (",", "|"):
            cell = exp.func("REPLACE", cell, exp.Literal.string(separator), exp.Literal.string(";"))
        separators = exp.Sub(this=exp.func("LENGTH", cell),
                             expression=exp.func("LENGTH", exp.func("REPLACE", cell.copy(), exp.Literal.string(";"),
                                                                     exp.Literal.string(""))))
        empty = exp.or_(exp.Is(this=column.copy(), expression=exp.Null()),
                        exp.EQ(this=exp.func("TRIM", column.copy()), expression=exp.Literal.string("")))
        return exp.Case(ifs=[exp.If(this=empty, true=exp.Literal.number(0))],
                        default=exp.Add(this=separators, expression=exp.Literal.number(1)))

    @staticmethod
    def _normalised_authors(column: exp.Expression) -> exp.Expression:
        """';' + the cell without spaces, ',' and '|' read as ';', + ';': 'Jane Doe; Bo Li' -> ';JaneDoe;BoLi;'."""
        cell: exp.Expression = exp.func("REPLACE", column, exp.Literal.string(" "), exp.Literal.string(""))
        for separator in (",", "|"):
            cell = exp.func("REPLACE", cell, exp.Literal.string(separator), exp.Literal.string(";"))
        return exp.DPipe(this=exp.DPipe(this=exp.Literal.string(";"), expression=cell),
                         expression=exp.Literal.string(";"))

    def _text_match(self, word: str) -> exp.Expression:
        """The rows whose title or text holds the word, in the singular or the plural ("ferries" finds "ferry")."""
        columns = [c for c in (self.roles.title, self.roles.content) if c]
        matches = [exp.func("LOWER", self._col(c)).like(exp.Literal.string(f"%{_escape_like(form)}%"))
                   for form in text_match_forms(word) for c in columns]
        return exp.or_(*matches) if len(matches) > 1 else matches[0]

    def _aggregate(self, plan: QueryPlan, where: exp.Expression | None,
                   counted: exp.Expression | None = None) -> exp.Select:
        """`counted`: the rows each group's count takes (all of the group's rows are read, see `answer_sql`)."""
        compared = self._contrasted_values(plan)
        if compared:
            return self._contrast(plan, where, [(self._condition(c), self._contrast_label(c)) for c in compared])
        sided = [d for d in plan.group_by if d != plan.contrast_per]
        if plan.contrast and len(sided) == 1 and is_two_sided(sided[0]):
            # ("… co-authored articles … than solo ones", and per section: "in which departments do the weekend
            # reviews come out ahead")
            test, yes, no = self._side_test(sided[0])
            sides = [(test, yes), (exp.Not(this=test.copy()), no)]
            return self._contrast(plan, where, sides[::-1] if plan.sides_reversed else sides)
        dated = plan.first_dated and any(c.kind in ("date", "date_any") for c in plan.conditions)
        if plan.distinct and (plan.group_size or plan.group_spread and not plan.group_by or dated):
            return self._sized_groups(plan, where)  # "how many brands have more than 150 reviews"
        if plan.count_per:
            return self._average_count(plan, where)
        if plan.distinct == "author" and self._people_joined:
            return self._distinct_people(plan, where)
        if plan.group_by == ["author"] and self._people_joined:
            return self._per_author(plan, where, counted)
        # "articles per author and year": each person named in a cell, not the cell ("A; B" is two people)
        people = ("author" in plan.group_by and self._people_joined
                  and plan.intent != "share")
        dims = [(exp.column(NAME_COLUMN, table="names"), "author") if d == "author" and people
                else self._grouping(d, within_year="year" in plan.group_by) for d in plan.group_by]
        value, value_name = self._value(plan, where) if counted is None else self._matching(counted)
        source = self._names_join() if people else exp.select().from_(self._table())
        query = source.select(*(exp.alias_(e, n) for e, n in dims), *self._group_sizes_shown(plan, bool(dims)),
                              exp.alias_(value, value_name), *self._also(plan, where))
        if where is not None:
            query = query.where(where)
        bound = plan.group_bound or plan.group_size
        if bound and not dims:  # "do sports pieces average over 800 words", "did Lumo get more than 200 reviews"
            op, number = bound  # (the average or the count, and whether it passes: yes or no)
            words = {">": "above", ">=": "at_least", "<": "below", "<=": "at_most", "=": "exactly"}[op]
            verdict = exp.Case(ifs=[exp.If(this=self._group_test(plan), true=exp.Literal.string("yes"))],
                               default=exp.Literal.string("no"))
            query = query.select(exp.alias_(verdict, f"{words}_{number}".replace(".", "_")))
        if dims:
            query = query.group_by(*(exp.column(n) for _, n in dims))
            tested = plan.group_size or plan.group_bound or plan.group_spread or plan.group_share
            # "which reviewers have reviews in more than three departments", "who has written the most": rows with no
            # reviewer are no one (an empty group was the answer to "who"; a date part of a dated row is never empty);
            # "rank depts by share of 1-star reviews": the rows with no department are no department to rank
            said = {c.column for c in plan.conditions if c.kind == "missing" and c.op == "is not empty"}
            named = [e for e, _ in dims if (tested or isinstance(e, exp.Column))
                     and not (isinstance(e, exp.Column) and e.name in said)]  # (not twice when the question says it)
            # (unless the empty group is named: "Put contracts with no region under 'No region'")
            if named and not plan.empty_label and (tested or plan.with_ties or plan.limit or plan.top_per
                                                   or plan.ranking):
                query = query.where(exp.and_(*(exp.not_(self._is_empty(e.copy())) for e in named)))
            if tested:
                query = query.having(self._group_test(plan, value if counted is not None else None, where))
            if plan.top_per:
                return self._top_within(query, dims, value, value_name, plan)
            if plan.with_ties:
                return self._top_with_ties(query, value_name, plan.order_most, [n for _, n in dims], nth=plan.nth,
                                           exact=self._exact(plan))
            if plan.ties_at_limit and plan.limit and plan.group_by:
                return self._top_with_ties_at_limit(query, value_name, plan, [n for _, n in dims])
            if plan.order_most or plan.limit or plan.order_least:
                # an average ranks by its exact value, not the rounded one shown (3.34 before 3.27, both "3.3")
                key = self._exact(plan) or exp.column(value_name)
                # (tied groups in the order of their names: "breaking ties alphabetically")
                query = query.order_by(exp.Ordered(this=key, desc=plan.order_most), *(exp.column(n) for _, n in dims))
            else:
                query = query.order_by(*(self._group_order(d, n, plan.week_start) for d, (_, n) in zip(
                    plan.group_by, dims, strict=True)))
            if plan.cumulative and isinstance(value, (exp.Count, exp.Sum)) and not plan.limit:
                # "running total of tickets opened month by month": each period's value added to those before it
                # (a window cannot see the SELECT's names: each group's own expression orders it)
                named = {n: e for e, n in dims}
                order = [named[o.name].copy() if isinstance(o, exp.Column) and o.name in named else o.copy()
                         for o in query.args["order"].expressions]
                running = exp.Window(this=exp.Sum(this=value.copy()), order=exp.Order(expressions=order))
                query = query.select(exp.alias_(running, f"running_{value_name}"))
        if plan.limit:
            query = query.limit(plan.limit)
        return query

    def _per_group(self, plan: QueryPlan, where: exp.Expression | None,
                   key_columns: list[str] | None = None) -> exp.Select:
        """The top `limit` rows of each group by the plan's ordering (newest, oldest, longest, highest ...), ties
        kept (RANK): "the longest article in each section", "the 2 newest tickets per agent". Rows without the
        ordering value are left out. With `key_columns`, only those columns of the rows (for follow-ups)."""
        dimension = plan.group_by[0]
        by_date = plan.intent in ("latest", "earliest")
        key = self.roles.date if by_date else plan.measure
        if not key:
            raise NotInTable(f"Table {self.table} has nothing to order its rows by for this question.")
        descending = plan.intent in ("latest", "longest", "max")
        # (each row with its labels: "the largest contract in each region and who it is with" shows the counterparty)
        grouped = {"category": self.roles.category, "author": self.roles.authors}.get(dimension, dimension)
        labels = [c for c in self._labels() if c != grouped]
        shown = key_columns or [c for c in (self._row_id(), self.roles.title, self.roles.date, *labels, key,
                                            self.roles.url) if c]
        shown = list(dict.fromkeys(shown))
        if dimension == "author" and self._people_joined:
            source: exp.Select = self._names_join()
            group, name = exp.column(NAME_COLUMN, table="names"), "author"
            columns = [exp.column(c, table=self.table, quoted=True) if key_columns else self._shown(c, self.table)
                       for c in shown]  # row keys as stored (key_of reads them); dates shown as text
            ordered = exp.column(key, table=self.table, quoted=True)
        else:
            group, name = self._grouping(dimension)
            source = exp.select().from_(self._table())
            columns = [self._col(c) if key_columns else self._shown(c) for c in shown]
            ordered = self._col(key)
        rank = exp.Window(this=exp.Anonymous(this="RANK"), partition_by=[group.copy()],
                          order=exp.Order(expressions=[exp.Ordered(this=ordered.copy(), desc=descending)]))
        projected = [] if key_columns else [exp.alias_(group.copy(), name)]
        inner = source.select(*projected, *columns, exp.alias_(rank, "rank_in_group"))
        # rows without the ordering value, or without a group ("in each department"), are in no group's top
        present = exp.and_(exp.Not(this=exp.Is(this=ordered.copy(), expression=exp.Null())),
                           exp.Not(this=exp.Is(this=group.copy(), expression=exp.Null())))
        inner = inner.where(exp.and_(where, present) if where is not None else present)
        query = exp.select(*([] if key_columns else [exp.column(name)]), *(exp.column(c) for c in shown)).from_(
            exp.Subquery(this=inner, alias=exp.TableAlias(this=exp.to_identifier("ranked"))))
        query = query.where(exp.LTE(this=exp.column("rank_in_group"), expression=exp.Literal.number(plan.limit or 1)))
        order = [exp.column("rank_in_group")] if key_columns else [exp.column(name), exp.column("rank_in_group")]
        return query.order_by(*order).limit(LIST_LIMIT * 10)

    def _distinct_people(self, plan: QueryPlan, where: exp.Expression | None) -> exp.Select:
        """"How many different authors": the known names that some matching row names (a cell may name several)."""
        dims = [self._grouping(d) for d in plan.group_by]
        counted = exp.Count(this=exp.Distinct(expressions=[exp.column(NAME_COLUMN, table="names")]))
        query = self._names_join().select(*(exp.alias_(e, n) for e, n in dims), exp.alias_(counted, "author_count"))
        if where is not None:
            query = query.where(where)
        if dims:
            query = query.group_by(*(e for e, _ in dims)).order_by(*(exp.column(n) for _, n in dims))
        return query

    @staticmethod
    def _contrasted_values(plan: QueryPlan) -> list[Condition]:
        """For a contrast ("how many more five-star than one-star"): the compared condition split into one condition
        per value, in the question's order; [] when the plan has none (or no longer one: a chip was removed)."""
        if not plan.contrast:
            return []
        compared = [c for c in plan.conditions if isinstance(c.value, list) and len(c.value) == 2
                    and (c.op == "in" or c.kind == "weekday")]
        if len(compared) != 1:
            return []
        return [dataclasses.replace(compared[0], value=[value]) for value in compared[0].value]

    def _contrast(self, plan: QueryPlan, where: exp.Expression | None,
                  compared: list[tuple[exp.Expression, str]]) -> exp.Select:
        """One row: each compared value's count (average, total) as "article_count (2023-Q2)", their difference, and
        for a yes/no question whether the first is more (less) than the second, as "2023-Q2 more than 2023-Q1".
        `compared`: the test each compared value's rows pass, and the value's label."""
        _, value_name = self._value(plan, None)
        measure = self._col(plan.measure) if plan.measure and plan.intent in ("avg", "sum") else None
        values = []
        for matched, _ in compared:
            if measure is None:
                value = exp.Sum(this=exp.Case(ifs=[exp.If(this=matched, true=exp.Literal.number(1))],
                                              default=exp.Literal.number(0)))
            else:
                value = exp.Case(ifs=[exp.If(this=matched, true=measure.copy())])
                value = exp.Avg(this=value) if plan.intent == "avg" else exp.Sum(this=value)
            values.append(value)
        # ("which sections published more in Q2 than in Q1": the two values of each section)
        # (each person named in a cell, as for "tickets per agent")
        people = plan.contrast_per == "author" and self._people_joined
        # ("for each calendar quarter, 2022 versus the same quarter of 2023": the quarter within the year, which
        # both years have; '2022-Q1' held only one of them)
        years = {c.value[0][0].year for c in self._contrasted_values(plan)
                 if c.kind in ("date", "date_any") and isinstance(c.value[0], tuple)}
        group = (exp.column(NAME_COLUMN, table="names"), "author") if people else \
            self._grouping(plan.contrast_per, within_year=len(years) > 1) if plan.contrast_per else None
        source = self._names_join() if people else exp.select().from_(self._table())
        inner = source.select(*([exp.alias_(group[0], group[1])] if group else []),
                              *(exp.alias_(v, name) for v, name in zip(values, CONTRASTED, strict=True)))
        inner = inner.where(where) if where is not None else inner
        inner = inner.group_by(exp.column(group[1])) if group else inner
        first, second = (exp.column(name) for name in CONTRASTED)
        difference = (exp.Sub(this=second.copy(), expression=first.copy()) if plan.contrast == "shortfall"
                      else exp.Sub(this=first.copy(), expression=second.copy()))  # (how far the first falls short)
        difference = exp.Abs(this=difference) if plan.contrast == "gap" else difference  # (how far apart)
        if plan.contrast == "ratio":  # ("5 star reviews per 1 star review"): the first per one of the second
            per_one = exp.Div(this=exp.Mul(this=exp.Literal.number("1.0"), expression=first.copy()),
                              expression=exp.Nullif(this=second.copy(), expression=exp.Literal.number(0)))
            difference = exp.func("ROUND", per_one, exp.Literal.number(DECIMALS))
        shown = [exp.func("ROUND", v, exp.Literal.number(DECIMALS)) if plan.intent == "avg" else v
                 for v in (first, second, difference)]
        labels = [label for _, label in compared]
        # ("which agent's count fell the most": how far each group's value fell, the largest first)
        moved = {"fell": "decrease", "rose": "increase", "both": "change"}.get(
            plan.contrast_ranked, "ratio" if plan.contrast == "ratio" else "difference")
        query = exp.select(*([exp.column(group[1])] if group else []),
                           exp.alias_(shown[0], f"{value_name} ({labels[0]})", quoted=True),
                           exp.alias_(shown[1], f"{value_name} ({labels[1]})", quoted=True),
                           exp.alias_(shown[2], moved))
        if plan.change_percent:  # ("by what percentage did it change"): the difference over the second value
            hundred = exp.Literal.number("100.0")
            percent = exp.Div(this=exp.Mul(this=hundred, expression=exp.Paren(this=difference.copy())),
                              expression=exp.Nullif(this=second.copy(), expression=exp.Literal.number(0)))
            query = query.select(exp.alias_(exp.func("ROUND", percent, exp.Literal.number(DECIMALS)),
                                            f"{moved}_pct"))
        if plan.contrast in (">", "<"):
            test = (exp.GT if plan.contrast == ">" else exp.LT)(this=first.copy(), expression=second.copy())
            verdict = exp.Case(ifs=[exp.If(this=test, true=exp.Literal.string("yes"))],
                               default=exp.Literal.string("no"))
            words = "more" if plan.contrast == ">" else "less"
            if not plan.contrast_only:  # (the groups kept are those where it is)
                query = query.select(exp.alias_(verdict, f"{labels[0]} {words} than {labels[1]}", quoted=True))
        query = query.from_(exp.Subquery(this=inner, alias=exp.TableAlias(this=exp.to_identifier("compared"))))
        if group and plan.contrast_only and plan.contrast in (">", "<"):
            query = query.where(test)
        if group and plan.contrast_ranked:
            return self._ranked_ends(query, moved, group[1], plan.limit or 1, both=plan.contrast_ranked == "both")
        if group and plan.order_most:  # ("…, biggest increase first")
            return query.order_by(exp.Ordered(this=exp.column(moved), desc=True), exp.column(group[1]))
        return query.order_by(exp.column(group[1])) if group else query

    @staticmethod
    def _ranked_ends(query: exp.Select, key: str, group: str, limit: int, both: bool) -> exp.Select:
        """The top `limit` groups by `key`, ties kept ("which agent's count fell the most"), and with `both` the
        bottom ones too ("which rose the most, and which fell the most"); the highest first. A group without a value
        in one of the periods has no change and is not ranked (every dialect would rank its NULL at one end)."""
        moved = next(e.this for e in query.expressions if e.alias_or_name == key)  # (a window cannot read an alias)
        query = query.where(exp.Not(this=exp.Is(this=moved.copy(), expression=exp.Null())))
        ends = [(True, "rank_from_top"), (False, "rank_from_bottom")][:2 if both else 1]
        ranks = [exp.alias_(exp.Window(this=exp.Anonymous(this="RANK"), order=exp.Order(
            expressions=[exp.Ordered(this=moved.copy(), desc=desc)])), name) for desc, name in ends]
        ranked = exp.Subquery(this=query.select(*ranks), alias=exp.TableAlias(this=exp.to_identifier("ranked")))
        shown = [e.alias_or_name for e in query.expressions]
        kept = exp.or_(*(exp.LTE(this=exp.column(name), expression=exp.Literal.number(limit)) for _, name in ends))
        return exp.select(*(exp.column(name) for name in shown)).from_(ranked).where(kept).order_by(
            exp.Ordered(this=exp.column(key), desc=True), exp.column(group))

    def _contrast_label(self, condition: Condition) -> str:
        """How a compared value is named in the answer: the value, a person, "rating 5", "2023-Q2", "Monday"."""
        value = condition.value[0]
        if condition.kind == "date_any":
            return period_label(*value)
        if condition.kind == "weekday":
            return WEEKDAYS[value].capitalize()
        if condition.kind == "number" and self._is_yes_no(condition.column) and value in (0, 1):
            return self._yes_word(condition.column) if value == 1 else f"not {self._yes_word(condition.column)}"
        if condition.kind == "number":
            return f"{condition.column} {value:g}" if isinstance(value, float) else f"{condition.column} {value}"
        return str(value)

    def _group_test(self, plan: QueryPlan, count: exp.Expression | None = None,
                    where: exp.Expression | None = None) -> exp.Expression:
        """What a group must pass: COUNT(*) <op> n, the rows it has ("brands with more than 150 reviews"; `count`: the
        group's rows that match, when all of them are read), and/or AVG(measure) or SUM(measure) <op> n ("sections that
        averaged more than 850 words", "authors with more than 4,000 words in total")."""
        kinds = {">": exp.GT, ">=": exp.GTE, "<": exp.LT, "<=": exp.LTE, "=": exp.EQ}
        tests = []
        if plan.group_size:
            op, number = plan.group_size
            tests.append(kinds[op](this=count.copy() if count is not None else exp.Count(this=exp.Star()),
                                   expression=exp.Literal.number(number)))
        if plan.group_spread:  # "writers with a byline in more than one section"
            dimension, op, number = plan.group_spread
            column, _ = self._dimension(dimension)
            tests.append(kinds[op](this=exp.Count(this=exp.Distinct(expressions=[column])),
                                   expression=exp.Literal.number(number)))
        if plan.group_share:  # "sections with at least a quarter of their stories co-written"
            op, percent = plan.group_share
            share, _ = self._value(plan, where)
            tests.append(kinds[op](this=share, expression=exp.Literal.number(percent)))
        if plan.group_bound and plan.measure:
            op, number = plan.group_bound
            # (no number: the average over all the matching rows, "sections that run longer than the overall average")
            overall = exp.select(exp.Avg(this=self._col(plan.measure))).from_(self._table())
            bound = exp.Literal.number(number) if number is not None else exp.Subquery(
                this=overall.where(where) if where is not None else overall)
            # ("has jonah written more than 4,000 words in total": each group's total)
            statistic = exp.Sum if plan.intent == "sum" else exp.Avg
            tests.append(kinds[op](this=statistic(this=self._col(plan.measure)), expression=bound))
        return exp.and_(*tests)

    def _average_count(self, plan: QueryPlan, where: exp.Expression | None) -> exp.Select:
        """"Average number of open tickets per agent": the matching rows divided by the number of agents in the period
        asked about (the dates define who counts; the other conditions only narrow the rows), so an agent without an
        open ticket counts as 0. A row naming several people counts once for each."""
        period = QueryPlan(question=plan.question, conditions=[c for c in plan.conditions
                                                               if c.kind in ("date", "date_any", "weekday", "month")])
        period_where = self.where(period, include_topic=False)
        if plan.count_per == "author" and self._people_joined:
            key: exp.Expression = exp.column(NAME_COLUMN, table="names")
            rows, groups = self._names_join(), self._names_join()
            name = self.roles.authors
        else:
            key, name = self._grouping(plan.count_per)
            rows, groups = exp.select().from_(self._table()), exp.select().from_(self._table())
        groups = groups.select(exp.Count(this=exp.Distinct(expressions=[key])))
        if period_where is not None:
            groups = groups.where(period_where)
        if plan.group_by:
            # "how many tickets a month does each agent pick up": each group's rows over the units of the period
            source, group, group_name = self._group_source(plan.group_by[0])
            ratio = exp.Div(this=exp.Mul(this=exp.Literal.number("1.0"), expression=exp.Count(this=exp.Star())),
                            expression=exp.func("NULLIF", exp.Subquery(this=groups), exp.Literal.number(0)))
            value_name = f"avg_{self._entity()}s_per_{name}"
            query = source.select(exp.alias_(group, group_name),
                                  exp.alias_(exp.func("ROUND", ratio, exp.Literal.number(DECIMALS)), value_name))
            query = query.where(exp.and_(*(e for e in (where, exp.not_(self._is_empty(group.copy()))) if e)))
            return query.group_by(exp.column(group_name)).order_by(
                exp.Ordered(this=exp.column(value_name), desc=True), exp.column(group_name))
        if plan.intent == "median":
            # "median number of tickets per agent": each group's matching rows (0 for a group of the period without
            # one), then the median of those counts
            matching = exp.Case(ifs=[exp.If(this=where, true=exp.Literal.number(1))],
                                default=exp.Literal.number(0)) if where is not None else exp.Literal.number(1)
            counts = groups.select(exp.alias_(key.copy(), "rag_group"), exp.alias_(exp.Sum(this=matching), "n"),
                                   append=False).group_by(exp.column("rag_group"))
            counts = counts.where(exp.not_(self._is_empty(key.copy())), append=period_where is not None)
            median = exp.func("ROUND", exp.Median(this=exp.column("n")), exp.Literal.number(DECIMALS))
            return exp.select(exp.alias_(median, f"median_{self._entity()}s_per_{name}")).from_(
                exp.Subquery(this=counts, alias=exp.TableAlias(this=exp.to_identifier("counts"))))
        # ("on average, how much contract value did we sign per month": the total of the measure, not the rows)
        total = exp.Sum(this=self._col(plan.measure)) if plan.measure else exp.Count(this=exp.Star())
        rows = rows.select(total)
        if where is not None:
            rows = rows.where(where)
        units = self._calendar_units(plan)
        divisor = exp.Literal.number(units) if units else exp.func("NULLIF", exp.Subquery(this=groups),
                                                                   exp.Literal.number(0))
        ratio = exp.Div(this=exp.Mul(this=exp.Literal.number("1.0"), expression=exp.Subquery(this=rows)),
                        expression=divisor)
        value_name = f"avg_{plan.measure}_per_{name}" if plan.measure else f"avg_{self._entity()}s_per_{name}"
        return exp.select(exp.alias_(exp.func("ROUND", ratio, exp.Literal.number(DECIMALS)), value_name))

    def _calendar_units(self, plan: QueryPlan) -> int | None:
        """The number of years, quarters, months or days of the period asked about, as the calendar has them,
        within the table's dates ("articles per month from October 2022 through June 2023" divides by 9, a month with
        no article included; it divided by the months that had one); None when no single period is said."""
        periods = [c.value for c in plan.conditions if c.kind == "date" and c.op == "between"
                   and isinstance(c.value, tuple) and len(c.value) == 2]
        # (not weeks: a year is 52 weeks and a day, a period's weeks are a convention)
        if plan.count_per not in ("year", "quarter", "month", "day") or len(periods) != 1:
            return None
        start, end = periods[0]
        first, last = (date.fromisoformat(d[:10]) if d else None
                       for d in (self.profile.date_min, self.profile.date_max))
        start, end = max(start, first) if first else start, min(end, last) if last else end
        if end < start:
            return None
        months = (end.year - start.year) * 12 + end.month - start.month
        return {"year": end.year - start.year + 1, "quarter": (end.year * 4 + (end.month - 1) // 3)
                - (start.year * 4 + (start.month - 1) // 3) + 1, "month": months + 1,
                "day": (end - start).days + 1}[plan.count_per]

    def _sized_groups(self, plan: QueryPlan, where: exp.Expression | None) -> exp.Select:
        """"How many brands have more than 150 reviews": the groups whose row count passes, counted (a person named
        in a multi-author cell counts in each of the groups of their names)."""
        if plan.distinct == "author" and self._people_joined:
            key: exp.Expression = exp.column(NAME_COLUMN, table="names")
            groups = self._names_join().select(key)
            name = "author"
        else:
            key, name = self._dimension(plan.distinct)
            groups = exp.select(key).from_(self._table())
        tests = [self._group_test(plan)] if plan.group_size or plan.group_spread else []
        if plan.first_dated:
            # ("how many brand-new counterparties in 2024": the period picks each value's first row, the other
            # conditions the rows read)
            dated = [c for c in plan.conditions if c.kind in ("date", "date_any")]
            where = self.where(dataclasses.replace(plan, conditions=[c for c in plan.conditions if c not in dated]),
                               include_topic=True)
            date = self.roles.date
            tests += [self._condition(c).transform(lambda node: exp.Min(this=node.copy()) if isinstance(
                node, exp.Column) and node.name == date else node) for c in dated]
            present = exp.not_(self._is_empty(key.copy()))  # (rows with no value are no one's first)
            where = exp.and_(where, present) if where is not None else present
        if where is not None:
            groups = groups.where(where)
        # ("on how many different days did we publish at least one article, for each quarter": counted per quarter)
        outer = [self._dimension(d) for d in plan.group_by if d != plan.distinct]
        groups = groups.select(*(exp.alias_(e, n) for e, n in outer)).group_by(key, *(e.copy() for e, _ in outer))
        groups = groups.having(exp.and_(*tests)) if tests else groups
        counted = exp.select(*(exp.column(n) for _, n in outer), exp.alias_(exp.Count(this=exp.Star()),
                                                                             f"{name}_count"))
        counted = counted.from_(exp.Subquery(this=groups, alias=exp.TableAlias(this=exp.to_identifier("sized"))))
        if outer:
            counted = counted.group_by(*(exp.column(n) for _, n in outer)).order_by(*(exp.column(n) for _, n in outer))
        return counted

    def _groups_without(self, plan: QueryPlan, where: exp.Expression,
                        kept: exp.Expression | None = None) -> exp.Select:
        """The groups of every row of the table (or of the rows `kept` selects) none of whose rows match `where`
        ("which agents have never had an urgent ticket"): grouped without the conditions, kept when the count of their
        matching rows is 0."""
        dimension = plan.group_by[0]
        source, group, name = self._group_source(dimension)
        matching = exp.Sum(this=exp.Case(ifs=[exp.If(this=where, true=exp.Literal.number(1))],
                                         default=exp.Literal.number(0)))
        present = exp.Not(this=exp.Is(this=group.copy(), expression=exp.Null()))  # rows without a group are none
        if kept is not None:
            present = exp.and_(present, kept)
        none = exp.EQ(this=matching, expression=exp.Literal.number(0))
        # ("Of the companies we have twenty or more contracts with, which ones have never had one terminated?": the
        # groups' own test, on all their rows)
        tested = plan.group_size or plan.group_bound or plan.group_spread
        # ("…, and how many tickets did each of them handle in total?": each group's rows beside its name)
        counts = [exp.alias_(exp.Count(this=exp.Star()), f"{self._entity()}_count")] if (
            "count", None) in plan.also else []
        return (source.select(exp.alias_(group, name), *counts).where(present).group_by(exp.column(name))
                .having(exp.and_(none, self._group_test(plan)) if tested else none)
                .order_by(self._group_order(dimension, name, plan.week_start)))

    def _group_source(self, dimension: str) -> tuple[exp.Select, exp.Expression, str]:
        """(FROM, group expression, its name) of one grouping: each person named in a cell for the author."""
        if dimension == "author" and self._people_joined:
            return self._names_join(), exp.column(NAME_COLUMN, table="names"), "author"
        group, name = self._grouping(dimension)
        return exp.select().from_(self._table()), group, name

    @property
    def _people_joined(self) -> bool:
        """Whether each person named in a cell is counted on their own (`_names_join`): the table has a person column
        and few enough known names to list ("A; B" is two people)."""
        return bool(self.roles.authors) and 0 < len(self.profile_authors) <= MAX_AUTHOR_UNION

    def _names_join(self) -> exp.Select:
        """FROM the known author names (a small derived table `names`) JOIN the table on a whole-name match."""
        names: exp.Expression = exp.select(exp.alias_(exp.Literal.string(self.profile_authors[0]), NAME_COLUMN))
        for name in self.profile_authors[1:]:
            names = exp.union(names, exp.select(exp.Literal.string(name)), distinct=False)
        cell = self._normalised_authors(exp.column(self.roles.authors, table=self.table, quoted=True))
        wanted = exp.DPipe(this=exp.DPipe(this=exp.Literal.string("%;"), expression=exp.func(
            "REPLACE", exp.column(NAME_COLUMN, table="names"), exp.Literal.string(" "), exp.Literal.string(""))),
            expression=exp.Literal.string(";%"))
        return exp.select().from_(exp.Subquery(this=names, alias=exp.TableAlias(this=exp.to_identifier("names")))
                                  ).join(self._table(), on=cell.like(wanted))

    def _top_within(self, grouped: exp.Select, dims: list[tuple[exp.Expression, str]], value: exp.Expression,
                    value_name: str, plan: QueryPlan) -> exp.Select:
        """The top `limit` groups within each value of `plan.top_per`, ties kept (RANK): "for each department, which
        brand has the most reviews", "the top 2 brands in each department". An average ranks by its exact value."""
        within, name = dims[plan.group_by.index(plan.top_per)]
        key = self._exact(plan) or value.copy()
        rank = exp.Window(this=exp.Anonymous(this="RANK"), partition_by=[within.copy()],
                          order=exp.Order(expressions=[exp.Ordered(this=key, desc=plan.order_most)]))
        ranked = exp.Subquery(this=grouped.select(exp.alias_(rank, "rank_in_group")),
                              alias=exp.TableAlias(this=exp.to_identifier("ranked")))
        others = [n for _, n in dims if n != name]  # the grouping within which the ranking is made comes first
        query = exp.select(*(exp.column(n) for n in [name, *others, value_name])).from_(ranked)
        # ("in each department": rows without a department are in none of them)
        query = query.where(exp.and_(exp.LTE(this=exp.column("rank_in_group"),
                                             expression=exp.Literal.number(plan.limit or 1)),
                                     exp.Not(this=exp.Is(this=exp.column(name), expression=exp.Null()))))
        return query.order_by(exp.column(name), exp.column("rank_in_group"), *(exp.column(n) for n in others))

    def _top_with_ties(self, grouped: exp.Select, value_name: str, most: bool, order: list[str],
                       exact: exp.Expression | None = None, nth: int | None = None) -> exp.Select:
        """Every group whose value equals the best one ("who wrote the most" can be several people), or with `nth`
        the n-th distinct value ("the 2nd busiest assignee", "the runner-up brand"). With `exact` (an average, shown
        rounded), groups are compared on the exact value: 2.96 is lower than 3.04, both shown 3.0."""
        shown: list[exp.Expression] = [exp.Star()]
        compared = value_name
        if exact is not None:
            shown, compared = [exp.column(n) for n in grouped.named_selects], "exact_value"
            grouped = grouped.select(exp.alias_(exact, "exact_value"))
        ranked = exp.Subquery(this=grouped.copy(), alias=exp.TableAlias(this=exp.to_identifier("ranked")))
        best = exp.select((exp.Max if most else exp.Min)(this=exp.column(compared))).from_(ranked)
        if nth and nth > 1:
            best = exp.select(exp.column(compared)).distinct().from_(ranked).order_by(
                exp.Ordered(this=exp.column(compared), desc=most)).limit(1).offset(nth - 1)
        query = exp.select(*shown).from_(
            exp.Subquery(this=grouped, alias=exp.TableAlias(this=exp.to_identifier("grouped"))))
        query = query.where(exp.EQ(this=exp.column(compared), expression=exp.Subquery(this=best)))
        return query.order_by(*(exp.column(n) for n in order))

    def _top_with_ties_at_limit(self, grouped: exp.Select, value_name: str, plan: QueryPlan,
                                order: list[str]) -> exp.Select:
        """The top `plan.limit` groups and every group tied with the last of them ("which 3 managers signed the
        most? If several are tied for third place list all of them": four when two share third place), by rank
        (RANK() <= limit), best first, tied groups by name. An average ranks by its exact value."""
        names = list(grouped.named_selects)
        key = self._exact(plan)
        if key is not None:
            grouped = grouped.select(exp.alias_(key, "exact_value"))
        compared = "exact_value" if key is not None else value_name
        most = plan.order_most  # (a limit without "most" ranks the fewest first, as `_aggregate` orders them)
        place = exp.Window(this=exp.Anonymous(this="RANK"), order=exp.Order(expressions=[
            exp.Ordered(this=exp.column(compared), desc=most)]))
        ranked = exp.select(exp.Star(), exp.alias_(place, "place")).from_(
            exp.Subquery(this=grouped, alias=exp.TableAlias(this=exp.to_identifier("grouped"))))
        return exp.select(*(exp.column(n) for n in names)).from_(
            exp.Subquery(this=ranked, alias=exp.TableAlias(this=exp.to_identifier("ranked")))).where(
            exp.LTE(this=exp.column("place"), expression=exp.Literal.number(plan.limit))).order_by(
            exp.column("place"), *(exp.column(n) for n in order))

    def _group_sizes_shown(self, plan: QueryPlan, grouped: bool = True) -> list[exp.Expression]:
        """The counts a value is read with, before it (the value stays the last column, which the answer and the
        chart read): the part's rows and the whole's rows beside a share of rows ("33.3%: 4 of 12"; a count asked
        beside the share is the whole, shown here); each group's rows beside a grouped average or median ("average
        length per section": n per section) and when groups were kept by their size ("among brands with at least
        100 reviews, which average below 3.7"), so the test can be seen. Not when the question asked for the count
        itself (`plan.also`); of one average, none."""
        if plan.distinct or plan.count_per:
            return []
        count, name = self._value(QueryPlan(question=plan.question), None)
        if plan.intent == "share" and not plan.share_of_measure:
            if plan.share_within_groups:  # (the query reads the whole: each group's rows; the part is counted)
                matching = self._part_of_group(plan, exp.Literal.number(1))
                return [exp.alias_(matching, f"matching_{name}"), exp.alias_(count, name)]
            # (the query reads the part: the one value's, or each group's, rows; the whole is all the rows it is of)
            return [exp.alias_(count, f"matching_{name}"), exp.alias_(self._share_total(plan), name)]
        if any(intent == "count" for intent, _ in plan.also):
            return []
        if plan.group_size and plan.intent != "count" or grouped and plan.intent in ("avg", "median"):
            return [exp.alias_(count, name)]
        return []

    def _exact(self, plan: QueryPlan) -> exp.Expression | None:
        """The unrounded value of an average or a median, to rank groups by (the rounded one is shown)."""
        if plan.intent == "median" and plan.measure:
            return exp.Median(this=self._col(plan.measure))
        return exp.Avg(this=self._col(plan.measure)) if plan.intent == "avg" and plan.measure else None

    def _grouping(self, dimension: str, within_year: bool = False) -> tuple[exp.Expression, str]:
        """A group-by the table can give; "per year" on a table without a date is said, never dropped."""
        try:
            return self._dimension(dimension, within_year)
        except LookupError as error:
            role = ROLE_OF_DIMENSION.get(dimension, dimension)
            raise NotInTable(f"Table {self.table} has no {role.rstrip('s')} column, so results cannot be split per "
                             f"{dimension}. Ask without 'per {dimension}', or name the column that holds it with "
                             f"RAG_COLUMN_ROLES (for example {role}=<column>).") from error

    def _value(self, plan: QueryPlan, where: exp.Expression | None) -> tuple[exp.Expression, str]:
        measure = self._col(plan.measure) if plan.measure else None
        if plan.intent == "avg" and measure is not None:
            return exp.func("ROUND", exp.Avg(this=measure), exp.Literal.number(DECIMALS)), f"avg_{plan.measure}"
        if plan.intent == "median" and measure is not None:
            return exp.func("ROUND", exp.Median(this=measure), exp.Literal.number(DECIMALS)), f"median_{plan.measure}"
        if plan.intent == "sum" and measure is not None:
            return exp.Sum(this=measure), f"total_{plan.measure}"
        if plan.intent in ("max", "longest") and measure is not None:
            return exp.Max(this=measure), f"max_{plan.measure}"
        if plan.intent in ("min", "shortest") and measure is not None:
            return exp.Min(this=measure), f"min_{plan.measure}"
        if plan.intent == "range" and measure is not None:  # "the gap between the longest and the shortest"
            return exp.Sub(this=exp.Max(this=measure), expression=exp.Min(this=measure.copy())), f"range_{plan.measure}"
        if plan.share_within_groups:
            # "what percent of each department's reviews are unverified": the part's rows over the group's rows
            # (the query reads only the whole, see `_scope`)
            shared = self._shared(plan)  # (1 per row, or the measure: "what share of each section's words")
            share = exp.Mul(this=exp.Literal.number("100.0"), expression=self._part_of_group(plan, shared))
            whole = exp.Sum(this=shared.copy()) if plan.share_of_measure else exp.Count(this=exp.Star())
            return self._share_ratio(plan, share, whole), "share_pct"
        if plan.intent == "share":
            # "what share of 2023 articles are politics": the whole (2023) population is the denominator;
            # the category or author asked about only narrows the numerator.
            amount = exp.Sum(this=self._shared(plan)) if plan.share_of_measure else exp.Count(this=exp.Star())
            share = exp.Mul(this=exp.Literal.number("100.0"), expression=amount)
            return self._share_ratio(plan, share, self._share_total(plan)), "share_pct"
        if plan.distinct:  # "how many brands": the number of different values (people: see _distinct_people)
            column, name = self._dimension(plan.distinct)
            return exp.Count(this=exp.Distinct(expressions=[column])), f"{name}_count"
        return exp.Count(this=exp.Star()), f"{self._entity()}_count"

    def _part_of_group(self, plan: QueryPlan, shared: exp.Expression) -> exp.Expression:
        """SUM(CASE WHEN <the share's part> THEN shared ELSE 0 END): the part of a group's rows (shared = 1) or of
        their measure, when a query reads the whole (a share taken within each group)."""
        part = self.where(QueryPlan(question=plan.question, conditions=plan.share_part()), include_topic=False)
        return exp.Sum(this=exp.Case(ifs=[exp.If(this=part, true=shared)], default=exp.Literal.number(0)))

    def _share_total(self, plan: QueryPlan) -> exp.Expression:
        """The whole of a share that is not taken within each group: the rows (or the measure's total) of the whole's
        conditions, a subquery ("what share of 2023 articles are politics": all 2023 articles)."""
        base = plan if plan.group_by else QueryPlan(question=plan.question, conditions=plan.share_whole)
        base_where = self.where(base if not plan.topic_in_whole else dataclasses.replace(base, topic=plan.topic),
                                include_topic=bool(plan.group_by) or plan.topic_in_whole)
        amount = exp.Sum(this=self._shared(plan)) if plan.share_of_measure else exp.Count(this=exp.Star())
        total = exp.select(amount).from_(self._table())
        return exp.Subquery(this=total.where(base_where) if base_where is not None else total)

    @staticmethod
    def _share_ratio(plan: QueryPlan, part: exp.Expression, whole: exp.Expression) -> exp.Expression:
        """ROUND(part / whole, 2); for a share of a measure a total of 0 is no share (NULL), and the ratio is typed so
        that PostgreSQL rounds a numeric (it has no ROUND(double precision, integer))."""
        if plan.share_of_measure:
            ratio: exp.Expression = exp.cast(exp.Div(this=part, expression=exp.func(
                "NULLIF", whole, exp.Literal.number(0))), "DOUBLE")
        else:
            ratio = exp.Div(this=part, expression=whole)
        return exp.func("ROUND", ratio, exp.Literal.number(DECIMALS))

    def _shared(self, plan: QueryPlan) -> exp.Expression:
        """What a share adds up per row: 1 (a share of the rows) or the measure (a share of its total)."""
        return self._col(plan.measure) if plan.share_of_measure and plan.measure else exp.Literal.number(1)

    def _also(self, plan: QueryPlan, where: exp.Expression | None) -> list[exp.Expression]:
        """The further computations asked beside the first ("…, and what's his avg rating"), one column each; beside a
        share of one value, of its whole ("how many pieces has she worked on, how many of those shared, and total
        words": all her pieces' words, not the shared ones')."""
        shown = plan.intent == "share" and not plan.share_of_measure  # (its counts are, see _group_sizes_shown)
        whole = self.where(QueryPlan(question=plan.question, conditions=plan.share_whole), include_topic=False) \
            if plan.intent == "share" and not plan.group_by else None
        columns = []
        for intent, measure in plan.also:
            if shown and intent == "count":
                continue
            value, name = self._value(dataclasses.replace(plan, intent=intent, measure=measure, also=[]), where)
            if plan.intent == "share" and not plan.group_by:
                of_whole = exp.select(value).from_(self._table())
                value = exp.Subquery(this=of_whole.where(whole) if whole is not None else of_whole)
            columns.append(exp.alias_(value, name))
        return columns

    def _matching(self, counted: exp.Expression) -> tuple[exp.Expression, str]:
        """The count of a group's rows that match `counted` (0 for a group with none)."""
        return (exp.Sum(this=exp.Case(ifs=[exp.If(this=counted, true=exp.Literal.number(1))],
                                      default=exp.Literal.number(0))), f"{self._entity()}_count")

    def _per_author(self, plan: QueryPlan, where: exp.Expression | None,
                    counted: exp.Expression | None = None) -> exp.Select:
        """Counts per individual author, even when one cell names several ("A; B"): the known names (from
        the profile) as a small derived table, joined on a whole-name match. One scan of the table, and
        the statement stays small (55 authors: about 2,000 characters)."""
        value, value_name = self._value(plan, where) if counted is None else self._matching(counted)
        # "which agent had more, A or B": one row per named person, not per everyone on their rows
        named = next((c.value for c in plan.conditions if c.kind == "author" and c.op == "in"), None)
        people = list(named) if named else self.profile_authors
        names: exp.Expression = exp.select(exp.alias_(exp.Literal.string(people[0]), NAME_COLUMN))
        for name in people[1:]:
            names = exp.union(names, exp.select(exp.Literal.string(name)), distinct=False)
        cell = self._normalised_authors(exp.column(self.roles.authors, table=self.table, quoted=True))
        wanted = exp.DPipe(this=exp.DPipe(this=exp.Literal.string("%;"), expression=exp.func(
            "REPLACE", exp.column(NAME_COLUMN, table="names"), exp.Literal.string(" "), exp.Literal.string(""))),
            expression=exp.Literal.string(";%"))
        grouped = exp.select(exp.alias_(exp.column(NAME_COLUMN, table="names"), "author"),
                             *self._group_sizes_shown(plan), exp.alias_(value, value_name),
                             *self._also(plan, where)).from_(
            exp.Subquery(this=names, alias=exp.TableAlias(this=exp.to_identifier("names")))).join(
            self._table(), on=cell.like(wanted))
        if where is not None:
            grouped = grouped.where(where)
        grouped = grouped.group_by(exp.column(NAME_COLUMN, table="names"))
        if plan.group_size or plan.group_bound or plan.group_spread or plan.group_share:
            grouped = grouped.having(self._group_test(plan, value if counted is not None else None, where))
        if plan.with_ties:
            return self._top_with_ties(grouped, value_name, plan.order_most, ["author"], exact=self._exact(plan),
                                       nth=plan.nth)
        if plan.ties_at_limit and plan.limit:
            return self._top_with_ties_at_limit(grouped, value_name, plan, ["author"])
        most_first = plan.order_most or not (plan.limit or plan.order_least)
        query = grouped.order_by(exp.Ordered(this=exp.column(value_name), desc=most_first), exp.column("author"))
        if plan.limit:
            query = query.limit(plan.limit)
        return query

    def _listing(self, plan: QueryPlan, where: exp.Expression | None) -> exp.Select:
        columns = list(dict.fromkeys(c for c in (self._row_id(), self.roles.title, self.roles.date, *self._labels(),
                                                 self.roles.url) if c))
        if plan.measure and plan.measure not in columns:
            columns.append(plan.measure)
        for condition in plan.conditions:  # ("reviews with more than 200 helpful votes": each one's votes, shown)
            if (condition.kind == "number" and not self._is_yes_no(condition.column) or ends_of(condition.column)) \
                    and condition.column not in columns:
                columns.append(condition.column)  # (and "contracts ending in October": each one's end date)
        length: exp.Expression | None = None
        if plan.intent in ("longest", "shortest") and plan.measure:
            order = exp.Ordered(this=self._col(plan.measure), desc=plan.intent == "longest")
        elif plan.intent in ("longest", "shortest") and self.roles.content:
            # no length column: the text's length in characters ("the longest review")
            length = exp.func("LENGTH", self._col(self.roles.content))
            order = exp.Ordered(this=length.copy(), desc=plan.intent == "longest")
        elif self.roles.date:
            order = exp.Ordered(this=self._col(self.roles.date), desc=plan.intent != "earliest")
        else:
            order = None
        query = exp.select(*(self._shown(c) for c in columns)).from_(self._table())
        if length is not None:
            query = query.select(exp.alias_(length, "text_length"))
        if plan.nth and order is not None:
            # ("the 2nd biggest lease"): the rows whose value is the n-th distinct one, ties sharing a place
            value = order.this.copy()
            values = exp.select(value.copy()).distinct().from_(self._table()).where(exp.Not(this=exp.Is(
                this=value.copy(), expression=exp.Null())))
            if where is not None:
                values = values.where(where.copy())
            values = values.order_by(exp.Ordered(this=value.copy(), desc=order.args.get("desc"))).limit(1).offset(
                plan.nth - 1)
            nth = exp.EQ(this=value, expression=exp.Subquery(this=values))
            where = nth if where is None else exp.and_(where, nth)
        if where is not None:
            query = query.where(where)
        if order is not None:
            query = query.order_by(order)
        return query.limit(plan.limit or LIST_LIMIT)

    def _labels(self) -> list[str]:
        """The short labels a listed row shows: its kind, the table's other categorical columns (a review's brand, a
        ticket's priority, a contract's counterparty) and its person."""
        labels = [c for c in self.roles.categorical if c != self.roles.category][:MAX_LISTED_LABELS]
        return [c for c in (self.roles.category, *labels, self.roles.authors) if c]

    def _row_id(self) -> str | None:
        """The id column a listed row is referred to by ("R-048660"), when no url names it."""
        return self.roles.id if self.roles.id and not self.roles.url and self.roles.id != self.roles.title else None

    def _entity(self) -> str:
        base = self.table.lower().rstrip("s") or "row"
        return base if base.isidentifier() else "row"


def text_match_forms(word: str) -> list[str]:
    """The spellings a text match looks for: a plural's singular, which the plural contains ("grandmothers" ->
    "grandmother"), or both ("ferries" -> "ferry", "ferries"); other words as said. A singular of three letters or
    fewer ("news" is not "new") or that is no English word ("series" is not "sery") is no form."""
    word = word.lower()
    one = singular(word)
    if one == word or len(one) < 4 or zipf_of(one) < 2.0:
        return [word]
    return [one] if word.startswith(one) else [one, word]


def _escape_like(value: Any) -> str:
    """Remove LIKE wildcards from user words (they are matched literally, never as patterns)."""
    return str(value).replace("%", "").replace("_", " ").strip()
