"""The clustered ratio estimator, the paired per-wall estimator, the estimands and multiplicity.

Hand computations on a small synthetic duplicate dataset with known clusters; coverage by
simulation (the clustered interval covers at its level, the naive one does not); Holm's
adjustment against an independent step-down and statsmodels; the BCa shortcut against scipy.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

from simcore.analysis.stats import (
    KURTOSIS_LIMIT,
    MIN_INFORMATIVE_WALLS,
    bca_interval,
    binomial_se,
    cluster_ratio,
    holm,
    not_worse_than_best,
    paired_interval,
    ratio_interval,
    seat_estimand,
    wilson_interval,
    z_quantile,
)

# ---- a tiny duplicate run: 3 walls x 4 rotations x 4 seats, an event per player-deal ----
# wall 0: the event happens in all 16 player-deals; wall 1: in 4 (one seat, every rotation);
# wall 2: never. The rate is 20/48 = 5/12.
EVENTS = {0: np.ones((4, 4)), 1: np.eye(4), 2: np.zeros((4, 4))}


def _tiny_records() -> pd.DataFrame:
    rows = [{"wall": w, "rotation": r, "seat": s, "event": int(e[r, s])}
            for w, e in EVENTS.items() for r in range(4) for s in range(4)]
    return pd.DataFrame(rows)


def test_ratio_estimator_by_hand_on_a_duplicate_dataset() -> None:
    records = _tiny_records()
    per_wall = records.groupby("wall")["event"].agg(["sum", "count"])
    assert per_wall["sum"].tolist() == [16, 4, 0] and per_wall["count"].tolist() == [16] * 3
    row = cluster_ratio(per_wall["sum"], per_wall["count"])
    # R = 20/48; residuals y_c - R x_c = 16 - 20/3, 4 - 20/3, -20/3 = 28/3, -8/3, -20/3
    # sum of squares = (784 + 64 + 400) / 9 = 1248/9; var = 3/2 * 1248/9 / 48**2
    assert row["estimate"] == pytest.approx(5 / 12, abs=1e-15)
    assert row["se"] == pytest.approx(math.sqrt(1.5 * 1248 / 9 / 48**2), abs=1e-15)
    assert row["clusters"] == 3
    # the same from the sufficient statistics a pipeline accumulates
    y, x = per_wall["sum"].to_numpy(float), per_wall["count"].to_numpy(float)
    frame = ratio_interval(3, y.sum(), x.sum(), (y * y).sum(), (x * x).sum(), (x * y).sum())
    assert frame.iloc[0]["se"] == pytest.approx(row["se"], abs=1e-15)
    # with one player-deal per cluster it is the textbook s / sqrt(n) of the 48 events
    flat = cluster_ratio(records["event"])
    assert flat["se"] == pytest.approx(records["event"].std(ddof=1) / math.sqrt(48))
    # design effect: the clustered variance over the binomial one, 0.0491 / 0.00507 ~ 9.7
    srs = float(binomial_se(5 / 12, 48)[0])
    deff = cluster_ratio(y, x, srs_se=srs)["design_effect"]
    assert deff == pytest.approx(row["se"] ** 2 / srs**2)
    assert deff > 9


def test_ratio_interval_bounds_and_degenerate_groups() -> None:
    frame = ratio_interval([3, 1, 0], [1, 1, 0], [30, 4, 0], [1, 1, 0], [300, 16, 0],
                           [10, 4, 0], bounds=(0.0, 1.0))
    assert frame.loc[0, "ci_low"] == 0.0 and frame.loc[0, "ci_high"] < 1.0
    assert math.isnan(frame.loc[1, "se"])  # one cluster: no variance
    assert math.isnan(frame.loc[2, "estimate"])  # nothing observed
    with pytest.raises(ValueError, match="1-d of one length"):
        cluster_ratio([1, 2], [1, 2, 3])


COVERAGE_REPLICATES = 200
COVERAGE_WINDOW = (0.92, 0.98)  # 95% +- 3%


def _duplicate_rate_replicates(walls: int, seed: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Per replicate and wall: events among the wall's 16 player-deals, where the event
    probability is a property of the wall (a Beta(0.5, 2) draw: mean 0.2, like drawn ends;
    intra-wall correlation 0.29, design effect 1 + 15 * 0.29 = 5.3)."""
    rng = np.random.default_rng(seed)
    p_wall = rng.beta(0.5, 2.0, (COVERAGE_REPLICATES, walls))
    events = rng.binomial(16, p_wall)
    return events.astype(np.float64), np.full_like(p_wall, 16.0), 0.2


