"""The greedy family: ``speed``, ``flush``, ``pungs`` and ``pairs``.

One greedy player judged by its seat's plan (:mod:`.plans`): discard the tile that leaves the
lowest shanten toward the plan (ties: a suit no opponent shows a flush in when ``watch``, then
the most useful unseen tiles when ``ukeire``, then outer ranks), void-suit tiles first; pung
when the plan allows the tile and its shanten does not grow (``pungs`` always pungs, ``pairs``
never melds); kong by the ``kong`` option; decline small wins by ``min_fan``/``until``;
exchange and void by their options. Options: :mod:`.greedy_options`.

Speed: the discard decision and every helper that takes the state tuple on its path are inlined
into the engine kernel (``inline="always"``), and so is the speed discard search
(:func:`_search_discard`): one table combine per candidate, ukeire only for the candidates tied
on shanten. The engine is compiled without reference counting (:mod:`simcore.engine.compile.jit`),
so nothing here may allocate: work arrays live in the state (``st.visible``, ``st.scratch``).
Loops over a hand avoid a branch per tile type (an OR of counts, a bit set built without tests,
or a walk over the set bits of a mask): those branches mispredict and once dominated a deal.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from simcore.engine.compile.jit import deal_inline, deal_njit
from simcore.engine.evaluate import (
    discard_shanten,
    shanten_of,
    ukeire_of,
)
from simcore.engine.policies.common import (
    CLAIM_KONG,
    CLAIM_PASS,
    CLAIM_PUNG,
    SUIT_BITS,
    discard_mask,
    holds_void,
)
from simcore.engine.policies.greedy_options import (
    EXCH_KEEP_LONG,
    EXCH_RANDOM,
    KONG_ALWAYS,
    KONG_KEEP_SHAPE,
    KONG_NEVER,
    KONG_PUNG_THEN_ADD,
    MEM_TARGET,
    O_EXCHANGE,
    O_KONG,
    O_MIN_FAN,
    O_UKEIRE,
    O_UNTIL,
    O_VOID,
    O_WATCH,
    VOID_FIXED,
    VOID_WEAKEST,
)
from simcore.engine.policies.plans import (
    MODE_FLUSH,
    MODE_PUNGS,
    MODE_SPEED,
    apparent_flush_suits,
    current_plan,
    enter_plan,
    plan_allows,
    plan_distance,
    plan_eval,
    plan_eval_inline,
    seat_visible,
    suit_count,
)
from simcore.engine.policies.random import choose_exchange as random_exchange
from simcore.hand.kernels import KIND_ANY, eval_ukeire
from simcore.tiles import MELD_PUNG


@deal_njit
def edge_rank(t):
    """Tie-break among equal discards: outer ranks first (they make fewer runs)."""
    r = t % 9
    return r if r < 4 else 8 - r


@deal_inline
def _void_discard(st, seat):
    """The void-suit tile held fewest times (the lowest rank among those)."""
    void = st.void[seat]
    best_t = -1
    for r in range(9):
        t = 9 * void + r
        c = st.hand[seat, t]
        if c > 0 and (best_t < 0 or c < st.hand[seat, best_t]):
            best_t = t
    return best_t


@deal_njit
def _loosest(h, mask):
    """Among the tiles of ``mask``, the least connected: fewest copies, then fewest neighbours
    within two ranks (a neighbour at one rank counts double), then outer ranks first."""
    best_t = -1
    best_c = 1000
    for t in range(27):
        if (mask >> t) & 1 == 0:
            continue
        r = t % 9
        c = 3 * (h[t] - 1)
        if r >= 1 and h[t - 1] > 0:
            c += 2
        if r <= 7 and h[t + 1] > 0:
            c += 2
        if r >= 2 and h[t - 2] > 0:
            c += 1
        if r <= 6 and h[t + 2] > 0:
            c += 1
        if c < best_c or (c == best_c and edge_rank(t) < edge_rank(best_t)):
            best_t, best_c = t, c
    return best_t


def _search_discard(mode, target, h, n, void, mask, row, visible, danger, want_useful,
                    need_u, T):
    """(tile, shanten, useful) of the best discard among ``mask`` under plan ``mode``.

    Order: lowest shanten (of the plan); then a tile outside the ``danger`` suits; then the
    most useful unseen tiles (when ``want_useful``); then outer ranks first. ``row`` is a
    scratch row; with ``need_u`` the useful count of the choice is computed even when no tie
    needs it. Takes arrays, not the state tuple; the candidates are evaluated by inlined
    kernels.
    """
    best_t = -1
    best_s = 1000
    best_safe = -1
    best_u = -1
    if mode == MODE_SPEED:
        # one table combine per candidate, then ukeire only for the candidates that tie (none
        # when a single candidate is best, unless the caller needs its useful-tile count)
        best_s = discard_shanten(h, n, void, mask, T, row)
        n_top = 0
        bits = mask
        while bits != 0:  # the candidates in increasing order, as below
            t = trailing_zeros(bits)
            bits &= bits - 1
            if row[t] == best_s:
                safe = 1 - ((danger >> (t // 9)) & 1)
                if safe > best_safe:
                    best_safe, n_top = safe, 1
                elif safe == best_safe:
                    n_top += 1
        use_u = want_useful and (n_top > 1 or need_u)
        packed = T.packed
        masks = T.masks
        bits = mask
        while bits != 0:
            t = trailing_zeros(bits)
            bits &= bits - 1
            if row[t] != best_s:
                continue
            if 1 - ((danger >> (t // 9)) & 1) != best_safe:
                continue
            u = 0
            if use_u:
                h[t] -= 1
                _s, _m, u = eval_ukeire(h, n, void, KIND_ANY, visible, packed, masks)
                h[t] += 1
            if best_t < 0 or u > best_u or (u == best_u and edge_rank(t) < edge_rank(best_t)):
                best_t, best_u = t, u
        return best_t, best_s, best_u
    return _search_plan_discard(mode, target, h, n, void, mask, visible, danger, want_useful, T)


@deal_njit
def _search_plan_discard(mode, target, h, n, void, mask, visible, danger, want_useful, T):
    """:func:`_search_discard` under a flush, pungs or pairs plan: out of line, so the engine
    kernel holds one copy of the plan evaluators (compile time) and speed seats never pay for
    them."""
    best_t = -1
    best_s = 1000
    best_safe = -1
    best_u = -1
    bits = mask
    while bits != 0:
        t = trailing_zeros(bits)
        bits &= bits - 1
        h[t] -= 1
        s, u = plan_distance(mode, target, h, n, void, visible, T)
        h[t] += 1
        if not want_useful:
            u = 0
        safe = 1 - ((danger >> (t // 9)) & 1)
        if (
            best_t < 0
            or s < best_s
            or (s == best_s and safe > best_safe)
            or (s == best_s and safe == best_safe and u > best_u)
            or (s == best_s and safe == best_safe and u == best_u
                and edge_rank(t) < edge_rank(best_t))
        ):
            best_t, best_s, best_safe, best_u = t, s, safe, u
    return best_t, best_s, best_u


# The discard decision (every turn) inlines the search: out of line it cost speed seats about a
# third of their throughput (benchmarks/bench_engine.py). The plans' search is out of line
# (_search_plan_discard) and the keep_shape kong test (rare) calls it.
search_discard = deal_njit(_search_discard)
_search_discard_inline = deal_inline(_search_discard)


@deal_inline
def _greedy_discard(st, seat, P, R, T):
    if holds_void(st, seat):
        return _void_discard(st, seat)
    h = st.hand[seat]
    visible = st.visible
    seat_visible(st, seat, visible)
    mode = current_plan(P, st, seat, visible, T)
    mask = discard_mask(st, seat, R)
    if P[O_KONG] == KONG_PUNG_THEN_ADD:
        # keep the fourth tile of an exposed pung for the added kong
        keep = 0
        for m in range(st.n_melds[seat]):
            t = st.meld_tile[seat, m]
            if st.meld_kind[seat, m] == MELD_PUNG and h[t] > 0:
                keep |= 1 << t
        if mask & ~keep != 0:
            mask &= ~keep
    if mode == MODE_FLUSH:
        other = mask & ~(SUIT_BITS << (9 * st.memory[seat, MEM_TARGET]))
        if other != 0:
            return _loosest(h, other)
    danger = apparent_flush_suits(st, seat) if P[O_WATCH] != 0 else 0
    t, _s, _u = _search_discard_inline(mode, st.memory[seat, MEM_TARGET], h, st.n_melds[seat],
                                       st.void[seat], mask, st.scratch[seat], visible, danger,
                                       P[O_UKEIRE] != 0, False, T)
    return t


@deal_njit
def _not_worse(s1, u1, s0, u0):
    return s1 < s0 or (s1 == s0 and u1 >= u0)


@deal_njit
def _greedy_claim(st, seat, tile, can_kong, P, R, T):
    visible = st.visible
    seat_visible(st, seat, visible)
    mode = current_plan(P, st, seat, visible, T)
    target = st.memory[seat, MEM_TARGET]
    if not plan_allows(mode, target, tile):
        return CLAIM_PASS
    rule = P[O_KONG]
    if can_kong and rule == KONG_ALWAYS:
        return CLAIM_KONG
    try_kong = can_kong and rule == KONG_KEEP_SHAPE
    if mode == MODE_PUNGS and not try_kong:
        return CLAIM_PUNG  # all pungs: pung everything allowed
    h = st.hand[seat]
    n = st.n_melds[seat]
    void = st.void[seat]
    # the hand as it is, then after the kong (keep_shape), then after the pung: one inlined
    # evaluation in a loop rather than four calls
    s0 = 0
    u0 = 0
    for step in range(3):
        if step == 1 and not try_kong:
            continue
        if step == 2 and mode == MODE_PUNGS:
            break
        taken = 0 if step == 0 else (3 if step == 1 else 2)
        h[tile] -= taken
        s, u = plan_eval_inline(mode, target, h, n + (step > 0), void, visible, try_kong, T)
        h[tile] += taken
        if step == 0:
            s0, u0 = s, u
        elif step == 1:
            if _not_worse(s, u, s0, u0):
                return CLAIM_KONG
        else:
            return CLAIM_PUNG if s <= s0 else CLAIM_PASS
    return CLAIM_PUNG


@deal_njit
def _greedy_kong(st, seat, P, R, T, cand):
    rule = P[O_KONG]
    if rule == KONG_NEVER:
        return -1
    visible = st.visible
    seat_visible(st, seat, visible)
    mode = current_plan(P, st, seat, visible, T)
    target = st.memory[seat, MEM_TARGET]
    h = st.hand[seat]
    n = st.n_melds[seat]
    void = st.void[seat]
    have_before = False
    s0 = 0
    u0 = 0
    for t in range(27):
        if (cand >> t) & 1 == 0 or not plan_allows(mode, target, t):
            continue
        added = h[t] < 4
        if rule == KONG_ALWAYS or (rule == KONG_PUNG_THEN_ADD and added):
            return t
        # keep_shape: the kong against the best discard without it
        if not have_before:
            mask = discard_mask(st, seat, R)
            _t, s0, u0 = search_discard(mode, target, h, n, void, mask, st.scratch[seat],
                                        visible, 0, True, True, T)
            have_before = True
        if added:
            h[t] -= 1
            s1, u1 = plan_eval(mode, target, h, n, void, visible, True, T)
            h[t] += 1
        else:
            h[t] -= 4
            s1, u1 = plan_eval(mode, target, h, n + 1, void, visible, True, T)
            h[t] += 4
        if _not_worse(s1, u1, s0, u0):
            return t
    return -1


@deal_njit
def _pick_three(st, seat, suit, out, T):
    """The three least useful tiles of ``suit`` (greedy by shanten), written to ``out``; the
    seat's scratch row is left holding the hand without them."""
    work = st.scratch[seat]
    for t in range(27):
        work[t] = st.hand[seat, t]
    for j in range(3):
        best_t = -1
        best_s = 1000
        for r in range(9):
            t = 9 * suit + r
            if work[t] == 0:
                continue
            work[t] -= 1
            s = shanten_of(work, 0, -1, T)
            work[t] += 1
            if s < best_s or (s == best_s and edge_rank(t) < edge_rank(best_t)):
                best_t, best_s = t, s
        out[j] = best_t
        work[best_t] -= 1


