"""The strategy experiments: one seat plays a variant, the other three play ``speed``.

Each arm is a duplicate run of ``VARIANT/speed/speed/speed``; the answer is what switching from
``speed`` to the variant earns at a table of ``speed`` players, per deal, paired by wall (see
:mod:`simcore.experiments.paired`).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from simcore.experiments.base import Arm, Experiment, format_interval
from simcore.experiments.paired import between_arms, canonical, seat_vs_field
from simcore.runner.store import Dataset

BASELINE = "speed"
FIELD = "/speed/speed/speed"
# what each answer reports (see paired.METRIC_MEANINGS); flower pigs are left out: every policy
# here discards its void suit first, so pigs are about 1 in 100,000 player-deals (rules_compared)
STRATEGY_METRICS = ("net", "win", "fan", "deal_in", "net_win", "net_kong")
FLUSH_METRICS = ("net", "win", "flush_win", "fan", "deal_in", "net_win", "net_kong")
KONG_METRICS = ("net", "win", "kongs", "net_kong", "net_win", "fan", "deal_in")
FLUSH_KS = tuple(range(5, 12))
TWO_PRESETS = ("classic", "app")  # their flush values differ: 2 fan (x4) in classic, 1 in app


def _arm(preset: str, variant: str, name: str, **labels: object) -> Arm:
    return Arm(f"{preset}-{name}", preset, variant + FIELD, {"preset": preset, **labels})


def _variant(arm: Arm) -> str:
    return arm.policies.split("/")[0]


def _versus_field(metrics: Sequence[str]):
    def analyse(arms: Sequence[Arm], datasets: Sequence[Dataset]) -> pd.DataFrame:
        table, _ = seat_vs_field(datasets, [a.labels for a in arms],
                                 [_variant(a) for a in arms], BASELINE, metrics)
        return table

    return analyse


def _net_lines(table: pd.DataFrame, keys: Sequence[str]) -> str:
    """One line per row of metric ``net`` vs the field: labels, estimate and interval."""
    rows = table[(table["metric"] == "net") & (table["baseline"] == canonical(BASELINE))]
    lines = []
    for _, row in rows.iterrows():
        label = ", ".join(str(row[k]) if k in ("preset", "policy") else f"{k}={row[k]}"
                          for k in keys)
        lines.append(f"- {label}: {format_interval(row.estimate, row.ci_low, row.ci_high)} "
                     f"units/deal vs speed ({row.walls:,} walls)")
    return "\n".join(lines)


# 1. speed vs flush -------------------------------------------------------------------------

def _flush_analysis(arms: Sequence[Arm], datasets: Sequence[Dataset]) -> pd.DataFrame:
    table, per_wall = seat_vs_field(datasets, [a.labels for a in arms],
                                    [_variant(a) for a in arms], BASELINE, FLUSH_METRICS)
    marginal = []
    index = {(a.labels["preset"], a.labels["k"]): i for i, a in enumerate(arms)}
    for (preset, k), i in index.items():
        j = index.get((preset, k + 1))
        if j is None:
            continue
        rows = between_arms(per_wall[i], per_wall[j])
        rows.insert(0, "baseline", canonical(_variant(arms[j])))
        rows.insert(0, "policy", canonical(_variant(arms[i])))
        rows.insert(0, "k", k)
        rows.insert(0, "preset", preset)
        marginal.append(rows)
    return pd.concat([table, *marginal], ignore_index=True)


def _flush_headline(table: pd.DataFrame) -> str:
    lines = []
    vs_field = table[(table["metric"] == "net") & (table["baseline"] == BASELINE)]
    steps = table[(table["metric"] == "net") & (table["baseline"] != BASELINE)]
    for preset, rows in vs_field.groupby("preset", sort=False):
        best = rows.loc[rows["estimate"].idxmax()]
        paying = steps[(steps["preset"] == preset) & (steps["ci_low"] > 0)]["k"]
        losing = steps[(steps["preset"] == preset) & (steps["ci_high"] < 0)]["k"]
        lines.append(
            f"- {preset}: the best threshold is k={best.k} "
            f"({format_interval(best.estimate, best.ci_low, best.ci_high)} units/deal vs speed); "
            f"adding suits of exactly k tiles pays for k in {sorted(paying.tolist()) or 'none'}"
            f" and costs for k in {sorted(losing.tolist()) or 'none'} (95% CIs exclude 0)."
        )
    return "Chasing the full flush (flush:k) with one seat at a table of speed players:\n" + \
        "\n".join(lines) + "\n\nPer threshold:\n" + _net_lines(table, ("preset", "k"))


SPEED_VS_FLUSH = Experiment(
    name="speed_vs_flush",
    question="From which suit length does chasing the full flush (清一色) pay, and how much per "
             "deal? flush:k (chase when the longest non-void suit holds >= k tiles after the "
             "exchange and the void) against speed, under classic and app.",
    arms=tuple(_arm(p, f"flush:k={k}", f"flush-k{k}", k=k) for p in TWO_PRESETS for k in FLUSH_KS),
    analyse=_flush_analysis,
    headline=_flush_headline,
    markdown_rows=("preset", "k", "policy", "baseline"),
)


# 2-5. exchange, void, kongs, holding out -----------------------------------------------------

def _simple(
    name: str, question: str, arms: tuple[Arm, ...], metrics: Sequence[str] = STRATEGY_METRICS
) -> Experiment:
    def headline(table: pd.DataFrame) -> str:
        return f"{question.split('?')[0]}?\n" + _net_lines(table, ("preset", "policy"))

    return Experiment(name=name, question=question, arms=arms, analyse=_versus_field(metrics),
                      headline=headline)


EXCHANGE_CHOICES = ("random", "keep_long")
EXCHANGE_THREE = _simple(
    "exchange_three",
    "Which three tiles to pass in the exchange? exchange=shortest (speed's default: the three "
    "least useful tiles of the shortest suit) against random and keep_long, under app (the "
    "preset with the exchange).",
    tuple(_arm("app", f"speed:exchange={c}", f"exchange-{c}", exchange=c)
          for c in EXCHANGE_CHOICES),
)

VOID_CHOICE = _simple(
    "void_choice",
    "Which suit to void? void=fewest (speed's default: the suit with the fewest tiles) against "
    "void=weakest (the suit whose removal leaves the lowest shanten), under classic and app.",
    tuple(_arm(p, "speed:void=weakest", "void-weakest", void="weakest") for p in TWO_PRESETS),
)

KONG_CHOICES = ("always", "never", "pung_then_add")
KONG_TIMING = _simple(
    "kong_timing",
    "Kong now or pung first? kong=keep_shape (speed's default: kong when it does not hurt the "
    "hand) against always, never and pung_then_add, under classic and app.",
    tuple(_arm(p, f"speed:kong={c}", f"kong-{c}", kong=c) for p in TWO_PRESETS
          for c in KONG_CHOICES),
    KONG_METRICS,
)

HOLD_OUT_VARIANTS = ("min_fan=1", "min_fan=2", "min_fan=1,until=16", "min_fan=2,until=16")
HOLD_OUT = _simple(
    "hold_out",
    "Is it worth declining a cheap win? min_fan=F (decline wins of fewer than F fan, with until=U "
    "only while more than U tiles remain) against always winning, under classic and app.",
    tuple(_arm(p, f"speed:{v}", "hold-" + v.replace("=", "").replace(",", "-"), hold_out=v)
          for p in TWO_PRESETS for v in HOLD_OUT_VARIANTS),
)
