"""The decision interface: the engine asks the seat's policy at every decision point.

A policy is selected by id (``spec.POLICY_*``) with a float parameter vector ``P`` (``spec.O_*``
slots). Each ``decide_*`` function dispatches on the id; adding a policy means a spec entry in
:mod:`.spec`, its jitted functions in a small module, and one branch per decision here.

Decisions and their answers:
- ``decide_exchange`` -> three tiles of one suit written to ``out``;
- ``decide_void`` -> a suit 0..2;
- ``decide_discard`` -> a tile the player holds (a void-suit tile while holding one, under
  ``void_first``);
- ``decide_self_win`` / ``decide_discard_win`` -> take the win or not (the engine forces wins
  under must-win-last-four and never asks about a win the passed-win rules forbid);
- ``decide_claim`` -> 0 pass, 1 pung, 2 kong (the engine asks only when legal);
- ``decide_kong`` -> a tile to kong on one's own turn (concealed or added), or -1.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.engine.evaluate import shanten_of, ukeire_of, visible_counts
from simcore.engine.rng import below
from simcore.engine.spec import (  # noqa: F401  (parse_policies, policy_names re-exported)
    KONG_ALWAYS,
    KONG_NEVER,
    O_KONG,
    O_MIN_FAN,
    O_UKEIRE,
    O_UNTIL,
    POLICY_RANDOM,
    parse_policies,
    policy_names,
)
from simcore.rules import R_VOID_FIRST
from simcore.tiles import MELD_PUNG

CLAIM_PASS, CLAIM_PUNG, CLAIM_KONG = 0, 1, 2


# ----------------------------------------------------------------------------- legality helpers
@njit
def holds_void(st, seat):
    v = st.void[seat]
    for r in range(9):
        if st.hand[seat, 9 * v + r] > 0:
            return True
    return False


@njit
def discard_mask(st, seat, R):
    """Bit set of the tile types ``seat`` may discard now (void_first: void-suit tiles first)."""
    h = st.hand[seat]
    v = st.void[seat]
    mask = 0
    void_mask = 0
    for t in range(27):
        if h[t] > 0:
            mask |= 1 << t
            if t // 9 == v:
                void_mask |= 1 << t
    if void_mask != 0 and R[R_VOID_FIRST] != 0:
        return void_mask
    return mask


@njit
def kong_options(st, seat, out):
    """Tiles ``seat`` may kong on its own turn (concealed or added, never the void suit)."""
    n = 0
    v = st.void[seat]
    for t in range(27):
        if t // 9 == v:
            continue
        if st.hand[seat, t] == 4:
            out[n] = t
            n += 1
        elif st.hand[seat, t] >= 1:
            for m in range(st.n_melds[seat]):
                if st.meld_tile[seat, m] == t and st.meld_kind[seat, m] == MELD_PUNG:
                    out[n] = t
                    n += 1
    return n


@njit
def _rng(seat):
    return 2 + seat


# ----------------------------------------------------------------------------- random policy
@njit
def _random_exchange(st, seat, out):
    n_ok = 0
    for s in range(3):
        if st.hand[seat, 9 * s: 9 * s + 9].sum() >= 3:
            n_ok += 1
    pick = below(st.rng, _rng(seat), n_ok)
    suit = -1
    for s in range(3):
        if st.hand[seat, 9 * s: 9 * s + 9].sum() >= 3:
            if pick == 0:
                suit = s
                break
            pick -= 1
    # three distinct tile instances of the suit, uniformly
    work = st.scratch[seat]
    for t in range(27):
        work[t] = st.hand[seat, t]
    for j in range(3):
        left = 0
        for r in range(9):
            left += work[9 * suit + r]
        k = below(st.rng, _rng(seat), left)
        for r in range(9):
            c = work[9 * suit + r]
            if k < c:
                out[j] = 9 * suit + r
                work[9 * suit + r] -= 1
                break
            k -= c


@njit
def _random_discard(st, seat, R):
    mask = discard_mask(st, seat, R)
    n = 0
    m = mask
    while m:
        n += m & 1
        m >>= 1
    k = below(st.rng, _rng(seat), n)
    for t in range(27):
        if (mask >> t) & 1:
            if k == 0:
                return t
            k -= 1
    return -1


# ----------------------------------------------------------------------------- speed policy
@njit
def _edge(t):
    """Tie-break among equal discards: outer ranks first (they make fewer runs)."""
    r = t % 9
    return r if r < 4 else 8 - r


@njit
def _speed_discard(st, seat, P, R, T):
    void = st.void[seat]
    if holds_void(st, seat):
        # void-suit tiles first; among them the one we hold fewest of (a lone tile first)
        best_t = -1
        for r in range(9):
            t = 9 * void + r
            c = st.hand[seat, t]
            if c > 0 and (best_t < 0 or c < st.hand[seat, best_t]):
                best_t = t
        return best_t
    use_ukeire = P[O_UKEIRE] != 0
    visible = np.empty(27, np.int16)
    if use_ukeire:
        visible_counts(st, seat, visible)
    h = st.hand[seat]
    n_melds = st.n_melds[seat]
    best_t = -1
    best_s = 1000
    best_u = -1
    mask = discard_mask(st, seat, R)
    for t in range(27):
        if (mask >> t) & 1 == 0:
            continue
        h[t] -= 1
        s = shanten_of(h, n_melds, void, T)
        if s < best_s or (s == best_s and use_ukeire):
            u = 0
            if use_ukeire:
                s, u = ukeire_of(h, n_melds, void, visible, T)
            if (
                best_t < 0
                or s < best_s
                or (s == best_s and u > best_u)
                or (s == best_s and u == best_u and _edge(t) < _edge(best_t))
            ):
                best_t, best_s, best_u = t, s, u
        h[t] += 1
    return best_t


@njit
def _speed_exchange(st, seat, out, T):
    # the shortest suit that has three tiles; give its least useful tiles
    suit = -1
    best = 99
    for s in range(3):
        n = st.hand[seat, 9 * s: 9 * s + 9].sum()
        if 3 <= n < best:
            best = n
            suit = s
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
            if s < best_s or (s == best_s and _edge(t) < _edge(best_t)):
                best_t, best_s = t, s
        out[j] = best_t
        work[best_t] -= 1


@njit
def _speed_void(st, seat, T):
    best_suit = -1
    best_n = 99
    best_s = 1000
    for s in range(3):
        n = st.hand[seat, 9 * s: 9 * s + 9].sum()
        if n > best_n:
            continue
        sh = shanten_of(st.hand[seat], 0, s, T)
        if n < best_n or sh < best_s:
            best_suit, best_n, best_s = s, n, sh
    return best_suit


@njit
def _speed_claim(st, seat, tile, can_kong, P, T):
    h = st.hand[seat]
    n = st.n_melds[seat]
    void = st.void[seat]
    kong_rule = P[O_KONG]
    before = shanten_of(h, n, void, T)
    if can_kong and kong_rule != KONG_NEVER:
        h[tile] -= 3
        after = shanten_of(h, n + 1, void, T)
        h[tile] += 3
        if kong_rule == KONG_ALWAYS or after <= before:
            return CLAIM_KONG
    h[tile] -= 2
    after = shanten_of(h, n + 1, void, T)
    h[tile] += 2
    if after <= before:
        return CLAIM_PUNG
    return CLAIM_PASS


@njit
def _speed_kong(st, seat, P, T):
    kong_rule = P[O_KONG]
    if kong_rule == KONG_NEVER:
        return -1
    options = np.empty(27, np.int64)
    n_opt = kong_options(st, seat, options)
    if n_opt == 0:
        return -1
    if kong_rule == KONG_ALWAYS:
        return options[0]
    h = st.hand[seat]
    n = st.n_melds[seat]
    void = st.void[seat]
    before = shanten_of(h, n, void, T)
    for j in range(n_opt):
        t = options[j]
        if h[t] == 4:
            h[t] -= 4
            after = shanten_of(h, n + 1, void, T)
            h[t] += 4
        else:
            h[t] -= 1
            after = shanten_of(h, n, void, T)
            h[t] += 1
        if after <= before:
            return t
    return -1


# ----------------------------------------------------------------------------- dispatch
@njit
def decide_exchange(pid, P, st, seat, R, T, out):
    if pid == POLICY_RANDOM:
        _random_exchange(st, seat, out)
    else:
        _speed_exchange(st, seat, out, T)


@njit
def decide_void(pid, P, st, seat, R, T):
    if pid == POLICY_RANDOM:
        return below(st.rng, _rng(seat), 3)
    return _speed_void(st, seat, T)


@njit
def decide_discard(pid, P, st, seat, R, T):
    if pid == POLICY_RANDOM:
        return _random_discard(st, seat, R)
    return _speed_discard(st, seat, P, R, T)


@njit
def _holds_out(P, fan, wall_left):
    """Holding out (``min_fan``, ``until``): decline a small win while the wall is long."""
    return fan < P[O_MIN_FAN] and wall_left > P[O_UNTIL]


@njit
def decide_self_win(pid, P, st, seat, tile, fan, wall_left, R):
    if pid == POLICY_RANDOM:
        return below(st.rng, _rng(seat), 2) == 1
    return not _holds_out(P, fan, wall_left)


@njit
def decide_discard_win(pid, P, st, seat, tile, fan, wall_left, R):
    if pid == POLICY_RANDOM:
        return below(st.rng, _rng(seat), 2) == 1
    return not _holds_out(P, fan, wall_left)


@njit
def decide_claim(pid, P, st, seat, tile, can_kong, R, T):
    if pid == POLICY_RANDOM:
        return below(st.rng, _rng(seat), 3 if can_kong else 2)
    return _speed_claim(st, seat, tile, can_kong, P, T)


@njit
def decide_kong(pid, P, st, seat, last_drawn, R, T):
    if pid == POLICY_RANDOM:
        options = np.empty(27, np.int64)
        n = kong_options(st, seat, options)
        if n == 0:
            return -1
        k = below(st.rng, _rng(seat), n + 1)
        return options[k] if k < n else -1
    return _speed_kong(st, seat, P, T)
