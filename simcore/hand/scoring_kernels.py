"""Numba kernels for fan scoring and ready values (docs/rules section 7).

Contract: docs/ARCHITECTURE.md, "Scoring kernel contract". The public Python layer is
:mod:`simcore.scoring`; the engine calls the kernels here directly.

How a hand is scored. A winning hand is read as seven pairs (no melds, every count even) and/or
as a standard hand (melds + concealed sets + one pair). The standard readings of the concealed
tiles split by suit: each suit's tiles must form sets (and the pair, in the one suit whose count
is 2 mod 3) on their own. What separates readings is only (a) whether every set is a triplet
(all pungs and the patterns built on it) and (b) whether every group holds a 1 or a 9
(terminals). So each suit reports four facts — *some* reading, an all-triplet reading, a
terminal reading, an all-triplet terminal reading — and the best standard reading is the best of
"any reading" and "all-triplet reading", each with terminals when every suit (and every meld)
allows it. Flush, roots and the situational bonuses do not depend on the reading.

The four facts are found without tables or allocation (a whole score takes about 0.2 µs):

- some reading: the classic greedy scan (at each rank, a triplet first, the rest as runs) after
  trying each possible pair;
- all-triplet reading: every count is 0 or 3, except one 2 (the pair);
- terminal reading: ranks 4-6 empty, the 2s and 3s all in runs 123 (count(2) == count(3)) and
  what is left of the 1s is 0, 2 (the pair) or 3 (a triplet); the same on the 7-8-9 side;
- all-triplet terminal reading: only 1s and 9s, counts 0, 2 (the pair) or 3.

>>> from simcore.rules import PRESETS
>>> from simcore.tiles import parse, melds_to_arrays
>>> counts, melds = parse("111444m222999p66p")
>>> kind, tile, n = melds_to_arrays(melds)
>>> fan, fan_uncapped, pattern, flush, terminals, roots, units = score_hand(
...     counts, kind, tile, n, 2, False, 0, PRESETS["classic"].encode())
>>> fan, PATTERN_NAMES[pattern], units
(1, 'all_pungs', 2)
"""

from __future__ import annotations

import numpy as np

from simcore._jit import kernel
from simcore.records import (  # noqa: F401 (PAT_* and PATTERN_NAMES: re-exported for scoring)
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_PUNG,
    PAT_ALL_PUNGS,
    PAT_GOLDEN_HOOK,
    PAT_NONE,
    PAT_PLAIN,
    PAT_PUNGS_258,
    PAT_SEVEN_PAIRS,
    PATTERN_NAMES,
)
from simcore.rules import (
    HE_MAX,
    READY_MIN,
    SDB_BASE,
    SDB_FAN,
)

# situational bonuses (bit set); every flag but B_HEAVEN_EARTH is worth +1 fan
B_KONG_FLOWER = 1  # 杠上花: win on a kong's replacement draw
B_KONG_DISCARD = 2  # 杠上炮: win on the discard made right after a kong's replacement draw
B_ROBBED_KONG = 4  # 抢杠: win by robbing an added kong
B_LAST_TILE = 8  # 海底: win on the wall's last tile or on the discard after it
B_HEAVEN_EARTH = 16  # 天胡/地胡: worth exactly max_fan under heaven_earth = max
B_SITUATIONAL = B_KONG_FLOWER | B_KONG_DISCARD | B_ROBBED_KONG | B_LAST_TILE
BONUS_NAMES = ("kong_flower", "kong_discard", "robbed_kong", "last_tile")
BONUS_FLAGS = (B_KONG_FLOWER, B_KONG_DISCARD, B_ROBBED_KONG, B_LAST_TILE)

# fields of score_hand's result tuple (fan, fan_uncapped, pattern, flush, terminals, roots, units)
RES_FAN, RES_FAN_UNCAPPED, RES_PATTERN, RES_FLUSH, RES_TERMINALS, RES_ROOTS, RES_UNITS = range(7)


# columns of the batch output (score_batch)
COL_FAN = 0
COL_FAN_UNCAPPED = 1
COL_PATTERN = 2
COL_FLUSH = 3
COL_TERMINALS = 4
COL_ROOTS = 5
COL_UNITS = 6
N_COLS = 7
COLUMN_NAMES = ("fan", "fan_uncapped", "pattern", "flush", "terminals", "roots", "units")

# per-suit reading facts (bits of _suit_facts)
F_SETS = 1  # some reading
F_TRIPLETS = 2  # a reading whose sets are all triplets
F_TERMINALS = 4  # a reading whose every group holds a 1 or a 9
F_TRIPLET_TERMINALS = 8  # both at once
F_ALL = 15


