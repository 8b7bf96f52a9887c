"""Fan scoring (docs/rules section 7): the kernels against the worked examples, hand-made cases for
every pattern, modifier, bonus and preset, and against :mod:`simcore.hand.reference` on random
hands.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from simcore.hand import reference
from simcore.hand import scoring_kernels as sc
from simcore.rules import PRESETS, get_rules
from simcore.scoring import ScoreResult, ready_value, score
from simcore.tiles import Meld, format, melds_to_arrays, parse

pytestmark = pytest.mark.numba  # its kernels compile (tests/conftest.py: the fast tier)

# the hands below name m tiles: the presets of three suits (two_suit3/4 refuse them, see
# tests/engine/test_variants.py)
PRESET_NAMES = [name for name, rules in PRESETS.items() if rules.suits == 3]
FLAG = dict(zip(sc.BONUS_NAMES, sc.BONUS_FLAGS, strict=True))


def kernel(text, rules="classic", *, void=-1, self_draw=False, bonuses=(), he=False, **changes):
    """``score_hand`` of a hand in notation as a dict of its seven fields."""
    counts, melds = parse(text)
    kind, tile, n = melds_to_arrays(melds)
    r = get_rules(rules, **changes) if isinstance(rules, str) else rules
    flags = sum(FLAG[b] for b in bonuses) | (sc.B_HEAVEN_EARTH if he else 0)
    out = sc.score_hand(counts, kind, tile, n, void, self_draw, flags, r.encode())
    return dict(zip(sc.COLUMN_NAMES, (int(x) for x in out), strict=True))


def pattern_of(text, rules="classic", **kw):
    p = kernel(text, rules, **kw)["pattern"]
    return None if p == sc.PAT_NONE else sc.PATTERN_NAMES[p]


# --------------------------------------------------------------------------------------------
# worked examples of docs/rules section 7

WORKED = [
    # hand, preset, self_draw, pattern, flush, roots, fan, units
    ("111m444m456p789m77p", "classic", False, "plain", 0, 0, 0, 1),
    ("111444m222999p66p", "classic", False, "all_pungs", 0, 0, 1, 2),
    ("123567234888s99s", "classic", False, "plain", 1, 0, 2, 4),
    ("11m22m99m44p66p88p99p", "classic", False, "seven_pairs", 0, 0, 2, 4),
    ("1111m99m44p66p88p99p", "classic", False, "seven_pairs", 0, 1, 3, 8),
    ("111444222999m66m", "classic", False, "all_pungs", 1, 0, 3, 8),
    ("111m123m444m999p66p", "classic", False, "plain", 0, 1, 1, 2),
    ("123456789m123m99m", "app", False, "plain", 1, 0, 1, 2),
    # the app seed's example: flush, self-drawn, one root: 2^2 = 4 units, 5 with the base unit
    ("111123456789m99m", "app", True, "plain", 1, 1, 2, 5),
]


@pytest.mark.parametrize(
    ("text", "preset", "self_draw", "pattern", "flush", "roots", "fan", "units"), WORKED
)
def test_worked_examples(text, preset, self_draw, pattern, flush, roots, fan, units):
    got = kernel(text, preset, self_draw=self_draw)
    assert sc.PATTERN_NAMES[got["pattern"]] == pattern
    assert (got["flush"], got["roots"], got["fan"], got["units"]) == (flush, roots, fan, units)
    assert got["fan_uncapped"] == fan
    assert got["terminals"] == 0


def test_app_seed_example_before_the_base_unit():
    assert kernel("111123456789m99m", "app")["units"] == 4  # won on a discard: no base unit


# --------------------------------------------------------------------------------------------
# hand-made cases: patterns, readings, modifiers

CASES = [
    # hand, preset, pattern, terminals, fan_uncapped, fan
    # golden hook: four melds (concealed kongs too), a single tile was paired
    ("11p|P2mP5mK8mC2p", "classic", "all_pungs", 0, 3, 3),  # off: all pungs 1 + 2 roots
    ("11p|P2mP5mK8mC2p", "baike", "golden_hook", 0, 4, 3),  # 2 + 2 roots, cap 3
    ("11p|P2mP5mK8mC2p", "app", "golden_hook", 0, 4, 4),
    ("11p|P2mP5mK8mC2p", "tfmj", "golden_hook", 0, 4, 3),
    ("99m|P3mP4mP5mP6m", "app", "golden_hook", 0, 3, 3),  # + flush 1
    ("55p|C1mC2mC3mC4m", "baike", "golden_hook", 0, 6, 3),
    # three melds are not a golden hook
    ("111m22p|P3mP5mP6m", "app", "all_pungs", 0, 1, 1),
    # 258 pungs: every tile of rank 2, 5 or 8
    ("222555m222888p55p", "classic", "pungs_258", 0, 2, 2),
    ("222555m222888p55p", "baike", "pungs_258", 0, 4, 3),
    ("222555m222888p55p", "app", "all_pungs", 0, 1, 1),  # off in app
    ("222555m222888p55p", "tfmj", "all_pungs", 0, 1, 1),
    ("22m|P2pP5mK8mC5p", "baike", "pungs_258", 0, 6, 3),  # both 258 and golden hook: the larger
    ("22m|P2pP5mK8mC5p", "classic", "pungs_258", 0, 4, 4),
    ("22m|P2pP5mK8mC5p", "app", "golden_hook", 0, 4, 4),
    # terminals: every group holds a 1 or a 9, exposed melds included
    ("123m789m999m11p|P9p", "classic", "plain", 1, 3, 3),  # 2 + 1 root (9p)
    ("123m789m999m11p|P9p", "app", "plain", 0, 1, 1),  # off in app
    ("123m789m999m11p|P5p", "classic", "plain", 0, 1, 1),  # 555p has no terminal; 9m root
    # readings: runs 123 x 3 (terminals) or triplets 111 222 333 (all pungs)
    ("111222333m11p999p", "classic", "plain", 1, 2, 2),
    ("111222333m11p999p", "app", "all_pungs", 0, 1, 1),
    ("111222333m44p999p", "classic", "all_pungs", 0, 1, 1),  # 44p: no terminal reading
    # seven pairs or standard
    ("112233m445566p77p", "classic", "seven_pairs", 0, 2, 2),
    ("112233m445566p77p", "app", "seven_pairs", 0, 1, 1),
    ("11112233m445566p", "classic", "seven_pairs", 0, 3, 3),  # dragon: + 1 root
    ("11223344556677m", "app", "seven_pairs", 0, 2, 2),  # flush 1 + seven pairs 1
    ("11223344556677m", "classic", "seven_pairs", 0, 4, 4),
    ("11122233344455m", "classic", "all_pungs", 0, 3, 3),  # runs 123 x 3 leave 44455
    # roots across hand and melds
    ("123m456m789m99m|P1m", "classic", "plain", 0, 3, 3),  # flush 2 + 1m root
    ("111m456m789m99m|K3m", "classic", "plain", 0, 3, 3),  # the kong is a root
    ("1111222233334m", "classic", None, 0, 0, 0),  # 13 tiles: not a complete hand
]


@pytest.mark.parametrize(("text", "preset", "pattern", "terminals", "uncapped", "fan"), CASES)
def test_hand_made_cases(text, preset, pattern, terminals, uncapped, fan):
    got = kernel(text, preset)
    if pattern is None:
        assert got == dict.fromkeys(sc.COLUMN_NAMES, 0) | {"pattern": sc.PAT_NONE}
        return
    assert sc.PATTERN_NAMES[got["pattern"]] == pattern
    assert (got["terminals"], got["fan_uncapped"], got["fan"]) == (terminals, uncapped, fan)
    assert got["units"] == 2 ** got["fan"]


@pytest.mark.parametrize(
    "text",
    [
        "111444m222999p66p",  # complete, void p
        "111m444p222999s66s",  # three suits
        "111m444m456p789m7p8s",  # incomplete (and three suits)
        "111m444m456p789m78p",  # incomplete
        "1111m222m44p66p88p9p",  # odd counts: not seven pairs, and no standard reading
    ],
)
def test_hands_that_do_not_win(text):
    counts, melds = parse(text)
    kind, tile, n = melds_to_arrays(melds)
    R = PRESETS["classic"].encode()
    void = 1 if text == "111444m222999p66p" else -1
    assert sc.score_hand(counts, kind, tile, n, void, True, 31, R) == (
        0,
        0,
        sc.PAT_NONE,
        0,
        0,
        0,
        0,
    )
    assert not sc.is_winning_hand(counts, kind, tile, n, void)


def test_fifth_copy_or_bad_meld_does_not_win():
    R = PRESETS["classic"].encode()
    counts, _ = parse("111444m222999p66p")
    kind, tile, n = melds_to_arrays([])
    bad = counts.copy()
    bad[0] = 5
    assert sc.score_hand(bad, kind, tile, n, -1, False, 0, R)[2] == sc.PAT_NONE
    counts, melds = parse("1m123m456m789m|P9m", sizes="any")  # 10 tiles + pung: wrong size
    kind, tile, n = melds_to_arrays(melds)
    assert sc.score_hand(counts, kind, tile, n, -1, False, 0, R)[2] == sc.PAT_NONE
    counts, melds = parse("11m123m456m789m|P9m")
    kind, tile, n = melds_to_arrays(melds)
    kind[0] = 7  # unknown meld kind
    assert sc.score_hand(counts, kind, tile, n, -1, False, 0, R)[2] == sc.PAT_NONE


# --------------------------------------------------------------------------------------------
# bonuses, self-draw, cap, heaven/earth


@pytest.mark.parametrize("bonus", sc.BONUS_NAMES)
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_each_situational_bonus_is_one_fan(bonus, preset):
    plain = kernel("111m444m456p789m77p", preset)
    got = kernel("111m444m456p789m77p", preset, bonuses=[bonus])
    assert got["fan_uncapped"] == plain["fan_uncapped"] + 1
    assert got["units"] == 2 * plain["units"]


def test_bonuses_add_up_and_are_capped():
    got = kernel("111m444m456p789m77p", "baike", bonuses=sc.BONUS_NAMES)
    assert (got["fan_uncapped"], got["fan"], got["units"]) == (4, 3, 8)
    got = kernel("111m444m456p789m77p", "classic", bonuses=["kong_flower", "last_tile"])
    assert (got["fan"], got["units"]) == (2, 4)


@pytest.mark.parametrize(("sdb", "fan", "units"), [("base", 1, 3), ("fan", 2, 4), ("none", 1, 2)])
def test_self_draw_bonus(sdb, fan, units):
    got = kernel("111444m222999p66p", "classic", self_draw=True, self_draw_bonus=sdb)
    assert (got["fan"], got["units"]) == (fan, units)
    assert kernel("111444m222999p66p", "classic", self_draw_bonus=sdb)["units"] == 2


def test_self_draw_fan_is_capped_but_base_unit_is_not():
    hand = "222555m222888p55p"  # baike: 258 pungs 4 -> cap 3
    got = kernel(hand, "baike", self_draw=True)
    assert (got["fan"], got["fan_uncapped"], got["units"]) == (3, 4, 9)
    got = kernel(hand, "baike", self_draw=True, self_draw_bonus="fan")
    assert (got["fan"], got["fan_uncapped"], got["units"]) == (3, 5, 8)


@pytest.mark.parametrize(("cap", "fan"), [(None, 5), (0, 0), (2, 2), (5, 5), (9, 5)])
def test_fan_cap(cap, fan):
    # flush 2 + all pungs 1 + kong flower + last tile = 5
    got = kernel("111444222999m66m", "classic", fan_cap=cap, bonuses=["last_tile", "kong_flower"])
    assert (got["fan_uncapped"], got["fan"], got["units"]) == (5, fan, 2**fan)


@pytest.mark.parametrize(
    ("preset", "hand", "fan", "units"),
    [
        ("baike", "111m444m456p789m77p", 3, 9),  # worth 0: max_fan 3 replaces it
        ("baike", "111444222999m66m", 3, 9),
        ("app", "111m444m456p789m77p", 5, 33),  # app: max_fan 5, no cap
        ("app", "11223344556677m", 5, 33),
        ("classic", "111m444m456p789m77p", 0, 2),  # normal: scored like any hand
        ("tfmj", "111444222999m66m", 3, 9),  # normal, cap 3
    ],
)
def test_heaven_earth(preset, hand, fan, units):
    got = kernel(hand, preset, he=True, self_draw=True)
    assert (got["fan"], got["units"]) == (fan, units)
    assert got["pattern"] != sc.PAT_NONE


def test_heaven_earth_max_is_not_capped_and_ignores_other_fan():
    got = kernel("111444222999m66m", "baike", he=True, max_fan=6, bonuses=["last_tile"])
    assert (got["fan"], got["fan_uncapped"], got["units"]) == (6, 6, 64)
    got = kernel("111444222999m66m", "baike", he=True, self_draw=True, self_draw_bonus="fan")
    assert got["fan"] == 3


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_scores_the_table(preset):
    """One hand per pattern, fan read from the preset's table (docs/rules section 7)."""
    r = PRESETS[preset]
    hook = r.fan_all_pungs if r.fan_golden_hook is None else r.fan_golden_hook
    p258 = r.fan_all_pungs if r.fan_pungs_258 is None else r.fan_pungs_258
    term = 0 if r.fan_terminals is None else r.fan_terminals
    cap = r.fan_cap if r.fan_cap is not None else 99
    expected = {
        "111m444m456p789m77p": r.fan_plain,
        "111444m222999p66p": r.fan_all_pungs,
        "11m22m99m44p66p88p99p": r.fan_seven_pairs,
        "11p|P2mP3mP4mP6p": hook,
        "22m222p|P5mP8mP5p": p258,
        "123m789m99m111p|P9p": r.fan_plain + term,
        "123567234888s99s": r.fan_plain + r.fan_flush,
    }
    for hand, fan in expected.items():
        got = kernel(hand, preset)
        assert got["fan_uncapped"] == fan, hand
        assert got["fan"] == min(fan, cap), hand


