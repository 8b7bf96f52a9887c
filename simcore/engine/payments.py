"""Money: every payment of a deal goes through :func:`pay`, so nets are zero-sum by
construction and logged for replay; kong payments are also kept for refunds and transfers."""

from __future__ import annotations

from simcore.engine.compile.jit import deal_ir_inline, deal_njit
from simcore.engine.recording import log_event
from simcore.engine.state import (
    EV_PAY,
    MAX_KONG_PAYMENTS,
    PAY_KONG,
    S_N_KONG_PAY,
    S_STATE_OVERFLOW,
)


@deal_ir_inline
def pay(st, payer, payee, units, part, reason):
    """Move ``units`` from ``payer`` to ``payee``: the only place where money moves."""
    if units == 0 or payer == payee:
        return
    st.pay[payer, part] -= units
    st.pay[payee, part] += units
    log_event(st, EV_PAY, payer, payee, units, reason)


@deal_njit
def pay_kong(st, payer, payee, units, kong_id, reason):
    pay(st, payer, payee, units, PAY_KONG, reason)
    n = st.sc[S_N_KONG_PAY]
    if n < MAX_KONG_PAYMENTS:
        st.kong_pay[n, 0] = payer
        st.kong_pay[n, 1] = payee
        st.kong_pay[n, 2] = units
        st.kong_pay[n, 3] = kong_id
        st.sc[S_N_KONG_PAY] = n + 1
    else:
        st.sc[S_STATE_OVERFLOW] = 1  # a refund would be lost: the invariant checker says so

