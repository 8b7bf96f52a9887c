"""What a deal leaves behind: the replay's event log (:func:`log_event`, a no-op in batch runs)
and the rows of the records and the win table, written from a finished deal's state
(:func:`write_records`, :func:`write_wins`)."""

from __future__ import annotations

from simcore.engine.compile.jit import deal_ir_inline, deal_njit
from simcore.engine.invariants import check_deal
from simcore.engine.state import (
    P_BONUSES,
    P_DEAL_INS,
    P_DRAWS,
    P_FAN,
    P_FAN_UNCAPPED,
    P_FED_BY,
    P_FLUSH,
    P_KONGS_ADDED,
    P_KONGS_CONCEALED,
    P_KONGS_DIRECT,
    P_LONGEST_SUIT,
    P_PAIRS,
    P_PASSED_WINS,
    P_PATTERN,
    P_PIG,
    P_PUNGS,
    P_READY_END,
    P_ROOTS,
    P_SHANTEN_DEALT,
    P_SHANTEN_EXCHANGED,
    P_SHANTEN_VOID,
    P_TERMINALS,
    P_WIN_DRAW,
    P_WIN_KIND,
    P_WIN_ORDER,
    P_WIN_TILE,
    P_WINS,
    PAY_KONG,
    PAY_PIG,
    PAY_READY,
    PAY_REFUND,
    PAY_WIN,
    S_DEALER,
    S_EXCHANGE_DIR,
    S_LOG,
    S_N_EVENTS,
    S_N_WINNERS,
    S_N_WINS,
    S_NEXT_DEALER,
    S_OVERFLOW,
    S_PLAYERS,
    S_SUITS,
    WL_BONUSES,
    WL_DRAW,
    WL_FAN,
    WL_FAN_UNCAPPED,
    WL_FED_BY,
    WL_FLUSH,
    WL_KIND,
    WL_NUMBER,
    WL_ORDER,
    WL_PAID,
    WL_PATTERN,
    WL_ROOTS,
    WL_SEAT,
    WL_TERMINALS,
    WL_TILE,
    WL_UNITS,
)
from simcore.engine.wall import wall_left


# ----------------------------------------------------------------------------- bookkeeping
@deal_ir_inline
def log_event(st, kind, a=0, b=0, c=0, d=0, e=0, f=0, g=0, h=0, i=0):
    if st.sc[S_LOG] == 0:
        return
    n = st.sc[S_N_EVENTS]
    if n >= st.events.shape[0]:
        st.sc[S_OVERFLOW] = 1  # replay refuses the deal
        return
    row = st.events[n]
    row[0] = kind
    row[1] = a
    row[2] = b
    row[3] = c
    row[4] = d
    row[5] = e
    row[6] = f
    row[7] = g
    row[8] = h
    row[9] = i
    st.sc[S_N_EVENTS] = n + 1



@deal_ir_inline
def net(st, seat):
    total = 0
    for k in range(5):
        total += st.pay[seat, k]
    return total