# --------------------------------------------------------------------------------------------
# batch and ready-value kernels


def test_batch_equals_single_calls():
    hands = ["111m444m456p789m77p", "11p|P2mP5mK8mC2p", "11223344556677m", "111m444m456p789m78p"]
    R = PRESETS["baike"].encode()
    n = len(hands)
    concealed = np.zeros((n, 27), np.int8)
    kind = np.zeros((n, 4), np.int8)
    tile = np.full((n, 4), -1, np.int8)
    n_melds = np.zeros(n, np.int8)
    void = np.array([2, 2, 1, -1], np.int8)
    self_draw = np.array([True, False, True, False])
    flags = np.array([1, 8, 16, 0], np.int8)
    for i, text in enumerate(hands):
        counts, melds = parse(text)
        concealed[i] = counts
        kind[i], tile[i], n_melds[i] = melds_to_arrays(melds)
    out = np.zeros((n, sc.N_COLS), np.int64)
    sc.score_batch(concealed, kind, tile, n_melds, void, self_draw, flags, R, out)
    for i in range(n):
        single = sc.score_hand(
            concealed[i], kind[i], tile[i], n_melds[i], void[i], self_draw[i], flags[i], R
        )
        assert tuple(out[i]) == single
    assert out[3, sc.COL_PATTERN] == sc.PAT_NONE