def _coverage(walls: int, seed: int) -> tuple[float, float]:
    y, x, truth = _duplicate_rate_replicates(walls, seed)
    ci = ratio_interval(np.full(len(y), walls), y.sum(1), x.sum(1), (y * y).sum(1),
                        (x * x).sum(1), (x * y).sum(1))
    clustered = np.mean((ci["ci_low"] <= truth) & (truth <= ci["ci_high"]))
    low, high = wilson_interval(y.sum(1), x.sum(1))  # every player-deal as independent
    naive = np.mean((low <= truth) & (truth <= high))
    return float(clustered), float(naive)


def test_clustered_interval_covers_and_the_naive_one_does_not() -> None:
    """Reduced size: 200 replicates of 400 walls (16 player-deals each)."""
    clustered, naive = _coverage(400, seed=141)
    assert COVERAGE_WINDOW[0] <= clustered <= COVERAGE_WINDOW[1], clustered
    # Wilson's interval is sqrt(5.3) = 2.3 times too narrow: it covers P(|Z| < 0.85) = 60%
    assert naive < 0.8, naive


@pytest.mark.slow
def test_clustered_interval_covers_and_the_naive_one_does_not_full_size() -> None:
    clustered, naive = _coverage(20_000, seed=142)
    assert COVERAGE_WINDOW[0] <= clustered <= COVERAGE_WINDOW[1], clustered
    assert naive < 0.8, naive


def _sparse_differences(rng: np.random.Generator, walls: int, informative: int,
                        effect: float) -> np.ndarray:
    """Per-wall differences that are 0 except on ``informative`` walls (heavy-tailed there)."""
    d = np.zeros(walls)
    values = rng.standard_t(3, informative) * 8.0
    d[:informative] = values - values.mean() + effect * walls / informative
    return d


@pytest.mark.slow
def test_bootstrap_covers_a_sparse_heavy_tailed_difference() -> None:
    """200 replicates of 2,000 walls, 40 of them informative: the interval (the union of BCa
    and the normal one, as with fewer than MIN_INFORMATIVE_WALLS informative walls) covers."""
    rng = np.random.default_rng(143)
    truth, hits = 0.05, []
    for _ in range(COVERAGE_REPLICATES):
        informative = rng.binomial(2_000, 0.02)
        values = np.zeros(2_000)
        values[:informative] = rng.standard_t(3, informative) * 8.0 + truth / 0.02
        row = paired_interval(values)
        assert row["method"] == "bootstrap-bca+normal"
        hits.append(row["ci_low"] <= truth <= row["ci_high"])
    assert COVERAGE_WINDOW[0] <= np.mean(hits) <= COVERAGE_WINDOW[1], np.mean(hits)


# ---- the paired estimator ----

def test_paired_interval_by_hand() -> None:
    # d = (0, 1, 2) on three walls, one informative wall short of... all informative but two
    d = np.array([0.0, 1.0, 2.0])
    row = paired_interval(d, unpaired_se=1.0, method="normal")
    z = z_quantile(0.95)
    assert row["walls"] == 3 and row["informative_walls"] == 2
    assert row["estimate"] == 1.0 and row["se"] == pytest.approx(1 / math.sqrt(3))
    assert row["ci_low"] == pytest.approx(1 - z / math.sqrt(3))
    assert row["p_value"] == pytest.approx(2 * sps.norm.sf(math.sqrt(3)))
    assert row["variance_reduction"] == pytest.approx(2 / 3)
    assert row["method"] == "normal"


