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
per-wall values (normal; the union of a wall-level BCa bootstrap and the normal interval when
fewer than 1,000 walls are informative; BCa when the differences are heavy-tailed; its
``method`` column says which).

Arms of one experiment share their seed, hence their walls, so two arms can be paired too: the
difference of their per-wall switching gains (``X`` vs ``Y`` at the same tables) has its own,
narrower, interval. ``flush:k=5`` minus ``flush:k=6``, for instance, is the value of chasing the
flush *also* with a suit of exactly five tiles.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from simcore._input import unknown_name
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
    "net_pig": (("net_pig",), lambda df: df["net_pig"].astype(np.float64)),
    "net_ready": (("net_ready",), lambda df: df["net_ready"].astype(np.float64)),
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
    "net_pig": "flower-pig money per deal (paid as a pig, received from pigs)",
    "net_ready": "ready-check money per deal",
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
        raise ValueError(unknown_name("metric", unknown[0], METRICS))
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


def _concat_values(
    datasets: Dataset | Sequence[Dataset], metrics: Sequence[str], keys: Sequence[str]
) -> pd.DataFrame:
    """The metric values of one or several runs on the same walls (a rotated field's cyclic
    orders): ``deal`` is made distinct per run, ``wall`` kept (so the walls pair up)."""
    runs = [datasets] if isinstance(datasets, Dataset) else list(datasets)
    parts = []
    for i, dataset in enumerate(runs):
        values = _metric_values(dataset, metrics, keys)
        if "deal" in values.columns and i:
            values["deal"] = values["deal"] + i * (1 << 40)
        parts.append(values)
    return parts[0] if len(parts) == 1 else pd.concat(parts, ignore_index=True)


class SeatWalls:
    """One seat's policy in a duplicate arm: per wall its own mean and the field's mean.

    The seat is the player-deals of ``policy``, or, with ``position``, those of the table's
    ``position``-th spec (rotation ``r`` seats spec ``p`` at seat ``(p - r) % 4``): needed when
    the seat's policy also sits in the field. Several ``datasets`` (runs on the same walls, e.g.
    the three cyclic orders of a rotated field) are pooled: per wall the mean over all their
    player-deals of the seat, an equal-weight mean of the runs.

    ``own_deal_var`` and ``vs_deal_var`` are the variances over deals of the seat's own mean and
    of own minus field per deal, and ``deals`` their count: the unpaired standard errors
    (``sqrt(var / deals)``: every deal on a wall of its own) that the variance reduction compares
    the paired ones with.
    """

    def __init__(self, dataset: Dataset | Sequence[Dataset], policy: str,
                 metrics: Sequence[str], position: int | None = None) -> None:
        keys = ("wall", "deal") if position is None else ("wall", "deal", "seat", "rotation")
        values = _concat_values(dataset, metrics, keys)
        first = dataset if isinstance(dataset, Dataset) else dataset[0]
        if position is None:
            _check_policies(first, set(values["policy"]), policy)
            mine = (values["policy"] == policy).to_numpy()
        else:
            seat = values["seat"].to_numpy(np.int64)
            rotation = values["rotation"].to_numpy(np.int64)
            mine = seat == (position - rotation) % 4
            _check_policies(first, set(values.loc[mine, "policy"]), policy)
        metrics = list(metrics)
        self.own = values[mine].groupby("wall", sort=True)[metrics].mean()
        self.field = values[~mine].groupby("wall", sort=True)[metrics].mean()
        own_deal = values[mine].groupby("deal", sort=True)[metrics].mean()
        field_deal = values[~mine].groupby("deal", sort=True)[metrics].mean()
        self.deals = len(own_deal)
        self.own_deal_var = own_deal.var(ddof=1)
        self.vs_deal_var = (own_deal - field_deal).var(ddof=1)


class Baseline(NamedTuple):
    """The baseline policy's own values on the walls of a baseline arm: per wall its mean of
    each metric, the variance over deals of the per-deal mean, the number of deals, and
    ``symmetric``: the arm seats the baseline in every seat (then a zero-sum metric's baseline
    term is exactly 0)."""

    per_wall: pd.DataFrame
    deal_var: pd.Series
    deals: int
    symmetric: bool = True


