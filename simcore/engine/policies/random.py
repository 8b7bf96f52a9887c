"""The ``random`` family: a uniformly random legal action at every decision, drawn from the
seat's own stream (so a random seat never changes another seat's draws)."""

from __future__ import annotations

import numpy as np

from simcore.engine.compile.jit import deal_inline, deal_njit
from simcore.engine.policies.common import count_bits, discard_mask, nth_bit, seat_stream
from simcore.engine.rng import below


@deal_njit
def choose_exchange(st, seat, P, R, T, out):
    """Three random tiles (distinct tile instances) of a random suit holding three."""
    n_ok = 0
    for s in range(3):
        if st.hand[seat, 9 * s: 9 * s + 9].sum() >= 3:
            n_ok += 1
    pick = below(st.rng, seat_stream(seat), n_ok)
    suit = -1
    for s in range(3):
        if st.hand[seat, 9 * s: 9 * s + 9].sum() >= 3:
            if pick == 0:
                suit = s
                break
            pick -= 1
    work = st.scratch[seat]
    for t in range(27):
        work[t] = st.hand[seat, t]
    for j in range(3):
        left = 0
        for r in range(9):
            left += work[9 * suit + r]
        k = below(st.rng, seat_stream(seat), left)
        for r in range(9):
            c = work[9 * suit + r]
            if k < c:
                out[j] = 9 * suit + r
                work[9 * suit + r] -= 1
                break
            k -= c


@deal_njit
def choose_void(st, seat, P, R, T):
    if R.suits == 2:  # no void is declared (the engine gives m, the absent suit)
        return np.int64(0)
    return np.int64(below(st.rng, seat_stream(seat), 3))


@deal_inline
def choose_discard(st, seat, P, R, T):
    mask = discard_mask(st, seat, R)
    return nth_bit(mask, below(st.rng, seat_stream(seat), count_bits(mask)))


@deal_inline
def take_win(st, seat):
    """Take a win (self-drawn or on a discard) with probability 1/2."""
    return below(st.rng, seat_stream(seat), 2) == 1


@deal_inline
def choose_claim(st, seat, P, tile, can_kong, R, T):
    return np.int64(below(st.rng, seat_stream(seat), 3 if can_kong else 2))


@deal_inline
def choose_kong(st, seat, P, R, T, candidates):
    # one more choice than kong tiles: the last one (k == count) declines to kong
    return nth_bit(candidates, below(st.rng, seat_stream(seat), count_bits(candidates) + 1))
