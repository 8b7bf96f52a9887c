"""The setup of a deal: reset the state, shuffle and deal the wall, exchange three, declare
voids, and note the starting-hand record columns (docs/rules sections 2 and 4).

Variants (docs/rules section 9): with three players seat 3 is never in play (the loops over "the
other seats" skip seats out of play, so they skip it with no test of their own); with two suits
the wall is the 72 tiles of types 9..26 and every seat's void is the absent suit m internally (no
tile of it exists, so the void rules and the flower pig never apply), recorded as -1.
"""

from __future__ import annotations

from simcore.engine.compile.jit import deal_inline, deal_ir_inline, deal_njit
from simcore.engine.evaluate import (
    update_wait,
)
from simcore.engine.policies.dispatch import (
    decide_exchange,
    decide_void,
)
from simcore.engine.recording import log_event
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
    EV_EXCHANGE,
    EV_VOID,
    P_FED_BY,
    P_IN_PLAY,
    P_LONGEST_SUIT,
    P_PAIRS,
    P_PASS_FAN,
    P_PASS_TILE,
    P_PATTERN,
    P_SHANTEN_DEALT,
    P_SHANTEN_EXCHANGED,
    P_SHANTEN_VOID,
    P_WIN_DRAW,
    P_WIN_TILE,
    S_DEAL,
    S_DEALER,
    S_DEALT,
    S_EXCHANGE_DIR,
    S_LOG,
    S_NEXT_DEALER,
    S_PLAYERS,
    S_POS,
    S_RIVER,
    S_SEED,
    S_SUITS,
    S_WALL_END,
    S_WALL_ID,
)
from simcore.hand.kernels import KIND_ANY, combine_three, combine_two, eval_shanten
from simcore.hand.scoring_kernels import (
    PAT_NONE,
)
from simcore.records import (
    EXCHANGE_NEXT,
    EXCHANGE_NONE,
    EXCHANGE_PREVIOUS,
    FIRST_TYPE_TWO_SUITS,
    SUIT_M,
    TILES_PER_SUIT,
)


# ----------------------------------------------------------------------------- setup
@deal_njit
def setup_deal(st, R, T, pid, P, families, seed, deal, wall_id, dealer, fixed_wall):
    """Reset the state, shuffle the wall of ``wall_id``, deal, exchange three, declare voids."""
    _reset(st, R, seed, deal, wall_id, dealer)
    _deal_tiles(st, R, dealer, fixed_wall)
    if R.exchange_three != 0:  # else the dealt hand is the hand after the (absent) exchange
        note_dealt(st.hand, st.pl, T.packed)
        _exchange_three(st, R, T, pid, P, families)
    else:
        st.sc[S_EXCHANGE_DIR] = EXCHANGE_NONE
    _declare_voids(st, R, T, pid, P, families)
    for s in range(R.players):
        if s != dealer:
            update_wait(st, s, T)
    note_start(st.hand, st.void, st.pl, T.packed, R.exchange_three != 0)


@deal_ir_inline
def _reset(st, R, seed, deal, wall_id, dealer):
    """Clear the state for a new deal (the event log's switch stays) and set the table."""
    st.hand[:] = 0
    st.n_melds[:] = 0
    st.meld_kind[:] = 0
    st.meld_tile[:] = 0
    st.meld_from[:] = -1
    st.void[:] = -1  # none declared yet (expert:feed reads the opponents' voids)
    st.public[:] = 0
    st.pl[:] = 0
    st.pay[:] = 0
    st.memory[:] = 0  # the policy families' per-seat memory
    log = st.sc[S_LOG]
    st.sc[:] = 0
    st.sc[S_LOG] = log
    st.sc[S_DEAL] = deal
    st.sc[S_SEED] = seed
    st.sc[S_WALL_ID] = wall_id
    st.sc[S_DEALER] = dealer
    st.sc[S_NEXT_DEALER] = dealer
    players = R.players
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


