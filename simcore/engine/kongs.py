"""Kongs: laying one down and collecting its money at once; which kong a seat may declare (a
locked hand's under blood river)."""

from __future__ import annotations

from simcore.engine.compile.jit import deal_inline, deal_ir_inline, deal_njit
from simcore.engine.evaluate import (
    update_wait,
)
from simcore.engine.payments import pay_kong
from simcore.engine.recording import log_event
from simcore.engine.state import (
    EV_KONG,
    KONG_ADDED,
    KONG_CONCEALED,
    KONG_DIRECT,
    P_IN_PLAY,
    P_KONGS_ADDED,
    P_KONGS_CONCEALED,
    P_KONGS_DIRECT,
    P_PASSED_BITS,
    P_WAIT,
    REASON_DRIZZLE,
    REASON_KONG,
    S_INTERRUPTED,
    S_N_KONGS,
)
from simcore.records import (
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_PUNG,
)


# ----------------------------------------------------------------------------- kongs
@deal_njit
def make_kong(st, seat, tile, kind, source, just_drawn, logged, R):
    """Lay down a kong and collect its money at once. Returns the kong id."""
    kong_id = st.sc[S_N_KONGS]
    st.sc[S_N_KONGS] = kong_id + 1
    st.sc[S_INTERRUPTED] = 1
    st.pl[seat, P_PASSED_BITS] = 0
    if kind == KONG_ADDED:
        st.hand[seat, tile] -= 1
        st.public[tile] += 1
        for m in range(st.n_melds[seat]):
            if st.meld_tile[seat, m] == tile and st.meld_kind[seat, m] == MELD_PUNG:
                st.meld_kind[seat, m] = MELD_KONG
        st.pl[seat, P_KONGS_ADDED] += 1
    else:
        m = st.n_melds[seat]
        st.meld_tile[seat, m] = tile
        st.meld_from[seat, m] = source
        st.n_melds[seat] = m + 1
        if kind == KONG_DIRECT:
            st.hand[seat, tile] -= 3
            st.public[tile] += 3
            st.meld_kind[seat, m] = MELD_KONG
            st.pl[seat, P_KONGS_DIRECT] += 1
        else:
            st.hand[seat, tile] -= 4
            st.meld_kind[seat, m] = MELD_CONCEALED_KONG
            st.pl[seat, P_KONGS_CONCEALED] += 1
    if logged:
        log_event(st, EV_KONG, seat, tile, kind, source, 0)
    if kind == KONG_DIRECT:
        pay_kong(st, source, seat, 2, kong_id, REASON_KONG)
        if R.drizzle != 0:
            _collect(st, seat, 1, kong_id, REASON_DRIZZLE)
    elif kind == KONG_ADDED:
        if R.added_kong_only_on_draw == 0 or just_drawn:
            _collect(st, seat, 1, kong_id, REASON_KONG)
    else:
        _collect(st, seat, 2, kong_id, REASON_KONG)
    return kong_id


@deal_ir_inline
def _collect(st, seat, units, kong_id, reason):
    """Every other player in play pays ``seat`` ``units`` for kong ``kong_id``."""
    for s in range(4):
        if s != seat and st.pl[s, P_IN_PLAY] != 0:
            pay_kong(st, s, seat, units, kong_id, reason)


@deal_inline
def kong_kind_of(st, seat, tile):
    if st.hand[seat, tile] == 4:
        return KONG_CONCEALED
    for m in range(st.n_melds[seat]):
        if st.meld_tile[seat, m] == tile and st.meld_kind[seat, m] == MELD_PUNG:
            return KONG_ADDED
    return 0


@deal_njit
def locked_kong_kind(st, seat, tile, T):
    """The kong a locked hand (blood river, after its first win) may declare: one of the tile
    it just drew, and only if its winning tiles stay the same (docs/rules 9); else 0.

    Any other kong would keep the drawn tile, i.e. change the locked hand. An added kong leaves
    the concealed tiles as they were before the draw; a concealed kong is tried out."""
    if tile < 0:
        return 0
    kind = kong_kind_of(st, seat, tile)
    if kind != KONG_CONCEALED:
        return kind
    wait = st.pl[seat, P_WAIT]
    m = st.n_melds[seat]
    st.hand[seat, tile] -= 4
    st.meld_kind[seat, m] = MELD_CONCEALED_KONG
    st.meld_tile[seat, m] = tile
    st.n_melds[seat] = m + 1
    update_wait(st, seat, T)
    same = st.pl[seat, P_WAIT] == wait
    st.n_melds[seat] = m
    st.hand[seat, tile] += 4
    st.pl[seat, P_WAIT] = wait
    return KONG_CONCEALED if same else 0

