"""The rollouts' behaviour model (issue 28): how likely the other seats' latest discards are
under the field policy, for each hidden state, in a cached kernel of its own.

Apart from the entry kernel on purpose: asking a seat's policy for a discard outside the turn
loop inlines a second copy of the discard policies, and in the entry kernel that copy costs
every user a slower first compile. Here it is compiled once per machine, the first time a
behaviour-weighted advice asks for it (about half a minute).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.engine.compile.ensure import ensure_compiled
from simcore.engine.compile.fingerprint import engine_fingerprint
from simcore.engine.compile.jit import deal_ir_inline
from simcore.engine.policies.common import count_bits, discard_mask
from simcore.engine.policies.dispatch import compiled_families, decide_discard, families_for
from simcore.engine.rollout import (
    OBSERVED_DRAWN,
    OBSERVED_HELD,
    OBSERVED_TILE,
    copy_base,
    lay_hidden,
    ready_seats,
)
from simcore.engine.state import S_CUR, S_LAST_DRAWN

ESTIMATE = "about half a minute on 2 cores, the behaviour model of advise"


@deal_ir_inline
def behaviour_likelihood(st, R, T, pid, P, families, observed, eps):
    """How likely the other seats' latest discards are under their policies, given the hidden
    state laid into ``st``: each seat ``k`` with ``observed[k] >= 0`` (a tile ``t`` and the
    ``OBSERVED_*`` flags) held its concealed tiles and ``t`` when it threw ``t`` (nothing it did
    since changed its hand), and its policy, asked again on that hand, throws ``t`` with
    probability ``1 - eps`` when it is the tile the policy chooses, plus ``eps`` spread over
    its legal discards (an epsilon-greedy model of the field). The product over the seats; the
    state is left as it was (but the policies' work space)."""
    like = 1.0
    cur = st.sc[S_CUR]
    drawn = st.sc[S_LAST_DRAWN]
    for k in range(R.players):
        if observed[k] < 0:
            continue
        t = observed[k] & OBSERVED_TILE
        add = 0 if observed[k] & OBSERVED_HELD else 1
        st.hand[k, t] += add
        st.sc[S_CUR] = k
        st.sc[S_LAST_DRAWN] = t if observed[k] & OBSERVED_DRAWN else -1
        legal = count_bits(discard_mask(st, k, R))
        chosen = decide_discard(pid[k], P[k], families, st, k, R, T)
        st.hand[k, t] -= add
        like *= eps / max(legal, 1) + (1.0 - eps if chosen == t else 0.0)
    st.sc[S_CUR] = cur
    st.sc[S_LAST_DRAWN] = drawn
    return like


def _build_kernel(fingerprint: int):
    """The cached kernel; ``fingerprint`` (a closure cell) keys its cache (fingerprint.py)."""

    @njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # _nrt: numba's private flag
    def behaviour_weights(st, base, R, T, pid, P, families, hidden, walls, seed, start,
                          observed, weights):
        """``weights[j]`` (epsilon on the way in) = hidden state ``j``'s likelihood."""
        if fingerprint < 0:  # never: it only keys the cache
            return
        for j in range(hidden.shape[0]):
            copy_base(st, base)
            lay_hidden(st, hidden, walls, j, R.players, seed, start + j)
            ready_seats(st, R, T, pid, P, families)
            weights[j] = behaviour_likelihood(st, R, T, pid, P, families, observed, weights[j])

    return behaviour_weights


behaviour_weights = _build_kernel(engine_fingerprint())


def weigh(st, base, R, T, pid: np.ndarray, params: np.ndarray, hidden: np.ndarray,
          walls: np.ndarray, seed: int, start: int, observed: np.ndarray,
          epsilon: float) -> np.ndarray:
    """Each hidden state's behaviour likelihood (``float64[len(hidden)]``): the seats play
    ``pid`` / ``params`` (4 seats), ``observed`` as :func:`behaviour_likelihood` reads it."""
    families = families_for(pid[None])
    weights = np.full(len(hidden), float(epsilon))
    args = (st, base, R, T, pid, params, families, hidden, walls, np.int64(seed),
            np.int64(start), observed, weights)
    ensure_compiled(behaviour_weights, args, ("behaviour", *compiled_families(families)),
                    estimate=ESTIMATE, parallel=False)
    behaviour_weights(*args)
    return weights