@deal_njit
def greedy_exchange(st, seat, P, R, T, out):
    rule = P[O_EXCHANGE]
    if rule == EXCH_RANDOM:
        random_exchange(st, seat, P, R, T, out)
        return
    h = st.hand[seat]
    if rule == EXCH_KEEP_LONG:
        # the suit to give, never the longest: the one that leaves the lowest shanten (with
        # the better void among the other suits), then the most useful tiles
        longest = max(suit_count(h, 0), suit_count(h, 1), suit_count(h, 2))
        seen = st.visible
        best_suit = -1
        best_s = 1000
        best_u = -1
        for s in range(3):
            n = suit_count(h, s)
            if n == longest or n < 3:
                continue
            _pick_three(st, seat, s, out, T)
            work = st.scratch[seat]
            for t in range(27):
                seen[t] = work[t]
            for v in range(3):
                if suit_count(h, v) == longest:
                    continue
                sh, u = ukeire_of(work, 0, v, seen, T)
                if sh < best_s or (sh == best_s and u > best_u):
                    best_suit, best_s, best_u = s, sh, u
        if best_suit >= 0:
            _pick_three(st, seat, best_suit, out, T)
            return
    # shortest: the shortest suit that has three tiles
    suit = -1
    best = 99
    for s in range(3):
        n = suit_count(h, s)
        if 3 <= n < best:
            best = n
            suit = s
    _pick_three(st, seat, suit, out, T)


