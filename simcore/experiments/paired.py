"""One seat against a field: per-wall paired estimands within an arm and across arms.

In an arm ``X/speed/speed/speed`` played as a duplicate run, every wall is dealt four times with
``X`` in each seat once. Per wall, ``X``'s mean over its four player-deals is what the seat
earns; the field's mean over its twelve is what the others earn. Two estimands come from them
(:func:`simcore.analysis.stats.seat_estimand`):

* ``switching_gain`` -- the headline: ``X``'s own mean minus what ``speed`` itself earns in the
  same seats of the same walls against the same field. For a zero-sum metric (``net`` and its
  parts) against a field of ``speed`` that term is exactly 0; other metrics (win rate, fan, ...)
  take it from a *baseline arm*, the field's policy in every seat on the same walls.
* ``vs_field`` -- ``X``'s mean minus the field's: for ``net``, 4/3 of the switching gain (the
  field pays what ``X`` wins), a separate, clearly named row.

Walls are independent, so every interval is :func:`simcore.analysis.stats.paired_interval` of the
per-wall values (normal, or a wall-level BCa bootstrap when few walls are informative or the
differences are heavy-tailed; its ``method`` column says which).

Arms of one experiment share their seed, hence their walls, so two arms can be paired too: the
difference of their per-wall switching gains (``X`` vs ``Y`` at the same tables) has its own,
narrower, interval. ``flush:k=5`` minus ``flush:k=6``, for instance, is the value of chasing the
flush *also* with a suit of exactly five tiles.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from simcore.analysis.stats import (
    DEFAULT_LEVEL,
    ESTIMANDS,
    PAIRED_COLUMNS,
    ZERO_SUM_METRICS,
    paired_intervals,
    seat_estimand,
)
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
INTERVAL_COLUMNS = PAIRED_COLUMNS  # walls, informative_walls, estimate, se, ci_low, ... method


def canonical(spec: str) -> str:
    """The canonical text of one seat's spec: the label of its rows in the records."""
    return parse_spec(spec).text


def wall_means(dataset: Dataset, metrics: Sequence[str]) -> pd.DataFrame:
    """Per (wall, policy): the mean of each metric over that policy's player-deals of the wall."""
    values = _metric_values(dataset, metrics, ("wall", "policy"))
    return values.groupby(["wall", "policy"], sort=True)[list(metrics)].mean()


def _metric_values(
    dataset: Dataset, metrics: Sequence[str], keys: Sequence[str]
) -> pd.DataFrame:
    unknown = [m for m in metrics if m not in METRICS]
    if unknown:
        raise ValueError(f"unknown metric {unknown[0]!r}; use one of {', '.join(METRICS)}")
    columns = sorted({*keys, "policy", *(c for m in metrics for c in METRICS[m][0])})
    records = dataset.records(columns)
    values = pd.DataFrame({m: METRICS[m][1](records).to_numpy() for m in metrics})
    for key in keys:
        values[key] = records[key].to_numpy()
    values["policy"] = records["policy"].astype(str).to_numpy()
    return values


def _check_policies(dataset: Dataset, present: set[str], *names: str) -> None:
    for name in names:
        if name not in present:
            raise ValueError(
                f"policy {name!r} is not in run {dataset.path} "
                f"(it has {', '.join(sorted(present))})"
            )


def wall_differences(
    dataset: Dataset, policy: str, baseline: str, metrics: Sequence[str]
) -> pd.DataFrame:
    """Per wall (index): ``policy``'s mean minus ``baseline``'s, one column per metric."""
    means = wall_means(dataset, metrics)
    _check_policies(dataset, set(means.index.get_level_values("policy")), policy, baseline)
    by_policy = means.unstack("policy")
    return pd.DataFrame({
        m: by_policy[(m, policy)] - by_policy[(m, baseline)] for m in metrics
    }).dropna()


class SeatWalls:
    """One seat's policy in a duplicate arm: per wall its own mean and the field's mean.

    ``own_deal_var`` and ``vs_deal_var`` are the variances over deals of the seat's own mean and
    of own minus field per deal, and ``deals`` their count: the unpaired standard errors
    (``sqrt(var / deals)``: every deal on a wall of its own) that the variance reduction compares
    the paired ones with.
    """

    def __init__(self, dataset: Dataset, policy: str, metrics: Sequence[str]) -> None:
        values = _metric_values(dataset, metrics, ("wall", "deal"))
        _check_policies(dataset, set(values["policy"]), policy)
        mine = (values["policy"] == policy).to_numpy()
        metrics = list(metrics)
        self.own = values[mine].groupby("wall", sort=True)[metrics].mean()
        self.field = values[~mine].groupby("wall", sort=True)[metrics].mean()
        own_deal = values[mine].groupby("deal", sort=True)[metrics].mean()
        field_deal = values[~mine].groupby("deal", sort=True)[metrics].mean()
        self.deals = len(own_deal)
        self.own_deal_var = own_deal.var(ddof=1)
        self.vs_deal_var = (own_deal - field_deal).var(ddof=1)


def baseline_walls(dataset: Dataset, metrics: Sequence[str]) -> tuple[pd.DataFrame, pd.Series,
                                                                       int]:
    """The baseline arm (the baseline policy in every seat): per wall its mean of each metric,
    the variance over deals of the per-deal mean, and the number of deals."""
    values = _metric_values(dataset, metrics, ("wall", "deal"))
    per_wall = values.groupby("wall", sort=True)[list(metrics)].mean()
    per_deal = values.groupby("deal", sort=True)[list(metrics)].mean()
    return per_wall, per_deal.var(ddof=1), len(per_deal)