@kernel
def _sets_only(h, base, pair):
    """True if ranks ``base..base+8`` of ``h`` (minus two of ``base + pair``, if ``pair`` >= 0)
    split into triplets and runs. Greedy: at each rank a triplet first, the rest start runs
    (a triplet-first split exists whenever any split does)."""
    a = 0  # runs started at the previous rank: they need this rank and the next
    b = 0  # runs started two ranks back: they need this rank
    for i in range(9):
        x = h[base + i] - a - b
        if i == pair:
            x -= 2
        if x < 0:
            return False
        r = x - 3 if x >= 3 else x
        b = a
        a = r
    return a == 0 and b == 0


@kernel
def _side_rest(c1, c2, c3):
    """What is left of the 1s (or 9s) after the runs 123 (789) that take every 2 and 3
    (8 and 7) in a terminal reading: -1 when impossible, else 0, 2 (pair) or 3 (triplet)."""
    if c2 != c3:
        return -1
    rest = c1 - c2
    if rest == 0 or rest == 2 or rest == 3:
        return rest
    return -1


@kernel
def _suit_facts(h, base):
    """F_* bits of the nine counts ``h[base:base + 9]`` (the suit's share of a hand)."""
    n = 0
    weight = 0
    for i in range(9):
        n += h[base + i]
        weight += i * h[base + i]
    if n == 0:
        return F_ALL
    mod = n % 3
    if mod == 1:
        return 0
    want_pairs = 1 if mod == 2 else 0
    facts = 0
    # some reading
    if want_pairs == 0:
        if _sets_only(h, base, -1):
            facts |= F_SETS
    else:
        # runs and triplets have rank sums divisible by 3, so 2 * pair == weight (mod 3)
        for p in range((2 * weight) % 3, 9, 3):
            if h[base + p] >= 2 and _sets_only(h, base, p):
                facts |= F_SETS
                break
    if facts == 0:
        return 0
    # all-triplet reading (and with terminals)
    pairs = 0
    ok = True
    middle = False  # a tile of rank 2..8
    for i in range(9):
        c = h[base + i]
        if c == 2:
            pairs += 1
        elif c != 0 and c != 3:
            ok = False
        if c != 0 and 0 < i < 8:
            middle = True
    if ok and pairs == want_pairs:
        facts |= F_TRIPLETS
        if not middle:
            facts |= F_TRIPLET_TERMINALS
    # terminal reading: 123 / 789 runs, 111 / 999 triplets, 11 / 99 pair
    if h[base + 3] == 0 and h[base + 4] == 0 and h[base + 5] == 0:
        low = _side_rest(h[base], h[base + 1], h[base + 2])
        high = _side_rest(h[base + 8], h[base + 7], h[base + 6])
        if low >= 0 and high >= 0:
            pairs = (1 if low == 2 else 0) + (1 if high == 2 else 0)
            if pairs == want_pairs:
                facts |= F_TERMINALS
    return facts


@kernel
def _meld_size(kind):
    """Tiles of the meld's type it holds: 3, 4, or 0 for an unknown kind."""
    if kind == MELD_PUNG:
        return 3
    if kind in (MELD_KONG, MELD_CONCEALED_KONG):
        return 4
    return 0


