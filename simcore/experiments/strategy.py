"""The strategy experiments: one seat plays a variant, the other three play ``speed``.

Each arm is a duplicate run of ``VARIANT/speed/speed/speed``; the answer is the *switching
gain*, what the seat earns per deal by switching from ``speed`` to the variant against three
``speed`` players, paired by wall (see :mod:`simcore.experiments.paired`). Every experiment also
plays a *baseline arm* per preset, ``speed`` in every seat on the same walls, for the switching
gains of metrics that are not zero-sum (win rate, fan, ...). ``vs_field`` rows (variant minus the
field's mean; 4/3 of the gain for net) are kept, clearly named. The arms of a headline are run
again on a second seed (``replicate``).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from simcore.analysis.stats import not_worse_than_best
from simcore.experiments.base import Arm, Experiment, format_interval
from simcore.experiments.paired import between_arms, canonical, seat_vs_field
from simcore.runner.store import Dataset

BASELINE = "speed"
FIELD = "/speed/speed/speed"
FIELD_WORDS = "against three speed players"
# what each answer reports (see paired.METRIC_MEANINGS); flower pigs are left out: every policy
# here discards its void suit first, so pigs are about 1 in 100,000 player-deals (rules_compared)
STRATEGY_METRICS = ("net", "win", "fan", "deal_in", "net_win", "net_kong")
FLUSH_METRICS = ("net", "win", "flush_win", "fan", "deal_in", "net_win", "net_kong")
KONG_METRICS = ("net", "win", "kongs", "net_kong", "net_win", "fan", "deal_in")
FLUSH_KS = tuple(range(5, 12))
TWO_PRESETS = ("classic", "app")  # their flush values differ: 2 fan (x4) in classic, 1 in app
HEADLINE = "switching_gain"


def _arm(preset: str, variant: str, name: str, **labels: object) -> Arm:
    return Arm(f"{preset}-{name}", preset, variant + FIELD, {"preset": preset, **labels})


def _baseline_arm(preset: str) -> Arm:
    """``speed`` in every seat, each wall once (its four rotations would seat the same table)."""
    return Arm(f"{preset}-baseline", preset, BASELINE, {"preset": preset, "role": "baseline"},
               one_rotation=True)


def _variant(arm: Arm) -> str:
    return arm.policies.split("/")[0]


def _split(arms: Sequence[Arm], datasets: Sequence[Dataset]):
    """The variant arms with their datasets, and the baseline arm of each preset."""
    variants = [(a, d) for a, d in zip(arms, datasets, strict=True)
                if a.labels.get("role") != "baseline"]
    baselines = {a.labels["preset"]: d for a, d in zip(arms, datasets, strict=True)
                 if a.labels.get("role") == "baseline"}
    return variants, baselines


def _labels(arm: Arm) -> dict[str, object]:
    return {k: v for k, v in arm.labels.items() if k != "role"}


def _seat_table(arms: Sequence[Arm], datasets: Sequence[Dataset], metrics: Sequence[str]):
    variants, baselines = _split(arms, datasets)
    return seat_vs_field([d for _, d in variants], [_labels(a) for a, _ in variants],
                         [_variant(a) for a, _ in variants], BASELINE, metrics,
                         baseline_arms=baselines)


def _versus_field(metrics: Sequence[str]):
    def analyse(arms: Sequence[Arm], datasets: Sequence[Dataset]) -> pd.DataFrame:
        table, _ = _seat_table(arms, datasets, metrics)
        return table

    return analyse


def _all_variants(arms: Sequence[Arm]):
    def replicate(table: pd.DataFrame) -> list[str]:
        return [a.name for a in arms if a.labels.get("role") != "baseline"]

    return replicate


def _seed_text(rows: pd.DataFrame, first_seed: int) -> str:
    """``; seed 1: +0.040 [...]`` for the replicate rows of a headline (empty without one)."""
    parts = [f"seed {int(r.seed)}: {format_interval(r.estimate, r.ci_low, r.ci_high)}"
             for r in rows.itertuples() if int(r.seed) != first_seed]
    return "; " + "; ".join(parts) if parts else ""


def _net_lines(table: pd.DataFrame, keys: Sequence[str]) -> str:
    """One line per arm: the net switching gain with its interval, method and walls, on both
    seeds, and the vs_field figure beside it."""
    net = table[(table["metric"] == "net") & (table["baseline"] == canonical(BASELINE))]
    gains = net[net["estimand"] == HEADLINE]
    first_seed = int(gains["seed"].min()) if len(gains) else 0
    lines = []
    for _, row in gains[gains["seed"] == first_seed].iterrows():
        label = ", ".join(str(row[k]) if k in ("preset", "policy") else f"{k}={row[k]}"
                          for k in keys)
        same = (gains["policy"] == row["policy"]) & (gains["preset"] == row["preset"])
        vs = net[(net["estimand"] == "vs_field") & (net["seed"] == first_seed)
                 & (net["policy"] == row["policy"]) & (net["preset"] == row["preset"])]
        vs_text = ""
        if len(vs):
            v = vs.iloc[0]
            vs_text = f"; vs the field {format_interval(v.estimate, v.ci_low, v.ci_high)}"
        lines.append(f"- {label}: switching gain "
                     f"{format_interval(row.estimate, row.ci_low, row.ci_high)} units/deal "
                     f"{FIELD_WORDS} (seed {first_seed}, {row.walls:,} walls, {row.method}, "
                     f"Holm p {row.p_holm:.2g}{_seed_text(gains[same], first_seed)}{vs_text})")
    return "\n".join(lines)


def _reduction_text(table: pd.DataFrame) -> str:
    """One sentence on what the duplicate design bought for the headline rows."""
    rows = table[(table["estimand"] == HEADLINE) & (table["metric"] == "net")
                 & (table["method"] != "exact")]
    vr = rows["variance_reduction"].dropna()
    if not len(vr) or vr.median() >= 1.0:
        return ""
    median = float(vr.median())
    return (f"Playing every wall in all four seat rotations removed a median "
            f"{median:.0%} of the variance of these estimates (range {vr.min():.0%} to "
            f"{vr.max():.0%}), worth {1 / max(1 - median, 1e-9):.1f} times as many deals.")


# 1. speed vs flush -------------------------------------------------------------------------

def _flush_analysis(arms: Sequence[Arm], datasets: Sequence[Dataset]) -> pd.DataFrame:
    table, per_wall = _seat_table(arms, datasets, FLUSH_METRICS)
    variants, _ = _split(arms, datasets)
    extra = []
    index = {(a.labels["preset"], a.labels["k"]): i for i, (a, _) in enumerate(variants)}
    for (preset, k), i in index.items():
        j = index.get((preset, k + 1))
        if j is None:
            continue
        rows = between_arms(per_wall[i], per_wall[j])
        rows.insert(0, "estimand", "step")
        rows.insert(0, "field", FIELD.strip("/"))
        rows.insert(0, "baseline", canonical(_variant(variants[j][0])))
        rows.insert(0, "policy", canonical(_variant(variants[i][0])))
        rows.insert(0, "k", k)
        rows.insert(0, "preset", preset)
        extra.append(rows)
    for preset in dict.fromkeys(a.labels["preset"] for a, _ in variants):
        ks = [k for (p, k) in index if p == preset]
        if len(ks) < 2:
            continue
        frame = pd.DataFrame({k: per_wall[index[(preset, k)]]["net"] for k in ks})
        _, shortfall = not_worse_than_best(frame)
        best = int(shortfall["best"].iloc[0])
        extra.append(pd.DataFrame({
            "preset": preset, "k": shortfall["setting"].astype(int),
            "policy": [canonical(f"flush:k={k}") for k in shortfall["setting"]],
            "baseline": canonical(f"flush:k={best}"), "best_k": best, "field": FIELD.strip("/"),
            "estimand": "shortfall_vs_best", "metric": "net", "walls": len(frame.dropna()),
            "estimate": shortfall["shortfall"], "ci_low": shortfall["ci_low"],
            "ci_high": shortfall["ci_high"], "p_value": shortfall["p_value"],
            "method": shortfall["method"],
        }))
    return pd.concat([table, *extra], ignore_index=True)


def _best_set(table: pd.DataFrame, preset: str, seed: int) -> tuple[int | None, list[int]]:
    """The best k and the set of k not significantly worse (Holm-adjusted p >= 0.05)."""
    rows = table[(table["preset"] == preset) & (table["seed"] == seed)]
    short = rows[rows["estimand"] == "shortfall_vs_best"]
    if not len(short):
        return None, []
    best = int(short["best_k"].iloc[0])
    keep = short.loc[~(short["p_holm"] < 0.05), "k"].astype(int).tolist()
    return best, sorted({best, *keep})


def _flush_replicate(arms: Sequence[Arm]):
    def replicate(table: pd.DataFrame) -> list[str]:
        seed = int(table["seed"].min())
        names = []
        for preset in TWO_PRESETS:
            _, chosen = _best_set(table, preset, seed)
            names += [a.name for a in arms if a.labels.get("preset") == preset
                      and a.labels.get("k") in chosen]
        return names

    return replicate


def _flush_headline(table: pd.DataFrame) -> str:
    lines = []
    seed = int(table["seed"].min())
    gains = table[(table["metric"] == "net") & (table["estimand"] == HEADLINE)]
    steps = table[(table["metric"] == "net") & (table["estimand"] == "step")
                  & (table["seed"] == seed)]
    for preset in dict.fromkeys(gains["preset"]):
        best, chosen = _best_set(table, preset, seed)
        rows = gains[(gains["preset"] == preset) & (gains["seed"] == seed)]
        if best is None:
            best = int(rows.loc[rows["estimate"].idxmax(), "k"])
            chosen = [best]
        top = rows[rows["k"] == best].iloc[0]
        again = gains[(gains["preset"] == preset) & (gains["k"] == best)]
        paying = steps[(steps["preset"] == preset) & (steps["ci_low"] > 0)]["k"]
        losing = steps[(steps["preset"] == preset) & (steps["ci_high"] < 0)]["k"]
        lines.append(
            f"- {preset}: the best thresholds are k ∈ {{{', '.join(map(str, chosen))}}} (not "
            f"significantly worse than the best, k={best}: Holm-adjusted paired comparisons "
            f"on the same walls, p >= 0.05); k={best} earns "
            f"{format_interval(top.estimate, top.ci_low, top.ci_high)} units/deal {FIELD_WORDS}"
            f"{_seed_text(again, seed)}; adding suits of exactly k tiles pays for k in "
            f"{sorted(paying.tolist()) or 'none'} and costs for k in "
            f"{sorted(losing.tolist()) or 'none'} (95% CIs of the steps exclude 0)."
        )
    return ("Chasing the full flush (flush:k) with one seat against three speed players; the "
            "switching gain is what the seat earns by switching from speed:\n"
            + "\n".join(lines) + "\n\nPer threshold:\n" + _net_lines(table, ("preset", "k"))
            + "\n\n" + _reduction_text(table))


_FLUSH_ARMS = (*(_arm(p, f"flush:k={k}", f"flush-k{k}", k=k) for p in TWO_PRESETS
                 for k in FLUSH_KS), *(_baseline_arm(p) for p in TWO_PRESETS))
SPEED_VS_FLUSH = Experiment(
    name="speed_vs_flush",
    question="From which suit length does chasing the full flush (清一色) pay, and how much per "
             "deal? flush:k (chase when the longest non-void suit holds >= k tiles after the "
             "exchange and the void) against speed, under classic and app.",
    arms=_FLUSH_ARMS,
    analyse=_flush_analysis,
    headline=_flush_headline,
    markdown_rows=("preset", "k", "policy", "baseline", "estimand"),
    family=("preset", "estimand", "metric", "baseline"),
    replicate=_flush_replicate(_FLUSH_ARMS),
)


# 2-5. exchange, void, kongs, holding out -----------------------------------------------------

def _simple(
    name: str, question: str, arms: tuple[Arm, ...], metrics: Sequence[str] = STRATEGY_METRICS
) -> Experiment:
    presets = tuple(dict.fromkeys(a.rules for a in arms))
    arms = (*arms, *(_baseline_arm(p) for p in presets))

    def headline(table: pd.DataFrame) -> str:
        return (f"{question.split('?')[0]}? Switching gains {FIELD_WORDS}:\n"
                + _net_lines(table, ("preset", "policy")) + "\n\n" + _reduction_text(table))

    return Experiment(name=name, question=question, arms=arms, analyse=_versus_field(metrics),
                      headline=headline, markdown_rows=("preset", "policy", "baseline",
                                                        "estimand"),
                      replicate=_all_variants(arms))


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