@pytest.mark.parametrize(
    ("hand", "preset", "value"),
    [
        ("1112345678999m", "classic", 4),  # nine gates: worst wait flush only (min)
        ("1112345678999m", "baike", 8),  # best wait: flush + root, cap 3
        ("1112345678999m", "app", 4),  # flush 1 + root
        ("111m444m456p789m7p", "classic", 1),  # 4p or 7p, plain
        ("1357m2468m1357p9p", "classic", 0),  # not ready
        ("111m444m999p6p|P2p", "classic", 2),  # 6p: all pungs
        ("2m|P2mP5mK3pC7p", "classic", 0),  # the only wait would be a fifth 2m
        ("111m456m789m2p|P2p", "classic", 0),  # 2p would be a fifth copy too
        ("1112345678999m", "qq", 8),  # best: flush + root
    ],
)
def test_ready_value_cases(hand, preset, value):
    counts, melds = parse(hand)
    kind, tile, n = melds_to_arrays(melds)
    r = PRESETS[preset]
    suits = {t // 9 for t in np.flatnonzero(counts)} | {m.tile // 9 for m in melds}
    void = min({0, 1, 2} - suits)
    got = sc.ready_value(counts.copy(), kind, tile, n, void, r.encode())
    assert got == value
    assert got == reference.ready_value(counts, melds, rules=r, void=void)


def test_ready_value_batch_equals_single_calls():
    hands = ["1112345678999m", "111m444m456p789m7p", "1357m2468m1357p9p", "111m444m999p6p|P2p"]
    R = PRESETS["qq"].encode()
    n = len(hands)
    concealed = np.zeros((n, 27), np.int8)
    kind = np.zeros((n, 4), np.int8)
    tile = np.full((n, 4), -1, np.int8)
    n_melds = np.zeros(n, np.int8)
    void = np.array([1, 2, 2, 2], np.int8)
    for i, text in enumerate(hands):
        counts, melds = parse(text)
        concealed[i] = counts
        kind[i], tile[i], n_melds[i] = melds_to_arrays(melds)
    out = np.zeros(n, np.int64)
    sc.ready_value_batch(concealed, kind, tile, n_melds, void, R, out)
    assert out.tolist() == [8, 1, 0, 2]
    for i in range(n):
        assert out[i] == sc.ready_value(concealed[i], kind[i], tile[i], n_melds[i], void[i], R)


def test_ready_value_restores_the_hand():
    counts, melds = parse("1112345678999m")
    kind, tile, n = melds_to_arrays(melds)
    before = counts.copy()
    sc.ready_value(counts, kind, tile, n, 1, PRESETS["classic"].encode())
    assert np.array_equal(counts, before)


# --------------------------------------------------------------------------------------------
# property tests against the reference


@st.composite
def hands(draw, max_suits=2, complete=True):
    """A random hand (counts, melds): 0-4 melds of any kind, sets and a pair (or seven pairs)
    of at most ``max_suits`` suits from a rank palette (all ranks, 2-5-8 or terminals)."""
    suits = draw(st.lists(st.integers(0, 2), min_size=1, max_size=max_suits, unique=True))
    palette = draw(
        st.sampled_from([tuple(range(9)), (1, 4, 7), (0, 8), (0, 1, 2, 6, 7, 8), (0, 1, 2, 3)])
    )
    tiles = [s * 9 + r for s in suits for r in palette]
    starts = [s * 9 + r for s in suits for r in palette if r <= 6]
    total = np.zeros(27, np.int64)
    counts = np.zeros(27, np.int64)
    melds: list[Meld] = []

    def room(t, k):
        return total[t] + k <= 4

    if draw(st.integers(0, 9)) == 0:  # seven pairs
        for _ in range(7):
            t = draw(st.sampled_from([t for t in tiles if room(t, 2)] or [-1]))
            assume(t >= 0)
            counts[t] += 2
            total[t] += 2
    else:
        for _ in range(draw(st.integers(0, 4))):
            kind = draw(st.sampled_from("PKC"))
            size = 3 if kind == "P" else 4
            used = {m.tile for m in melds}
            t = draw(st.sampled_from([t for t in tiles if room(t, size) and t not in used] or [-1]))
            assume(t >= 0)
            melds.append(Meld(kind, t))
            total[t] += size
        for _ in range(4 - len(melds)):
            runs = [t for t in starts if room(t, 1) and room(t + 1, 1) and room(t + 2, 1)]
            pungs = [t for t in tiles if room(t, 3)]
            if runs and (not pungs or draw(st.booleans())):
                t = draw(st.sampled_from(runs))
                counts[t : t + 3] += 1
                total[t : t + 3] += 1
            else:
                t = draw(st.sampled_from(pungs or [-1]))
                assume(t >= 0)
                counts[t] += 3
                total[t] += 3
        t = draw(st.sampled_from([t for t in tiles if room(t, 2)] or [-1]))
        assume(t >= 0)
        counts[t] += 2
        total[t] += 2
    if not complete:  # move one concealed tile elsewhere (often no longer complete)
        src = draw(st.sampled_from(list(np.flatnonzero(counts))))
        dst = draw(st.sampled_from([t for t in range(27) if total[t] < 4 and t != src] or [src]))
        counts[src] -= 1
        counts[dst] += 1
        total[src] -= 1
        total[dst] += 1
    return counts.astype(np.int8), tuple(melds)


def _flags_and_names(flags):
    return [b for b, f in FLAG.items() if flags & f]


def _as_tuple(result):
    if result is None:
        return (0, 0, sc.PAT_NONE, 0, 0, 0, 0)
    return (
        result.fan,
        result.fan_uncapped,
        sc.PATTERN_NAMES.index(result.pattern),
        int(result.flush),
        int(result.terminals),
        result.roots,
        result.units,
    )


def _check_against_reference(hand, rules, void, self_draw, flags):
    counts, melds = hand
    kind, tile, n = melds_to_arrays(melds)
    got = sc.score_hand(counts, kind, tile, n, void, self_draw, flags, rules.encode())
    want = reference.score(
        counts,
        melds,
        rules=rules,
        void=void,
        self_draw=self_draw,
        bonuses=_flags_and_names(flags),
        heaven_earth=bool(flags & sc.B_HEAVEN_EARTH),
    )
    assert tuple(int(x) for x in got) == _as_tuple(want), format(counts, melds)
    assert sc.is_winning_hand(counts, kind, tile, n, void) == (want is not None)


PROPERTY = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@PROPERTY
@given(hand=hands(), void=st.integers(-1, 2), self_draw=st.booleans(), flags=st.integers(0, 31))
def test_kernel_equals_reference_on_complete_hands(preset, hand, void, self_draw, flags):
    _check_against_reference(hand, PRESETS[preset], void, self_draw, flags)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(hand=hands(max_suits=3, complete=False), void=st.integers(-1, 2), flags=st.integers(0, 31))
def test_kernel_equals_reference_on_other_hands(preset, hand, void, flags):
    _check_against_reference(hand, PRESETS[preset], void, True, flags)


@PROPERTY
@given(
    hand=hands(),
    self_draw=st.booleans(),
    flags=st.integers(0, 31),
    fans=st.tuples(*[st.sampled_from([None, 0, 1, 2, 3, 5])] * 4),
    plain=st.integers(0, 3),
    sdb=st.sampled_from(["base", "fan", "none"]),
    he=st.sampled_from(["normal", "max"]),
    cap=st.sampled_from([None, 0, 2, 3, 4]),
)
def test_kernel_equals_reference_on_random_rules(hand, self_draw, flags, fans, plain, sdb, he, cap):
    hook, p258, term, max_fan = fans
    rules = get_rules(
        "classic",
        fan_plain=plain,
        fan_golden_hook=hook,
        fan_pungs_258=p258,
        fan_terminals=term,
        fan_seven_pairs=plain + 1,
        self_draw_bonus=sdb,
        heaven_earth=he,
        max_fan=4 if max_fan is None else max_fan,
        fan_cap=cap,
    )
    _check_against_reference(hand, rules, -1, self_draw, flags)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(hand=hands(), data=st.data())
def test_ready_value_equals_reference(preset, hand, data):
    counts, melds = hand
    counts = counts.copy()
    counts[data.draw(st.sampled_from(list(np.flatnonzero(counts))))] -= 1  # a ready hand
    if data.draw(st.booleans()):  # and sometimes one that may not be
        src = data.draw(st.sampled_from(list(np.flatnonzero(counts))))
        counts[src] -= 1
        counts[data.draw(st.sampled_from([t for t in range(27) if counts[t] < 3]))] += 1
    total = counts.astype(np.int64)
    for m in melds:
        total[m.tile] += 3 if m.kind == "P" else 4
    assume(total.max() <= 4)
    void = data.draw(st.integers(-1, 2))
    rules = PRESETS[preset]
    kind, tile, n = melds_to_arrays(melds)
    got = sc.ready_value(counts.copy(), kind, tile, n, void, rules.encode())
    assert got == reference.ready_value(counts, melds, rules=rules, void=void)


# --------------------------------------------------------------------------------------------
# the Python API


def test_score_api_winning_hand():
    r = score("111444222999m66m", "classic", self_draw=True, bonuses=["last_tile"])
    assert isinstance(r, ScoreResult)
    assert r.to_dict() == {
        "win": True,
        "fan": 4,
        "fan_uncapped": 4,
        "pattern": "all_pungs",
        "flush": True,
        "terminals": False,
        "roots": 0,
        "bonuses": ["last_tile"],
        "units": 17,
    }
    assert r.void == 1  # the first suit the hand lacks


def test_score_api_accepts_a_hand_and_overrides():
    hand = parse("222555m222888p55p")
    assert score(hand, "baike").fan == 3
    assert score(hand, "baike", overrides=["fan_cap=none"]).fan == 4
    # a tie with all pungs: the more specific pattern is named, as in the reference
    assert score(hand, "baike", overrides={"fan_pungs_258": 1}).pattern == "pungs_258"
    assert score(hand, get_rules("app")).pattern == "all_pungs"


def test_score_api_heaven_earth_is_listed():
    r = score("111m444m456p789m77p", "app", heaven_earth=True, self_draw=True)
    assert (r.fan, r.units, r.bonuses) == (5, 33, ("heaven_earth",))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"hand": "111m444p222999s66s"}, "holds tiles of all three suits and cannot win"),
        ({"hand": "111444m222999p66p", "void": "p"}, "void suit 'p'"),
        ({"hand": "111444m222999p66p", "void": 1}, "void suit 'p'"),
        ({"hand": "111444m222999p66p", "void": "x"}, "void: 'x'"),
        ({"hand": "111444m222999p66p", "bonuses": ["double"]}, "unknown bonus 'double'"),
        ({"hand": "111444m222999p66p", "bonuses": "last_tile"}, "list of names"),
        ({"hand": "111444m222999p66p", "bonuses": ["last_tile"] * 2}, "more than once"),
        (
            {"hand": "111444m222999p66p", "bonuses": ["kong_discard"], "self_draw": True},
            "'kong_discard' is a win on a discard",
        ),
        (
            {"hand": "111444m222999p66p", "bonuses": ["robbed_kong"], "self_draw": True},
            "'robbed_kong' is a win on a discard",
        ),
        (
            {"hand": "111444m222999p66p", "bonuses": ["kong_flower"], "rules": "baike"},
            "self-drawn win under direct_kong_flower",
        ),
        (
            {"hand": "111444m222999p66p", "bonuses": ["kong_flower", "robbed_kong"]},
            "cannot happen together",
        ),
        ({"hand": "111444m222999p66q"}, "unknown character 'q'"),
        ({"hand": "111444m222999p66p", "rules": "nope"}, "unknown preset 'nope'"),
        ({"hand": 42}, "hand must be notation"),
    ],
)
def test_score_api_errors(kwargs, match):
    kwargs = dict(kwargs)
    hand = kwargs.pop("hand")
    rules = kwargs.pop("rules", "classic")
    with pytest.raises(ValueError, match=match):
        score(hand, rules, **kwargs)


def test_kong_flower_on_a_discard_is_allowed_when_the_rules_say_so():
    r = score("111444m222999p66p", "classic", bonuses=["kong_flower"])
    assert (r.fan, r.units) == (2, 4)


def test_score_api_not_winning():
    r = score("111m444m456p789m78p")
    assert not r.win and r.shanten == 0 and r.waits is None
    assert r.to_dict() == {"win": False, "shanten": 0}
    r = score("111m444m456p789m7p")
    assert r.to_dict() == {"win": False, "shanten": 0, "waits": ["4p", "7p"]}
    r = score("1112345678999m")
    assert r.waits == tuple(f"{k}m" for k in range(1, 10))
    r = score("1357m2468m1357p9p")
    assert r.shanten > 0 and r.waits == ()


def test_ready_value_api():
    assert ready_value("1112345678999m", "classic") == 4
    assert ready_value("1112345678999m", "baike") == 8
    assert ready_value("111m444m456p789m7p", overrides=["ready_pay=max"]) == 1
    assert ready_value("1357m2468m1357p9p") == 0
    with pytest.raises(ValueError, match="a waiting hand has 13"):
        ready_value("111m444m456p789m77p")
