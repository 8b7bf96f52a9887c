"""Analysis tables on a hand-written run of six deals whose answers are worked out by hand.

Policies: A sits at seats 0 and 2, B at seats 1 and 3, in every deal. Nets are zero-sum and equal
the sum of their parts. The comment above each deal says what happens in it.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from simcore.analysis import (
    drawn_ends,
    fan_table,
    first_win_profit,
    horse_value,
    seat_effects,
    summary,
    win_order,
)
from simcore.analysis.stats import cluster_ratio
from simcore.testing.synthetic import hand_records

A, B = "A", "B"

DEALS = [
    # d0: three winners (wall left): A0 self-draws fan 2 first; B1 and A2 win on B3's discards
    {"dealer": 0, "players": [
        {"policy": A, "win_order": 1, "win_draw": 5, "fan": 2, "pattern": "all_pungs",
         "flush": True, "roots": 1, "win_kind": "self_draw", "net_win": 12},
        {"policy": B, "win_order": 2, "win_draw": 10, "fan": 0, "win_kind": "discard",
         "net_win": -3},
        {"policy": A, "win_order": 3, "win_draw": 20, "fan": 1, "pattern": "seven_pairs",
         "win_kind": "discard", "net_win": -2},
        {"policy": B, "deal_ins": 2, "net_win": -7},
    ]},
    # d1: drawn end, one winner; A2 is a flower pig, B1 ready, B3 not ready (and refunds a kong)
    {"dealer": 1, "players": [
        {"policy": A, "win_order": 1, "win_draw": 30, "fan": 1, "terminals": True,
         "win_kind": "discard", "net_win": 2},
        {"policy": B, "ready_end": True, "net_pig": 8, "net_ready": 2},
        {"policy": A, "pig": True, "deal_ins": 1, "net_win": -2, "net_pig": -16, "net_kong": -2,
         "net_refund": 2},
        {"policy": B, "kongs_direct": 1, "net_pig": 8, "net_ready": -2, "net_kong": 2,
         "net_refund": -2},
    ]},
    # d2: drawn end, nobody won; A0 and B1 ready; B1 made an added kong
    {"dealer": 2, "players": [
        {"policy": A, "ready_end": True, "net_ready": 2, "net_kong": -1},
        {"policy": B, "ready_end": True, "kongs_added": 1, "net_ready": 2, "net_kong": 3},
        {"policy": A, "net_ready": -2, "net_kong": -1},
        {"policy": B, "net_ready": -2, "net_kong": -1},
    ]},
    # d3: drawn end with two winners; A0 kong flower fan 3 first
    {"dealer": 3, "players": [
        {"policy": A, "win_order": 1, "win_draw": 12, "fan": 3, "flush": True,
         "win_kind": "kong_flower", "net_win": 24},
        {"policy": B, "win_order": 2, "win_draw": 40, "fan": 0, "win_kind": "discard",
         "net_win": -7},
        {"policy": A, "net_win": -8},
        {"policy": B, "ready_end": True, "deal_ins": 1, "net_win": -9},
    ]},
    # d4: the first winner ties for the highest net (3 = 3)
    {"dealer": 0, "players": [
        {"policy": A, "win_order": 1, "win_draw": 3, "fan": 0, "win_kind": "self_draw",
         "net_win": 3},
        {"policy": B, "win_order": 2, "win_draw": 9, "fan": 2, "win_kind": "discard",
         "net_win": 3},
        {"policy": A, "win_order": 3, "win_draw": 14, "fan": 0, "win_kind": "discard",
         "net_win": 0},
        {"policy": B, "deal_ins": 2, "net_win": -6},
    ]},
    # d5: the first winner paid for a concealed kong before winning: negative net
    {"dealer": 1, "players": [
        {"policy": A, "win_order": 1, "win_draw": 8, "fan": 0, "win_kind": "discard",
         "net_win": 1, "net_kong": -2},
        {"policy": B, "win_order": 2, "win_draw": 15, "fan": 1, "win_kind": "self_draw",
         "kongs_concealed": 1, "net_win": 6, "net_kong": 6},
        {"policy": A, "win_order": 3, "win_draw": 25, "fan": 0, "win_kind": "discard",
         "deal_ins": 1, "net_win": -3, "net_kong": -2},
        {"policy": B, "deal_ins": 1, "net_win": -4, "net_kong": -2},
    ]},
]
NETS = np.array([[12, -3, -2, -7], [2, 10, -18, 6], [1, 5, -3, -3], [24, -7, -8, -9],
                 [3, 3, 0, -6], [-1, 12, -5, -6]])
DEALERS = np.array([0, 1, 2, 3, 0, 1])


@pytest.fixture(scope="module")
def df() -> pd.DataFrame:
    return hand_records(DEALS, policies=(A, B), preset="classic")


def pick(table: pd.DataFrame, **where: object) -> pd.Series:
    """The single row of ``table`` matching every ``column=value``."""
    mask = np.ones(len(table), dtype=bool)
    for col, value in where.items():
        mask &= (table[col] == value).to_numpy()
    rows = table[mask]
    assert len(rows) == 1, f"{len(rows)} rows match {where}"
    return rows.iloc[0]


def test_the_hand_dataset_is_consistent(df: pd.DataFrame) -> None:
    assert (df["net"].to_numpy().reshape(-1, 4) == NETS).all()
    assert (df.groupby("deal")["net"].sum() == 0).all()
    assert df.loc[df["dealer"], "seat"].tolist() == DEALERS.tolist()


# ---------------------------------------------------------------- fan table


def test_fan_table_rates_per_win_and_per_player_deal(df: pd.DataFrame) -> None:
    t = fan_table(df, by="policy")
    assert list(t.columns) == ["policy", "item", "value", "per", "n", "count", "rate", "se",
                               "ci_low", "ci_high", "method", "design_effect"]
    # A won 8 times in 12 player-deals: 6 plain, 1 all pungs, 1 seven pairs
    plain = pick(t, policy=A, item="pattern", value="plain", per="win")
    assert (plain["n"], plain["count"], plain["rate"]) == (8, 6, 0.75)
    assert pick(t, policy=A, item="pattern", value="plain", per="player-deal")["rate"] == 0.5
    assert pick(t, policy=A, item="pattern", value="golden_hook", per="win")["count"] == 0
    assert pick(t, policy=A, item="flush", value="yes", per="win")["count"] == 2
    assert pick(t, policy=A, item="terminals", value="yes", per="win")["count"] == 1
    assert pick(t, policy=A, item="roots", value="1", per="win")["count"] == 1
    assert [pick(t, policy=A, item="fan", value=str(f), per="win")["count"]
            for f in range(4)] == [4, 2, 1, 1]
    assert [pick(t, policy=A, item="win_kind", value=k, per="win")["count"]
            for k in ("self_draw", "discard", "robbed_kong", "kong_flower")] == [2, 5, 0, 1]
    # B: 4 wins, all plain; the fan grid reaches A's maximum (3) with zero counts
    assert pick(t, policy=B, item="pattern", value="plain", per="win")["rate"] == 1.0
    assert [pick(t, policy=B, item="fan", value=str(f), per="win")["count"]
            for f in range(4)] == [2, 1, 1, 0]
    assert pick(t, policy=B, item="fan", value="0", per="player-deal")["rate"] == 2 / 12


def test_fan_table_intervals_are_clustered_by_deal_with_the_count_behind(
    df: pd.DataFrame,
) -> None:
    """Wins of one deal are not independent: the interval is the ratio estimator over deals."""
    t = fan_table(df, by="policy")
    row = pick(t, policy=A, item="fan", value="1", per="win")
    a = df[df["policy"] == A]
    won = a["win_order"] > 0
    y = (won & (a["fan"] == 1)).groupby(a["deal"]).sum()
    x = won.groupby(a["deal"]).sum()
    expected = cluster_ratio(y.to_numpy(), x.to_numpy(), bounds=(0.0, 1.0))
    assert (row["count"], row["n"]) == (2, 8) and row["method"] == "cluster(deal)"
    assert row[["rate", "se", "ci_low", "ci_high"]].tolist() == pytest.approx(
        expected[["estimate", "se", "ci_low", "ci_high"]].tolist(), abs=1e-12)
    assert (t["n"] > 0).all() and t[["ci_low", "ci_high"]].notna().all().all()


def test_fan_table_default_groups_and_no_grouping(df: pd.DataFrame) -> None:
    by_default = fan_table(df)
    assert {"preset", "policy"} <= set(by_default.columns)
    assert set(by_default["preset"]) == {"classic"}
    overall = fan_table(df, by=())
    row = pick(overall, item="pattern", value="plain", per="win")
    assert (row["n"], row["count"]) == (12, 10)
    # a DataFrame without a preset column is simply not split by preset
    assert "preset" not in fan_table(df.drop(columns="preset")).columns


# ---------------------------------------------------------------- drawn ends


def test_drawn_ends(df: pd.DataFrame) -> None:
    t = drawn_ends(df, by="policy")
    drawn = pick(t, metric="drawn_end", per="deal")
    assert (drawn["policy"], drawn["n"], drawn["count"]) == ("(all)", 6, 3)
    assert pick(t, metric="pig", per="deal")["estimate"] == 1 / 6
    assert pick(t, policy=A, metric="pig", per="player-deal")["estimate"] == 1 / 12
    assert pick(t, policy=B, metric="pig", per="player-deal")["count"] == 0
    ready_a = pick(t, policy=A, metric="ready_end", per="in play at drawn end")
    assert (ready_a["n"], ready_a["count"]) == (4, 1)
    ready_b = pick(t, policy=B, metric="ready_end", per="in play at drawn end")
    assert (ready_b["n"], ready_b["count"]) == (5, 3)
    assert pick(t, policy=A, metric="pig", per="in play at drawn end")["estimate"] == 0.25
    for kind in ("kongs_direct", "kongs_added", "kongs_concealed"):
        assert pick(t, metric=kind, per="deal")["estimate"] == pytest.approx(1 / 6)
    assert pick(t, metric="kongs", per="deal")["estimate"] == 0.5
    assert pick(t, policy=B, metric="kongs", per="player-deal")["estimate"] == 0.25
    money = pick(t, metric="kong_money", per="deal")
    per_deal = np.array([0, 2, 3, 0, 0, 6])
    assert money["estimate"] == pytest.approx(11 / 6)
    assert money["se"] == pytest.approx(per_deal.std(ddof=1) / math.sqrt(6))
    assert pick(t, metric="refunds", per="deal")["estimate"] == pytest.approx(1 / 3)
    assert pick(t, policy=A, metric="net_kong", per="player-deal")["estimate"] == \
        pytest.approx(-2 / 3)
    assert pick(t, policy=B, metric="net_refund", per="player-deal")["estimate"] == \
        pytest.approx(-1 / 6)
    assert set(t["stat"]) == {"rate", "mean"}


def test_drawn_ends_per_deal_rows_keep_a_policy_shared_by_the_table(df: pd.DataFrame) -> None:
    solo = df.copy()
    solo["policy"] = pd.Categorical([A] * len(solo), categories=[A, B])
    t = drawn_ends(solo, by="policy")
    assert pick(t, metric="drawn_end", per="deal")["policy"] == A


# ---------------------------------------------------------------- win order


def test_win_order(df: pd.DataFrame) -> None:
    t = win_order(df, by="policy")
    mean = pick(t, metric="winners", split="")
    assert (mean["n"], mean["estimate"]) == (6, 2.0)
    assert [pick(t, metric="winners", split="winners", level=str(k))["count"]
            for k in range(4)] == [1, 1, 1, 3]
    assert pick(t, policy=A, metric="win", split="")["estimate"] == pytest.approx(8 / 12)
    assert pick(t, policy=B, metric="win", split="")["estimate"] == pytest.approx(4 / 12)
    assert pick(t, policy=A, metric="win", split="seat", level="0")["estimate"] == \
        pytest.approx(5 / 6)
    assert pick(t, policy=B, metric="win", split="seat", level="3")["count"] == 0
    dealer = pick(t, policy=A, metric="win", split="dealer", level="True")
    assert (dealer["n"], dealer["count"]) == (3, 2)
    assert pick(t, policy=B, metric="win", split="dealer", level="False")["estimate"] == \
        pytest.approx(3 / 9)
    first = pick(t, policy=A, metric="win_draw", level="1")
    assert (first["n"], first["estimate"]) == (5, pytest.approx(11.6))
    assert pick(t, policy=A, metric="win_draw", level="3")["estimate"] == pytest.approx(59 / 3)
    assert pick(t, policy=B, metric="win_draw", level="2")["estimate"] == 18.5
    assert "policy" not in set(t["split"])  # already a grouping column


def test_win_order_splits_by_policy_when_not_grouped_by_it(df: pd.DataFrame) -> None:
    t = win_order(df, by="preset")
    assert pick(t, metric="win", split="policy", level=B)["estimate"] == pytest.approx(4 / 12)


# ---------------------------------------------------------------- first win vs profit


def test_first_win_profit(df: pd.DataFrame) -> None:
    t = first_win_profit(df)
    assert pick(t, fan="all", metric="net", level="1")["estimate"] == 8.0
    assert pick(t, fan="all", metric="net", level="2")["estimate"] == 1.25
    assert pick(t, fan="all", metric="net", level="3")["estimate"] == pytest.approx(-7 / 3)
    assert pick(t, fan="all", metric="net", level="none")["estimate"] == pytest.approx(-38 / 12)
    negative = pick(t, fan="all", metric="first_winner_negative")
    assert (negative["n"], negative["count"]) == (5, 1)
    # d0, d3 and d4 (a tie, counted as highest); not d1 or d5
    assert pick(t, fan="all", metric="first_winner_highest")["count"] == 3
    # split by the first winner's fan: fan 0 are d4 (tie) and d5 (negative)
    assert pick(t, fan="0", metric="first_winner_negative")["estimate"] == 0.5
    assert pick(t, fan="0", metric="first_winner_highest")["estimate"] == 0.5
    assert pick(t, fan="1", metric="first_winner_highest")["estimate"] == 0.0
    assert pick(t, fan="0", metric="net", level="1")["estimate"] == 1.0
    assert pick(t, fan="0", metric="net", level="3")["estimate"] == -2.5


def test_first_win_profit_correlations_match_scipy(df: pd.DataFrame) -> None:
    t = first_win_profit(df)
    order = np.where(df["win_order"] > 0, df["win_order"], 4)
    net = df["net"].to_numpy()
    pearson = pick(t, fan="all", metric="corr_order_net", stat="pearson")
    assert pearson["n"] == 24
    assert pearson["estimate"] == pytest.approx(sps.pearsonr(order, net).statistic)
    assert pick(t, fan="all", metric="corr_order_net", stat="spearman")["estimate"] == \
        pytest.approx(sps.spearmanr(order, net).statistic)
    won = df["win_order"] > 0
    draw = pick(t, fan="all", metric="corr_draw_net", stat="spearman")
    assert draw["n"] == 12
    assert draw["estimate"] == pytest.approx(
        sps.spearmanr(df.loc[won, "win_draw"], df.loc[won, "net"]).statistic)
    assert draw["ci_low"] < draw["estimate"] < draw["ci_high"]


# ---------------------------------------------------------------- seats and horses


def test_seat_effects(df: pd.DataFrame) -> None:
    t = seat_effects(df)
    assert pick(t, split="seat", level="0", metric="net")["estimate"] == pytest.approx(41 / 6)
    assert pick(t, split="dealer", level="True", metric="net")["estimate"] == \
        pytest.approx(25 / 6)
    assert pick(t, split="dealer", level="False", metric="net")["estimate"] == \
        pytest.approx(-25 / 18)
    relative = [pick(t, split="seat_from_dealer", level=r, metric="net")["estimate"]
                for r in ("dealer", "next", "across", "previous")]
    assert relative == pytest.approx([25 / 6, -1 / 3, -8 / 6, -15 / 6])
    assert [pick(t, split="seat", level=str(s), metric="win")["count"] for s in range(4)] == \
        [5, 4, 3, 0]
    assert pick(t, split="seat", level="3", metric="deal_in")["count"] == 4
    assert pick(t, split="seat", level="3", metric="deal_ins")["estimate"] == 1.0  # 6 in 6
    assert pick(t, split="seat", level="2", metric="pig")["count"] == 1


def test_horse_value(df: pd.DataFrame) -> None:
    t = horse_value(df)
    ev = pick(t, metric="horse_ev")
    dealer_net = NETS[np.arange(6), DEALERS]
    # zero-sum nets: 3/9 dealer + 2/9 (everyone else) = dealer net / 9
    assert ev["estimate"] == pytest.approx(25 / 54)
    assert ev["se"] == pytest.approx(dealer_net.std(ddof=1) / 9 / math.sqrt(6))
    assert ev["n"] == 6
    seats = t[t["metric"] == "net"]
    assert seats["level"].tolist() == ["dealer", "next", "across", "previous"]
    assert seats["probability"].tolist() == pytest.approx([3 / 9, 2 / 9, 2 / 9, 2 / 9])
    assert (seats["probability"] * seats["estimate"]).sum() == pytest.approx(ev["estimate"])


def test_summary(df: pd.DataFrame) -> None:
    s = summary(df)
    assert s["deals"] == 6 and s["player_deals"] == 24
    assert s["winners_per_deal"] == 2.0
    assert s["drawn_end_rate"] == 0.5
    assert s["flower_pig_rate"] == 1 / 24
    assert s["mean_abs_net"] == pytest.approx(np.abs(NETS).mean())


def test_rows_in_any_order_give_the_same_tables(df: pd.DataFrame) -> None:
    shuffled = df.sample(frac=1.0, random_state=7).reset_index(drop=True)
    for func in (drawn_ends, win_order, first_win_profit, seat_effects, horse_value):
        pd.testing.assert_frame_equal(func(shuffled), func(df), check_exact=False)


def test_level_changes_the_width(df: pd.DataFrame) -> None:
    narrow = pick(seat_effects(df, level=0.5), split="seat", level="0", metric="net")
    wide = pick(seat_effects(df), split="seat", level="0", metric="net")
    assert narrow["ci_high"] - narrow["ci_low"] < wide["ci_high"] - wide["ci_low"]
    with pytest.raises(ValueError, match="confidence level"):
        seat_effects(df, level=95)


@pytest.mark.parametrize("func", [fan_table, drawn_ends, win_order, first_win_profit,
                                  seat_effects, horse_value])
def test_unknown_grouping_column_is_named(df: pd.DataFrame, func: object) -> None:
    with pytest.raises(ValueError, match="cannot group by 'colour'"):
        func(df, by=("policy", "colour"))  # type: ignore[operator]


def test_missing_column_is_named(df: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match="lacks column\\(s\\) roots"):
        fan_table(df.drop(columns="roots"))


def test_bad_deals_are_errors(df: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match="deal 5 does not have exactly one row per seat"):
        seat_effects(df.iloc[:-1])
    two_dealers = df.copy()
    two_dealers.loc[1, "dealer"] = True
    with pytest.raises(ValueError, match="deal 0 has 2 dealers"):
        horse_value(two_dealers)
