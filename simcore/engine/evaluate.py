"""Hand evaluation as the engine and the policies need it, on the rows of a :class:`DealState`.

Thin jitted adapters over :mod:`simcore.hand.kernels` and :mod:`simcore.hand.scoring_kernels`;
``T`` is the
:class:`simcore.hand.tables.SuitTables` tuple (its ``packed`` and ``masks`` arrays are used).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from simcore.engine.compile.jit import deal_inline, deal_njit
from simcore.engine.state import P_WAIT
from simcore.hand.kernels import (
    BIG,
    KIND_ANY,
    compute_keys,
    count_pairs,
    eval_shanten,
    eval_standard,
    eval_ukeire,
    eval_waits,
    get_d,
    get_row,
)
from simcore.hand.scoring_kernels import ready_value
from simcore.tiles import MELD_CONCEALED_KONG


@deal_inline
def meld_suit_mask(st, seat):
    bits = 0
    for m in range(st.n_melds[seat]):
        bits |= 1 << (st.meld_tile[seat, m] // 9)
    return bits


@deal_inline
def melds_code(meld_kind, meld_tile, n):
    """Melds ``meld_kind[:n]``, ``meld_tile[:n]`` as one integer, 7 bits each (kind << 5 |
    tile), first meld lowest: never 0 for a meld (its kind is 1 to 3)."""
    code = 0
    for m in range(n - 1, -1, -1):
        code = (code << 7) | (meld_kind[m] << 5) | meld_tile[m]
    return code


@deal_inline
def held_counts(st, seat, out):
    """Concealed plus meld tiles of ``seat`` into ``out`` (for the fifth-copy rule)."""
    for t in range(27):
        out[t] = st.hand[seat, t]
    for m in range(st.n_melds[seat]):
        out[st.meld_tile[seat, m]] += 4 if st.meld_kind[seat, m] != 1 else 3


@deal_njit
def visible_counts(st, seat, out):
    """Tiles ``seat`` can see: public tiles, its own hand and its own concealed kongs."""
    for t in range(27):
        out[t] = st.public[t] + st.hand[seat, t]
    for m in range(st.n_melds[seat]):
        if st.meld_kind[seat, m] == MELD_CONCEALED_KONG:
            out[st.meld_tile[seat, m]] += 4


@deal_inline
def update_wait(st, seat, T):
    """Recompute the wait mask of ``seat``, who now holds ``13 - 3k`` concealed tiles."""
    v = st.void[seat]
    void_tiles = 0
    for r in range(9):  # no branch per tile: an OR of counts >= 0 is > 0 iff one is
        void_tiles |= st.hand[seat, 9 * v + r]
    if void_tiles > 0:  # holding a void tile: no wait (the common case early)
        st.pl[seat, P_WAIT] = 0
        return
    held = st.scratch[seat]  # free outside a policy's decision; no allocation per discard
    held_counts(st, seat, held)
    st.pl[seat, P_WAIT] = _wait_mask(st.hand[seat], held, st.n_melds[seat], st.void[seat],
                                     meld_suit_mask(st, seat), T.packed, T.masks)


@deal_njit
def _wait_mask(hand, held, n_melds, void, meld_suits, packed, masks):
    """The wait computation of :func:`update_wait`, out of line: it takes a few arrays, not the
    state tuple, so the call is cheap, and the engine kernel holds one copy of it instead of
    one per place a hand changes (compile time)."""
    return eval_waits(hand, held, n_melds, void, meld_suits, packed, masks)


@deal_njit
def is_dead_wait(st, seat):
    """Every winning tile of ``seat`` is already fully visible to it (死叫)."""
    visible = st.visible
    visible_counts(st, seat, visible)
    mask = st.pl[seat, P_WAIT]
    for t in range(27):
        if (mask >> t) & 1 and visible[t] < 4:
            return False
    return True


@deal_njit
def ready_units(st, seat, R):
    """Value of ``seat``'s ready hand for the ready check (best or worst wait, docs/rules 6)."""
    return ready_value(
        st.hand[seat], st.meld_kind[seat], st.meld_tile[seat], st.n_melds[seat], st.void[seat], R
    )


