"""The settlement of a drawn end (docs/rules section 6): flower pigs, the ready check, kong
refunds, among the players who never won."""

from __future__ import annotations

from simcore.engine.compile.jit import deal_ir_inline, deal_njit
from simcore.engine.evaluate import (
    is_dead_wait,
    ready_units,
)
from simcore.engine.payments import pay
from simcore.engine.policies.common import holds_void
from simcore.engine.recording import log_event
from simcore.engine.state import (
    EV_READY,
    EV_SETTLE,
    P_FAN,
    P_IN_PLAY,
    P_PIG,
    P_READY_END,
    P_WAIT,
    P_WIN_ORDER,
    PAY_PIG,
    PAY_READY,
    PAY_REFUND,
    REASON_PIG,
    REASON_READY,
    REASON_REFUND,
    S_N_KONG_PAY,
    S_PLAYERS,
)
from simcore.rules import (
    PAYEES_ALL,
    PIG_WINNER_HAND,
)


@deal_njit
def settle_drawn_end(st, R, T):
    """Settle a drawn end (docs/rules section 6) among the players who never won: who is a pig
    and who is ready, then 1. flower pigs, 2. the ready check, 3. kong refunds."""
    log_event(st, EV_SETTLE)
    pig = st.settle[0]
    ready = st.settle[1]
    value = st.settle[2]
    for s in range(4):
        pig[s] = 0
        ready[s] = 0
        value[s] = 0
    _assess(st, R, pig, ready, value)
    _pay_pigs(st, R, pig)
    _pay_ready(st, R, pig, ready, value)
    if R.refund_kongs_if_not_ready != 0:
        _refund_kongs(st, R, ready)


@deal_ir_inline
def _assess(st, R, pig, ready, value):
    """Pig, ready and the ready value of every player who never won (in blood battle: those
    still in play)."""
    for s in range(st.sc[S_PLAYERS]):
        if st.pl[s, P_WIN_ORDER] > 0:
            continue
        v = st.void[s]
        for r in range(9):
            if st.hand[s, 9 * v + r] > 0:
                pig[s] = 1
        st.pl[s, P_PIG] = 1 if pig[s] else 0
        if not pig[s] and st.pl[s, P_WAIT] != 0:
            dead = is_dead_wait(st, s)
            if not dead or R.dead_wait_counts != 0:
                ready[s] = 1
                value[s] = ready_units(st, s, R)
        st.pl[s, P_READY_END] = 1 if ready[s] else 0
        log_event(st, EV_READY, s, 1 if ready[s] else 0, value[s], 1 if pig[s] else 0)


@deal_ir_inline
def _pay_pigs(st, R, pig):
    """1. Flower pigs pay the others."""
    players = st.sc[S_PLAYERS]
    penalty = R.pig_penalty
    for p in range(players):
        if not pig[p]:
            continue
        for q in range(players):
            if q == p or pig[q]:
                continue
            if R.pig_pay == PIG_WINNER_HAND:
                # every player who has won: the value of its winning hand, 2^fan (as capped)
                if st.pl[q, P_WIN_ORDER] > 0:
                    pay(st, p, q, 1 << st.pl[q, P_FAN], PAY_PIG, REASON_PIG)
            elif st.pl[q, P_WIN_ORDER] == 0 or (R.pig_payees == PAYEES_ALL
                                                   and R.blood_river == 0):
                # blood river: winners receive nothing flat (they stay out of the settlement)
                pay(st, p, q, penalty, PAY_PIG, REASON_PIG)


@deal_ir_inline
def _pay_ready(st, R, pig, ready, value):
    """2. The ready check: who never won and is not ready pays each ready player its value."""
    players = st.sc[S_PLAYERS]
    for r in range(players):
        if not ready[r]:
            continue
        for q in range(players):
            if st.pl[q, P_WIN_ORDER] > 0 or ready[q]:
                continue
            if pig[q] and R.pig_pays_ready == 0:
                continue
            pay(st, q, r, value[r], PAY_READY, REASON_READY)


@deal_ir_inline
def _refund_kongs(st, R, ready):
    """3. Refunds: a player in play who is not ready returns the kong money received."""
    for e in range(st.sc[S_N_KONG_PAY]):
        payer = st.kong_pay[e, 0]
        payee = st.kong_pay[e, 1]
        if st.pl[payee, P_WIN_ORDER] > 0 or ready[payee]:
            continue
        if R.blood_river != 0 and st.pl[payer, P_WIN_ORDER] > 0:
            continue  # a winner receives nothing in the settlement, a refund neither
        pay(st, payee, payer, st.kong_pay[e, 2], PAY_REFUND, REASON_REFUND)


@deal_ir_inline
def owes_and_is_owed_nothing(st, R, s):
    """True when seat ``s`` has won and left play (blood battle) and no drawn end could pay it
    or charge it: no pig would pay it (the rules have pigs pay only players in play, or no
    player in play holds a void-suit tile: under ``void_first`` one drawn later is thrown at
    once, so none ends a pig), and no player in play holds kong money ``s`` paid (a refund
    would return it). Its net is then final whatever the others do (a winner pays and receives
    nothing for later wins and kongs)."""
    if R.blood_river != 0 or st.pl[s, P_IN_PLAY] != 0 or st.pl[s, P_WIN_ORDER] == 0:
        return False
    if R.pig_pay == PIG_WINNER_HAND or R.pig_payees == PAYEES_ALL:
        if R.void_first == 0:
            return False
        for o in range(st.sc[S_PLAYERS]):
            if st.pl[o, P_IN_PLAY] != 0 and (st.void[o] < 0 or holds_void(st, o)):
                return False
    if R.refund_kongs_if_not_ready != 0:
        for e in range(st.sc[S_N_KONG_PAY]):
            if (st.kong_pay[e, 0] == s and st.kong_pay[e, 2] != 0
                    and st.pl[st.kong_pay[e, 1], P_WIN_ORDER] == 0):
                return False
    return True
