"""The turn loop of a deal: draw -> (self-drawn win | kong + replacement | discard) -> claims on
the discard (wins, else a direct kong or a pung), until all players but one have won or the
wall is empty (docs/rules sections 3-5). Under blood river (``R.blood_river``, docs/rules 9)
winners stay in play with a locked hand (keyed on ``win_order > 0`` of the player whose turn it
is, which blood battle never reaches) and only the wall ends the deal.

The loop (:func:`run_turns`) starts from the decision point the state holds (``S_PHASE`` and
the turn's scalars in ``st.sc``), not from Python locals: a deal stopped part-way, or a
position loaded into a state, plays on from there. Every decision is asked of the seat's policy
(:mod:`.policies.dispatch`).

Choices where docs/rules is silent (documented in docs/developer/engine.md):
- after the wall's last tile is discarded only wins may claim it (no pung: the deal is over);
- a robbed kong is a discard for the passed-win rules and must-win-last-four;
- an earthly win needs an uninterrupted start (no pung or kong before it);
- a kong's money transferred by ``kong_discard_transfer`` is not refunded again at a drawn end.
"""

from __future__ import annotations

from simcore.engine.compile.jit import deal_inline, deal_ir_inline
from simcore.engine.drawn_end import owes_and_is_owed_nothing
from simcore.engine.evaluate import (
    update_wait,
)
from simcore.engine.kongs import kong_kind_of, locked_kong_kind, make_kong
from simcore.engine.lanes import next_in_lane
from simcore.engine.policies.common import CLAIM_KONG, CLAIM_PASS
from simcore.engine.policies.dispatch import (
    decide_claim,
    decide_discard,
    decide_kong,
    decide_self_win,
)
from simcore.engine.recording import log_event
from simcore.engine.state import (
    EV_DISCARD,
    EV_DRAW,
    EV_KONG,
    EV_PUNG,
    KONG_ADDED,
    KONG_DIRECT,
    KONG_ROBBED_COLUMN,
    P_DISCARDS,
    P_DRAWN_STREAK,
    P_DRAWS,
    P_IN_PLAY,
    P_PASS_FAN,
    P_PASS_TILE,
    P_PASSED_BITS,
    P_PUNGS,
    P_WAIT,
    P_WIN_ORDER,
    S_AFTER_KONG,
    S_CUR,
    S_DEALER,
    S_DEALER_DISCARDS,
    S_FIRST_TURN,
    S_INTERRUPTED,
    S_KONG_FROM,
    S_LANES,
    S_LAST_DRAWN,
    S_LOG,
    S_N_EVENTS,
    S_N_WINNERS,
    S_PHASE,
    S_PLAYERS,
    S_POS,
    S_ROLLOUT_SEAT,
)
from simcore.engine.wall import must_win, wall_empty, wall_left
from simcore.engine.wins import (
    anyone_waits_on,
    claim_wins,
    heavenly_tile,
    score_seat,
    settle_self_win,
)
from simcore.hand.scoring_kernels import (
    B_HEAVEN_EARTH,
    B_KONG_DISCARD,
    B_KONG_FLOWER,
    B_LAST_TILE,
    B_ROBBED_KONG,
    RES_FAN_UNCAPPED,
    is_winning_hand,
)
from simcore.records import (
    MELD_PUNG,
    WIN_DISCARD,
    WIN_ROBBED_KONG,
)
from simcore.rules import (
    DKF_DISCARD,
)


@deal_inline
def _next_in_play(st, seat):
    for k in range(1, 4):
        s = (seat + k) % 4
        if st.pl[s, P_IN_PLAY] != 0:
            return s
    return -1



@deal_inline
def draw_tile(st, seat, replacement):
    if st.sc[S_LANES] != 0:
        next_in_lane(st, seat)
    t = st.wall[st.sc[S_POS]]
    st.sc[S_POS] += 1
    st.hand[seat, t] += 1
    st.pl[seat, P_DRAWS] += 1
    # a passed win is forgiven at the player's next draw (docs/rules section 3)
    st.pl[seat, P_PASS_TILE] = -1
    st.pl[seat, P_PASS_FAN] = -1
    log_event(st, EV_DRAW, seat, t, 1 if replacement else 0)
    return t



