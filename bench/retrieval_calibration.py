"""Calibrating "nothing relevant" on the dev questions of every table (answerable vs no-answer questions).

Usage: .venv/bin/python -m bench.retrieval_calibration [--tables news,tickets,reviews]
Writes bench/results/retrieval_calibration.json and .md.

Every retrieval and no-answer case of eval/<table>/dev.yaml is asked through the offline assistant with the
product's retrieval; the "synthesize" span records the inputs of the relevance rule: the best chunk's cosine
similarity, the question's background (its mean similarity to the table's stored sample of chunks,
rag/data/background.py) and whether one retrieved chunk mentions the topic's words. With ABOVE = best -
background, the rule has two thresholds:

    relevant = ABOVE >= STRONG  or  (ABOVE >= FLOOR and the topic's words are mentioned)
               or  (the conditions selected at most top_k rows, hybrid route, and ABOVE >= SMALL)
               or  (rows narrowed by conditions, any number of them, and ABOVE >= RESTRICTED)

The same rule on the raw similarity (best instead of ABOVE) is calibrated alongside for comparison. FLOOR and
STRONG are calibrated first (without SMALL), then SMALL with them (the small SQL-selected sets' leniency), then
SUPPORT: "the topic's words are mentioned" replaced by "a chunk at or above FLOOR mentions all of them, or the words
it lacks, embedded together, are at least SUPPORT similar to it" (the product records that support below STRONG);
SUPPORT is kept only when it makes fewer wrong decisions than the words mentioned. Last RESTRICTED, a lower STRONG
inside rows narrowed by conditions: SQL-selected rows (hybrid route) or a metadata filter (vector route); kept only
when it makes fewer wrong decisions.

Every (FLOOR, STRONG) pair on a 0.01 grid is scored on the dev cases; the chosen pair makes the fewest wrong
decisions, then lies farthest from the nearest wrong decision (the middle of the best plateau). "Positive"
below means replying "nothing relevant": precision = share of such replies that were right (no answer
exists), recall = share of no-answer questions that got it. Only dev questions are read.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from bench.common import load_span, machine_info, measured, stamp, write_results
from bench.retrieval_common import TABLES, assistant_for, dev_cases
from rag.answer.context import EngineContext
from rag.answer.retrieval import CALIBRATED_SUPPORT, relevance_thresholds, small_set_floor

GRID = [round(i / 100, 2) for i in range(0, 81)]


def features(turn: Any, top_k: int) -> dict[str, Any] | None:
    """The relevance rule's inputs, from the turn's "synthesize" span; None when no retrieval answer was composed
    (an SQL route, or no rows selected)."""
    spans = [s for s in turn.trace.spans if s.name == "synthesize" and "best_score" in s.attributes]
    if not spans:
        return None
    attrs = spans[-1].attributes
    selected = attrs.get("selected_rows")
    small_set = turn.route == "hybrid" and selected is not None and 0 < selected <= top_k
    return {"selected": selected, "small_set": small_set, "support": attrs.get("support"),
            "best": attrs["best_score"], "background": attrs.get("background"),
            "above": attrs["best_score"] if attrs.get("above_background") is None else attrs["above_background"],
            "mentioned": attrs["topic_mentioned"],
            "restricted": turn.route == "hybrid" or bool(turn.result.filters), "said_relevant": attrs["relevant"]}


def decide(case: dict[str, Any], floor: float, strong: float, scale: str = "above", small: float = math.inf,
           support: float | None = None, restricted: float = math.inf) -> bool:
    covered = case["mentioned"] if support is None else (case.get("support") or 0.0) >= support
    return (case[scale] >= strong or (case[scale] >= floor and covered)
            or (case.get("small_set", False) and case[scale] >= small)
            or (case.get("restricted", False) and case[scale] >= restricted))


def confusion(cases: list[dict[str, Any]], floor: float | None = None, strong: float | None = None,
              scale: str = "above", small: float = math.inf, support: float | None = None,
              restricted: float = math.inf) -> dict[str, int]:
    """Counts with "nothing relevant" as the positive reply; without thresholds, of the product's own replies."""
    counts = {"tp": 0, "fp": 0, "fn": 0, "tn": 0}
    for case in cases:
        nothing = not (case["said_relevant"] if floor is None or strong is None
                       else decide(case, floor, strong, scale, small, support, restricted))
        if case["no_answer"]:
            counts["tp" if nothing else "fn"] += 1
        else:
            counts["fp" if nothing else "tn"] += 1
    return counts