@kernel
def _check_hand(concealed, meld_kind, meld_tile, n_melds, void):
    """``(suits, roots)`` of a well-formed hand of 14 tiles (kongs as three) with no void tile;
    ``suits`` is the bit set of suits held (melds included), -1 when the hand is malformed
    (wrong size, a count outside 0..4, a fifth copy, a bad meld) or holds a void tile."""
    if n_melds < 0 or n_melds > 4:
        return -1, 0
    # branch-free scan of the counts (random hands defeat branch prediction)
    n = 0
    suits = 0
    roots = 0
    bad = 0
    for s in range(3):
        held = 0
        for i in range(9):
            c = np.int64(concealed[9 * s + i])
            n += c
            held |= c
            roots += c == 4
            bad |= (c < 0) | (c > 4)
        suits |= (held != 0) << s
    if bad:
        return -1, 0
    if n != 14 - 3 * n_melds:
        return -1, 0
    for i in range(n_melds):
        t = meld_tile[i]
        size = _meld_size(meld_kind[i])
        if size == 0 or t < 0 or t >= 27:
            return -1, 0
        if concealed[t] + size > 4:
            return -1, 0
        for j in range(i):
            if meld_tile[j] == t:
                return -1, 0
        suits |= 1 << (t // 9)
        if concealed[t] + size == 4:
            roots += 1
    if void >= 0 and (suits >> void) & 1:
        return -1, 0
    return suits, roots


@kernel
def _seven_pairs(concealed, n_melds):
    if n_melds != 0:
        return False
    odd = 0
    for t in range(27):
        odd |= concealed[t] & 1
    return odd == 0


@kernel
def _standard_facts(concealed, meld_kind, meld_tile, n_melds):
    """F_* bits of the whole hand: each fact holds for every suit and (terminals) every meld."""
    facts = F_ALL
    for s in range(3):
        facts &= _suit_facts(concealed, 9 * s)
        if facts == 0:
            return 0
    for i in range(n_melds):
        r = meld_tile[i] % 9
        if r != 0 and r != 8:
            facts &= ~(F_TERMINALS | F_TRIPLET_TERMINALS)
    return facts


@kernel
def _all_258(concealed, meld_tile, n_melds):
    for t in range(27):
        if concealed[t] > 0:
            r = t % 9
            if r != 1 and r != 4 and r != 7:
                return False
    for i in range(n_melds):
        r = meld_tile[i] % 9
        if r != 1 and r != 4 and r != 7:
            return False
    return True


# tie-break among candidates of equal value and equal pattern fan (higher wins), the same order
# as simcore.hand.reference: golden hook, 258 pungs, seven pairs, all pungs, plain
_PREF_PLAIN = 0
_PREF_ALL_PUNGS = 1
_PREF_SEVEN_PAIRS = 2
_PREF_PUNGS_258 = 3
_PREF_GOLDEN_HOOK = 4


@kernel
def _better(value, fan, pref, term, best, best_fan, best_pref, best_term):
    """Candidate ``(value, fan, pref, term)`` beats the best so far (lexicographic order)."""
    if value != best:
        return value > best
    if fan != best_fan:
        return fan > best_fan
    if pref != best_pref:
        return pref > best_pref
    return term > best_term


@kernel
def _bit_count(x):
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n


@kernel
def is_winning_hand(concealed, meld_kind, meld_tile, n_melds, void):
    """True if the 14-tile hand (kongs as three) wins: a standard or seven-pairs shape, no tile
    of the ``void`` suit (-1: none) and at most two suits, melds included."""
    suits, _ = _check_hand(concealed, meld_kind, meld_tile, n_melds, void)
    if suits < 0 or suits == 7:
        return False
    if _seven_pairs(concealed, n_melds):
        return True
    return _standard_facts(concealed, meld_kind, meld_tile, n_melds) != 0


@kernel
def score_hand(concealed, meld_kind, meld_tile, n_melds, void, self_draw, bonus_flags, R):
    """``(fan, fan_uncapped, pattern, flush, terminals, roots, units)`` of a complete hand
    (``concealed`` includes the winning tile), or ``(0, 0, PAT_NONE, 0, 0, 0, 0)`` when it does
    not win. ``units`` is what each payer pays: ``2**fan`` plus the self-draw base unit."""
    suits, roots = _check_hand(concealed, meld_kind, meld_tile, n_melds, void)
    if suits < 0 or suits == 7:
        return 0, 0, PAT_NONE, 0, 0, 0, 0
    # candidates (value, pattern fan, preference, terminals), compared in that order
    best = -1
    best_fan = -1
    best_pref = -1
    pattern = PAT_NONE
    terminals = 0
    if _seven_pairs(concealed, n_melds):  # terminals are a standard-shape modifier
        best = R.fan_seven_pairs
        best_fan = best
        best_pref = _PREF_SEVEN_PAIRS
        pattern = PAT_SEVEN_PAIRS
    facts = _standard_facts(concealed, meld_kind, meld_tile, n_melds)
    if facts != 0:
        ft = R.fan_terminals  # -1: no terminals modifier
        # a reading with terminals when there is one: never worse, and preferred on ties
        term = 1 if ft >= 0 and facts & F_TERMINALS else 0
        f = R.fan_plain
        v = f + ft * term
        if _better(v, f, _PREF_PLAIN, term, best, best_fan, best_pref, terminals):
            best, best_fan, best_pref, pattern, terminals = v, f, _PREF_PLAIN, PAT_PLAIN, term
        if facts & F_TRIPLETS:  # the one all-triplet reading, with each pattern it allows
            term = 1 if ft >= 0 and facts & F_TRIPLET_TERMINALS else 0
            f = R.fan_all_pungs
            v = f + ft * term
            if _better(v, f, _PREF_ALL_PUNGS, term, best, best_fan, best_pref, terminals):
                best, best_fan, best_pref = v, f, _PREF_ALL_PUNGS
                pattern, terminals = PAT_ALL_PUNGS, term
            f = R.fan_golden_hook  # -1: off, the hand scores as all pungs
            v = f + ft * term
            if (
                n_melds == 4
                and f >= 0
                and _better(v, f, _PREF_GOLDEN_HOOK, term, best, best_fan, best_pref, terminals)
            ):
                best, best_fan, best_pref = v, f, _PREF_GOLDEN_HOOK
                pattern, terminals = PAT_GOLDEN_HOOK, term
            f = R.fan_pungs_258  # -1: off
            v = f + ft * term
            if (
                f >= 0
                and _better(v, f, _PREF_PUNGS_258, term, best, best_fan, best_pref, terminals)
                and _all_258(concealed, meld_tile, n_melds)
            ):
                best, best_fan, best_pref = v, f, _PREF_PUNGS_258
                pattern, terminals = PAT_PUNGS_258, term
    if pattern == PAT_NONE:
        return 0, 0, PAT_NONE, 0, 0, 0, 0
    flush = 1 if suits == 1 or suits == 2 or suits == 4 else 0
    fan = best + roots + _bit_count(bonus_flags & B_SITUATIONAL)
    if flush:
        fan += R.fan_flush
    sdb = R.self_draw_bonus
    if self_draw and sdb == SDB_FAN:
        fan += 1
    if (bonus_flags & B_HEAVEN_EARTH) and R.heaven_earth == HE_MAX and R.max_fan >= 0:
        fan = R.max_fan
        fan_uncapped = fan
    else:
        fan_uncapped = fan
        cap = R.fan_cap
        if cap >= 0 and fan > cap:
            fan = cap
    units = np.int64(1) << fan
    if self_draw and sdb == SDB_BASE:
        units += 1
    return fan, fan_uncapped, pattern, flush, terminals, roots, units


@kernel
def ready_value(concealed13, meld_kind, meld_tile, n_melds, void, R):
    """Units of the waiting hand's best (``ready_pay = max``) or worst (``min``) winning tile
    as a win on a discard with no bonus, capped; 0 when no tile wins. A tile whose four copies
    are all in the hand or its melds is not a winning tile. ``concealed13`` is modified while
    the kernel runs and restored before it returns."""
    want_min = R.ready_pay == READY_MIN
    result = -1
    for t in range(27):
        if t // 9 == void:
            continue
        # the winning tile forms a group with a concealed tile: the same type or a neighbour
        r = t % 9
        near = concealed13[t]
        if r >= 1:
            near += concealed13[t - 1]
        if r >= 2:
            near += concealed13[t - 2]
        if r <= 7:
            near += concealed13[t + 1]
        if r <= 6:
            near += concealed13[t + 2]
        if near == 0:
            continue
        held = concealed13[t]
        for i in range(n_melds):
            if meld_tile[i] == t:
                held += _meld_size(meld_kind[i])
        if held >= 4:
            continue
        concealed13[t] += 1
        out = score_hand(concealed13, meld_kind, meld_tile, n_melds, void, False, 0, R)
        concealed13[t] -= 1
        if out[2] == PAT_NONE:
            continue
        units = out[6]
        if result < 0 or (units < result if want_min else units > result):
            result = units
    return max(result, 0)


@kernel
def score_batch(concealed, meld_kind, meld_tile, n_melds, void, self_draw, bonus_flags, R, out):
    """Score row ``i`` of ``concealed`` (n, 27) with its melds ``meld_kind[i]``,
    ``meld_tile[i]`` (n, 4), ``n_melds[i]``, ``void[i]``, ``self_draw[i]``, ``bonus_flags[i]``
    into ``out[i]`` (n, N_COLS), columns ``COL_*``."""
    for i in range(concealed.shape[0]):
        res = score_hand(
            concealed[i],
            meld_kind[i],
            meld_tile[i],
            n_melds[i],
            void[i],
            self_draw[i],
            bonus_flags[i],
            R,
        )
        out[i, COL_FAN] = res[0]
        out[i, COL_FAN_UNCAPPED] = res[1]
        out[i, COL_PATTERN] = res[2]
        out[i, COL_FLUSH] = res[3]
        out[i, COL_TERMINALS] = res[4]
        out[i, COL_ROOTS] = res[5]
        out[i, COL_UNITS] = res[6]


@kernel
def ready_value_batch(concealed13, meld_kind, meld_tile, n_melds, void, R, out):
    """:func:`ready_value` of each row of ``concealed13`` (n, 27) into ``out[i]``."""
    for i in range(concealed13.shape[0]):
        out[i] = ready_value(concealed13[i], meld_kind[i], meld_tile[i], n_melds[i], void[i], R)
