"""Hand evaluation as the engine and the policies need it, on the rows of a :class:`DealState`.

Thin jitted adapters over :mod:`simcore._hand_kernels` and :mod:`simcore._scoring`; ``T`` is the
:class:`simcore.tables.SuitTables` tuple (its ``packed`` and ``masks`` arrays are used).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore._hand_kernels import KIND_ANY, _eval_shanten, _eval_ukeire, _eval_waits
from simcore._scoring import ready_value
from simcore.engine.state import P_WAIT
from simcore.tiles import MELD_CONCEALED_KONG


@njit
def meld_suit_mask(st, seat):
    bits = 0
    for m in range(st.n_melds[seat]):
        bits |= 1 << (st.meld_tile[seat, m] // 9)
    return bits


@njit
def held_counts(st, seat, out):
    """Concealed plus meld tiles of ``seat`` into ``out`` (for the fifth-copy rule)."""
    for t in range(27):
        out[t] = st.hand[seat, t]
    for m in range(st.n_melds[seat]):
        out[st.meld_tile[seat, m]] += 4 if st.meld_kind[seat, m] != 1 else 3


@njit
def visible_counts(st, seat, out):
    """Tiles ``seat`` can see: public tiles, its own hand and its own concealed kongs."""
    for t in range(27):
        out[t] = st.public[t] + st.hand[seat, t]
    for m in range(st.n_melds[seat]):
        if st.meld_kind[seat, m] == MELD_CONCEALED_KONG:
            out[st.meld_tile[seat, m]] += 4


@njit
def update_wait(st, seat, T):
    """Recompute the wait mask of ``seat``, who now holds ``13 - 3k`` concealed tiles."""
    held = np.empty(27, np.int8)
    held_counts(st, seat, held)
    st.pl[seat, P_WAIT] = _eval_waits(
        st.hand[seat], held, st.n_melds[seat], st.void[seat], meld_suit_mask(st, seat),
        T.packed, T.masks,
    )


@njit
def is_dead_wait(st, seat):
    """Every winning tile of ``seat`` is already fully visible to it (死叫)."""
    visible = np.empty(27, np.int16)
    visible_counts(st, seat, visible)
    mask = st.pl[seat, P_WAIT]
    for t in range(27):
        if (mask >> t) & 1 and visible[t] < 4:
            return False
    return True


@njit
def ready_units(st, seat, R):
    """Value of ``seat``'s ready hand for the ready check (best or worst wait, RULES.md 6)."""
    return ready_value(
        st.hand[seat], st.meld_kind[seat], st.meld_tile[seat], st.n_melds[seat], st.void[seat], R
    )


@njit
def shanten_of(counts, n_melds, void, T):
    return _eval_shanten(counts, n_melds, void, KIND_ANY, T.packed)


@njit
def ukeire_of(counts, n_melds, void, visible, T):
    """(shanten, number of unseen tiles that lower it)."""
    s, _mask, n = _eval_ukeire(counts, n_melds, void, KIND_ANY, visible, T.packed, T.masks)
    return s, n
