"""Each idea of the policy family does what it says, over whole deals.

Seat 0 plays the idea, the other seats ``speed``; the baseline is the same deals (same seed,
same walls) with ``speed`` at seat 0. Outcomes are compared deal by deal (paired), and a test
passes when the 95% confidence interval of the mean difference excludes zero in the stated
direction. Rules that must hold in every deal (no kong under ``kong=never``, no small win
before ``until``) are checked on every deal, and the baseline shows they are not vacuous.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore.analysis.stats import paired_interval
from simcore.engine import simulate
from simcore.rules import PRESETS

SPEED = ["speed"] * 4
DEALS = 3_000


def _seat0(spec: str, seed: int, deals: int = DEALS, preset: str = "classic",
           others: str = "speed") -> np.ndarray:
    out = simulate(PRESETS[preset], [spec, others, others, others], seed, 0, deals)
    return out[out["seat"] == 0]


def _paired_ci(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Mean of ``x - y`` (per deal) and its 95% confidence interval: the shared paired
    estimator (a bootstrap when few deals differ)."""
    row = paired_interval(x.astype(np.float64) - y.astype(np.float64))
    return row["estimate"], row["ci_low"], row["ci_high"]


def _more(x: np.ndarray, y: np.ndarray) -> None:
    mean, low, high = _paired_ci(x, y)
    assert low > 0, f"difference {mean:.4f}, 95% CI [{low:.4f}, {high:.4f}] does not exclude 0"


def _won(rows: np.ndarray) -> np.ndarray:
    return rows["win_order"] > 0


ALL_PUNGS = (1, 3, 4)  # all_pungs, golden_hook, pungs_258
SEVEN_PAIRS = 2


@pytest.mark.parametrize("preset", ["classic", "app"])
def test_flush_makes_more_flushes(preset: str) -> None:
    idea = _seat0("flush:k=7", 21, preset=preset)
    base = _seat0("speed", 21, preset=preset)
    _more(_won(idea) & idea["flush"], _won(base) & base["flush"])


def test_flush_gives_up_more_often_with_a_larger_g() -> None:
    early = _seat0("flush:k=7,g=40", 22)
    late = _seat0("flush:k=7", 22)
    _more(_won(late) & late["flush"], _won(early) & early["flush"])


def test_pungs_makes_more_all_pungs_hands() -> None:
    idea = _seat0("pungs:k=3", 23)
    base = _seat0("speed", 23)
    _more(np.isin(idea["pattern"], ALL_PUNGS), np.isin(base["pattern"], ALL_PUNGS))
    _more(idea["pungs"], base["pungs"])  # it pungs more


def test_pairs_makes_more_seven_pairs() -> None:
    idea = _seat0("pairs:k=3", 24)
    base = _seat0("speed", 24)
    _more(idea["pattern"] == SEVEN_PAIRS, base["pattern"] == SEVEN_PAIRS)
    _more(base["pungs"], idea["pungs"])  # it pungs less (only after giving the plan up)


def test_ukeire_tie_break_wins_more() -> None:
    idea = _seat0("speed", 25)
    base = _seat0("speed:ukeire=0", 25)
    _more(_won(idea), _won(base))


@pytest.mark.parametrize("preset", ["classic", "app"])
def test_kong_never_makes_no_kong(preset: str) -> None:
    rules = PRESETS[preset]
    seats = ["speed:kong=never", "flush:k=7,kong=never", "pungs:k=3,kong=never",
             "pairs:k=3,kong=never"]
    out = simulate(rules, seats, 26, 0, DEALS)
    assert (out["kongs"] == 0).all()
    base = simulate(rules, SPEED, 26, 0, DEALS)
    assert (base["kongs"] > 0).mean() > 0.05  # the same deals have kongs otherwise


def test_kong_always_kongs_more_than_keep_shape() -> None:
    idea = _seat0("speed:kong=always", 27)
    base = _seat0("speed", 27)
    _more(idea["kongs"], base["kongs"])


def test_pung_then_add_pungs_instead_of_direct_kongs_and_adds_later() -> None:
    idea = _seat0("speed:kong=pung_then_add", 28)
    base = _seat0("speed", 28)
    assert (idea["kongs_direct"] == 0).all()
    assert (base["kongs_direct"] > 0).any()
    _more(idea["kongs_added"], base["kongs_added"])


@pytest.mark.parametrize("preset", ["classic", "app"])
def test_min_fan_never_wins_small_while_more_than_until_remain(preset: str) -> None:
    min_fan, until = 2, 8
    idea = _seat0(f"speed:min_fan={min_fan},until={until}", 29, preset=preset)
    won = _won(idea)
    wall_left_at_win = 55 - idea["win_draw"].astype(np.int64)  # 108 - 53 dealt - draws so far
    small = won & (idea["fan_uncapped"] < min_fan)
    assert (wall_left_at_win[small] <= until).all()
    assert small.any()  # late small wins are still taken
    base = _seat0("speed", 29, preset=preset)
    base_small_early = _won(base) & (base["fan_uncapped"] < min_fan) & (
        55 - base["win_draw"].astype(np.int64) > until)
    assert base_small_early.mean() > 0.2  # without the option most wins are early and small
    _more(idea["passed_wins"], base["passed_wins"])
