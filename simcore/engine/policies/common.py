"""What every policy family shares: the legal moves of a seat, bit-set helpers, its random
stream, and the claim answers.

The loops over a hand below have no data-dependent branch: which tile types a hand holds is
unpredictable, and a mispredicted branch per tile type made the discard mask alone ~40% of a
random deal (perf). Without branches LLVM vectorises them.
"""

from __future__ import annotations

from simcore.engine.compile.jit import deal_inline, deal_njit
from simcore.engine.state import P_IN_PLAY
from simcore.tiles import MELD_PUNG

CLAIM_PASS, CLAIM_PUNG, CLAIM_KONG = 0, 1, 2
SUIT_BITS = 0x1FF


@deal_inline
def n_in_play(st):
    """The players still in play (the engine's payments and the expert's danger model)."""
    n = 0
    for s in range(4):
        n += st.pl[s, P_IN_PLAY]
    return n


@deal_inline
def holds_void(st, seat):
    v = st.void[seat]
    held = 0
    for r in range(9):
        held |= st.hand[seat, 9 * v + r]  # counts are >= 0: the OR is > 0 iff one is
    return held > 0


@deal_inline
def suit_bits(suit):
    """The nine tile types of ``suit`` as a bit set (none for -1, no void yet)."""
    return SUIT_BITS << (9 * suit) if suit >= 0 else 0


@deal_inline
def held_mask(h, void, R):
    """Bit set of the tile types of ``h`` one may discard with void suit ``void`` (void_first:
    void-suit tiles first)."""
    mask = 0
    for t in range(27):
        mask |= (1 if h[t] > 0 else 0) << t
    void_mask = mask & suit_bits(void)
    if void_mask != 0 and R.void_first != 0:
        return void_mask
    return mask


@deal_inline
def discard_mask(st, seat, R):
    """Bit set of the tile types ``seat`` may discard now (void_first: void-suit tiles first)."""
    return held_mask(st.hand[seat], st.void[seat], R)


@deal_njit
def seat_stream(seat):
    """The seat's own random stream (rng.py: wall, engine, then seats 0..3)."""
    return 2 + seat


@deal_inline
def count_bits(mask):
    n = 0
    while mask:  # clearing the lowest bit: LLVM turns this loop into one popcount instruction
        mask &= mask - 1
        n += 1
    return n


@deal_inline
def nth_bit(mask, k):
    """The tile of the ``k``-th set bit of ``mask`` (lowest first); -1 when it has only k."""
    for t in range(27):
        if (mask >> t) & 1:
            if k == 0:
                return t
            k -= 1
    return -1


@deal_inline
def kong_mask(st, seat):
    """Bit set of the tiles ``seat`` may kong on its own turn (concealed or added, never the
    void suit)."""
    v = st.void[seat]
    bits = 0
    for t in range(27):
        bits |= (1 if st.hand[seat, t] == 4 else 0) << t
    bits &= ~suit_bits(v)
    for m in range(st.n_melds[seat]):
        t = st.meld_tile[seat, m]
        if st.meld_kind[seat, m] == MELD_PUNG and st.hand[seat, t] >= 1 and t // 9 != v:
            bits |= 1 << t
    return bits