# ----------------------------------------------------------------------------- phases
# A deal is a loop over phases; each phase plays one step of the current player's turn and says
# which phase comes next (st.sc[S_PHASE] between two calls of run_turns). The turn's state lives
# in st.sc (S_PHASE, S_CUR, S_LAST_DRAWN, S_AFTER_KONG, S_KONG_FROM, S_FIRST_TURN). Each phase is
# inlined at its one call site.
PHASE_DRAW = 0  # the current player draws; an empty wall ends the deal
PHASE_OWN_TURN = 1  # with 14 - 3k tiles: a self-drawn win, else a kong, else the discard
PHASE_DISCARD = 2  # the discard and the claims on it (straight after a pung)
PHASE_END = 3


@deal_ir_inline
def _draw_phase(st):
    if wall_empty(st):
        return PHASE_END
    st.sc[S_LAST_DRAWN] = draw_tile(st, st.sc[S_CUR], False)
    st.sc[S_AFTER_KONG] = -1
    st.sc[S_KONG_FROM] = -1
    return PHASE_OWN_TURN


@deal_ir_inline
def _after_win(st, last_winner, R):
    """All players but one won: the deal ends (not under blood river, which ends with the
    wall); so does a rollout whose deciding seat's net is now final (``S_ROLLOUT_SEAT``); else
    the next player in play after ``last_winner`` draws."""
    if st.sc[S_N_WINNERS] >= st.sc[S_PLAYERS] - 1 and R.blood_river == 0:
        return PHASE_END
    seat = st.sc[S_ROLLOUT_SEAT] - 1
    if seat >= 0 and st.sc[S_LOG] == 0 and owes_and_is_owed_nothing(st, R, seat):
        st.sc[S_ROLLOUT_SEAT] = -1  # the rest of the deal cannot change what the rollout asks
        return PHASE_END
    st.sc[S_CUR] = _next_in_play(st, last_winner)
    return PHASE_DRAW


@deal_ir_inline
def _self_win_phase(st, R, T, pid, P, families):
    """A self-drawn win (heaven, earth, kong flower, last tile) if the player can and takes it:
    the next phase, or -1 to go on with the turn."""
    cur = st.sc[S_CUR]
    last_drawn = st.sc[S_LAST_DRAWN]
    after_kong = st.sc[S_AFTER_KONG]
    can_win = False
    win_tile = last_drawn
    flags = 0
    if st.sc[S_FIRST_TURN] != 0:
        win_tile = heavenly_tile(st, cur)
        can_win = is_winning_hand(
            st.hand[cur], st.meld_kind[cur], st.meld_tile[cur], st.n_melds[cur], st.void[cur],
        )
        flags |= B_HEAVEN_EARTH
    elif last_drawn >= 0:
        can_win = (st.pl[cur, P_WAIT] >> last_drawn) & 1 != 0
        if (
            cur != st.sc[S_DEALER]
            and st.pl[cur, P_DRAWS] == 1
            and st.sc[S_INTERRUPTED] == 0
            and after_kong < 0
        ):
            flags |= B_HEAVEN_EARTH
    if not can_win:
        return -1
    if after_kong >= 0:
        flags |= B_KONG_FLOWER
    if wall_empty(st):
        flags |= B_LAST_TILE
    res = score_seat(st, cur, win_tile, False, True, flags, R)
    fan = res[RES_FAN_UNCAPPED]
    if not (must_win(st, R)
            or decide_self_win(pid[cur], P[cur], families, st, cur, win_tile, fan,
                               wall_left(st), R)):
        return -1
    kong_from = st.sc[S_KONG_FROM] if R.direct_kong_flower == DKF_DISCARD else -1
    settle_self_win(st, cur, win_tile, flags, kong_from, R)
    if R.blood_river != 0:
        # the winner plays on with these tiles; a heavenly winner's wait was never computed
        update_wait(st, cur, T)
    st.sc[S_FIRST_TURN] = 0
    return _after_win(st, cur, R)


