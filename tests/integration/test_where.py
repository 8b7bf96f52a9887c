"""Hands like mine: compare_policies(where=...) and start_value(baseline=...) restrict a paired
comparison to the seats whose starting hand (on the baseline's records) meets a condition."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simcore.analysis import compare_policies, start_value
from simcore.analysis.compare import SeatFilter
from simcore.analysis.io import open_run
from simcore.analysis.stats import paired_interval
from simcore.engine import parse_policies, policy_names, simulate
from simcore.records import to_dataframe
from simcore.rules import resolve_rules
from simcore.testing.synthetic import hand_records

SPEED, PAIRS = "speed", "pairs"
POLICY = "pairs:k=4"  # the compared policy of the real run


def duplicate_run(walls: int, rules: str, policies: str, seed: int) -> pd.DataFrame:
    """A duplicate run played in this process (every wall under the four rotations)."""
    record = resolve_rules(rules, ())
    seats = parse_policies(policies)
    rec = simulate(record, seats, seed, 0, walls, duplicate=True)
    return to_dataframe(rec, policy_names(seats), preset=record.preset)


@pytest.fixture(scope="module")
def app_run() -> pd.DataFrame:
    # app exchanges three tiles, so pairs and the later shanten depend on the decisions
    return duplicate_run(150, "app", f"{POLICY}/speed/speed/speed", seed=7)


def reference(df: pd.DataFrame, condition: str, baseline: str, policy: str) -> np.ndarray:
    """Per-wall differences by plain pandas: the (wall, seat) pairs kept are those where the
    condition holds on most of the baseline's records; per wall, the policy's mean net over
    its kept seats minus the baseline's over the same seats."""
    base = df[df["policy"] == baseline]
    share = base.eval(condition).groupby([base["wall"], base["seat"]]).mean()
    kept = share[share > 0.5].index
    rows = df[pd.MultiIndex.from_frame(df[["wall", "seat"]]).isin(kept)]
    means = rows.groupby(["wall", "policy"], observed=True)["net"].mean().unstack()
    return (means[policy] - means[baseline]).dropna().to_numpy()


def pick(table: pd.DataFrame, **where: object) -> pd.Series:
    mask = np.ones(len(table), dtype=bool)
    for col, value in where.items():
        mask &= (table[col] == value).to_numpy()
    assert mask.sum() == 1, table
    return table[mask].iloc[0]


def _hand_run() -> pd.DataFrame:
    """Two walls, four rotations: PAIRS sits at seat r in rotation r, SPEED elsewhere. The
    baseline's records have pairs 5 at (wall 0, seat 1), (wall 1, seats 0 and 3); at (wall 0,
    seat 2) one baseline record of three says 5 (the tiles PAIRS passed), so it is not kept;
    PAIRS's own record says 6 at (wall 0, seat 2) and 1 at (wall 0, seat 1): ignored."""
    base_pairs = {(0, 1): 5, (1, 0): 5, (1, 3): 6}
    deals = []
    for wall in (0, 1):
        for r in range(4):
            players = []
            for seat in range(4):
                policy = PAIRS if seat == r else SPEED
                pairs = base_pairs.get((wall, seat), 2)
                if (wall, seat) == (0, 2) and r == 3:
                    pairs = 5  # outvoted by the other two baseline records
                if policy == PAIRS:
                    pairs = {(0, 2): 6, (0, 1): 1}.get((wall, seat), pairs)
                # net: the seat's number plus 10 for PAIRS, plus the rotation (wall 0 only)
                net = seat + (10 if policy == PAIRS else 0) + (r if wall == 0 else 0)
                players.append({"policy": policy, "pairs": pairs, "net_win": net})
            deals.append({"deal": 4 * wall + r, "wall": wall, "rotation": r, "players": players})
    return hand_records(deals, policies=(SPEED, PAIRS), preset="classic")


