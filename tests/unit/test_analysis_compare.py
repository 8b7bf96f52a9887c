"""compare_policies: paired (duplicate) and unpaired differences, by hand and by coverage."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from simcore.analysis import compare_policies
from simcore.analysis.stats import z_quantile
from simcore.testing.synthetic import hand_records

A, B = "A", "B"


def pick(table: pd.DataFrame, **where: object) -> pd.Series:
    mask = np.ones(len(table), dtype=bool)
    for col, value in where.items():
        mask &= (table[col] == value).to_numpy()
    rows = table[mask]
    assert len(rows) == 1, f"{len(rows)} rows match {where}"
    return rows.iloc[0]


def seats(policies: tuple[str, ...], nets: tuple[int, ...], **extra: object) -> list[dict]:
    return [{"policy": p, "net_win": n, **extra} for p, n in zip(policies, nets, strict=True)]


# Two walls, each played in two seat rotations (A B A B, then B A B A).
DUPLICATE = [
    {"deal": 0, "wall": 0, "rotation": 0, "players": seats((A, B, A, B), (4, -2, 0, -2))},
    {"deal": 1, "wall": 0, "rotation": 1, "players": seats((B, A, B, A), (6, -6, 2, -2))},
    {"deal": 4, "wall": 1, "rotation": 0, "players": seats((A, B, A, B), (1, 1, -1, -1))},
    {"deal": 5, "wall": 1, "rotation": 1, "players": seats((B, A, B, A), (3, -1, -1, -1))},
]


def test_paired_difference_by_hand() -> None:
    df = hand_records(DUPLICATE, policies=(A, B), preset="classic")
    t = compare_policies(df, metrics=("net",), interval="normal")
    # wall 0: A's mean (4 + 0 - 6 - 2) / 4 = -1, B's 1 -> d = 2; wall 1: d = 0.5 - (-0.5) = 1
    diff = pick(t, stat="difference")
    assert (diff["policy"], diff["baseline"], diff["method"], diff["per"]) == (
        B, A, "paired", "wall")
    assert diff["n"] == 2
    assert diff["estimate"] == 1.5
    assert diff["se"] == pytest.approx(0.5)
    assert diff["ci_low"] == pytest.approx(1.5 - z_quantile(0.95) * 0.5, rel=1e-12)
    assert (diff["estimand"], diff["interval"], diff["informative_walls"]) == (
        "vs_baseline", "normal", 2)
    assert diff["p_value"] == pytest.approx(math.erfc(3 / math.sqrt(2)))
    a = np.array([4, 0, -6, -2, 1, -1, -1, -1])
    b = np.array([-2, -2, 6, 2, 1, -1, 3, -1])
    assert diff["se_welch"] == pytest.approx(math.sqrt(a.var(ddof=1) / 8 + b.var(ddof=1) / 8))
    # unpaired: each deal's (B total - A total) / 2 = (-4, 8, 0, 2) has mean 1.5 and sd 5,
    # so se 5 / sqrt(4); pairing within walls leaves 0.5 of it
    assert diff["se_unpaired"] == pytest.approx(2.5)
    assert diff["variance_reduction"] == pytest.approx(1 - 0.5**2 / 2.5**2)
    mean_a = pick(t, policy=A, stat="mean")
    assert (mean_a["n"], mean_a["estimate"]) == (8, pytest.approx(a.mean()))
    # A's own mean is clustered by wall: wall totals (-4, -2) over 4 player-deals each
    assert mean_a["interval"] == "cluster(wall)"
    assert mean_a["se"] == pytest.approx(math.sqrt(2 / 1 * ((-4 + 3) ** 2 + (-2 + 3) ** 2)
                                                   / 8**2))
    # with 2 walls the default interval is the union of the wall-level bootstrap and the
    # normal interval within the range of the per-wall values, and says so
    auto = pick(compare_policies(df, metrics=("net",)), stat="difference")
    assert auto["interval"] == "bootstrap-bca+normal" and auto["estimate"] == 1.5


def test_estimands_by_hand() -> None:
    df = hand_records(DUPLICATE, policies=(A, B), preset="classic")
    gain = pick(compare_policies(df, metrics=("net",), estimand="switching_gain",
                                 interval="normal"), stat="difference")
    # B's own mean per wall: (-2 - 2 + 6 + 2) / 4 = 1 and (1 - 1 + 3 - 1) / 4 = 0.5
    assert (gain["estimand"], gain["estimate"]) == ("switching_gain", 0.75)
    assert gain["se"] == pytest.approx(0.25)
    # two policies: the field of B is A, so vs_field is the plain difference (2 x the gain)
    field = pick(compare_policies(df, metrics=("net",), estimand="vs_field",
                                  interval="normal"), stat="difference")
    assert field["estimate"] == 1.5 and field["estimand"] == "vs_field"
    with pytest.raises(ValueError, match="switching gain needs .* not 'win'"):
        compare_policies(df, metrics=("net", "win"), estimand="switching_gain")
    with pytest.raises(ValueError, match="unknown estimand 'gain'"):
        compare_policies(df, estimand="gain")


def test_vs_field_at_a_table_of_four_policies() -> None:
    """C's field is A, B and D: vs_field is C's mean minus the mean of the other three seats."""
    rows = [{"deal": d, "players": seats(("A", "B", "C", "D"), nets)}
            for d, nets in enumerate([(3, -1, -1, -1), (-2, -2, 6, -2), (0, 0, -3, 3)])]
    df = hand_records(rows, policies=("A", "B", "C", "D"))
    t = compare_policies(df, metrics=("net",), baseline="A", estimand="vs_field")
    c = pick(t, policy="C", stat="difference")
    net = df["net"].to_numpy(float).reshape(3, 4)
    assert c["estimate"] == pytest.approx(net[:, 2].mean() - net[:, [0, 1, 3]].mean())
    assert c["method"] == "unpaired"


def test_baseline_and_direction() -> None:
    df = hand_records(DUPLICATE, policies=(A, B))
    diff = pick(compare_policies(df, baseline=B, metrics="net"), stat="difference")
    assert (diff["policy"], diff["baseline"], diff["estimate"]) == (A, B, -1.5)


def test_paired_comparison_can_be_switched_off() -> None:
    df = hand_records(DUPLICATE, policies=(A, B))
    diff = pick(compare_policies(df, metrics="net", paired=False), stat="difference")
    assert diff["method"] == "unpaired" and diff["per"] == "deal" and diff["n"] == 4


TABLE = [  # one run without duplicates: A at seats 0 and 2, B at 1 and 3, zero-sum nets
    {"players": seats((A, B, A, B), nets)}
    for nets in ((12, -3, -2, -7), (2, 10, -18, 6), (1, 5, -3, -3), (24, -7, -8, -9),
                 (3, 3, 0, -6), (-1, 12, -5, -6))
]


def test_unpaired_difference_uses_deal_totals() -> None:
    df = hand_records(TABLE, policies=(A, B))
    t = compare_policies(df, metrics=("net",))
    diff = pick(t, stat="difference")
    # zero-sum: B's total is minus A's in every deal, so the difference of means is
    # -(A's per-deal total) averaged over deals, and its se that of those totals
    a_total = np.array([10, -16, -2, 16, 3, -6])
    assert diff["method"] == "unpaired" and diff["n"] == 6
    assert diff["estimate"] == pytest.approx(-a_total.mean())
    assert diff["se"] == pytest.approx(a_total.std(ddof=1) / math.sqrt(6))
    assert diff["se_unpaired"] == diff["se"]
    assert np.isnan(diff["variance_reduction"])


def test_rate_metrics_are_clustered_and_every_default_metric_is_there() -> None:
    rows = [{"players": [{"policy": A, "win_order": 1, "fan": 2, "win_kind": "self_draw"},
                         {"policy": B, "deal_ins": 1}, {"policy": A, "pig": True},
                         {"policy": B}]}] * 3
    t = compare_policies(hand_records(rows, policies=(A, B)))
    assert list(dict.fromkeys(t["metric"])) == ["net", "win", "fan", "pig", "deal_in"]
    win = pick(t, policy=A, metric="win", stat="rate")
    assert (win["n"], win["count"], win["estimate"]) == (6, 3, 0.5)
    # A wins exactly once in each deal: no spread between deals, so the rate is exact
    assert win["interval"] == "cluster(deal)" and win["se"] == 0.0
    assert pick(t, policy=B, metric="deal_in", stat="rate")["estimate"] == 0.5
    assert pick(t, policy=A, metric="fan", stat="mean")["estimate"] == 1.0
    assert pick(t, metric="pig", stat="difference")["estimate"] == -0.5
    assert pick(t, metric="deal_in", stat="difference")["estimate"] == 0.5


def test_other_numeric_columns_are_metrics() -> None:
    df = hand_records(TABLE, policies=(A, B))
    t = compare_policies(df, metrics=("net_win", "deal_ins"))
    assert set(t["metric"]) == {"net_win", "deal_ins"}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"baseline": "Z"}, "baseline policy 'Z' is not in the run"),
        ({"metrics": ("net", "luck")}, "unknown metric 'luck'"),
        ({"metrics": ("pattern",)}, "unknown metric 'pattern'"),
        ({"metrics": ()}, "metrics must name at least one metric"),
        ({"by": ("seat",)}, "compare_policies groups whole deals; cannot group by seat"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        compare_policies(hand_records(TABLE, policies=(A, B)), **kwargs)


def test_single_policy_has_means_but_no_differences() -> None:
    t = compare_policies(hand_records(TABLE[:2], policies=(A, B)).assign(
        policy=pd.Categorical([A] * 8, categories=[A])))
    assert set(t["stat"]) == {"mean", "rate"}


# ---- coverage of the pipeline's intervals: 2,000 independent replications as 2,000 presets


REPLICATIONS = 2000


def _frame(columns: dict[str, np.ndarray], replicate: np.ndarray) -> pd.DataFrame:
    """Just the columns compare_policies reads (3 M rows: the full schema would be slow)."""
    df = pd.DataFrame(columns)
    df["policy"] = pd.Categorical.from_codes(columns["policy"], [A, B])
    df["preset"] = pd.Categorical.from_codes(replicate, [f"r{i}" for i in range(REPLICATIONS)])
    return df


def test_paired_coverage_and_variance_reduction() -> None:
    rng = np.random.default_rng(11)
    walls = 100  # per replication: enough for the z interval of a mean of walls
    n_walls = REPLICATIONS * walls
    wall = np.repeat(np.arange(n_walls), 16)
    rotation = np.tile(np.repeat(np.arange(4), 4), n_walls)
    seat = np.tile(np.arange(4), 4 * n_walls)
    policy = (seat + rotation) % 2  # B (1) gains exactly 1 unit in expectation
    # the same tiles give a seat the same luck in every rotation of its wall
    wall_luck = np.repeat(rng.normal(0.0, 20.0, (n_walls, 4)), 4, axis=0).ravel()
    noise = rng.normal(0.0, 5.0, len(wall))
    # an integer shift keeps the expected difference exactly 1 after rounding
    net = (np.round(wall_luck + noise) + policy).astype(np.int32)
    df = _frame({"deal": 4 * wall + rotation, "wall": wall, "seat": seat, "policy": policy,
                 "net": net}, np.repeat(np.arange(REPLICATIONS), 16 * walls))
    t = compare_policies(df, metrics=("net",), interval="normal")
    diffs = t[t["stat"] == "difference"]
    assert len(diffs) == REPLICATIONS and (diffs["method"] == "paired").all()
    covered = ((diffs["ci_low"] <= 1.0) & (diffs["ci_high"] >= 1.0)).mean()
    assert 0.93 <= covered <= 0.97, covered
    assert diffs["variance_reduction"].median() > 0.8  # seat luck cancels within a wall


def test_unpaired_coverage_needs_deal_clustering() -> None:
    rng = np.random.default_rng(12)
    deals = 50  # per replication
    n_deals = REPLICATIONS * deals
    seat = np.tile(np.arange(4), n_deals)
    x = rng.integers(-20, 21, (n_deals, 4))
    x[:, 0] += 1  # A (seat 0) plays better by one unit of x
    deal = np.repeat(np.arange(n_deals), 4)
    net = (4 * x - x.sum(axis=1, keepdims=True)).ravel()  # zero-sum
    df = _frame({"deal": deal, "wall": deal, "seat": seat, "policy": (seat > 0).astype(int),
                 "net": net}, np.repeat(np.arange(REPLICATIONS), 4 * deals))
    t = compare_policies(df, metrics=("net",))
    diffs = t[t["stat"] == "difference"]
    truth = -4.0  # E[net_B] - E[net_A] = -1 - 3
    covered = ((diffs["ci_low"] <= truth) & (truth <= diffs["ci_high"])).mean()
    assert 0.93 <= covered <= 0.97, covered
    # the textbook Welch interval ignores that players at one table are dependent: its se is
    # sqrt(16/21.3) of the true one here, for a coverage of 0.910
    z = z_quantile(0.95)
    welch = ((diffs["estimate"] - z * diffs["se_welch"] <= truth)
             & (diffs["estimate"] + z * diffs["se_welch"] >= truth)).mean()
    assert welch < 0.925, welch
