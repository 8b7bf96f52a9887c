"""Numba kernels for shanten, completeness, waits and useful tiles (ukeire).

Every kernel takes the per-suit tables of :mod:`simcore.hand.tables` as arguments: ``packed``
(``uint64[5**9]``: the ten distances ``d[m][p]`` of a suit key as nibbles, and its row) and,
for waits and ukeire, ``masks`` (``uint16[rows, 16]``) — numba's on-disk cache cannot hold
functions that read large global arrays as constants. Inputs are trusted (the public layer
:mod:`simcore.hand` validates): ``counts`` is ``int8[27]`` concealed counts of at most
``14 - 3 * n_melds`` tiles, ``void`` is ``-1`` or a suit 0..2, ``kind`` a ``KIND_*`` code.

Definitions (shared with :mod:`simcore.hand.reference`): standard shanten is the fewest tiles to
*add* so that the concealed tiles contain ``4 - n_melds`` melds + one pair of non-void suits
(at most 4 copies of a type in the target), minus one; seven-pairs shanten (no melds) is the
fewest tiles to add to contain 7 pairs of non-void types (four copies are two pairs), minus
one, and :data:`NO_SHAPE` with melds; "any" is the smaller. Shanten ignores the three-suit
rule; the win test (:func:`_check_win`) and :func:`find_waits` apply it.

Standard shanten = a min-plus combine of the non-void suits' ``d[m][p]`` over the ways to split
the melds and the pair between the suits. Its improvers (tile types whose addition lowers it)
are the union, over the optimal splits, of each suit's per-(m, p) rank masks; with seven pairs
as good, the seven-pairs improvers join. A waiting hand is ready iff its shanten is 0, and then
its waits are exactly those improvers (minus fifth copies and tiles of a third suit).

Entry points (``_calc_shanten``, ``_check_complete``, ``_check_win``, ``find_improvers``,
``_count_ukeire``, ``find_waits`` and their ``_batch`` forms over ``(n, 27)`` arrays) allocate
nothing. Their bodies, the ``_eval_*`` helpers, are inlined by numba (``inline="always"``) so a
caller's loop becomes one flat function in which the standard combine is specialised for the
meld count (an unrolled min-plus over constant bounds); the rest are ordinary jitted functions
that LLVM inlines as it sees fit (inlining every helper multiplied compile times by 3-10). Callers
holding suit keys (updated incrementally by ``+- 5**r``) can call ``eval_standard`` directly.
Wait and ukeire masks are 27-bit sets of tile types (bit ``t``), as int64.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore._jit import kernel

KIND_ANY = 0
KIND_STANDARD = 1
KIND_SEVEN_PAIRS = 2
KIND_CODES = {"any": KIND_ANY, "standard": KIND_STANDARD, "seven_pairs": KIND_SEVEN_PAIRS}

NO_SHAPE = 99  # shanten of seven pairs with exposed melds (impossible shape)
BIG = 100  # tile distance meaning "impossible" (NO_SHAPE + 1)
_ROW_SHIFT = 40  # simcore.hand.tables.ROW_SHIFT
_ROW_BITS = 0x7FFFF
_SUIT_BITS = 0x1FF  # the nine tile types of one suit in a 27-bit mask


# --------------------------------------------------------------------------------------------
# inlined helpers


@njit(cache=True, inline="always")
def compute_keys(counts):
    """Base-5 keys of the three suits (Horner, rank 9 first)."""
    k0 = 0
    k1 = 0
    k2 = 0
    for r in range(8, -1, -1):
        k0 = k0 * 5 + counts[r]
        k1 = k1 * 5 + counts[9 + r]
        k2 = k2 * 5 + counts[18 + r]
    return k0, k1, k2


@kernel
def get_d(word, slot):
    """``d`` of slot ``2*m + p`` from a packed table word."""
    return np.int32((word >> np.uint64(4 * slot)) & np.uint64(15))


@kernel
def get_row(word):
    return np.int64(word >> np.uint64(_ROW_SHIFT)) & _ROW_BITS


@kernel
def combine_two(ea, eb, M):
    """Fewest additions for M melds + 1 pair split over two suits."""
    best = BIG
    for a in range(M + 1):
        b = M - a
        best = min(
            best,
            get_d(ea, 2 * a) + get_d(eb, 2 * b + 1),
            get_d(ea, 2 * a + 1) + get_d(eb, 2 * b),
        )
    return best


@kernel
def combine_three(ea, eb, ec, M):
    """Fewest additions for M melds + 1 pair over three suits: (B + C), then with A."""
    best = BIG
    for a in range(M + 1):
        m = M - a
        e0 = BIG  # B + C with m melds, no pair
        e1 = BIG  # B + C with m melds and the pair
        for b in range(m + 1):
            c = m - b
            b0 = get_d(eb, 2 * b)
            c0 = get_d(ec, 2 * c)
            e0 = min(e0, b0 + c0)
            e1 = min(e1, get_d(eb, 2 * b + 1) + c0, b0 + get_d(ec, 2 * c + 1))
        best = min(best, get_d(ea, 2 * a) + e1, get_d(ea, 2 * a + 1) + e0)
    return best


@njit(cache=True, inline="always")
def eval_standard(k0, k1, k2, n_melds, void, packed):
    """Fewest tiles to add for the standard shape; the meld count becomes a constant."""
    M = 4 - n_melds
    if void < 0:
        ea = packed[k0]
        eb = packed[k1]
        ec = packed[k2]
        if M == 4:
            return combine_three(ea, eb, ec, 4)
        if M == 3:
            return combine_three(ea, eb, ec, 3)
        if M == 2:
            return combine_three(ea, eb, ec, 2)
        if M == 1:
            return combine_three(ea, eb, ec, 1)
        return combine_three(ea, eb, ec, 0)
    if void == 0:
        ea = packed[k1]
        eb = packed[k2]
    elif void == 1:
        ea = packed[k0]
        eb = packed[k2]
    else:
        ea = packed[k0]
        eb = packed[k1]
    if M == 4:
        return combine_two(ea, eb, 4)
    if M == 3:
        return combine_two(ea, eb, 3)
    if M == 2:
        return combine_two(ea, eb, 2)
    if M == 1:
        return combine_two(ea, eb, 1)
    return combine_two(ea, eb, 0)


@njit(cache=True, inline="always")
def count_pairs(counts, void):
    """(pairs, singles) among the non-void types: sum of c // 2 and of c % 2."""
    pairs = 0
    singles = 0
    for s in range(3):
        if s != void:
            for r in range(9):
                c = counts[9 * s + r]
                pairs += c >> 1
                singles += c & 1
    return pairs, singles


