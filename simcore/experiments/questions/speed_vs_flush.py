"""From which suit length does chasing the full flush pay? ``flush:k`` against each field."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from simcore.analysis.stats import not_worse_than_best
from simcore.experiments.base import Arm, Experiment, format_interval
from simcore.experiments.fields import DEFAULT_FIELDS, parse_fields
from simcore.experiments.paired import between_arms, canonical
from simcore.experiments.strategy import (
    BASELINE,
    FAMILY,
    HEADLINE,
    TWO_PRESETS,
    baseline_arms,
    field_arms,
    field_words,
    net_lines,
    reduction_text,
    seat_table,
    seed_text,
)
from simcore.runner.store import Dataset

PLACE = 10  # its place among the questions (the results page, run_all.py)

FLUSH_METRICS = ("net", "win", "flush_win", "fan", "deal_in", "net_win", "net_kong")
FLUSH_KS = tuple(range(5, 12))
# the thresholds played against the fields other than speed (the best sets against speed:
# classic k in {8, 9}, app k = 10): the whole sweep there would cost more than all the rest
FLUSH_KS_OTHER_FIELDS = (8, 9, 10)


def _flush_analysis(arms: Sequence[Arm], datasets: Sequence[Dataset]) -> pd.DataFrame:
    table, per_wall, groups = seat_table(arms, datasets, FLUSH_METRICS)
    extra = []
    index = {(g.labels["preset"], g.labels.get("field", BASELINE), g.labels["k"]): i
             for i, g in enumerate(groups)}
    for (preset, field, k), i in index.items():
        j = index.get((preset, field, k + 1))
        if j is None:
            continue
        rows = between_arms(per_wall[i], per_wall[j])
        rows.insert(0, "estimand", "step")
        rows.insert(0, "field", field)
        rows.insert(0, "baseline", canonical(groups[j].variant))
        rows.insert(0, "policy", canonical(groups[i].variant))
        rows.insert(0, "k", k)
        rows.insert(0, "preset", preset)
        extra.append(rows)
    for preset, field in dict.fromkeys((p, f) for p, f, _ in index):
        ks = [k for (p, f, k) in index if p == preset and f == field]
        if len(ks) < 2:
            continue
        frame = pd.DataFrame({k: per_wall[index[(preset, field, k)]]["net"] for k in ks})
        _, shortfall = not_worse_than_best(frame)
        best = int(shortfall["best"].iloc[0])
        extra.append(pd.DataFrame({
            "preset": preset, "k": shortfall["setting"].astype(int),
            "policy": [canonical(f"flush:k={k}") for k in shortfall["setting"]],
            "baseline": canonical(f"flush:k={best}"), "best_k": best, "field": field,
            "estimand": "shortfall_vs_best", "metric": "net", "walls": len(frame.dropna()),
            "estimate": shortfall["shortfall"], "ci_low": shortfall["ci_low"],
            "ci_high": shortfall["ci_high"], "p_value": shortfall["p_value"],
            "method": shortfall["method"],
        }))
    return pd.concat([table, *extra], ignore_index=True)


def best_set(table: pd.DataFrame, preset: str, seed: int,
              field: str | None = None) -> tuple[int | None, list[int]]:
    """The best k and the set of k not significantly worse (Holm-adjusted p >= 0.05), against
    ``field`` (the speed field when the table has fields and none is named)."""
    rows = table[(table["preset"] == preset) & (table["seed"] == seed)]
    if "field" in rows.columns:
        rows = rows[rows["field"] == (BASELINE if field is None else field)]
    short = rows[rows["estimand"] == "shortfall_vs_best"]
    if not len(short):
        return None, []
    best = int(short["best_k"].iloc[0])
    keep = short.loc[~(short["p_holm"] < 0.05), "k"].astype(int).tolist()
    return best, sorted({best, *keep})


def _flush_replicate(arms: Sequence[Arm]):
    """The arms of the best sets against speed (the other fields are played once)."""
    def replicate(table: pd.DataFrame) -> list[str]:
        seed = int(table["seed"].min())
        names = []
        for preset in TWO_PRESETS:
            _, chosen = best_set(table, preset, seed)
            names += [a.name for a in arms if a.labels.get("preset") == preset
                      and a.labels.get("k") in chosen
                      and a.labels.get("field", BASELINE) == BASELINE]
        return names

    return replicate


def _flush_headline(table: pd.DataFrame) -> str:
    lines = []
    seed = int(table["seed"].min())
    gains = table[(table["metric"] == "net") & (table["estimand"] == HEADLINE)]
    steps = table[(table["metric"] == "net") & (table["estimand"] == "step")
                  & (table["seed"] == seed)]
    for preset, field in dict.fromkeys(zip(gains["preset"], gains["field"], strict=True)):
        best, chosen = best_set(table, preset, seed, field)
        rows = gains[(gains["preset"] == preset) & (gains["seed"] == seed)
                     & (gains["field"] == field)]
        if best is None:
            best = int(rows.loc[rows["estimate"].idxmax(), "k"])
            chosen = [best]
        top = rows[rows["k"] == best].iloc[0]
        again = gains[(gains["preset"] == preset) & (gains["k"] == best)
                      & (gains["field"] == field)]
        mine = steps[(steps["preset"] == preset) & (steps["field"] == field)]
        paying = mine[mine["ci_low"] > 0]["k"]
        losing = mine[mine["ci_high"] < 0]["k"]
        ks = sorted(rows["k"].astype(int))
        lines.append(
            f"- {preset}, {field_words(field)} (k = {ks[0]}..{ks[-1]}): the best thresholds "
            f"are k ∈ {{{', '.join(map(str, chosen))}}} (not significantly worse than the "
            f"best, k={best}: Holm-adjusted paired comparisons on the same walls, p >= 0.05); "
            f"k={best} earns {format_interval(top.estimate, top.ci_low, top.ci_high)} "
            f"units/deal{seed_text(again, seed)}; adding suits of exactly k tiles pays for k "
            f"in {sorted(paying.tolist()) or 'none'} and costs for k in "
            f"{sorted(losing.tolist()) or 'none'} (95% CIs of the steps exclude 0)."
        )
    return ("Chasing the full flush (flush:k) with one seat against each field; the "
            "switching gain is what the seat earns by switching from speed:\n"
            + "\n".join(lines) + "\n\nPer threshold:\n" + net_lines(table, ("preset", "k"))
            + "\n\n" + reduction_text(table))


def build(fields: Sequence[str] = DEFAULT_FIELDS) -> Experiment:
    """``flush:k`` against each field: k = 5..11 against speed, the best thresholds
    (:data:`FLUSH_KS_OTHER_FIELDS`) against the others."""
    parsed = parse_fields(fields)
    arms: list[Arm] = []
    for preset in TWO_PRESETS:
        for field in parsed:
            ks = FLUSH_KS if field.is_speed else FLUSH_KS_OTHER_FIELDS
            for k in ks:
                arms += field_arms(preset, f"flush:k={k}", f"flush-k{k}", [field], k=k)
    arms += [b for p in TWO_PRESETS for b in baseline_arms(p, parsed)]
    return Experiment(
        name="speed_vs_flush",
        question="From which suit length does chasing the full flush (清一色) pay, and how much "
                 "per deal? flush:k (chase when the longest non-void suit holds >= k tiles "
                 "after the exchange and the void) against speed, under classic and app, "
                 "against each field.",
        arms=tuple(arms),
        analyse=_flush_analysis,
        headline=_flush_headline,
        markdown_rows=("preset", "k", "policy", "baseline", "estimand"),
        family=("preset", *FAMILY),
        replicate=_flush_replicate(arms),
        fields=tuple(fields),
        answer_rows=("preset", "k", "policy"),
    )
