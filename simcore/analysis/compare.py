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

``se_unpaired`` is the standard error of the unpaired estimate: for a duplicate run, the
deal-clustered value as if its deals had been played on independent walls (deals are then
independent, and each deal's players are correlated exactly as in the run). The *variance
reduction* of a paired comparison is ``1 - se**2 / se_unpaired**2``: the share of the unpaired
estimate's variance that replaying each wall removes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simcore.analysis.groups import DEAL_COLUMNS, Key, SumTable, column_key, group_sums, moments
from simcore.analysis.io import Batch, Run
from simcore.analysis.pipeline import Pipeline, concat_rows, mean_rows, rate_rows, run_one
from simcore.analysis.stats import DEFAULT_LEVEL, difference_interval, paired_difference, welch_se

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
)
_NOT_METRICS = {"deal", "wall", "rotation", "seat", "policy", "void_suit", "win_kind", "pattern",
                "exchange_dir", "fed_by", "win_tile", "next_dealer"}


def metric_source(metric: str, columns: Sequence[str]) -> str:
    """The column of ``columns`` a metric is computed from (ValueError for an unknown metric)."""
    if metric in DERIVED:
        return DERIVED[metric][0]
    if metric in columns and metric not in _NOT_METRICS and metric != "preset":
        return metric
    allowed = sorted({*DERIVED, *(c for c in columns if c not in _NOT_METRICS | {"preset"})})
    raise ValueError(f"unknown metric {metric!r}; use one of {', '.join(allowed)}")


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
    ) -> None:
        super().__init__(run, level)
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
        self.columns = (*self.by, "policy", *(("wall",) if self.paired else ()), *sources)
        self.means = SumTable([*self.by, "policy"])
        self.diffs = SumTable([*self.by, "policy", "metric"])
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
        values = {}
        for metric in self.metrics:
            values.update(moments(metric, metric_values(batch, metric)))
        self.means.add(group_sums([*keys, pkey], values))
        self._update_clusters(batch, keys, policy)
        if self.paired:
            self._update_paired(batch, keys, policy)

    def _group_codes(self, keys: list[Key], n: int) -> np.ndarray:
        flat = np.zeros(n, dtype=np.int64)
        for key in keys:
            flat = flat * max(len(key.labels), 1) + key.codes
        return flat

    def _update_paired(self, batch: Batch, keys: list[Key], policy: np.ndarray) -> None:
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
        count = np.bincount(cell, minlength=n_units * n_pol).reshape(n_units, n_pol)
        wall_keys = [Key(k.name, k.codes[starts], k.labels) for k in keys]
        b = self.policies.index(self.baseline)
        for metric in self.metrics:
            total = np.bincount(cell, weights=metric_values(batch, metric),
                                minlength=n_units * n_pol).reshape(n_units, n_pol)
            with np.errstate(invalid="ignore", divide="ignore"):
                mean = total / count
            for o in range(n_pol):
                if o == b:
                    continue
                ok = (count[:, o] > 0) & (count[:, b] > 0)
                d = (mean[:, o] - mean[:, b])[ok]
                frame = group_sums(
                    [*[Key(k.name, k.codes[ok], k.labels) for k in wall_keys],
                     Key("policy", np.zeros(len(d), dtype=np.int64), [self.policies[o]]),
                     Key("metric", np.zeros(len(d), dtype=np.int64), [metric])],
                    moments("d", d))
                self.diffs.add(frame)

    def _update_clusters(self, batch: Batch, keys: list[Key], policy: np.ndarray) -> None:
        n_pol = len(self.policies)
        n_deals = len(batch) // 4
        group = self._group_codes(keys, len(batch))[::4]
        cell = np.arange(n_deals).repeat(4) * n_pol + policy
        # per deal: (N_1..N_P) player counts and, per metric, (S_1..S_P) sums
        count = np.bincount(cell, minlength=n_deals * n_pol).reshape(n_deals, n_pol)
        x = {m: np.hstack([count, np.bincount(cell, weights=metric_values(batch, m),
                                              minlength=n_deals * n_pol).reshape(n_deals, n_pol)])
             for m in self.metrics}
        order = np.argsort(group, kind="stable")
        _, starts = np.unique(group[order], return_index=True)
        for lo, hi in zip(starts, [*starts[1:], n_deals], strict=True):
            deals = order[lo:hi]
            first = deals[0] * 4
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
            base = means[[*by, "policy"]].assign(metric=metric, baseline="", method="",
                                                 per="player-deal")
            if metric in BINARY:
                frames.append(rate_rows(base, means[metric].to_numpy(), means["n"].to_numpy(),
                                        self.level))
            else:
                frames.append(mean_rows(base, means["n"].to_numpy(), means[metric].to_numpy(),
                                        means[f"{metric}_sq"].to_numpy(), self.level))
            frames.append(self._differences(means, metric))
        out = concat_rows(frames, [*by, *COMPARE_COLUMNS])
        return out

    def _differences(self, means: pd.DataFrame, metric: str) -> pd.DataFrame:
        """Rows ``policy - baseline`` of ``metric`` for every group that has both."""
        by = list(self.by)
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
        pairs = pairs.assign(diff=diff, se_welch=se_welch, deals=[c[0] for c in clustered],
                             se_unpaired=[c[1] for c in clustered])
        if self.paired:
            diffs = self.diffs.total()
            if not len(diffs):
                return pd.DataFrame()
            diffs = diffs.loc[diffs["metric"] == metric, [*by, "policy", "n", "d", "d_sq"]]
            pairs = pairs.merge(diffs.rename(columns={"n": "walls"}), on=[*by, "policy"],
                                how="inner")
            est = paired_difference(pairs["walls"], pairs["d"], pairs["d_sq"],
                                    pairs["se_unpaired"], self.level)
            method, per = "paired", "wall"
            n = est["n"].to_numpy()
        else:
            n = pairs["deals"].to_numpy(np.int64)
            est = difference_interval(pairs["diff"], pairs["se_unpaired"], self.level)
            est["variance_reduction"] = np.nan
            method, per = "unpaired", "deal"
        out = pairs[by + ["policy"]].reset_index(drop=True).assign(
            metric=metric, baseline=self.baseline, method=method, per=per, stat="difference",
            n=n, count=pd.array([pd.NA] * len(pairs), dtype="Int64"))
        for col in ("estimate", "se", "ci_low", "ci_high", "p_value", "variance_reduction"):
            out[col] = est[col].to_numpy()
        out["se_unpaired"] = pairs["se_unpaired"].to_numpy(np.float64)
        out["se_welch"] = pairs["se_welch"].to_numpy(np.float64)
        return out

    def _clustered(self, label: tuple[object, ...], metric: str, policy: str) -> tuple[int, float]:
        """Deals behind, and the deal-clustered se of ``mean(policy) - mean(baseline)``."""
        gram = self.grams.get(label, {}).get(metric)
        if gram is None or gram.sums is None or gram.cross is None:
            return 0, float("nan")
        n_pol = len(self.policies)
        o, b = self.policies.index(policy), self.policies.index(self.baseline)
        t_n, t_s = gram.sums[:n_pol], gram.sums[n_pol:]
        if t_n[o] == 0 or t_n[b] == 0 or gram.deals < 2:
            return gram.deals, float("nan")
        # influence of deal d: (S_od - R_o N_od) / T_No - (S_bd - R_b N_bd) / T_Nb = a . x_d
        a = np.zeros(2 * n_pol)
        for p, sign in ((o, 1.0), (b, -1.0)):
            ratio = t_s[p] / t_n[p]
            a[n_pol + p] += sign / t_n[p]
            a[p] -= sign * ratio / t_n[p]
        var = float(a @ gram.cross @ a) * gram.deals / (gram.deals - 1)
        return gram.deals, float(np.sqrt(max(var, 0.0)))


