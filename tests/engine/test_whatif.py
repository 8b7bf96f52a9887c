"""What-if runs: conditional dealing is exact and uniform, plans share walls, bad input is named.

The statistical tests compare Monte Carlo frequencies with exact probabilities (``math.comb``)
at a fixed seed, within 4 standard errors.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from helpers.scripted import play

import simcore
from simcore.cli import main
from simcore.engine.replay import dealt_hands
from simcore.engine.spec import parse_spec
from simcore.rollouts import (
    DEFAULT_PLANS,
    TABLE_COLUMNS,
    VOID_WARN_TILES,
    WhatifWarning,
    conditional_walls,
    prepare,
    simulate_whatif,
    void_warnings,
    whatif,
)
from simcore.rules import get_rules
from simcore.tiles import parse, tiles_str

FLUSHY = "1123455789m 46p 9s"  # ten characters: the hand
PAIRY = "1133m 5577p 99s 22s 4p"  # five pairs
DEALER_HAND = "12345678p 112233s"  # 14 tiles, two suits


def counts_of(text: str) -> np.ndarray:
    return parse(text, sizes="any").counts.astype(np.int64)


# ----------------------------------------------------------------------------- dealing
@pytest.mark.parametrize(("hand", "dealer"), [(FLUSHY, False), (PAIRY, False),
                                              (DEALER_HAND, True)])
def test_fixed_hand_is_seat0_hand_in_every_deal(hand: str, dealer: bool) -> None:
    walls, dealers = conditional_walls(hand, dealer=dealer, seed=3, start=0, count=3_000)
    want = counts_of(hand)
    for wall, d in zip(walls, dealers, strict=True):
        assert (np.bincount(wall, minlength=27) == 4).all()
        got = np.bincount(dealt_hands(wall, int(d))[0], minlength=27)
        assert (got == want).all()
    if dealer:
        assert (dealers == 0).all()
    else:  # seat 1 + deal % 3: never seat 0, each other seat a third of the deals
        assert dealers.tolist() == [1 + i % 3 for i in range(3_000)]


def test_engine_deals_the_fixed_hand_and_plays_the_walls() -> None:
    """The kernel's deals are play_wall of the conditional walls (hands in the replay log)."""
    plans = ["speed", "speed:ukeire=0"]
    result = simulate_whatif(FLUSHY, plans=plans, deals=40, seed=9, debug=True)
    walls, dealers = conditional_walls(FLUSHY, seed=9, count=40)
    rules = get_rules("classic")
    records = result.records()
    for i in range(0, 40, 7):
        for label in plans:
            events, rec = play(walls[i], rules, f"{label}/speed/speed/speed",
                               dealer=int(dealers[i]), seed=9, deal=i)
            assert events[0]["type"] == "deal"
            assert tiles_str(events[0]["hands"][0]) == "1123455789m46p9s"
            mine = records[(records.plan == label) & (records.deal == i)]
            for col in ("net", "win_order", "fan", "pig", "void_suit", "draws", "dealer"):
                assert mine[col].tolist() == rec[col].tolist(), (i, label, col)


def exact_lacks_a_suit(rest: list[int], k: int = 13) -> float:
    """P(k tiles drawn from the unseen tiles (per-suit counts ``rest``) miss some suit)."""
    n = sum(rest)
    total = math.comb(n, k)
    p = 0.0
    for s in range(3):  # inclusion-exclusion over the suits missed
        p += math.comb(n - rest[s], k) / total
    for s in range(3):  # missing two suits = all k from the third
        p -= math.comb(rest[s], k) / total
    return p


@pytest.mark.parametrize(("hand", "dealer"), [(FLUSHY, False), (DEALER_HAND, True)])
def test_unseen_tiles_are_uniform(hand: str, dealer: bool) -> None:
    """Seat 1's 13 dealt tiles lack a suit with the exact probability given the fixed hand."""
    n = 200_000
    walls, dealers = conditional_walls(hand, dealer=dealer, seed=12, count=n)
    c = counts_of(hand)
    rest = [36 - int(c[9 * s: 9 * s + 9].sum()) for s in range(3)]
    block = (1 - dealers) % 4  # seat 1's block of 13
    idx = 13 * block[:, None] + np.arange(13)[None, :]
    tiles = np.take_along_axis(walls, idx, axis=1) // 9
    has = np.stack([(tiles == s).any(axis=1) for s in range(3)], axis=1)
    lack = ~has.all(axis=1)
    p = exact_lacks_a_suit(rest)
    se = math.sqrt(p * (1 - p) / n)
    assert abs(lack.mean() - p) < 4 * se, (lack.mean(), p, se)
    # and the last tile of the wall is of each suit in proportion to the unseen tiles
    last = walls[:, 107] // 9
    for s in range(3):
        q = rest[s] / sum(rest)
        assert abs((last == s).mean() - q) < 4 * math.sqrt(q * (1 - q) / n)


