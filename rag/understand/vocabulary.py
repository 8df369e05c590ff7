"""Words the offline planner recognises, derived from the table where possible.

Nothing here names the sample table: category values, author names and dimension words come from
the detected column roles and the table's profile; the fixed lists are plain English.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
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
    # (values of a state: "how many live contracts", "agreements still in force")
    "active": ("live", "in force", "ongoing", "still running"),
    "expired": ("lapsed", "run out", "ran out"), "terminated": ("cancelled", "canceled"),
    "pending": ("on hold", "on-hold", "paused"), "on hold": ("pending", "paused"),
    # (the steps of a priority or severity scale: "critical tickets" where the top step is called 'urgent')
    "urgent": ("critical", "emergency"), "critical": ("urgent", "emergency"),
    "normal": ("medium", "moderate", "standard"), "medium": ("normal", "moderate", "standard"),
    # (the regions of a company's sales map, by their usual codes: "our contracts in Europe" are EMEA's)
    "emea": ("europe", "european", "middle east", "africa", "african"),
    "apac": ("asia", "asian", "asia pacific", "asia-pacific"),
    "latam": ("latin america", "latin american", "south america", "south american"),
    "north america": ("north american", "united states", "canada"),
    # (kinds of agreement by their everyday names)
    "nda": ("confidentiality agreement", "confidentiality agreements", "non-disclosure"),
    "lease": ("rental", "rentals", "rental contract", "rental contracts", "tenancy", "tenancies"),
}

# Plain English names people use for common measures; only used when such a column exists.
MEASURE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "rating": ("star", "stars", "rated", "score"), "stars": ("star", "rating", "rated"),
    "score": ("points", "rating"), "price": ("cost", "costs", "priced"), "amount": ("value", "sum"),
    "votes": ("vote", "upvotes", "upvote", "upvoted", "voted", "thumbs-up", "thumbs up", "likes"),
    "views": ("view", "viewed", "readers"),
    "value": ("amount", "worth", "size"), "term": ("duration", "length"),
}
# Units a numeric column's name may end with ("value_eur", "price_usd", "term_months", "weight_kg"): the words before
# the unit name the measure ("the average contract value", "the longest term")
TIME_UNITS = frozenset({"sec", "secs", "seconds", "min", "mins", "minutes", "h", "hr", "hrs", "hours", "days", "weeks",
                        "months", "years"})
UNIT_WORDS = frozenset({"eur", "euro", "euros", "usd", "dollars", "gbp", "pounds", "chf", "jpy", "cny", "inr", "aud",
                        "cad", "sek", "nok", "dkk", "pln", "kg", "kgs", "g", "lb", "lbs", "km", "m", "cm", "mm", "mi",
                        "ms", "pct", "percent"}) | TIME_UNITS
CURRENCY_UNITS = frozenset({"eur", "euro", "euros", "usd", "dollars", "gbp", "pounds", "chf", "jpy", "cny", "inr",
                            "aud", "cad", "sek", "nok", "dkk", "pln"})
# Other words for a unit ("contracts over 1 million euros" for value_eur)
UNIT_SYNONYMS: dict[str, tuple[str, ...]] = {
    "eur": ("euro", "euros", "€"), "usd": ("dollar", "dollars", "$"), "gbp": ("pound", "pounds", "£"),
    "chf": ("franc", "francs"), "jpy": ("yen",), "kg": ("kilo", "kilos", "kilogram", "kilograms"),
    "km": ("kilometre", "kilometres", "kilometer", "kilometers"), "mi": ("mile", "miles"),
    "min": ("minute", "minutes"), "mins": ("minute", "minutes"), "h": ("hour", "hours"), "hrs": ("hour", "hours"),
    "sec": ("second", "seconds"), "secs": ("second", "seconds"), "ms": ("millisecond", "milliseconds"),
}
# Other words for a word of a numeric column's name ("the most useful reviews" for helpful_votes)
PART_SYNONYMS: dict[str, tuple[str, ...]] = {"helpful": ("useful",)}
# Plain English names for what a table's rows are, by the table's noun; only used for that noun.
ROW_NOUN_SYNONYMS: dict[str, tuple[str, ...]] = {
    "ticket": ("request", "issue", "case", "incident", "complaint"),
    "article": ("story", "piece", "report", "item", "post", "write-up"),
    "review": ("opinion", "rating", "feedback"), "post": ("message", "thread", "article"),
    "contract": ("agreement", "deal"), "document": ("doc", "file", "paper"), "order": ("purchase",),
    "email": ("message", "mail"), "message": ("email", "post"), "comment": ("remark", "reply"),
}
# Row nouns said only in the plural, the singular being a common verb ("the longest reads", not "people read").
ROW_NOUN_PLURALS: dict[str, tuple[str, ...]] = {"article": ("reads",), "story": ("reads",), "ticket": ("tix",)}
# Plain English words that name the kind of row when placed before the row noun ("product reviews", "support
# tickets", "news articles"): the rows themselves, never a topic; only used for that noun.
ROW_KIND_WORDS: dict[str, tuple[str, ...]] = {
    "ticket": ("support", "help desk", "helpdesk", "service", "customer"), "article": ("news", "newspaper", "press"),
    "review": ("product", "customer", "user", "online"), "post": ("forum", "blog"), "story": ("news",),
    "contract": ("customer", "supplier", "sales"), "order": ("customer", "sales", "online"),
    "email": ("customer",), "comment": ("user", "customer", "reader"),
}
# Plain English names for common column names; only used for a column of that name (last word of its name).
# other words for the first word of a yes/no column's name, said with the rest of it ("confirmed purchase")
FLAG_SYNONYMS: dict[str, tuple[str, ...]] = {"verified": ("confirmed", "validated", "authenticated"),
                                             "flagged": ("marked",), "approved": ("accepted",),
                                             "renew": ("roll over",),
                                             "auto": ("on its own", "on their own", "by itself", "by themselves")}
COLUMN_SYNONYMS: dict[str, tuple[str, ...]] = {
    "status": ("state", "stage"), "priority": ("severity", "urgency", "importance"),
    "assignee": ("agent", "owner", "handler", "rep", "representative"),
    "owner": ("agent", "assignee", "manager", "mgr", "handler"),
    "agent": ("assignee", "owner"),
    "department": ("dept", "section"), "brand": ("maker", "manufacturer", "make", "company", "label"),
    "reviewer": ("customer", "buyer", "user", "shopper"),
    "counterparty": ("partner", "client", "customer", "supplier", "vendor", "company",
                     "party"), "category": ("type", "kind"), "type": ("kind",), "newsgroup": ("group", "forum"),
    "author": ("writer", "byline"), "authors": ("writer", "byline"), "poster": ("author", "user"),
}
HOUR_WORDS = ("hour of the day", "hour of day")  # (not "hours": "how many hours" is a span)
GENERIC_COLUMN_WORDS = frozenset({"count", "number", "num", "id", "no", "total", "value", "amount", "flag", "is"})

DIMENSION_WORDS: dict[str, tuple[str, ...]] = {
    "year": ("year", "years", "yearly", "annual", "annually"),
    "month": ("month", "months", "monthly"),
    "day": ("day", "days", "daily", "date", "dates"),
    "quarter": ("quarter", "quarters", "quarterly"),
    "half": ("halves", "half-year", "half-years", "half year", "half years", "half-yearly", "semiannual",
             "semi-annual"),
    "week": ("week", "weeks", "weekly"),
    "decade": ("decade", "decades"),
    "weekday": ("weekday", "weekdays", "day of the week", "day of week", "days of the week"),
    "category": ("category", "categories", "section", "sections", "desk", "desks", "topic area", "kind", "kinds",
                 "type", "types"),
    "author": ("author", "authors", "writer", "writers", "reporter", "reporters", "journalist", "journalists",
               "byline", "bylines", "person", "staff"),
}

STOPWORDS = frozenset("""
a an the of in on at by per to for from with without within into onto over under about around regarding re among
amongst
concerning and or but nor not no yes so as than then that this these those there here it its it's is are was
were be been being am do does did done doing have has had having can could would should will shall may might
must i me my we us our you your he him his she her they them their what which who whom whose where when why
how please pls plz thx thanks hey hello cheers tell show give find get fetch list display let lets know want need
see look looking search
searching any anything something everything some all every each many much more most few several such own same
other article articles story stories news piece pieces item items post posts document documents doc docs
record records row rows entry entries text texts content contents coverage covered covering cover covers
report reported reporting written write writes wrote publish published publishing posted dated mention
mentions mentioned mentioning discuss discusses discussed discussing talk talks talking say says said related
relating relevant info information details detail latest recent recently new newest kind type like just also
only even ever really very quite happened happen happening going on up out off again between during since
until till before after database table archive collection data dataset output
exist exists existing available present overall number numbers break breakdown down distribution
title titles headline headlines opened created filed submitted raised logged assigned handled handle handles owned
came come comes coming arrive arrives arrived arriving got gotten getting received
go goes went gone aside if too entirely whoever whatever whichever whomever
include includes included including require requires required requiring
""".split())  # noqa: SIM905 - a word list reads better as text

# Words the planner's patterns react to (besides STOPWORDS and the table's own words): the targets of
# spelling correction.
GRAMMAR_WORDS = frozenset("""
rank ranked ranking
average mean median typical total sum combined maximum minimum highest lowest largest smallest biggest fewest
longest shortest latest newest oldest earliest recent share percentage proportion fraction percent count number
percentages proportions fractions shares
many much list titles headlines category categories section sections author authors writer writers reporter
reporters byline published publish written wrote posted year years yearly annual month months monthly day days
daily date dates quarter quarters quarterly week weeks weekly weekend weekends weekday weekdays january february
march april may june july august september october november december monday tuesday wednesday thursday friday
saturday sunday between before after since until during except excluding without versus compare comparison
articles stories pieces posts documents records reports entries items more less fewer greater longer shorter
blank empty missing unknown incoming inbound gap difference counts totals numbers figures averages tally tallies halves
roughly approximately approx ballpark remaining rest leftover
""".split())  # noqa: SIM905 - a word list reads better as text

# Verbs of doing or having rows in one's care that the readers of people react to ("is rajesh handling", "does
# hannah manage"): targets of spelling correction only ("handlign"), never words with a meaning of their own.
PEOPLE_VERBS = frozenset("""
handling managing owning overseeing covering reviewing writing working dealing taking receiving closing resolving
posting publishing filing manage manages managed oversee oversees oversaw
""".split())  # noqa: SIM905 - a word list reads better as text

WORD = re.compile(r"[^\W_](?:[^\W_]|['’\-])*")  # letters of any alphabet ("söhne" was "s", "hne")
ACRONYM = re.compile(r"[A-Z]{2,5}")  # a value that is an acronym ("NDA", "EMEA")
LINKING_WORDS = frozenset({"of", "and", "the", "for"})


def initials(words: Sequence[str]) -> set[str]:
    """The initials of a run of words, with and without its linking words ('Statement of Work': 'SOW' and 'SW',
    'request for proposal': 'rfp' and 'rp'), in the words' own case."""
    return {"".join(w[0] for w in words), "".join(w[0] for w in words if w.lower() not in LINKING_WORDS)}
