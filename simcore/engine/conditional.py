"""Conditional dealing: deals in which seat 0 holds a given hand, the unseen tiles shuffled.

The what-if analysis (:mod:`simcore.rollouts`) plays many deals in which seat 0 is dealt exactly
one hand (13 tiles, or 14 as the dealer) and the other 95 (94) tiles are a uniform random
permutation, then compares plans (seat 0's policy) on the *same* walls.

Wall of deal ``i`` (a pure function of ``(seed, i, hand, dealer)``, so identical for every plan):

1. the dealer is given by a *dealer code*: ``d > 0`` is seat ``d - 1`` in every deal (1: seat 0
   deals), 0 is seat ``1 + i % 3`` (seat 0 never deals, and each other seat deals a third of
   the deals, as in a normal run's rotation);
2. the tiles not in the hand are listed by type and shuffled by Fisher-Yates with the deal's
   counter-based stream ``stream_key(seed, i, PURPOSE_WHATIF)``;
3. they are laid into the wall in order around seat 0's dealt positions: block ``k`` (tiles
   ``13k .. 13k+12``) belongs to seat ``(dealer + k) % 4``, and tile 52 is the dealer's 14th.
   Seat 0's positions receive the hand's tiles in type order (as the dealer, its highest tile
   type is tile 52, which only names the winning tile of a heavenly win).

Optionally three more tiles are fixed in another seat's hand (``receiver`` >= 1, the types
``g0, g1, g2``): the three seat 0 passed in an exchange it has made, which the receiving seat
holds. They take that seat's first three positions and are left out of the shuffle, so the
rest of its hand, the other hands and the wall are uniform given both (the review of the void
choice, :mod:`simcore.review.setup`).

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
def whatif_dealer(deal, dealer_code):
    """The dealer seat of what-if deal ``deal`` (``dealer_code``: the module docstring)."""
    if dealer_code > 0:
        return dealer_code - 1
    return 1 + deal % 3


@deal_njit
def lay_conditional_wall(hand, dealer, state, wall, rest, receiver, g0, g1, g2):
    """Fill ``wall`` (int8[108]) for a deal with ``dealer`` in which seat 0 is dealt ``hand``
    and seat ``receiver`` (when >= 1) tiles ``g0, g1, g2`` besides its others.

    ``hand``: int8[27] counts (13 tiles, 14 when ``dealer == 0``); ``state``: uint64[1], the
    deal's stream (advanced); ``rest``: int8[>= 95] work space.
    """
    n = 0
    for t in range(27):
        left_out = 0
        if receiver >= 1:
            left_out = (g0 == t) + (g1 == t) + (g2 == t)
        for _c in range(4 - hand[t] - left_out):
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
    given_at = -1  # the first of the receiver's positions
    if receiver >= 1:
        given_at = 13 * ((receiver - dealer + 4) % 4)
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
        elif p == given_at:
            wall[p] = g0
        elif given_at >= 0 and p == given_at + 1:
            wall[p] = g1
        elif given_at >= 0 and p == given_at + 2:
            wall[p] = g2
        else:
            wall[p] = rest[r]
            r += 1


def _build_kernels(fingerprint: int) -> Any:
    """The cached wall kernel; ``fingerprint`` (a closure cell) is part of its cache key."""

    @njit(cache=True)
    def fill_conditional_walls(hand, dealer_code, seed, start, walls, dealers, fixed):
        """Walls and dealers of what-if deals ``start .. start + len(walls) - 1``; ``fixed``:
        int64[4], the receiver and its three given tiles (receiver 0: none)."""
        if fingerprint < 0:  # never: it only keys the cache
            return
        state = np.zeros(1, np.uint64)
        rest = np.empty(WALL_SIZE, np.int8)
        for j in range(walls.shape[0]):
            deal = start + j
            dealer = whatif_dealer(deal, dealer_code)
            dealers[j] = dealer
            state[0] = stream_key(seed, deal, PURPOSE_WHATIF)
            lay_conditional_wall(hand, dealer, state, walls[j], rest, fixed[0], fixed[1],
                                 fixed[2], fixed[3])

    return fill_conditional_walls


fill_conditional_walls = _build_kernels(engine_fingerprint())
