"""Behaviour of the policy family on crafted situations: hand, melds, visible tiles -> decision.

Each test builds a :class:`Situation` (a :class:`~simcore.engine.state.DealState` filled by hand
in the docs/rules notation) and asks the decision functions of
:mod:`simcore.engine.policies.dispatch` directly, exactly as the engine does. Seat 0 decides;
its void is ``s`` unless stated. The plan (speed, flush, pungs, pairs) is chosen from the hand
as the engine does right after the void,
unless a test fixes it with ``plan=``. The last tests check properties over many random
situations (watch, exchange, void). Every policy family also passes the policy contract
(:func:`simcore.testing.check_policy`) under every preset.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers.situation import Situation, T
from hypothesis import given, settings, strategies

from simcore.engine.policies import dispatch as pol
from simcore.engine.policies import registry
from simcore.engine.policies.greedy_options import MEM_MODE, MEM_TARGET
from simcore.engine.spec import REGISTRY
from simcore.engine.state import (
    MEMO_SLOTS,
    P_IN_PLAY,
    new_state,
)
from simcore.hand import shanten
from simcore.rules import PRESETS
from simcore.testing import check_policy
from simcore.tiles import SUITS, format, tile_index, tile_str

# ----------------------------------------------------------------------------- contract
# one spec per policy family, its plan entered often (low k)
FAMILY_SPECS = {"random": "random", "speed": "speed", "flush": "flush:k=6", "pungs": "pungs:k=3",
                "pairs": "pairs:k=4", "expert": "expert"}


def test_every_policy_family_is_checked() -> None:
    assert set(FAMILY_SPECS) == set(REGISTRY)


def test_a_familys_seat_memory_is_its_own_columns_of_the_state() -> None:
    # the greedy family's plan and target live in st.memory, sized by the families' needs
    st = new_state()
    assert st.memory.shape == (4, registry.memory_width()) and st.memory.dtype == np.int32
    assert registry.MEMORY["greedy"] == 2 and {MEM_MODE, MEM_TARGET} == {0, 1}
    with pytest.raises(ValueError, match="unknown family 'nobody'"):
        registry.declare_memory("nobody", 1)


def test_the_optional_families_are_switched_on_by_their_seats_only() -> None:
    speed, expert = REGISTRY["speed"].pid, REGISTRY["expert"].pid
    assert pol.families_for([[speed, speed, speed, speed]]) == (None,)
    on = pol.families_for([[speed, expert, speed, speed]])
    assert on[0] is not None and pol.compiled_families(on) == ("expert",)
    assert pol.compiled_families(pol.families_for([[speed] * 4])) == ()


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("family", list(FAMILY_SPECS))
def test_policy_contract(family: str, preset: str) -> None:
    checked = check_policy(FAMILY_SPECS[family], preset)
    assert checked.spec == FAMILY_SPECS[family] and checked.rules == preset
    assert checked.options == tuple(o.name for o in REGISTRY[family].options)


# ----------------------------------------------------------------------------- speed
def test_speed_discards_to_the_lowest_shanten() -> None:
    # nine gates plus a stray 1p: only the 1p keeps the hand ready
    assert Situation({0: "1112345678999m1p"}).discard("speed") == "1p"


@pytest.mark.parametrize(
    ("seen", "ukeire_on", "ukeire_off"),
    [
        # 123456789m 99p + 1p3p5p: dropping 1p waits on 4p, dropping 5p waits on 2p
        ("", "1p", "1p"),  # 4 unseen each: outer rank first
        ("4p4p4p", "5p", "1p"),  # only one 4p left: ukeire keeps the 2p wait
        ("2p2p", "1p", "1p"),
    ],
)
def test_speed_breaks_shanten_ties_by_useful_tiles(seen: str, ukeire_on: str,
                                                   ukeire_off: str) -> None:
    sit = Situation({0: "123456789m1359p9p"}, seen=seen)
    assert sit.discard("speed") == ukeire_on
    assert sit.discard("speed:ukeire=0") == ukeire_off


def test_void_tiles_go_first_the_one_held_fewest_times() -> None:
    assert Situation({0: "123456789m11s5s9p"}).discard("speed") == "5s"
    assert Situation({0: "123456789m11s5s9p"}).discard("flush:k=0") == "5s"


def test_speed_pungs_only_when_shanten_does_not_grow() -> None:
    # 455667m: punging 5m breaks the runs 456m 567m; 44667799m: 4m pung keeps the shape
    assert Situation({0: "455667m2346799p"}).claim("speed", "5m") == "pass"
    assert Situation({0: "11m23m456p789p55p9p"}).claim("speed", "1m") == "pung"


# ----------------------------------------------------------------------------- flush
def test_flush_plan_needs_k_tiles_of_the_longest_non_void_suit() -> None:
    sit = Situation({0: "1234567p99p123m45m"})  # nine p
    assert sit.plan("flush") == "flush:p"
    assert sit.plan("flush:k=9") == "flush:p"
    assert sit.plan("flush:k=10") == "speed"
    assert sit.plan("speed") == "speed"
    # the void suit never is the target, however long
    assert Situation({0: "1234567p99p123m45m"}, voids={0: "p"}).plan("flush:k=5") == "flush:m"
    assert Situation({0: "1234567p99p123m45m"}, voids={0: "p"}).plan("flush:k=6") == "speed"


def test_flush_discards_the_other_suit_first_loosest_tile() -> None:
    sit = Situation({0: "1234567p99p123m45m"})
    assert sit.discard("speed") == "1p"  # ready either way, waits 3m6m: speed keeps the m
    assert sit.discard("flush") == "1m"  # the least connected m tile (outer rank first)
    assert sit.discard("flush:k=10") == "1p"  # no plan: speed


def test_flush_claims_only_its_suit() -> None:
    sit = Situation({0: "1234p6789p55p55m4m"})  # ten p: flush of p
    assert sit.plan("flush") == "flush:p"
    assert sit.claim("flush", "5m") == "pass"
    assert sit.claim("speed", "5m") == "pung"
    assert sit.claim("flush", "5p") == "pung"


def test_flush_falls_back_to_speed_when_fewer_than_g_tiles_remain() -> None:
    early = Situation({0: "1234567p99p123m45m"}, wall_left=12)
    assert early.discard("flush") == "1m" and early.mode() == "flush:p"
    late = Situation({0: "1234567p99p123m45m"}, wall_left=11)
    assert late.discard("flush") == "1p" and late.mode() == "speed"
    assert Situation({0: "1234567p99p123m45m"}, wall_left=11).discard("flush:g=11") == "1m"


def test_flush_falls_back_when_no_unseen_tile_helps_it() -> None:
    hand = {0: "111222333444p5p1m"}
    alive = Situation(hand, seen="1p2p3p4p5p5p5p")
    assert alive.discard("flush") == "1m" and alive.mode() == "flush:p"
    dead = Situation(hand, seen="1p2p3p4p5p5p5p6p6p6p6p7p7p7p7p")  # every p wait is visible
    assert dead.discard("flush") == "2p" and dead.mode() == "speed"  # speed keeps the live 1m


def test_flush_kongs_only_its_suit() -> None:
    hand = {0: "5555m23456789p99p"}
    assert Situation(hand).kong("speed:kong=always") == "5m"
    assert Situation(hand).kong("flush:kong=always", plan="flush:p") is None


# ----------------------------------------------------------------------------- all pungs
def test_pungs_plan_needs_k_pairs_or_triplets() -> None:
    sit = Situation({0: "11m55m888m123p456p9p"})
    assert sit.plan("pungs:k=3") == "pungs"
    assert sit.plan("pungs:k=4") == "speed"
    assert Situation({0: "11m55m88m123p456p9s"}, voids={0: "m"}).plan("pungs:k=1") == "speed"


def test_pungs_keeps_pairs_and_breaks_runs() -> None:
    sit = Situation({0: "11m55m88m123p456p79p"})
    assert sit.discard("speed") == "1m"  # speed keeps the runs and the 79p
    assert sit.discard("pungs:k=3") == "1p"


def test_pungs_pungs_everything_allowed() -> None:
    sit = Situation({0: "455667m2346799p"})
    assert sit.claim("speed", "5m") == "pass"
    assert sit.claim("pungs:k=2", "5m") == "pung"


# ----------------------------------------------------------------------------- seven pairs
def test_pairs_plan_needs_k_pairs_four_of_a_kind_counting_two() -> None:
    assert Situation({0: "1111m55m88m99p345p"}).plan("pairs:k=5") == "pairs"
    assert Situation({0: "1111m55m88m99p345p"}).plan("pairs:k=6") == "speed"


def test_pairs_never_pungs_and_keeps_pairs() -> None:
    sit = Situation({0: "1123m456p789p55p"})
    assert sit.claim("speed", "1m") == "pung"
    assert sit.claim("pairs:k=2", "1m") == "pass"
    sit = Situation({0: "11m55m88m123p456p79p"})
    assert sit.discard("pairs:k=3") == "1p"
    assert Situation({0: "5555m23456789p99p"}).kong("pairs:kong=always", plan="pairs") is None


def test_pairs_drops_a_dead_single_first() -> None:
    # five pairs and the singles 9m 4p 6p 7p: an outer single goes first, unless 6p is dead
    hand = {0: "11m55m88m9m99p33p4p6p7p"}
    assert Situation(hand).discard("pairs", plan="pairs") == "9m"
    assert Situation(hand, seen="6p6p6p").discard("pairs", plan="pairs") == "6p"


# ----------------------------------------------------------------------------- kongs
@pytest.mark.parametrize(
    ("kong", "claim_three", "claim_breaking", "concealed", "concealed_breaking", "added"),
    [
        ("always", "kong", "kong", "5m", "3m", "5m"),
        ("never", "pung", "pung", None, None, None),
        ("keep_shape", "kong", "pung", "5m", None, None),
        ("pung_then_add", "pung", "pung", "5m", None, "5m"),
    ],
)
def test_kong_options(kong: str, claim_three: str, claim_breaking: str, concealed: str | None,
                      concealed_breaking: str | None, added: str | None) -> None:
    spec = f"speed:kong={kong}"
    # a discard of 5m to 555m: the kong keeps the tanki on 1m
    assert Situation({0: "555m123p456p789p1m"}).claim(spec, "5m") == claim_three
    # 333m45m: konging 3m leaves no pair (shanten grows), the pung keeps the hand ready
    assert Situation({0: "333m45m123p456p78p"}).claim(spec, "3m") == claim_breaking
    # own turn: four 5m, or four 3m of which one makes the run 345m
    assert Situation({0: "5555m123p456p789p1m"}).kong(spec) == concealed
    assert Situation({0: "3333m45m123p456p78p"}).kong(spec) == concealed_breaking
    # the fourth 5m onto an exposed pung, though it is in the run 345m
    assert Situation({0: "345m123p456p78p|P5m"}).kong(spec) == added


def test_pung_then_add_keeps_the_fourth_tile_for_the_kong() -> None:
    sit = Situation({0: "5m9p123p456p789p|P5m"})
    assert sit.discard("speed") == "5m"  # the tanki on 5m is dead, on 9p alive
    assert sit.discard("speed:kong=pung_then_add") == "9p"


# ----------------------------------------------------------------------------- holding out
@pytest.mark.parametrize("self_drawn", [False, True])
def test_min_fan_declines_small_wins_while_the_wall_is_long(self_drawn: bool) -> None:
    sit = Situation({0: "123m"})
    spec = "speed:min_fan=2,until=8"
    assert not sit.takes_win(spec, fan=1, wall_left=9, self_drawn=self_drawn)
    assert sit.takes_win(spec, fan=1, wall_left=8, self_drawn=self_drawn)
    assert sit.takes_win(spec, fan=2, wall_left=40, self_drawn=self_drawn)
    assert sit.takes_win("speed", fan=0, wall_left=40, self_drawn=self_drawn)
    assert not sit.takes_win("flush:min_fan=3", fan=2, wall_left=1, self_drawn=self_drawn)


# ----------------------------------------------------------------------------- exchange, void
def test_exchange_options() -> None:
    sit = Situation({0: "2345m56789p1479s"})  # m and s both four tiles, p the longest
    assert sit.exchange("speed") == "234m"  # the shortest suit found first
    assert sit.exchange("speed:exchange=keep_long") == "149s"  # the other suit hurts least
    given = sit.exchange("speed:exchange=random")
    assert len(given) == 4 and given[-1] in "mps"  # three tiles of one suit
    only_long = Situation({0: "1m9p12345678999s"})  # only the longest suit has three
    assert only_long.exchange("speed:exchange=keep_long")[-1] == "s"


def test_void_fewest_or_weakest() -> None:
    sit = Situation({0: "3689m223p113469s"})
    assert sit.void("speed") == "p"  # the fewest tiles
    assert sit.void("speed:void=weakest") == "m"  # dropping m leaves the lowest shanten
    assert [sit.void(f"pungs:void={v}") for v in "mps"] == ["m", "p", "s"]  # forced


def test_the_plan_is_chosen_with_the_void() -> None:
    sit = Situation({0: "1234567p99p123m45m"})
    assert sit.void("flush") == "s" and sit.mode() == "flush:p"
    assert sit.void("speed") == "s" and sit.mode() == "speed"


# ----------------------------------------------------------------------------- watch
def test_watch_avoids_the_suit_of_an_apparent_flush() -> None:
    hands = {0: "234567m234567p9m9p", 1: "11m|P1pP5p"}
    sit = Situation(hands, seen="9p9p")
    assert sit.discard("speed") == "9p"  # the 9m tanki has more unseen copies
    assert sit.discard("speed:watch=1") == "9m"
    # a seat out of play, melds in two suits, or one meld only: no apparent flush
    gone = Situation(hands, seen="9p9p")
    gone.st.pl[1, P_IN_PLAY] = 0
    assert gone.discard("speed:watch=1") == "9p"
    mixed = Situation({0: "234567m234567p9m9p", 1: "11m|P1pP5s"}, seen="9p9p")
    assert mixed.discard("speed:watch=1") == "9p"


def _random_hand(rng: np.random.Generator, size: int, suits: int) -> np.ndarray:
    tiles = rng.choice(np.repeat(np.arange(9 * suits), 4), size, replace=False)
    return np.bincount(tiles, minlength=27).astype(np.int8)


def test_watch_over_random_situations_keeps_shanten_and_avoids_the_suit() -> None:
    """An opponent shows two pungs of p; seat 0 (void s) holds 14 random m/p tiles."""
    rng = np.random.default_rng(4)
    into_p = {"speed": 0, "speed:watch=1": 0}
    n = 400
    for _ in range(n):
        counts = _random_hand(rng, 14, 2)
        if counts[9] > 1 or counts[13] > 1:
            counts = _random_hand(rng, 14, 2)
        if counts[9] > 1 or counts[13] > 1:
            continue
        sit = Situation({0: format(counts), 1: "|P1pP5p"})
        picks = {spec: sit.discard(spec) for spec in into_p}
        for spec, tile in picks.items():
            into_p[spec] += tile.endswith("p")
        after = {spec: counts.copy() for spec in picks}
        for spec, tile in picks.items():
            after[spec][tile_index(tile)] -= 1
        sh = {spec: shanten(after[spec], void="s") for spec in picks}
        assert sh["speed:watch=1"] == sh["speed"], (format(counts), picks)
    assert into_p["speed:watch=1"] < 0.8 * into_p["speed"], into_p


def test_exchange_and_void_over_random_hands() -> None:
    rng = np.random.default_rng(5)
    for _ in range(150):
        counts = _random_hand(rng, 13, 3)
        sit = Situation({0: format(counts)})
        sizes = [int(counts[9 * s: 9 * s + 9].sum()) for s in range(3)]
        longest = max(sizes)
        for spec in ("speed", "speed:exchange=keep_long", "speed:exchange=random"):
            given = sit.exchange(spec)
            assert len(given) == 4, (spec, given)
            size = sizes[SUITS.index(given[-1])]
            if spec == "speed":
                assert size == min(n for n in sizes if n >= 3)
            elif spec == "speed:exchange=keep_long" and sorted(sizes)[1] >= 3:
                assert size < longest or sorted(sizes)[1] == longest, (format(counts), given)
        fewest = sit.void("speed")
        assert sizes[SUITS.index(fewest)] == min(sizes)
        weakest = sit.void("speed:void=weakest")
        best = min(shanten(counts, void=v) for v in SUITS)
        assert shanten(counts, void=weakest) == best


# ----------------------------------------------------------------------------- plan measures
# The fast measures of simcore.engine.evaluate against slow, obvious versions.
_FRESH = 10**6  # "impossible"


def _knapsack_pairs(counts: np.ndarray, types: range, unseen: np.ndarray | None) -> int:
    """Fewest tiles to add for seven pairs from ``types`` (a type gives up to two pairs)."""
    best = [0] + [_FRESH] * 7
    for t in types:
        new = list(best)
        for k in range(8):
            for pairs in (1, 2):
                add = max(2 * pairs - int(counts[t]), 0)
                if k < pairs or best[k - pairs] >= _FRESH:
                    continue
                if unseen is not None and counts[t] > 0 and add > unseen[t]:
                    continue
                new[k] = min(new[k], best[k - pairs] + add)
        best = new
    return best[7]


def _ref_flush(counts: np.ndarray, n_melds: int, suit: int, visible: np.ndarray) -> tuple:
    from simcore.hand.reference import _suit_costs

    def dist(c: np.ndarray) -> int:
        d = _suit_costs(c[9 * suit: 9 * suit + 9])[4 - n_melds][1]
        if n_melds == 0:
            d = min(d, _knapsack_pairs(c, range(9 * suit, 9 * suit + 9), None))
        return d

    d = dist(counts)
    useful = 0
    for t in range(9 * suit, 9 * suit + 9):
        if counts[t] < 4:
            c = counts.copy()
            c[t] += 1
            if dist(c) < d:
                useful += 4 - int(visible[t])
    return d - 1, (useful if d > 0 else 0)


def _ref_pungs(counts: np.ndarray, n_melds: int, void: int, visible: np.ndarray) -> int:
    """Knapsack over types: ``4 - n_melds`` triplets and one pair; a held type needs enough
    unseen copies, a type not held is always available."""
    big = _FRESH
    best = [[0, big]] + [[big, big] for _ in range(4)]  # best[triplets][pair]
    for t in range(27):
        if t // 9 == void:
            continue
        c, unseen = int(counts[t]), 4 - int(visible[t])
        trip = max(3 - c, 0) if c == 0 or max(3 - c, 0) <= unseen else big
        pair = max(2 - c, 0) if c == 0 or max(2 - c, 0) <= unseen else big
        new = [row[:] for row in best]
        for k in range(5):
            for p in range(2):
                if best[k][p] >= big:
                    continue
                if k < 4:
                    new[k + 1][p] = min(new[k + 1][p], best[k][p] + trip)
                if p == 0:
                    new[k][1] = min(new[k][1], best[k][p] + pair)
        best = new
    return best[4 - n_melds][1] - 1


def _ref_pairs(counts: np.ndarray, void: int, visible: np.ndarray) -> int:
    unseen = 4 - visible.astype(np.int64)
    types = range(27)
    live = counts.copy()
    for t in types:  # a single with no unseen copy cannot pair: it counts for nothing
        if t // 9 == void or (counts[t] % 2 == 1 and unseen[t] == 0):
            live[t] -= 1 if t // 9 != void else live[t]
    return _knapsack_pairs(live, [t for t in types if t // 9 != void], None) - 1


def _random_situation(rng: np.random.Generator, size: int, n_melds: int, void: int):
    """A hand of ``size`` tiles of the non-void suits and what its owner sees."""
    usable = [t for t in range(27) if t // 9 != void]
    pool = np.repeat(usable, 4)
    tiles = rng.choice(pool, size + 20, replace=False)
    counts = np.bincount(tiles[:size], minlength=27).astype(np.int8)
    visible = counts.astype(np.int16) + np.bincount(tiles[size:], minlength=27).astype(np.int16)
    return counts, visible


def test_flush_measure_matches_the_reference() -> None:
    from simcore.engine.evaluate import flush_eval

    rng = np.random.default_rng(11)
    for i in range(120):
        n_melds = i % 3
        counts, visible = _random_situation(rng, 13 - 3 * n_melds + i % 2, n_melds, 2)
        for suit in (0, 1):
            got = flush_eval(counts, n_melds, suit, visible, T)
            assert tuple(int(x) for x in got) == _ref_flush(counts, n_melds, suit, visible), (
                format(counts), n_melds, suit)


def test_pungs_and_pairs_measures_match_the_reference() -> None:
    from simcore.engine.evaluate import pairs_eval, pungs_eval

    rng = np.random.default_rng(12)
    for i in range(150):
        n_melds = i % 4
        counts, visible = _random_situation(rng, 13 - 3 * n_melds + i % 2, n_melds, 0)
        got = int(pungs_eval(counts, n_melds, 0, visible)[0])
        assert got == _ref_pungs(counts, n_melds, 0, visible), (format(counts), n_melds)
        if n_melds == 0:
            got = int(pairs_eval(counts, 0, 0, visible)[0])
            assert got == _ref_pairs(counts, 0, visible), format(counts)
    assert int(pairs_eval(counts, 1, 0, visible)[0]) >= 90  # no seven pairs with a meld


def _ref_pungs_useful(counts: np.ndarray, n_melds: int, void: int,
                      visible: np.ndarray) -> int:
    """pungs_eval's useful tiles as its docstring defines them: the unseen copies of held
    pairs that have one left, and of held singles while fewer types are held twice than the
    plan's triplets and pair."""
    held = [t for t in range(27) if t // 9 != void and counts[t] > 0]
    unseen = {t: 4 - int(visible[t]) for t in held}
    pairs = sum(unseen[t] for t in held if counts[t] == 2 and unseen[t] >= 1)
    singles = sum(unseen[t] for t in held if counts[t] == 1 and unseen[t] >= 1)
    groups = sum(1 for t in held if counts[t] >= 2)
    return pairs + (singles if groups < 4 - n_melds + 1 else 0)


def _ref_pairs_useful(counts: np.ndarray, void: int, visible: np.ndarray) -> int:
    """pairs_eval's useful tiles: the unseen copies of live singles, and of any type held an
    even number of times below four while the live singles cannot make the pairs missing."""
    types = [t for t in range(27) if t // 9 != void]
    unseen = {t: max(0, 4 - int(visible[t])) for t in types}
    live = [t for t in types if counts[t] % 2 == 1 and unseen[t] > 0]
    need = 7 - sum(int(counts[t]) // 2 for t in types)
    even = sum(unseen[t] for t in types if counts[t] % 2 == 0 and counts[t] < 4)
    return sum(unseen[t] for t in live) + (even if need > len(live) else 0)


@settings(max_examples=300, deadline=None)
@given(seed=strategies.integers(0, 2**32 - 1), n_melds=strategies.integers(0, 3),
       void=strategies.integers(-1, 2), extra=strategies.integers(0, 1))
def test_pungs_and_pairs_useful_tiles_match_a_plain_count(seed: int, n_melds: int, void: int,
                                                          extra: int) -> None:
    from simcore.engine.evaluate import pairs_eval, pungs_eval

    rng = np.random.default_rng(seed)
    counts, visible = _random_situation(rng, 13 - 3 * n_melds + extra, n_melds, void)
    s, useful = pungs_eval(counts, n_melds, void, visible)
    assert s == _ref_pungs(counts, n_melds, void, visible), format(counts)
    if s >= 0:
        assert useful == _ref_pungs_useful(counts, n_melds, void, visible), format(counts)
    if n_melds == 0:
        s, useful = pairs_eval(counts, 0, void, visible)
        if s >= 0:
            assert useful == _ref_pairs_useful(counts, void, visible), format(counts)


@settings(max_examples=300, deadline=None)
@given(seed=strategies.integers(0, 2**32 - 1), n_melds=strategies.integers(0, 4),
       void=strategies.integers(-1, 2), extra=strategies.integers(0, 1))
def test_expert_hand_counts_match_a_plain_count(seed: int, n_melds: int, void: int,
                                                extra: int) -> None:
    """The expert's one pass over a hand (roots, pairs, and the triplets, pungs and pairs whose
    kongs may still come) counts what its docstring says, type by type."""
    from simcore.engine.policies.expert import _hand_counts
    from simcore.tiles import MELD_KONG, MELD_PUNG

    rng = np.random.default_rng(seed)
    counts, visible = _random_situation(rng, 13 - 3 * n_melds + extra, n_melds, -1)
    unseen = (4 - visible).astype(np.int16)
    kinds = rng.choice([MELD_PUNG, MELD_KONG], 4).astype(np.int8)
    tiles = rng.integers(0, 27, 4).astype(np.int8)
    roots = sum(1 for t in range(27) if counts[t] == 4)
    pairs = sum(int(c) // 2 for c in counts)
    live = [t for t in range(27) if t // 9 != void]
    triplets = sum(1 for t in live if counts[t] == 3 and unseen[t] >= 1)
    kong_pairs = sum(1 for t in live if counts[t] == 2 and unseen[t] == 2)
    pungs = 0
    for m in range(n_melds):
        if kinds[m] != MELD_PUNG or counts[tiles[m]] > 0:
            roots += 1
        elif unseen[tiles[m]] >= 1:
            pungs += 1
    got = _hand_counts(counts, n_melds, void, unseen, kinds, tiles)
    assert tuple(int(x) for x in got) == (roots, pairs, triplets, pungs, kong_pairs), format(counts)


@settings(max_examples=100, deadline=None)
@given(asks=strategies.lists(strategies.tuples(
    strategies.integers(-1, 7), strategies.integers(0, 60), strategies.sampled_from([40, 41, 90]),
    strategies.sampled_from([3.0, 3.25, 12.0, 0.0, 10 / 3, 11 / 3]), strategies.integers(0, 3)),
    min_size=1, max_size=60), slots=strategies.sampled_from([1, 4, MEMO_SLOTS]))
def test_expert_remembered_win_chances_are_win_probability(asks: list, slots: int) -> None:
    """The expert's memory of win_probability (st.memo) answers every question as
    win_probability does, whatever came before: repeated questions, questions whose slots
    collide (a memory of one or four slots), and questions that differ in one argument only."""
    from simcore.engine.policies.expert import _win_chance
    from simcore.engine.policies.expert_model import win_probability

    M = np.zeros((3, slots), np.float64)
    for s, u, unseen_total, draws_left, n_opp in asks + asks[::-1]:
        got = _win_chance(M, s, u, unseen_total, draws_left, n_opp)
        assert got == win_probability(s, u, unseen_total, draws_left, n_opp), (
            s, u, unseen_total, draws_left, n_opp)


@settings(max_examples=60, deadline=None)
@given(data=strategies.data(), preset=strategies.sampled_from(["classic", "app", "two_suit4"]),
       slots=strategies.sampled_from([1, 4, MEMO_SLOTS]))
def test_expert_remembered_ready_units_are_the_mean_over_live_winning_tiles(
        data, preset: str, slots: int) -> None:
    """The expert's memory of a ready hand's fans (st.memo) gives the mean units of its wins
    over its live winning tiles as scoring each one does, whatever the memory held before:
    the same hands asked again with other live counts, under memories of one and four slots
    (every question collides) shared with win_probability's answers."""
    from simcore.engine.policies.expert import _ready_units, _units, _win_chance
    from simcore.hand.kernels import KIND_ANY, eval_ukeire
    from simcore.hand.scoring_kernels import PAT_NONE, score_hand
    from simcore.rules import get_rules

    R = get_rules(preset).encode()
    suits = [1, 2] if preset == "two_suit4" else [0, 1, 2]
    void = 0 if preset != "two_suit4" else -1
    kinds = np.zeros(4, np.int8)
    tiles = np.zeros(4, np.int8)
    value_w = data.draw(strategies.sampled_from([1.0, 0.8]))
    M = np.zeros((3, slots), np.float64)
    hands = []
    for _ in range(data.draw(strategies.integers(1, 4))):
        # four sets and a pair of the non-void suits, less one tile: a ready hand
        counts = np.zeros(27, np.int8)
        for _ in range(4):
            s = data.draw(strategies.sampled_from(suits[-2:] if void == 0 else suits))
            if data.draw(strategies.booleans()):
                r = data.draw(strategies.integers(0, 6))
                for t in (9 * s + r, 9 * s + r + 1, 9 * s + r + 2):
                    counts[t] += 1
            else:
                counts[9 * s + data.draw(strategies.integers(0, 8))] += 3
        counts[9 * data.draw(strategies.sampled_from(suits[-2:])) +
               data.draw(strategies.integers(0, 8))] += 2
        if counts.max() > 4:
            continue
        held = [t for t in range(27) if counts[t]]
        counts[data.draw(strategies.sampled_from(held))] -= 1
        hands.append(counts)
    for counts in hands + hands[::-1]:
        unseen = np.array([max(0, 4 - counts[t] - data.draw(strategies.integers(0, 2)))
                           for t in range(27)], np.int16)
        s, mask, _n = eval_ukeire(counts, 0, void, KIND_ANY, (4 - unseen).astype(np.int16),
                                  T.packed, T.masks)
        if s != 0:
            continue
        _win_chance(M, 1, 5, 60, 7.5, 3)  # a win_probability answer shares the memory
        total = weight = 0.0
        for w in range(27):
            if (mask >> w) & 1 and unseen[w] > 0:
                counts[w] += 1
                res = score_hand(counts, kinds, tiles, 0, void, False, 0, R)
                counts[w] -= 1
                if res[2] != PAT_NONE:
                    total += unseen[w] * _units(res[1], R, value_w)
                    weight += unseen[w]
        expected = total / weight if weight > 0 else 0.0
        got = _ready_units(counts.copy(), 0, void, mask, unseen, kinds, tiles, R, value_w, M)
        assert got == pytest.approx(expected, rel=1e-12, abs=1e-12), format(counts)


def test_discard_shanten_matches_a_shanten_call_per_candidate() -> None:
    from simcore.engine.evaluate import discard_shanten

    rng = np.random.default_rng(13)
    row = np.zeros(27, np.int8)
    for i in range(100):
        n_melds = i % 3
        void = i % 4 - 1  # -1 (none) or a suit
        counts = _random_hand(rng, 14 - 3 * n_melds, 3)
        mask = sum(1 << t for t in range(27) if counts[t] > 0)
        best = discard_shanten(counts, n_melds, void, mask, T, row)
        expected = {}
        for t in range(27):
            if counts[t]:
                c = counts.copy()
                c[t] -= 1
                expected[t] = shanten(c, void=None if void < 0 else void, n_melds=n_melds)
                assert row[t] == expected[t], (format(counts), void, tile_str(t))
        assert best == min(expected.values())
