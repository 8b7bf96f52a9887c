"""The mutable state of one deal: a named tuple of small fixed-shape arrays, reused across deals.

Jitted code receives the tuple and reads scalars through the named indices below, so the whole
state is a handful of contiguous arrays (cheap to reset, no allocation per deal).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simcore.engine.policies.registry import memory_width
from simcore.records import DEALT, WALL_SIZE

# A blood-battle deal logs at most ~110 draws/discards plus claims, kongs and payments; a blood
# river deal can log up to MAX_WINS wins of ~5 events each (win, hand, three payments). Overflow
# sets S_OVERFLOW and replay refuses the deal (only the logged state has this many rows).
MAX_EVENTS = 2048
MAX_KONG_PAYMENTS = 96  # at most 16 kongs x 3 payers x (kong + drizzle)
EVENT_WIDTH = 10
# Wins in one deal: every win is on a tile that was drawn (or the dealer's dealt 14th), and one
# tile is won on by at most the three other players, so at most 3 x (draws + 1) wins. Both logs
# also detect overflow (S_STATE_OVERFLOW, an invariant error) rather than trusting the bound.
MAX_WINS = 3 * (WALL_SIZE - DEALT + 1)

# Fields of a row of the per-deal win log (st.win_log[w, ...], int32), one row per win in the
# order they happened; recording.write_wins copies them into the run's win table (WIN_DTYPE).
WL_SEAT = 0
WL_NUMBER = 1  # 1 = the seat's first win of the deal
WL_ORDER = 2  # 1 + wins strictly earlier in the deal (wins on one discard share it)
WL_DRAW = 3  # wall tiles drawn after dealing when the win happened
WL_KIND = 4
WL_FED_BY = 5
WL_TILE = 6
WL_FAN = 7
WL_FAN_UNCAPPED = 8
WL_PATTERN = 9
WL_FLUSH = 10
WL_TERMINALS = 11
WL_ROOTS = 12
WL_BONUSES = 13
WL_UNITS = 14  # the hand's value per payer (score_hand's units)
WL_PAID = 15  # WL_PAID + seat: units that seat paid for this win (its net_win part)
WIN_LOG_WIDTH = WL_PAID + 4

# Scalars of the deal (st.sc, int64).
S_POS = 0  # index of the next wall tile to draw
S_DEALER = 1
S_N_WINNERS = 2
S_EXCHANGE_DIR = 3
S_N_KONG_PAY = 4  # entries used in st.kong_pay
S_N_KONGS = 5  # kongs made so far (kong ids)
S_N_EVENTS = 6
S_LOG = 7  # 1 when events are recorded (replay), 0 in batch runs
S_INTERRUPTED = 8  # a pung or kong has happened (no earthly win after it)
S_NEXT_DEALER = 9
S_FIRST_WIN_DONE = 10
S_DEAL = 11
S_SEED = 12
S_WALL_ID = 13
S_DEALER_DISCARDS = 14
S_OVERFLOW = 15  # the event log was too small (replay only; never in a correct deal)
# the current turn (turns.run_turns' phases; S_PHASE below)
S_CUR = 16  # the seat whose turn it is
S_LAST_DRAWN = 17  # the tile it just drew, -1 if none (after a pung)
S_AFTER_KONG = 18  # id of the kong whose replacement it just drew, -1
S_KONG_FROM = 19  # the discarder of a direct kong's tile while its replacement is held, -1
S_FIRST_TURN = 20  # 1 during the dealer's first turn (a heavenly win is possible)
# the table (docs/rules section 9, set by _setup from the rules): seats 0..players-1 play; with
# three players seat 3 is never in play, so every loop over the other seats that skips seats
# out of play skips it too
S_PLAYERS = 21
S_WALL_END = 22  # tiles in the wall: 108, or 72 with two suits (st.wall[S_WALL_END:] unused)
S_DEALT = 23  # tiles dealt before the first draw: 53, or 40 with three players
S_SUITS = 24
S_N_WINS = 25  # rows used in st.win_log (wins so far, all players, repeated wins included)
S_RIVER = 26  # 1 under blood_river (read by the invariant checker, which has no rules)
S_STATE_OVERFLOW = 27  # the kong-payment or win log was full (an invariant error, never silent)
S_PHASE = 28  # the phase the turn loop plays next (turns.PHASE_*): with S_CUR ... S_FIRST_TURN,
#               the decision point a deal stopped at (turns.run_turns goes on from it)
# Decisions forced on seats (a rollout's first action, policies/forced.py): S_FORCED slots in
# use, each S_FORCE_WIDTH scalars from S_FORCE_SLOTS: seat, kind (forced.FORCE_*), tile. Zero
# in every deal that is not a rollout (the reset clears them).
S_FORCED = 29
S_FORCE_SLOTS = 30
S_FORCE_WIDTH = 3
N_FORCE_SLOTS = 2
# A rollout's seat lanes (rollout.py): each seat draws the tiles of its own lane of the wall
# laid at the decision, whatever claims and wins change the order of turns. S_LANES is 1 in a
# rollout (0 in every other deal: the reset clears it), then the lanes' first wall position,
# their stride (the seats in play at the decision), each seat's lane (-1: none) and the tiles
# it has drawn from it.
S_LANES = S_FORCE_SLOTS + S_FORCE_WIDTH * N_FORCE_SLOTS
S_LANE_BASE = S_LANES + 1
S_LANE_STRIDE = S_LANES + 2
S_LANE_RANK = S_LANES + 3  # + seat
S_LANE_DRAWS = S_LANE_RANK + 4  # + seat
# A rollout's deciding seat + 1 (0: none, the reset clears it): the deal ends as soon as that
# seat's net is final (turns._after_win: it has won and no drawn end can pay or charge it);
# -1 once a deal has so ended (its drawn end is not settled: only that seat's records are whole)
S_ROLLOUT_SEAT = S_LANE_DRAWS + 4
N_SCALARS = S_ROLLOUT_SEAT + 1
# rows of st.lanes: the wall slot (its position at the decision) of the tile now at each
# position, and the position now of each slot's tile
LANE_SLOT_AT, LANE_POS_OF = 0, 1

# Per-player scalars (st.pl[seat, ...], int32).
P_IN_PLAY = 0
P_WIN_ORDER = 1
P_WIN_DRAW = 2
P_WIN_KIND = 3
P_FED_BY = 4
P_WIN_TILE = 5
P_FAN = 6
P_FAN_UNCAPPED = 7
P_PATTERN = 8
P_FLUSH = 9
P_TERMINALS = 10
P_ROOTS = 11
P_BONUSES = 12
P_KONGS_DIRECT = 13
P_KONGS_ADDED = 14
P_KONGS_CONCEALED = 15
P_PUNGS = 16
P_DRAWS = 17
P_DEAL_INS = 18
P_PASSED_WINS = 19
P_READY_END = 20
P_PIG = 21
P_PASS_TILE = 22  # bit set (1 << tile) of the tile types of discard wins declined, -1 none
#                   (cleared at the player's next draw)
P_PASS_FAN = 23  # the highest fan among those declined wins
P_WAIT = 24  # 27-bit mask of winning tiles while holding 13 - 3k tiles
P_DISCARDS = 25
P_DRAWN_STREAK = 26  # the player's latest discards in a row that were the tile just drawn
P_PASSED_BITS = 27  # bit set of the tile types the player let go without winning (its own
#                     draws it threw away, everyone's discards) since its hand last changed
P_WINS = 28  # wins of the player in this deal (blood river: any number; else 0 or 1)
# The starting hand (records: shanten_dealt ... pairs), set once in the setup (dealing.note_start).
P_SHANTEN_DEALT = 29
P_SHANTEN_EXCHANGED = 30
P_SHANTEN_VOID = 31
P_LONGEST_SUIT = 32
P_PAIRS = 33
N_PLAYER_FIELDS = 34
# A policy's own memory of a seat is not here: it is the family's, in st.memory (registry.py).

# Net parts (st.pay[seat, ...], int32), in the order of records.NET_PARTS.
PAY_WIN, PAY_KONG, PAY_PIG, PAY_READY, PAY_REFUND = 0, 1, 2, 3, 4
REASON_NAMES = ("win", "kong", "pig", "ready", "refund", "transfer", "drizzle")
REASON_WIN, REASON_KONG, REASON_PIG, REASON_READY, REASON_REFUND = 0, 1, 2, 3, 4
REASON_TRANSFER, REASON_DRIZZLE = 5, 6

# Event types of the replay log (st.events rows: type, then up to 9 integer fields).
EV_DEAL = 1
EV_EXCHANGE = 2  # seat, t1, t2, t3, direction
EV_VOID = 3  # seat, suit
EV_DRAW = 4  # seat, tile, replacement
EV_DISCARD = 5  # seat, tile
EV_PUNG = 6  # seat, tile, from
EV_KONG = 7  # seat, tile, kind (1 direct, 2 added, 3 concealed), from, robbed
# Not an event type: the column of st.events (type, then fields 1..9) that holds an EV_KONG
# row's robbed flag (its fifth field), set once the kong is robbed.
KONG_ROBBED_COLUMN = 5
EV_PASS = 8  # seat, tile, fan
EV_WIN = 9  # seat, tile, kind, from, fan, fan_uncapped, pattern, roots, bonuses
EV_PAY = 10  # payer, payee, units, reason
EV_SETTLE = 11  # marks the start of the drawn-end settlement
EV_READY = 12  # seat, ready (0/1), value, pig
EV_END = 13
EV_WIN_HAND = 14  # seat, base-5 keys of the m, p, s tiles (winning tile included), melds
#                  (7 bits each: kind << 5 | tile), flush, terminals, units

KONG_DIRECT, KONG_ADDED, KONG_CONCEALED = 1, 2, 3


# st.memo: a direct-mapped memory of 2**MEMO_BITS slots (96 KiB: it stays in the L2 cache)
MEMO_BITS = 12
MEMO_SLOTS = 1 << MEMO_BITS
MEMO_KEY, MEMO_KEY2, MEMO_VALUE = 0, 1, 2


class DealState(NamedTuple):
    wall: np.ndarray  # int8[WALL_SIZE]
    hand: np.ndarray  # int8[4, 27] concealed tiles
    meld_kind: np.ndarray  # int8[4, 4]
    meld_tile: np.ndarray  # int8[4, 4]
    meld_from: np.ndarray  # int8[4, 4] seat the claimed tile came from (-1 own)
    n_melds: np.ndarray  # int8[4]
    void: np.ndarray  # int8[4]
    public: np.ndarray  # int8[27] tiles everyone has seen: discards and exposed meld tiles
    sc: np.ndarray  # int64[N_SCALARS]
    pl: np.ndarray  # int32[4, N_PLAYER_FIELDS]
    pay: np.ndarray  # int32[4, 5]
    kong_pay: np.ndarray  # int32[MAX_KONG_PAYMENTS, 4]: payer, payee, units, kong id
    rng: np.ndarray  # uint64[6]: wall, engine, seat 0..3 (seat 3 unused with three players)
    events: np.ndarray  # int32[MAX_EVENTS, EVENT_WIDTH]
    scratch: np.ndarray  # int8[4, 27] work space of policies (never state)
    # Work space of the engine and the policies, so that a deal allocates nothing (its code is
    # compiled without reference counting, see jit.py): never state between two steps.
    visible: np.ndarray  # int16[27] tiles the deciding (or settled) seat can see
    winners: np.ndarray  # int64[3] winners on one discard or robbed kong
    win_log: np.ndarray  # int32[MAX_WINS, WIN_LOG_WIDTH] every win of the deal (WL_* fields)
    given: np.ndarray  # int64[4, 3] tiles each seat gives in the exchange
    settle: np.ndarray  # int64[3, 4] drawn-end settlement: pig, ready, ready value per seat
    unseen: np.ndarray  # int16[27] copies of each tile the deciding seat cannot see
    fwork: np.ndarray  # float64[7, 27] work rows of policies that reason in expected units
    # Answers a policy remembers across decisions and deals, keyed by all of their arguments
    # but the rules (so never state): rows of keys, second keys and values (MEMO_* above).
    # kernel.call clears it: a state reused under other rules starts afresh
    memo: np.ndarray  # float64[3, MEMO_SLOTS]
    # Each policy family's per-seat memory between two decisions (a plan, a target): the
    # columns are the family's own (its NAME_options module declares them, registry.py);
    # cleared at the start of a deal. State, so a copied deal plays on with it.
    memory: np.ndarray  # int32[4, registry.memory_width()]
    lanes: np.ndarray  # int16[2, WALL_SIZE]: a rollout's wall slots (LANE_* rows; S_LANES)


def new_state(log: bool = False) -> DealState:
    """Allocate a state; ``log`` turns on the replay event log."""
    st = DealState(
        wall=np.zeros(WALL_SIZE, np.int8),
        hand=np.zeros((4, 27), np.int8),
        meld_kind=np.zeros((4, 4), np.int8),
        meld_tile=np.zeros((4, 4), np.int8),
        meld_from=np.zeros((4, 4), np.int8),
        n_melds=np.zeros(4, np.int8),
        void=np.zeros(4, np.int8),
        public=np.zeros(27, np.int8),
        sc=np.zeros(N_SCALARS, np.int64),
        pl=np.zeros((4, N_PLAYER_FIELDS), np.int32),
        pay=np.zeros((4, 5), np.int32),
        kong_pay=np.zeros((MAX_KONG_PAYMENTS, 4), np.int32),
        rng=np.zeros(6, np.uint64),
        events=np.zeros((MAX_EVENTS if log else 1, EVENT_WIDTH), np.int32),
        scratch=np.zeros((4, 27), np.int8),
        visible=np.zeros(27, np.int16),
        winners=np.zeros(3, np.int64),
        win_log=np.zeros((MAX_WINS, WIN_LOG_WIDTH), np.int32),
        given=np.zeros((4, 3), np.int64),
        settle=np.zeros((3, 4), np.int64),
        unseen=np.zeros(27, np.int16),
        fwork=np.zeros((7, 27), np.float64),
        memo=np.zeros((3, MEMO_SLOTS), np.float64),
        memory=np.zeros((4, memory_width()), np.int32),
        lanes=np.zeros((2, WALL_SIZE), np.int16),
    )
    st.sc[S_LOG] = 1 if log else 0
    return st