@njit(cache=True, inline="always")
def eval_seven_pairs(counts, n_melds, void):
    """Fewest tiles to add for seven pairs (``BIG`` with melds)."""
    if n_melds > 0:
        return BIG
    pairs, singles = count_pairs(counts, void)
    need = 7 - pairs
    if need <= 0:
        return 0
    return min(need, singles) + 2 * max(0, need - singles)


@njit(cache=True, inline="always")
def eval_shanten(counts, n_melds, void, kind, packed):
    if kind == KIND_SEVEN_PAIRS:
        return eval_seven_pairs(counts, n_melds, void) - 1
    k0, k1, k2 = compute_keys(counts)
    d = eval_standard(k0, k1, k2, n_melds, void, packed)
    if kind == KIND_ANY and n_melds == 0:
        d = min(d, eval_seven_pairs(counts, n_melds, void))
    return d - 1


@njit(cache=True, inline="always")
def _suits_held(counts):
    """Bit set of the suits with at least one concealed tile."""
    s = 0
    for su in range(3):
        held = 0
        for r in range(9):  # no early exit: a branch per tile mispredicts (engine profile)
            held |= counts[9 * su + r]  # counts are >= 0: the OR is > 0 iff one is
        if held > 0:
            s |= 1 << su
    return s


@njit(cache=True, inline="always")
def _eval_win(counts, n_melds, void, meld_suits, packed):
    suits = _suits_held(counts) | meld_suits
    if void >= 0 and (suits >> void) & 1:
        return False
    if suits == 7:
        return False
    return eval_shanten(counts, n_melds, void, KIND_ANY, packed) == -1


@kernel
def _mask_two(ea, eb, M, best, masks):
    """Rank masks of suits a and b, OR-ed over the splits whose distance is ``best``."""
    ra = get_row(ea)
    rb = get_row(eb)
    ma = np.int64(0)
    mb = np.int64(0)
    for a in range(M + 1):
        b = M - a
        for pa in range(2):
            sa = 2 * a + pa
            sb = 2 * b + 1 - pa
            hit = np.int64(get_d(ea, sa) + get_d(eb, sb) == best)
            ma |= np.int64(masks[ra, sa]) * hit
            mb |= np.int64(masks[rb, sb]) * hit
    return ma, mb


