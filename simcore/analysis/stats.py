"""Confidence intervals from sufficient statistics, clustered by the independent unit of a run.

Every function works on numpy arrays (one entry per group) so a pipeline can accumulate sums chunk
by chunk and form all its estimates at the end. The normal quantile comes from
:class:`statistics.NormalDist` and the normal CDF from :func:`math.erfc`; scipy (the bootstrap) is
imported only by the function that uses it.

* Means: normal-approximation (z) interval with the sample standard error ``s / sqrt(n)``
  (``s`` with the ``n - 1`` divisor). Samples here are large (thousands of deals), where the z and
  t intervals agree.
* Proportions of truly independent units: Wilson score interval (good coverage even near 0 and 1,
  where flower pigs and robbed kongs live).
* Rates and means of a run whose observations are *clustered* (the four players of a deal, the
  four rotations of a duplicate wall): :func:`ratio_interval`, the ratio estimator
  ``R = sum(y) / sum(x)`` over clusters with the linearized (delta-method) variance
  ``G / (G - 1) * sum((y_c - R x_c)**2) / sum(x)**2`` from the per-cluster totals ``y_c, x_c``
  of ``G`` clusters. Its ``design_effect`` is the clustered variance over the variance the same
  estimate would have if every observation were independent.
* Paired per-wall differences (one seat's policy against another on the same walls):
  :func:`paired_interval`, the one estimator behind compare, the experiments and what-if. The
  interval is normal unless fewer than :data:`MIN_INFORMATIVE_WALLS` walls are *informative* (a
  non-zero difference: then it is the union of a wall-level BCa bootstrap and the normal
  interval) or the differences are heavy-tailed (the excess kurtosis of their mean,
  kurtosis / walls, above :data:`KURTOSIS_LIMIT`: then BCa alone), and ``method`` says so.
* Differences of independent samples: unpaired Welch (unequal variances), z interval and
  two-sided normal p-value.
* Multiplicity: :func:`holm` (Holm's step-down adjustment of a family of p-values) and
  :func:`not_worse_than_best` (the settings of a sweep that are not significantly worse than the
  best one).
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
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from simcore._input import unknown_name

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
        out = 0.5 * np.asarray(erfc(-values / math.sqrt(2.0))).astype(np.float64)
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


# ---------------------------------------------------------------- clustered ratio estimator

def ratio_interval(
    clusters: ArrayLike,
    sum_y: ArrayLike,
    sum_x: ArrayLike,
    sum_yy: ArrayLike,
    sum_xx: ArrayLike,
    sum_xy: ArrayLike,
    level: float = DEFAULT_LEVEL,
    srs_se: ArrayLike | None = None,
    bounds: tuple[float, float] | None = None,
) -> pd.DataFrame:
    """Cluster-robust interval of the ratio ``R = sum(y) / sum(x)``, one row per group.

    The inputs are, per group, the number of clusters ``G`` and the sums over clusters of the
    cluster totals ``y_c``, ``x_c`` and of ``y_c**2``, ``x_c**2``, ``y_c x_c``. The linearized
    variance is ``G / (G - 1) * sum((y_c - R x_c)**2) / sum(x)**2`` (the delta method; with one
    observation per cluster and ``x_c = 1`` it is the usual ``s**2 / n``). A rate is the ratio
    of successes ``y`` to trials ``x``, a mean the ratio of a sum to a count.

    Columns ``clusters, estimate, se, ci_low, ci_high, design_effect``: the z interval (clipped
    to ``bounds``, e.g. ``(0, 1)`` for rates) and ``(se / srs_se)**2``, the variance over what
    it would be were the observations independent (NaN without ``srs_se``).

    Three clusters of (successes, trials) (1, 2), (2, 2), (0, 2): R = 1/2 and
    se**2 = 3/2 * (0 + 1 + 1) / 36 = 1/12.

    >>> ratio_interval([3], [3], [6], [5], [12], [6]).round(4).to_dict("records")
    [{'clusters': 3, 'estimate': 0.5, 'se': 0.2887, 'ci_low': -0.0658, 'ci_high': 1.0658, \
'design_effect': nan}]
    """
    z = z_quantile(level)
    g, sy, sx, syy, sxx, sxy = _arrays(clusters, sum_y, sum_x, sum_yy, sum_xx, sum_xy)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(sx != 0, sy / sx, np.nan)
        rr = np.where(np.isnan(r), 0.0, r)
        # sum over clusters of (y_c - R x_c)**2; clip the rounding residue below 0
        resid = np.maximum(syy - 2.0 * rr * sxy + rr * rr * sxx, 0.0)
        var = np.where(g > 1, g / (g - 1.0) * resid / (sx * sx), np.nan)
        se = np.sqrt(var)
        low, high = r - z * se, r + z * se
        if bounds is not None:
            low, high = np.clip(low, *bounds), np.clip(high, *bounds)
        if srs_se is None:
            deff = np.full_like(r, np.nan)
        else:
            (srs,) = _arrays(srs_se)
            deff = np.where(srs > 0, var / (srs * srs), np.nan)
    return pd.DataFrame({"clusters": g.astype(np.int64), "estimate": r, "se": se,
                         "ci_low": low, "ci_high": high, "design_effect": deff})


def cluster_ratio(
    y: ArrayLike, x: ArrayLike | None = None, level: float = DEFAULT_LEVEL,
    srs_se: float | None = None, bounds: tuple[float, float] | None = None,
) -> pd.Series:
    """:func:`ratio_interval` of per-cluster totals ``y`` (and counts ``x``, default 1 each).

    >>> cluster_ratio([1, 2, 0], [2, 2, 2])[["estimate", "se"]].round(4).tolist()
    [0.5, 0.2887]
    """
    y_ = np.asarray(y, dtype=np.float64)
    x_ = np.ones_like(y_) if x is None else np.asarray(x, dtype=np.float64)
    if y_.shape != x_.shape or y_.ndim != 1:
        raise ValueError(f"cluster totals y and x must be 1-d of one length, got shapes "
                         f"{y_.shape} and {x_.shape}")
    return ratio_interval(len(y_), y_.sum(), x_.sum(), (y_ * y_).sum(), (x_ * x_).sum(),
                          (x_ * y_).sum(), level, None if srs_se is None else [srs_se],
                          bounds).iloc[0]


def binomial_se(rate: ArrayLike, n: ArrayLike) -> np.ndarray:
    """``sqrt(p (1 - p) / n)``: the standard error of a rate of ``n`` independent trials."""
    p, n_ = _arrays(rate, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.sqrt(p * (1.0 - p) / n_)


# ---------------------------------------------------------------- the paired per-wall estimator

# A normal interval for a mean over walls is used only when at least this many walls are
# informative (the two arms differ on them): with fewer, the mean is a sum of a few hundred
# non-zero terms at most and its sampling distribution is visibly skewed (flush:k=11 differed
# from speed on 11 of 10,000 walls).
MIN_INFORMATIVE_WALLS = 1_000
# ... and when the per-wall differences are not heavy-tailed. The normal approximation of a mean
# of n walls errs by terms in skewness / sqrt(n) and excess kurtosis / n (Edgeworth); the mean's
# own excess kurtosis is the per-wall kurtosis over n. Above this limit (1%) the interval is a
# bootstrap too. A difference carried by a share q of the walls has a kurtosis of about 1/q
# (measured: flush:k=9 differs from speed on 6.5% of classic walls with a kurtosis of about 560,
# 0.028 of its mean at 20,000 walls; k=11 on 0.1% with about 3,500), so sparse arms are
# bootstrapped at any size, while a dense arm of kurtosis 50 keeps the normal interval from 5,000
# walls on.
KURTOSIS_LIMIT = 0.01
BOOTSTRAP_RESAMPLES = 4_999
BOOTSTRAP_SEED = 14  # the bootstrap's own stream: the same data give the same interval
METHOD_NORMAL, METHOD_BOOTSTRAP, METHOD_EXACT = "normal", "bootstrap-bca", "exact"
# the union of the BCa and the normal interval: the interval of 'auto' with fewer than
# MIN_INFORMATIVE_WALLS informative walls. From a few hundred informative walls BCa estimates its
# bias and acceleration from the very sample that misses (or catches) the rare large wins, and
# the interval lands on the wrong side of the gain too often: measured on real simulated data
# (benchmarks/bench_coverage.py, docs/results/interval_coverage.txt), the BCa interval of
# flush:k=10 under app at 500 walls (about 150 informative) covered the true gain in 93.2% of
# 1,000 replications (MC se 0.8%), the normal one in 95.2%, their union in 95.4%; for
# speed:kong=always under classic 94.8%, 95.6% and 96.0%. The union keeps BCa's skewed end where
# it reaches further (very sparse arms, where the normal interval is the one that fails) and the
# normal end where BCa falls short.
METHOD_UNION = "bootstrap-bca+normal"
METHODS = ("auto", METHOD_NORMAL, METHOD_BOOTSTRAP, METHOD_UNION)
PAIRED_COLUMNS = ("walls", "informative_walls", "estimate", "se", "ci_low", "ci_high",
                  "p_value", "method", "kurtosis", "se_unpaired", "variance_reduction")


def excess_kurtosis(x: ArrayLike) -> float:
    """The (biased, moment) excess kurtosis ``m4 / m2**2 - 3`` of ``x``; NaN for a constant."""
    v = np.asarray(x, dtype=np.float64)
    c = v - v.mean() if len(v) else v
    m2 = float((c * c).mean()) if len(v) else 0.0
    if m2 <= 0.0:
        return math.nan
    return float((c**4).mean() / (m2 * m2) - 3.0)


def bca_interval(
    x: ArrayLike, level: float = DEFAULT_LEVEL, n_resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[float, float, float]:
    """``(ci_low, ci_high, p_value)`` of the mean of ``x``: the BCa bootstrap interval.

    The resamples are :func:`scipy.stats.bootstrap`'s own (same ``seed``, same draws) and the
    interval is its ``method='BCa'`` interval, with the jackknife of the mean computed in closed
    form (``(sum - x_i) / (n - 1)``) instead of by ``n`` recomputations, which costs scipy
    ``n**2`` operations (4 s at 20,000 walls; the test checks both agree). The p-value is the
    BCa interval inverted: the level at which one end of the interval reaches 0.
    """
    from scipy import stats as sps
    from scipy.special import ndtr, ndtri

    v = np.asarray(x, dtype=np.float64)
    n = len(v)
    if n < 2:
        raise ValueError(f"a bootstrap needs at least 2 observations, got {n}")
    result = sps.bootstrap((v,), np.mean, n_resamples=n_resamples, vectorized=True,
                           method="percentile", confidence_level=level,
                           batch=max(1, min(250, 2_000_000 // n)),  # <= 16 MB per batch
                           random_state=np.random.default_rng(seed))
    boot = np.asarray(result.bootstrap_distribution, dtype=np.float64)
    theta = float(v.mean())
    share = (np.count_nonzero(boot < theta) + np.count_nonzero(boot <= theta)) / (2 * len(boot))
    z0 = float(ndtri(share))
    jack = (v.sum() - v) / (n - 1.0)
    u = (n - 1.0) * (jack.mean() - jack)
    dens = float((u**2).sum() / n**2)
    a = float((u**3).sum() / n**3) / 6.0 / dens**1.5 if dens > 0 else 0.0
    z_alpha = float(ndtri((1.0 - level) / 2.0))
    alphas = []
    for zq in (z_alpha, -z_alpha):
        num = z0 + zq
        alphas.append(float(ndtr(z0 + num / (1.0 - a * num))))
    low, high = (float(q) for q in sps.quantile(boot, np.array(alphas)))
    # invert: the quantile q0 of 0 in the bootstrap distribution is the BCa end at level
    # alpha0 with Phi^-1(q0) = z0 + w / (1 - a w), w = z0 + z_alpha0
    b = len(boot)
    q0 = (np.count_nonzero(boot < 0.0) + np.count_nonzero(boot <= 0.0)) / (2 * b)
    zq0 = float(ndtri(min(max(q0, 0.5 / b), 1.0 - 0.5 / b)))
    w = (zq0 - z0) / (1.0 + a * (zq0 - z0))
    tail = float(ndtr(w - z0))
    p_value = min(1.0, 2.0 * min(tail, 1.0 - tail))
    return low, high, p_value


def paired_interval(
    differences: ArrayLike,
    unpaired_se: float | None = None,
    level: float = DEFAULT_LEVEL,
    method: str = "auto",
    seed: int = BOOTSTRAP_SEED,
) -> dict[str, Any]:
    """The mean over walls of per-wall differences, with its interval: the one paired estimator.

    Walls are the independent units of a duplicate run (and of arms sharing a seed), so the
    estimate is the mean of the per-wall ``differences`` and its standard error their standard
    deviation over ``sqrt(walls)``. ``method='auto'`` chooses:

    * ``'bootstrap-bca+normal'`` when fewer than :data:`MIN_INFORMATIVE_WALLS` walls have a
      non-zero difference: the union of the wall-level BCa bootstrap interval
      (:func:`bca_interval`) and the z interval, kept within the range of the per-wall values
      (a rare rate's interval does not reach below 0), with the larger of their p-values (0 is
      outside the union exactly when it is outside both). BCa alone undercovers there (93% at
      500 walls of a real flush arm, see :data:`METHOD_UNION`); the union covered 95-96%;
    * ``'bootstrap-bca'`` (BCa alone) with enough informative walls but an excess kurtosis over
      the number of walls above :data:`KURTOSIS_LIMIT`;
    * ``'normal'`` (the z interval) otherwise.

    Each method can also be asked for by name. Differences that are all equal have a
    zero-width interval (``method='exact'``). ``variance_reduction = 1 - se**2 / unpaired_se**2``.

    Returns a dict with the keys of :data:`PAIRED_COLUMNS`.

    >>> row = paired_interval([1.0, 2.0, 0.0], unpaired_se=1.0, method="normal")
    >>> {k: round(row[k], 4) for k in ("estimate", "se", "p_value", "variance_reduction")}
    {'estimate': 1.0, 'se': 0.5774, 'p_value': 0.0833, 'variance_reduction': 0.6667}
    """
    if method not in METHODS:
        raise ValueError(unknown_name("interval method", method, METHODS))
    z = z_quantile(level)
    d = np.asarray(differences, dtype=np.float64).ravel()
    d = d[~np.isnan(d)]
    n = len(d)
    informative = int(np.count_nonzero(d))
    estimate = float(d.mean()) if n else math.nan
    se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    kurt = excess_kurtosis(d) if n > 1 else math.nan
    row: dict[str, object] = {"walls": n, "informative_walls": informative, "estimate": estimate,
                              "se": se, "kurtosis": kurt}
    if n < 2:
        row.update(ci_low=math.nan, ci_high=math.nan, p_value=math.nan, method=METHOD_NORMAL)
    elif se == 0.0:
        row.update(ci_low=estimate, ci_high=estimate, p_value=1.0 if estimate == 0 else 0.0,
                   method=METHOD_EXACT)
    else:
        if method == "auto":
            if informative < MIN_INFORMATIVE_WALLS:
                method = METHOD_UNION
            elif not kurt / n <= KURTOSIS_LIMIT:
                method = METHOD_BOOTSTRAP
            else:
                method = METHOD_NORMAL
        low, high = estimate - z * se, estimate + z * se
        p = float(two_sided_p(np.array([estimate / se]))[0])
        if method == METHOD_BOOTSTRAP:
            low, high, p = bca_interval(d, level, seed=seed)
        elif method == METHOD_UNION:
            # 0 lies outside the union exactly when it lies outside both intervals
            b_low, b_high, b_p = bca_interval(d, level, seed=seed)
            low, high, p = min(low, b_low), max(high, b_high), max(p, b_p)
            # the normal end of a few informative walls can leave the values' range (a rare
            # rate's interval would reach below 0), where no mean of them can lie
            low, high = max(low, float(d.min())), min(high, float(d.max()))
        row.update(ci_low=low, ci_high=high, p_value=p, method=method)
    u = math.nan if unpaired_se is None else float(unpaired_se)
    row["se_unpaired"] = u
    row["variance_reduction"] = 1.0 - se**2 / u**2 if u > 0 and not math.isnan(se) else math.nan
    return {k: row[k] for k in PAIRED_COLUMNS}


def paired_intervals(
    differences: pd.DataFrame,
    unpaired_se: dict[str, float] | None = None,
    level: float = DEFAULT_LEVEL,
    method: str = "auto",
) -> pd.DataFrame:
    """:func:`paired_interval` of every column of ``differences`` (one row per column, whose
    name becomes ``metric``)."""
    rows = []
    for name in differences.columns:
        se_u = None if unpaired_se is None else unpaired_se.get(name)
        rows.append({"metric": name, **paired_interval(differences[name].to_numpy(), se_u,
                                                       level, method)})
    return pd.DataFrame(rows, columns=["metric", *PAIRED_COLUMNS])


# ---------------------------------------------------------------- estimands of one seat

ESTIMANDS = ("switching_gain", "vs_field")
# metrics whose four values in a deal sum to zero: the baseline's own mean over the four seats
# of a wall it plays at a table of itself is then exactly 0
ZERO_SUM_METRICS = frozenset({"net", "net_win", "net_kong", "net_pig", "net_ready",
                              "net_refund"})


def seat_estimand(
    own: pd.DataFrame,
    field: pd.DataFrame,
    estimand: str,
    baseline_own: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Per-wall values of one seat's estimand (index: wall; one column per metric).

    ``own`` holds, per wall, the switching seat's mean of each metric over its player-deals,
    ``field`` the mean of the other seats' player-deals of the same wall.

    * ``vs_field``: ``own - field``, the variant minus the mean of the other seats. For a
      zero-sum metric against a field of three, this is 4/3 of what the seat itself earns.
    * ``switching_gain``: ``own - baseline_own``, what the seat gains by switching from the
      baseline policy to the variant against the same field: ``baseline_own`` is the baseline
      policy's own mean in the same seats of the same walls against the same field (a played
      arm). When the field itself plays the baseline and all four rotations of each wall are
      played, that term is exactly 0 for a zero-sum metric (the four seats of an all-baseline
      wall sum to 0), and ``baseline_own=None`` says so; other metrics then need the arm.

    Walls missing from any input are dropped.

    >>> walls = pd.Index([0, 1], name="wall")
    >>> own = pd.DataFrame({"net": [3.0, -1.5]}, index=walls)
    >>> field = -own / 3  # zero-sum: the three others pay what the seat wins
    >>> seat_estimand(own, field, "vs_field")["net"].tolist()
    [4.0, -2.0]
    >>> seat_estimand(own, field, "switching_gain")["net"].tolist()
    [3.0, -1.5]
    """
    if estimand not in ESTIMANDS:
        raise ValueError(unknown_name("estimand", estimand, ESTIMANDS))
    missing = [m for m in own.columns if m not in field.columns]
    if missing:
        raise ValueError(f"the field lacks metric {missing[0]!r}")
    if estimand == "vs_field":
        return (own - field[own.columns]).dropna()
    if baseline_own is None:
        other = [m for m in own.columns if m not in ZERO_SUM_METRICS]
        if other:
            raise ValueError(
                f"the switching gain of {other[0]!r} (not zero-sum) needs the baseline's own "
                f"values against the same field (a played baseline arm); without one it is "
                f"defined only for {', '.join(sorted(ZERO_SUM_METRICS))}"
            )
        return own.dropna()
    absent = [m for m in own.columns if m not in baseline_own.columns]
    if absent:
        raise ValueError(f"the baseline arm lacks metric {absent[0]!r}")
    return (own - baseline_own[own.columns]).dropna()