def test_walls_are_a_pure_function_of_seed_and_deal() -> None:
    a, _ = conditional_walls(FLUSHY, seed=5, start=0, count=50)
    b, _ = conditional_walls(FLUSHY, seed=5, start=20, count=30)
    c, _ = conditional_walls(FLUSHY, seed=6, start=0, count=50)
    assert np.array_equal(a[20:], b)
    assert not np.array_equal(a, c)


# ----------------------------------------------------------------------------- plans
def test_plans_share_walls_and_chunking_changes_nothing() -> None:
    long = simulate_whatif(FLUSHY, plans=["speed", "speed:ukeire=0"], deals=1_500, seed=4)
    short = simulate_whatif(FLUSHY, plans=["speed", "speed:ukeire=0"], deals=700, seed=4)
    assert long.nets().iloc[:700].equals(short.nets())
    rec = long.records()
    # every plan sees the same dealer in deal i (the wall of deal i is common)
    by_plan = rec[rec.seat == 0].pivot(index="deal", columns="plan", values="dealer")
    assert (by_plan["speed"] == by_plan["speed:ukeire=0"]).all()
    dealers = rec[(rec.plan == "speed") & rec.dealer].sort_values("deal").seat.to_numpy()
    assert dealers.tolist() == [1 + i % 3 for i in range(1_500)]


def test_dealer_seat0() -> None:
    result = simulate_whatif(DEALER_HAND, plans=["speed"], deals=300, dealer=True, seed=2,
                             debug=True)
    rec = result.records()
    assert rec[rec.seat == 0].dealer.all() and not rec[rec.seat != 0].dealer.any()


def test_plan_against_itself_covers_zero() -> None:
    table = whatif(FLUSHY, plans=["speed", "speed"], deals=2_000, seed=8)
    assert list(table.plan) == ["speed", "speed #2"]
    row = table.iloc[1]
    assert row.diff_ci_low <= 0 <= row.diff_ci_high
    assert "do not separate" in table.attrs["verdict"]


def test_table_columns_and_intervals() -> None:
    table = whatif(PAIRY, plans="speed;speed:ukeire=0;random", deals=2_000, seed=1,
                   others="speed/random/speed")
    assert tuple(table.columns) == TABLE_COLUMNS
    assert len(table) == 3 and table.best.sum() == 1
    for name in ("net", "win", "win_order", "win_draw", "flush_win", "pig"):
        assert (table[f"{name}_ci_low"] <= table[name]).all()
        assert (table[name] <= table[f"{name}_ci_high"]).all()
    fans = table[[c for c in table.columns if c.startswith("fan_") and c != "fan_mean"]]
    assert np.allclose(fans.sum(axis=1), 1.0)
    best = table[table.best].iloc[0]
    assert best.net == table.net.max() and best["diff"] == 0
    assert (table.loc[~table.best, "diff"] <= 0).all()
    assert table.attrs["others"] == "speed/random/speed"
    # paired differences are the differences of the means
    assert np.allclose(table["diff"], table.net - best.net)
    # the random plan is far worse: separated from the best
    assert table.loc[table.plan == "random", "diff_ci_high"].iloc[0] < 0


def test_flush_plan_wins_more_flushes_than_speed() -> None:
    result = simulate_whatif(FLUSHY, plans=["speed", "flush:k=0"], deals=2_000, seed=21)
    s0 = result.seat0()
    flush = (s0["win_order"] > 0) & s0["flush"]  # [plan, deal]
    speed_only = int((flush[0] & ~flush[1]).sum())
    flush_only = int((flush[1] & ~flush[0]).sum())
    # McNemar on the same walls: the flush plan's extra flush wins exceed 4 standard errors
    assert flush_only - speed_only > 4 * math.sqrt(flush_only + speed_only)


def test_default_plans() -> None:
    table = whatif(FLUSHY, deals=500, seed=3)
    assert list(table.plan) == [parse_spec(p).text for p in DEFAULT_PLANS]


def test_invariants_with_random_others_and_app_rules() -> None:
    with pytest.warns(WhatifWarning, match="exchange_three on"):
        result = simulate_whatif(PAIRY, plans=["speed", "random"], deals=2_000, rules="app",
                                 others="random/speed/random", seed=6, debug=True)
    assert not result.setup.rules.exchange_three
    rec = result.records()
    assert (rec.groupby(["plan", "deal"], observed=True).net.sum() == 0).all()
    assert (rec.exchange_dir == "none").all()


