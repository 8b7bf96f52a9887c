"""Conditional dealing: deals in which seat 0 holds a given hand, the unseen tiles shuffled.

The what-if analysis (:mod:`simcore.whatif`) plays many deals in which seat 0 is dealt exactly
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
:func:`simcore.engine.core.play_deal` with ``fixed_wall``: everything after dealing is a normal
deal. The caller passes rules with ``exchange_three`` off (the hand is "after the exchange").

Caching: numba's disk cache of a kernel is keyed by its own file only, so a cached kernel that
calls ``play_deal`` would keep running the old engine after ``core.py`` or ``policies.py``
change. The entry kernels here are therefore built by a factory whose closure holds a
fingerprint of the engine's sources, which numba includes in the cache key (it hashes a
closure's cell contents): any change to the engine recompiles them once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.engine.core import play_deal, write_records
from simcore.engine.fingerprint import engine_fingerprint
from simcore.engine.invariants import check_deal
from simcore.engine.jit import deal_njit
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


def _build_kernels(fingerprint: int) -> tuple[object, object]:
    """The cached entry kernels; ``fingerprint`` (a closure cell) is part of their cache key."""

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

    @njit(cache=True)
    def play_conditional_chunk(st, R, T, plan_pid, plan_params, plan_policy, hand, seat0_deals,
                               seed, start, count, out, debug, errors):
        """Play what-if deals ``start .. start+count-1`` once per plan, on common walls.

        ``plan_pid`` (int64[n_plans, 4]), ``plan_params`` (float64[n_plans, 4, N_PARAMS]) and
        ``plan_policy`` (int64[n_plans, 4], indices into the run's list of specs) give the four
        seats' policies of each plan. ``out`` holds ``n_plans * count * 4`` records, plan-major:
        plan ``p``, deal ``j``, seat ``s`` at row ``4 * (p * count + j) + s``. With ``debug``
        every deal is checked; the first failure stops with ``errors = [code, deal, plan]``.
        """
        if fingerprint < 0:  # never: it only keys the cache
            return
        n_plans = plan_pid.shape[0]
        state = np.zeros(1, np.uint64)
        rest = np.empty(WALL_SIZE, np.int8)
        wall = np.empty(WALL_SIZE, np.int8)
        for j in range(count):
            deal = start + j
            dealer = whatif_dealer(deal, seat0_deals)
            state[0] = stream_key(seed, deal, PURPOSE_WHATIF)
            lay_conditional_wall(hand, dealer, state, wall, rest)
            for p in range(n_plans):
                for k in range(WALL_SIZE):
                    st.wall[k] = wall[k]
                play_deal(st, R, T, plan_pid[p], plan_params[p], seed, deal, deal, dealer, True)
                if debug:
                    code = check_deal(st)
                    if code != 0:
                        errors[0] = code
                        errors[1] = deal
                        errors[2] = p
                        return
                write_records(st, out, 4 * (p * count + j), deal, deal, 0, plan_policy[p])

    return fill_conditional_walls, play_conditional_chunk


fill_conditional_walls, play_conditional_chunk = _build_kernels(engine_fingerprint())
