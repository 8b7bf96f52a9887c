"""Confidence intervals from sufficient statistics (counts, sums, sums of squares).

Every function works on numpy arrays (one entry per group) so a pipeline can accumulate sums chunk
by chunk and form all its estimates at the end. No scipy: the normal quantile comes from
:class:`statistics.NormalDist` and the normal CDF from :func:`math.erfc`.

* Means: normal-approximation (z) interval with the sample standard error ``s / sqrt(n)``
  (``s`` with the ``n - 1`` divisor). Samples here are large (thousands of deals), where the z and
  t intervals agree.
* Proportions: Wilson score interval (good coverage even near 0 and 1, where flower pigs and
  robbed kongs live).
* Differences: paired (mean of per-pair differences) or unpaired Welch (unequal variances), both
  with z intervals and two-sided normal p-values.
* Correlations: Fisher z-transform intervals; Spearman's uses the variance ``1.06 / (n - 3)``
  (Fieller, Hartley and Pearson 1957).

>>> round(z_quantile(0.95), 4)
1.96
>>> low, high = wilson_interval(np.array([5]), np.array([10]))
>>> round(float(low[0]), 4), round(float(high[0]), 4)
(0.2366, 0.7634)
>>> round(float(two_sided_p(np.array([1.959964]))[0]), 4)
0.05
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

DEFAULT_LEVEL = 0.95
# Fieller-Hartley-Pearson: var(atanh(r_s)) ~ 1.06 / (n - 3) for Spearman's rank correlation
SPEARMAN_VARIANCE_FACTOR = 1.06


def z_quantile(level: float = DEFAULT_LEVEL) -> float:
    """The two-sided normal critical value of confidence ``level`` (1.96 for 0.95)."""
    if not isinstance(level, int | float) or not 0.0 < level < 1.0:
        raise ValueError(f"confidence level must be a number in (0, 1), got {level!r}")
    return NormalDist().inv_cdf(0.5 + level / 2.0)


def normal_cdf(x: ArrayLike) -> np.ndarray:
    """Standard normal CDF, elementwise, via ``erfc`` (accurate far in both tails)."""
    values = np.asarray(x, dtype=np.float64)
    erfc = np.frompyfunc(math.erfc, 1, 1)
    with np.errstate(invalid="ignore"):
        out = 0.5 * erfc(-values / math.sqrt(2.0)).astype(np.float64)
    return np.where(np.isnan(values), np.nan, out)


def two_sided_p(z: ArrayLike) -> np.ndarray:
    """Two-sided p-value of a standard normal statistic ``z``: ``2 * (1 - Phi(|z|))``."""
    values = np.abs(np.asarray(z, dtype=np.float64))
    return 2.0 * normal_cdf(-values)


def _arrays(*xs: ArrayLike) -> list[np.ndarray]:
    return [np.atleast_1d(np.asarray(x, dtype=np.float64)) for x in xs]


def mean_se(n: ArrayLike, total: ArrayLike, total_sq: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard error of the mean from ``n``, ``sum x`` and ``sum x**2``.

    NaN where ``n == 0`` (mean) or ``n < 2`` (standard error).
    """
    n_, s1, s2 = _arrays(n, total, total_sq)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n_ > 0, s1 / n_, np.nan)
        # sum of squared deviations; clip the tiny negative values left by rounding
        ssd = np.maximum(s2 - n_ * np.where(n_ > 0, mean, 0.0) ** 2, 0.0)
        se = np.where(n_ > 1, np.sqrt(ssd / (n_ - 1) / n_), np.nan)
    return mean, se


def mean_interval(
    n: ArrayLike, total: ArrayLike, total_sq: ArrayLike, level: float = DEFAULT_LEVEL
) -> pd.DataFrame:
    """Columns ``n, mean, se, ci_low, ci_high`` of the z interval of a mean, one row per group.

    >>> mean_interval([4], [10.0], [30.0]).round(4).to_dict("records")
    [{'n': 4, 'mean': 2.5, 'se': 0.6455, 'ci_low': 1.2348, 'ci_high': 3.7652}]
    """
    z = z_quantile(level)
    mean, se = mean_se(n, total, total_sq)
    return pd.DataFrame(
        {
            "n": np.atleast_1d(np.asarray(n)).astype(np.int64),
            "mean": mean,
            "se": se,
            "ci_low": mean - z * se,
            "ci_high": mean + z * se,
        }
    )