@kernel
def _mask_three(ea, eb, ec, M, best, masks):
    """Rank masks of suits a, b, c, OR-ed over the splits whose distance is ``best``."""
    ra = get_row(ea)
    rb = get_row(eb)
    rc = get_row(ec)
    ma = np.int64(0)
    mb = np.int64(0)
    mc = np.int64(0)
    for a in range(M + 1):
        for b in range(M - a + 1):
            c = M - a - b
            for pair in range(3):
                sa = 2 * a + (1 if pair == 0 else 0)
                sb = 2 * b + (1 if pair == 1 else 0)
                sc = 2 * c + (1 if pair == 2 else 0)
                hit = np.int64(get_d(ea, sa) + get_d(eb, sb) + get_d(ec, sc) == best)
                ma |= np.int64(masks[ra, sa]) * hit
                mb |= np.int64(masks[rb, sb]) * hit
                mc |= np.int64(masks[rc, sc]) * hit
    return ma, mb, mc


@njit(cache=True, inline="always")
def _standard_mask(k0, k1, k2, n_melds, void, best, packed, masks):
    """27-bit mask of the types whose addition lowers the standard distance ``best`` by one."""
    M = 4 - n_melds
    if void < 0:
        ea = packed[k0]
        eb = packed[k1]
        ec = packed[k2]
        if M == 4:
            ma, mb, mc = _mask_three(ea, eb, ec, 4, best, masks)
        elif M == 3:
            ma, mb, mc = _mask_three(ea, eb, ec, 3, best, masks)
        else:
            ma, mb, mc = _mask_three(ea, eb, ec, M, best, masks)
        return ma | (mb << 9) | (mc << 18)
    if void == 0:
        ea = packed[k1]
        eb = packed[k2]
        sa = 9
        sb = 18
    elif void == 1:
        ea = packed[k0]
        eb = packed[k2]
        sa = 0
        sb = 18
    else:
        ea = packed[k0]
        eb = packed[k1]
        sa = 0
        sb = 9
    if M == 4:
        ma, mb = _mask_two(ea, eb, 4, best, masks)
    elif M == 3:
        ma, mb = _mask_two(ea, eb, 3, best, masks)
    else:
        ma, mb = _mask_two(ea, eb, M, best, masks)
    return (ma << sa) | (mb << sb)


@kernel
def _seven_pairs_mask(counts, void):
    """Mask of the types whose addition lowers a positive seven-pairs distance by one.

    With ``need`` pairs missing and ``singles`` odd counts: a tile on an odd count always helps;
    a tile on a count of 0 or 2 helps only while ``need > singles`` (it makes a new single).
    """
    pairs, singles = count_pairs(counts, void)
    short = 7 - pairs > singles
    mask = np.int64(0)
    for s in range(3):
        if s != void:
            for r in range(9):
                c = counts[9 * s + r]
                if (c & 1) == 1 or (short and c < 4):
                    mask |= np.int64(1) << (9 * s + r)
    return mask


@njit(cache=True, inline="always")
def _eval_improvers(counts, n_melds, void, kind, packed, masks):
    """(shanten of ``kind``, mask of the types whose draw lowers it).

    The standard improvers are the union over the optimal splits; when seven pairs is as good
    (or better), its improvers join (or replace them).
    """
    k0, k1, k2 = compute_keys(counts)
    d = BIG
    q = BIG
    if kind != KIND_SEVEN_PAIRS:
        d = eval_standard(k0, k1, k2, n_melds, void, packed)
    if kind != KIND_STANDARD:
        q = eval_seven_pairs(counts, n_melds, void)
    best = min(d, q)
    mask = np.int64(0)
    if best == 0 or best == BIG:
        return best - 1, mask
    if d == best:
        mask |= _standard_mask(k0, k1, k2, n_melds, void, best, packed, masks)
    if q == best:
        mask |= _seven_pairs_mask(counts, void)
    return best - 1, mask


@njit(cache=True, inline="always")
def eval_ukeire(counts, n_melds, void, kind, visible, packed, masks):
    s, mask = _eval_improvers(counts, n_melds, void, kind, packed, masks)
    n = 0
    for t in range(27):
        n += ((mask >> t) & 1) * max(0, 4 - visible[t])
    return s, mask, n