def compare_policies(
    run: object,
    baseline: str | None = None,
    metrics: Sequence[str] = DEFAULT_METRICS,
    by: str | Sequence[str] = ("preset",),
    paired: bool | None = None,
    level: float = DEFAULT_LEVEL,
) -> pd.DataFrame:
    """Each policy's mean per player-deal, and its difference from ``baseline``, per metric.

    Metrics (per player-deal): ``net`` (units won or paid), ``win`` (won: ``win_order > 0``),
    ``fan`` (fan of the player's win, 0 without a win: fan won per deal), ``pig`` (ended as
    flower pig), ``deal_in`` (dealt in: ``deal_ins > 0``, at least one winner on this player's
    discard); any other numeric record column (e.g. ``net_kong``, ``deal_ins``) is its own mean.
    ``baseline`` defaults to the run's first policy. ``paired`` defaults to whether the run is a
    duplicate run (see the module docstring for both methods).

    Rows with ``stat`` ``rate``/``mean`` are the policies' own estimates (player-deals treated as
    independent; Wilson intervals for 0/1 metrics). Rows with ``stat`` ``difference`` are
    ``policy - baseline`` with its interval, two-sided normal ``p_value``, ``se_unpaired``
    (deal-clustered se of the unpaired estimate), ``se_welch`` (textbook Welch) and, for paired
    comparisons, ``variance_reduction`` (see the module docstring); ``per`` says what ``n``
    counts (walls for paired, deals for unpaired). Grouped by ``by`` (deal-level columns only).
    """
    return run_one(run, ComparePolicies, baseline=baseline, metrics=metrics, by=by,
                   paired=paired, level=level).result()