def test_progress_callback() -> None:
    seen: list[int] = []
    simulate_whatif(FLUSHY, plans=["speed", "speed"], deals=2_500, progress=seen.append)
    assert sum(seen) == 5_000 and len(seen) == 3


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(("hand", "kwargs", "match"), [
    ("1123455789m 46p", {}, r"has 12 tiles; a non-dealer holds 13"),
    ("1123455789m 46p 99s", {}, r"14 tiles.*pass dealer=True"),
    (FLUSHY, {"dealer": True}, r"has 13 tiles; the dealer holds 14"),
    ("11111m 23456p 789s", {}, r"5 copies of 1m"),
    ("123m 456p 789s 1m|P5s", {}, r"melds"),
    ("123x", {}, r"unknown character 'x'"),
    (FLUSHY, {"void": "x"}, r"void 'x' is not one of"),
    (FLUSHY, {"plans": ["speed", "spede"]}, r"plan 'spede'.*did you mean 'speed'"),
    (FLUSHY, {"plans": "speed;"}, r"empty spec"),
    (FLUSHY, {"plans": ["speed:k=3"]}, r"plan 'speed:k=3': policy 'speed' has no option 'k'"),
    (FLUSHY, {"others": "speedy"}, r"others spec 'speedy'"),
    (FLUSHY, {"others": "speed/speed"}, r"names 2 seats"),
    (FLUSHY, {"deals": 0}, r"deals must be a positive integer, got 0"),
    (FLUSHY, {"rules": "nope"}, r"unknown preset 'nope'"),
])
def test_bad_input_is_named(hand: str, kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        prepare(hand, **{"plans": ["speed"], **kwargs})


def test_hard_void_is_warned() -> None:
    counts = parse(FLUSHY, sizes="any").counts
    assert void_warnings(counts, 1) == [] and void_warnings(counts, 2) == []
    (text,) = void_warnings(counts, 0)
    assert "void 'm' holds 10" in text and "flower-pig" in text
    assert VOID_WARN_TILES == 5


def test_fixed_void_of_a_policy_without_a_void_option_is_a_clear_error() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", WhatifWarning)
        with pytest.raises(NotImplementedError,
                           match=r"fixed void \(void='m'\).*policy 'random' has no void option"):
            prepare(FLUSHY, plans=["speed", "random"], void="m")
    assert any("void 'm' holds 10" in str(w.message) for w in caught)


def test_forced_void_spec_text() -> None:
    """A fixed void is added to each plan as its void option."""
    from simcore.rollouts import _force_void

    assert _force_void(parse_spec("speed:ukeire=0"), 1) == "speed:ukeire=0,void=p"
    assert _force_void(parse_spec("speed"), 2) == "speed:void=s"
    assert _force_void(parse_spec("flush:k=6"), 0) == "flush:k=6,void=m"
    assert prepare(FLUSHY, plans=["speed", "pairs:k=4"], void="p").plan_specs == (
        "speed:void=p", "pairs:k=4,void=p")
    with pytest.raises(ValueError, match="sets the void option itself"):
        _force_void(parse_spec("speed:void=weakest"), 0)
    with pytest.raises(NotImplementedError, match="policy 'random' has no void option"):
        _force_void(parse_spec("random"), 0)


def test_fixed_void_is_played() -> None:
    with pytest.warns(WhatifWarning, match="void 'm' holds 10"):
        table = whatif(FLUSHY, plans=["speed"], void="m", deals=300, seed=2)
    assert table.void.tolist() == ["m"] and table.void_share.tolist() == [1.0]
    assert table.pig.iloc[0] > 0
    table = whatif(FLUSHY, plans=["speed"], void="p", deals=300, seed=2)
    assert table.void.tolist() == ["p"]


# ----------------------------------------------------------------------------- entry points
def test_simcore_whatif_is_the_function_lazily() -> None:
    table = simcore.whatif(FLUSHY, plans=["speed"], deals=50)
    assert isinstance(table, pd.DataFrame)
    from simcore import rollouts  # the module is imported: simcore.whatif stays the function

    assert simcore.whatif is rollouts.whatif
    assert isinstance(simcore.whatif(FLUSHY, plans=["speed"], deals=50), pd.DataFrame)


def test_cli_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["whatif", "1123455789m", "46p", "9s", "--plans", "speed;speed:ukeire=0",
                 "--deals", "300", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "what if seat 0 holds 1123455789m46p9s" in out and "verdict:" in out
    assert main(["whatif", FLUSHY, "--plans", "speed;speed:ukeire=0", "--deals", "300",
                 "--seed", "2", "--json", "--rules", "tfmj", "--set", "fan_cap=4"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["plan"] for p in data["plans"]] == ["speed", "speed:ukeire=0"]
    assert data["rules"]["fan_cap"] == 4 and data["deals"] == 300 and data["verdict"]
    assert data["plans"][0]["diff_p"] is None or data["plans"][1]["diff_p"] is None


def test_cli_errors_and_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["whatif", "1123455789m46p", "--deals", "10"]) == 2
    assert "has 12 tiles" in capsys.readouterr().err
    assert main(["whatif", FLUSHY, "--plans", "speed;pigs:k=0", "--deals", "10"]) == 2
    assert "plan 'pigs:k=0'" in capsys.readouterr().err
    code = main(["whatif", FLUSHY, "--plans", "speed", "--deals", "10", "--void", "m"])
    err = capsys.readouterr().err
    assert "warning: void 'm' holds 10" in err
    assert code == 0
