"""The descriptive experiments: what the first win is worth, and the five rule sets compared."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcore.analysis import compare_policies, drawn_ends, fan_table, first_win_profit
from simcore.analysis.stats import DEFAULT_LEVEL
from simcore.experiments.base import Arm, Experiment, format_interval
from simcore.experiments.paired import interval_rows
from simcore.rules import PRESETS
from simcore.runner.store import Dataset

MIXED_TABLE = "speed/flush/pungs/pairs"
BIG_LOSS = 16  # units: a loss of 16 or more is a "big loss" in the spread rows


# 6. first win vs profit ------------------------------------------------------------------

def _first_win_analysis(arms: Sequence[Arm], datasets: Sequence[Dataset]) -> pd.DataFrame:
    tables = [first_win_profit(ds.path, by=("preset",)) for ds in datasets]
    table = pd.concat(tables, ignore_index=True)
    return table[table["fan"] == "all"].drop(columns="fan").reset_index(drop=True)


def _first_win_headline(table: pd.DataFrame) -> str:
    lines = []
    for preset, rows in table.groupby("preset", sort=False):
        negative = rows[rows["metric"] == "first_winner_negative"].iloc[0]
        net = rows[rows["metric"] == "net"].set_index("level")
        first, none = net.loc["1"], net.loc["none"]
        lines.append(
            f"- {preset}: {negative.estimate:.1%} [{negative.ci_low:.1%}, {negative.ci_high:.1%}]"
            f" of first winners still lose money; a first winner nets "
            f"{format_interval(first.estimate, first.ci_low, first.ci_high, 2)}, "
            f"a player who never wins "
            f"{format_interval(none.estimate, none.ci_low, none.ci_high, 2)} units/deal."
        )
    return "How often does the first winner still lose money (speed on all seats)?\n" + \
        "\n".join(lines)


FIRST_WIN_PROFIT = Experiment(
    name="first_win_profit",
    question="How does the first win relate to the final result? Net by win order and the share "
             "of first winners who still end the deal with a loss, with speed on all seats, "
             "under each of the five presets.",
    arms=tuple(Arm(f"{p}-speed", p, "speed", {"preset": p}, duplicate=False) for p in PRESETS),
    analyse=_first_win_analysis,
    headline=_first_win_headline,
    markdown_rows=("metric", "level", "stat"),
    markdown_pivot="preset",
)


# 7. the rule sets compared ---------------------------------------------------------------

def _wall_mean_rows(
    dataset: Dataset, preset: str, level: float = DEFAULT_LEVEL
) -> list[dict[str, object]]:
    """Spread of nets: per-wall means are independent, so their mean has a plain z interval."""
    records = dataset.records(["wall", "net"])
    net = records["net"].to_numpy(np.float64)
    values = pd.DataFrame({
        "net_sd": net ** 2,  # E[net] = 0 exactly (payments are zero-sum): sd = sqrt(E[net^2])
        "mean_abs_net": np.abs(net),
        f"loss_{BIG_LOSS}_or_more": (net <= -BIG_LOSS).astype(np.float64),
    })
    per_wall = values.groupby(records["wall"].to_numpy()).mean()
    rows = []
    for row in interval_rows(per_wall, level).itertuples():
        mean, se, low, high = row.estimate, row.se, row.ci_low, row.ci_high
        if row.metric == "net_sd":
            mean, low, high = np.sqrt(mean), np.sqrt(max(low, 0.0)), np.sqrt(high)
            se = se / (2 * mean) if mean > 0 else np.nan  # delta method
        rows.append({"preset": preset, "measure": row.metric, "value": "", "group": "all",
                     "per": "player-deal", "n": len(net), "estimate": mean, "se": se,
                     "ci_low": low, "ci_high": high, "estimand": "mean",
                     "method": f"wall means, {row.method}"})
    return rows


def _rules_analysis(arms: Sequence[Arm], datasets: Sequence[Dataset]) -> pd.DataFrame:
    tables = []
    for arm, ds in zip(arms, datasets, strict=True):
        preset = arm.labels["preset"]
        fans = fan_table(ds.path, by=("preset",))
        fans = fans[(fans["per"] == "win") & fans["item"].isin(["pattern", "flush", "fan",
                                                                 "win_kind"])]
        tables.append(pd.DataFrame({
            "preset": preset, "measure": "wins_by_" + fans["item"], "value": fans["value"],
            "group": "all", "per": "win", "n": fans["n"], "estimate": fans["rate"],
            "se": fans["se"], "ci_low": fans["ci_low"], "ci_high": fans["ci_high"],
            "estimand": "rate", "method": fans["method"],
        }))
        drawn = drawn_ends(ds.path, by=("preset",))
        drawn = drawn[drawn["metric"].isin(["drawn_end", "pig", "ready_end", "kongs",
                                            "kong_money", "refunds"])]
        tables.append(pd.DataFrame({
            "preset": preset, "measure": drawn["metric"], "value": "", "group": "all",
            "per": drawn["per"], "n": drawn["n"], "estimate": drawn["estimate"],
            "se": drawn["se"], "ci_low": drawn["ci_low"], "ci_high": drawn["ci_high"],
            "estimand": drawn["stat"], "method": drawn["method"],
        }))
        tables.append(pd.DataFrame(_wall_mean_rows(ds, preset)))
        compare = compare_policies(ds.path, baseline="speed", metrics=("net", "win", "pig"),
                                   by=("preset",))
        compare = compare[compare["stat"] == "difference"]
        tables.append(pd.DataFrame({
            "preset": preset, "measure": compare["metric"] + "_vs_speed", "value": "",
            "group": compare["policy"], "per": "player-deal", "n": compare["n"],
            "estimate": compare["estimate"], "se": compare["se"], "ci_low": compare["ci_low"],
            "ci_high": compare["ci_high"], "estimand": compare["estimand"],
            "method": compare["method"] + ", " + compare["interval"],
            "informative_walls": compare["informative_walls"],
            "se_unpaired": compare["se_unpaired"],
            "variance_reduction": compare["variance_reduction"], "p_value": compare["p_value"],
        }))
    return pd.concat(tables, ignore_index=True)


def _rules_headline(table: pd.DataFrame) -> str:
    def pick(measure: str, value: str = "", group: str = "all", per: str | None = None):
        rows = table[(table["measure"] == measure) & (table["value"].astype(str) == value)
                     & (table["group"] == group)]
        if per is not None:
            rows = rows[rows["per"] == per]
        return rows.set_index("preset")

    sd, pig = pick("net_sd"), pick("pig", per="player-deal")
    flush = pick("wins_by_flush", "yes")
    lines = []
    for preset in sd.index:
        lines.append(
            f"- {preset}: sd of net {sd.loc[preset, 'estimate']:.2f} units "
            f"[{sd.loc[preset, 'ci_low']:.2f}, {sd.loc[preset, 'ci_high']:.2f}], flower pigs "
            f"{pig.loc[preset, 'estimate']:.3%} of player-deals (at most "
            f"{pig.loc[preset, 'ci_high']:.3%}), full flush in "
            f"{flush.loc[preset, 'estimate']:.2%} of wins"
        )
    best = table[(table["measure"] == "net_vs_speed")]
    lines.append("Net vs speed at a mixed table (" + MIXED_TABLE + "), units/deal:")
    for preset, rows in best.groupby("preset", sort=False):
        parts = [f"{r.group} {format_interval(r.estimate, r.ci_low, r.ci_high, 2)}"
                 for r in rows.itertuples()]
        lines.append(f"- {preset}: " + "; ".join(parts))
    return "The five rule sets with the same four policies (" + MIXED_TABLE + "):\n" + \
        "\n".join(lines)


RULES_COMPARED = Experiment(
    name="rules_compared",
    question="How do the five rule sets differ when the same policies play? Fan and pattern "
             "frequencies, drawn ends and flower pigs, kongs, the spread of nets and what each "
             "policy earns, with speed/flush/pungs/pairs at every table.",
    arms=tuple(Arm(f"{p}-mixed", p, MIXED_TABLE, {"preset": p}) for p in PRESETS),
    analyse=_rules_analysis,
    headline=_rules_headline,
    markdown_rows=("measure", "value", "group", "per"),
    markdown_pivot="preset",
    family=("measure",),
)
