"""Registration of the greedy family: ``speed``, ``flush``, ``pungs``, ``pairs`` (numba-free).

The option slots (``O_*``) and named values (``KONG_*``, ``EXCH_*``, ``VOID_*``) are the
constants the family's kernels (:mod:`.greedy`, :mod:`.plans`) read from a seat's parameter
vector.
"""

from __future__ import annotations

from simcore.engine.policies.registry import Option, PolicyDef, declare_memory, register

# Parameter slots shared by every policy (options of every policy) ...
O_KONG = 0  # KONG_* below
O_MIN_FAN = 1  # decline wins worth less than this many fan ...
O_UNTIL = 2  # ... while more than this many tiles remain in the wall
O_EXCHANGE = 3  # EXCH_* below
O_VOID = 4  # VOID_* below
O_WATCH = 5  # 1: avoid discarding into an opponent's apparent flush
O_UKEIRE = 6  # 1: break shanten ties by the count of useful unseen tiles
O_GIVE = 7  # the exchange's three tiles fixed (spec.give_code; 0: the policy chooses)
# ... and slots a policy may use for its own parameters.
O_K = 8
O_G = 9

# The family's per-seat memory (st.memory[seat, ...]): the seat's plan (plans.MODE_*, set after
# the void choice, 0 = speed) and its target (the flush suit, read only in the flush plan).
MEM_MODE, MEM_TARGET = 0, 1
declare_memory("greedy", 2)

KONG_ALWAYS, KONG_NEVER, KONG_KEEP_SHAPE, KONG_PUNG_THEN_ADD = 0, 1, 2, 3
EXCH_SHORTEST, EXCH_RANDOM, EXCH_KEEP_LONG = 0, 1, 2
VOID_FEWEST, VOID_WEAKEST = 0, 1
VOID_FIXED = 2  # void=m|p|s: VOID_FIXED + the suit

# Every family with options takes it: a forced exchange is to the exchange of three what void=m
# is to the void, the action a what-if or a review compares (simcore.review.setup).
GIVE_OPTION = Option(
    "give", O_GIVE, 0,
    "exchange three: pass exactly these three tiles of one suit, e.g. give=159m (when the "
    "hand holds them; else the exchange option chooses), for what-if studies and reviews",
    kind="tiles")

COMMON_OPTIONS = (
    Option("kong", O_KONG, KONG_KEEP_SHAPE,
           "when to kong a tile the plan may meld: always; never; keep_shape (only when neither "
           "the shanten nor the number of useful unseen tiles gets worse); pung_then_add (with "
           "three in hand pung a discard instead of konging it, then add the kong on a later "
           "own turn; other kongs as keep_shape)",
           ("always", "never", "keep_shape", "pung_then_add"), "choice"),
    Option("min_fan", O_MIN_FAN, 0,
           "decline wins worth less than this many fan (uncapped) ... (a win forced by "
           "must-win-last-four is always taken; the passed-win rule applies to a declined one)"),
    Option("until", O_UNTIL, 0, "... while more than this many tiles remain in the wall"),
    Option("exchange", O_EXCHANGE, EXCH_SHORTEST,
           "exchange three: shortest (the three least useful tiles of the shortest suit holding "
           "three), random (three random tiles of a random suit holding three), keep_long "
           "(never the longest suit: the other suit whose three least useful tiles leave the "
           "lowest shanten)",
           ("shortest", "random", "keep_long"), "choice"),
    Option("void", O_VOID, VOID_FEWEST,
           "void choice: fewest (the suit with fewest tiles, ties by lower shanten), weakest "
           "(the suit whose removal leaves the lowest shanten, ties by fewer tiles), or m, p, s "
           "(always that suit: a forced void, for what-if studies)",
           ("fewest", "weakest", "m", "p", "s"), "choice"),
    GIVE_OPTION,
    Option("watch", O_WATCH, 0,
           "1: when an opponent still in play shows two or more exposed melds, all of one suit "
           "(an apparent flush), prefer a discard of another suit among those of equal shanten",
           kind="bool"),
    Option("ukeire", O_UKEIRE, 1,
           "1: break shanten ties by the number of useful unseen tiles", kind="bool"),
)

POLICY_SPEED = 1
POLICY_FLUSH = 2
POLICY_PUNGS = 3
POLICY_PAIRS = 4

register(PolicyDef("speed", POLICY_SPEED,
                   "greedy: win whenever possible; discard the tile that minimises shanten, ties "
                   "by the most useful unseen tiles, then outer ranks first; pung only when "
                   "shanten does not grow; void-suit tiles first (the one held fewest times)",
                   COMMON_OPTIONS, family="greedy"))
register(PolicyDef("flush", POLICY_FLUSH,
                   "full flush: when, after the exchange and the void, the longest non-void suit "
                   "holds at least k tiles, discard the other suits first, keep that suit's "
                   "tiles (shanten of the suit alone), pung or kong only that suit; falls back "
                   "to speed when the flush is out of reach (no unseen tile brings it closer) or "
                   "fewer than g tiles remain; plays speed from the start if the suit is short",
                   (*COMMON_OPTIONS,
                    Option("k", O_K, 8, "play for the flush when the longest non-void suit "
                           "holds at least k tiles after the exchange and the void"),
                    Option("g", O_G, 12, "give the flush up when fewer than g tiles remain in "
                           "the wall")), family="greedy"))
register(PolicyDef("pungs", POLICY_PUNGS,
                   "all pungs (对对胡): when, after the exchange and the void, at least k tile "
                   "types are held twice or more, keep pairs and triplets (distance to four "
                   "triplets and a pair, live copies only), pung every discard allowed; speed "
                   "otherwise",
                   (*COMMON_OPTIONS,
                    Option("k", O_K, 4, "play for all pungs when holding at least k pairs or "
                           "triplets of non-void suits after the exchange and the void")),
                   family="greedy"))
register(PolicyDef("pairs", POLICY_PAIRS,
                   "seven pairs (七对): when, after the exchange and the void, at least k pairs "
                   "are held (four of a kind is two), keep pairs and live singles, never pung or "
                   "kong (the kong option applies only when the hand plays speed); speed "
                   "otherwise",
                   (*COMMON_OPTIONS,
                    Option("k", O_K, 5, "play for seven pairs when holding at least k pairs of "
                           "non-void suits after the exchange and the void")),
                   family="greedy"))