# Tokens for matching column values: "H&M", "Dr. Martens", "sci.space", "Levi's", "Home & Kitchen".
VALUE_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|&")  # letters of any alphabet ("Bébé" is one token)
MAX_VALUE_TOKENS = 8


def unaccented(text: str) -> str:
    """"Müller" -> "Muller": the letters without their accents."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def value_tokens(text: str) -> list[str]:
    """Lower-case tokens with accents and apostrophes dropped and '&' read as 'and' ("Levi's & Co" -> levis and co,
    "Bébé Lune" -> bebe lune)."""
    plain = unaccented(text)
    return ["and" if t == "&" else t.lower().replace("'", "").replace("’", "") for t in VALUE_TOKEN.findall(plain)]


def name_key(text: str) -> str:
    """A value or name as compared with the words of a question: case, punctuation, dots, underscores and
    hyphens normalised ("Anna K." -> "anna k", "anna_k" -> "anna k", "Okonkwo-Reyes" -> "okonkwo reyes")."""
    return " ".join(value_tokens(text.replace("_", " ")))


# Legal forms that end company names and that people leave out ("O'Brien Logistics Ltd.", "Müller & Söhne GmbH")
LEGAL_FORMS = frozenset({"gmbh", "ag", "kg", "ltd", "limited", "inc", "incorporated", "llc", "llp", "lp", "plc", "corp",
                         "corporation", "co", "sa", "sas", "sarl", "srl", "spa", "bv", "nv", "ab", "as", "oy", "kk",
                         "pty", "pte", "sl", "se"})


def value_keys(value: str) -> set[str]:
    """The ways a question may write a value: spaced, joined, without 'and', last word singular, plural or as a
    place's adjective, a company's name without its legal form ("O'Brien Logistics" for "O'Brien Logistics Ltd.")."""
    tokens = value_tokens(value)
    if not tokens:
        return set()
    variants = [tokens, [t for t in tokens if t != "and"] or tokens]
    for size in (1, 2, 3):  # ("Café Roma S.r.l.": 'srl' is the tokens 's', 'r', 'l')
        if "".join(tokens[-size:]) in LEGAL_FORMS:
            bare = tokens[:-size]
            while bare and bare[-1] == "and":  # ("Tiny Tots & Co.")
                bare = bare[:-1]
            if len(bare) >= 2:  # (one word alone is too little to name a company)
                variants.append(bare)
            break
    for words in list(variants):  # ("software licenses" for 'Software Licence', "jewelry" for 'Jewellery')
        for i, word in enumerate(words):
            variants += [[*words[:i], other, *words[i + 1:]] for other in other_spellings(word)]
    keys: set[str] = set()
    for words in variants:
        last = words[-1]
        # ("North American counterparties": a place's adjective, America -> American, Europe -> European)
        adjective = last + "n" if last.endswith("a") and len(last) > 3 else last + "an" if last.endswith("pe") else last
        for ending in {last, singular(last), last + "s", adjective}:
            spelled = [*words[:-1], ending]
            keys.add(" ".join(spelled))
            if len(spelled) > 1:
                keys.add("".join(spelled))
    return keys


# British and American spellings of the same word, by their endings (the longer ending first)
SPELLING_PAIRS = (("ences", "enses"), ("ence", "ense"), ("tres", "ters"), ("tre", "ter"), ("ours", "ors"),
                  ("our", "or"), ("isations", "izations"), ("isation", "ization"), ("ise", "ize"), ("ises", "izes"),
                  ("ised", "ized"), ("ising", "izing"), ("yse", "yze"), ("ogue", "og"), ("ogues", "ogs"),
                  ("ellery", "elry"), ("elling", "eling"), ("elled", "eled"), ("ller", "ler"))


def other_spellings(word: str) -> set[str]:
    """The word in the other English spelling, when its ending is one that differs ("licence" and "license",
    "centre" and "center", "colour" and "color", "jewellery" and "jewelry"); words of six letters or more only, so
    "four" or "hour" never change."""
    if len(word) < 6:
        return set()
    return {word[:-len(a)] + b for a, b in SPELLING_PAIRS if word.endswith(a)} | {
        word[:-len(b)] + a for a, b in SPELLING_PAIRS if word.endswith(b)}


def singular(word: str) -> str:
    """Crude English singular for matching ('categories' -> 'category', 'sports' -> 'sport')."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and looks_plural(word):
        return word[:-1]
    return word


