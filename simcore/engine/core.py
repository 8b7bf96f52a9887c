"""The blood-battle deal kernel: one complete deal from a wall, every rule of docs/rules.

Flow of a deal (docs/rules sections 2-6): deal, exchange three, void, the dealer's first turn, then
turns of draw -> (self-drawn win | kong + replacement | discard) -> claims on the discard
(wins, else a direct kong or a pung), until all players but one have won or the wall is empty;
then the drawn-end settlement. Under blood river (``R.blood_river``, docs/rules 9) winners stay in
play with a locked hand (keyed on ``win_order > 0`` of the player whose turn it is, which blood
battle never reaches) and only the wall ends the deal. Every win is also a row of
``st.win_log`` (the win table, docs/developer/engine.md). Every decision is asked of the seat's
policy (:mod:`.policies`); every payment goes through :func:`_pay` so nets are zero-sum by
construction and logged for replay.

Choices where docs/rules is silent (documented in docs/developer/engine.md):
- after the wall's last tile is discarded only wins may claim it (no pung: the deal is over);
- a robbed kong is a discard for the passed-win rules and must-win-last-four;
- an earthly win needs an uninterrupted start (no pung or kong before it);
- a kong's money transferred by ``kong_discard_transfer`` is not refunded again at a drawn end.

Variants (docs/rules section 9): with three players seat 3 is never in play (the loops over "the
other seats" skip seats out of play, so they skip it with no test of their own); with two suits
the wall is the 72 tiles of types 9..26 and every seat's void is the absent suit m internally (no
tile of it exists, so the void rules and the flower pig never apply), recorded as -1.
"""

from __future__ import annotations

