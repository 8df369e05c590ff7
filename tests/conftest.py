"""Shared fixtures: tiny real stores (a SQLite file, a Chroma directory) built per test in `tmp_path`.

Helpers (importable with `from conftest import ...`):
- `skip_or_fail(reason)`: for missing test setup; skips locally, fails under CI=true.
- `make_articles_db(path, rows)`: a SQLite file with the sample schema and the given rows.
- `settings_for(db_path, index_dir, **kw)`: Settings for that file with the hashing embedder.
- `write_db(path, sql, params)`: one committed write through a separate read-write sqlite3 connection
  (the product itself only ever opens the database read-only).
- `sha256_file(path)`: checksum used to prove a database file was not modified.
- `CountingEmbedder(inner)`: wraps an embedder and counts the texts and calls it embedded.

Fixtures: `article_rows` (the ~8 sample rows), `articles_db` (a file built from them), `settings`,
`index_dir`, `real_embedder` (session-scoped all-MiniLM-L6-v2; tests using it are `@pytest.mark.slow`).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import pytest
from hypothesis import settings as hypothesis_settings

os.environ["ANONYMIZED_TELEMETRY"] = "False"

IN_CI = os.environ.get("CI", "").lower() == "true"  # set by CI services, and by .ci/run when unset

# Property tests draw new examples on every run locally; in CI the same fixed sequence, so a red build is
# reproducible and a green one is not luck.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if IN_CI:
    hypothesis_settings.load_profile("ci")


def skip_or_fail(reason: str, *, allow_module_level: bool = False) -> NoReturn:
    """Setup a test needs is missing (Chromium, a PostgreSQL server, the sample index): a skip on a developer's
    machine, a failure under CI=true, where .ci/* and `make test` must have provided it. CI cannot pass by
    skipping."""
    if IN_CI:
        pytest.fail(f"{reason} [CI=true: missing test setup fails the run]", pytrace=False)
    pytest.skip(reason, allow_module_level=allow_module_level)

from rag.data.embeddings import HashingEmbedder  # noqa: E402 - after the telemetry switch
from rag.settings import Settings  # noqa: E402

ARTICLE_COLUMNS = ("url", "title", "authors", "published_date", "article_category", "word_count", "full_content")
ARTICLES_DDL = (
    "CREATE TABLE articles (url TEXT, title TEXT, authors TEXT, published_date TEXT, "
    "article_category TEXT, word_count INTEGER, full_content TEXT)"
)

# ----------------------------------------------------------------------------- the long article

LONG_PARAGRAPHS = [
    'Ten years ago, keeping bees on a city roof was something only a handful of eccentric hobbyists did. '
    'Today the municipal register lists more than four hundred hives inside the ring road, spread across '
    'office terraces, school gardens, church towers and the flat roofs of supermarkets. The growth has '
    'been steady rather than explosive, and most of the new keepers say they started after attending one '
    'of the weekend courses run by the regional beekeeping association. Those courses now have waiting '
    "lists that stretch into the following spring. The association's chair says the typical student is a "
    'retired teacher or a young professional who wants a hobby that gets them outside and away from '
    'screens.',
    'The first lesson on every course is about temperament. City hives sit close to pavements, '
    'playgrounds and open windows, so keepers are expected to choose calm strains and to requeen any '
    'colony that becomes defensive. Instructors spend an entire afternoon on smoke, protective clothing '
    'and the slow, deliberate movements that keep a colony settled during an inspection. Neighbours are '
    'another matter entirely. The association recommends that every new keeper knock on the doors around '
    'the building before the bees arrive, explain what a swarm looks like and leave a phone number. '
    'Complaints, it turns out, fall sharply when people know whom to call.',
    'Forage is the question that worries ecologists most. A strong colony needs an enormous amount of '
    'nectar and pollen over a season, and a dense city can only offer so much. Researchers at the '
    'university have been sampling pollen loads from rooftop hives for three summers. Their results show '
    'that linden trees along the avenues provide a huge share of the early summer flow, while ivy on old '
    'walls keeps colonies going in autumn. Parks that switched from mown lawns to wildflower meadows '
    'produced a measurable increase in the variety of pollen collected. The researchers warn that adding '
    'hives without adding flowers simply spreads the same food more thinly.',
    'There is also the question of wild pollinators. Solitary bees, hoverflies and bumblebees compete for'
    ' the same flowers, and some studies suggest that a very high density of honeybee colonies can crowd '
    "them out. The city's biodiversity officer has therefore proposed a soft cap: no more than a certain "
    'number of hives per square kilometre in the most built-up districts, combined with grants for '
    'planting native shrubs. Beekeepers have reacted with a mixture of understanding and irritation. '
    'Several said they would accept a cap if the rules were applied evenly, but they objected to being '
    'treated as a threat rather than as partners in greening the city.',
    'Disease control has improved as the community has grown. Varroa mites remain the main enemy, and '
    'keepers now share treatment calendars through a messaging group so that neighbouring apiaries treat '
    'at the same time and do not reinfest one another. Two volunteer inspectors visit new apiaries during'
    ' their first year, checking brood patterns and looking for signs of foulbrood. The inspectors say '
    'that the biggest risk is not neglect but enthusiasm: beginners who open their hives too often, chill'
    ' the brood, and stress the colony. A calendar reminder to leave the bees alone, one inspector joked,'
    ' would save more colonies than any medicine.',
    'Money is rarely the motive. A productive rooftop colony may yield twenty or thirty kilograms of '
    'honey in a good year, and many keepers give most of it away to colleagues, neighbours and the '
    'building staff who carry equipment up the stairs. A few have turned the hobby into a small business,'
    " selling jars labelled by postcode at farmers' markets. The postcode honey sells at a premium "
    'because buyers like knowing which streets and gardens the bees visited. Analysis of those jars shows'
    ' genuine differences in colour and taste between districts, from the pale lime honey of the '
    'boulevards to the darker blends gathered near the railway embankments.',
    'Companies have noticed. Several banks and insurers now host hives on their headquarters and '
    'advertise the fact in their sustainability reports. Critics call it bee washing: a cheap gesture '
    "that photographs well while the company's real environmental footprint goes unexamined. The "
    'association is ambivalent. It welcomes the sponsorship money that pays for courses and equipment, '
    'but it has started asking corporate hosts to fund flower planting as well as hives, and to hire a '
    'trained keeper instead of leaving the colony to whichever employee volunteered at the launch event. '
    'Some firms have agreed; others quietly removed their hives after a summer.',
    'Weather shapes every season. A cold, wet spring can leave colonies starving just as they should be '
    "expanding, and keepers then feed sugar syrup to bridge the gap. Last year's long dry summer had the "
    'opposite problem: flowers withered early and the bees spent August robbing each other. Keepers have '
    'learned to place shallow water trays with floating corks on the roofs so that the bees do not go '
    'looking for water in swimming pools and bird baths. On very hot days, some roofs reach temperatures '
    'that would melt wax, so hives are shaded with boards or moved to the north side of ventilation '
    'housings.',
    'Schools have become some of the most enthusiastic hosts. A primary school in the eastern district '
    'keeps two observation hives behind glass in its library, and pupils record the weather, the flowers '
    'in bloom and the number of foragers returning each minute. Teachers say the bees have done more for '
    "the children's interest in science than any textbook. Older students have built sensors that weigh "
    'the hives every hour, so that a sudden drop warns of a swarm and a steady gain shows a strong nectar'
    ' flow. The data is published online and used by the university researchers as well.',
    'Swarms remain the most visible part of urban beekeeping and the most alarming for passers-by. In '
    'late May a cloud of bees settled on a bus shelter outside the central station, and the police closed'
    ' the stop for an hour until a volunteer arrived with a cardboard box and a ladder. The association '
    'now runs a swarm hotline staffed by members who live in different districts, so that someone can '
    'reach any corner of the city within half an hour. Collected swarms are rehoused with beginners who '
    'are still waiting for their first colony, which has turned a nuisance into a small but reliable '
    'supply of free bees.',
    'Regulation has struggled to keep up. The building code says nothing about hives, insurance policies '
    'are vague, and landlords decide case by case whether tenants may keep bees on shared roofs. A draft '
    'bylaw would require registration, a minimum distance from public entrances and a water source on '
    'every roof. Most keepers already meet those conditions and support the idea of a clear rulebook. '
    'Their main fear is that a single serious sting incident, widely reported, could lead to an outright '
    "ban that would undo a decade of careful work with neighbours, schools and the city's parks "
    'department.',
    'Some of the most interesting work happens at night, when the foragers are home and the hives are '
    'quiet. Volunteers move colonies between roofs after dark, strapping the boxes shut and carrying them'
    ' down service stairs and across empty streets. Moving a hive less than three kilometres in daylight '
    'confuses the foragers, which return to the old spot and die there, so the association keeps a '
    'holding apiary on an allotment outside the city where colonies spend a few weeks before reaching '
    'their new home. The allotment has become a training ground, with a shed full of spare frames and a '
    'kettle that is never cold.',
    'Honey is not the only product. Wax from old combs is melted down and sold to a candle maker in the '
    'old town, and a pharmacy student has been testing propolis collected from different roofs for its '
    'antibacterial properties. Pollen traps fitted for a few days each month give the researchers their '
    'samples and give keepers a jar of pollen pellets that some of them sprinkle on breakfast cereal. '
    'None of this makes anyone rich, but it gives the hobby a sense of craft, and it connects the keepers'
    ' with bakers, chandlers and cooks who would otherwise never have thought about the insects on the '
    'roof above them.',
    'The season ends with a honey tasting on the roof of the old ferry terminal. Every apiary brings one '
    'jar, the labels are hidden, and visitors walk along a row of numbered spoons. Children vote for '
    'their favourite jar by dropping wooden tokens into painted buckets, and the winning keeper receives '
    'a brass smoker engraved with the year.',
]
LONG_ARTICLE = "\n\n".join(LONG_PARAGRAPHS)
LONG_URL = "https://news.example.com/2023/05/urban-beekeeping"
# A phrase from the last paragraph only, for retrieval tests.
LAST_PARAGRAPH_QUERY = "children vote for their favourite honey jar with wooden tokens in painted buckets"

DUPLICATE_TITLE = "Local team wins championship"


def _row(url: str, title: str, authors: str, date: str, category: str, content: str) -> dict[str, Any]:
    return {"url": url, "title": title, "authors": authors, "published_date": date,
            "article_category": category, "word_count": len(content.split()), "full_content": content}


ARTICLE_ROWS: list[dict[str, Any]] = [
    _row("https://news.example.com/2023/01/bike-lanes", "City council approves new bike lanes", "Maria Lopez",
         "2023-01-15 09:30:00", "Politics",
         "The city council voted on Tuesday to build twelve kilometres of protected bike lanes. "
         "Supporters said the lanes would cut traffic injuries. Shop owners on Main Street worried about "
         "losing parking spaces. Construction starts in April and should finish before winter."),
    _row("https://news.example.com/2023/07/heatwave-grid", "Heatwave tests the power grid",
         "John Smith; Aisha Khan", "2023-07-20 14:05:00", "Environment",
         "Temperatures above forty degrees pushed electricity demand to a record on Wednesday. "
         "The grid operator asked households to delay running dishwashers until the evening. "
         "Solar farms covered a large share of the afternoon peak. No outages were reported."),
    _row("https://news.example.com/2023/04/earnings", "Quarterly earnings beat expectations", "",
         "2023-04-03 08:00:00", "Business",
         "The retailer reported quarterly revenue well above analyst forecasts. Online sales grew fastest. "
         "Shares rose six percent in early trading. The company raised its outlook for the full year."),
    _row("https://news.example.com/2023/03/championship-final", DUPLICATE_TITLE, "Tom Baker",
         "2023-03-12 21:45:00", "Sports",
         "The home side won the championship final two goals to one after extra time. "
         "The winning goal came from a corner in the last minute. Fans celebrated in the square until dawn."),
    _row("https://news.example.com/2023/03/championship-parade", DUPLICATE_TITLE, "Sara Lee",
         "2023-03-13 12:00:00", "Sports",
         "A day after the final, thousands lined the streets for the victory parade. "
         "The captain lifted the trophy from an open-top bus. The mayor announced a civic reception."),
    _row("https://news.example.com/2018/11/vaccine-trial", "New vaccine trial shows promising results",
         "Aisha Khan", "2018-11-05 10:15:00", "Health",
         "Early results from a vaccine trial showed a strong immune response in most volunteers. "
         "Side effects were mild and short-lived. A larger trial will begin next year."),
    _row("https://news.example.com/2023/09/seed-funding", "Startup raises seed funding", "John Smith; Li Wei",
         "2023-09-28 16:20:00", "Business",
         "A local software startup raised three million in seed funding. The founders plan to hire twenty "
         "engineers. Investors praised the team's focus on small farms."),
    _row(LONG_URL, "The quiet return of urban beekeeping", "Emma Clarke; Daniel Osei", "2023-05-18 07:00:00",
         "Environment", LONG_ARTICLE),
]


def make_articles_db(path: Path | str, rows: Sequence[dict[str, Any]] = ARTICLE_ROWS) -> Path:
    """Create a SQLite file at `path` with table `articles` (the sample schema) holding `rows`.

    Each row is a dict keyed by column name; missing columns are NULL, a missing `word_count` is computed.
    """
    path = Path(path)
    connection = sqlite3.connect(path)
    try:
        connection.execute(ARTICLES_DDL)
        values = []
        for row in rows:
            record = dict(row)
            if "word_count" not in record and isinstance(record.get("full_content"), str):
                record["word_count"] = len(record["full_content"].split())
            values.append(tuple(record.get(column) for column in ARTICLE_COLUMNS))
        connection.executemany("INSERT INTO articles VALUES (?, ?, ?, ?, ?, ?, ?)", values)
        connection.commit()
    finally:
        connection.close()
    return path


def indexed_articles(base: Path | str, rows: Sequence[dict[str, Any]] = ARTICLE_ROWS, *,
                     name: str = "articles.db") -> tuple[Path, Settings]:
    """An articles table (`make_articles_db`) in `base` with its hashing-embedder index synced in `base/index`."""
    from rag.data.index import VectorIndex
    from rag.data.source import TableSource

    db = make_articles_db(Path(base) / name, rows)
    settings = settings_for(db, Path(base) / "index")
    source = TableSource(settings.db_url, settings.table)
    try:
        VectorIndex(settings, HashingEmbedder()).sync(source)
    finally:
        source.close()
    return db, settings


def write_db(path: Path | str, sql: str, params: Sequence[Any] = ()) -> int:
    """Run one write statement through a separate read-write connection and commit; returns rowcount."""
    connection = sqlite3.connect(path)
    try:
        cursor = connection.execute(sql, params)
        connection.commit()
        return cursor.rowcount
    finally:
        connection.close()


def settings_for(db_path: Path | str, index_dir: Path | str, **kw: Any) -> Settings:
    """Settings for a SQLite file and a local index directory, with the deterministic hashing embedder."""
    values: dict[str, Any] = {"db_url": f"sqlite:///{db_path}", "index_dir": str(index_dir),
                              "embed_model": "hashing", "provider": "offline"}
    values.update(kw)
    return Settings(**values).validated()


def sha256_file(path: Path | str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class CountingEmbedder:
    """Delegates to `inner` and records every embed call (number of texts per call)."""

    def __init__(self, inner: Any | None = None) -> None:
        self.inner = inner if inner is not None else HashingEmbedder()
        self.name = self.inner.name
        self.dim = self.inner.dim
        self.calls: list[int] = []
        self.texts: list[str] = []

    @property
    def count(self) -> int:
        return sum(self.calls)

    def reset(self) -> None:
        self.calls.clear()
        self.texts.clear()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(len(texts))
        self.texts.extend(texts)
        return self.inner.embed(texts)

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return self.inner.count_tokens(texts)


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture
def article_rows() -> list[dict[str, Any]]:
    """A fresh copy of the sample rows (tests may modify it before building a database)."""
    return [dict(row) for row in ARTICLE_ROWS]


@pytest.fixture
def articles_db(tmp_path: Path, article_rows: list[dict[str, Any]]) -> Path:
    """Path of a SQLite file with table `articles` and the ~8 sample rows."""
    return make_articles_db(tmp_path / "articles.db", article_rows)


@pytest.fixture
def index_dir(tmp_path: Path) -> Path:
    return tmp_path / "index"


@pytest.fixture
def settings(articles_db: Path, index_dir: Path) -> Settings:
    """Settings for `articles_db` with a fresh local index directory and the hashing embedder."""
    return settings_for(articles_db, index_dir)


@pytest.fixture(scope="session")
def real_embedder() -> Any:
    """The real all-MiniLM-L6-v2 embedder, loaded once per session (mark tests using it `slow`)."""
    from rag.data.embeddings import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


def answer_body(turn: Any) -> str:
    """A turn's answer without the interpretation line every answered turn starts with."""
    first, _, rest = turn.answer.partition("\n\n")
    interpretation = turn.result.interpretation
    if interpretation is not None:
        assert first.startswith("_") and first.endswith("_"), turn.answer  # the restatement comes first
        return rest
    return turn.answer
