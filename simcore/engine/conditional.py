"""Conditional dealing: deals in which seat 0 holds a given hand, the unseen tiles shuffled.

The what-if analysis (:mod:`simcore.rollouts`) plays many deals in which seat 0 is dealt exactly
one hand (13 tiles, or 14 as the dealer) and the other 95 (94) tiles are a uniform random
permutation, then compares plans (seat 0's policy) on the *same* walls.

Wall of deal ``i`` (a pure function of ``(seed, i, hand, dealer)``, so identical for every plan):

1. the dealer is seat 0 when seat 0 is the dealer, else seat ``1 + i % 3`` (seat 0 never deals,
   and each other seat deals a third of the deals, as in a normal run's rotation);
2. the tiles not in the hand are listed by type and shuffled by Fisher-Yates with the deal's
   counter-based stream ``stream_key(seed, i, PURPOSE_WHATIF)``;
3. they are laid into the wall in order around seat 0's dealt positions: block ``k`` (tiles
   ``13k .. 13k+12``) belongs to seat ``(dealer + k) % 4``, and tile 52 is the dealer's 14th.
   Seat 0's positions receive the hand's tiles in type order (as the dealer, its highest tile
   type is tile 52, which only names the winning tile of a heavenly win).

Every other random stream of the deal (the seats' policies) is the engine's own, keyed by
``(seed, i)``, so plans also share the random policies' choices. The deal itself is
:func:`simcore.engine.deal.play_deal` with ``fixed_wall``: everything after dealing is a normal
deal. The caller passes rules with ``exchange_three`` off (the hand is "after the exchange").

The deals are played by the engine's one entry kernel (:func:`.kernel.play_deals`, layout
``LAYOUT_CONDITIONAL``), which lays each wall with :func:`lay_conditional_wall`;
:func:`fill_conditional_walls` gives the same walls to Python (tests, notebooks). Its cache key
holds the engine fingerprint (:mod:`.fingerprint`) like the entry kernel's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from simcore.engine.compile.fingerprint import engine_fingerprint
from simcore.engine.compile.jit import deal_njit
from simcore.engine.rng import below, stream_key
from simcore.records import WALL_SIZE

# Stream purpose of the conditional wall (rng.py uses 0 = wall, 1 = engine, 2..5 = seats).
PURPOSE_WHATIF = 7


@deal_njit
def whatif_dealer(deal, seat0_deals):
    """The dealer seat of what-if deal ``deal``: 0 if seat 0 deals, else ``1 + deal % 3``."""
    if seat0_deals:
        return 0
    return 1 + deal % 3


@deal_njit
def lay_conditional_wall(hand, dealer, state, wall, rest):
    """Fill ``wall`` (int8[108]) for a deal with ``dealer`` in which seat 0 is dealt ``hand``.

    ``hand``: int8[27] counts (13 tiles, 14 when ``dealer == 0``); ``state``: uint64[1], the
    deal's stream (advanced); ``rest``: int8[>= 95] work space.
    """
    n = 0
    for t in range(27):
        for _c in range(4 - hand[t]):
            rest[n] = t
            n += 1
    # Fisher-Yates over the unseen tiles
    for k in range(n - 1, 0, -1):
        j = below(state, 0, k + 1)
        x = rest[k]
        rest[k] = rest[j]
        rest[j] = x
    block = (4 - dealer) % 4  # the block of 13 dealt to seat 0
    lo = 13 * block
    hi = lo + 13
    t = 0  # next tile type of the fixed hand to place
    left = hand[0]  # copies of type t still to place
    r = 0  # next unseen tile
    for p in range(WALL_SIZE):
        if (lo <= p < hi) or (p == 52 and dealer == 0):
            while left == 0:
                t += 1
                left = hand[t]
            wall[p] = t
            left -= 1
        else:
            wall[p] = rest[r]
            r += 1


def _build_kernels(fingerprint: int) -> Any:
    """The cached wall kernel; ``fingerprint`` (a closure cell) is part of its cache key."""

    @njit(cache=True)
    def fill_conditional_walls(hand, seat0_deals, seed, start, walls, dealers):
        """Walls and dealers of what-if deals ``start .. start + len(walls) - 1``."""
        if fingerprint < 0:  # never: it only keys the cache
            return
        state = np.zeros(1, np.uint64)
        rest = np.empty(WALL_SIZE, np.int8)
        for j in range(walls.shape[0]):
            deal = start + j
            dealer = whatif_dealer(deal, seat0_deals)
            dealers[j] = dealer
            state[0] = stream_key(seed, deal, PURPOSE_WHATIF)
            lay_conditional_wall(hand, dealer, state, walls[j], rest)

    return fill_conditional_walls


fill_conditional_walls = _build_kernels(engine_fingerprint())