@deal_njit
def shanten_of(counts, n_melds, void, T):
    return eval_shanten(counts, n_melds, void, KIND_ANY, T.packed)


@deal_njit
def ukeire_of(counts, n_melds, void, visible, T):
    """(shanten, number of unseen tiles that lower it)."""
    s, _mask, n = eval_ukeire(counts, n_melds, void, KIND_ANY, visible, T.packed, T.masks)
    return s, n


# ----------------------------------------------------------------------------- policy measures
# Distances toward a plan, for the policies (:mod:`.policies`). Each returns ``(shanten,
# useful)``: shanten is the fewest tiles to add, minus one, so that the hand's ``13 - 3k`` or
# ``14 - 3k`` concealed tiles complete the plan (-1 complete); useful is the number of unseen
# tiles (``4 - visible[t]``; ``visible`` includes the player's own tiles) whose draw lowers it.

_POW5 = np.array([5**r for r in range(9)], np.int64)
UNREACHABLE = 98  # shanten of a plan that the visible tiles make impossible


@deal_inline
def discard_shanten(counts, n_melds, void, mask, T, out):
    """``out[t]`` = shanten (any shape) after discarding ``t``, for each bit ``t`` of ``mask``.

    Returns the least of them. The suit keys and pair counts of ``counts`` are computed once
    and updated per candidate (one table combine per candidate instead of a full shanten call).
    """
    k0, k1, k2 = compute_keys(counts)
    pairs, singles = count_pairs(counts, void)
    best = BIG
    bits = mask
    while bits != 0:
        # the set bits of the mask in increasing order: a test per tile type mispredicts
        t = trailing_zeros(bits)
        bits &= bits - 1
        s = t // 9
        p = _POW5[t - 9 * s]
        a0 = k0 - p if s == 0 else k0
        a1 = k1 - p if s == 1 else k1
        a2 = k2 - p if s == 2 else k2
        d = eval_standard(a0, a1, a2, n_melds, void, T.packed)
        if n_melds == 0:
            pr = pairs
            sg = singles
            if s != void:
                if counts[t] & 1:
                    sg -= 1
                else:
                    pr -= 1
                    sg += 1
            need = 7 - pr
            q = 0 if need <= 0 else min(need, sg) + 2 * max(0, need - sg)
            d = min(d, q)
        out[t] = d - 1
        best = min(best, d - 1)
    return best


@deal_inline
def flush_eval(counts, n_melds, suit, visible, T):
    """(shanten, useful) toward a full flush of ``suit``: the suit's own concealed tiles only.

    Standard shape (the ``4 - n_melds`` melds and the pair all in ``suit``: one table word) or,
    without melds, seven pairs of the suit. Tiles of other suits count for nothing.
    """
    base = 9 * suit
    key = 0
    pairs = 0
    singles = 0
    for r in range(8, -1, -1):
        c = counts[base + r]
        key = key * 5 + c
        pairs += c >> 1
        singles += c & 1
    slot = 2 * (4 - n_melds) + 1
    word = T.packed[key]
    d = get_d(word, slot)
    q = BIG
    need = 7 - pairs
    if n_melds == 0:
        q = 0 if need <= 0 else min(need, singles) + 2 * max(0, need - singles)
    best = min(d, q)
    if best == 0:
        return -1, 0
    mask = np.int64(0)
    if d == best:
        mask |= np.int64(T.masks[get_row(word), slot])
    if q == best:
        short = need > singles
        for r in range(9):
            c = counts[base + r]
            if (c & 1) == 1 or (short and c < 4):
                mask |= np.int64(1) << r
    useful = 0
    for r in range(9):
        if (mask >> r) & 1:
            useful += max(0, 4 - visible[base + r])
    return best - 1, useful


