"""Registration of the ``expert`` policy (numba-free): defence, hand value and reading the table.

Slots: the exchange, give and void options share the greedy family's slots (the expert exchanges and
voids with the greedy family's kernels); its own options use slots 9..15 and the greedy
family's ukeire (6), watch (5) and k (8) slots, which the expert's kernels read only as
``public``, ``upgrade`` and ``feed``.
"""

from __future__ import annotations

from simcore.engine.policies.greedy_options import (
    EXCH_KEEP_LONG,
    GIVE_OPTION,
    O_EXCHANGE,
    O_K,
    O_UKEIRE,
    O_VOID,
    O_WATCH,
)
from simcore.engine.policies.registry import Option, PolicyDef, register

POLICY_EXPERT = 5

O_DEFENCE = 10  # percent weight of the expected deal-in cost of a discard (0: no danger model)
O_FOLD = 11  # fold threshold in percent (0: never fold)
O_VALUE = 12  # percent weight of what a hand is worth beyond one unit (0: every win is 1 unit)
O_EXPERT_KONG = 13  # XKONG_* below
O_STAY = 9  # hundredths of a unit a turn in play costs, when declining a win to self-draw
O_CHASE = 14  # a flush plan proposes its own discards from this many tiles of its suit (0: no)
O_HOPE = 15  # percent weight of the kong money a hand's triplets, pungs and pairs may bring
# 1: read the public tiles (a river winner's won-on tiles, dead waits); the greedy family's
# ukeire slot, which no expert kernel reads for anything else
O_PUBLIC = O_UKEIRE
# 1: decline a win on a discard for the tile's pung or kong when that ready hand is worth more;
# the greedy family's watch slot, which no expert kernel reads for anything else
O_UPGRADE = O_WATCH
# 1: the tiles a hand needs come from the discards of opponents void in their suit; the
# greedy family's k slot, which no expert kernel reads for anything else
O_FEED = O_K

XKONG_VALUE, XKONG_ALWAYS, XKONG_NEVER = 0, 1, 2
UPGRADE_FOUR_PLAYERS = 2  # upgrade=2: on at a four-player table only
VOID_BY_VALUE = 5  # after the greedy family's fewest, weakest, m, p, s

# A win on a discard is declined only for more than it pays: the wait for the self-draw must be
# worth STAY_MARGIN times the win, the ready hand after punging its tile UPGRADE_MARGIN times.
# The values of those hands overrate what declining brings (each is the best of its
# alternatives, weighed against units in hand). One seat with the margins against three
# without them, 10,000 walls, mean of seeds 0-3 (against speed, paired, in brackets):
#   upgrade 1.25: +0.005 classic (+0.000), +0.008 app (+0.006), seeds 0-1;
#   upgrade 1.5:  +0.008 classic (+0.001), +0.015 app (+0.007);
#   upgrade 2:    +0.006 (-0.004), +0.011 (-0.004); upgrade 3: -0.009 (-0.014), -0.018 (-0.039),
#     seeds 0-1;
#   upgrade 1.5 and stay 1.1:  +0.013 (+0.000), +0.031 (+0.011);
#   upgrade 1.5 and stay 1.15: +0.012 (-0.001), +0.036 (+0.011);
#   upgrade 1.5 and stay 1.25: +0.013 (-0.005), +0.044 (+0.009);
#   stay 1.5 alone: -0.005 (-0.016), +0.030 (-0.015), seeds 0-1; stay 0.8: -0.020, -0.037.
# Declining fewer wins pays more against seats that decline too than against speed.
STAY_MARGIN = 1.15
UPGRADE_MARGIN = 1.5

