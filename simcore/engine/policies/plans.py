"""Plans of the policy family: what a seat is playing for, and how far it is from it.

Every non-random policy is the greedy ``speed`` player with a *plan* (a per-seat mode in
``st.memory[seat, MEM_MODE]``, chosen once, right after the void choice):

- ``MODE_SPEED``: the fastest win of any shape (shanten over every shape, ties by ukeire);
- ``MODE_FLUSH``: a full flush of ``st.memory[seat, MEM_TARGET]`` (policy ``flush``: the longest
  non-void suit holds at least ``k`` tiles); falls back to speed for good when fewer than ``g``
  tiles remain in the wall, or when the flush is out of reach (no unseen tile brings it closer,
  or a meld of another suit);
- ``MODE_PUNGS``: all pungs (policy ``pungs``: at least ``k`` types held twice or more);
- ``MODE_PAIRS``: seven pairs (policy ``pairs``: at least ``k`` pairs, four of a kind being two).

:func:`plan_eval` measures a hand against a plan: ``(shanten, useful)`` as in
:mod:`.evaluate`; :func:`plan_allows` says whether the plan may meld (pung or kong) a tile.
"""

from __future__ import annotations

from simcore.engine.compile.jit import deal_inline, deal_njit
from simcore.engine.evaluate import flush_eval, pairs_eval, pungs_eval
from simcore.engine.policies.greedy_options import (
    MEM_MODE,
    MEM_TARGET,
    O_G,
    O_K,
    POLICY_FLUSH,
    POLICY_PAIRS,
    POLICY_PUNGS,
)
from simcore.engine.state import P_IN_PLAY, S_POS, S_WALL_END
from simcore.hand.kernels import KIND_ANY, eval_shanten, eval_ukeire
from simcore.tiles import MELD_CONCEALED_KONG

MODE_SPEED, MODE_FLUSH, MODE_PUNGS, MODE_PAIRS = 0, 1, 2, 3
MODE_NAMES = ("speed", "flush", "pungs", "pairs")


@deal_inline
def seat_visible(st, seat, out):
    """Tiles ``seat`` can see: public tiles, its own hand and its own concealed kongs (as
    :func:`simcore.engine.evaluate.visible_counts`, inlined: a call passing the state tuple
    costs ~0.3 us)."""
    for t in range(27):
        out[t] = st.public[t] + st.hand[seat, t]
    for m in range(st.n_melds[seat]):
        if st.meld_kind[seat, m] == MELD_CONCEALED_KONG:
            out[st.meld_tile[seat, m]] += 4


@deal_njit
def suit_count(h, suit):
    n = 0
    for r in range(9):
        n += h[9 * suit + r]
    return n


@deal_njit
def enter_plan(pid, P, st, seat, void, T):
    """Choose the seat's plan from its hand after the exchange, given its void ``void``."""
    st.memory[seat, MEM_MODE] = MODE_SPEED
    st.memory[seat, MEM_TARGET] = -1
    h = st.hand[seat]
    k = P[O_K]
    if pid == POLICY_FLUSH:
        # the longest non-void suit; between two as long, the one nearer a flush
        best = -1
        best_n = -1
        best_s = 0
        for s in range(3):
            if s == void:
                continue
            n = suit_count(h, s)
            sh, _ = flush_eval(h, 0, s, h, T)
            if n > best_n or (n == best_n and sh < best_s):
                best, best_n, best_s = s, n, sh
        if best_n >= k:
            st.memory[seat, MEM_MODE] = MODE_FLUSH
            st.memory[seat, MEM_TARGET] = best
    elif pid == POLICY_PUNGS:
        groups = 0
        for t in range(27):
            if t // 9 != void and h[t] >= 2:
                groups += 1
        if groups >= k:
            st.memory[seat, MEM_MODE] = MODE_PUNGS
    elif pid == POLICY_PAIRS:
        pairs = 0
        for t in range(27):
            if t // 9 != void:
                pairs += h[t] >> 1
        if pairs >= k:
            st.memory[seat, MEM_MODE] = MODE_PAIRS


@deal_inline
def current_plan(P, st, seat, visible, T):
    """The seat's plan now, after the fallbacks (a flush given up stays given up)."""
    mode = st.memory[seat, MEM_MODE]
    if mode == MODE_FLUSH:
        target = st.memory[seat, MEM_TARGET]
        ok = st.sc[S_WALL_END] - st.sc[S_POS] >= P[O_G]
        for m in range(st.n_melds[seat]):
            if st.meld_tile[seat, m] // 9 != target:
                ok = False
        if ok:
            s, u = flush_eval(st.hand[seat], st.n_melds[seat], target, visible, T)
            if s >= 0 and u == 0:
                ok = False
        if not ok:
            mode = MODE_SPEED
            st.memory[seat, MEM_MODE] = mode
    elif mode == MODE_PAIRS and st.n_melds[seat] > 0:
        mode = MODE_SPEED
        st.memory[seat, MEM_MODE] = mode
    return mode


@deal_njit
def plan_allows(mode, target, tile):
    """May the plan pung or kong ``tile``? Flush: its own suit only; seven pairs: never."""
    if mode == MODE_FLUSH:
        return tile // 9 == target
    return mode != MODE_PAIRS


@deal_inline
def plan_distance(mode, target, counts, n_melds, void, visible, T):
    """(shanten, useful) of ``counts`` toward a flush, all-pungs or seven-pairs plan: the one
    dispatch over the plans (``mode`` is not ``MODE_SPEED``)."""
    if mode == MODE_FLUSH:
        return flush_eval(counts, n_melds, target, visible, T)
    if mode == MODE_PUNGS:
        return pungs_eval(counts, n_melds, void, visible)
    return pairs_eval(counts, n_melds, void, visible)


def _plan_eval(mode, target, counts, n_melds, void, visible, want_useful, T):
    """(shanten, useful) of ``counts`` toward the plan; useful is 0 unless ``want_useful``
    for speed (its ukeire costs a second table pass; the plans' useful counts are cheap)."""
    if mode != MODE_SPEED:
        return plan_distance(mode, target, counts, n_melds, void, visible, T)
    if want_useful:
        s, _mask, u = eval_ukeire(counts, n_melds, void, KIND_ANY, visible, T.packed, T.masks)
        return s, u
    return eval_shanten(counts, n_melds, void, KIND_ANY, T.packed), 0


plan_eval = deal_njit(_plan_eval)
plan_eval_inline = deal_inline(_plan_eval)  # for a caller's single hot call site


@deal_inline
def apparent_flush(st, o):
    """The suit of ``o``'s apparent flush as a bit (two or more exposed melds, pungs or exposed
    kongs, all of one suit), or 0."""
    n = 0
    suits = 0
    for m in range(st.n_melds[o]):
        if st.meld_kind[o, m] != MELD_CONCEALED_KONG:
            n += 1
            suits |= 1 << (st.meld_tile[o, m] // 9)
    return suits if n >= 2 and (suits == 1 or suits == 2 or suits == 4) else 0


@deal_inline
def apparent_flush_suits(st, seat):
    """Bit set of the suits in which an opponent still in play shows an apparent flush."""
    bits = 0
    for k in range(1, 4):
        o = (seat + k) % 4
        if st.pl[o, P_IN_PLAY] != 0:
            bits |= apparent_flush(st, o)
    return bits