@deal_inline
def _cheapest_triplets(M, b0, b1, b2):
    """Tiles to add for ``M`` triplets from b0 held triplets, b1 live pairs, b2 live singles
    (then new types, three tiles each)."""
    need = M
    take = min(need, b0)
    need -= take
    take = min(need, b1)
    total = take
    need -= take
    take = min(need, b2)
    total += 2 * take
    need -= take
    return total + 3 * need


@deal_inline
def pungs_eval(counts, n_melds, void, visible):
    """(shanten, useful) toward all pungs (对对胡): ``4 - n_melds`` triplets and a pair.

    A type can become a triplet only if enough copies are unseen (a pair whose other two
    copies are visible is a pair for ever). Useful tiles: unseen copies of held pairs, and of
    held singles while the hand has fewer pairs and triplets than the plan needs.
    """
    M = 4 - n_melds
    # classes of held types: (triplet cost bucket, pair cost)
    b0 = 0  # three or four held
    b1 = 0  # a live pair (an unseen copy left)
    b2 = 0  # a single with two unseen copies left
    n_dead_pair = 0  # a pair with no unseen copy: only the eyes
    n_single_pairable = 0  # a single with exactly one unseen copy: only the eyes
    groups = 0  # types held at least twice
    useful_pairs = 0
    useful_singles = 0
    # no branch per type: whether a type is held, and how often, mispredicts (a perf profile
    # of expert rollouts put a quarter of the hand's valuation in this loop)
    for s in range(3):
        if s == void:
            continue
        for r in range(9):
            c = counts[9 * s + r]
            unseen = 4 - visible[9 * s + r]
            single = c == 1
            pair = c == 2
            b0 += c >= 3
            groups += c >= 2
            live_pair = pair & (unseen >= 1)
            b1 += live_pair
            useful_pairs += live_pair * unseen
            n_dead_pair += pair & (unseen < 1)
            live_single = single & (unseen >= 2)
            b2 += live_single
            pairable = single & (unseen == 1)
            n_single_pairable += pairable
            useful_singles += live_single * unseen + pairable
    best = BIG
    # the eyes from a new type (two tiles), or from a held class
    best = min(best, 2 + _cheapest_triplets(M, b0, b1, b2))
    if b0 > 0:
        best = min(best, _cheapest_triplets(M, b0 - 1, b1, b2))
    if b1 > 0:
        best = min(best, _cheapest_triplets(M, b0, b1 - 1, b2))
    if n_dead_pair > 0:
        best = min(best, _cheapest_triplets(M, b0, b1, b2))
    if b2 > 0:
        best = min(best, 1 + _cheapest_triplets(M, b0, b1, b2 - 1))
    if n_single_pairable > 0:
        best = min(best, 1 + _cheapest_triplets(M, b0, b1, b2))
    useful = useful_pairs + (useful_singles if groups < M + 1 else 0)
    if best == 0:
        return -1, 0
    return best - 1, useful


@deal_inline
def pairs_eval(counts, n_melds, void, visible):
    """(shanten, useful) toward seven pairs; a single whose every other copy is visible can
    never pair and counts for nothing. :data:`UNREACHABLE` with exposed melds."""
    if n_melds > 0:
        return UNREACHABLE, 0
    pairs = 0
    live = 0
    useful_single = 0
    useful_new = 0
    for s in range(3):  # no branch per type (pungs_eval)
        if s == void:
            continue
        for r in range(9):
            c = counts[9 * s + r]
            unseen = max(0, 4 - visible[9 * s + r])
            pairs += c >> 1
            odd = (c & 1) == 1
            live += odd & (unseen > 0)
            useful_single += odd * unseen
            useful_new += ((not odd) & (c < 4)) * unseen
    need = 7 - pairs
    if need <= 0:
        return -1, 0
    d = min(need, live) + 2 * max(0, need - live)
    useful = useful_single + (useful_new if need > live else 0)
    return d - 1, useful