def test_where_by_hand() -> None:
    df = _hand_run()
    t = compare_policies(df, baseline=SPEED, metrics="net", where="pairs >= 5",
                         interval="normal")
    diff = pick(t, stat="difference")
    # wall 0, seat 1: PAIRS (rotation 1) 1 + 10 + 1 = 12; SPEED (rotations 0, 2, 3) 1 + 0, 1 + 2,
    # 1 + 3 -> mean 8/3: d = 28/3. Wall 1, seats 0 and 3: PAIRS 10, 13; SPEED 0, 3: d = 10.
    assert diff["estimate"] == pytest.approx((28 / 3 + 10) / 2)
    assert (diff["n"], diff["informative_walls"], diff["seats"]) == (2, 2, 3)
    assert (diff["estimand"], diff["where"], diff["baseline"]) == ("vs_baseline", "pairs >= 5",
                                                                  SPEED)
    expected = paired_interval([28 / 3, 10.0], method="normal")
    for key in ("se", "ci_low", "ci_high", "p_value"):
        assert diff[key] == pytest.approx(expected[key])
    own = pick(t, stat="mean", policy=PAIRS)
    assert (own["n"], own["estimate"]) == (3, pytest.approx((12 + 10 + 13) / 3))
    base = pick(t, stat="mean", policy=SPEED)
    assert (base["n"], base["estimate"]) == (9, pytest.approx((1 + 3 + 4 + 0 * 3 + 3 * 3) / 9))
    np.testing.assert_allclose(reference(df, "pairs >= 5", SPEED, PAIRS), [28 / 3, 10.0])


def test_where_matches_plain_pandas(app_run: pd.DataFrame) -> None:
    for condition in ("pairs >= 3", "shanten_dealt <= 2 and pairs >= 2", "longest_suit > 6"):
        t = compare_policies(app_run, baseline=SPEED, metrics="net", where=condition)
        diff = pick(t, stat="difference")
        d = reference(app_run, condition, SPEED, POLICY)
        assert diff["n"] == len(d) and diff["informative_walls"] == np.count_nonzero(d)
        assert diff["estimate"] == pytest.approx(d.mean())
        assert diff["se"] == pytest.approx(d.std(ddof=1) / np.sqrt(len(d)))


def test_a_condition_every_seat_meets_is_no_condition(app_run: pd.DataFrame) -> None:
    plain = compare_policies(app_run, baseline=SPEED, metrics=("net", "win"))
    everything = compare_policies(app_run, baseline=SPEED, metrics=("net", "win"),
                                  where="pairs >= 0")
    assert (everything["where"] == "pairs >= 0").all()
    assert everything.loc[everything.stat == "difference", "seats"].tolist() == [600, 600]
    pd.testing.assert_frame_equal(everything.drop(columns=["where", "seats"]), plain)


