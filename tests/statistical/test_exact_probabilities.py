"""Exact probabilities of random hands against the batch evaluator's Monte Carlo estimates.

Exact values by per-suit enumeration, independent of the lookup tables: the decomposable suit
configurations are built up by adding melds and a pair to an empty suit; every suit key of at
most 14 tiles gets a class (decomposable as is, one tile short of decomposable, all counts
even, exactly one odd count) and a weight ``prod_t comb(4, c_t)`` (the ways to pick its tiles
from the four copies of each type); suits then combine over the ways to split the hand's tiles
among the three suits. Dividing by ``comb(108, n)`` gives the probability for ``n`` tiles drawn
at random from the 108.

- Sichuan-complete 14 tiles: standard or seven pairs and at most two suits (then the void can
  be a suit the hand lacks).
- Ready 13 tiles: some tile (never a fifth copy) makes it Sichuan-complete.

Also for hands drawn from the tiles of one suit (36) or two suits (72), where the events are
frequent enough for a sharp check. Exact values
(``python tests/statistical/test_exact_probabilities.py``):

    drawn from   P(14 tiles Sichuan-complete)          P(13 tiles ready)
    108 tiles    390407419/46209632117575 ~ 8.4486e-06   34168110143/214509976461585 ~ 1.59284e-04
     72 tiles    12311872808/9338260032135 ~ 1.31843e-03  271458109/17586177085 ~ 1.54359e-02
     36 tiles    905749/7653825 ~ 1.18339e-01             1148761/2329425 ~ 4.93152e-01
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from simcore.hand import kernels as hk
from simcore.hand.tables import load_tables

POW5 = np.array([5**r for r in range(9)], dtype=np.int64)
DEC, DEC1, EVEN, ODD1 = 1, 2, 4, 8  # class bits of a suit key

# Exact values (complete 14, ready 13) by number of suits drawn from; pinned so that a change
# of the enumeration shows up too.
EXPECTED = {
    3: (Fraction(390407419, 46209632117575), Fraction(34168110143, 214509976461585)),
    2: (Fraction(12311872808, 9338260032135), Fraction(271458109, 17586177085)),
    1: (Fraction(905749, 7653825), Fraction(1148761, 2329425)),
}


def _digits(keys: np.ndarray) -> np.ndarray:
    return (keys[:, None] // POW5[None, :]) % 5


@cache
def decomposable_keys() -> frozenset[int]:
    """Suit keys whose tiles split exactly into m melds + p pairs (p <= 1, m <= 4)."""
    groups = [3 * 5**r for r in range(9)] + [5**r + 5 ** (r + 1) + 5 ** (r + 2) for r in range(7)]

    def add_group(keys: set[int], g: int) -> set[int]:
        out = set()  # only where no digit passes 4 (no fifth copy, no carry)
        for k in keys:
            d = [(k // 5**r) % 5 for r in range(9)]
            gd = [(g // 5**r) % 5 for r in range(9)]
            if all(a + b <= 4 for a, b in zip(d, gd, strict=True)):
                out.add(k + g)
        return out

    level = {0}
    found = set(level)
    for _ in range(4):
        nxt: set[int] = set()
        for g in groups:
            nxt |= add_group(level, g)
        level = nxt
        found |= level
    with_pair: set[int] = set()
    for r in range(9):
        with_pair |= add_group(found, 2 * 5**r)
    return frozenset(found | with_pair)


@cache
def suit_class_weights() -> dict[int, dict[int, int]]:
    """``{n_tiles: {class bits: total weight}}`` over the suit keys of at most 14 tiles."""
    keys = np.arange(5**9, dtype=np.int64)
    digits = _digits(keys)
    n = digits.sum(axis=1)
    keep = n <= 14
    keys, digits, n = keys[keep], digits[keep], n[keep]
    comb4 = np.array([math.comb(4, c) for c in range(5)], dtype=np.int64)
    weight = comb4[digits].prod(axis=1)
    dec_set = decomposable_keys()
    dec = np.isin(keys, np.fromiter(dec_set, dtype=np.int64))
    # one tile short: removing one tile of some rank from a decomposable key
    short = {k - 5**r for k in dec_set for r in range(9) if (k // 5**r) % 5 >= 1}
    dec1 = np.isin(keys, np.fromiter(short, dtype=np.int64))
    odd = (digits % 2).sum(axis=1)
    cls = DEC * dec + DEC1 * dec1 + EVEN * (odd == 0) + ODD1 * (odd == 1)
    out: dict[int, dict[int, int]] = {}
    for size in range(15):
        sums = np.zeros(16, dtype=np.int64)
        np.add.at(sums, cls[n == size], weight[n == size])
        by_cls = {int(c): int(sums[c]) for c in np.flatnonzero(sums)}
        out[size] = by_cls
        assert sum(by_cls.values()) == math.comb(36, size)  # every suit subset counted once
    return out


def _exact(n_tiles: int, predicate, n_suits: int = 3) -> Fraction:
    """P(predicate) for ``n_tiles`` drawn at random from the tiles of the first ``n_suits``.

    Sums over the splits of the tiles among the suits; with three suits drawn from, a split
    using all three never completes nor is ready, so it is skipped.
    """
    w = suit_class_weights()
    total = 0
    for n0 in range(min(n_tiles, 14) + 1):
        for n1 in range(min(n_tiles - n0, 14) + 1):
            n2 = n_tiles - n0 - n1
            if n2 > 14 or min(n0, n1, n2) > 0:
                continue
            if (n_suits < 3 and n2 > 0) or (n_suits < 2 and n1 > 0):
                continue
            for c0, w0 in w[n0].items():
                for c1, w1 in w[n1].items():
                    for c2, w2 in w[n2].items():
                        if predicate((c0, c1, c2)):
                            total += w0 * w1 * w2
    return Fraction(total, math.comb(36 * n_suits, n_tiles))


def _complete(cls: tuple[int, int, int]) -> bool:
    return all(c & DEC for c in cls) or all(c & EVEN for c in cls)


def _ready(cls: tuple[int, int, int]) -> bool:
    for i in range(3):
        others = [cls[j] for j in range(3) if j != i]
        if cls[i] & DEC1 and all(c & DEC for c in others):
            return True
        if cls[i] & ODD1 and all(c & EVEN for c in others):
            return True
    return False


@cache
def exact(kind: str, n_suits: int) -> Fraction:
    """``kind`` "complete" (14 tiles) or "ready" (13 tiles), drawn from ``n_suits`` suits."""
    if kind == "complete":
        return _exact(14, _complete, n_suits)
    return _exact(13, _ready, n_suits)


def suit_splits(n_tiles: int, n_suits: int) -> dict[tuple[int, ...], Fraction]:
    """P(``n_tiles`` drawn at random from the ``36 * n_suits`` tiles of ``n_suits`` suits hold
    ``k_i`` tiles of suit ``i``), for every split ``(k_0, ..)``: ``prod comb(36, k_i)`` ways
    out of ``comb(36 * n_suits, n_tiles)`` (the multivariate hypergeometric law)."""
    total = math.comb(36 * n_suits, n_tiles)
    out: dict[tuple[int, ...], Fraction] = {}
    for split in itertools.product(range(min(n_tiles, 36) + 1), repeat=n_suits):
        if sum(split) == n_tiles:
            out[split] = Fraction(math.prod(math.comb(36, k) for k in split), total)
    return out


def split_probability(n_tiles: int, n_suits: int, event) -> Fraction:
    """P(``event(split)``) for the suit split of ``n_tiles`` random tiles (:func:`suit_splits`).

    >>> split_probability(13, 2, lambda k: min(k) == 0) == 2 * Fraction(math.comb(36, 13),
    ...                                                             math.comb(72, 13))
    True
    """
    return sum((p for k, p in suit_splits(n_tiles, n_suits).items() if event(k)), Fraction(0))


def longest_suit_distribution(n_tiles: int, n_suits: int) -> dict[int, Fraction]:
    """``{L: P(the longest suit of n_tiles random tiles holds L of them)}``."""
    out: dict[int, Fraction] = {}
    for k, p in suit_splits(n_tiles, n_suits).items():
        out[max(k)] = out.get(max(k), Fraction(0)) + p
    return out


def random_counts(rng: np.random.Generator, n: int, size: int, n_suits: int = 3) -> np.ndarray:
    """``int8[n, 27]`` counts of ``n`` uniform ``size``-subsets of the first suits' tiles."""
    n_tiles = 36 * n_suits
    deck = np.tile(np.arange(n_tiles, dtype=np.int16), (n, 1))
    rows = np.arange(n)
    for i in range(size):  # partial Fisher-Yates on every row at once
        j = i + rng.integers(0, n_tiles - i, size=n)
        a, b = deck[rows, i].copy(), deck[rows, j]
        deck[rows, i], deck[rows, j] = b, a
    flat = np.bincount((rows[:, None] * 27 + deck[:, :size] // 4).ravel(), minlength=n * 27)
    return flat.reshape(n, 27).astype(np.int8)


def monte_carlo(n: int, seed: int, n_suits: int = 3, chunk: int = 250_000) -> tuple[int, int]:
    """(Sichuan-complete 14-tile hands, ready 13-tile hands) among ``n`` random hands each."""
    t = load_tables()
    rng = np.random.default_rng(seed)
    wins = ready = 0
    for start in range(0, n, chunk):
        m = min(chunk, n - start)
        zeros = np.zeros(m, np.int8)
        none = np.full(m, -1, np.int8)
        h14 = random_counts(rng, m, 14, n_suits)
        out = np.empty(m, np.bool_)
        hk._check_win_batch(h14, zeros, none, zeros, t.packed, out)
        wins += int(out.sum())
        h13 = random_counts(rng, m, 13, n_suits)
        masks = np.empty(m, np.int64)
        hk._find_waits_batch(h13, h13, zeros, none, zeros, t.packed, t.masks, masks)
        ready += int((masks != 0).sum())
    return wins, ready


def _within(count: int, n: int, p: Fraction, k: float = 4.0) -> tuple[bool, float]:
    p = float(p)
    se = math.sqrt(p * (1 - p) / n)
    z = (count / n - p) / se
    return abs(z) < k, z


def test_suit_splits_sum_to_one_and_match_inclusion_exclusion():
    for n_suits in (2, 3):
        assert sum(suit_splits(13, n_suits).values()) == 1
    # three suits: P(a hand lacks a suit) by inclusion-exclusion
    lacks = Fraction(3 * math.comb(72, 13) - 3 * math.comb(36, 13), math.comb(108, 13))
    assert split_probability(13, 3, lambda k: min(k) == 0) == lacks
    # two suits: the longer suit holds 7..13 of 13 tiles, symmetric hypergeometric
    dist = longest_suit_distribution(13, 2)
    assert sorted(dist) == list(range(7, 14))
    assert dist[13] == 2 * Fraction(math.comb(36, 13), math.comb(72, 13))
    assert dist[7] == 2 * Fraction(math.comb(36, 7) * math.comb(36, 6), math.comb(72, 13))


def test_class_weights_are_consistent():
    w = suit_class_weights()
    # all 14-tile single-suit complete shapes: weight of DEC keys at 14 tiles must be positive
    assert sum(v for c, v in w[14].items() if c & DEC) > 0
    assert sum(v for c, v in w[1].items() if c & DEC) == 0  # one tile never decomposes
    assert w[0] == {DEC | EVEN: 1}
    assert sum(w[2].values()) == math.comb(36, 2)
    # pairs: 9 types x comb(4, 2) = 54 ways, decomposable and even
    assert sum(v for c, v in w[2].items() if c & DEC) == 54
    assert sum(v for c, v in w[2].items() if c & EVEN) == 54


def test_exact_values_are_pinned():
    for n_suits in (1, 2, 3):
        got = (exact("complete", n_suits), exact("ready", n_suits))
        print(
            f"{n_suits} suit(s): complete {got[0]} ~ {float(got[0]):.6e}, "
            f"ready {got[1]} ~ {float(got[1]):.6e}"
        )
        assert got == EXPECTED[n_suits]


@pytest.mark.parametrize(
    "n_suits, n, seed",
    [(3, 1_000_000, 20240601), (2, 300_000, 11), (1, 100_000, 12)],
)
def test_monte_carlo_matches_exact(n_suits, n, seed):
    wins, ready = monte_carlo(n, seed, n_suits)
    ok_w, z_w = _within(wins, n, exact("complete", n_suits))
    ok_r, z_r = _within(ready, n, exact("ready", n_suits))
    print(f"{n_suits} suits, n={n}: complete {wins} (z={z_w:+.2f}), ready {ready} (z={z_r:+.2f})")
    assert ok_w, z_w
    assert ok_r, z_r


@pytest.mark.slow
@pytest.mark.parametrize("n_suits, seed", [(3, 7), (2, 8), (1, 9)])
def test_monte_carlo_matches_exact_large(n_suits, seed):
    test_monte_carlo_matches_exact(n_suits, 10_000_000, seed)


if __name__ == "__main__":
    for k in (1, 2, 3):
        print(k, repr(exact("complete", k)), float(exact("complete", k)))
        print(k, repr(exact("ready", k)), float(exact("ready", k)))
