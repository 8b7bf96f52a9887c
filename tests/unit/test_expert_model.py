"""The ``expert`` policy's model kernels agree with their plain-Python twins.

:mod:`simcore.engine.policies.expert_model` (numba, rules as ``Rules.encode()``) against
:mod:`simcore.engine.policies.expert_reference` (written from the model's definitions, rules as
``Rules``) on random inputs, to a relative 1e-12, plus answers worked out by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore.engine.policies import expert_model as km
from simcore.engine.policies import expert_reference as ref
from simcore.rules import PRESETS, Rules, get_rules

pytestmark = pytest.mark.numba  # its kernels compile (tests/conftest.py: the fast tier)

REL = 1e-12
# 1 - exp(-x) * sum(...) loses its relative precision when the probability is tiny: both sides
# are then only a few ulps of 1.0 from the truth, so they are compared to an absolute 1e-14 too
ABS_PROBABILITY = 1e-14

SETTINGS = settings(max_examples=300, deadline=None)

tiles = st.integers(0, 26)
suits = st.integers(-1, 2)  # -1: none
unseen_arrays = st.builds(
    np.array,
    st.lists(st.integers(0, 4), min_size=27, max_size=27),
    st.sampled_from([np.int8, np.int64]),  # the engine's counts are int8
)
presets = st.sampled_from(sorted(PRESETS)).map(PRESETS.__getitem__)
custom_rules = st.builds(
    lambda base, **kw: base.replace(**kw),
    presets,
    fan_flush=st.integers(0, 4),
    fan_all_pungs=st.integers(0, 3),
    fan_cap=st.one_of(st.none(), st.integers(0, 6)),
    self_draw_bonus=st.sampled_from(["base", "fan", "none"]),
)
any_rules = st.one_of(presets, custom_rules)
units_values = st.one_of(
    st.integers(0, 8).map(lambda f: 2.0**f),
    st.floats(0.0, 300.0, allow_nan=False),
)


def close(got: float, want: float, abs_tol: float = 0.0) -> bool:
    return math.isclose(got, want, rel_tol=REL, abs_tol=abs_tol)


# --------------------------------------------------------------------------------------------
# danger


@SETTINGS
@given(t=tiles, void=suits, unseen=unseen_arrays)
def test_wait_weight_matches_reference(t: int, void: int, unseen: np.ndarray) -> None:
    assert close(km.wait_weight(t, void, unseen), ref.wait_weight(t, void, unseen))


@SETTINGS
@given(t=tiles, won=st.integers(0, 2**27 - 1), unseen=unseen_arrays)
def test_revealed_chance_matches_reference(t: int, won: int, unseen: np.ndarray) -> None:
    assert close(km.revealed_chance(t, won, unseen), ref.revealed_chance(t, won, unseen))


@SETTINGS
@given(p_win=st.floats(0.0, 1.0), live=st.one_of(st.integers(0, 30), st.floats(0.0, 30.0)))
def test_river_wins_matches_reference(p_win: float, live: float) -> None:
    assert math.isclose(km.river_wins(p_win, live), ref.river_wins(p_win, live), rel_tol=1e-9,
                        abs_tol=1e-12)


def test_river_wins_of_one_tile_and_of_many() -> None:
    for got in both("river_wins", 0.3, 1):
        assert got == 0.3  # one winning tile wins at most once
    for got in both("river_wins", 0.75, 2):  # each tile reaches the hand half of the time
        assert math.isclose(got, 1.0, rel_tol=1e-9)
    wins = [km.river_wins(0.6, live) for live in range(1, 12)]
    assert all(a < b for a, b in zip(wins, wins[1:], strict=False))  # a wider wait: more wins
    assert all(w < live for w, live in zip(wins, range(1, 12), strict=False))


@SETTINGS
@given(discards=st.integers(0, 30), melds=st.integers(0, 4), streak=st.integers(0, 10))
def test_ready_probability_matches_reference(discards: int, melds: int, streak: int) -> None:
    got = km.ready_probability(discards, melds, streak)
    assert close(got, ref.ready_probability(discards, melds, streak))
    assert 0.0 < got < 1.0


@SETTINGS
@given(t=tiles, void=suits, flush=suits, unseen=unseen_arrays)
def test_wins_on_matches_reference(t: int, void: int, flush: int, unseen: np.ndarray) -> None:
    got = km.wins_on(t, void, flush, unseen)
    assert close(got, ref.wins_on(t, void, flush, unseen))
    assert 0.0 <= got <= 1.0


@SETTINGS
@given(rules=any_rules, n_kongs=st.integers(0, 4), flush=suits, n_pungs=st.integers(0, 4),
       after_own_kong=st.booleans(), others=st.integers(1, 3),
       kong_earned=st.sampled_from([0.0, 1.0, 2.0, 3.0, 6.0]))
def test_deal_in_cost_matches_reference(rules: Rules, n_kongs: int, flush: int, n_pungs: int,
                                        after_own_kong: bool, others: int,
                                        kong_earned: float) -> None:
    args = (n_kongs, flush, n_pungs, after_own_kong, others, kong_earned)
    got = km.deal_in_cost(*args, rules.encode())
    assert close(got, ref.deal_in_cost(*args, rules))
    if rules.fan_cap is not None and not after_own_kong:
        assert got <= 2.0**rules.fan_cap


# --------------------------------------------------------------------------------------------
# value

win_inputs = {
    "shanten": st.integers(-1, 6),
    "useful": st.integers(0, 60),
    "unseen_total": st.integers(0, 120),
    "draws_left": st.integers(0, 30),
    "n_opp": st.integers(0, 3),
}


@SETTINGS
@given(**win_inputs)
def test_win_probability_matches_reference(shanten: int, useful: int, unseen_total: int,
                                           draws_left: int, n_opp: int) -> None:
    args = (shanten, useful, unseen_total, draws_left, n_opp)
    got = km.win_probability(*args)
    assert close(got, ref.win_probability(*args), ABS_PROBABILITY)
    assert 0.0 <= got <= 1.0


@SETTINGS
@given(units=units_values, n_opp=st.integers(0, 3), rules=any_rules)
def test_win_amount_matches_reference(units: float, n_opp: int, rules: Rules) -> None:
    assert close(km.win_amount(units, n_opp, rules.encode()), ref.win_amount(units, n_opp, rules))


@SETTINGS
@given(fan=st.integers(0, 6), n_opp=st.integers(1, 3), cap=st.integers(0, 6))
def test_win_amount_fan_bonus_respects_cap(fan: int, n_opp: int, cap: int) -> None:
    rules = get_rules("classic", self_draw_bonus="fan", fan_cap=cap)
    units = 2.0 ** min(fan, cap)
    assert close(km.win_amount(units, n_opp, rules.encode()), ref.win_amount(units, n_opp, rules))


@SETTINGS
@given(triplets=st.integers(0, 4), pungs=st.integers(0, 4), pairs=st.integers(0, 7),
       unseen_total=st.integers(0, 120), draws_left=st.floats(0.0, 30.0),
       n_opp=st.integers(0, 3), rules=any_rules)
def test_kong_hope_matches_reference(triplets: int, pungs: int, pairs: int, unseen_total: int,
                                     draws_left: float, n_opp: int, rules: Rules) -> None:
    args = (triplets, pungs, pairs, unseen_total, draws_left, n_opp)
    got = km.kong_hope(*args, rules.encode())
    assert close(got, ref.kong_hope(*args, rules), 1e-12)
    assert got >= 0.0


# --------------------------------------------------------------------------------------------
# answers worked out by hand (each checked on both sides)

ALL_UNSEEN = np.full(27, 4, np.int8)


def both(name: str, *args: object, rules: Rules | None = None) -> tuple[float, float]:
    kernel_args = args if rules is None else (*args, rules.encode())
    ref_args = args if rules is None else (*args, rules)
    return getattr(km, name)(*kernel_args), getattr(ref, name)(*ref_args)


S, PAIR, RUN = km.C_SINGLE, km.C_PAIR, km.C_RUN


def test_wait_weight_of_a_middle_tile() -> None:
    # 5m: a single wait on one of 4, a pair wait C(4, 2) = 6, three runs (3-4, 4-6, 6-7) of 4*4
    want = 4 * S + 6 * PAIR + 3 * 16 * RUN
    for void in (-1, 1):  # void in p: 5m unaffected
        for got in both("wait_weight", 4, void, ALL_UNSEEN):
            assert math.isclose(got, want, rel_tol=REL)


@pytest.mark.parametrize("t", [0, 8, 9, 17, 18, 26])
def test_wait_weight_of_a_terminal_has_one_run(t: int) -> None:
    assert [held for name, _, held in ref.wait_shapes(t) if name == "run"] == [
        (t + 1, t + 2) if t % 9 == 0 else (t - 2, t - 1)
    ]
    for got in both("wait_weight", t, -1, ALL_UNSEEN):
        assert math.isclose(got, 4 * S + 6 * PAIR + 16 * RUN, rel_tol=REL)


def test_wait_weight_next_to_a_terminal_has_two_runs() -> None:
    for t in (1, 16):  # 2m, 8p
        for got in both("wait_weight", t, -1, ALL_UNSEEN):
            assert math.isclose(got, 4 * S + 6 * PAIR + 2 * 16 * RUN, rel_tol=REL)


@pytest.mark.parametrize("t", range(27))
def test_void_suit_and_dead_shapes_weigh_nothing(t: int) -> None:
    assert both("wait_weight", t, t // 9, ALL_UNSEEN) == (0.0, 0.0)
    assert both("wait_weight", t, -1, np.zeros(27, np.int8)) == (0.0, 0.0)
    assert both("wins_on", t, t // 9, t // 9, ALL_UNSEEN) == (0.0, 0.0)


def test_a_win_on_4p_reveals_1p_and_7p_only() -> None:
    # 4p (tile 12) everything unseen: of its weight 4 S + 6 PAIR + 3 * 16 RUN, the runs 2p 3p
    # (a wait on 1p and 4p) and 5p 6p (4p and 7p) are 16 RUN each
    won = 1 << 12
    share = 16 * RUN / (4 * S + 6 * PAIR + 3 * 16 * RUN)
    for t in (9, 15):  # 1p, 7p
        for got in both("revealed_chance", t, won, ALL_UNSEEN):
            assert math.isclose(got, share, rel_tol=REL)
    for t in (10, 11, 13, 14, 16, 17, 3, 21):  # 2p 3p 5p 6p 8p 9p, and 4m 4s: nothing revealed
        assert both("revealed_chance", t, won, ALL_UNSEEN) == (0.0, 0.0)
    # won on 1p (one run, 2p 3p) and 7p (three runs, 5p 6p among them): 4p twice over
    won = (1 << 9) | (1 << 15)
    want = 16 * RUN / (4 * S + 6 * PAIR + 16 * RUN) + share
    for got in both("revealed_chance", 12, won, ALL_UNSEEN):
        assert math.isclose(got, want, rel_tol=REL)


def test_wait_weight_of_partly_seen_shapes() -> None:
    unseen = np.zeros(27, np.int8)
    unseen[[2, 3, 5, 6]] = 4  # 5m's runs: 3m 4m | 4m 6m | 6m 7m, 16 ways each
    unseen[4] = 1  # one 5m unseen: a single wait, no pair wait
    for got in both("wait_weight", 4, -1, unseen):
        assert math.isclose(got, S + 3 * 16 * RUN, rel_tol=REL)
    unseen[3] = 0  # 4m all seen: only 6m 7m remains
    for got in both("wait_weight", 4, -1, unseen):
        assert math.isclose(got, S + 16 * RUN, rel_tol=REL)


def test_wins_on_flush_focus_and_saturation() -> None:
    want = km.WAIT_SCALE * (4 * S + 6 * PAIR + 48 * RUN)
    for flush, focus in [(-1, 1.0), (1, km.FLUSH_OUT), (0, km.FLUSH_IN)]:
        for got in both("wins_on", 4, -1, flush, ALL_UNSEEN):
            assert math.isclose(got, min(1.0, want * focus), rel_tol=REL)
    big = np.full(27, 4, np.int8)
    for got in both("wins_on", 4, -1, -1, big * 0 + 4):
        assert got <= 1.0


def test_ready_probability_known_values() -> None:
    for got in both("ready_probability", 0, 0, 0):
        assert math.isclose(got, 1.0 / (1.0 + math.exp(-km.READY_BIAS)), rel_tol=REL)
    # the streak counts up to STREAK_MAX only
    assert both("ready_probability", 10, 2, 3) == both("ready_probability", 10, 2, 10)
    # more discards, more melds: more likely ready
    assert km.ready_probability(12, 2, 0) > km.ready_probability(6, 2, 0) > \
        km.ready_probability(6, 0, 0)


@SETTINGS
@given(n_kongs=st.integers(0, 4), flush=suits, n_pungs=st.integers(0, 4),
       after_own_kong=st.booleans())
def test_deal_in_cost_under_baike_is_at_most_8(n_kongs: int, flush: int, n_pungs: int,
                                               after_own_kong: bool) -> None:
    for got in both("deal_in_cost", n_kongs, flush, n_pungs, after_own_kong, 2, 0.0,
                    rules=get_rules("baike")):
        assert 1.0 < got <= 8.0


def test_deal_in_cost_known_values() -> None:
    classic = get_rules("classic")
    for got in both("deal_in_cost", 0, -1, 0, False, 2, 0.0, rules=classic):
        assert math.isclose(got, 2.0**0.6, rel_tol=REL)
    # 0.6 + 2 kongs + flush 2 + all pungs 1 + 1 after own kong = 6.6 fan (classic has no cap)
    for got in both("deal_in_cost", 2, 1, 3, True, 2, 4.0, rules=classic):
        assert math.isclose(got, 2.0**6.6, rel_tol=REL)  # neither kong-discard rule
    # app: flush is 1 fan; kong_discard_pays_all: (2^5.6 + 1 self-draw unit) for each of 2
    for got in both("deal_in_cost", 2, 1, 3, True, 2, 4.0, rules=get_rules("app")):
        assert math.isclose(got, (2.0**5.6 + 1.0) * 2, rel_tol=REL)
    for got in both("deal_in_cost", 2, 1, 3, False, 2, 4.0, rules=get_rules("app")):
        assert math.isclose(got, 2.0**4.6, rel_tol=REL)  # not after a kong: the hand alone
    # tfmj: capped at 3 fan, plus the kong's 4 units transferred (kong_discard_transfer)
    assert both("deal_in_cost", 2, 1, 3, True, 2, 4.0, rules=get_rules("tfmj")) == (12.0, 12.0)
    assert both("deal_in_cost", 2, 1, 3, False, 2, 4.0, rules=get_rules("tfmj")) == (8.0, 8.0)


@pytest.mark.parametrize(("useful", "unseen_total", "draws_left"), [(8, 60, 10), (1, 120, 1),
                                                                   (60, 1, 30), (4, 30, 7)])
def test_win_probability_of_a_ready_hand_alone(useful: int, unseen_total: int,
                                               draws_left: int) -> None:
    want = 1.0 - math.exp(-useful * draws_left / unseen_total)
    for got in both("win_probability", 0, useful, unseen_total, draws_left, 0):
        assert math.isclose(got, want, rel_tol=REL)


def test_win_probability_of_a_ready_hand_with_claims() -> None:
    # rate 8 / 60 per turn, times 1 + 0.5 * 3 for the discards of three opponents
    want = 1.0 - math.exp(-(8 / 60) * 2.5 * 10)
    for got in both("win_probability", 0, 8, 60, 10, 3):
        assert math.isclose(got, want, rel_tol=REL)


def test_win_probability_erlang_without_claims() -> None:
    x = 4 / 30 * 20  # two steps at one rate: P(Poisson(x) >= 2)
    want = 1.0 - math.exp(-x) * (1.0 + x)
    for got in both("win_probability", 1, 4, 30, 20, 0):
        assert math.isclose(got, want, rel_tol=REL)


def test_win_probability_matched_erlang_for_a_hand_not_ready() -> None:
    # shanten 1, 8 useful of 60: one step at 8/60, then the win among at most WAIT_TYPICAL
    # tiles at (6/60)(1 + 0.5 * 3); Erlang of shape 2 with that mean
    mean = 60 / 8 + 1 / (km.WAIT_TYPICAL / 60 * (1 + km.CLAIM_CHANCE * 3))
    x = 2 * 10 / mean
    want = 1.0 - math.exp(-x) * (1.0 + x)
    for got in both("win_probability", 1, 8, 60, 10, 3):
        assert math.isclose(got, want, rel_tol=REL)


def test_win_probability_edges() -> None:
    assert both("win_probability", -1, 0, 0, 0, 0) == (1.0, 1.0)  # complete: won
    for args in [(2, 0, 50, 10, 2), (2, 5, 50, 0, 2), (0, 5, 0, 10, 2)]:
        assert both("win_probability", *args) == (0.0, 0.0)
    for got in both("win_probability", 3, 60, 1, 30, 3):  # far more live tiles than turns
        assert got == 1.0


def test_win_amount_known_values() -> None:
    # a self-draw in 45% of wins: 3 payers of 2 + 1 (base bonus); else 1 payer of 2
    for got in both("win_amount", 2.0, 3, rules=get_rules("classic")):
        assert math.isclose(got, 0.45 * 3 * 3.0 + 0.55 * 2.0, rel_tol=REL)
    for got in both("win_amount", 2.0, 3, rules=get_rules("classic", self_draw_bonus="fan")):
        assert math.isclose(got, 0.45 * 3 * 4.0 + 0.55 * 2.0, rel_tol=REL)
    for got in both("win_amount", 2.0, 3, rules=get_rules("classic", self_draw_bonus="none")):
        assert math.isclose(got, 0.45 * 3 * 2.0 + 0.55 * 2.0, rel_tol=REL)


def test_kong_hope_known_values() -> None:
    # 60 unseen, 10 turns, 3 opponents; app (no refund): one concealed triplet is a single
    # wait with claims (1 - e^(-10/60 * 2.5)); of that, a draw alone (1 - e^(-10/60)) is a
    # concealed kong (2 from each of 3), the rest a direct kong (2 from the discarder)
    p_any = 1.0 - math.exp(-10 / 60 * 2.5)
    p_drawn = 1.0 - math.exp(-10 / 60)
    want = p_drawn * 6 + (p_any - p_drawn) * 2
    for got in both("kong_hope", 1, 0, 0, 60, 10.0, 3, rules=get_rules("app")):
        assert math.isclose(got, want, rel_tol=REL)
    # an exposed pung: drawn only, one from each of 3; classic refunds a quarter
    for got in both("kong_hope", 0, 1, 0, 60, 10.0, 3, rules=get_rules("classic")):
        assert math.isclose(got, 0.75 * p_drawn * 3, rel_tol=REL)
    # a pair: its third tile (two live, with claims), then the fourth drawn
    p_third = 1.0 - math.exp(-2 * 10 / 60 * 2.5)
    for got in both("kong_hope", 0, 0, 1, 60, 10.0, 3, rules=get_rules("app")):
        assert math.isclose(got, p_third * p_drawn * 3, rel_tol=REL)
    assert both("kong_hope", 1, 1, 1, 0, 10.0, 3, rules=get_rules("app")) == (0.0, 0.0)
    assert both("kong_hope", 1, 1, 1, 60, 0.0, 3, rules=get_rules("app")) == (0.0, 0.0)