def test_a_condition_on_the_dealt_hand_keeps_the_same_seats_in_both_arms(
    app_run: pd.DataFrame,
) -> None:
    """shanten_dealt is the hand before any decision: the policy's own record and each of the
    baseline's agree, so the kept seats are those where the policy's own hand meets it too."""
    condition = "shanten_dealt <= 2"
    holds = app_run.eval(condition)
    by_seat = holds.groupby([app_run["wall"], app_run["seat"]])
    assert (by_seat.nunique() == 1).all()  # every record of a (wall, seat) agrees
    own = app_run[(app_run["policy"] == POLICY) & holds]
    mine = set(zip(own["wall"], own["seat"], strict=True))
    seat_filter = SeatFilter(open_run(app_run), condition, SPEED)
    kept = {(int(k) // 4, int(k) % 4) for k in seat_filter.kept["app"]}
    assert kept == mine and 0 < len(kept) < 600
    diff = pick(compare_policies(app_run, baseline=SPEED, metrics="net", where=condition),
                stat="difference")
    assert diff["seats"] == len(kept) and diff["n"] == len({w for w, _ in kept})


def test_the_kept_seats_are_those_of_the_all_baseline_table() -> None:
    """A policy that passes three random tiles changes the hand of the seat it passes to, in
    one of the baseline's three rotations of that seat; the other two are the hand the seat
    would hold at a table of four baselines, and the condition follows them: the kept seats
    are those of an all-baseline run of the same walls (a played baseline arm)."""
    mixed = duplicate_run(100, "app", "speed:exchange=random/speed/speed/speed", seed=7)
    arm = duplicate_run(100, "app", "speed", seed=7)
    condition = "pairs >= 3 and shanten_void <= 3"
    # the exchange does change the later columns, in the baseline's records too
    base = mixed[mixed["policy"] == SPEED]
    assert (base.groupby(["wall", "seat"])["pairs"].nunique() > 1).mean() > 0.3
    kept = SeatFilter(open_run(mixed), condition, SPEED).kept["app"]
    holds = arm[arm["rotation"] == 0].eval(condition)
    table = arm[arm["rotation"] == 0][holds]
    expected = np.sort(table["wall"].to_numpy() * 4 + table["seat"].to_numpy())
    np.testing.assert_array_equal(kept, expected)
    # on the compared policy's own records the condition would select other seats
    own = mixed[(mixed["policy"] == "speed:exchange=random") & mixed.eval(condition)]
    assert set(own["wall"] * 4 + own["seat"]) != set(expected.tolist())


def test_where_names_what_is_wrong(app_run: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match="starting-hand columns .*; 'net' is not one"):
        compare_policies(app_run, where="net > 0 and pairs >= 5")
    with pytest.raises(ValueError, match="'wall' is not one"):
        compare_policies(app_run, where="wall < 10")
    with pytest.raises(ValueError, match="cannot read the condition where='pairs >='"):
        compare_policies(app_run, where="pairs >=")
    with pytest.raises(ValueError, match="where='pairs \\+ 1' is not a condition"):
        compare_policies(app_run, where="pairs + 1")
    with pytest.raises(ValueError, match="names no starting-hand column"):
        compare_policies(app_run, where="1 > 0")
    with pytest.raises(ValueError, match="the run has no column 'pairs'"):
        compare_policies(app_run.drop(columns="pairs"), where="pairs >= 5")
    with pytest.raises(ValueError, match="needs a duplicate run"):
        compare_policies(app_run, where="pairs >= 5", paired=False)
    with pytest.raises(ValueError, match="not 'switching_gain': the switching gain needs"):
        compare_policies(app_run, metrics="net", where="pairs >= 5", estimand="switching_gain")
    with pytest.raises(ValueError, match="not 'vs_field'"):
        compare_policies(app_run, where="pairs >= 5", estimand="vs_field")


def test_start_value_gives_the_paired_difference_per_level(app_run: pd.DataFrame) -> None:
    table = start_value(app_run, by="pairs", baseline=SPEED)
    diffs = table[table["stat"] == "difference"]
    assert set(diffs["metric"]) == {"net", "win"}
    assert (diffs["policy"] == POLICY).all() and (diffs["baseline"] == SPEED).all()
    for _, row in diffs[diffs["metric"] == "net"].iterrows():
        d = reference(app_run, f"pairs == {row['pairs']}", SPEED, POLICY)
        assert row["n"] == len(d) and row["estimate"] == pytest.approx(d.mean())
        one = pick(compare_policies(app_run, baseline=SPEED, metrics="net",
                                    where=f"pairs == {row['pairs']}"), stat="difference")
        for key in ("estimate", "se", "ci_low", "ci_high", "informative_walls", "seats"):
            assert row[key] == pytest.approx(one[key], nan_ok=True)
    # the levels' own rows are still there, as without a baseline
    plain = start_value(app_run, by="pairs")
    pd.testing.assert_frame_equal(
        table[table["stat"] != "difference"][list(plain.columns)].reset_index(drop=True), plain)
    with pytest.raises(ValueError, match="baseline policy 'nobody' is not in the run"):
        start_value(app_run, by="pairs", baseline="nobody")
