"""Exact probabilities of random hands and of their suit splits, by enumeration (the statistical
tests' reference values; tests/statistical/test_exact_probabilities.py explains the method and
pins the values).

Per-suit enumeration, independent of the lookup tables: every suit key of at most 14 tiles gets
a class (decomposable as is, one tile short of decomposable, all counts even, exactly one odd
count) and a weight ``prod_t comb(4, c_t)``; suits then combine over the ways to split the
hand's tiles among the suits.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache

import numpy as np

POW5 = np.array([5**r for r in range(9)], dtype=np.int64)
DEC, DEC1, EVEN, ODD1 = 1, 2, 4, 8  # class bits of a suit key

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