# ---------------------------------------------------------------- multiplicity

def holm(p_values: ArrayLike, alpha: float = 1.0 - DEFAULT_LEVEL) -> np.ndarray:
    """Holm's step-down adjusted p-values of one family: the ``i``-th smallest of ``m`` is
    ``max over j <= i of min(1, (m - j + 1) p_(j))``.

    The same numbers as statsmodels' ``multipletests(method="holm")`` (the tests check it), whose
    Holm branch runs a full ``gc.collect()`` per call: 0.27 s each in a process holding an
    experiment's tables, 14 of 20 s of a small experiment's analysis. ``alpha`` is kept for the
    signature; adjusted p-values do not depend on it.

    NaN p-values (comparisons without an estimate) stay NaN and do not count in the family.

    >>> holm([0.01, 0.04, 0.03, np.nan]).round(4).tolist()
    [0.03, 0.06, 0.06, nan]
    """
    p = np.asarray(p_values, dtype=np.float64).ravel()
    out = np.full_like(p, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    if ok.size:
        order = ok[np.argsort(p[ok], kind="stable")]
        m = order.size
        steps = np.minimum(1.0, (m - np.arange(m)) * p[order])
        out[order] = np.maximum.accumulate(steps)
    return out


def not_worse_than_best(
    per_wall: pd.DataFrame, level: float = DEFAULT_LEVEL, method: str = "auto"
) -> tuple[list[object], pd.DataFrame]:
    """The settings not significantly worse than the best, from paired per-wall values.

    ``per_wall`` has one column per setting (e.g. ``k``) and one row per wall, each arm's
    per-wall estimand on the same walls. The *best* is the setting with the largest mean; every
    other setting is compared with it by :func:`paired_interval` of ``best - setting`` on the
    common walls, and the family of these comparisons is Holm-adjusted (:func:`holm`). A
    setting belongs to the set when its adjusted p-value is at least ``1 - level`` (its
    shortfall is not significant); the best always does.

    Returns the settings of the set, in column order, and the comparisons (``setting``,
    ``shortfall`` = best minus setting with its interval, ``p_value``, ``p_holm``, ``in_set``).
    """
    frame = per_wall.dropna()
    if frame.shape[1] == 0:
        raise ValueError("not_worse_than_best needs at least one setting")
    best = frame.mean().idxmax()
    rows = []
    for setting in frame.columns:
        if setting == best:
            continue
        row = paired_interval((frame[best] - frame[setting]).to_numpy(), None, level, method)
        rows.append({"setting": setting, "best": best, "shortfall": row["estimate"],
                     "ci_low": row["ci_low"], "ci_high": row["ci_high"],
                     "p_value": row["p_value"], "method": row["method"]})
    table = pd.DataFrame(rows, columns=["setting", "best", "shortfall", "ci_low", "ci_high",
                                        "p_value", "method"])
    table["p_holm"] = holm(table["p_value"].to_numpy()) if len(table) else []
    table["in_set"] = ~(table["p_holm"] < 1.0 - level)
    keep = {best, *table.loc[table["in_set"], "setting"]}
    return [s for s in frame.columns if s in keep], table