def test_paired_interval_chooses_its_method() -> None:
    rng = np.random.default_rng(5)
    dense = rng.normal(0.1, 2.0, 5_000)
    assert paired_interval(dense)["method"] == "normal"
    sparse = _sparse_differences(rng, 5_000, MIN_INFORMATIVE_WALLS // 2, 0.02)
    row = paired_interval(sparse)
    assert row["informative_walls"] == MIN_INFORMATIVE_WALLS // 2
    assert row["method"] == "bootstrap-bca+normal"
    # the union of the two intervals, with the larger p-value
    normal = paired_interval(sparse, method="normal")
    bca = paired_interval(sparse, method="bootstrap-bca")
    assert row["ci_low"] == min(normal["ci_low"], bca["ci_low"])
    assert row["ci_high"] == max(normal["ci_high"], bca["ci_high"])
    assert row["p_value"] == max(normal["p_value"], bca["p_value"])
    assert paired_interval(sparse, method="bootstrap-bca+normal") == row
    assert paired_interval(rng.standard_t(5, 5_000))["method"] == "normal"  # kurtosis ~6
    heavy = rng.normal(0.0, 1.0, 5_000)
    heavy[:5] = 400.0  # five huge walls among 5,000 informative ones
    assert paired_interval(heavy)["kurtosis"] / 5_000 > KURTOSIS_LIMIT
    assert paired_interval(heavy)["method"] == "bootstrap-bca"
    # a rare rate seen on two walls of 10,000: the union stays within the values' range, at or
    # above 0, where the normal interval alone reaches below it
    rare = np.zeros(10_000)
    rare[[3, 7_000]] = 0.25
    row = paired_interval(rare)
    assert row["method"] == "bootstrap-bca+normal"
    assert row["ci_low"] == 0.0 > paired_interval(rare, method="normal")["ci_low"]
    same = paired_interval(np.zeros(100))
    assert same["method"] == "exact" and same["ci_low"] == same["ci_high"] == 0.0
    assert same["p_value"] == 1.0
    with pytest.raises(ValueError, match="unknown interval method 'wald'"):
        paired_interval(dense, method="wald")


def test_bca_shortcut_equals_scipy_bca() -> None:
    rng = np.random.default_rng(6)
    x = _sparse_differences(rng, 3_000, 150, 0.05)
    ref = sps.bootstrap((x,), np.mean, method="BCa", n_resamples=999, vectorized=True,
                        random_state=np.random.default_rng(11)).confidence_interval
    low, high, p = bca_interval(x, n_resamples=999, seed=11)
    assert low == pytest.approx(ref.low, abs=1e-12)
    assert high == pytest.approx(ref.high, abs=1e-12)
    # the p-value inverts the interval: 0 inside the 95% interval <=> p >= 0.05
    assert (low <= 0 <= high) == (p >= 0.05)
    shifted = x + 0.2
    low, high, p = bca_interval(shifted, n_resamples=999, seed=11)
    assert low > 0 and p < 0.05


# ---- estimands ----

def test_switching_gain_and_vs_field_of_a_zero_sum_metric() -> None:
    walls = pd.Index(np.arange(4), name="wall")
    own = pd.DataFrame({"net": [3.0, -1.5, 0.0, 6.0], "win": [1.0, 0.5, 0.0, 1.0]},
                       index=walls)
    field = pd.DataFrame({"net": -own["net"] / 3, "win": [0.5, 0.5, 0.25, 0.0]}, index=walls)
    vs = seat_estimand(own, field, "vs_field")
    assert vs["net"].tolist() == pytest.approx((4 / 3 * own["net"]).tolist())
    gain = seat_estimand(own[["net"]], field, "switching_gain")
    assert gain["net"].tolist() == own["net"].tolist()
    with pytest.raises(ValueError, match="switching gain of 'win' .* needs the baseline"):
        seat_estimand(own, field, "switching_gain")
    baseline = pd.DataFrame({"net": 0.0, "win": [0.25, 0.5, 0.5, 0.25]}, index=walls)
    both = seat_estimand(own, field, "switching_gain", baseline)
    assert both["win"].tolist() == [0.75, 0.0, -0.5, 0.75]
    with pytest.raises(ValueError, match="unknown estimand 'gain'"):
        seat_estimand(own, field, "gain")


# ---- multiplicity ----

P_FAMILY = np.array([0.001, 0.04, 0.012, 0.3, 0.02, 0.0049])


def _holm_by_hand(p: np.ndarray) -> np.ndarray:
    """Holm's step-down: sort, multiply the i-th smallest by (m - i), running maximum, cap 1."""
    m = len(p)
    order = np.argsort(p)
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adjusted
    return out


def test_holm_against_a_hand_step_down_and_statsmodels() -> None:
    ours = holm(P_FAMILY)
    assert ours == pytest.approx(_holm_by_hand(P_FAMILY), abs=1e-15)
    assert ours == pytest.approx(multipletests(P_FAMILY, method="holm")[1], abs=1e-15)
    # by hand: 0.001*6, 0.0049*5, 0.012*4, 0.02*3, 0.04*2, 0.3*1 -> monotone
    assert ours.tolist() == pytest.approx([0.006, 0.08, 0.048, 0.3, 0.06, 0.0245])
    with_nan = holm(np.r_[P_FAMILY, np.nan])
    assert math.isnan(with_nan[-1]) and with_nan[:-1] == pytest.approx(ours)


def test_not_worse_than_best_is_a_set() -> None:
    rng = np.random.default_rng(8)
    walls = 4_000
    common = rng.normal(0.0, 3.0, walls)  # shared by every setting: pairing removes it
    means = {7: 0.00, 8: 0.10, 9: 0.10, 10: 0.02}
    per_wall = pd.DataFrame({k: common + m + rng.normal(0.0, 0.5, walls)
                             for k, m in means.items()})
    chosen, table = not_worse_than_best(per_wall)
    assert chosen == [8, 9]
    assert set(table["setting"]) == {7, 8, 10}
    assert (table["best"] == 9).all()
    assert table.set_index("setting").loc[8, "in_set"]
    assert (table["p_holm"] >= table["p_value"]).all()
