"""One seat against a field: per-wall paired differences within an arm and across arms.

In an arm ``X/speed/speed/speed`` played as a duplicate run, every wall is dealt four times with
``X`` in each seat once. For each wall, ``X``'s mean over its four player-deals minus the field's
mean over its twelve is one paired difference; walls are independent, so the estimate is the mean
over walls and its standard error their standard deviation over ``sqrt(walls)`` (the paired method
of :func:`simcore.analysis.compare_policies`, which the tests check this against).

Arms of one experiment share their seed, hence their walls, so two arms can be paired too: the
difference of their per-wall differences (``X`` vs ``Y`` at the same tables) has its own,
narrower, interval. ``flush:k=5`` minus ``flush:k=6``, for instance, is the value of chasing the
flush *also* with a suit of exactly five tiles.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from simcore.analysis.stats import DEFAULT_LEVEL, two_sided_p, z_quantile
from simcore.engine.spec import parse_spec
from simcore.runner.store import Dataset

# per player-deal metrics: name -> (columns read, values)
METRICS: dict[str, tuple[tuple[str, ...], Callable[[pd.DataFrame], pd.Series]]] = {
    "net": (("net",), lambda df: df["net"].astype(np.float64)),
    "win": (("win_order",), lambda df: (df["win_order"] > 0).astype(np.float64)),
    "fan": (("fan",), lambda df: df["fan"].astype(np.float64)),
    "flush_win": (("flush", "win_order"),
                  lambda df: (df["flush"] & (df["win_order"] > 0)).astype(np.float64)),
    "pig": (("pig",), lambda df: df["pig"].astype(np.float64)),
    "deal_in": (("deal_ins",), lambda df: (df["deal_ins"] > 0).astype(np.float64)),
    "kongs": (("kongs",), lambda df: df["kongs"].astype(np.float64)),
    "net_kong": (("net_kong",), lambda df: df["net_kong"].astype(np.float64)),
    "net_win": (("net_win",), lambda df: df["net_win"].astype(np.float64)),
}
METRIC_MEANINGS = {
    "net": "units won per deal",
    "win": "share of deals won",
    "fan": "fan won per deal (0 without a win)",
    "flush_win": "share of deals won with a full flush",
    "pig": "share of deals ending as flower pig",
    "deal_in": "share of deals dealing in (a winner on own discard)",
    "kongs": "kongs made per deal",
    "net_kong": "kong money per deal",
    "net_win": "win money per deal",
}
INTERVAL_COLUMNS = ("walls", "estimate", "se", "ci_low", "ci_high", "p_value")


def canonical(spec: str) -> str:
    """The canonical text of one seat's spec: the label of its rows in the records."""
    return parse_spec(spec).text


def wall_means(dataset: Dataset, metrics: Sequence[str]) -> pd.DataFrame:
    """Per (wall, policy): the mean of each metric over that policy's player-deals of the wall."""
    unknown = [m for m in metrics if m not in METRICS]
    if unknown:
        raise ValueError(f"unknown metric {unknown[0]!r}; use one of {', '.join(METRICS)}")
    columns = sorted({"wall", "policy", *(c for m in metrics for c in METRICS[m][0])})
    records = dataset.records(columns)
    values = pd.DataFrame({m: METRICS[m][1](records) for m in metrics})
    values["wall"] = records["wall"].to_numpy()
    values["policy"] = records["policy"].astype(str).to_numpy()
    return values.groupby(["wall", "policy"], sort=True).mean()


def wall_differences(
    dataset: Dataset, policy: str, baseline: str, metrics: Sequence[str]
) -> pd.DataFrame:
    """Per wall (index): ``policy``'s mean minus ``baseline``'s, one column per metric."""
    means = wall_means(dataset, metrics)
    present = set(means.index.get_level_values("policy"))
    for name in (policy, baseline):
        if name not in present:
            raise ValueError(
                f"policy {name!r} is not in run {dataset.path} "
                f"(it has {', '.join(sorted(present))})"
            )
    by_policy = means.unstack("policy")
    return pd.DataFrame({
        m: by_policy[(m, policy)] - by_policy[(m, baseline)] for m in metrics
    }).dropna()


def interval_rows(differences: pd.DataFrame, level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """Mean of each column over walls with its z interval and two-sided p-value."""
    z = z_quantile(level)
    rows = []
    for metric in differences.columns:
        values = differences[metric].to_numpy(np.float64)
        n = len(values)
        estimate = float(values.mean()) if n else np.nan
        se = float(values.std(ddof=1) / np.sqrt(n)) if n > 1 else np.nan
        p = float(two_sided_p(np.array([estimate / se]))[0]) if se > 0 else np.nan
        rows.append({"metric": metric, "walls": n, "estimate": estimate, "se": se,
                     "ci_low": estimate - z * se, "ci_high": estimate + z * se, "p_value": p})
    return pd.DataFrame(rows)


def seat_vs_field(
    datasets: Sequence[Dataset],
    labels: Sequence[Mapping[str, object]],
    policies: Sequence[str],
    baseline: str,
    metrics: Sequence[str],
    level: float = DEFAULT_LEVEL,
) -> tuple[pd.DataFrame, list[pd.DataFrame]]:
    """For each arm: ``policy - baseline`` per metric (one row per arm and metric).

    Returns the table (the arm's labels, ``policy``, ``baseline``, ``metric``,
    :data:`INTERVAL_COLUMNS`) and the per-wall differences of each arm, for
    :func:`between_arms`.
    """
    tables, per_wall = [], []
    baseline = canonical(baseline)
    for dataset, label, policy in zip(datasets, labels, policies, strict=True):
        policy = canonical(policy)
        diffs = wall_differences(dataset, policy, baseline, metrics)
        per_wall.append(diffs)
        rows = interval_rows(diffs, level)
        rows.insert(0, "baseline", baseline)
        rows.insert(0, "policy", policy)
        for i, (key, value) in enumerate(label.items()):
            rows.insert(i, key, value)
        tables.append(rows)
    return pd.concat(tables, ignore_index=True), per_wall


def between_arms(
    first: pd.DataFrame, second: pd.DataFrame, level: float = DEFAULT_LEVEL
) -> pd.DataFrame:
    """``first - second`` of two arms' per-wall differences, paired on their common walls."""
    common = first.index.intersection(second.index)
    if len(common) < 2:
        raise ValueError("the two arms share fewer than 2 walls: were they run with one seed?")
    return interval_rows(first.loc[common] - second.loc[common], level)