def rates(counts: dict[str, int]) -> dict[str, float | None]:
    said, exist = counts["tp"] + counts["fp"], counts["tp"] + counts["fn"]
    return {"precision": round(counts["tp"] / said, 3) if said else None,
            "recall": round(counts["tp"] / exist, 3) if exist else None}


def margins(cases: list[dict[str, Any]], floor: float, strong: float, scale: str = "above") -> tuple[float, float]:
    """How far each threshold sits from the nearest case whose decision it alone would flip (FLOOR: cases whose
    topic words are mentioned and that lie below STRONG; STRONG: the others), or from the grid's ends."""
    at_floor = [c[scale] for c in cases if c["mentioned"] and c[scale] < strong]
    at_strong = [c[scale] for c in cases if not (c["mentioned"] and c[scale] >= floor)]
    floor_margin = min([abs(b - floor) for b in at_floor] + [floor - GRID[0], strong - floor])
    strong_margin = min([abs(b - strong) for b in at_strong] + [GRID[-1] - strong])
    return round(floor_margin, 3), round(strong_margin, 3)


def calibrate(cases: list[dict[str, Any]], scale: str = "above") -> dict[str, Any]:
    """The (FLOOR, STRONG) pair with the fewest wrong decisions; among those, the one farthest from any case
    (the smaller of its two margins, then their sum: each threshold in the middle of its error-free interval)."""
    scored = []
    for floor in GRID:
        for strong in GRID:
            if strong < floor:
                continue
            counts = confusion(cases, floor, strong, scale)
            floor_margin, strong_margin = margins(cases, floor, strong, scale)
            scored.append((counts["fp"] + counts["fn"], -min(floor_margin, strong_margin),
                           -(floor_margin + strong_margin), floor, strong, counts, (floor_margin, strong_margin)))
    errors, _, _, floor, strong, counts, (floor_margin, strong_margin) = min(scored, key=lambda s: s[:5])
    return {"scale": scale, "floor": floor, "strong": strong, "errors": errors, "floor_margin": floor_margin,
            "strong_margin": strong_margin, "confusion": counts, **rates(counts)}


def calibrate_small(cases: list[dict[str, Any]], chosen: dict[str, Any]) -> dict[str, Any]:
    """SMALL with the chosen FLOOR and STRONG: the fewest wrong decisions, then the farthest from the nearest small
    set whose decision it alone flips (never below FLOOR: leniency, not strictness)."""
    floor, strong, scale = chosen["floor"], chosen["strong"], chosen["scale"]
    alone = [c[scale] for c in cases if c.get("small_set") and not decide(c, floor, strong, scale)]
    scored = []
    for small in [g for g in GRID if g >= floor] + [math.inf]:
        counts = confusion(cases, floor, strong, scale, small)
        margin = min([abs(b - small) for b in alone] + [small - floor, GRID[-1] - small]) if small < math.inf else 0.0
        scored.append((counts["fp"] + counts["fn"], -margin, small, counts))
    errors, margin, small, counts = min(scored, key=lambda s: s[:3])
    return {**chosen, "small": small, "small_margin": round(-margin, 3), "small_cases": len(alone),
            "errors": errors, "confusion": counts, **rates(counts)}


