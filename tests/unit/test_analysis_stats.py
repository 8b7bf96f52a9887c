"""Confidence intervals of simcore.analysis.stats: exact values, and coverage by simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from simcore.analysis.stats import (
    correlation_interval,
    mean_interval,
    mean_se,
    midranks,
    normal_cdf,
    paired_difference,
    pearson_from_moments,
    proportion_interval,
    two_sided_p,
    weighted_correlations,
    welch_se,
    wilson_interval,
    z_quantile,
)

COVERAGE_SAMPLES = 2000  # 95% intervals: coverage SE = sqrt(.95 * .05 / 2000) = 0.5 points
COVERAGE_RANGE = (0.93, 0.97)


@pytest.mark.parametrize("level", [0.5, 0.9, 0.95, 0.99])
def test_z_quantile_matches_scipy(level: float) -> None:
    assert z_quantile(level) == pytest.approx(sps.norm.ppf(0.5 + level / 2), abs=1e-12)


@pytest.mark.parametrize("level", [0.0, 1.0, 95, -0.1, "0.95"])
def test_bad_level_is_rejected(level: object) -> None:
    with pytest.raises(ValueError, match="confidence level must be a number in"):
        z_quantile(level)  # type: ignore[arg-type]


def test_normal_cdf_and_p_value_match_scipy() -> None:
    x = np.array([-8.0, -3.0, -1.0, 0.0, 0.5, 1.959964, 6.0])
    assert normal_cdf(x) == pytest.approx(sps.norm.cdf(x), rel=1e-12, abs=1e-300)
    assert two_sided_p(x) == pytest.approx(2 * sps.norm.sf(np.abs(x)), rel=1e-12, abs=1e-300)
    assert np.isnan(normal_cdf([np.nan])[0])


def test_mean_interval_from_sums_matches_the_sample() -> None:
    x = np.random.default_rng(3).gamma(2.0, 3.0, 500)
    row = mean_interval([len(x)], [x.sum()], [(x * x).sum()]).iloc[0]
    se = x.std(ddof=1) / math.sqrt(len(x))
    assert row["n"] == 500
    assert row["mean"] == pytest.approx(x.mean())
    assert row["se"] == pytest.approx(se)
    assert row["ci_low"] == pytest.approx(x.mean() - 1.959964 * se, rel=1e-6)
    assert row["ci_high"] == pytest.approx(x.mean() + 1.959964 * se, rel=1e-6)


def test_mean_of_empty_and_single_samples_is_nan_not_an_error() -> None:
    mean, se = mean_se([0, 1], [0.0, 5.0], [0.0, 25.0])
    assert np.isnan(mean[0]) and mean[1] == 5.0
    assert np.isnan(se).all()


@pytest.mark.parametrize(("k", "n"), [(0, 20), (5, 10), (1, 1000), (999, 1000), (37, 80)])
def test_wilson_matches_scipy(k: int, n: int) -> None:
    expected = sps.binomtest(k, n).proportion_ci(0.95, method="wilson")
    low, high = wilson_interval([k], [n])
    assert low[0] == pytest.approx(expected.low, abs=1e-12)
    assert high[0] == pytest.approx(expected.high, abs=1e-12)


def test_wilson_ends_are_exact() -> None:
    low, high = wilson_interval([0, 7], [7, 7])
    assert low[0] == 0.0 and high[1] == 1.0  # not 2e-19 or 0.9999999999999999


def test_proportion_interval_columns_and_empty_group() -> None:
    table = proportion_interval([3, 0], [4, 0])
    assert list(table.columns) == ["n", "count", "rate", "se", "ci_low", "ci_high"]
    assert table["rate"].iloc[0] == 0.75
    assert table["se"].iloc[0] == pytest.approx(math.sqrt(0.75 * 0.25 / 4))
    assert table.iloc[1][["rate", "ci_low", "ci_high"]].isna().all()


def test_wilson_rejects_counts_above_n() -> None:
    with pytest.raises(ValueError, match="counts must lie in 0..n"):
        wilson_interval([5], [4])


def test_paired_difference_by_hand() -> None:
    # d = (0, 1, 2): mean 1, sd 1, se 1/sqrt(3); unpaired se 1 -> reduction 1 - 1/3
    row = paired_difference([3], [3.0], [5.0], unpaired_se=[1.0]).iloc[0]
    assert row["estimate"] == 1.0
    assert row["se"] == pytest.approx(1 / math.sqrt(3))
    assert row["p_value"] == pytest.approx(2 * sps.norm.sf(math.sqrt(3)))
    assert row["variance_reduction"] == pytest.approx(2 / 3)


def test_welch_se_by_hand() -> None:
    a, b = np.array([1.0, 2.0, 3.0, 6.0]), np.array([0.0, 2.0, 4.0])
    diff, se = welch_se(4, a.sum(), (a * a).sum(), 3, b.sum(), (b * b).sum())
    assert diff[0] == pytest.approx(a.mean() - b.mean())
    assert se[0] == pytest.approx(math.sqrt(a.var(ddof=1) / 4 + b.var(ddof=1) / 3))


def test_weighted_correlations_match_scipy_on_the_expanded_sample() -> None:
    rng = np.random.default_rng(5)
    x = rng.integers(1, 5, 300)  # heavy ties, like win order
    y = rng.integers(-20, 40, 300) - 5 * x
    pairs, counts = np.unique(np.stack([x, y], axis=1), axis=0, return_counts=True)
    n, pearson, spearman = weighted_correlations(pairs[:, 0], pairs[:, 1], counts)
    assert n == 300
    assert pearson == pytest.approx(sps.pearsonr(x, y).statistic, abs=1e-12)
    assert spearman == pytest.approx(sps.spearmanr(x, y).statistic, abs=1e-12)


def test_correlation_of_a_constant_is_nan() -> None:
    assert np.isnan(pearson_from_moments(3, 3.0, 6.0, 3.0, 14.0, 6.0)[0])
    n, pearson, spearman = weighted_correlations(np.ones(3), np.arange(3), np.ones(3))
    assert n == 3 and np.isnan(pearson) and np.isnan(spearman)


def test_midranks_need_sorted_distinct_values() -> None:
    with pytest.raises(ValueError, match="distinct values in increasing order"):
        midranks(np.array([2, 1]), np.array([1, 1]))


def test_fisher_interval_by_hand() -> None:
    low, high = correlation_interval([0.5], [103])
    half = 1.959964 / 10
    assert low[0] == pytest.approx(math.tanh(math.atanh(0.5) - half), abs=1e-6)
    assert high[0] == pytest.approx(math.tanh(math.atanh(0.5) + half), abs=1e-6)
    s_low, s_high = correlation_interval([0.5], [103], spearman=True)
    assert s_low[0] < low[0] and s_high[0] > high[0]  # Spearman's variance factor 1.06
    assert np.isnan(correlation_interval([0.5], [3])[0][0])


# ---- coverage by simulation: 2,000 samples from known distributions, fixed seed ----


def _covered(low: np.ndarray, high: np.ndarray, truth: float) -> float:
    return float(np.mean((low <= truth) & (truth <= high)))


def test_mean_interval_coverage() -> None:
    rng = np.random.default_rng(2024)
    n = 200
    x = rng.gamma(2.0, 1.5, (COVERAGE_SAMPLES, n))  # skewed, like nets; mean 3
    ci = mean_interval(np.full(COVERAGE_SAMPLES, n), x.sum(axis=1), (x * x).sum(axis=1))
    coverage = _covered(ci["ci_low"].to_numpy(), ci["ci_high"].to_numpy(), 3.0)
    assert COVERAGE_RANGE[0] <= coverage <= COVERAGE_RANGE[1], coverage


def test_wilson_coverage() -> None:
    rng = np.random.default_rng(2025)
    n, p = 400, 0.03  # rare events, like flower pigs
    k = rng.binomial(n, p, COVERAGE_SAMPLES)
    low, high = wilson_interval(k, np.full(COVERAGE_SAMPLES, n))
    coverage = _covered(low, high, p)
    assert COVERAGE_RANGE[0] <= coverage <= COVERAGE_RANGE[1], coverage


def test_paired_difference_coverage_and_variance_reduction() -> None:
    rng = np.random.default_rng(2026)
    walls, delta = 150, 0.4
    wall_effect = rng.normal(0.0, 3.0, (COVERAGE_SAMPLES, walls))  # shared by both policies
    a = wall_effect + rng.normal(0.0, 1.0, (COVERAGE_SAMPLES, walls))
    b = wall_effect + delta + rng.normal(0.0, 1.0, (COVERAGE_SAMPLES, walls))
    d = b - a
    _, unpaired = welch_se(walls, b.sum(1), (b * b).sum(1), walls, a.sum(1), (a * a).sum(1))
    ci = paired_difference(np.full(COVERAGE_SAMPLES, walls), d.sum(1), (d * d).sum(1), unpaired)
    coverage = _covered(ci["ci_low"].to_numpy(), ci["ci_high"].to_numpy(), delta)
    assert COVERAGE_RANGE[0] <= coverage <= COVERAGE_RANGE[1], coverage
    # var(paired) / var(unpaired) = 2 / (2 * 9 + 2) = 0.1 in expectation
    assert ci["variance_reduction"].mean() == pytest.approx(0.9, abs=0.01)
