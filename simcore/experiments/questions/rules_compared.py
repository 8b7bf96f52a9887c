"""How do the five rule sets differ when the same policies play? A descriptive table.

Per field ``F`` (:mod:`simcore.experiments.fields`) it describes the table ``speed/F``: one
``speed`` seat and the field (``speed`` in every seat for the speed field, as before). A rotated
field is played in its first cyclic order only: these tables pool every seat, and the order of
the three opponents changes little there. The question keeps its own mixed table,
``speed/flush/pungs/pairs``, as one more field (``flush/pungs/pairs``, the first). Fields other
than speed play half the deals (as in the strategy experiments).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcore.analysis import compare_policies, drawn_ends, fan_table
from simcore.analysis.stats import DEFAULT_LEVEL
from simcore.experiments.base import GAME_PRESETS, Arm, Experiment, format_interval
from simcore.experiments.fields import DEFAULT_FIELDS, parse_field, parse_fields
from simcore.experiments.paired import interval_rows
from simcore.experiments.strategy import OTHER_FIELD_SHARE
from simcore.runner.store import Dataset

PLACE = 70  # its place among the questions (the results page, run_all.py)

MIXED_TABLE = "speed/flush/pungs/pairs"
MIXED_FIELD = "flush/pungs/pairs"  # rules_compared's own table: speed and these three
BIG_LOSS = 16  # units: a loss of 16 or more is a "big loss" in the spread rows


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
        parts = _rules_tables(arm, ds)
        for part in parts:
            part.insert(1, "field", arm.labels.get("field", MIXED_FIELD))
        tables += parts
    return pd.concat(tables, ignore_index=True)


def _rules_tables(arm: Arm, ds: Dataset) -> list[pd.DataFrame]:
    tables = []
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
    if len(set(ds.meta.get("seat_policies", []))) < 2:  # one policy: nothing to compare
        return tables
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
    return tables


def _rules_headline(table: pd.DataFrame) -> str:
    if "field" not in table.columns:
        return _rules_field_headline(table, MIXED_FIELD)
    return "\n\n".join(_rules_field_headline(part, str(field))
                       for field, part in table.groupby("field", sort=False))


def _rules_field_headline(table: pd.DataFrame, field: str) -> str:
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
    table_text = f"speed/{field}" if field != "speed" else "speed on all seats"
    if len(best):
        lines.append(f"Net vs speed at that table ({table_text}), units/deal:")
    for preset, rows in best.groupby("preset", sort=False):
        parts = [f"{r.group} {format_interval(r.estimate, r.ci_low, r.ci_high, 2)}"
                 for r in rows.itertuples()]
        lines.append(f"- {preset}: " + "; ".join(parts))
    return f"The five rule sets with the same four policies ({table_text}):\n" + \
        "\n".join(lines)


def build(fields: Sequence[str] = DEFAULT_FIELDS) -> Experiment:
    """The five presets at the table ``speed/flush/pungs/pairs`` and at ``speed/FIELD`` for
    each field (``speed`` in every seat: each wall once)."""
    parsed = [f for f in parse_fields(fields) if f != parse_field(MIXED_FIELD)]
    arms = []
    for preset in GAME_PRESETS:
        arms.append(Arm(f"{preset}-mixed", preset, MIXED_TABLE,
                        {"preset": preset, "field": MIXED_FIELD}))
        for field in parsed:
            labels = {"preset": preset, "field": field.name}
            if field.is_speed:
                arms.append(Arm(f"{preset}-speed", preset, "speed", labels, one_rotation=True))
            else:
                arms.append(Arm(f"{preset}-{field.slug}", preset, field.table("speed"), labels,
                                share=OTHER_FIELD_SHARE))
    return Experiment(
        name="rules_compared",
        question="How do the five rule sets differ when the same policies play? Fan and "
                 "pattern frequencies, drawn ends and flower pigs, kongs, the spread of nets "
                 "and what each policy earns, with speed/flush/pungs/pairs at every table, and "
                 "at the table speed/FIELD for each field.",
        arms=tuple(arms),
        analyse=_rules_analysis,
        headline=_rules_headline,
        markdown_rows=("measure", "value", "group", "per"),
        markdown_pivot="preset",
        family=("field", "measure"),
        fields=tuple(fields),
    )