def wilson_interval(
    count: ArrayLike, n: ArrayLike, level: float = DEFAULT_LEVEL
) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval ``(low, high)`` of a proportion ``count / n`` (NaN where n == 0)."""
    z = z_quantile(level)
    k, n_ = _arrays(count, n)
    if np.any(k < 0) or np.any(k > n_):
        raise ValueError(f"counts must lie in 0..n, got counts {k} of {n_}")
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n_
        denom = 1.0 + z * z / n_
        centre = (p + z * z / (2.0 * n_)) / denom
        half = z * np.sqrt(p * (1.0 - p) / n_ + z * z / (4.0 * n_ * n_)) / denom
        # exact ends at 0 and n (rounding would leave e.g. 2e-19 above a rate of 0)
        low = np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
        high = np.where(k == n_, 1.0, np.clip(centre + half, 0.0, 1.0))
    return np.where(n_ > 0, low, np.nan), np.where(n_ > 0, high, np.nan)


def proportion_interval(
    count: ArrayLike, n: ArrayLike, level: float = DEFAULT_LEVEL
) -> pd.DataFrame:
    """Columns ``n, count, rate, se, ci_low, ci_high``: Wilson interval of ``count / n``.

    ``se`` is the plug-in ``sqrt(p (1 - p) / n)`` (for reference; the interval is Wilson's).

    >>> proportion_interval([0], [20]).round(4).to_dict("records")
    [{'n': 20, 'count': 0, 'rate': 0.0, 'se': 0.0, 'ci_low': 0.0, 'ci_high': 0.1611}]
    """
    k, n_ = _arrays(count, n)
    low, high = wilson_interval(k, n_, level)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(n_ > 0, k / n_, np.nan)
        se = np.sqrt(rate * (1.0 - rate) / n_)
    return pd.DataFrame(
        {
            "n": n_.astype(np.int64),
            "count": k.astype(np.int64),
            "rate": rate,
            "se": se,
            "ci_low": low,
            "ci_high": high,
        }
    )


def difference_interval(
    estimate: ArrayLike, se: ArrayLike, level: float = DEFAULT_LEVEL
) -> pd.DataFrame:
    """Columns ``estimate, se, ci_low, ci_high, p_value`` of a normal test of ``estimate == 0``."""
    z = z_quantile(level)
    est, se_ = _arrays(estimate, se)
    with np.errstate(invalid="ignore", divide="ignore"):
        stat = np.where(se_ > 0, est / se_, np.where(est == 0, 0.0, np.copysign(np.inf, est)))
    p = np.where(np.isnan(se_), np.nan, two_sided_p(stat))
    return pd.DataFrame(
        {"estimate": est, "se": se_, "ci_low": est - z * se_, "ci_high": est + z * se_,
         "p_value": p}
    )


def welch_se(
    n1: ArrayLike, s1: ArrayLike, ss1: ArrayLike, n2: ArrayLike, s2: ArrayLike, ss2: ArrayLike
) -> tuple[np.ndarray, np.ndarray]:
    """``(mean1 - mean2, se)`` of an unpaired (Welch) difference of two independent samples."""
    m1, se1 = mean_se(n1, s1, ss1)
    m2, se2 = mean_se(n2, s2, ss2)
    return m1 - m2, np.sqrt(se1**2 + se2**2)


def paired_difference(
    n_pairs: ArrayLike,
    sum_d: ArrayLike,
    sum_d2: ArrayLike,
    unpaired_se: ArrayLike | None = None,
    level: float = DEFAULT_LEVEL,
) -> pd.DataFrame:
    """Mean of paired differences ``d`` with z interval, p-value and variance reduction.

    ``variance_reduction = 1 - se_paired**2 / unpaired_se**2``: the share of the variance of an
    unpaired estimate of the same difference that pairing removes (NaN without ``unpaired_se``).

    >>> paired_difference([3], [3.0], [5.0], unpaired_se=[1.0]).round(4).to_dict("records")
    [{'n': 3, 'estimate': 1.0, 'se': 0.5774, 'ci_low': -0.1316, 'ci_high': 2.1316, \
'p_value': 0.0833, 'variance_reduction': 0.6667}]
    """
    mean, se = mean_se(n_pairs, sum_d, sum_d2)
    out = difference_interval(mean, se, level)
    out.insert(0, "n", np.atleast_1d(np.asarray(n_pairs)).astype(np.int64))
    if unpaired_se is None:
        out["variance_reduction"] = np.nan
    else:
        (u,) = _arrays(unpaired_se)
        with np.errstate(invalid="ignore", divide="ignore"):
            out["variance_reduction"] = np.where(u > 0, 1.0 - se**2 / u**2, np.nan)
    return out


def pearson_from_moments(
    n: ArrayLike, sx: ArrayLike, sy: ArrayLike, sxx: ArrayLike, syy: ArrayLike, sxy: ArrayLike
) -> np.ndarray:
    """Pearson correlation from ``n`` and the sums of x, y, x², y², xy (NaN if a variance is 0)."""
    n_, sx_, sy_, sxx_, syy_, sxy_ = _arrays(n, sx, sy, sxx, syy, sxy)
    with np.errstate(invalid="ignore", divide="ignore"):
        cxy = sxy_ - sx_ * sy_ / n_
        cxx = sxx_ - sx_ * sx_ / n_
        cyy = syy_ - sy_ * sy_ / n_
        r = cxy / np.sqrt(cxx * cyy)
    ok = (n_ > 1) & (cxx > 1e-12 * np.maximum(sxx_, 1.0)) & (cyy > 1e-12 * np.maximum(syy_, 1.0))
    return np.where(ok, np.clip(r, -1.0, 1.0), np.nan)


def midranks(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Average ranks (1-based) of distinct sorted ``values`` occurring ``counts`` times each.

    >>> midranks(np.array([1, 2, 5]), np.array([2, 1, 3])).tolist()
    [1.5, 3.0, 5.0]
    """
    if np.any(np.diff(values) <= 0):
        raise ValueError("midranks need distinct values in increasing order")
    before = np.cumsum(counts) - counts
    return before + (counts + 1) / 2.0


def weighted_correlations(
    x: np.ndarray, y: np.ndarray, counts: np.ndarray
) -> tuple[int, float, float]:
    """``(n, pearson, spearman)`` of the sample holding pair ``(x[i], y[i])`` ``counts[i]`` times.

    Spearman's coefficient is Pearson's on midranks, so ties (frequent: win order takes four
    values) are handled exactly. The pairs need not be distinct.

    >>> n, p, s = weighted_correlations(np.array([1, 2, 3]), np.array([1, 4, 9]), np.ones(3))
    >>> n, round(p, 4), s
    (3, 0.9897, 1.0)
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    w = np.asarray(counts, dtype=np.float64)
    n = float(w.sum())
    if n == 0:
        return 0, math.nan, math.nan

    def moments(a: np.ndarray, b: np.ndarray) -> float:
        return float(
            pearson_from_moments(
                n, (w * a).sum(), (w * b).sum(), (w * a * a).sum(), (w * b * b).sum(),
                (w * a * b).sum(),
            )[0]
        )

    def ranks(a: np.ndarray) -> np.ndarray:
        values, inverse = np.unique(a, return_inverse=True)
        per_value = np.bincount(inverse, weights=w, minlength=len(values))
        return midranks(values, per_value)[inverse]

    # centre before squaring: nets reach thousands and ranks reach the sample size
    pearson = moments(x - (w * x).sum() / n, y - (w * y).sum() / n)
    rx, ry = ranks(x), ranks(y)
    spearman = moments(rx - (n + 1) / 2.0, ry - (n + 1) / 2.0)
    return int(n), pearson, spearman


def correlation_interval(
    r: ArrayLike, n: ArrayLike, level: float = DEFAULT_LEVEL, spearman: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Fisher z interval ``(low, high)`` of a correlation ``r`` from ``n`` pairs (NaN if n <= 3)."""
    z = z_quantile(level)
    r_, n_ = _arrays(r, n)
    factor = SPEARMAN_VARIANCE_FACTOR if spearman else 1.0
    with np.errstate(invalid="ignore", divide="ignore"):
        centre = np.arctanh(np.clip(r_, -1.0, 1.0))
        half = z * np.sqrt(factor / (n_ - 3.0))
        low = np.where(n_ > 3, np.tanh(centre - half), np.nan)
        high = np.where(n_ > 3, np.tanh(centre + half), np.nan)
    return low, high