@deal_njit
def greedy_void(st, seat, P, T):
    h = st.hand[seat]
    best_suit = -1
    best_n = 99
    best_s = 1000
    if P[O_VOID] >= VOID_FIXED:
        return np.int64(P[O_VOID] - VOID_FIXED)
    if P[O_VOID] == VOID_WEAKEST:
        for s in range(3):
            n = suit_count(h, s)
            sh = shanten_of(h, 0, s, T)
            if sh < best_s or (sh == best_s and n < best_n):
                best_suit, best_n, best_s = s, n, sh
        return best_suit
    for s in range(3):
        n = suit_count(h, s)
        if n > best_n:
            continue
        sh = shanten_of(h, 0, s, T)
        if n < best_n or sh < best_s:
            best_suit, best_n, best_s = s, n, sh
    return best_suit


# ----------------------------------------------------------------------------- the interface
@deal_njit
def choose_exchange(st, seat, P, R, T, out):
    greedy_exchange(st, seat, P, R, T, out)


@deal_njit
def choose_void(st, seat, P, R, T, pid):
    """The void suit, and the seat's plan chosen from its final hand (two suits: no void is
    declared; the plan is chosen with m, the absent suit, as the void)."""
    void = np.int64(0) if R.suits == 2 else greedy_void(st, seat, P, T)
    enter_plan(pid, P, st, seat, void, T)
    return void


@deal_inline
def choose_plan(st, seat, P, R, T, pid):
    """The plan for the hand the seat holds, with the void it has (a deal started from a
    position; two suits: m, the absent suit, as the void)."""
    enter_plan(pid, P, st, seat, np.int64(0) if R.suits == 2 else np.int64(st.void[seat]), T)


@deal_inline
def choose_discard(st, seat, P, R, T):
    return _greedy_discard(st, seat, P, R, T)


@deal_njit
def _holds_out(P, fan, wall_left):
    """Holding out (``min_fan``, ``until``): decline a small win while the wall is long."""
    return fan < P[O_MIN_FAN] and wall_left > P[O_UNTIL]


@deal_inline
def take_win(st, seat, P, fan, wall_left):
    return not _holds_out(P, fan, wall_left)


@deal_inline
def choose_claim(st, seat, P, tile, can_kong, R, T):
    return _greedy_claim(st, seat, tile, can_kong, P, R, T)


@deal_inline
def choose_kong(st, seat, P, R, T, candidates):
    return _greedy_kong(st, seat, P, R, T, candidates)
