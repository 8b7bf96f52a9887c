"""The ``highest`` example family's decisions (tests only: tests/engine/test_example_family.py
drops this module into a copy of ``simcore/engine/policies/``; it is never shipped).

Discard the highest-ranked legal tile, declare the void as the suit with fewest tiles, pass
every claim, never kong, win whenever allowed. No randomness, no options, no memory.
"""

from __future__ import annotations

import numpy as np

from simcore.engine.compile.jit import deal_inline, deal_njit
from simcore.engine.policies.common import CLAIM_PASS, discard_mask


@deal_inline
def _suit_count(st, seat, suit):
    n = 0
    for r in range(9):
        n += st.hand[seat, 9 * suit + r]
    return n


@deal_njit
def choose_exchange(st, seat, P, R, T, out):
    """The three highest-ranked tiles of the shortest suit holding three (ties: lower suit)."""
    suit, fewest = 0, 99
    for s in range(3):
        n = _suit_count(st, seat, s)
        if 3 <= n < fewest:
            suit, fewest = s, n
    j = 0
    for r in range(8, -1, -1):
        left = st.hand[seat, 9 * suit + r]
        while left > 0 and j < 3:
            out[j] = 9 * suit + r
            j += 1
            left -= 1


@deal_njit
def choose_void(st, seat, P, R, T):
    """The suit with fewest tiles (ties: lower suit)."""
    if R.suits == 2:  # no void is declared
        return np.int64(0)
    suit, fewest = 0, 99
    for s in range(3):
        n = _suit_count(st, seat, s)
        if n < fewest:
            suit, fewest = s, n
    return np.int64(suit)


@deal_inline
def choose_discard(st, seat, P, R, T):
    """The legal tile of highest rank (ties: lower suit)."""
    mask = discard_mask(st, seat, R)
    best, best_rank = np.int64(-1), -1
    for t in range(27):
        if (mask >> t) & 1 and t % 9 > best_rank:
            best, best_rank = np.int64(t), t % 9
    return best


@deal_inline
def take_win(st, seat):
    """Every win the engine offers, self-drawn or on a discard."""
    return True


@deal_inline
def choose_claim(st, seat, P, tile, can_kong, R, T):
    return np.int64(CLAIM_PASS)


@deal_inline
def choose_kong(st, seat, P, R, T, candidates):
    return np.int64(-1)