def interval_rows(
    differences: pd.DataFrame, level: float = DEFAULT_LEVEL,
    unpaired_se: Mapping[str, float] | None = None,
) -> pd.DataFrame:
    """Mean of each column over walls with its interval (:func:`paired_intervals`)."""
    return paired_intervals(differences, None if unpaired_se is None else dict(unpaired_se),
                            level)


def seat_estimands(
    seat: SeatWalls,
    metrics: Sequence[str],
    baseline: tuple[pd.DataFrame, pd.Series, int] | None = None,
    estimands: Sequence[str] = ESTIMANDS,
    level: float = DEFAULT_LEVEL,
) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """Rows ``estimand, metric, ...`` (:data:`INTERVAL_COLUMNS`) of one seat, and the per-wall
    values of each estimand. Without a ``baseline`` arm the switching gain is given for the
    zero-sum metrics only (its baseline term is then exactly 0)."""
    tables, per_wall = [], {}
    for estimand in estimands:
        if estimand == "switching_gain":
            if baseline is None:
                chosen = [m for m in metrics if m in ZERO_SUM_METRICS]
                base_own = None
            else:
                chosen = list(metrics)
                base_own = baseline[0][chosen].copy()
                for m in chosen:
                    if m in ZERO_SUM_METRICS:
                        base_own[m] = 0.0  # exactly: the four seats of a wall sum to 0
            if not chosen:
                continue
            values = seat_estimand(seat.own[chosen], seat.field[chosen], estimand, base_own)
            unpaired = {m: seat.own_deal_var[m] / seat.deals for m in chosen}
            if baseline is not None:
                for m in chosen:
                    if m not in ZERO_SUM_METRICS:
                        unpaired[m] += baseline[1][m] / baseline[2]
        else:
            chosen = list(metrics)
            values = seat_estimand(seat.own[chosen], seat.field[chosen], estimand)
            unpaired = {m: seat.vs_deal_var[m] / seat.deals for m in chosen}
        rows = interval_rows(values, level, {m: float(np.sqrt(v)) for m, v in unpaired.items()})
        rows.insert(0, "estimand", estimand)
        tables.append(rows)
        per_wall[estimand] = values
    return pd.concat(tables, ignore_index=True), per_wall


def seat_vs_field(
    datasets: Sequence[Dataset],
    labels: Sequence[Mapping[str, object]],
    policies: Sequence[str],
    baseline: str,
    metrics: Sequence[str],
    level: float = DEFAULT_LEVEL,
    baseline_arms: Mapping[object, Dataset] | None = None,
    baseline_key: str = "preset",
    estimands: Sequence[str] = ESTIMANDS,
) -> tuple[pd.DataFrame, list[pd.DataFrame]]:
    """For each arm: its estimands per metric (one row per arm, estimand and metric).

    ``baseline_arms`` maps a label value (of ``baseline_key``, e.g. the preset) to the arm with
    ``baseline`` in every seat on the same walls, for the switching gain of metrics that are not
    zero-sum. Returns the table (the arm's labels, ``policy``, ``baseline``, ``field``,
    ``estimand``, ``metric``, :data:`INTERVAL_COLUMNS`) and, per arm, the per-wall switching
    gains (or, where there is none, ``vs_field`` values) for :func:`between_arms`.
    """
    tables, per_wall = [], []
    baseline = canonical(baseline)
    cache: dict[object, tuple[pd.DataFrame, pd.Series, int]] = {}
    for dataset, label, policy in zip(datasets, labels, policies, strict=True):
        policy = canonical(policy)
        seat = SeatWalls(dataset, policy, metrics)
        base = None
        if baseline_arms is not None and label.get(baseline_key) in baseline_arms:
            key = label[baseline_key]
            if key not in cache:
                cache[key] = baseline_walls(baseline_arms[key], metrics)
            base = cache[key]
        rows, values = seat_estimands(seat, metrics, base, estimands, level)
        per_wall.append(values.get("switching_gain", values.get("vs_field")))
        field = "/".join(_field_policies(dataset, policy))
        rows.insert(0, "field", field)
        rows.insert(0, "baseline", baseline)
        rows.insert(0, "policy", policy)
        for i, (key, value) in enumerate(label.items()):
            rows.insert(i, key, value)
        tables.append(rows)
    return pd.concat(tables, ignore_index=True), per_wall


def _field_policies(dataset: Dataset, policy: str) -> list[str]:
    """The other seats' policies of an arm, in seat order (``speed/speed/speed``)."""
    seats = [canonical(p) for p in dataset.meta.get("seat_policies", [])]
    if policy in seats:
        seats.remove(policy)
    return seats


def between_arms(
    first: pd.DataFrame, second: pd.DataFrame, level: float = DEFAULT_LEVEL
) -> pd.DataFrame:
    """``first - second`` of two arms' per-wall values, paired on their common walls."""
    common = first.index.intersection(second.index)
    if len(common) < 2:
        raise ValueError("the two arms share fewer than 2 walls: were they run with one seed?")
    return interval_rows(first.loc[common] - second.loc[common], level)