from simcore.engine.compile.jit import deal_inline, deal_ir_inline, deal_njit
from simcore.engine.evaluate import (
    is_dead_wait,
    ready_units,
    update_wait,
)
from simcore.engine.policies.common import CLAIM_KONG, CLAIM_PASS, n_in_play
from simcore.engine.policies.dispatch import (
    decide_claim,
    decide_discard,
    decide_discard_win,
    decide_exchange,
    decide_kong,
    decide_self_win,
    decide_void,
)
from simcore.engine.rng import (
    PURPOSE_ENGINE,
    PURPOSE_SEAT0,
    PURPOSE_WALL,
    below,
    shuffle_tiles,
    stream_key,
)
from simcore.engine.state import (
    EV_DEAL,
    EV_DISCARD,
    EV_DRAW,
    EV_END,
    EV_EXCHANGE,
    EV_KONG,
    EV_KONG_ROBBED,
    EV_PASS,
    EV_PAY,
    EV_PUNG,
    EV_READY,
    EV_SETTLE,
    EV_VOID,
    EV_WIN,
    EV_WIN_HAND,
    KONG_ADDED,
    KONG_CONCEALED,
    KONG_DIRECT,
    MAX_KONG_PAYMENTS,
    P_BONUSES,
    P_DEAL_INS,
    P_DISCARDS,
    P_DRAWN_STREAK,
    P_DRAWS,
    P_FAN,
    P_FAN_UNCAPPED,
    P_FED_BY,
    P_FLUSH,
    P_IN_PLAY,
    P_KONGS_ADDED,
    P_KONGS_CONCEALED,
    P_KONGS_DIRECT,
    P_LONGEST_SUIT,
    P_PAIRS,
    P_PASS_FAN,
    P_PASS_TILE,
    P_PASSED_BITS,
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
    P_WAIT,
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
    REASON_DRIZZLE,
    REASON_KONG,
    REASON_PIG,
    REASON_READY,
    REASON_REFUND,
    REASON_TRANSFER,
    REASON_WIN,
    S_AFTER_KONG,
    S_CUR,
    S_DEAL,
    S_DEALER,
    S_DEALER_DISCARDS,
    S_DEALT,
    S_EXCHANGE_DIR,
    S_FIRST_TURN,
    S_FIRST_WIN_DONE,
    S_INTERRUPTED,
    S_KONG_FROM,
    S_LAST_DRAWN,
    S_LOG,
    S_N_EVENTS,
    S_N_KONG_PAY,
    S_N_KONGS,
    S_N_WINNERS,
    S_N_WINS,
    S_NEXT_DEALER,
    S_OVERFLOW,
    S_PLAYERS,
    S_POS,
    S_RIVER,
    S_SEED,
    S_STATE_OVERFLOW,
    S_SUITS,
    S_WALL_END,
    S_WALL_ID,
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
from simcore.hand.kernels import KIND_ANY, _combine_three, _combine_two, _eval_shanten
from simcore.hand.scoring_kernels import (
    B_HEAVEN_EARTH,
    B_KONG_DISCARD,
    B_KONG_FLOWER,
    B_LAST_TILE,
    B_ROBBED_KONG,
    PAT_NONE,
    RES_FAN_UNCAPPED,
    RES_PATTERN,
    RES_UNITS,
    is_winning_hand,
    score_hand,
)
from simcore.records import (
    EXCHANGE_NEXT,
    EXCHANGE_NONE,
    EXCHANGE_PREVIOUS,
    FIRST_TYPE_TWO_SUITS,
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_PUNG,
    SUIT_M,
    TILES_PER_SUIT,
    WIN_DISCARD,
    WIN_KONG_FLOWER,
    WIN_ROBBED_KONG,
    WIN_SELF_DRAW,
)
from simcore.rules import (
    DKF_DISCARD,
    PASS_SAME_TILE,
    PASS_UNLESS_HIGHER,
    PAYEES_ALL,
    PIG_WINNER_HAND,
)

LAST_FOUR = 4  # the last four tiles of the wall must be won on (must_win_last_four)

# Only the entry kernel (kernel.play_deals) is cached. Helpers
# that take the DealState tuple are compiled into the cached caller, without reference
# counting (@deal_njit, see jit.py: the counts were 80% of a random deal); the small ones
# called on every turn are inlined at numba's level (inline="always").


# ----------------------------------------------------------------------------- bookkeeping
@deal_ir_inline
def _log(st, kind, a=0, b=0, c=0, d=0, e=0, f=0, g=0, h=0, i=0):
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
def _pay(st, payer, payee, units, part, reason):
    """Move ``units`` from ``payer`` to ``payee``: the only place where money moves."""
    if units == 0 or payer == payee:
        return
    st.pay[payer, part] -= units
    st.pay[payee, part] += units
    _log(st, EV_PAY, payer, payee, units, reason)


@deal_njit
def _pay_kong(st, payer, payee, units, kong_id, reason):
    _pay(st, payer, payee, units, PAY_KONG, reason)
    n = st.sc[S_N_KONG_PAY]
    if n < MAX_KONG_PAYMENTS:
        st.kong_pay[n, 0] = payer
        st.kong_pay[n, 1] = payee
        st.kong_pay[n, 2] = units
        st.kong_pay[n, 3] = kong_id
        st.sc[S_N_KONG_PAY] = n + 1
    else:
        st.sc[S_STATE_OVERFLOW] = 1  # a refund would be lost: the invariant checker says so


@deal_inline
def _next_in_play(st, seat):
    for k in range(1, 4):
        s = (seat + k) % 4
        if st.pl[s, P_IN_PLAY] != 0:
            return s
    return -1


@deal_inline
def _draws_so_far(st):
    return st.sc[S_POS] - st.sc[S_DEALT]


@deal_inline
def _wall_left(st):
    return st.sc[S_WALL_END] - st.sc[S_POS]


@deal_inline
def _wall_empty(st):
    return st.sc[S_POS] >= st.sc[S_WALL_END]


@deal_inline
def _must_win(st, R):
    """Must-win-last-four (docs/rules 3): once the fourth-last tile has been drawn (three or fewer
    left), every win on a draw, a discard or a robbed kong is forced."""
    return R.must_win_last_four != 0 and _wall_left(st) < LAST_FOUR


@deal_inline
def _draw(st, seat, replacement):
    t = st.wall[st.sc[S_POS]]
    st.sc[S_POS] += 1
    st.hand[seat, t] += 1
    st.pl[seat, P_DRAWS] += 1
    # a passed win is forgiven at the player's next draw (docs/rules section 3)
    st.pl[seat, P_PASS_TILE] = -1
    st.pl[seat, P_PASS_FAN] = -1
    _log(st, EV_DRAW, seat, t, 1 if replacement else 0)
    return t


# ----------------------------------------------------------------------------- setup
@deal_njit
def _setup(st, R, T, pid, P, with_expert, seed, deal, wall_id, dealer, fixed_wall):
    """Reset the state, shuffle the wall of ``wall_id``, deal, exchange three, declare voids."""
    st.hand[:] = 0
    st.n_melds[:] = 0
    st.meld_kind[:] = 0
    st.meld_tile[:] = 0
    st.meld_from[:] = -1
    st.public[:] = 0
    st.pl[:] = 0
    st.pay[:] = 0
    log = st.sc[S_LOG]
    st.sc[:] = 0
    st.sc[S_LOG] = log
    st.sc[S_DEAL] = deal
    st.sc[S_SEED] = seed
    st.sc[S_WALL_ID] = wall_id
    st.sc[S_DEALER] = dealer
    st.sc[S_NEXT_DEALER] = dealer
    players = R.players
    two_suits = R.suits == 2
    st.sc[S_PLAYERS] = players
    st.sc[S_SUITS] = R.suits
    st.sc[S_WALL_END] = TILES_PER_SUIT * R.suits
    st.sc[S_DEALT] = 13 * players + 1
    st.sc[S_RIVER] = R.blood_river
    for s in range(4):
        st.pl[s, P_IN_PLAY] = 1 if s < players else 0
        st.pl[s, P_WIN_DRAW] = -1
        st.pl[s, P_FED_BY] = -1
        st.pl[s, P_WIN_TILE] = -1
        st.pl[s, P_PATTERN] = PAT_NONE
        st.pl[s, P_PASS_TILE] = -1
        st.pl[s, P_PASS_FAN] = -1
    # The wall depends on the wall id only, so duplicate rotations replay the same tiles; the
    # engine's and the seats' streams depend on the deal, the seat's stream on the seat.
    st.rng[0] = stream_key(seed, wall_id, PURPOSE_WALL)
    st.rng[1] = stream_key(seed, wall_id, PURPOSE_ENGINE)
    for s in range(4):
        st.rng[2 + s] = stream_key(seed, deal, PURPOSE_SEAT0 + s)
    if not fixed_wall:
        if two_suits:
            shuffle_tiles(st.wall, st.rng, 0, FIRST_TYPE_TWO_SUITS, st.sc[S_WALL_END])
        else:
            shuffle_tiles(st.wall, st.rng, 0, 0, st.sc[S_WALL_END])
    for k in range(players):
        seat = (dealer + k) % players
        for j in range(13):
            st.hand[seat, st.wall[13 * k + j]] += 1
    st.hand[dealer, st.wall[13 * players]] += 1
    st.sc[S_POS] = st.sc[S_DEALT]
    if log:
        _log(st, EV_DEAL, dealer)
    if R.exchange_three != 0:  # else the dealt hand is the hand after the (absent) exchange
        _note_dealt(st.hand, st.pl, T.packed)
    # exchange three: every seat picks three tiles of one suit, then all pass at once
    if R.exchange_three != 0:
        # four players: next, previous or across; three: next or previous (docs/rules 9)
        direction = 1 + below(st.rng, 1, 3 if players == 4 else 2)
        st.sc[S_EXCHANGE_DIR] = direction
        given = st.given
        for s in range(players):
            decide_exchange(pid[s], P[s], with_expert, st, s, R, T, given[s])
        for s in range(players):
            for j in range(3):
                st.hand[s, given[s, j]] -= 1
        for s in range(players):
            if direction == EXCHANGE_NEXT:
                to = (s + 1) % players
            elif direction == EXCHANGE_PREVIOUS:
                to = (s + players - 1) % players
            else:
                to = (s + 2) % players
            for j in range(3):
                st.hand[to, given[s, j]] += 1
            _log(st, EV_EXCHANGE, s, given[s, 0], given[s, 1], given[s, 2], direction, to)
    else:
        st.sc[S_EXCHANGE_DIR] = EXCHANGE_NONE
    # two suits: no void is declared; each family still picks its plan here (and gives m, the
    # absent suit, as its void: see the module docstring)
    for s in range(players):
        st.void[s] = decide_void(pid[s], P[s], with_expert, st, s, R, T)
        if two_suits:
            st.void[s] = SUIT_M
    if not two_suits:
        for s in range(players):
            _log(st, EV_VOID, s, st.void[s])
    for s in range(players):
        if s != dealer:
            update_wait(st, s, T)
    _note_start(st.hand, st.void, st.pl, T.packed, R.exchange_three != 0)


# The starting-hand record columns. They take arrays, not the state tuple: a call passing the
# tuple passes every field of every array in it, and these run once per deal on every deal
# (the cheapest deals, four `random` seats, take about 10 us).
@deal_njit
def _note_dealt(hand, pl, packed):
    """``shanten_dealt`` of every seat, taken before the exchange of three."""
    for s in range(4):
        pl[s, P_SHANTEN_DEALT] = _eval_shanten(hand[s], 0, -1, KIND_ANY, packed)


@deal_njit
def _note_start(hand, void, pl, packed, exchanged):
    """The other starting-hand columns of every seat, from its hand after the exchange and the
    void (``shanten_dealt`` too when there was no exchange: ``exchanged`` is False)."""
    for seat in range(4):
        _note_seat(hand[seat], void[seat], pl[seat], packed, exchanged)


@deal_inline
def _seven_pairs_distance(pairs, singles):
    """``_hand_kernels._eval_seven_pairs`` without melds, from its two sums (pairs: sum of
    ``c // 2``, singles: sum of ``c % 2``)."""
    need = 7 - pairs
    if need <= 0:
        return 0
    return min(need, singles) + 2 * max(0, need - singles)


@deal_inline
def _note_seat(h, v, row, packed, exchanged):
    """One seat's columns. Shanten is the engine's own (:func:`.evaluate.shanten_of`, which
    the policies' void choice uses): any shape, 13 or the dealer's 14 tiles; with a void its
    tiles count for nothing (they can only be discarded); a void of -1 leaves every suit.

    One pass over the tiles gives the suit keys and every sum both shanten values, the longest
    suit and the pairs need (separate kernel calls made four passes: most of the cost here).
    """
    k0 = 0
    k1 = 0
    k2 = 0
    halves = 0  # sum of c // 2: the pairs seven pairs can use
    singles = 0  # sum of c % 2
    void_halves = 0
    void_singles = 0
    longest = 0
    pairs = 0
    for su in range(3):
        key = 0
        n = 0
        hs = 0
        ss = 0
        ps = 0
        for r in range(8, -1, -1):  # Horner, rank 9 first: _hand_kernels._compute_keys
            c = h[9 * su + r]
            key = key * 5 + c
            n += c
            hs += c >> 1
            ss += c & 1
            ps += 1 if c >= 2 else 0  # a triplet or four copies is one pair type too
        if su == 0:
            k0 = key
        elif su == 1:
            k1 = key
        else:
            k2 = key
        halves += hs
        singles += ss
        if su == v:
            void_halves = hs
            void_singles = ss
        else:
            longest = max(longest, n)
            pairs += ps
    e0 = packed[k0]
    e1 = packed[k1]
    e2 = packed[k2]
    d = min(_combine_three(e0, e1, e2, 4), _seven_pairs_distance(halves, singles))
    row[P_SHANTEN_EXCHANGED] = d - 1
    if not exchanged:
        row[P_SHANTEN_DEALT] = d - 1
    if v >= 0:
        if v == 0:
            d = _combine_two(e1, e2, 4)
        elif v == 1:
            d = _combine_two(e0, e2, 4)
        else:
            d = _combine_two(e0, e1, 4)
        d = min(d, _seven_pairs_distance(halves - void_halves, singles - void_singles))
    row[P_SHANTEN_VOID] = d - 1
    row[P_LONGEST_SUIT] = longest
    row[P_PAIRS] = pairs


# ----------------------------------------------------------------------------- wins
@deal_inline
def _heavenly_tile(st, dealer):
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
def _score(st, seat, tile, added, self_draw, flags, R):
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
def _may_win_discard(st, seat, tile, fan, R):
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
    code = 0
    for m in range(st.n_melds[seat] - 1, -1, -1):
        code = (code << 7) | (st.meld_kind[seat, m] << 5) | st.meld_tile[seat, m]
    return code


@deal_njit
def _record_win(st, seat, tile, kind, fed_by, res, flags, order, event_order, added):
    """Record ``seat``'s win (its hand holds ``tile`` already unless ``added``): in its record
    fields if it is its first (``order``: 1 + players who won earlier), and as a row of the win
    log (``event_order``: 1 + wins earlier). Returns the row, -1 if the log is full."""
    fan, fan_uncapped, pattern, flush, terminals, roots, units = res
    number = st.pl[seat, P_WINS] + 1
    st.pl[seat, P_WINS] = number
    draw = _draws_so_far(st)
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
    _log(st, EV_WIN, seat, tile, kind, fed_by, fan, fan_uncapped, pattern, roots, flags)
    if st.sc[S_LOG] != 0:
        _log(st, EV_WIN_HAND, seat, _suit_key(st, seat, 0, tile, added),
             _suit_key(st, seat, 1, tile, added), _suit_key(st, seat, 2, tile, added),
             _melds_code(st, seat), 1 if flush else 0, 1 if terminals else 0, units)
    return w


@deal_inline
def _pay_win(st, w, payer, payee, units):
    """A payment for the win in row ``w`` of the win log (-1: the log was full)."""
    _pay(st, payer, payee, units, PAY_WIN, REASON_WIN)
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
def _self_win(st, seat, tile, flags, kong_from, R):
    """Settle a self-drawn win (kong flower included) of ``seat`` on ``tile`` (in hand)."""
    kong_flower = (flags & B_KONG_FLOWER) != 0
    if kong_flower and kong_from >= 0:
        # direct_kong_flower = discard: scored and paid as a win on the kong tile's discard
        res = _score(st, seat, tile, False, False, flags, R)
        st.pl[kong_from, P_DEAL_INS] += 1
        order = st.sc[S_N_WINNERS] + 1
        w = _record_win(st, seat, tile, WIN_KONG_FLOWER, kong_from, res, flags, order,
                        st.sc[S_N_WINS] + 1, False)
        _pay_win(st, w, kong_from, seat, res[RES_UNITS])
    else:
        res = _score(st, seat, tile, False, True, flags, R)
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
def _anyone_waits_on(st, discarder, tile):
    """Could another player in play win on ``tile``? Most discards are claimed by nobody: this
    bit test spares them the call of :func:`_claim_wins` (which passes the whole state)."""
    for k in range(1, 4):
        s = (discarder + k) % 4
        if st.pl[s, P_IN_PLAY] != 0 and (st.pl[s, P_WAIT] >> tile) & 1 != 0:
            return True
    return False


@deal_njit
def _claim_wins(st, discarder, tile, flags, kind, kong_id, R, pid, P, with_expert, winners):
    """Offer a discard (or a robbed kong's tile) to the others; settle every win on it.

    Returns the number of winners written into ``winners`` (in seat order from the discarder).
    """
    n = 0
    wall_left = _wall_left(st)
    for k in range(1, 4):
        s = (discarder + k) % 4
        if st.pl[s, P_IN_PLAY] == 0 or (st.pl[s, P_WAIT] >> tile) & 1 == 0:
            continue
        res = _score(st, s, tile, True, False, flags, R)
        if res[RES_PATTERN] == PAT_NONE:  # not with a correct wait mask; kept as a guard
            continue
        fan = res[RES_FAN_UNCAPPED]
        if not _may_win_discard(st, s, tile, fan, R):
            continue
        if _must_win(st, R) or decide_discard_win(pid[s], P[s], with_expert, st, s, tile, fan,
                                                  wall_left, R):
            winners[n] = s
            n += 1
        else:
            st.pl[s, P_PASSED_WINS] += 1
            if fan > st.pl[s, P_PASS_FAN] or st.pl[s, P_PASS_TILE] < 0:
                st.pl[s, P_PASS_FAN] = fan
            declined = st.pl[s, P_PASS_TILE] if st.pl[s, P_PASS_TILE] >= 0 else 0
            st.pl[s, P_PASS_TILE] = declined | (1 << tile)
            _log(st, EV_PASS, s, tile, fan)
    if n == 0:
        return 0
    order = st.sc[S_N_WINNERS] + 1
    event_order = st.sc[S_N_WINS] + 1  # wins on one tile share their place in the order
    others = n_in_play(st) - 1  # for kong_discard_pays_all: everyone in play but the winner
    for j in range(n):
        s = winners[j]
        res = _score(st, s, tile, True, False, flags, R)
        w = _record_win(st, s, tile, kind, discarder, res, flags, order, event_order, True)
        st.pl[discarder, P_DEAL_INS] += 1
        units = res[RES_UNITS]
        if (flags & B_KONG_DISCARD) != 0 and R.kong_discard_pays_all != 0:
            # the discarder pays what every other player would have paid for a self-drawn win
            units = _score(st, s, tile, True, True, flags, R)[RES_UNITS] * others
        _pay_win(st, w, discarder, s, units)
        if (flags & B_KONG_DISCARD) != 0 and R.kong_discard_transfer != 0:
            earned = 0
            for e in range(st.sc[S_N_KONG_PAY]):
                if st.kong_pay[e, 3] == kong_id and st.kong_pay[e, 1] == discarder:
                    earned += st.kong_pay[e, 2]
            _pay(st, discarder, s, earned, PAY_KONG, REASON_TRANSFER)
    if (flags & B_KONG_DISCARD) != 0 and R.kong_discard_transfer != 0:
        # the transferred money is no longer the discarder's: no refund of it at a drawn end
        for e in range(st.sc[S_N_KONG_PAY]):
            if st.kong_pay[e, 3] == kong_id and st.kong_pay[e, 1] == discarder:
                st.kong_pay[e, 2] = 0
    if _leave(st, winners, n, R):
        st.sc[S_FIRST_WIN_DONE] = 1
        st.sc[S_NEXT_DEALER] = winners[0] if n == 1 else discarder
    return n


# ----------------------------------------------------------------------------- kongs
@deal_njit
def _make_kong(st, seat, tile, kind, source, just_drawn, log_event, R):
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
    if log_event:
        _log(st, EV_KONG, seat, tile, kind, source, 0)
    if kind == KONG_DIRECT:
        _pay_kong(st, source, seat, 2, kong_id, REASON_KONG)
        if R.drizzle != 0:
            for s in range(4):
                if s != seat and st.pl[s, P_IN_PLAY] != 0:
                    _pay_kong(st, s, seat, 1, kong_id, REASON_DRIZZLE)
    elif kind == KONG_ADDED:
        if R.added_kong_only_on_draw == 0 or just_drawn:
            for s in range(4):
                if s != seat and st.pl[s, P_IN_PLAY] != 0:
                    _pay_kong(st, s, seat, 1, kong_id, REASON_KONG)
    else:
        for s in range(4):
            if s != seat and st.pl[s, P_IN_PLAY] != 0:
                _pay_kong(st, s, seat, 2, kong_id, REASON_KONG)
    return kong_id


@deal_inline
def _kong_kind_of(st, seat, tile):
    if st.hand[seat, tile] == 4:
        return KONG_CONCEALED
    for m in range(st.n_melds[seat]):
        if st.meld_tile[seat, m] == tile and st.meld_kind[seat, m] == MELD_PUNG:
            return KONG_ADDED
    return 0


@deal_njit
def _locked_kong_kind(st, seat, tile, T):
    """The kong a locked hand (blood river, after its first win) may declare: one of the tile
    it just drew, and only if its winning tiles stay the same (docs/rules 9); else 0.

    Any other kong would keep the drawn tile, i.e. change the locked hand. An added kong leaves
    the concealed tiles as they were before the draw; a concealed kong is tried out."""
    if tile < 0:
        return 0
    kind = _kong_kind_of(st, seat, tile)
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


# ----------------------------------------------------------------------------- drawn end
@deal_njit
def _settle_drawn_end(st, R, T):
    _log(st, EV_SETTLE)
    pig = st.settle[0]
    ready = st.settle[1]
    value = st.settle[2]
    players = st.sc[S_PLAYERS]
    for s in range(4):
        pig[s] = 0
        ready[s] = 0
        value[s] = 0
    # among the players who never won (in blood battle: those still in play)
    for s in range(players):
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
        _log(st, EV_READY, s, 1 if ready[s] else 0, value[s], 1 if pig[s] else 0)
    # 1. flower pigs
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
                    _pay(st, p, q, 1 << st.pl[q, P_FAN], PAY_PIG, REASON_PIG)
            elif st.pl[q, P_WIN_ORDER] == 0 or (R.pig_payees == PAYEES_ALL
                                                   and R.blood_river == 0):
                # blood river: winners receive nothing flat (they stay out of the settlement)
                _pay(st, p, q, penalty, PAY_PIG, REASON_PIG)
    # 2. ready check
    for r in range(players):
        if not ready[r]:
            continue
        for q in range(players):
            if st.pl[q, P_WIN_ORDER] > 0 or ready[q]:
                continue
            if pig[q] and R.pig_pays_ready == 0:
                continue
            _pay(st, q, r, value[r], PAY_READY, REASON_READY)
    # 3. refunds: a player in play who is not ready returns the kong money received
    if R.refund_kongs_if_not_ready != 0:
        for e in range(st.sc[S_N_KONG_PAY]):
            payer = st.kong_pay[e, 0]
            payee = st.kong_pay[e, 1]
            if st.pl[payee, P_WIN_ORDER] > 0 or ready[payee]:
                continue
            if R.blood_river != 0 and st.pl[payer, P_WIN_ORDER] > 0:
                continue  # a winner receives nothing in the settlement, a refund neither
            _pay(st, payee, payer, st.kong_pay[e, 2], PAY_REFUND, REASON_REFUND)


# ----------------------------------------------------------------------------- one deal
# A deal is a loop over phases; each phase plays one step of the current player's turn and says
# which phase comes next. The turn's state lives in st.sc (S_CUR, S_LAST_DRAWN, S_AFTER_KONG,
# S_KONG_FROM, S_FIRST_TURN). Each phase is inlined at its one call site.
PHASE_DRAW = 0  # the current player draws; an empty wall ends the deal
PHASE_OWN_TURN = 1  # with 14 - 3k tiles: a self-drawn win, else a kong, else the discard
PHASE_DISCARD = 2  # the discard and the claims on it (straight after a pung)
PHASE_END = 3


@deal_ir_inline
def _draw_phase(st):
    if _wall_empty(st):
        return PHASE_END
    st.sc[S_LAST_DRAWN] = _draw(st, st.sc[S_CUR], False)
    st.sc[S_AFTER_KONG] = -1
    st.sc[S_KONG_FROM] = -1
    return PHASE_OWN_TURN


@deal_ir_inline
def _after_win(st, last_winner, R):
    """All players but one won: the deal ends (not under blood river, which ends with the
    wall); else the next player in play after ``last_winner`` draws."""
    if st.sc[S_N_WINNERS] >= st.sc[S_PLAYERS] - 1 and R.blood_river == 0:
        return PHASE_END
    st.sc[S_CUR] = _next_in_play(st, last_winner)
    return PHASE_DRAW


@deal_ir_inline
def _self_win_phase(st, R, T, pid, P, with_expert):
    """A self-drawn win (heaven, earth, kong flower, last tile) if the player can and takes it:
    the next phase, or -1 to go on with the turn."""
    cur = st.sc[S_CUR]
    last_drawn = st.sc[S_LAST_DRAWN]
    after_kong = st.sc[S_AFTER_KONG]
    can_win = False
    win_tile = last_drawn
    flags = 0
    if st.sc[S_FIRST_TURN] != 0:
        win_tile = _heavenly_tile(st, cur)
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
    if _wall_empty(st):
        flags |= B_LAST_TILE
    res = _score(st, cur, win_tile, False, True, flags, R)
    fan = res[RES_FAN_UNCAPPED]
    if not (_must_win(st, R)
            or decide_self_win(pid[cur], P[cur], with_expert, st, cur, win_tile, fan,
                               _wall_left(st), R)):
        return -1
    kong_from = st.sc[S_KONG_FROM] if R.direct_kong_flower == DKF_DISCARD else -1
    _self_win(st, cur, win_tile, flags, kong_from, R)
    if R.blood_river != 0:
        # the winner plays on with these tiles; a heavenly winner's wait was never computed
        update_wait(st, cur, T)
    st.sc[S_FIRST_TURN] = 0
    return _after_win(st, cur, R)


@deal_ir_inline
def _kong_phase(st, R, T, pid, P, with_expert, winners):
    """A concealed or added kong (robbing it included) with its replacement draw, or the
    discard."""
    cur = st.sc[S_CUR]
    last_drawn = st.sc[S_LAST_DRAWN]
    # a locked hand (blood river; in blood battle a winner has no turn): the policy is asked
    # only about a kong that keeps its winning tiles (one call site of the inlined decide_kong)
    locked = st.pl[cur, P_WIN_ORDER] > 0
    if locked and _locked_kong_kind(st, cur, last_drawn, T) == 0:
        return PHASE_DISCARD
    tile = decide_kong(pid[cur], P[cur], with_expert, st, cur, last_drawn, R, T)
    if locked and tile != last_drawn:
        return PHASE_DISCARD
    kind = _kong_kind_of(st, cur, tile) if tile >= 0 else 0
    if kind == 0 or tile // 9 == st.void[cur]:
        return PHASE_DISCARD
    st.sc[S_FIRST_TURN] = 0
    if kind == KONG_ADDED:
        # robbing the kong: the added tile is offered like a discard
        st.hand[cur, tile] -= 1
        event = st.sc[S_N_EVENTS]
        _log(st, EV_KONG, cur, tile, KONG_ADDED, -1, 0)
        n = _claim_wins(st, cur, tile, B_ROBBED_KONG, WIN_ROBBED_KONG, -1, R, pid, P,
                        with_expert, winners)
        if n > 0:
            if st.sc[S_LOG] != 0 and event < st.events.shape[0]:
                st.events[event, EV_KONG_ROBBED] = 1
            st.public[tile] += 1
            update_wait(st, cur, T)
            return _after_win(st, winners[n - 1], R)
        st.hand[cur, tile] += 1
        kong_id = _make_kong(st, cur, tile, kind, -1, tile == last_drawn, False, R)
    else:
        kong_id = _make_kong(st, cur, tile, kind, -1, tile == last_drawn, True, R)
    update_wait(st, cur, T)
    st.sc[S_LAST_DRAWN] = _draw(st, cur, True)
    st.sc[S_AFTER_KONG] = kong_id
    st.sc[S_KONG_FROM] = -1  # a chained kong's flower is an ordinary self-drawn one
    return PHASE_OWN_TURN


@deal_ir_inline
def _own_turn(st, R, T, pid, P, with_expert, winners):
    phase = _self_win_phase(st, R, T, pid, P, with_expert)
    if phase >= 0:
        return phase
    if not _wall_empty(st):  # no kong on an empty wall: no replacement tile
        return _kong_phase(st, R, T, pid, P, with_expert, winners)
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
    _log(st, EV_PUNG, seat, tile, discarder)


@deal_ir_inline
def _discard_phase(st, R, T, pid, P, with_expert, winners):
    """The current player's discard, then the claims on it: wins, else a direct kong or a pung."""
    cur = st.sc[S_CUR]
    after_kong = st.sc[S_AFTER_KONG]
    st.sc[S_FIRST_TURN] = 0
    if st.pl[cur, P_WIN_ORDER] > 0:
        tile = st.sc[S_LAST_DRAWN]  # a locked hand (blood river) throws away what it drew
    else:
        tile = decide_discard(pid[cur], P[cur], with_expert, st, cur, R, T)
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
    _log(st, EV_DISCARD, cur, tile)
    if tile != st.sc[S_LAST_DRAWN]:
        # discarding the tile just drawn leaves the hand whose wait mask is already known
        update_wait(st, cur, T)
    flags = 0
    if after_kong >= 0:
        flags |= B_KONG_DISCARD
    if _wall_empty(st):
        flags |= B_LAST_TILE
    if cur == st.sc[S_DEALER]:
        if st.sc[S_DEALER_DISCARDS] == 0 and st.sc[S_INTERRUPTED] == 0:
            flags |= B_HEAVEN_EARTH
        st.sc[S_DEALER_DISCARDS] += 1
    if _anyone_waits_on(st, cur, tile):
        n = _claim_wins(st, cur, tile, flags, WIN_DISCARD, after_kong, R, pid, P,
                            with_expert, winners)
        if n > 0:
            return _after_win(st, winners[n - 1], R)
    if _wall_empty(st):
        return PHASE_END  # the last discard of the deal: only a win could claim it
    for k in range(1, 4):
        s = (cur + k) % 4
        if (st.pl[s, P_IN_PLAY] == 0 or st.hand[s, tile] < 2 or tile // 9 == st.void[s]
                or st.pl[s, P_WIN_ORDER] > 0):  # a locked hand claims only wins (blood river)
            continue
        can_kong = st.hand[s, tile] == 3
        choice = decide_claim(pid[s], P[s], with_expert, st, s, tile, can_kong, R, T)
        if choice == CLAIM_KONG and can_kong:
            kong_id = _make_kong(st, s, tile, KONG_DIRECT, cur, False, True, R)
            update_wait(st, s, T)
            st.sc[S_KONG_FROM] = cur
            st.sc[S_CUR] = s
            st.sc[S_LAST_DRAWN] = _draw(st, s, True)
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


@deal_ir_inline
def play_deal(st, R, T, pid, P, with_expert, seed, deal, wall_id, dealer, fixed_wall):
    """Play deal ``deal`` (wall ``wall_id``) to its end; results are left in ``st``.

    With ``fixed_wall`` the wall already in ``st.wall`` is played (scripted deals, what-if).
    ``with_expert`` is ``None`` when no seat plays the expert family, which then is not compiled
    in (see :mod:`.policies.dispatch`), else any array.
    """
    _setup(st, R, T, pid, P, with_expert, seed, deal, wall_id, dealer, fixed_wall)
    winners = st.winners
    st.sc[S_CUR] = dealer
    st.sc[S_LAST_DRAWN] = -1  # the tile the current player just drew, -1 if none
    st.sc[S_AFTER_KONG] = -1  # the kong whose replacement the current player just drew
    st.sc[S_KONG_FROM] = -1  # the discarder of a direct kong's tile, while its replacement is held
    st.sc[S_FIRST_TURN] = 1  # the dealer's first turn: a heavenly win is possible
    phase = PHASE_OWN_TURN
    while phase != PHASE_END:
        if phase == PHASE_DRAW:
            phase = _draw_phase(st)
        elif phase == PHASE_OWN_TURN:
            phase = _own_turn(st, R, T, pid, P, with_expert, winners)
        else:
            phase = _discard_phase(st, R, T, pid, P, with_expert, winners)
    if st.sc[S_N_WINNERS] < st.sc[S_PLAYERS] - 1 or R.blood_river != 0:
        _settle_drawn_end(st, R, T)
    if st.sc[S_LOG] != 0:
        _log(st, EV_END, _net(st, 0), _net(st, 1), _net(st, 2), _net(st, 3), _wall_left(st))


@deal_ir_inline
def _net(st, seat):
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
        r.net = _net(st, s)
        r.exchange_dir = st.sc[S_EXCHANGE_DIR]
        r.wall_left = _wall_left(st)
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
