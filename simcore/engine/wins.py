"""Wins as they happen: scoring a seat's hand, a self-drawn win, the wins on a discard or a
robbed kong, their payments, the record fields of a player's first win and a row of the win
log (``st.win_log``, the win table: docs/developer/engine.md) for every win."""

from __future__ import annotations

from simcore.engine.compile.jit import deal_inline, deal_ir_inline, deal_njit
from simcore.engine.evaluate import melds_code
from simcore.engine.payments import pay
from simcore.engine.policies.common import n_in_play
from simcore.engine.policies.dispatch import (
    decide_discard_win,
)
from simcore.engine.recording import log_event
from simcore.engine.state import (
    EV_PASS,
    EV_WIN,
    EV_WIN_HAND,
    P_BONUSES,
    P_DEAL_INS,
    P_FAN,
    P_FAN_UNCAPPED,
    P_FED_BY,
    P_FLUSH,
    P_IN_PLAY,
    P_PASS_FAN,
    P_PASS_TILE,
    P_PASSED_WINS,
    P_PATTERN,
    P_ROOTS,
    P_TERMINALS,
    P_WAIT,
    P_WIN_DRAW,
    P_WIN_KIND,
    P_WIN_ORDER,
    P_WIN_TILE,
    P_WINS,
    PAY_KONG,
    PAY_WIN,
    REASON_TRANSFER,
    REASON_WIN,
    S_DEALT,
    S_FIRST_WIN_DONE,
    S_INTERRUPTED,
    S_LOG,
    S_N_KONG_PAY,
    S_N_WINNERS,
    S_N_WINS,
    S_NEXT_DEALER,
    S_STATE_OVERFLOW,
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
from simcore.engine.wall import draws_so_far, must_win, wall_left
from simcore.hand.scoring_kernels import (
    B_KONG_DISCARD,
    B_KONG_FLOWER,
    PAT_NONE,
    RES_FAN_UNCAPPED,
    RES_PATTERN,
    RES_UNITS,
    score_hand,
)
from simcore.records import (
    WIN_DISCARD,
    WIN_KONG_FLOWER,
    WIN_SELF_DRAW,
)
from simcore.rules import (
    PASS_SAME_TILE,
    PASS_UNLESS_HIGHER,
)


# ----------------------------------------------------------------------------- wins
@deal_inline
def heavenly_tile(st, dealer):
    """The winning tile of a heavenly win: the dealer's 14th dealt tile if the dealer still holds
    it after the exchange, else the highest tile type of its 14 tiles (docs/developer/engine.md)."""
    t = st.wall[st.sc[S_DEALT] - 1]
    if st.hand[dealer, t] > 0:
        return t
    for k in range(26, -1, -1):
        if st.hand[dealer, k] > 0:
            return k
    return t


@deal_njit
def score_seat(st, seat, tile, added, self_draw, flags, R):
    """Score ``seat``'s hand, with ``tile`` added to the concealed tiles when ``added``."""
    if added:
        st.hand[seat, tile] += 1
    res = score_hand(
        st.hand[seat], st.meld_kind[seat], st.meld_tile[seat], st.n_melds[seat],
        st.void[seat], self_draw, flags, R,
    )
    if added:
        st.hand[seat, tile] -= 1
    return res


@deal_inline
def may_win_discard(st, seat, tile, fan, R):
    """The passed-win rules (docs/rules section 3) for a win on a discard or a robbed kong."""
    rule = R.pass_win_rule
    pass_tile = st.pl[seat, P_PASS_TILE]
    if pass_tile < 0:
        return True
    if rule == PASS_SAME_TILE:
        return (pass_tile >> tile) & 1 == 0  # a bit set: every tile type declined since
    if rule == PASS_UNLESS_HIGHER:
        return fan > st.pl[seat, P_PASS_FAN]
    return True


@deal_ir_inline
def _suit_key(st, seat, suit, tile, added):
    """Base-5 code of one suit of ``seat``'s concealed tiles (``tile`` added when ``added``)."""
    key = 0
    for r in range(8, -1, -1):
        t = 9 * suit + r
        key = 5 * key + st.hand[seat, t] + (1 if added and t == tile else 0)
    return key


@deal_inline
def _melds_code(st, seat):
    """The seat's melds, 7 bits each (kind << 5 | tile), first meld lowest."""
    return melds_code(st.meld_kind[seat], st.meld_tile[seat], st.n_melds[seat])


@deal_njit
def _record_win(st, seat, tile, kind, fed_by, res, flags, order, event_order, added):
    """Record ``seat``'s win (its hand holds ``tile`` already unless ``added``): in its record
    fields if it is its first (``order``: 1 + players who won earlier), and as a row of the win
    log (``event_order``: 1 + wins earlier). Returns the row, -1 if the log is full."""
    fan, fan_uncapped, pattern, flush, terminals, roots, units = res
    number = st.pl[seat, P_WINS] + 1
    st.pl[seat, P_WINS] = number
    draw = draws_so_far(st)
    if number == 1:  # the records describe a player's first win
        st.pl[seat, P_WIN_ORDER] = order
        st.pl[seat, P_WIN_DRAW] = draw
        st.pl[seat, P_WIN_KIND] = kind
        st.pl[seat, P_FED_BY] = fed_by
        st.pl[seat, P_WIN_TILE] = tile
        st.pl[seat, P_FAN] = fan
        st.pl[seat, P_FAN_UNCAPPED] = fan_uncapped
        st.pl[seat, P_PATTERN] = pattern
        st.pl[seat, P_FLUSH] = 1 if flush else 0
        st.pl[seat, P_TERMINALS] = 1 if terminals else 0
        st.pl[seat, P_ROOTS] = roots
        st.pl[seat, P_BONUSES] = flags
    w = st.sc[S_N_WINS]
    if w < st.win_log.shape[0]:
        row = st.win_log[w]
        row[WL_SEAT] = seat
        row[WL_NUMBER] = number
        row[WL_ORDER] = event_order
        row[WL_DRAW] = draw
        row[WL_KIND] = kind
        row[WL_FED_BY] = fed_by
        row[WL_TILE] = tile
        row[WL_FAN] = fan
        row[WL_FAN_UNCAPPED] = fan_uncapped
        row[WL_PATTERN] = pattern
        row[WL_FLUSH] = 1 if flush else 0
        row[WL_TERMINALS] = 1 if terminals else 0
        row[WL_ROOTS] = roots
        row[WL_BONUSES] = flags
        row[WL_UNITS] = units
        for s in range(4):
            row[WL_PAID + s] = 0
        st.sc[S_N_WINS] = w + 1
    else:
        st.sc[S_STATE_OVERFLOW] = 1
        w = -1
    log_event(st, EV_WIN, seat, tile, kind, fed_by, fan, fan_uncapped, pattern, roots, flags)
    if st.sc[S_LOG] != 0:
        log_event(st, EV_WIN_HAND, seat, _suit_key(st, seat, 0, tile, added),
             _suit_key(st, seat, 1, tile, added), _suit_key(st, seat, 2, tile, added),
             _melds_code(st, seat), 1 if flush else 0, 1 if terminals else 0, units)
    return w


@deal_inline
def _pay_win(st, w, payer, payee, units):
    """A payment for the win in row ``w`` of the win log (-1: the log was full)."""
    pay(st, payer, payee, units, PAY_WIN, REASON_WIN)
    if w >= 0 and payer != payee:
        st.win_log[w, WL_PAID + payer] += units


@deal_njit
def _leave(st, winners, n, R):
    """Winners leave play together after every payment of their win is made (blood battle);
    under blood river they stay, and ``S_N_WINNERS`` counts the players who have won."""
    first = st.sc[S_FIRST_WIN_DONE] == 0
    st.sc[S_INTERRUPTED] = 1  # a win, like a claim, ends the uninterrupted start (earthly win)
    if R.blood_river != 0:
        won = 0
        for s in range(4):
            if st.pl[s, P_WIN_ORDER] > 0:
                won += 1
        st.sc[S_N_WINNERS] = won
        return first
    for k in range(n):
        st.pl[winners[k], P_IN_PLAY] = 0
    st.sc[S_N_WINNERS] += n
    return first


@deal_njit
def settle_self_win(st, seat, tile, flags, kong_from, R):
    """Settle a self-drawn win (kong flower included) of ``seat`` on ``tile`` (in hand)."""
    kong_flower = (flags & B_KONG_FLOWER) != 0
    if kong_flower and kong_from >= 0:
        # direct_kong_flower = discard: scored and paid as a win on the kong tile's discard
        res = score_seat(st, seat, tile, False, False, flags, R)
        st.pl[kong_from, P_DEAL_INS] += 1
        order = st.sc[S_N_WINNERS] + 1
        w = _record_win(st, seat, tile, WIN_KONG_FLOWER, kong_from, res, flags, order,
                        st.sc[S_N_WINS] + 1, False)
        _pay_win(st, w, kong_from, seat, res[RES_UNITS])
    else:
        res = score_seat(st, seat, tile, False, True, flags, R)
        order = st.sc[S_N_WINNERS] + 1
        kind = WIN_KONG_FLOWER if kong_flower else WIN_SELF_DRAW
        w = _record_win(st, seat, tile, kind, -1, res, flags, order, st.sc[S_N_WINS] + 1, False)
        for s in range(4):
            if s != seat and st.pl[s, P_IN_PLAY] != 0:
                _pay_win(st, w, s, seat, res[RES_UNITS])
    # the winner shows the winning tile (seed 000): it is public, like a discard won on
    st.hand[seat, tile] -= 1
    st.public[tile] += 1
    winners = st.winners
    winners[0] = seat
    if _leave(st, winners, 1, R):
        st.sc[S_FIRST_WIN_DONE] = 1
        st.sc[S_NEXT_DEALER] = seat


@deal_inline
def anyone_waits_on(st, discarder, tile):
    """Could another player in play win on ``tile``? Most discards are claimed by nobody: this
    bit test spares them the call of :func:`claim_wins` (which passes the whole state)."""
    for k in range(1, 4):
        s = (discarder + k) % 4
        if st.pl[s, P_IN_PLAY] != 0 and (st.pl[s, P_WAIT] >> tile) & 1 != 0:
            return True
    return False


@deal_njit
def claim_wins(st, discarder, tile, flags, kind, kong_id, R, T, pid, P, families, winners):
    """Offer a discard (or a robbed kong's tile) to the others; settle every win on it.

    Returns the number of winners written into ``winners`` (in seat order from the discarder).
    """
    n = 0
    left = wall_left(st)
    claimable = kind == WIN_DISCARD and left > 0  # not a robbed kong's tile, nor the last
    for k in range(1, 4):
        s = (discarder + k) % 4
        if st.pl[s, P_IN_PLAY] == 0 or (st.pl[s, P_WAIT] >> tile) & 1 == 0:
            continue
        res = score_seat(st, s, tile, True, False, flags, R)
        if res[RES_PATTERN] == PAT_NONE:  # not with a correct wait mask; kept as a guard
            continue
        fan = res[RES_FAN_UNCAPPED]
        if not may_win_discard(st, s, tile, fan, R):
            continue
        if must_win(st, R) or decide_discard_win(pid[s], P[s], families, st, s, tile, fan,
                                                  left, claimable, R, T):
            winners[n] = s
            n += 1
        else:
            st.pl[s, P_PASSED_WINS] += 1
            if fan > st.pl[s, P_PASS_FAN] or st.pl[s, P_PASS_TILE] < 0:
                st.pl[s, P_PASS_FAN] = fan
            declined = st.pl[s, P_PASS_TILE] if st.pl[s, P_PASS_TILE] >= 0 else 0
            st.pl[s, P_PASS_TILE] = declined | (1 << tile)
            log_event(st, EV_PASS, s, tile, fan)
    if n == 0:
        return 0
    order = st.sc[S_N_WINNERS] + 1
    event_order = st.sc[S_N_WINS] + 1  # wins on one tile share their place in the order
    others = n_in_play(st) - 1  # for kong_discard_pays_all: everyone in play but the winner
    for j in range(n):
        s = winners[j]
        res = score_seat(st, s, tile, True, False, flags, R)
        w = _record_win(st, s, tile, kind, discarder, res, flags, order, event_order, True)
        st.pl[discarder, P_DEAL_INS] += 1
        units = res[RES_UNITS]
        if (flags & B_KONG_DISCARD) != 0 and R.kong_discard_pays_all != 0:
            # the discarder pays what every other player would have paid for a self-drawn win
            units = score_seat(st, s, tile, True, True, flags, R)[RES_UNITS] * others
        _pay_win(st, w, discarder, s, units)
        if (flags & B_KONG_DISCARD) != 0 and R.kong_discard_transfer != 0:
            pay(st, discarder, s, _kong_earned(st, kong_id, discarder), PAY_KONG,
                REASON_TRANSFER)
    if (flags & B_KONG_DISCARD) != 0 and R.kong_discard_transfer != 0:
        # the transferred money is no longer the discarder's: no refund of it at a drawn end
        _clear_kong_payments(st, kong_id, discarder)
    if _leave(st, winners, n, R):
        st.sc[S_FIRST_WIN_DONE] = 1
        st.sc[S_NEXT_DEALER] = winners[0] if n == 1 else discarder
    return n



@deal_ir_inline
def _kong_earned(st, kong_id, payee):
    """What kong ``kong_id`` has collected for ``payee`` (kong_discard_transfer)."""
    earned = 0
    for e in range(st.sc[S_N_KONG_PAY]):
        if st.kong_pay[e, 3] == kong_id and st.kong_pay[e, 1] == payee:
            earned += st.kong_pay[e, 2]
    return earned


@deal_ir_inline
def _clear_kong_payments(st, kong_id, payee):
    """Forget kong ``kong_id``'s payments to ``payee`` (transferred: never refunded)."""
    for e in range(st.sc[S_N_KONG_PAY]):
        if st.kong_pay[e, 3] == kong_id and st.kong_pay[e, 1] == payee:
            st.kong_pay[e, 2] = 0