@njit(cache=True, inline="always")
def eval_waits(counts, held, n_melds, void, meld_suits, packed, masks):
    suits = _suits_held(counts) | meld_suits
    if void >= 0 and (suits >> void) & 1:
        return np.int64(0)
    if suits == 7:
        return np.int64(0)
    if eval_shanten(counts, n_melds, void, KIND_ANY, packed) != 0:
        return np.int64(0)
    _, mask = _eval_improvers(counts, n_melds, void, KIND_ANY, packed, masks)
    allowed = np.int64(0)
    if suits == 1 or suits == 2 or suits == 4:  # one suit: the win may add a second
        allowed = np.int64((1 << 27) - 1)
    else:
        for su in range(3):
            if (suits >> su) & 1:
                allowed |= np.int64(_SUIT_BITS) << (9 * su)
    for t in range(27):
        if held[t] >= 4:
            allowed &= ~(np.int64(1) << t)
    return mask & allowed


# --------------------------------------------------------------------------------------------
# entry points


@kernel
def _calc_shanten(counts, n_melds, void, kind, packed):
    """Shanten of ``kind``: -1 complete, 0 ready, ``NO_SHAPE`` for seven pairs with melds."""
    return eval_shanten(counts, n_melds, void, kind, packed)


@kernel
def _check_complete(counts, n_melds, void, packed):
    """Complete shape (standard or seven pairs) of non-void tiles; three suits not checked."""
    return eval_shanten(counts, n_melds, void, KIND_ANY, packed) == -1


@kernel
def _check_win(counts, n_melds, void, meld_suits, packed):
    """Sichuan win of ``14 - 3k`` concealed tiles: complete, no void tile, at most two suits.

    ``meld_suits`` is the bit set of the suits of the exposed melds.
    """
    return _eval_win(counts, n_melds, void, meld_suits, packed)


@kernel
def find_improvers(counts, n_melds, void, kind, packed, masks):
    """(shanten, mask of the types whose draw lowers it); a type with 4 concealed is never in."""
    return _eval_improvers(counts, n_melds, void, kind, packed, masks)


@kernel
def _count_ukeire(counts, n_melds, void, kind, visible, packed, masks):
    """(shanten, improver mask, unseen improving tiles: ``sum(4 - visible[t])`` over the mask).

    ``visible`` must include the player's own tiles (concealed and melds), so a copy held or
    melded is not counted as unseen.
    """
    return eval_ukeire(counts, n_melds, void, kind, visible, packed, masks)


@kernel
def find_waits(counts, held, n_melds, void, meld_suits, packed, masks):
    """Mask of the tile types that make a ``13 - 3k`` tile hand a Sichuan win.

    A wait completes the standard or seven-pairs shape, is not of the void suit, leaves at most
    two suits counting the melds' suits (``meld_suits``) and is not a fifth copy (``held`` =
    concealed + meld tiles). A hand holding a void tile, or of three suits, has none.
    """
    return eval_waits(counts, held, n_melds, void, meld_suits, packed, masks)


@kernel
def calc_shanten_batch(counts, n_melds, void, kind, packed, out):
    """``out[i]`` = shanten of hand ``i`` of ``counts[n, 27]``; per-hand ``n_melds``, ``void``."""
    for i in range(counts.shape[0]):
        out[i] = eval_shanten(counts[i], n_melds[i], void[i], kind, packed)


@kernel
def _check_complete_batch(counts, n_melds, void, packed, out):
    for i in range(counts.shape[0]):
        out[i] = eval_shanten(counts[i], n_melds[i], void[i], KIND_ANY, packed) == -1


@kernel
def check_win_batch(counts, n_melds, void, meld_suits, packed, out):
    for i in range(counts.shape[0]):
        out[i] = _eval_win(counts[i], n_melds[i], void[i], meld_suits[i], packed)


@kernel
def _find_waits_batch(counts, held, n_melds, void, meld_suits, packed, masks, out):
    for i in range(counts.shape[0]):
        out[i] = eval_waits(counts[i], held[i], n_melds[i], void[i], meld_suits[i], packed, masks)


@kernel
def _count_ukeire_batch(counts, n_melds, void, kind, visible, packed, masks, out_mask, out_n):
    for i in range(counts.shape[0]):
        _, m, n = eval_ukeire(counts[i], n_melds[i], void[i], kind, visible[i], packed, masks)
        out_mask[i] = m
        out_n[i] = n
