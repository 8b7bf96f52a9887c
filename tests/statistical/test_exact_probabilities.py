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

import math
from fractions import Fraction

import numpy as np
import pytest
from helpers.exact import (
    DEC,
    EVEN,
    exact,
    longest_suit_distribution,
    random_counts,
    split_probability,
    suit_class_weights,
    suit_splits,
)

from simcore.hand import kernels as hk
from simcore.hand.tables import load_tables

# Exact values (complete 14, ready 13) by number of suits drawn from; pinned so that a change
# of the enumeration shows up too.
EXPECTED = {
    3: (Fraction(390407419, 46209632117575), Fraction(34168110143, 214509976461585)),
    2: (Fraction(12311872808, 9338260032135), Fraction(271458109, 17586177085)),
    1: (Fraction(905749, 7653825), Fraction(1148761, 2329425)),
}


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
        hk.check_win_batch(h14, zeros, none, zeros, t.packed, out)
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