# ----------------------------------------------------------------------------- records
@deal_njit
def write_records(st, out, row, deal, wall_id, rotation, policy_index):
    """Write the rows of the finished deal in ``st`` (one per player) to ``out[row :]``."""
    winners = st.sc[S_N_WINNERS]
    two_suits = st.sc[S_SUITS] == 2
    for s in range(st.sc[S_PLAYERS]):
        r = out[row + s]
        r.deal = deal
        r.wall = wall_id
        r.rotation = rotation
        r.seat = s
        r.dealer = s == st.sc[S_DEALER]
        r.policy = policy_index[s]
        r.void_suit = -1 if two_suits else st.void[s]
        r.win_order = st.pl[s, P_WIN_ORDER]
        r.win_draw = st.pl[s, P_WIN_DRAW]
        r.win_kind = st.pl[s, P_WIN_KIND]
        r.fed_by = st.pl[s, P_FED_BY]
        r.win_tile = st.pl[s, P_WIN_TILE]
        r.fan = st.pl[s, P_FAN]
        r.fan_uncapped = st.pl[s, P_FAN_UNCAPPED]
        r.pattern = st.pl[s, P_PATTERN]
        r.flush = st.pl[s, P_FLUSH] != 0
        r.terminals = st.pl[s, P_TERMINALS] != 0
        r.roots = st.pl[s, P_ROOTS]
        r.bonuses = st.pl[s, P_BONUSES]
        r.kongs = st.pl[s, P_KONGS_DIRECT] + st.pl[s, P_KONGS_ADDED] + st.pl[s, P_KONGS_CONCEALED]
        r.kongs_direct = st.pl[s, P_KONGS_DIRECT]
        r.kongs_added = st.pl[s, P_KONGS_ADDED]
        r.kongs_concealed = st.pl[s, P_KONGS_CONCEALED]
        r.pungs = st.pl[s, P_PUNGS]
        r.draws = st.pl[s, P_DRAWS]
        r.deal_ins = st.pl[s, P_DEAL_INS]
        r.passed_wins = st.pl[s, P_PASSED_WINS]
        r.ready_end = st.pl[s, P_READY_END] != 0
        r.pig = st.pl[s, P_PIG] != 0
        r.net_win = st.pay[s, PAY_WIN]
        r.net_kong = st.pay[s, PAY_KONG]
        r.net_pig = st.pay[s, PAY_PIG]
        r.net_ready = st.pay[s, PAY_READY]
        r.net_refund = st.pay[s, PAY_REFUND]
        r.net = net(st, s)
        r.exchange_dir = st.sc[S_EXCHANGE_DIR]
        r.wall_left = wall_left(st)
        r.winners = winners
        r.next_dealer = st.sc[S_NEXT_DEALER]
        r.wins = st.pl[s, P_WINS]
        r.shanten_dealt = st.pl[s, P_SHANTEN_DEALT]
        r.shanten_exchanged = st.pl[s, P_SHANTEN_EXCHANGED]
        r.shanten_void = st.pl[s, P_SHANTEN_VOID]
        r.longest_suit = st.pl[s, P_LONGEST_SUIT]
        r.pairs = st.pl[s, P_PAIRS]


@deal_njit
def write_wins(st, out, n, deal, wall_id, rotation, policy_index):
    """Copy the finished deal's win log into ``out`` from row ``n``; returns ``n`` plus the
    deal's wins, also when ``out`` is too small (rows past its end are not written: the caller
    sees the shortfall and plays the chunk again with a larger table)."""
    for w in range(st.sc[S_N_WINS]):
        if n < out.shape[0]:
            log = st.win_log[w]
            r = out[n]
            seat = log[WL_SEAT]
            r.deal = deal
            r.wall = wall_id
            r.rotation = rotation
            r.seat = seat
            r.policy = policy_index[seat]
            r.win_number = log[WL_NUMBER]
            r.order = log[WL_ORDER]
            r.draw = log[WL_DRAW]
            r.kind = log[WL_KIND]
            r.fed_by = log[WL_FED_BY]
            r.tile = log[WL_TILE]
            r.fan = log[WL_FAN]
            r.fan_uncapped = log[WL_FAN_UNCAPPED]
            r.pattern = log[WL_PATTERN]
            r.flush = log[WL_FLUSH] != 0
            r.terminals = log[WL_TERMINALS] != 0
            r.roots = log[WL_ROOTS]
            r.bonuses = log[WL_BONUSES]
            r.units = log[WL_UNITS]
            r.paid_by_0 = log[WL_PAID]
            r.paid_by_1 = log[WL_PAID + 1]
            r.paid_by_2 = log[WL_PAID + 2]
            r.paid_by_3 = log[WL_PAID + 3]
        n += 1
    return n


@deal_ir_inline
def record_deal(st, outputs, row, n_wins, deal, wall_id, rotation, pol, debug, which):
    """A finished deal of the entry kernel: with ``debug`` its invariants first (a broken one
    sets ``errors[:3] = code, deal, which`` and returns -1: the call stops), then its records
    at ``row`` and its wins; returns the win rows written so far (also in ``errors[3]``)."""
    out, wins, errors = outputs
    if debug:
        code = check_deal(st)
        if code != 0:
            errors[0] = code
            errors[1] = deal
            errors[2] = which
            return -1
    write_records(st, out, row, deal, wall_id, rotation, pol)
    n_wins = write_wins(st, wins, n_wins, deal, wall_id, rotation, pol)
    errors[3] = n_wins
    return n_wins