@functools.lru_cache(maxsize=4096)
def looks_plural(word: str) -> bool:
    """Whether a word ending in -s is a plural ('priorities', 'brands', 'bureaus'), not a singular in -ss, -us or
    -is ('class', 'status', 'analysis'), told apart by whether the word without its -s is common English."""
    if not word.endswith("s"):
        return False
    if not word.endswith(("ss", "us", "is")) or len(word) < 4:
        return True
    from wordfreq import zipf_frequency

    return zipf_frequency(word[:-1], "en") >= 3.5


def plural(word: str) -> str:
    """Crude English plural of a column noun ('priority' -> 'priorities', 'status' -> 'statuses')."""
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


TEXT_LENGTH_SUFFIX = "_length_chars"


# The measure "how many people a row names" (its person column's names counted: "the average number of names on a
# byline"); the SQL builder computes it, no column of the table holds it
PEOPLE_NAMED = "number_of_people_named"


def text_length_measure(content: str) -> str:
    """The name of the measure "the length of the text in characters" on a table without a length column; the SQL
    builder computes it (LENGTH(content)), no column of the table holds it."""
    return content + TEXT_LENGTH_SUFFIX


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

    values: dict[str, tuple[str, str]] = field(default_factory=dict)  # value key -> (column, real value)
    synonyms: set[str] = field(default_factory=set)  # the value keys that are another word for a value ("policy")
    authors: dict[str, str] = field(default_factory=dict)  # lower-case full name -> real name
    author_keys: dict[str, list[str]] = field(default_factory=dict)  # name_key of a full name -> real names
    # name_key of a whole value of a categorical or the people column -> {column: real value}
    full_values: dict[str, dict[str, str]] = field(default_factory=dict)
    author_parts: dict[str, set[str]] = field(default_factory=dict)  # surname/first name -> real names
    # the first word of a value of two or more words -> the values it starts ("kapoor" -> Kapoor Textiles)
    name_starts: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    # phrase -> year | month | day | category (the main categorical column) | author | another categorical column
    dimensions: dict[str, str] = field(default_factory=dict)
    measures: dict[str, str] = field(default_factory=dict)  # phrase -> numeric column
    flags: dict[str, str] = field(default_factory=dict)  # phrase -> a yes/no (0/1) column it asserts
    entity_words: frozenset[str] = frozenset()
    row_kinds: frozenset[str] = frozenset()  # words naming the kind of row before the row noun (ROW_KIND_WORDS)

    def value_for(self, tokens: list[str]) -> tuple[str, str] | None:
        """(column, value) a run of question tokens names exactly, spaced or joined ("st alder", "stalder"), or with
        an 'and' the value writes otherwise ("Sports & Outdoors" for "Sports/Outdoors")."""
        found = self.values.get(" ".join(tokens)) or (self.values.get("".join(tokens)) if len(tokens) > 1 else None)
        plain = [t for t in tokens if t not in ("and", "n")]  # ("toys n games": "and" in chat shorthand)
        if found is None and 1 < len(plain) < len(tokens):
            found = self.values.get(" ".join(plain))
        return found

    def known_words(self) -> set[str]:
        """Every single word this table's questions may use with a meaning: the grammar's own words and the
        table's (row nouns, column words, measures, values, name parts); misspellings are corrected to these."""
        words = set(GRAMMAR_WORDS) | set(STOPWORDS) | set(self.entity_words) | set(self.author_parts)
        for phrase in [*self.dimensions, *self.measures, *self.flags, *self.values]:
            words.update(phrase.split())
        # ("unverifed buyers": a yes/no column's word negated by its prefix is read too)
        words.update(f"un{w}" for phrase in self.flags for w in phrase.split() if w.endswith("ed"))
        return {w for w in words if w.isalpha()}

    @functools.cached_property
    def acronyms(self) -> dict[str, str]:
        """Values by their acronym, both ways: 'NDA' by itself, 'Statement of Work' by 'SOW' or 'SW' (the initials of
        its words, with or without the linking words); only acronyms of 2-5 letters that stand for one value."""
        found: dict[str, set[str]] = {}
        for _, value in self.values.values():
            words = re.findall(r"[A-Za-z]+", value)
            content = [w for w in words if w.lower() not in LINKING_WORDS]
            if ACRONYM.fullmatch(value):
                found.setdefault(value, set()).add(value)
            elif 2 <= len(content) <= 5 and all(w[0].isupper() for w in content):
                # ('Statement of Work': SW and SOW)
                for letters in initials(words):
                    if len(letters) <= 5:
                        found.setdefault(letters.upper(), set()).add(value)
        return {acronym: next(iter(values)) for acronym, values in found.items() if len(values) == 1}

    @property
    def value_lengths(self) -> range:
        """Token counts worth trying, longest first."""
        longest = max((len(k.split()) for k in self.values), default=1)
        return range(min(longest, MAX_VALUE_TOKENS), 0, -1)

    @classmethod
    def build(cls, table: str, roles: ColumnRoles, profile: TableProfile) -> Vocabulary:
        vocab = cls()
        by_column = profile.values or ({roles.category: profile.categories} if roles.category else {})
        # Exact spellings first, so a synonym never hides a value of another column.
        for column, counts in by_column.items():
            for value in counts:
                for key in value_keys(value):
                    vocab.values.setdefault(key, (column, value))
        for column, counts in by_column.items():
            for value in counts:
                lower = value.lower().strip()
                for phrase in (*CATEGORY_SYNONYMS.get(lower, ()), *CATEGORY_SYNONYMS.get(singular(lower) + "s", ())):
                    if vocab.values.setdefault(phrase, (column, value)) == (column, value):
                        vocab.synonyms.add(phrase)
        for column, counts in by_column.items():
            for value in counts:
                vocab.full_values.setdefault(name_key(value), {}).setdefault(column, value)
                if len(value_tokens(value)) >= 2 and value.split():
                    head = " ".join(value_tokens(value.split()[0]))
                    vocab.name_starts.setdefault(head, set()).add((column, value))
                    if len(value.split()) == 1 and len(value_tokens(value)[0]) >= 4:
                        # ("ZENO.fit": one word of parts joined by punctuation, started by "zeno")
                        vocab.name_starts.setdefault(value_tokens(value)[0], set()).add((column, value))
        for name in profile.authors:
            vocab.authors[name.lower()] = name
            if name_key(name):
                vocab.author_keys.setdefault(name_key(name), []).append(name)
                vocab.full_values.setdefault(name_key(name), {}).setdefault(roles.authors or "", name)
            for part in name.lower().split():
                if len(part) > 2:
                    vocab.author_parts.setdefault(part, set()).add(name)
        for dimension, words in DIMENSION_WORDS.items():
            for word in words:
                vocab.dimensions[word] = dimension
        if roles.date and len(profile.date_max or "") > 10:  # (the dates hold times: "what hour of the day")
            for word in HOUR_WORDS:
                vocab.dimensions[word] = "hour"
        named: set[str] = set()  # words a column is itself called: they name it, not the generic grouping
        for column in dict.fromkeys([*(roles.categorical or []), *([roles.category] if roles.category else [])]):
            dimension = "category" if column == roles.category else column
            words = column_words(column)
            for word in {form for w in words for form in (w, singular(w), plural(w))} - named:
                vocab.dimensions[word] = dimension  # a column called "desk" is what "per desk" means
                named.add(word)
            for word in COLUMN_SYNONYMS.get(words[-1], ()):
                for form in (word, singular(word), plural(word)):
                    # (another word for this column's own name beats the generic one: "kinds of contract" are the
                    # contract_type column's, not the main category's)
                    if form not in named and vocab.dimensions.get(form) in (None, "category"):
                        vocab.dimensions[form] = dimension
        author_words = column_words(roles.authors)
        for word in (*author_words, *(COLUMN_SYNONYMS.get(author_words[-1], ()) if author_words else ())):
            vocab.dimensions.setdefault(word, "author")
            vocab.dimensions.setdefault(singular(word), "author")
            vocab.dimensions.setdefault(plural(word), "author")
        for column in roles.numeric:
            if profile.numeric_ranges.get(column) == (0.0, 1.0):  # a yes/no column is a condition, not a measure
                parts = [p for p in column_words(column)[1].split() if p not in GENERIC_COLUMN_WORDS]
                for phrase in {" ".join(parts), parts[0] if parts else "", " ".join(parts) + "s"} - {"", "s"}:
                    vocab.flags.setdefault(phrase, column)
                    # ("reviews from confirmed purchases": the column's words with another word for its first; the
                    # first word alone too, as the column's first word alone is: "from confirmed buyers")
                    # (one-word synonyms only: "on their own" for "auto" is said after the verb, see Planner._flags)
                    for other in FLAG_SYNONYMS.get(phrase.split()[0], ()):
                        if " " not in other:
                            vocab.flags.setdefault(" ".join([other, *phrase.split()[1:]]), column)
                continue
            words = column_words(column)
            # 'word_count', 'word count'; the last part too ('votes' of 'helpful_votes'), unless it is generic
            # (not a unit of time alone: "next month's planning", "per month" are calendar words, not term_months)
            for word in (*words[:2], *(w for w in words[2:] if w not in GENERIC_COLUMN_WORDS | TIME_UNITS)):
                vocab.measures.setdefault(word, column)
                vocab.measures.setdefault(word + "s" if not word.endswith("s") else singular(word), column)
            if len(words) > 1 and " " in words[1]:  # 'wordcount', 'helpfulvotes': the name typed as one word
                vocab.measures.setdefault(words[1].replace(" ", ""), column)
                initials = "".join(part[0] for part in words[1].split())
                if _is_abbreviation(initials):  # "avg wc": word_count by its initials
                    vocab.measures.setdefault(initials, column)
            named = words[-1] if words else ""
            parts = words[1].split() if len(words) > 1 else []
            if len(parts) > 1 and parts[-1] in UNIT_WORDS:  # 'value_eur': 'value', 'values'; 'term_months': 'term'
                named = " ".join(parts[:-1])
                vocab.measures.setdefault(named, column)
                vocab.measures.setdefault(plural(named), column)
                for word in UNIT_SYNONYMS.get(parts[-1], ()):  # ("over 1 million euros")
                    vocab.measures.setdefault(word, column)
                if parts[-1] in CURRENCY_UNITS:  # ("who looks after more money in active contracts")
                    vocab.measures.setdefault("money", column)
            for word in MEASURE_SYNONYMS.get(named, ()):
                vocab.measures.setdefault(word, column)
                if not word.endswith(("s", "ed")):  # "scores", "costs"
                    vocab.measures.setdefault(word + "s", column)
            parts = column.lower().split("_")
            if parts[0] in {"word", "words"}:
                for phrase in ("words", "word", "length", "lengths", "long", "size"):
                    vocab.measures.setdefault(phrase, column)
        if roles.content and "length" not in vocab.measures:
            # no length column: the text's length in characters ("average description length in characters")
            for phrase in ("length", "lengths", "characters", "character", "chars", "character count"):
                vocab.measures.setdefault(phrase, text_length_measure(roles.content))
        base = table.lower()
        nouns = {base, singular(base), *column_words(base)}
        noun = singular(column_words(base)[-1]) if column_words(base) else base
        for synonym in ROW_NOUN_SYNONYMS.get(noun, ()):
            nouns |= {synonym, synonym + "s", singular(synonym + "s")}
        nouns |= set(ROW_NOUN_PLURALS.get(noun, ()))
        vocab.entity_words = frozenset(nouns)
        vocab.row_kinds = frozenset(ROW_KIND_WORDS.get(noun, ()))
        return vocab


ABBREVIATION_ZIPF = 4.0  # wordfreq's Zipf scale: "wc" 3.4 and "hv" 2.8 are free; "ac" 4.3 is a word people use


def _is_abbreviation(initials: str) -> bool:
    """Whether a column's initials ("wc" of word_count) may stand for it: two or three letters that are not
    already a common word."""
    from wordfreq import zipf_frequency

    return 2 <= len(initials) <= 3 and zipf_frequency(initials, "en") < ABBREVIATION_ZIPF