def calibrate_support(cases: list[dict[str, Any]], chosen: dict[str, Any]) -> dict[str, Any]:
    """SUPPORT with the chosen FLOOR, STRONG and SMALL (fewest wrong decisions, then the middle of its plateau); None
    (the topic's words mentioned) unless it makes fewer wrong decisions."""
    floor, strong, scale, small = chosen["floor"], chosen["strong"], chosen["scale"], chosen["small"]
    scored = [(confusion(cases, floor, strong, scale, small, t), t) for t in GRID]
    fewest = min(c["fp"] + c["fn"] for c, _ in scored)
    if fewest >= chosen["errors"]:
        return {**chosen, "support": None}
    plateau = [t for c, t in scored if c["fp"] + c["fn"] == fewest]
    support = plateau[len(plateau) // 2]
    counts = confusion(cases, floor, strong, scale, small, support)
    return {**chosen, "support": support, "support_plateau": [plateau[0], plateau[-1]], "errors": fewest,
            "confusion": counts, **rates(counts)}


def calibrate_restricted(cases: list[dict[str, Any]], chosen: dict[str, Any]) -> dict[str, Any]:
    """RESTRICTED (below STRONG) with the other thresholds of `chosen`: the fewest wrong decisions, then the middle
    of its plateau; none unless it makes fewer wrong decisions than without it."""
    rule = (chosen["floor"], chosen["strong"], chosen["scale"], chosen["small"], chosen["support"])
    without = confusion(cases, *rule)
    errors = without["fp"] + without["fn"]
    scored = [(confusion(cases, *rule, restricted=t), t) for t in GRID if t < chosen["strong"]]
    fewest = min((c["fp"] + c["fn"] for c, _ in scored), default=errors)
    if fewest >= errors:
        return {**chosen, "restricted": None, "errors": errors, "confusion": without, **rates(without)}
    plateau = [t for c, t in scored if c["fp"] + c["fn"] == fewest]
    restricted = plateau[len(plateau) // 2]
    counts = confusion(cases, *rule, restricted=restricted)
    return {**chosen, "restricted": restricted, "restricted_plateau": [plateau[0], plateau[-1]], "errors": fewest,
            "confusion": counts, **rates(counts)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default=",".join(TABLES))
    args = parser.parse_args(argv)
    record: dict[str, Any] = {"tables": {}, "grid": [GRID[0], GRID[-1], 0.01]}
    cases: list[dict[str, Any]] = []
    with measured(record):
        for name in args.tables.split(","):
            table = TABLES[name]
            assistant = assistant_for(table)
            context: EngineContext = assistant.context
            record["tables"][name] = {"cases_file": table.cases, "retrieval": str(context.retrieval)}
            for case in dev_cases(table, kinds=("retrieval", "no_answer")):
                turn = assistant.ask(case.question)
                found = features(turn, context.settings.top_k)
                entry = {"table": name, "id": case.id, "question": case.question, "no_answer": case.no_answer,
                         "route": turn.route}
                if found is None:
                    entry["decided_elsewhere"] = True
                else:
                    entry.update(found)
                cases.append(entry)
                print(f"  [{name}] {case.id}: {entry.get('best')} {entry.get('mentioned')}", flush=True)
    usable = [c for c in cases if not c.get("decided_elsewhere")]
    record["cases"] = cases
    current = confusion(usable)  # the rule the product applied while the cases were asked
    floor, strong = relevance_thresholds(context)
    record["current"] = {"floor": floor, "strong": strong, "small": small_set_floor(context),
                         "support": CALIBRATED_SUPPORT.get(context.embed_model.model_name),
                         "restricted": relevance_thresholds(context, restricted=True)[1], "confusion": current,
                         **rates(current)}
    record["embed_model"] = context.embed_model.model_name
    # The rule on both scales; the product takes the one with fewer wrong decisions (then the wider margin).
    record["scales"] = {"above": calibrate(usable, "above"), "best": calibrate(usable, "best")}
    record["chosen"] = min(record["scales"].values(),
                           key=lambda c: (c["errors"], -min(c["floor_margin"], c["strong_margin"])))
    record["without_small"] = record["chosen"]
    record["with_small"] = record["chosen"] = calibrate_small(usable, record["chosen"])
    record["with_support"] = record["chosen"] = calibrate_support(usable, record["chosen"])
    record["chosen"] = calibrate_restricted(usable, record["chosen"])
    # RESTRICTED also with the product's other thresholds (the chain above re-chooses them on today's dev set)
    product = {**record["current"], "scale": "best", "small": record["current"]["small"]}
    record["product_without_restricted"] = calibrate_restricted(usable, {**product, "restricted": None})
    record["per_table"] = {name: {"confusion": (counts := confusion([c for c in usable if c["table"] == name],
                                                                    record["chosen"]["floor"],
                                                                    record["chosen"]["strong"],
                                                                    record["chosen"]["scale"],
                                                                    record["chosen"]["small"],
                                                                    record["chosen"]["support"],
                                                                    record["chosen"]["restricted"] or math.inf)),
                                              **rates(counts)}
                           for name in record["tables"]}
    record["machine"] = machine_info()
    stamp(record)
    path = write_results("retrieval_calibration", record, render_markdown(record))
    print(path.read_text())
    return 0


def render_markdown(record: dict[str, Any]) -> str:
    chosen, current = record["chosen"], record["current"]
    scale_names = {"above": "ABOVE (best - background)", "best": "the raw best similarity"}
    usable = [c for c in record["cases"] if not c.get("decided_elsewhere")]
    elsewhere = [c for c in record["cases"] if c.get("decided_elsewhere")]

    def row(label: str, figures: dict[str, Any]) -> str:
        m = figures["confusion"]
        return (f"| {label} | {m['tp']} | {m['fn']} | {m['fp']} | {m['tn']} | {figures['precision']} | "
                f"{figures['recall']} |")

    lines = ["# Calibrated 'nothing relevant' on the dev questions", "",
             f"Generated by `bench/retrieval_calibration.py` on {record['measured_at']} (commit "
             f"{record['git']['commit']}); embedding model {record['embed_model']}, offline provider; "
             f"{len(usable)} dev questions answered from retrieved chunks ({sum(c['no_answer'] for c in usable)} "
             f"with no answer in the table), {len(elsewhere)} decided before retrieval (SQL route or no rows "
             f"selected). {record['machine']['cpu_count']} cores, load {load_span(record)}.", "",
             "Rule: relevant = X >= STRONG, or X >= FLOOR and one chunk mentions the topic's words, where X is the "
             "best similarity or ABOVE = the best similarity minus the question's background (its mean similarity to "
             "the table's sample of chunks); both are calibrated, the one with fewer wrong decisions is chosen. "
             "Then, with them, SMALL: in the hybrid route, when the conditions alone select at most top_k rows, X >= "
             "SMALL is relevant too (with or without the topic's words). Then SUPPORT replaces 'mentions the topic's "
             "words': a chunk at or above FLOOR mentions all of them, or the words it lacks, embedded together, are "
             "at least SUPPORT similar to its stored vector (kept only if it makes fewer wrong decisions). Then "
             "RESTRICTED: inside rows narrowed by conditions (SQL-selected in the hybrid route, a metadata filter in "
             "the vector route), any number of them, X >= RESTRICTED (below STRONG) is "
             "relevant (kept only if it makes fewer wrong decisions); the last two rows calibrate it with the "
             "product's own FLOOR, STRONG, SMALL and SUPPORT. "
             "Positive = replying 'nothing relevant'.", "",
             "| rule | nothing relevant, right (TP) | answered although nothing exists (FN) | "
             "nothing relevant although an answer exists (FP) | answered, right (TN) | precision | recall |",
             "|---|---:|---:|---:|---:|---:|---:|",
             row(f"as the product decided (FLOOR {current['floor']}, STRONG {current['strong']}, SMALL "
                 f"{current.get('small', '-')}, SUPPORT {current.get('support', '-')}, RESTRICTED "
                 f"{current.get('restricted', '-')})", current),
             *[row(f"{'chosen' if scale == chosen['scale'] else 'not chosen'}: on {scale_names[scale]}, FLOOR "
                   f"{figures['floor']} (margin {figures['floor_margin']}), STRONG {figures['strong']} (margin "
                   f"{figures['strong_margin']}), no SMALL", figures) for scale, figures in record["scales"].items()],
             row(f"with SMALL {chosen['small']} (margin {chosen['small_margin']}; "
                 f"{chosen['small_cases']} small sets not otherwise relevant)", record["with_small"]),
             row(f"and SUPPORT {chosen['support']} (plateau {chosen.get('support_plateau')}) instead "
                 "of the words mentioned", record["with_support"]),
             row(f"**chosen**: and RESTRICTED {chosen['restricted']} (plateau {chosen.get('restricted_plateau')}): "
                 "STRONG inside rows narrowed by conditions", chosen)]
    mine = record["product_without_restricted"]
    without = confusion(usable, mine["floor"], mine["strong"], "best", mine["small"], mine["support"])
    lines += [row(f"chosen, {name} only", figures) for name, figures in record["per_table"].items()]
    lines += [row("the product's FLOOR, STRONG, SMALL and SUPPORT without RESTRICTED", {"confusion": without,
                                                                                        **rates(without)}),
              row(f"the same with RESTRICTED calibrated on them: {mine['restricted']} (plateau "
                  f"{mine.get('restricted_plateau')})", mine)]
    lines += ["", "| table | case | no answer | route | rows selected by SQL | best similarity | background | ABOVE | "
              "topic words mentioned | support | chosen rule says |",
              "|---|---|---|---|---:|---:|---:|---:|---|---:|---|"]
    for c in sorted(usable, key=lambda c: (c["no_answer"], c["above"])):
        verdict = ("relevant" if decide(c, chosen["floor"], chosen["strong"], chosen["scale"], chosen["small"],
                                        chosen["support"], chosen["restricted"] or math.inf) else "nothing relevant")
        background = "-" if c.get("background") is None else f"{c['background']:.3f}"
        selected = "-" if c.get("selected") is None else str(c["selected"])
        lines.append(f"| {c['table']} | `{c['id']}` | {'yes' if c['no_answer'] else ''} | {c['route']} | {selected} | "
                     f"{c['best']:.3f} | {background} | {c['above']:.3f} | {'yes' if c['mentioned'] else 'no'} | "
                     f"{'-' if c.get('support') is None else format(c['support'], '.3f')} | "
                     f"{verdict} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
