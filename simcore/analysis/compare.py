"""Strategy comparison: each policy's mean per player-deal, and differences against a baseline.

* Duplicate runs (every wall played under the four seat rotations) are compared **paired**: for
  each wall, each policy's mean over the seats and rotations where it sat; the estimate is the mean
  over walls of the per-wall difference, its interval the z interval of those differences.
* Other runs are compared **unpaired**: the difference of the two policies' means (Welch's
  estimate). Players at one table are not independent (payments are zero-sum: when one policy
  wins, the other pays), so its standard error is computed from per-deal totals, the linearized,
  deal-clustered variance of a difference of ratios of sums. It reduces to Welch's
  ``var_a / n_a + var_b / n_b`` when the two policies never share a deal; that textbook value,
  which treats every player-deal as independent, is reported as ``se_welch``.

Three estimands (``estimand=``), all per player-deal:

* ``vs_baseline`` (default): ``policy - baseline``, the policy's mean minus the baseline's at the
  same tables (what the comparison has always been). In a run of one variant against three
  baseline seats it equals ``vs_field``.
* ``vs_field``: the policy's mean minus the mean of every other seat of its deals.
* ``switching_gain``: the policy's own mean minus the baseline's own mean in the same seats
  against the same field. From a single run it is defined when the field is the baseline (two
  policies) in a duplicate run and the metric is zero-sum (``net`` and its parts): the baseline
  term is then exactly 0 on every wall and the gain is the policy's own per-wall mean. Other
  cases need a played baseline arm (:mod:`simcore.experiments`).

Restricting to hands like mine (``where=``): a paired comparison can keep only the seats whose
starting hand meets a condition on the starting-hand columns (:data:`WHERE_COLUMNS`, e.g.
``"pairs >= 5"``). In a duplicate run every (wall, seat) is played by the policy and by the
baseline; the condition is evaluated on the **baseline's** records of that (wall, seat), a
covariate the compared policy cannot change (``pairs`` and the shanten after the exchange or
the void depend on a player's own decisions), and the same (wall, seat) set is kept for both
arms, so the comparison stays paired: per wall, the policy's mean over its kept seats minus the
baseline's mean over the same seats. See :func:`compare_policies`.

Every paired interval is :func:`simcore.analysis.stats.paired_interval` of the per-wall values
(normal, or a wall-level BCa bootstrap with few informative walls or heavy tails; ``interval``
says which), and each policy's own rate or mean is clustered (by wall in duplicate runs, by deal
otherwise) through :func:`simcore.analysis.stats.ratio_interval`.

``se_unpaired`` is the standard error of the unpaired estimate: for a duplicate run, the
deal-clustered value as if its deals had been played on independent walls (deals are then
independent, and each deal's players are correlated exactly as in the run). The *variance
reduction* of a paired comparison is ``1 - se**2 / se_unpaired**2``: the share of the unpaired
estimate's variance that replaying each wall removes.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simcore._input import unknown_name
from simcore.analysis.groups import DEAL_COLUMNS, Key, SumTable, cluster_moments, column_key
from simcore.analysis.io import Batch, Run
from simcore.analysis.pipeline import Pipeline, cluster_unit, concat_rows, ratio_rows, run_one
from simcore.analysis.stats import (
    DEFAULT_LEVEL,
    METHODS,
    ZERO_SUM_METRICS,
    difference_interval,
    paired_interval,
    welch_se,
)
from simcore.records import START_COLUMNS

DEFAULT_METRICS = ("net", "win", "fan", "pig", "deal_in")
# derived metrics: name -> (source column, transform); other names are numeric record columns
DERIVED = {
    "win": ("win_order", lambda v: v > 0),
    "deal_in": ("deal_ins", lambda v: v > 0),
}
BINARY = {"win", "deal_in", "pig", "flush", "terminals", "dealer", "ready_end"}
COMPARE_COLUMNS = (
    "metric", "policy", "baseline", "method", "per", "stat", "n", "count", "estimate", "se",
    "ci_low", "ci_high", "p_value", "se_unpaired", "se_welch", "variance_reduction",
    "estimand", "interval", "informative_walls", "design_effect",
)
COMPARE_ESTIMANDS = ("vs_baseline", "vs_field", "switching_gain")
_NOT_METRICS = {"deal", "wall", "rotation", "seat", "policy", "void_suit", "win_kind", "pattern",
                "exchange_dir", "fed_by", "win_tile", "next_dealer"}


# the columns a `where` condition may use: the starting hand (simcore.records.START_COLUMNS)
WHERE_COLUMNS = START_COLUMNS


def where_columns(where: str, columns: Sequence[str] | None = None) -> tuple[str, ...]:
    """The starting-hand columns the condition ``where`` uses (pandas ``query`` syntax).

    ValueError for a condition that does not parse, names no column, or names a column that is
    not a starting-hand column (or, given the run's ``columns``, one the run lacks).

    >>> where_columns("shanten_dealt <= 2 and pairs >= 4")
    ('shanten_dealt', 'pairs')
    >>> where_columns("net > 0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: where may only use the starting-hand columns (...); 'net' is not one
    """
    if not isinstance(where, str) or not where.strip():
        raise ValueError(f"where must be a condition such as 'pairs >= 5', got {where!r}")
    try:
        tree = ast.parse(where.strip(), mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"cannot read the condition where={where!r}: {exc.msg}") from None
    names = list(dict.fromkeys(n.id for n in ast.walk(tree) if isinstance(n, ast.Name)))
    bad = [n for n in names if n not in WHERE_COLUMNS]
    if bad:
        raise ValueError(f"where may only use the starting-hand columns "
                         f"({', '.join(WHERE_COLUMNS)}); {bad[0]!r} is not one")
    if not names:
        raise ValueError(f"where={where!r} names no starting-hand column "
                         f"({', '.join(WHERE_COLUMNS)})")
    if columns is not None:
        require_start_columns(names, columns)
    return tuple(names)


def require_start_columns(names: Sequence[str], columns: Sequence[str]) -> None:
    """ValueError naming the first of ``names`` that a run's ``columns`` lack: a run written
    before the starting-hand columns existed."""
    missing = [n for n in names if n not in columns]
    if missing:
        raise ValueError(f"the run has no column {missing[0]!r}: it was written before the "
                         f"starting-hand columns existed")


def where_mask(batch: Batch, where: str, names: Sequence[str]) -> np.ndarray:
    """Whether each row of ``batch`` meets the condition ``where`` on columns ``names``."""
    frame = pd.DataFrame({n: batch[n] for n in names})
    try:
        result = frame.eval(where.strip())
    except Exception as exc:  # pandas raises many kinds for a bad expression
        raise ValueError(f"cannot evaluate where={where!r}: {exc}") from None
    values = np.asarray(result)
    if values.dtype != np.bool_ or values.shape != (len(batch),):
        raise ValueError(f"where={where!r} is not a condition (true or false for each record), "
                         f"e.g. 'pairs >= 5'")
    return values


class SeatFilter:
    """The (wall, seat) pairs of a duplicate run kept by a condition on the baseline's records.

    Read once over the run (a few columns): each baseline record of a (wall, seat) says whether
    the condition holds; the pair is kept when it holds on most of them (more than half). In a
    four-seat duplicate run the baseline plays each (wall, seat) in three rotations; their
    records differ only through what the compared policy changes at the table (the three tiles
    it passes in the rotation where it passes to that seat), and the columns of the hand as
    dealt (``shanten_dealt``) are the same in all of them.
    """

    def __init__(self, run: Run, where: str, baseline: str) -> None:
        self.where = where
        self.names = where_columns(where, run.columns)
        self.players = run.players
        policies = run.policies
        self.by_preset = "preset" in run.columns
        read = ["wall", "seat", "policy", *(("preset",) if self.by_preset else ()), *self.names]
        votes: dict[object, list[tuple[np.ndarray, np.ndarray]]] = {}
        for batch in run.batches(read):
            labels = [str(p) for p in batch.cats.get("policy", policies)]
            if baseline not in labels:
                continue
            base = batch["policy"] == labels.index(baseline)
            holds = where_mask(batch, where, self.names)
            key = self._keys(batch)
            for preset, rows in self._by_preset(batch, base):
                votes.setdefault(preset, []).append((key[rows], holds[rows]))
        self.kept: dict[object, np.ndarray] = {}
        for preset, parts in votes.items():
            keys = np.concatenate([k for k, _ in parts])
            holds = np.concatenate([h for _, h in parts]).astype(np.float64)
            unique, inverse = np.unique(keys, return_inverse=True)
            share = np.bincount(inverse, weights=holds) / np.bincount(inverse)
            self.kept[preset] = unique[share > 0.5]

    def _keys(self, batch: Batch) -> np.ndarray:
        return batch["wall"].astype(np.int64) * self.players + batch["seat"].astype(np.int64)

    def _by_preset(self, batch: Batch, rows: np.ndarray) -> list[tuple[object, np.ndarray]]:
        if not self.by_preset:
            return [(None, rows)]
        labels = batch.cats.get("preset")
        codes = batch["preset"]
        if labels is None:
            return [(p, rows & (codes == p)) for p in np.unique(codes)]
        return [(labels[c], rows & (codes == c)) for c in np.unique(codes)]

    def mask(self, batch: Batch) -> np.ndarray:
        """1.0 for the rows of ``batch`` in a kept (wall, seat), else 0.0."""
        key = self._keys(batch)
        out = np.zeros(len(batch))
        for preset, rows in self._by_preset(batch, np.ones(len(batch), dtype=bool)):
            kept = self.kept.get(preset)
            if kept is not None:
                out[rows] = np.isin(key[rows], kept)
        return out


def metric_source(metric: str, columns: Sequence[str]) -> str:
    """The column of ``columns`` a metric is computed from (ValueError for an unknown metric)."""
    if metric in DERIVED:
        return DERIVED[metric][0]
    if metric in columns and metric not in _NOT_METRICS and metric != "preset":
        return metric
    allowed = sorted({*DERIVED, *(c for c in columns if c not in _NOT_METRICS | {"preset"})})
    raise ValueError(unknown_name("metric", metric, allowed))


def metric_values(batch: Batch, metric: str) -> np.ndarray:
    """The per-player-deal values of ``metric`` in ``batch`` (float64)."""
    if metric in DERIVED:
        column, transform = DERIVED[metric]
        return transform(batch[column]).astype(np.float64)
    if metric in batch.cats:
        raise ValueError(f"metric {metric!r} is a categorical column, not a number")
    return batch[metric].astype(np.float64)


@dataclass
class _Gram:
    """Per-deal totals ``x_d = (N_1..N_P, S_1..S_P)`` summed, and their cross products."""

    deals: int = 0
    sums: np.ndarray | None = None
    cross: np.ndarray | None = None

    def add(self, x: np.ndarray) -> None:
        self.deals += len(x)
        s, c = x.sum(axis=0), x.T @ x
        self.sums = s if self.sums is None else self.sums + s
        self.cross = c if self.cross is None else self.cross + c


class ComparePolicies(Pipeline):
    """Sums for :func:`compare_policies`."""

    blocks = True

    def __init__(
        self,
        run: Run,
        baseline: str | None = None,
        metrics: Sequence[str] = DEFAULT_METRICS,
        by: str | Sequence[str] = ("preset",),
        paired: bool | None = None,
        level: float = DEFAULT_LEVEL,
        estimand: str = "vs_baseline",
        interval: str = "auto",
        where: str | None = None,
    ) -> None:
        super().__init__(run, level)
        if estimand not in COMPARE_ESTIMANDS:
            raise ValueError(unknown_name("estimand", estimand, COMPARE_ESTIMANDS))
        if interval not in METHODS:
            raise ValueError(unknown_name("interval method", interval, METHODS))
        self.estimand, self.interval = estimand, interval
        self.by = self.resolve_by(by)
        bad = [c for c in self.by if c not in DEAL_COLUMNS]
        if bad:
            raise ValueError(
                f"compare_policies groups whole deals; cannot group by {', '.join(bad)} (use "
                f"columns shared by a deal's four rows: {', '.join(sorted(DEAL_COLUMNS))})"
            )
        self.metrics = (metrics,) if isinstance(metrics, str) else tuple(metrics)
        if not self.metrics:
            raise ValueError("metrics must name at least one metric")
        sources = [metric_source(m, run.columns) for m in self.metrics]
        self.policies = run.policies
        if not self.policies:
            raise ValueError(f"run {run.name} names no policies")
        self.baseline = self.policies[0] if baseline is None else baseline
        if self.baseline not in self.policies:
            raise ValueError(
                f"baseline policy {self.baseline!r} is not in the run; its policies are "
                f"{', '.join(map(repr, self.policies))}"
            )
        self.paired = run.duplicate if paired is None else bool(paired)
        if estimand == "switching_gain":
            other = [m for m in self.metrics if m not in ZERO_SUM_METRICS]
            if not self.paired or len(self.policies) != 2 or other:
                raise ValueError(
                    "the switching gain needs the baseline's own play against the same field; "
                    "from one run it is defined only for a duplicate run of one policy against "
                    f"the baseline and zero-sum metrics ({', '.join(sorted(ZERO_SUM_METRICS))})"
                    + (f", not {other[0]!r}" if other else "")
                    + "; play a baseline arm (simcore.experiments) for the rest"
                )
        self.where = where
        self.filter: SeatFilter | None = None
        if where is not None:
            where_columns(where, run.columns)  # a bad condition is named before any reading
            if not self.paired:
                raise ValueError(
                    "where= restricts a paired comparison: it needs a duplicate run (every "
                    "(wall, seat) played by the policy and by the baseline)"
                )
            if estimand != "vs_baseline":
                raise ValueError(
                    f"where= compares the policy with the baseline in the kept seats "
                    f"(estimand 'vs_baseline'), not {estimand!r}: "
                    + ("the switching gain needs the baseline's own play in those seats "
                       "against the same field, which one duplicate run has only summed over "
                       "all seats (play a baseline arm, simcore.experiments)"
                       if estimand == "switching_gain" else
                       "the field of a kept seat is not restricted by the condition")
                )
            self.filter = SeatFilter(run, where, self.baseline)
        self.unit = cluster_unit(run)
        self.columns = (*self.by, "policy", *(("wall",) if self.paired else ()), self.unit,
                        *sources, *(("seat",) if where is not None else ()))
        self.seats: dict[tuple[tuple[object, ...], str, str], int] = {}
        self.means = SumTable([*self.by, "policy"])
        # per (group label, policy, metric): the per-wall values, batch by batch
        self.walls: dict[tuple[tuple[object, ...], str, str], list[np.ndarray]] = {}
        # per group label, per metric: Gram matrix of per-deal totals (unpaired runs)
        self.grams: dict[tuple[object, ...], dict[str, _Gram]] = {}

    def _policy_index(self, batch: Batch) -> np.ndarray:
        """Row policies as indices into ``self.policies``."""
        labels = [str(p) for p in batch.cats.get("policy", [])]
        unknown = [p for p in labels if p not in self.policies]
        if unknown:
            raise ValueError(f"policy {unknown[0]!r} is not among the run's policies "
                             f"{self.policies}")
        remap = np.array([self.policies.index(p) for p in labels], dtype=np.int64)
        return remap[batch["policy"]]

    def update(self, batch: Batch) -> None:
        if not len(batch):
            return
        keys = [column_key(batch, c) for c in self.by]
        policy = self._policy_index(batch)
        pkey = Key("policy", policy, list(self.policies))
        one = np.ones(len(batch)) if self.filter is None else self.filter.mask(batch)
        ratios = {metric: (metric_values(batch, metric) * one, one) for metric in self.metrics}
        self.means.add(cluster_moments([*keys, pkey], batch[self.unit].astype(np.int64), ratios))
        self._update_clusters(batch, keys, policy, one)
        if self.paired:
            self._update_paired(batch, keys, policy, one)

    def _group_codes(self, keys: list[Key], n: int) -> np.ndarray:
        flat = np.zeros(n, dtype=np.int64)
        for key in keys:
            flat = flat * max(len(key.labels), 1) + key.codes
        return flat

    def _update_paired(
        self, batch: Batch, keys: list[Key], policy: np.ndarray, weight: np.ndarray
    ) -> None:
        n_pol = len(self.policies)
        wall = batch["wall"].astype(np.int64)
        unit = self._group_codes(keys, len(batch)) * (int(wall.max()) - int(wall.min()) + 1) + (
            wall - int(wall.min()))
        if np.all(unit[1:] >= unit[:-1]):  # runs are written in wall order: no sort needed
            starts = np.flatnonzero(np.r_[True, unit[1:] != unit[:-1]])
            inverse = np.cumsum(np.r_[False, unit[1:] != unit[:-1]])
        else:
            _, starts, inverse = np.unique(unit, return_index=True, return_inverse=True)
        n_units = len(starts)
        cell = inverse * n_pol + policy
        count = np.bincount(cell, weights=weight,
                            minlength=n_units * n_pol).reshape(n_units, n_pol)
        labels = [tuple(k.labels[k.codes[i]] for k in keys) for i in starts]
        group = self._group_codes(keys, len(batch))[starts]
        b = self.policies.index(self.baseline)
        for metric in self.metrics:
            total = np.bincount(cell, weights=metric_values(batch, metric) * weight,
                                minlength=n_units * n_pol).reshape(n_units, n_pol)
            with np.errstate(invalid="ignore", divide="ignore"):
                mean = total / count
                others = (total.sum(axis=1, keepdims=True) - total) / (
                    count.sum(axis=1, keepdims=True) - count)
            for o in range(n_pol):
                if o == b:
                    continue
                if self.estimand == "vs_field":
                    ok = (count[:, o] > 0) & (count.sum(axis=1) > count[:, o])
                    d = mean[:, o] - others[:, o]
                elif self.estimand == "switching_gain":
                    ok = count[:, o] > 0
                    d = mean[:, o]  # the baseline's own term is exactly 0 (zero-sum)
                else:
                    ok = (count[:, o] > 0) & (count[:, b] > 0)
                    d = mean[:, o] - mean[:, b]
                for g in np.unique(group[ok]):
                    pick = ok & (group == g)
                    first = int(np.flatnonzero(pick)[0])
                    key = (labels[first], self.policies[o], metric)
                    self.walls.setdefault(key, []).append(d[pick])
                    self.seats[key] = self.seats.get(key, 0) + int(round(count[pick, o].sum()))

    def _update_clusters(
        self, batch: Batch, keys: list[Key], policy: np.ndarray, weight: np.ndarray
    ) -> None:
        n_pol = len(self.policies)
        players = batch.players
        n_deals = len(batch) // players
        group = self._group_codes(keys, len(batch))[::players]
        cell = np.arange(n_deals).repeat(players) * n_pol + policy
        # per deal: (N_1..N_P) player counts and, per metric, (S_1..S_P) sums
        count = np.bincount(cell, weights=weight,
                            minlength=n_deals * n_pol).reshape(n_deals, n_pol)
        x = {m: np.hstack([count, np.bincount(cell, weights=metric_values(batch, m) * weight,
                                              minlength=n_deals * n_pol).reshape(n_deals, n_pol)])
             for m in self.metrics}
        order = np.argsort(group, kind="stable")
        _, starts = np.unique(group[order], return_index=True)
        for lo, hi in zip(starts, [*starts[1:], n_deals], strict=True):
            deals = order[lo:hi]
            first = deals[0] * players
            label = tuple(k.labels[k.codes[first]] for k in keys)
            grams = self.grams.setdefault(label, {})
            for metric in self.metrics:
                grams.setdefault(metric, _Gram()).add(x[metric][deals].astype(np.float64))

    def result(self) -> pd.DataFrame:
        by = list(self.by)
        means = self.means.total()
        frames: list[pd.DataFrame] = []
        for metric in self.metrics:
            if not len(means):
                break
            base = means[[*by, "policy"]].assign(metric=metric, baseline="", per="player-deal")
            rows = ratio_rows(base, means, metric, self.level, metric in BINARY, self.unit)
            frames.append(rows.rename(columns={"method": "interval"}).assign(method=""))
            frames.append(self._differences(means, metric))
        out = concat_rows(frames, [*by, *COMPARE_COLUMNS])
        if self.where is not None:
            # which seats: the condition, and per difference row the (wall, seat) pairs kept
            out["where"] = self.where
            out["seats"] = pd.array([
                self.seats.get((tuple(row[c] for c in by), row["policy"], row["metric"]), 0)
                if row["stat"] == "difference" else pd.NA for _, row in out.iterrows()],
                dtype="Int64")
        return out

    def _differences(self, means: pd.DataFrame, metric: str) -> pd.DataFrame:
        """Rows ``policy - baseline`` of ``metric`` for every group that has both."""
        by = list(self.by)
        means = means.assign(**{"n": means[f"{metric}:x"], metric: means[f"{metric}:y"],
                                f"{metric}_sq": means[f"{metric}:y2"]})
        sums = [*by, "policy", "n", metric, f"{metric}_sq"]
        base = means.loc[means["policy"] == self.baseline, sums].rename(
            columns={"n": "b_n", metric: "b_s", f"{metric}_sq": "b_ss"}).drop(columns="policy")
        others = means.loc[means["policy"] != self.baseline, sums]
        pairs = others.merge(base, on=by, how="inner") if by else others.merge(base, how="cross")
        if not len(pairs):
            return pd.DataFrame()
        diff, se_welch = welch_se(pairs["n"], pairs[metric], pairs[f"{metric}_sq"],
                                  pairs["b_n"], pairs["b_s"], pairs["b_ss"])
        clustered = [self._clustered(tuple(row[by]), metric, row["policy"])
                     for _, row in pairs.iterrows()]
        if self.estimand != "vs_baseline":
            diff = np.array([c[1] for c in clustered], dtype=np.float64)
        pairs = pairs.assign(diff=diff, se_welch=se_welch, deals=[c[0] for c in clustered],
                             se_unpaired=[c[2] for c in clustered])
        interval = pd.Series([""] * len(pairs), dtype=object)
        informative = np.full(len(pairs), np.nan)
        if self.paired:
            rows = []
            for _, row in pairs.iterrows():
                values = self.walls.get((tuple(row[by]), row["policy"], metric))
                d = np.concatenate(values) if values else np.zeros(0)
                rows.append(paired_interval(d, row["se_unpaired"], self.level, self.interval))
            est = pd.DataFrame(rows)
            if not len(est):
                return pd.DataFrame()
            method, per = "paired", "wall"
            n = est["walls"].to_numpy(np.int64)
            interval = est["method"]
            informative = est["informative_walls"].to_numpy(np.float64)
        else:
            n = pairs["deals"].to_numpy(np.int64)
            est = difference_interval(pairs["diff"], pairs["se_unpaired"], self.level)
            est["variance_reduction"] = np.nan
            method, per = "unpaired", "deal"
            interval = pd.Series(["normal"] * len(pairs), dtype=object)
        out = pairs[by + ["policy"]].reset_index(drop=True).assign(
            metric=metric, baseline=self.baseline, method=method, per=per, stat="difference",
            n=n, count=pd.array([pd.NA] * len(pairs), dtype="Int64"))
        for col in ("estimate", "se", "ci_low", "ci_high", "p_value", "variance_reduction"):
            out[col] = est[col].to_numpy()
        out["se_unpaired"] = pairs["se_unpaired"].to_numpy(np.float64)
        out["se_welch"] = pairs["se_welch"].to_numpy(np.float64)
        out["estimand"] = self.estimand
        out["interval"] = interval.to_numpy()
        out["informative_walls"] = informative
        return out

    def _clustered(
        self, label: tuple[object, ...], metric: str, policy: str
    ) -> tuple[int, float, float]:
        """Deals behind, the unpaired estimate of the estimand and its deal-clustered se."""
        gram = self.grams.get(label, {}).get(metric)
        if gram is None or gram.sums is None or gram.cross is None:
            return 0, float("nan"), float("nan")
        n_pol = len(self.policies)
        o, b = self.policies.index(policy), self.policies.index(self.baseline)
        t_n, t_s = gram.sums[:n_pol], gram.sums[n_pol:]
        if self.estimand == "switching_gain":
            sides: list[tuple[list[int], float]] = [([o], 1.0)]
        elif self.estimand == "vs_field":
            sides = [([o], 1.0), ([p for p in range(n_pol) if p != o], -1.0)]
        else:
            sides = [([o], 1.0), ([b], -1.0)]
        if gram.deals < 2 or any(t_n[ps].sum() == 0 for ps, _ in sides):
            return gram.deals, float("nan"), float("nan")
        # influence of deal d on a ratio R = sum S / sum N over policies ps:
        # (S_d - R N_d) / sum N, so the estimate's influence is a . x_d
        a = np.zeros(2 * n_pol)
        estimate = 0.0
        for ps, sign in sides:
            total_n = float(t_n[ps].sum())
            ratio = float(t_s[ps].sum()) / total_n
            estimate += sign * ratio
            for p in ps:
                a[n_pol + p] += sign / total_n
                a[p] -= sign * ratio / total_n
        var = float(a @ gram.cross @ a) * gram.deals / (gram.deals - 1)
        return gram.deals, estimate, float(np.sqrt(max(var, 0.0)))


def compare_policies(
    run: object,
    baseline: str | None = None,
    metrics: Sequence[str] = DEFAULT_METRICS,
    by: str | Sequence[str] = ("preset",),
    paired: bool | None = None,
    level: float = DEFAULT_LEVEL,
    estimand: str = "vs_baseline",
    interval: str = "auto",
    where: str | None = None,
) -> pd.DataFrame:
    """Each policy's mean per player-deal, and its difference from ``baseline``, per metric.

    Metrics (per player-deal): ``net`` (units won or paid), ``win`` (won: ``win_order > 0``),
    ``fan`` (fan of the player's win, 0 without a win: fan won per deal), ``pig`` (ended as
    flower pig), ``deal_in`` (dealt in: ``deal_ins > 0``, at least one winner on this player's
    discard); any other numeric record column (e.g. ``net_kong``, ``deal_ins``) is its own mean.
    ``baseline`` defaults to the run's first policy. ``paired`` defaults to whether the run is a
    duplicate run (see the module docstring for both methods).

    Rows with ``stat`` ``rate``/``mean`` are the policies' own estimates, clustered by wall in
    duplicate runs and by deal otherwise (``interval`` ``cluster(wall)``/``cluster(deal)``, with
    their ``design_effect``). Rows with ``stat`` ``difference`` are the ``estimand`` (default
    ``vs_baseline``: ``policy - baseline``; see the module docstring for ``vs_field`` and
    ``switching_gain``) with its interval (``interval``: ``normal``, ``bootstrap-bca``,
    ``bootstrap-bca+normal`` (fewer than 1,000 informative walls) or ``exact``;
    ``interval='normal'`` forces the z interval), ``informative_walls``, the two-sided
    ``p_value``, ``se_unpaired``
    (deal-clustered se of the unpaired estimate), ``se_welch`` (textbook Welch) and, for paired
    comparisons, ``variance_reduction`` (see the module docstring); ``per`` says what ``n``
    counts (walls for paired, deals for unpaired). Grouped by ``by`` (deal-level columns only).

    ``where`` (hands like mine) keeps only the seats whose starting hand meets a condition on
    the starting-hand columns (:data:`WHERE_COLUMNS`; pandas ``query`` syntax, e.g.
    ``"pairs >= 5"`` or ``"shanten_dealt <= 2 and pairs >= 4"``; any other column is an error
    that names it). It needs a duplicate run and the ``vs_baseline`` estimand. The condition is
    evaluated on the **baseline's** records of each (wall, seat), never on the compared
    policy's: ``pairs``, ``longest_suit`` and the shanten after the exchange or the void depend
    on the player's own exchange and void, so a condition on the policy's own record would
    select hands by the treatment. The baseline plays the (wall, seat) in several rotations; it
    is kept when the condition holds on most of them (:class:`SeatFilter`), and kept for both
    arms: per wall, the policy's mean over its kept seats minus the baseline's mean over the
    same seats, walls without a kept seat dropped. The difference rows are the same paired
    estimator (:func:`simcore.analysis.stats.paired_interval`, ``informative_walls`` and the
    interval method as without ``where``) and add ``seats``, the (wall, seat) pairs behind them;
    every row says ``where``. The policies' own rows are their means over the kept seats.

    >>> import numpy as np
    >>> from simcore.testing.synthetic import synthetic_records
    >>> from simcore.records import to_dataframe
    >>> df = to_dataframe(synthetic_records(400, np.random.default_rng(1), 2, True),
    ...                   ["speed", "pairs:k=5"], "classic")
    >>> t = compare_policies(df, metrics="net", where="pairs >= 3")
    >>> t.loc[t.stat == "difference", ["policy", "estimand", "where"]].values.tolist()
    [['pairs:k=5', 'vs_baseline', 'pairs >= 3']]
    """
    return run_one(run, ComparePolicies, baseline=baseline, metrics=metrics, by=by,
                   paired=paired, level=level, estimand=estimand, interval=interval,
                   where=where).result()