register(PolicyDef(
    "expert", POLICY_EXPERT,
    "reads the table: sees only public information and its own hand; discards the tile with "
    "the best expected value (its chance to win, from live useful tiles and the wall left, "
    "times what the hand will be worth under the rules in force: pattern, roots, flush, "
    "self-draw, cap; plans re-chosen every turn; plus the kong money its triplets, pungs and "
    "pairs may still bring) minus the expected cost of dealing in (each opponent's chance to "
    "be ready, whether the tile can be one of its waits given its void, melds and the visible "
    "copies, and what feeding it would cost); folds to the safest tile when the table's "
    "danger outweighs its own hand; claims, kongs and the void by value; declines a win on a "
    "discard when waiting for the self-draw is worth more",
    (
        Option("defence", O_DEFENCE, 25,
               "weight, in percent, of the expected cost of dealing in when choosing a discard "
               "(0: no danger model, pure value)"),
        Option("fold", O_FOLD, 0,
               "fold (discard the safest tile, whatever it does to the hand) when even the "
               "best discard's expected cost of dealing in exceeds this percentage of the "
               "value it keeps (0: never fold)"),
        Option("value", O_VALUE, 100,
               "weight, in percent, of what a win is worth beyond one unit (0: every win is "
               "worth the same: efficiency only)"),
        Option("chase", O_CHASE, 0,
               "let a full flush propose its own discards (the other suits' tiles, even when "
               "that is slower for any shape) once this many tiles, melds included, are of "
               "its suit; the value decides (0: never, only the fastest discards)"),
        Option("hope", O_HOPE, 100,
               "weight, in percent, of the kong money the hand may still bring (a triplet's "
               "or a pung's fourth tile drawn or discarded, a pair's last two) when choosing "
               "a discard or a claim (0: only the kongs on offer count)"),
        Option("public", O_PUBLIC, 1,
               "read the public tiles: a tile a blood-river winner has won on costs its full "
               "price (a step back from ready is weighed against a feed of 4 units or more) "
               "and its wins show its likely two-sided waits (a win on 4p: 1p and 7p); "
               "a ready hand whose winning tiles are all in view counts as one step from "
               "ready (with fewer than 8 tiles left, only against a live wait) (0: off, as "
               "before; 1: on, the default)"),
        Option("upgrade", O_UPGRADE, UPGRADE_FOUR_PLAYERS,
               "decline a win on a discard to pung (or kong) its tile instead when the ready "
               f"hand after the claim is worth {UPGRADE_MARGIN:g} times the win, less what the "
               "turns left in play cost (see stay): a pair wait turned into a golden hook or a "
               "bigger pattern "
               "(0: off; 1: on; 2: on with four players, the default: there, against three speed "
               "seats, it gains 0.02 a deal under classic, baike, qq and tfmj, 0.04 to 0.07 "
               "under app and 0.01 under two_suit4, and with three players it loses 0.01 to "
               "0.02)"),
        Option("feed", O_FEED, 1,
               "read who will throw the tiles a hand needs (its winning tiles when ready): "
               "an opponent void in their suit throws every one it draws, another seldom, so "
               "tiles of the suits the opponents voided count for more than their live copies "
               "(0: off, every opponent alike, as before; 1: on, the default)"),
        Option("stay", O_STAY, 15,
               "decline a win on a discard to wait for a self-draw (which every opponent "
               f"pays) when that is worth {STAY_MARGIN:g} times the win, each turn left in play "
               "costing this many hundredths of a unit (0: take every win)"),
        Option("kong", O_EXPERT_KONG, XKONG_VALUE,
               "when to kong: value (when the kong's payment, root and replacement draw "
               "outweigh what it costs the hand: a slower hand or a worse wait, the risk of "
               "the added tile being robbed); always; never", ("value", "always", "never"),
               "choice"),
        Option("exchange", O_EXCHANGE, EXCH_KEEP_LONG,
               "exchange three: shortest, random or keep_long (as for speed)",
               ("shortest", "random", "keep_long"), "choice"),
        GIVE_OPTION,
        Option("void", O_VOID, VOID_BY_VALUE,
               "void choice: fewest, weakest, or m, p, s (as for speed), or value (the suit "
               "whose loss leaves the most valuable hand)",
               ("fewest", "weakest", "m", "p", "s", "value"), "choice"),
    ),
    family="expert",
))