@deal_ir_inline
def _kong_phase(st, R, T, pid, P, families, winners):
    """A concealed or added kong (robbing it included) with its replacement draw, or the
    discard."""
    cur = st.sc[S_CUR]
    last_drawn = st.sc[S_LAST_DRAWN]
    # a locked hand (blood river; in blood battle a winner has no turn): the policy is asked
    # only about a kong that keeps its winning tiles (one call site of the inlined decide_kong)
    locked = st.pl[cur, P_WIN_ORDER] > 0
    if locked and locked_kong_kind(st, cur, last_drawn, T) == 0:
        return PHASE_DISCARD
    tile = decide_kong(pid[cur], P[cur], families, st, cur, last_drawn, R, T)
    if locked and tile != last_drawn:
        return PHASE_DISCARD
    kind = kong_kind_of(st, cur, tile) if tile >= 0 else 0
    if kind == 0 or tile // 9 == st.void[cur]:
        return PHASE_DISCARD
    st.sc[S_FIRST_TURN] = 0
    if kind == KONG_ADDED:
        # robbing the kong: the added tile is offered like a discard
        st.hand[cur, tile] -= 1
        event = st.sc[S_N_EVENTS]
        log_event(st, EV_KONG, cur, tile, KONG_ADDED, -1, 0)
        n = claim_wins(st, cur, tile, B_ROBBED_KONG, WIN_ROBBED_KONG, -1, R, T, pid, P,
                        families, winners)
        if n > 0:
            if st.sc[S_LOG] != 0 and event < st.events.shape[0]:
                st.events[event, KONG_ROBBED_COLUMN] = 1
            st.public[tile] += 1
            update_wait(st, cur, T)
            return _after_win(st, winners[n - 1], R)
        st.hand[cur, tile] += 1
        kong_id = make_kong(st, cur, tile, kind, -1, tile == last_drawn, False, R)
    else:
        kong_id = make_kong(st, cur, tile, kind, -1, tile == last_drawn, True, R)
    update_wait(st, cur, T)
    st.sc[S_LAST_DRAWN] = draw_tile(st, cur, True)
    st.sc[S_AFTER_KONG] = kong_id
    st.sc[S_KONG_FROM] = -1  # a chained kong's flower is an ordinary self-drawn one
    return PHASE_OWN_TURN


@deal_ir_inline
def _own_turn(st, R, T, pid, P, families, winners):
    phase = _self_win_phase(st, R, T, pid, P, families)
    if phase >= 0:
        return phase
    if not wall_empty(st):  # no kong on an empty wall: no replacement tile
        return _kong_phase(st, R, T, pid, P, families, winners)
    return PHASE_DISCARD


@deal_ir_inline
def _pung(st, seat, tile, discarder):
    st.hand[seat, tile] -= 2
    st.public[tile] += 2
    m = st.n_melds[seat]
    st.meld_kind[seat, m] = MELD_PUNG
    st.meld_tile[seat, m] = tile
    st.meld_from[seat, m] = discarder
    st.n_melds[seat] = m + 1
    st.pl[seat, P_PUNGS] += 1
    st.pl[seat, P_PASSED_BITS] = 0
    st.sc[S_INTERRUPTED] = 1
    log_event(st, EV_PUNG, seat, tile, discarder)