@deal_ir_inline
def _deal_tiles(st, R, dealer, fixed_wall):
    """Shuffle the wall (unless it is fixed) and deal 13 tiles to every seat, 14 to the dealer."""
    players = R.players
    if not fixed_wall:
        if R.suits == 2:
            shuffle_tiles(st.wall, st.rng, 0, FIRST_TYPE_TWO_SUITS, st.sc[S_WALL_END])
        else:
            shuffle_tiles(st.wall, st.rng, 0, 0, st.sc[S_WALL_END])
    for k in range(players):
        seat = (dealer + k) % players
        for j in range(13):
            st.hand[seat, st.wall[13 * k + j]] += 1
    st.hand[dealer, st.wall[13 * players]] += 1
    st.sc[S_POS] = st.sc[S_DEALT]
    if st.sc[S_LOG] != 0:
        log_event(st, EV_DEAL, dealer)


@deal_ir_inline
def _exchange_three(st, R, T, pid, P, families):
    """Every seat picks three tiles of one suit, then all pass at once."""
    players = R.players
    # four players: next, previous or across; three: next or previous (docs/rules 9)
    direction = 1 + below(st.rng, 1, 3 if players == 4 else 2)
    st.sc[S_EXCHANGE_DIR] = direction
    given = st.given
    for s in range(players):
        decide_exchange(pid[s], P[s], families, st, s, R, T, given[s])
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
        log_event(st, EV_EXCHANGE, s, given[s, 0], given[s, 1], given[s, 2], direction, to)


@deal_ir_inline
def _declare_voids(st, R, T, pid, P, families):
    """Every seat declares its void suit. With two suits no void is declared; each family still
    picks its plan here (and gives m, the absent suit, as its void: see the module docstring)."""
    players = R.players
    two_suits = R.suits == 2
    # declared at once: no seat's choice may read another's void (each is -1 until all are
    # chosen; a choice that saw those before it, or the last deal's, played a deal in a batch
    # otherwise than the same deal alone)
    chosen = 0  # four bits a seat: no array (the kernels allocate none)
    for s in range(players):
        chosen |= decide_void(pid[s], P[s], families, st, s, R, T) << (4 * s)
    for s in range(players):
        st.void[s] = SUIT_M if two_suits else (chosen >> (4 * s)) & 15
    if not two_suits:
        for s in range(players):
            log_event(st, EV_VOID, s, st.void[s])


# The starting-hand record columns. They take arrays, not the state tuple: a call passing the
# tuple passes every field of every array in it, and these run once per deal on every deal
# (the cheapest deals, four `random` seats, take about 10 us).
@deal_njit
def note_dealt(hand, pl, packed):
    """``shanten_dealt`` of every seat, taken before the exchange of three."""
    for s in range(4):
        pl[s, P_SHANTEN_DEALT] = eval_shanten(hand[s], 0, -1, KIND_ANY, packed)


@deal_njit
def note_start(hand, void, pl, packed, exchanged):
    """The other starting-hand columns of every seat, from its hand after the exchange and the
    void (``shanten_dealt`` too when there was no exchange: ``exchanged`` is False)."""
    for seat in range(4):
        _note_seat(hand[seat], void[seat], pl[seat], packed, exchanged)


@deal_inline
def _seven_pairs_distance(pairs, singles):
    """``_hand_kernels.eval_seven_pairs`` without melds, from its two sums (pairs: sum of
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
        for r in range(8, -1, -1):  # Horner, rank 9 first: _hand_kernels.compute_keys
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
    d = min(combine_three(e0, e1, e2, 4), _seven_pairs_distance(halves, singles))
    row[P_SHANTEN_EXCHANGED] = d - 1
    if not exchanged:
        row[P_SHANTEN_DEALT] = d - 1
    if v >= 0:
        if v == 0:
            d = combine_two(e1, e2, 4)
        elif v == 1:
            d = combine_two(e0, e2, 4)
        else:
            d = combine_two(e0, e1, 4)
        d = min(d, _seven_pairs_distance(halves - void_halves, singles - void_singles))
    row[P_SHANTEN_VOID] = d - 1
    row[P_LONGEST_SUIT] = longest
    row[P_PAIRS] = pairs

