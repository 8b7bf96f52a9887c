"""Standard shanten against an independent implementation: the public ``mahjong`` package.

``mahjong.shanten.Shanten.calculate_shanten_for_regular_hand`` (mahjong 2.x; a static method
taking 34 counts, honours last) computes the regular-shape (4 melds + a pair) shanten of a hand
of 13 or 14 tiles by a search over melds, pairs, partial melds and isolated tiles, with
corrections for types of which the hand holds all four copies. Ours is the table min-plus
combine with "at most 4 copies in the target". For number tiles only and no void they agree on
every hand tried: 100,000 random hands here (50,000 of 13 and of 14 tiles from the 108), every
single-suit hand of 13 or 14 tiles (212,400 hands, under ``slow``) and a sample of flush and
two-suit hands rich in four-of-a-kinds. The comparison is on all hands; nothing is excluded.
"""

from __future__ import annotations

import numpy as np
import pytest
from mahjong.shanten import Shanten

from simcore.hand import kernels as hk
from simcore.hand import reference
from simcore.hand.tables import POW5, load_tables
from simcore.tiles import format, parse

pytestmark = pytest.mark.numba  # its kernels compile (tests/conftest.py: the fast tier)


def ours(hands: np.ndarray) -> np.ndarray:
    t = load_tables()
    n = len(hands)
    out = np.empty(n, np.int8)
    zeros = np.zeros(n, np.int8)
    hk.calc_shanten_batch(hands, zeros, np.full(n, -1, np.int8), hk.KIND_STANDARD, t.packed, out)
    return out


def theirs(hands: np.ndarray) -> np.ndarray:
    honours = [0] * 7
    return np.array(
        [Shanten.calculate_shanten_for_regular_hand([int(x) for x in h] + honours) for h in hands],
        dtype=np.int8,
    )


def random_hands(rng: np.random.Generator, n: int, size: int, pool: np.ndarray) -> np.ndarray:
    """``n`` hands of ``size`` tiles drawn without replacement from ``pool`` (tile ids 0..107)."""
    out = np.zeros((n, 27), dtype=np.int8)
    for i in range(n):
        tiles = rng.choice(pool, size, replace=False) // 4
        out[i] = np.bincount(tiles, minlength=27)
    return out


def assert_agree(hands: np.ndarray) -> None:
    a, b = ours(hands), theirs(hands)
    diff = np.flatnonzero(a != b)
    examples = [f"{format(hands[i])}: ours {a[i]}, mahjong {b[i]}" for i in diff[:20]]
    assert diff.size == 0, f"{diff.size} of {len(hands)} hands disagree:\n" + "\n".join(examples)


def test_api_is_the_expected_one():
    tiles = [0] * 34
    tiles[0] = 3  # 111m + 9s: ready on a pair
    tiles[26] = 1
    assert Shanten.calculate_shanten_for_regular_hand(tiles) == 0
    tiles[26] = 2  # 111m99s: complete as a shape of 5 tiles (the other melds implied)
    assert Shanten.calculate_shanten_for_regular_hand(tiles) == -1


@pytest.mark.parametrize("size", [13, 14])
def test_random_hands_from_the_108(size):
    rng = np.random.default_rng(1000 + size)
    assert_agree(random_hands(rng, 50_000, size, np.arange(108)))


@pytest.mark.parametrize("n_suits", [1, 2])
def test_concentrated_hands(n_suits):
    """Flush and two-suit hands hold many four-of-a-kinds, where the 4-copy rule matters."""
    rng = np.random.default_rng(2000 + n_suits)
    pool = np.arange(36 * n_suits)
    hands = np.concatenate([random_hands(rng, 2_500, size, pool) for size in (13, 14)])
    assert (hands == 4).any(axis=1).sum() > {1: 400, 2: 40}[n_suits]
    assert_agree(hands)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1111m2222m3333m4m", 0),
        ("1111m2222m3333m44m", -1),
        ("1111m3333m5555m7m", 1),
        ("1111m9999m1111p9p", 2),
        ("1111m1111p1111s9m", 2),
        ("1111m2m3333m4444m", 0),
        ("11113333m5555m79m", 1),
    ],
)
def test_four_of_a_kind_examples(text, expected):
    counts = parse(text).counts[None, :]
    assert int(ours(counts)[0]) == int(theirs(counts)[0]) == expected
    assert reference.shanten_standard(counts[0]) == expected


@pytest.mark.slow
@pytest.mark.parametrize("size", [13, 14])
def test_every_single_suit_hand(size):
    keys = np.arange(5**9, dtype=np.int64)
    digits = (keys[:, None] // POW5[None, :]) % 5
    suit = digits[digits.sum(axis=1) == size]
    hands = np.zeros((len(suit), 27), np.int8)
    hands[:, :9] = suit
    assert_agree(hands)
