"""Tests of the pure-Python oracles in ``simcore.hand.reference`` against docs/rules sections
5-7."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from simcore.hand import reference as ref
from simcore.rules import get_rules
from simcore.tiles import Meld, parse, tile_index


def hand(text: str) -> tuple[np.ndarray, tuple[Meld, ...]]:
    counts, melds = parse(text, sizes="any")
    return counts.astype(np.int64), melds


def scored(text: str, preset: str = "classic", **kw: object) -> ref.ScoreResult | None:
    counts, melds = hand(text)
    rules = kw.pop("rules", None) or get_rules(preset)
    return ref.score(counts, melds, rules=rules, **kw)


def tiles(text: str) -> list[int]:
    """Tile types of a notation like ``"4m 7p"`` in order."""
    return [tile_index(t) for t in text.split()]


# --------------------------------------------------------------------------------------------
# worked examples of docs/rules section 7 and the patterns

# (preset, hand, self_draw, pattern, fan, units)
WORKED = [
    ("classic", "111m444m456p789m77p", False, "plain", 0, 1),
    ("classic", "111444m222999p66p", False, "all_pungs", 1, 2),
    ("classic", "123567234888s99s", False, "plain", 2, 4),  # flush
    ("classic", "11m22m99m44p66p88p99p", False, "seven_pairs", 2, 4),
    ("classic", "1111m99m44p66p88p99p", False, "seven_pairs", 3, 8),  # dragon seven pairs
    ("classic", "111444222999m66m", False, "all_pungs", 3, 8),  # flush all pungs
    ("classic", "111m123m444m999p66p", False, "plain", 1, 2),  # one root
    ("app", "123456789m123m99m", False, "plain", 1, 2),  # app flush is +1
    ("app", "1111m23456789m99m", False, "plain", 2, 4),  # flush + root
    ("app", "1111m23456789m99m", True, "plain", 2, 5),  # ... self-drawn: + the base unit
]


@pytest.mark.parametrize(("preset", "text", "self_draw", "pattern", "fan", "units"), WORKED)
def test_worked_examples(
    preset: str, text: str, self_draw: bool, pattern: str, fan: int, units: int
) -> None:
    result = scored(text, preset, self_draw=self_draw)
    assert result is not None
    assert (result.pattern, result.fan, result.units) == (pattern, fan, units)


def test_worked_example_fields() -> None:
    assert scored("1111m99m44p66p88p99p") == ref.ScoreResult(
        fan=3,
        fan_uncapped=3,
        pattern="seven_pairs",
        flush=False,
        terminals=False,
        roots=1,
        bonuses=(),
        units=8,
    )
    result = scored("123567234888s99s")
    assert result is not None and result.flush and result.roots == 0


# (hand, preset, pattern, fan, fan_uncapped)
PATTERNS = [
    # golden hook: four declared pungs/kongs, the win pairs the single tile
    ("55s|P1mP2mP3mP4m", "baike", "golden_hook", 2, 2),
    ("55s|P1mP2mP3mP4m", "app", "golden_hook", 2, 2),
    ("55s|P1mP2mP3mP4m", "classic", "all_pungs", 1, 1),  # off: scores as all pungs
    ("55s|P1mP2mK3mC4m", "classic", "all_pungs", 3, 3),  # kongs are roots, concealed too
    ("55s|P1mP2mK3mC4m", "baike", "golden_hook", 3, 4),  # 2 + 2 roots, cap 3
    ("55s|P1mP2mK3mC4m", "app", "golden_hook", 4, 4),
    ("222s777s55s|P1mP2m", "baike", "all_pungs", 1, 1),  # only two melds declared
    # 258 pungs
    ("222555m222888p55p", "classic", "pungs_258", 2, 2),
    ("222555m222888p55p", "baike", "pungs_258", 3, 4),
    ("222555m222888p55p", "app", "all_pungs", 1, 1),  # off: scores as all pungs
    ("222555m222888p55p", "tfmj", "all_pungs", 1, 1),
    ("222555m222888p54p", None, None, None, None),  # not complete
    # golden hook and 258 at once: the larger pattern, never both
    ("55s|P2mP5mP8mP2s", "classic", "pungs_258", 2, 2),
    ("55s|P2mP5mP8mP2s", "baike", "pungs_258", 3, 4),
    ("55s|P2mP5mP8mP2s", "app", "golden_hook", 2, 2),
    # terminals: every meld and the pair hold a 1 or a 9
    ("12378999m111999p", "classic", "plain", 2, 2),
    ("12378999m111999p", "app", "plain", 0, 0),  # terminals off
    ("123123m789p99p|P9m", "classic", "plain", 2, 2),  # exposed meld counts
    ("123123m789p99p|P8m", "classic", "plain", 0, 0),
    # the best reading: three runs 123m with terminals beat three triplets
    ("11122233378999m", "classic", "plain", 4, 4),
    ("11122233378999m", "baike", "plain", 3, 4),  # cap 3
    # the best reading: three triplets (all pungs) beat three runs
    ("111222333m555p77p", "classic", "all_pungs", 1, 1),
]


@pytest.mark.parametrize(("text", "preset", "pattern", "fan", "uncapped"), PATTERNS)
def test_patterns(
    text: str, preset: str | None, pattern: str | None, fan: int | None, uncapped: int | None
) -> None:
    counts, melds = hand(text)
    if preset is None:
        assert not ref.is_complete(counts, melds)
        return
    result = ref.score(counts, melds, rules=get_rules(preset))
    assert result is not None
    assert (result.pattern, result.fan, result.fan_uncapped) == (pattern, fan, uncapped)
    assert result.units == 2**fan


def test_terminals_flag_follows_the_chosen_reading() -> None:
    best = scored("11122233378999m")
    assert best is not None and best.terminals and best.flush
    pungs = scored("111222333m555p77p")
    assert pungs is not None and not pungs.terminals


def test_258_uncapped_value() -> None:
    result = scored("222555m222888p55p", rules=get_rules("baike", fan_cap=None))
    assert result is not None and (result.pattern, result.fan) == ("pungs_258", 4)


def test_seven_pairs_beats_plain_reading() -> None:
    # 1122334455667 7m: seven pairs (2) + flush (2) vs runs + flush; seven pairs wins
    result = scored("11223344556677m")
    assert result is not None and (result.pattern, result.fan) == ("seven_pairs", 4)
    assert not result.terminals  # terminals never applies to seven pairs


def test_bonuses_add_up() -> None:
    result = scored("111m444m456p789m77p", bonuses=("kong_flower", "last_tile"), self_draw=True)
    assert result is not None
    assert (result.fan, result.bonuses, result.units) == (2, ("kong_flower", "last_tile"), 5)
    capped = scored(
        "111444222999m66m", "baike", bonuses=("kong_discard", "robbed_kong", "last_tile")
    )
    assert capped is not None and (capped.fan, capped.fan_uncapped, capped.units) == (3, 6, 8)


@pytest.mark.parametrize(
    ("mode", "self_draw", "fan", "units"),
    [
        ("base", False, 0, 1),
        ("base", True, 0, 2),
        ("fan", True, 1, 2),
        ("fan", False, 0, 1),
        ("none", True, 0, 1),
    ],
)
def test_self_draw_bonus(mode: str, self_draw: bool, fan: int, units: int) -> None:
    rules = get_rules("classic", self_draw_bonus=mode)
    result = scored("111m444m456p789m77p", rules=rules, self_draw=self_draw)
    assert result is not None and (result.fan, result.units) == (fan, units)


def test_self_draw_fan_is_before_the_cap() -> None:
    rules = get_rules("baike", self_draw_bonus="fan")
    result = scored("111444222999m66m", rules=rules, self_draw=True)
    assert result is not None and (result.fan, result.fan_uncapped, result.units) == (3, 4, 8)


def test_heaven_earth() -> None:
    plain = "111m444m456p789m77p"
    baike = scored(plain, "baike", heaven_earth=True, self_draw=True)
    assert baike is not None and (baike.fan, baike.fan_uncapped, baike.units) == (3, 3, 9)
    app = scored(plain, "app", heaven_earth=True, self_draw=True)
    assert app is not None and (app.fan, app.fan_uncapped, app.units) == (5, 5, 33)
    # max_fan replaces the hand's own fan, even a larger uncapped one
    big = scored("11122233378999m", "baike", heaven_earth=True)
    assert big is not None and (big.fan, big.fan_uncapped, big.pattern) == (3, 3, "plain")
    # normal: scored like any hand
    classic = scored(plain, "classic", heaven_earth=True, self_draw=True)
    assert classic is not None and (classic.fan, classic.units) == (0, 2)
    assert scored("111m444m456p789m77s", "baike", heaven_earth=True) is None


def test_non_winning_hands_score_none() -> None:
    assert scored("111m444m456p789s77p") is None  # three suits
    assert scored("111m444m456p789m77p", void=1) is None  # holds the void suit
    assert scored("111m444m456p789m77p", void=2) is not None
    assert scored("456m789m22m|P5pP1m", void=1) is None  # void tile in a meld
    assert scored("11m22m99m44p66p88p99p", void=0) is None


def test_score_rejects_bad_input() -> None:
    counts, melds = hand("111m444m456p789m77p")
    rules = get_rules()
    with pytest.raises(ValueError, match="unknown bonus 'double'"):
        ref.score(counts, melds, rules=rules, bonuses=("double",))
    with pytest.raises(ValueError, match="'last_tile' given more than once"):
        ref.score(counts, melds, rules=rules, bonuses=("last_tile", "last_tile"))
    counts[0] -= 1
    with pytest.raises(ValueError, match="has 14 concealed tiles, got 13"):
        ref.score(counts, melds, rules=rules)


# --------------------------------------------------------------------------------------------
# win shape


def test_is_complete() -> None:
    assert ref.is_complete(*hand("111m444m456p789m77p"))
    assert not ref.is_complete(*hand("111m444m456p789s77p"))  # three suits never win
    assert not ref.is_complete(*hand("11m22m99m44p66p88s99s"))
    assert ref.is_complete(*hand("456m789m22m|P5pP1m"), void=2)
    assert not ref.is_complete(*hand("456m789m22m|P5pP1m"), void=1)
    assert not ref.is_complete(*hand("111m444m456p789m7p"))  # 13 tiles: not complete
    assert ref.is_complete(*hand("55s|C1mC2mK3mP4m"))
    assert ref.is_seven_pairs(hand("1111m99m44p66p88p99p")[0], 0)
    assert not ref.is_seven_pairs(hand("1111m99m44p66p88p99p")[0], 1)


def test_standard_readings() -> None:
    counts, _ = hand("11122233378999m")
    readings = ref.standard_readings(counts, 0)
    assert len(readings) == 2
    assert {r.melds for r in readings} == {
        (("chow", 0), ("chow", 0), ("chow", 0), ("chow", 6)),
        (("pung", 0), ("pung", 1), ("pung", 2), ("chow", 6)),
    }
    # the same groups found in different orders are one reading
    counts, _ = hand("11112233m456p789p")
    assert ref.standard_readings(counts, 0) == [
        ref.Reading((("chow", 0), ("chow", 0), ("chow", 12), ("chow", 15)), 0)
    ]
    assert ref.standard_readings(hand("11m22m99m44p66p88p99p")[0], 0) == []


def test_input_validation() -> None:
    counts, _ = hand("111m444m456p789m77p")
    with pytest.raises(ValueError, match="27 integers"):
        ref.is_complete(counts[:26])
    bad = counts.copy()
    bad[3] = 5
    with pytest.raises(ValueError, match="count of 4m must be 0..4, got 5"):
        ref.shanten(bad)
    with pytest.raises(ValueError, match="void must be -1, None or a suit 0..2, got 3"):
        ref.is_complete(counts, (), 3)
    with pytest.raises(ValueError, match="meld kind 'X'"):
        ref.is_complete(counts, [("X", 3)])
    with pytest.raises(ValueError, match="6 copies of 1m"):
        ref.is_complete(hand("11m444m456p789m")[0], [Meld("K", 0)])
    with pytest.raises(ValueError, match="14 concealed tiles with 1 melds"):
        ref.shanten(counts, 1)
    with pytest.raises(ValueError, match="kind must be"):
        ref.shanten(counts, kind="thirteen_orphans")
    with pytest.raises(ValueError, match="n_melds must be 0..4, got 5"):
        ref.shanten_standard(counts, 5)


# --------------------------------------------------------------------------------------------
# shanten

# (hand, void, standard, seven pairs)
SHANTEN = [
    ("111m444m456p789m77p", -1, -1, 3),
    ("111m444m456p789m7p", -1, 0, 4),
    # the four 1m cannot make a triplet and a pair (five copies): two tiles away, not ready
    ("1111m123p456p789p", -1, 1, 4),
    ("1111m2m456p789p99p", -1, 0, 3),
    # void tiles never help: the 9 m tiles need 5 more
    ("111m444m456p789m77p", 1, 4, 4),
    ("11m22m99m44p66p88p99p", -1, 3, -1),
    # only the 8 p tiles help: at least 6 to add for either shape
    ("11m22m99m44p66p88p99p", 0, 5, 5),
    ("1111m99m44p66p88p99p", -1, 2, -1),  # four identical are two pairs
    ("1111m99m44p66p88p9p", -1, 2, 0),
    ("111m22m33m44m55m66m", -1, 0, 0),  # seven pairs on the fourth 1m
    ("111m444m456p789s77p", -1, -1, 3),  # three suits: still -1 (shape only)
    ("123456789m", -1, 4, 6),  # fewer tiles: still tiles-to-add minus one
]


@pytest.mark.parametrize(("text", "void", "standard", "pairs"), SHANTEN)
def test_shanten_examples(text: str, void: int, standard: int, pairs: int) -> None:
    counts, melds = hand(text)
    assert ref.shanten_standard(counts, len(melds), void) == standard
    assert ref.shanten_seven_pairs(counts, void) == pairs
    assert ref.shanten(counts, len(melds), void) == min(standard, pairs)
    assert ref.shanten(counts, len(melds), void, kind="standard") == standard
    assert ref.shanten(counts, len(melds), void, kind="seven_pairs") == pairs


def test_shanten_with_melds() -> None:
    counts, melds = hand("23m456p789p99p|K1m")
    assert ref.shanten(counts, len(melds)) == 0
    assert ref.shanten_seven_pairs(counts, -1, len(melds)) == ref.NO_SHAPE == 99
    counts, melds = hand("5s|P1mP2mK3mC4m")
    assert ref.shanten(counts, len(melds)) == 0
    assert ref.shanten(counts + (np.arange(27) == 22), len(melds)) == -1


def _random_hands(n: int, size: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.arange(27), 4)
    return [np.bincount(rng.permutation(wall)[:size], minlength=27) for _ in range(n)]


def test_shanten_zero_iff_one_tile_completes() -> None:
    # the enumeration (shanten) against the recursion (standard_readings) on random hands,
    # including hands one or two tiles off a complete one
    hands = _random_hands(60, 13, 7)
    rng = np.random.default_rng(8)
    for c in _random_hands(60, 14, 9):
        readings = ref.standard_readings(c, 0)
        assert (ref.shanten_standard(c) == -1) == bool(readings)
        assert (ref.shanten_seven_pairs(c) == -1) == ref.is_seven_pairs(c, 0)
    for trial in range(60):
        c = _complete_shape(rng)
        c[rng.choice(np.flatnonzero(c))] -= 1
        if trial % 2:  # swap a tile: usually one step further
            c[rng.choice(np.flatnonzero(c))] -= 1
            c[rng.choice(np.flatnonzero(c < 4))] += 1
        hands.append(c)
    for c in hands:
        completes = any(
            ref.standard_readings(c + (np.arange(27) == t), 0) for t in range(27) if c[t] < 4
        )
        assert (ref.shanten_standard(c) == 0) == completes, c


def _complete_shape(rng: np.random.Generator) -> np.ndarray:
    """A random standard shape of 14 tiles (any suits), at most 4 copies each."""
    while True:
        c = np.zeros(27, dtype=np.int64)
        for _ in range(4):
            t = int(rng.integers(27))
            if rng.random() < 0.5 or t % 9 > 6:
                c[t] += 3
            else:
                c[t : t + 3] += 1
        c[int(rng.integers(27))] += 2
        if c.max() <= 4:
            return c


def test_shanten_matches_mahjong_library() -> None:
    shanten_lib = pytest.importorskip("mahjong.shanten").Shanten()
    for c in _random_hands(150, 13, 11) + _random_hands(50, 14, 12):
        expected = shanten_lib.calculate_shanten_for_regular_hand([int(x) for x in c] + [0] * 7)
        assert ref.shanten_standard(c) == expected, c


# --------------------------------------------------------------------------------------------
# waits, ready value, dead wait


@pytest.mark.parametrize(
    ("text", "void", "expected"),
    [
        ("1112345678999m", -1, "1m 2m 3m 4m 5m 6m 7m 8m 9m"),  # nine gates
        ("111m444m456p789m7p", 2, "4p 7p"),
        ("111m444m456p789m7p", 1, ""),  # holds the void suit
        ("111m444m456p789s7p", -1, ""),  # three suits
        ("23m456p789p99p|P1m", -1, "1m 4m"),
        ("23m456p789p99p|K1m", -1, "4m"),  # no fifth 1m
        ("1111m23m456p789p9p", -1, "3p 6p 9p"),  # concealed four: no fifth 1m either
        ("1111m123p456p789p", -1, ""),
        # 6m seven pairs; 2m 111 123 22 345 456; 3m 11 123 123 345 456; 5m 111 123 234 456 55
        ("1111m22m33m44m55m6m", -1, "2m 3m 5m 6m"),
        ("5s|P1mP2mK3mC4m", -1, "5s"),
    ],
)
def test_waits(text: str, void: int, expected: str) -> None:
    assert ref.waits(*hand(text), void) == tiles(expected)


def test_waits_rejects_wrong_size() -> None:
    with pytest.raises(ValueError, match="has 13 concealed tiles, got 14"):
        ref.waits(*hand("111m444m456p789m77p"))


def test_ready_value_min_max() -> None:
    # waits 4m (444m 456m: plain + a root, 2 units), 7m (444m 567m 789m: 1 unit) and
    # 5p (555p, 44m eyes: 1 unit)
    counts, melds = hand("456m789m999p44m55p")
    assert ref.waits(counts, melds) == tiles("4m 7m 5p")
    assert ref.ready_value(counts, melds, rules=get_rules("classic")) == 1  # ready_pay min
    assert ref.ready_value(counts, melds, rules=get_rules("baike")) == 2  # ready_pay max
    # nine gates: 2 fan on most tiles, 3 on 1m and 9m (a root); baike caps nothing here
    counts, melds = hand("1112345678999m")
    assert ref.ready_value(counts, melds, rules=get_rules("classic")) == 4
    assert ref.ready_value(counts, melds, rules=get_rules("baike")) == 8
    # capped
    counts, melds = hand("1112223337899m")
    assert ref.ready_value(counts, melds, rules=get_rules("classic", ready_pay="max")) == 16
    assert ref.ready_value(counts, melds, rules=get_rules("baike")) == 8
    # not ready, or ready only while holding the void suit
    assert ref.ready_value(*hand("1111m123p456p789p"), rules=get_rules()) == 0
    assert ref.ready_value(*hand("111m444m456p789m7p"), rules=get_rules(), void=1) == 0


def test_dead_wait() -> None:
    counts, melds = hand("456m789m999p44m55p")
    own = counts.copy()
    visible = own.copy()
    visible[tile_index("4m")] = 4
    visible[tile_index("7m")] = 4
    assert not ref.is_dead_wait(counts, melds, -1, visible)  # 5p still live
    visible[tile_index("5p")] = 4
    assert ref.is_dead_wait(counts, melds, -1, visible)
    # a hand that is not ready is not a dead wait
    counts, melds = hand("1111m123p456p789p")
    assert not ref.is_dead_wait(counts, melds, -1, np.full(27, 4))
    with pytest.raises(ValueError, match="visible shows 0 of 1m but the player holds 4"):
        ref.is_dead_wait(counts, melds, -1, np.zeros(27, dtype=np.int64))
    # the fifth copy never counts: only 4m is a wait here
    counts, melds = hand("23m456p789p99p|K1m")
    visible = counts.copy()
    visible[tile_index("1m")] = 4
    visible[tile_index("4m")] = 4
    assert ref.is_dead_wait(counts, melds, -1, visible)


# --------------------------------------------------------------------------------------------
# property tests: random complete hands in at most two suits


@st.composite
def complete_hands(draw: st.DrawFn) -> tuple[np.ndarray, tuple[Meld, ...], int]:
    """A complete hand: random melds + a pair in one or two suits, some pungs declared."""
    suits = draw(st.lists(st.integers(0, 2), min_size=1, max_size=2, unique=True))
    tile = st.builds(lambda s, r: 9 * s + r, st.sampled_from(suits), st.integers(0, 8))
    groups = draw(
        st.lists(st.tuples(st.sampled_from(["pung", "chow"]), tile), min_size=4, max_size=4)
    )
    groups = [("pung", t) if k == "chow" and t % 9 > 6 else (k, t) for k, t in groups]
    pair = draw(tile)
    kinds = draw(st.lists(st.sampled_from(["", "P", "K", "C"]), min_size=4, max_size=4))
    counts = np.zeros(27, dtype=np.int64)
    total = np.zeros(27, dtype=np.int64)
    melds = []
    for (kind, t), declared in zip(groups, kinds, strict=True):
        if kind == "pung" and declared:
            melds.append(Meld(declared, t))
            total[t] += 3 if declared == "P" else 4
        else:
            span = [t] * 3 if kind == "pung" else [t, t + 1, t + 2]
            for x in span:
                counts[x] += 1
                total[x] += 1
    counts[pair] += 2
    total[pair] += 2
    assume(total.max() <= 4)
    unused = [s for s in range(3) if not any(total[9 * s : 9 * s + 9])]
    void = draw(st.sampled_from([-1, *unused]))
    return counts, tuple(melds), void


@settings(max_examples=40, deadline=None)
@given(complete_hands())
def test_random_complete_hands(case: tuple[np.ndarray, tuple[Meld, ...], int]) -> None:
    counts, melds, void = case
    k = len(melds)
    assert ref.is_complete(counts, melds, void)
    assert ref.shanten(counts, k, void) == -1
    assert ref.shanten_standard(counts, k, void) == -1
    assert ref.score(counts, melds, rules=get_rules("baike"), void=void) is not None
    for t in np.flatnonzero(counts):
        counts[t] -= 1
        assert ref.shanten(counts, k, void) == 0
        # the removed tile always completes again: the player now holds at most three copies
        assert int(t) in ref.waits(counts, melds, void)
        counts[t] += 1


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.integers(0, 8), min_size=7, max_size=7),
    st.lists(st.integers(0, 1), min_size=7, max_size=7),
    st.permutations([0, 1, 2]),
)
def test_random_seven_pairs(ranks: list[int], suit_picks: list[int], suits: list[int]) -> None:
    counts = np.zeros(27, dtype=np.int64)
    for rank, pick in zip(ranks, suit_picks, strict=True):
        counts[9 * suits[pick] + rank] += 2
    assume(counts.max() <= 4)  # a type gives at most two pairs
    void = suits[2]
    assert ref.is_seven_pairs(counts, 0) and ref.is_complete(counts, (), void)
    assert ref.shanten_seven_pairs(counts, void) == -1
    result = ref.score(counts, (), rules=get_rules("classic"), void=void)
    assert result is not None and result.roots == int((counts == 4).sum())
    assert result.fan >= 2 + result.roots  # seven pairs is at least 2 fan in classic
    for t in np.flatnonzero(counts):
        counts[t] -= 1
        assert ref.shanten_seven_pairs(counts, void) == 0
        assert int(t) in ref.waits(counts, (), void)
        counts[t] += 1