@deal_ir_inline
def _discard_phase(st, R, T, pid, P, families, winners):
    """The current player's discard, then the claims on it: wins, else a direct kong or a pung."""
    cur = st.sc[S_CUR]
    after_kong = st.sc[S_AFTER_KONG]
    st.sc[S_FIRST_TURN] = 0
    if st.pl[cur, P_WIN_ORDER] > 0:
        tile = st.sc[S_LAST_DRAWN]  # a locked hand (blood river) throws away what it drew
    else:
        tile = decide_discard(pid[cur], P[cur], families, st, cur, R, T)
    st.hand[cur, tile] -= 1
    st.public[tile] += 1
    st.pl[cur, P_DISCARDS] += 1
    # public: a ready hand keeps throwing away what it draws (policies read the streak)
    kept_draw = tile != st.sc[S_LAST_DRAWN]
    st.pl[cur, P_DRAWN_STREAK] = 0 if kept_draw else st.pl[cur, P_DRAWN_STREAK] + 1
    # public: a tile a player let go without winning does not complete its hand (until the
    # hand changes), for the policies that read the table
    bit = 1 << tile
    st.pl[cur, P_PASSED_BITS] = 0 if kept_draw else st.pl[cur, P_PASSED_BITS] | bit
    for k in range(1, 4):
        o = (cur + k) % 4
        st.pl[o, P_PASSED_BITS] |= bit
    log_event(st, EV_DISCARD, cur, tile)
    if tile != st.sc[S_LAST_DRAWN]:
        # discarding the tile just drawn leaves the hand whose wait mask is already known
        update_wait(st, cur, T)
    flags = 0
    if after_kong >= 0:
        flags |= B_KONG_DISCARD
    if wall_empty(st):
        flags |= B_LAST_TILE
    if cur == st.sc[S_DEALER]:
        if st.sc[S_DEALER_DISCARDS] == 0 and st.sc[S_INTERRUPTED] == 0:
            flags |= B_HEAVEN_EARTH
        st.sc[S_DEALER_DISCARDS] += 1
    if anyone_waits_on(st, cur, tile):
        n = claim_wins(st, cur, tile, flags, WIN_DISCARD, after_kong, R, T, pid, P,
                            families, winners)
        if n > 0:
            return _after_win(st, winners[n - 1], R)
    if wall_empty(st):
        return PHASE_END  # the last discard of the deal: only a win could claim it
    for k in range(1, 4):
        s = (cur + k) % 4
        if (st.pl[s, P_IN_PLAY] == 0 or st.hand[s, tile] < 2 or tile // 9 == st.void[s]
                or st.pl[s, P_WIN_ORDER] > 0):  # a locked hand claims only wins (blood river)
            continue
        can_kong = st.hand[s, tile] == 3
        choice = decide_claim(pid[s], P[s], families, st, s, tile, can_kong, R, T)
        if choice == CLAIM_KONG and can_kong:
            kong_id = make_kong(st, s, tile, KONG_DIRECT, cur, False, True, R)
            update_wait(st, s, T)
            st.sc[S_KONG_FROM] = cur
            st.sc[S_CUR] = s
            st.sc[S_LAST_DRAWN] = draw_tile(st, s, True)
            st.sc[S_AFTER_KONG] = kong_id
            return PHASE_OWN_TURN
        if choice != CLAIM_PASS:  # a pung (or a kong asked for without three in hand)
            _pung(st, s, tile, cur)
            st.sc[S_CUR] = s
            st.sc[S_LAST_DRAWN] = -1
            st.sc[S_AFTER_KONG] = -1
            return PHASE_DISCARD
        break  # only one player can hold two or more copies
    st.sc[S_CUR] = _next_in_play(st, cur)
    return PHASE_DRAW



# ----------------------------------------------------------------------------- the loop
@deal_ir_inline
def start_turns(st):
    """Put the dealt deal in ``st`` at its first decision point: the dealer's first turn, on 14
    tiles (a heavenly win is possible)."""
    st.sc[S_CUR] = st.sc[S_DEALER]
    st.sc[S_LAST_DRAWN] = -1  # the tile the current player just drew, -1 if none
    st.sc[S_AFTER_KONG] = -1  # the kong whose replacement the current player just drew
    st.sc[S_KONG_FROM] = -1  # the discarder of a direct kong's tile, while its replacement is held
    st.sc[S_FIRST_TURN] = 1
    st.sc[S_PHASE] = PHASE_OWN_TURN


@deal_ir_inline
def run_turns(st, R, T, pid, P, families, max_steps):
    """Play the deal in ``st`` on from its decision point (``st.sc[S_PHASE]`` and the turn's
    scalars) until it ends, or until ``max_steps`` phases have been played (-1: no limit).
    Returns True when the deal has ended (the settlement is the caller's).

    Everything a later step reads is in ``st`` (the seats' random streams and their policies'
    memory included), so a copy of a state stopped here plays on exactly as the original.
    """
    winners = st.winners
    phase = st.sc[S_PHASE]
    steps = 0
    while phase != PHASE_END and steps != max_steps:
        if phase == PHASE_DRAW:
            phase = _draw_phase(st)
        elif phase == PHASE_OWN_TURN:
            phase = _own_turn(st, R, T, pid, P, families, winners)
        else:
            phase = _discard_phase(st, R, T, pid, P, families, winners)
        steps += 1
    st.sc[S_PHASE] = phase
    return phase == PHASE_END