def baseline_walls(dataset: Dataset | Sequence[Dataset], metrics: Sequence[str],
                   baseline: str | None = None, position: int = 0) -> Baseline:
    """The baseline arm: with the baseline policy in every seat (or ``baseline`` None), the
    per-wall mean over all seats; otherwise (the baseline in one seat against a field) its own
    per-wall mean in table ``position``, paired with a variant arm in the same position."""
    runs = [dataset] if isinstance(dataset, Dataset) else list(dataset)
    seats = {canonical(p) for ds in runs for p in ds.meta.get("seat_policies", [])}
    if baseline is None or seats == {canonical(baseline)}:
        values = _concat_values(runs, metrics, ("wall", "deal"))
        per_wall = values.groupby("wall", sort=True)[list(metrics)].mean()
        per_deal = values.groupby("deal", sort=True)[list(metrics)].mean()
        return Baseline(per_wall, per_deal.var(ddof=1), len(per_deal), True)
    seat = SeatWalls(runs, canonical(baseline), metrics, position)
    return Baseline(seat.own, seat.own_deal_var, seat.deals, False)


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
    baseline: Baseline | None = None,
    estimands: Sequence[str] = ESTIMANDS,
    level: float = DEFAULT_LEVEL,
) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """Rows ``estimand, metric, ...`` (:data:`INTERVAL_COLUMNS`) of one seat, and the per-wall
    values of each estimand. Without a ``baseline`` arm the switching gain is given for the
    zero-sum metrics only (its baseline term is then exactly 0: valid only against a field of
    the baseline policy). A symmetric baseline (the baseline in every seat) contributes exactly
    0 to the zero-sum metrics; any other is subtracted wall by wall for every metric."""
    tables, per_wall = [], {}
    for estimand in estimands:
        if estimand == "switching_gain":
            if baseline is None:
                chosen = [m for m in metrics if m in ZERO_SUM_METRICS]
                base_own = None
            else:
                chosen = list(metrics)
                base_own = baseline.per_wall[chosen].copy()
                for m in chosen:
                    if m in ZERO_SUM_METRICS and baseline.symmetric:
                        base_own[m] = 0.0  # exactly: the four seats of a wall sum to 0
            if not chosen:
                continue
            values = seat_estimand(seat.own[chosen], seat.field[chosen], estimand, base_own)
            unpaired = {m: seat.own_deal_var[m] / seat.deals for m in chosen}
            if baseline is not None:
                for m in chosen:
                    if m not in ZERO_SUM_METRICS or not baseline.symmetric:
                        unpaired[m] += baseline.deal_var[m] / baseline.deals
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
    datasets: Sequence[Dataset | Sequence[Dataset]],
    labels: Sequence[Mapping[str, object]],
    policies: Sequence[str],
    baseline: str,
    metrics: Sequence[str],
    level: float = DEFAULT_LEVEL,
    baseline_arms: Mapping[object, Dataset | Sequence[Dataset]] | None = None,
    baseline_key: str | Sequence[str] = "preset",
    estimands: Sequence[str] = ESTIMANDS,
    position: int | None = None,
) -> tuple[pd.DataFrame, list[pd.DataFrame]]:
    """For each arm: its estimands per metric (one row per arm, estimand and metric).

    An arm is one run or several on the same walls (a rotated field's orders, pooled).
    ``baseline_arms`` maps a label value (of ``baseline_key``, e.g. the preset, or a tuple of
    values of several labels, e.g. ``("preset", "field")``) to the arm(s) with ``baseline``
    against the same field on the same walls: ``baseline`` in every seat for a field of
    ``baseline`` (the switching gain of a zero-sum metric is then the seat's own mean), else
    ``baseline`` in the seat's ``position`` against the field (the switching gain is the
    paired per-wall difference of the two seats' own means, for every metric). ``position``
    picks the seat by table position instead of by policy (needed when the variant also sits
    in the field). Returns the table (the arm's labels, ``policy``, ``baseline``, ``field``
    -- the ``field`` label if given, else the other seats' policies --, ``estimand``,
    ``metric``, :data:`INTERVAL_COLUMNS`) and, per arm, the per-wall switching gains (or,
    where there is none, ``vs_field`` values) for :func:`between_arms`.
    """
    tables, per_wall = [], []
    baseline = canonical(baseline)
    keys = (baseline_key,) if isinstance(baseline_key, str) else tuple(baseline_key)
    cache: dict[object, Baseline] = {}
    for dataset, label, policy in zip(datasets, labels, policies, strict=True):
        policy = canonical(policy)
        seat = SeatWalls(dataset, policy, metrics, position)
        base = None
        key: object = tuple(label.get(k) for k in keys)
        if len(keys) == 1:
            key = label.get(keys[0])
        if baseline_arms is not None and key in baseline_arms:
            if key not in cache:
                cache[key] = baseline_walls(baseline_arms[key], metrics, baseline,
                                            0 if position is None else position)
            base = cache[key]
        rows, values = seat_estimands(seat, metrics, base, estimands, level)
        per_wall.append(values.get("switching_gain", values.get("vs_field")))
        first = dataset if isinstance(dataset, Dataset) else dataset[0]
        field = label.get("field", "/".join(_field_policies(first, policy)))
        label = {k: v for k, v in label.items() if k != "field"}
        rows.insert(0, "field", field)
        rows.insert(0, "baseline", baseline)
        rows.insert(0, "policy", policy)
        for i, (name, value) in enumerate(label.items()):
            rows.insert(i, name, value)
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
