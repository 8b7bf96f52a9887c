"""Hand kernels and the public hand API against the pure-Python oracle ``simcore.hand.reference``.

Property tests over random complete hands, ready hands (a complete hand less one tile) and far
hands (random draws from the 108 tiles), with 0-4 exposed melds and a random void suit.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from simcore import hand, reference
from simcore.hand import kernels as hk
from simcore.hand.tables import load_tables
from simcore.tiles import Hand, Meld, format, parse, tile_index

pytestmark = pytest.mark.numba  # its kernels compile (tests/conftest.py: the fast tier)

TABLES = load_tables()
KINDS = ("any", "standard", "seven_pairs")
SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)


class Case:
    """A concealed hand, its exposed melds and a void suit."""

    def __init__(self, counts: np.ndarray, melds: list[Meld], void: int) -> None:
        self.counts = counts.astype(np.int8)
        self.melds = melds
        self.void = void
        self.k = len(melds)
        self.held = self.counts.copy()
        for m in melds:
            self.held[m.tile] += m.size
        self.meld_suits = 0
        for m in melds:
            self.meld_suits |= 1 << (m.tile // 9)

    def __repr__(self) -> str:
        return f"Case({format(self.counts, self.melds)!r}, void={self.void})"


def _melds(draw, suits: list[int], k: int, held: np.ndarray) -> list[Meld]:
    melds = []
    for _ in range(k):
        s = draw(st.sampled_from(suits))
        t = 9 * s + draw(st.integers(0, 8))
        kind = draw(st.sampled_from("PPKC"))
        size = 3 if kind == "P" else 4
        if held[t] + size > 4:
            kind, size = "P", 3
        if held[t] + size > 4:
            t = int(np.argmin(held))  # some type with room (k <= 4 melds always find one)
        held[t] += size
        melds.append(Meld(kind, int(t)))
    return melds


@st.composite
def complete_cases(draw) -> Case:
    """Complete shapes: standard (4 - k groups + a pair) or seven pairs; mostly <= 2 suits."""
    n_suits = draw(st.sampled_from([1, 2, 2, 2, 3]))
    suits = draw(st.permutations([0, 1, 2]))[:n_suits]
    k = draw(st.sampled_from([0, 0, 0, 1, 2, 3, 4]))
    held = np.zeros(27, dtype=np.int16)
    melds = _melds(draw, suits, k, held)
    counts = np.zeros(27, dtype=np.int16)
    if k == 0 and draw(st.integers(0, 4)) == 0:  # seven pairs
        for _ in range(7):
            t = 9 * draw(st.sampled_from(suits)) + draw(st.integers(0, 8))
            counts[t] += 2
    else:
        for _ in range(4 - k):
            s = draw(st.sampled_from(suits))
            if draw(st.booleans()):
                counts[9 * s + draw(st.integers(0, 8))] += 3
            else:
                r = draw(st.integers(0, 6))
                counts[9 * s + r : 9 * s + r + 3] += 1
        counts[9 * draw(st.sampled_from(suits)) + draw(st.integers(0, 8))] += 2
    assume(not (counts + held > 4).any())
    void = draw(st.integers(-1, 2))
    return Case(counts, melds, void)


@st.composite
def ready_cases(draw) -> Case:
    """A complete case less one concealed tile."""
    c = draw(complete_cases())
    tiles = np.repeat(np.arange(27), c.counts)
    t = tiles[draw(st.integers(0, len(tiles) - 1))]
    counts = c.counts.copy()
    counts[t] -= 1
    return Case(counts, c.melds, c.void)


@st.composite
def far_cases(draw, extra: int | None = None) -> Case:
    """Random ``13 - 3k`` (+ ``extra``) tiles drawn from the 108, melds from the rest."""
    k = draw(st.sampled_from([0, 0, 0, 1, 2, 3, 4]))
    e = draw(st.integers(0, 1)) if extra is None else extra
    perm = draw(st.permutations(range(108)))
    counts = np.bincount(np.array(perm[: 13 - 3 * k + e]) // 4, minlength=27).astype(np.int16)
    held = counts.copy()
    melds = _melds(draw, [0, 1, 2], k, held)
    void = draw(st.integers(-1, 2))
    return Case(counts, melds, void)


any_cases = st.one_of(complete_cases(), ready_cases(), far_cases())
waiting_cases = st.one_of(ready_cases(), far_cases(extra=0))


# --------------------------------------------------------------------------------------------
# shanten and completeness


@SETTINGS
@given(any_cases)
def test_shanten_matches_reference(case):
    for kind in KINDS:
        got = hk._calc_shanten(case.counts, case.k, case.void, hk.KIND_CODES[kind], TABLES.packed)
        assert got == reference.shanten(case.counts, case.k, case.void, kind), (kind, case)


@SETTINGS
@given(complete_cases())
def test_complete_hands(case):
    expected = reference.is_complete(case.counts, case.melds, case.void)
    got = hk._check_win(case.counts, case.k, case.void, case.meld_suits, TABLES.packed)
    assert got == expected, case
    # the shape is complete whenever no void tile is held, whatever the suits
    no_void = case.void < 0 or case.counts[9 * case.void : 9 * case.void + 9].sum() == 0
    assert hk._check_complete(case.counts, case.k, case.void, TABLES.packed) == no_void
    shanten = hk._calc_shanten(case.counts, case.k, case.void, hk.KIND_ANY, TABLES.packed)
    assert (shanten == -1) == no_void


@st.composite
def grown_cases(draw) -> Case:
    """A ready case plus one random tile (a fifth copy avoided): mostly incomplete."""
    c = draw(ready_cases())
    room = np.flatnonzero(c.held < 4)
    counts = c.counts.copy()
    counts[room[draw(st.integers(0, len(room) - 1))]] += 1
    return Case(counts, c.melds, c.void)


@SETTINGS
@given(st.one_of(complete_cases(), far_cases(extra=1), grown_cases()))
def test_is_complete_matches_reference(case):
    expected = reference.is_complete(case.counts, case.melds, case.void)
    assert hk._check_win(case.counts, case.k, case.void, case.meld_suits, TABLES.packed) == expected
    assert hand.is_complete(Hand(case.counts, tuple(case.melds)), void=case.void) == expected


# --------------------------------------------------------------------------------------------
# waits and ukeire


@SETTINGS
@given(waiting_cases)
def test_waits_match_reference(case):
    mask = hk.find_waits(
        case.counts, case.held, case.k, case.void, case.meld_suits, TABLES.packed, TABLES.masks
    )
    got = [t for t in range(27) if mask >> t & 1]
    assert got == reference.waits(case.counts, case.melds, case.void), case
    assert hand.waits(Hand(case.counts, tuple(case.melds)), void=case.void) == got


def _brute_improvers(case: Case, kind: int) -> int:
    base = hk._calc_shanten(case.counts, case.k, case.void, kind, TABLES.packed)
    mask = 0
    for t in range(27):
        if case.counts[t] < 4:
            c = case.counts.copy()
            c[t] += 1
            if hk._calc_shanten(c, case.k, case.void, kind, TABLES.packed) < base:
                mask |= 1 << t
    return mask


@SETTINGS
@given(any_cases, st.data())
def test_ukeire_matches_brute_force(case, data):
    visible = case.held.copy()
    for t in range(27):
        visible[t] += data.draw(st.integers(0, 4 - int(visible[t])))
    for name in KINDS:
        kind = hk.KIND_CODES[name]
        s, mask, n = hk._count_ukeire(
            case.counts, case.k, case.void, kind, visible, TABLES.packed, TABLES.masks
        )
        assert s == hk._calc_shanten(case.counts, case.k, case.void, kind, TABLES.packed)
        assert mask == _brute_improvers(case, kind), (name, case)
        assert n == sum(4 - int(visible[t]) for t in range(27) if mask >> t & 1)


@pytest.mark.parametrize(
    "text, void",
    [
        ("123m456p789m11p58s", None),
        ("11m22m99m44p66p88p9p", None),
        ("1112345678999m", None),
        ("147m258p369s1234m", 2),
        ("123m456p1s|P5sK9m", None),
    ],
)
def test_ukeire_matches_reference_shanten(text, void):
    counts, melds = parse(text)
    v = -1 if void is None else void
    base = reference.shanten(counts, len(melds), v)
    expected = []
    for t in range(27):
        if counts[t] < 4:
            c = counts.copy()
            c[t] += 1
            if reference.shanten(c, len(melds), v) < base:
                expected.append(t)
    held = counts.copy()
    for m in melds:
        held[m.tile] += m.size
    tiles, n = hand.useful_tiles(text, void=void)
    assert tiles == [t for t in expected if held[t] < 4]
    assert n == sum(4 - int(held[t]) for t in tiles)


# --------------------------------------------------------------------------------------------
# batch == single, public API


def test_batch_kernels_equal_single():
    rng = np.random.default_rng(3)
    n = 400
    counts = np.zeros((n, 27), dtype=np.int8)
    k = rng.integers(0, 5, n).astype(np.int8)
    for i in range(n):
        size = 13 - 3 * k[i] + rng.integers(0, 2)
        counts[i] = np.bincount(rng.permutation(108)[:size] // 4, minlength=27)
    void = rng.integers(-1, 3, n).astype(np.int8)
    meld_suits = rng.integers(0, 8, n).astype(np.int8) * (k > 0)
    visible = np.minimum(counts + rng.integers(0, 3, (n, 27)), 4).astype(np.int8)
    # scalar arguments as Python ints, as the other tests pass them (one compiled signature)
    ks, vs, ms = k.tolist(), void.tolist(), meld_suits.tolist()
    for kind in (0, 1, 2):
        out = np.empty(n, np.int8)
        hk.calc_shanten_batch(counts, k, void, kind, TABLES.packed, out)
        single = [hk._calc_shanten(counts[i], ks[i], vs[i], kind, TABLES.packed) for i in range(n)]
        assert out.tolist() == single
        masks = np.empty(n, np.int64)
        ns = np.empty(n, np.int64)
        hk._count_ukeire_batch(
            counts, k, void, kind, visible, TABLES.packed, TABLES.masks, masks, ns
        )
        for i in range(n):
            _, m, c = hk._count_ukeire(
                counts[i], ks[i], vs[i], kind, visible[i], TABLES.packed, TABLES.masks
            )
            assert (masks[i], ns[i]) == (m, c)
    out_b = np.empty(n, np.bool_)
    hk._check_complete_batch(counts, k, void, TABLES.packed, out_b)
    assert out_b.tolist() == [
        hk._check_complete(counts[i], ks[i], vs[i], TABLES.packed) for i in range(n)
    ]
    hk.check_win_batch(counts, k, void, meld_suits, TABLES.packed, out_b)
    assert out_b.tolist() == [
        hk._check_win(counts[i], ks[i], vs[i], ms[i], TABLES.packed) for i in range(n)
    ]
    waiting = counts.sum(axis=1) == 13 - 3 * k.astype(int)
    w = np.empty(n, np.int64)
    hk._find_waits_batch(
        counts, visible, k, void, meld_suits, TABLES.packed, TABLES.masks, w
    )  # visible stands in for held (>= counts)
    for i in np.flatnonzero(waiting):
        assert w[i] == hk.find_waits(
            counts[i], visible[i], ks[i], vs[i], ms[i], TABLES.packed, TABLES.masks
        )


def test_public_batch_equals_single():
    rng = np.random.default_rng(11)
    hands = np.stack(
        [np.bincount(rng.permutation(108)[:14] // 4, minlength=27) for _ in range(300)]
    )
    hands[:50] = [parse("111m444m456p789m77p").counts] * 50  # some complete ones
    for kind in KINDS:
        batch = hand.shanten(hands, kind=kind, void="s")
        assert batch.dtype == np.int8 and batch.shape == (300,)
        assert batch.tolist() == [hand.shanten(h, kind=kind, void=2) for h in hands]
    done = hand.is_complete(hands)
    assert done.dtype == np.bool_ and done[:50].all()
    assert done.tolist() == [hand.is_complete(h) for h in hands]
    assert hand.shanten(hands[0].tolist()) == -1  # lists work too


def test_public_examples():
    assert hand.shanten("111m444m456p789m77p") == -1
    assert hand.shanten("111m444m456p789m7p") == 0
    assert hand.shanten("11m22m99m44p66p88p9p", kind="standard") == 3
    assert hand.shanten("11m22m99m44p66p88p9p", kind="seven_pairs") == 0
    assert hand.shanten("123m456p1s|P5sK9m", kind="seven_pairs") == hand.NO_SHAPE
    assert hand.shanten("123m456m789m11p55p") == 0
    assert hand.shanten("123m456m789m11p55p", void="s") == 0
    assert hand.shanten("123m456m789m11p55p", void="p") == 4  # void tiles never help
    assert hand.shanten("123m456m789m11p555p", void=1) == 4
    assert not hand.is_complete("123m456m789m11p555p", void="p")
    assert hand.is_complete("123m456m789m11p555p", void="s")
    assert hand.is_complete("1111m99m44p66p88p99p")  # four of a kind are two pairs
    assert not hand.is_complete("123m456p789s11m222m")  # three suits never win
    assert hand.is_complete(parse("123m456p789s11m222m").counts, void=None) is False
    assert hand.waits("1112345678999m") == list(range(9))
    assert hand.waits("1111m2222m3333m4m") == [tile_index(x) for x in ("4m", "5m")]  # no 5th
    assert hand.waits("11m22m99m44p66p88p9p", void="p") == []  # holds a void tile
    assert hand.waits("123m456m789m5p|P1p") == [tile_index("5p")]
    assert hand.waits("123m456m789m5p|P1s") == []  # three suits with the meld
    assert hand.useful_tiles("123m456m789m5p|P1p") == ([tile_index("5p")], 3)
    seen = parse("123m456m789m55p|P1p", sizes="any")
    assert hand.useful_tiles("123m456m789m5p|P1p", visible=seen) == ([tile_index("5p")], 2)
    seen_all = "123m456m789m5555p|P1p"
    assert hand.useful_tiles("123m456m789m5p|P1p", visible=seen_all) == ([tile_index("5p")], 0)
    # a type held four times (three in a pung) is neither useful nor a wait: no fifth copy
    assert hand.useful_tiles("123m456m789m5p|P5p") == ([], 0)
    assert hand.waits("123m456m789m5p|P5p") == []
    assert hand.shanten("123m456m789m5p|P5p") == 0  # shanten does not look at the melds


# --------------------------------------------------------------------------------------------
# errors


def _raises(pattern: str):
    return pytest.raises(ValueError, match=pattern)


def test_errors_name_the_bad_value():
    ok = parse("111m444m456p789m77p").counts
    with _raises(r"counts must have shape \(27,\) or \(n, 27\), got \(26,\)"):
        hand.shanten(ok[:26])
    with _raises(r"counts must be integers, got dtype float64"):
        hand.shanten(ok.astype(float))
    bad = ok.copy()
    bad[0] = 5
    with _raises(r"count of 1m must be 0\.\.4, got 5"):
        hand.shanten(bad)
    bad[0] = -1
    with _raises(r"count of 1m must be 0\.\.4, got -1"):
        hand.is_complete(bad)
    with _raises(r"hand 1: count of 1m must be 0\.\.4, got -1"):
        hand.shanten(np.stack([ok, bad]))
    with _raises(r"12 concealed tiles with 0 melds; expected 13 or 14"):
        hand.shanten(np.bincount(np.arange(12), minlength=27))
    with _raises(r"hand 1: 15 concealed tiles with 0 melds"):
        hand.shanten(np.stack([ok, ok + np.eye(27, dtype=ok.dtype)[26]]))
    with _raises(r"14 concealed tiles with 1 melds; expected 10 or 11"):
        hand.shanten(ok, n_melds=1)
    with _raises(r"13 concealed tiles with 0 melds; expected 14$"):
        hand.is_complete(parse("111m444m456p789m7p").counts)
    with _raises(r"n_melds must be 0\.\.4, got 5"):
        hand.shanten(ok, n_melds=5)
    with _raises(r"n_melds must be an integer 0\.\.4, got 1\.5"):
        hand.shanten(ok, n_melds=1.5)
    with _raises(r"n_melds=2 but the hand has 1 melds"):
        hand.shanten("123m456p1s55m9p|P5s", n_melds=2)
    with _raises(r"void must be None, 0\.\.2 or 'm', 'p', 's', got 'x'"):
        hand.shanten(ok, void="x")
    with _raises(r"void must be None, 0\.\.2 or 'm', 'p', 's', got 3"):
        hand.is_complete(ok, void=3)
    with _raises(r"kind must be 'any', 'standard' or 'seven_pairs', got 'x'"):
        hand.shanten(ok, kind="x")
    with _raises(r"waiting hand with 0 melds has 13 concealed tiles, got 14"):
        hand.waits("111m444m456p789m77p")
    with _raises(r"hand must be notation like '123m456p\|P5s' or a Hand"):
        hand.waits(ok)
    with _raises(r"5 copies of 5s counting melds; only 4 exist"):
        hand.waits(Hand(parse("123m456m789m55s", sizes="any").counts, (Meld("P", 22),)))
    with _raises(r"visible shows 0 of 1m but the hand holds 1; visible must include"):
        hand.useful_tiles("123m456m789m5p|P1p", visible=np.zeros(27, np.int8))
    with _raises(r"visible: count of 1m must be 0\.\.4, got 7"):
        hand.useful_tiles("123m456m789m5p|P1p", visible=np.full(27, 7))
    with _raises(r"12 concealed tiles with 0 melds"):
        hand.useful_tiles(Hand(np.bincount(np.arange(12), minlength=27).astype(np.int8), ()))
