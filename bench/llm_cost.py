"""Calls and tokens per question on the language-model path, with a scripted model playing Gemini.

    .venv/bin/python -m bench.llm_cost [--quick]

Every dev and test question of each table is asked through the app's Assistant with the scripted fake
(rag/testing.py) injected through the provider factory: asked to read a question the offline reading is unsure
of, it replies with that reading as JSON; it writes the SQL the offline planner would, and answers in one
sentence, so the prompts are the real ones and their token counts use the trace's estimator (4 characters per
token). Run twice: with the default answer budget (RAG_SYNTHESIS_TOKENS = 1,500) and with 10,000 tokens (about
the old 40,000-character context cap), to show what the budget saves. Run from the repository root. Needs the
indexes the evaluation uses (data/chroma for the sample; data/eval/chroma for tickets and reviews, see README
"Evaluation"); a table without its index is skipped and reported.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.common import ROOT, stamp, summary, write_results
from rag.assistant import Assistant
from rag.evaluation.cases import load_cases
from rag.llm.restatement import RESTATEMENT_MARKER
from rag.providers import build_providers, estimate_cost
from rag.settings import SAMPLE_DB_PATH, Settings
from rag.testing import ScriptedLLM
from rag.understand.llm_reading import READING_MARKER, as_reading

MODEL = "gemini-2.5-flash"
# name -> (database URL, table, index directory), spelled as `make index` and the README's evaluation commands
# spell them: the collection name depends on the URL.
TABLES = {
    "news": (f"sqlite:///{SAMPLE_DB_PATH}", "articles", ROOT / "data" / "chroma"),
    "tickets": ("sqlite:///data/eval/tickets.db", "tickets", ROOT / "data" / "eval" / "chroma"),
    "reviews": ("sqlite:///data/eval/reviews.db", "reviews", ROOT / "data" / "eval" / "chroma"),
}


def asked(prompt: str) -> str:
    """The question of a prompt: its last <question> block (the rules before it also name "<question> tags")."""
    return prompt.rpartition("<question>")[2].partition("</question>")[0].strip()


def scripted_gemini(offline: Assistant) -> ScriptedLLM:
    """A fake Gemini that answers each prompt as a sensible model would, from the offline reading."""
    def reply(prompt: str) -> str:
        question = asked(prompt)
        plan = offline.context.planner.plan(question)
        if READING_MARKER in prompt:
            return json.dumps(as_reading(plan, offline.context.source.roles), default=str)
        if "Answer with the SQL statement only" in prompt:
            return offline.context.sql_builder.answer_sql(plan)
        if RESTATEMENT_MARKER in prompt:
            return plan.topic or question  # (a search of about the topic's length)
        return "The data answers it in one sentence [1]."

    return ScriptedLLM([reply] * 1_000_000, model=MODEL, restatement=reply)


def questions(name: str) -> list[tuple[str, str]]:
    """(split, question) for every dev and test question of the table."""
    asked: list[tuple[str, str]] = []
    for split in ("dev", "test"):
        for case in load_cases(ROOT / "eval" / name / f"{split}.yaml").cases:
            turns = [turn.question for turn in case.turns] if getattr(case, "turns", None) else [case.question]
            asked += [(split, question) for question in turns]
    return asked


def measure(name: str, budget: int, limit: int | None) -> dict[str, Any] | None:
    url, table, index_dir = TABLES[name]
    if not (ROOT / url.removeprefix("sqlite:///")).exists() or not Path(index_dir).exists():
        return None
    settings = Settings(db_url=url, table=table, index_dir=str(index_dir), provider="offline",
                        synthesis_tokens=budget).validated()
    offline = Assistant.build(settings)
    assistant = Assistant.build(settings, providers=build_providers(settings, llm=scripted_gemini(offline)))
    by_route: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for split, question in questions(name)[:limit]:
        turn = assistant.ask(question)
        tokens = turn.trace.tokens
        # "error": answered without a route (a refused request to change data); "test split": every route.
        for row in (turn.route or "error", "all", *(["test split"] if split == "test" else [])):
            by_route[row]["calls"].append(len(turn.trace.llm_calls))
            by_route[row]["prompt"].append(tokens["prompt"])
            by_route[row]["completion"].append(tokens["completion"])
    rows = {}
    for route, figures in by_route.items():
        n = len(figures["calls"])
        rows[route] = {"questions": n, "calls_mean": round(sum(figures["calls"]) / n, 2),
                       "calls_max": max(figures["calls"]),
                       "prompt_tokens_mean": round(sum(figures["prompt"]) / n),
                       "prompt_tokens": {k.replace("_ms", ""): v for k, v in summary(figures["prompt"]).items()},
                       "cost_usd_per_question": round(sum(
                           estimate_cost(MODEL, {"prompt": p, "completion": c})
                           for p, c in zip(figures["prompt"], figures["completion"], strict=True)) / n, 6)}
    return rows


def render_markdown(data: dict[str, Any]) -> str:
    lines = ["# Language-model cost per question", "",
             f"Scripted model playing {MODEL} (prices from rag/providers.py), every dev and test question of each "
             "table (route `all`; `test split`: the test questions alone, every route); prompt tokens by the "
             "trace's estimator. Generated by `bench/llm_cost.py`.", "",
             "| table | answer budget | route | questions | calls (mean / max) | prompt tokens mean | p50 | p95 | "
             "USD per question |", "|---|---:|---|---:|---|---:|---:|---:|---:|"]
    for run in data["runs"]:
        if run["rows"] is None:
            lines.append(f"| {run['table']} | {run['budget']:,} | (index missing: skipped) | | | | | | |")
            continue
        for route, row in sorted(run["rows"].items(), key=lambda kv: (kv[0] != "all", kv[0])):
            tokens = row["prompt_tokens"]
            lines.append(f"| {run['table']} | {run['budget']:,} | {route} | {row['questions']} | "
                         f"{row['calls_mean']} / {row['calls_max']} | {row['prompt_tokens_mean']:,} | "
                         f"{tokens.get('p50')} | {tokens.get('p95')} | {row['cost_usd_per_question']} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 questions per table")
    args = parser.parse_args()
    runs = [{"table": name, "budget": budget, "rows": measure(name, budget, 20 if args.quick else None)}
            for name in TABLES for budget in (1_500, 10_000)]
    data = stamp({"model": MODEL, "runs": runs})
    print(write_results("llm_cost", data, render_markdown(data), quick=args.quick))


if __name__ == "__main__":
    main()
