"""The ``expert`` policy's model of the table: how dangerous a discard is, and what a hand is worth.

Everything here works on small arrays of public information (what the deciding seat can see),
never on hidden tiles, and has a plain-Python twin in
:mod:`simcore.engine.policies.expert_reference` that a
hypothesis test compares it with (``tests/unit/test_expert_model.py``). The constants were fitted
on self-play (``benchmarks/bench_expert.py`` prints the calibration: predicted deal-in
probability per decile against the observed rate, and the Brier score).

Danger. An opponent ``o`` still in play deals the decider a loss on tile ``t`` when it is ready
and ``t`` is one of its winning tiles:

    P(o wins on t) = ready(o) * min(1, WAIT_SCALE * focus(o, t) * wait_weight(t, void(o), unseen))

- :func:`wait_weight` counts the wait shapes that could use ``t``, weighted by how many of the
  tiles they need the decider cannot see (``unseen = 4 - visible``): a single wait (the
  opponent holds one ``t``), a pair wait (two), and the three run waits (two neighbours within
  two ranks). A tile of ``o``'s void suit, or one whose shapes are all dead, weighs 0.
- :func:`ready_probability` is a logistic function of the opponent's discards, exposed melds
  and how many discards in a row were the tile it had just drawn (a ready hand keeps throwing
  its draws away).
- A blood-river winner is locked on the tiles it has won on (laid face up): it is ready, and
  each of those tiles wins again for certain. A win on ``w`` also reveals how likely its wait
  is the two-sided run that wins on ``w - 3`` or ``w + 3`` (:func:`revealed_chance`, added to
  the chance above).
- ``focus``: an opponent whose two or more exposed melds are all of one suit (an apparent flush)
  waits in that suit (``FLUSH_IN``), rarely outside it (``FLUSH_OUT``).

The cost of feeding ``o`` (:func:`deal_in_cost`) is ``2 ** fan`` units for an estimated fan: a
base, one per exposed kong (a root), the rule set's flush fan for an apparent flush and its
all-pungs fan for three exposed pungs, one for a discard right after one's own kong, capped by
``fan_cap``; right after one's own kong, what the rules make such a discard pay besides
(``kong_discard_pays_all``: for every other player in play; ``kong_discard_transfer``: the
kong's money too).

Value. A hand's chance to win before the wall runs out (:func:`win_probability`): its
``shanten`` improving draws and then the winning tile (drawn or claimed from a discard), with
an Erlang distribution of the number of turns. What
a win pays (:func:`win_amount`) weighs a self-draw (every opponent in play pays) against a win
on a discard (one pays). The kong money a hand may still bring (:func:`kong_hope`) is paid
whether or not it wins.
"""

from __future__ import annotations

import math

from simcore.engine.compile.jit import deal_njit
from simcore.rules import SDB_BASE, SDB_FAN

# wait shapes (relative weights of a single wait, a pair wait and a run wait per neighbour pair)
C_SINGLE = 7.9
C_PAIR = 2.6
C_RUN = 1.0
WAIT_SCALE = 0.0033  # P(t is a winning tile of a ready hand) per unit of wait weight
FLUSH_IN = 1.5  # an apparent flush: waits more in its suit ...
FLUSH_OUT = 0.8  # ... and less outside it (fitted on flush fields; about 1 against speed)

# ready(o) = 1 / (1 + exp(-(READY_BIAS + READY_DISCARD * discards + READY_MELD * melds
#                          + READY_STREAK * min(streak, STREAK_MAX))))
READY_BIAS = -3.53
READY_DISCARD = 0.307
READY_MELD = 0.624
READY_STREAK = 0.046
STREAK_MAX = 3

FAN_BASE = 0.6  # the mean fan of an ordinary win
SELF_DRAW_SHARE = 0.45  # share of wins that are self-drawn
CLAIM_CHANCE = 0.5  # per opponent in play: a ready hand's extra chance per turn from discards
WAIT_TYPICAL = 6  # live winning tiles a hand not yet ready can expect once it is
STEP_TYPICAL = 12  # live tiles that improve a hand after its first improving step
KONG_KEEP_IF_REFUNDED = 0.75  # kong money kept where it is refunded to a hand not ready


@deal_njit
def wait_weight(t, void, unseen):
    """How many wait shapes of a hand void in ``void`` could win on ``t`` (weighted)."""
    if t // 9 == void:
        return 0.0
    r = t % 9
    u = unseen
    w = C_SINGLE * u[t] + C_PAIR * 0.5 * u[t] * (u[t] - 1)
    if r >= 2:
        w += C_RUN * u[t - 2] * u[t - 1]
    if 1 <= r <= 7:
        w += C_RUN * u[t - 1] * u[t + 1]
    if r <= 6:
        w += C_RUN * u[t + 1] * u[t + 2]
    return w


@deal_njit
def revealed_chance(t, won, unseen):
    """How much more likely a blood-river winner, locked on the tiles ``won`` (a bit set of
    the tiles it has won on), wins on ``t`` too: a win on ``w`` came from the run wait
    ``w+1 w+2`` (which wins on ``w+3`` as well) or ``w-2 w-1`` (``w-3``) in that shape's share
    of ``w``'s :func:`wait_weight`."""
    p = 0.0
    for step in (-3, 3):
        w = t + step
        if not 0 <= t % 9 + step <= 8 or not (won >> w) & 1:
            continue
        total = wait_weight(w, -1, unseen)
        if total > 0.0:
            between = min(w, t) + 1  # the run's two tiles: between and between + 1
            p += C_RUN * unseen[between] * unseen[between + 1] / total
    return p


@deal_njit
def ready_probability(discards, melds, streak):
    """P(an opponent is ready) from its discards, exposed melds and its streak of discarding
    the tile it had just drawn."""
    z = (READY_BIAS + READY_DISCARD * discards + READY_MELD * melds
         + READY_STREAK * min(streak, STREAK_MAX))
    return 1.0 / (1.0 + math.exp(-z))


@deal_njit
def wins_on(t, void, flush_suit, unseen):
    """P(``t`` is a winning tile of a ready opponent void in ``void``; ``flush_suit`` is the suit
    of its apparent flush, -1 none)."""
    return wins_on_weight(t, flush_suit, wait_weight(t, void, unseen))


@deal_njit
def wins_on_weight(t, flush_suit, weight):
    """:func:`wins_on` from the tile's :func:`wait_weight` for that opponent (0 in its void):
    the weight outside a void is the same for every opponent, so a policy computes it once
    per tile."""
    w = WAIT_SCALE * weight
    if flush_suit >= 0:
        w *= FLUSH_IN if t // 9 == flush_suit else FLUSH_OUT
    return min(1.0, w)


@deal_njit
def deal_in_cost(n_kongs, flush_suit, n_pungs, after_own_kong, others, kong_earned, R):
    """Expected units paid for feeding an opponent with ``n_kongs`` exposed kongs, an apparent
    flush (``flush_suit >= 0``) and ``n_pungs`` exposed pungs. Right after one's own kong the
    payment rules of a kong's discard apply: ``kong_discard_pays_all`` (pay what the ``others``
    in play but the winner would pay for a self-draw) and ``kong_discard_transfer`` (hand over
    the ``kong_earned`` units that kong brought in)."""
    fan = FAN_BASE + n_kongs
    if flush_suit >= 0:
        fan += R.fan_flush
    if n_pungs >= 3 and R.fan_all_pungs > 0:
        fan += R.fan_all_pungs
    if after_own_kong:
        fan += 1.0
    if R.fan_cap >= 0 and fan > R.fan_cap:
        fan = float(R.fan_cap)
    units = 2.0 ** fan
    if after_own_kong and R.kong_discard_pays_all != 0:
        units = self_draw_units(units, R) * others
    if after_own_kong and R.kong_discard_transfer != 0:
        units += kong_earned
    return units


@deal_njit
def self_draw_units(units, R):
    """What each payer pays for a self-drawn win worth ``units`` on a discard, under the rule
    set's self-draw bonus (base: +1 unit; fan: +1 fan before the cap; none)."""
    if R.self_draw_bonus == SDB_BASE:
        return units + 1.0
    if R.self_draw_bonus == SDB_FAN:
        doubled = 2.0 * units
        if R.fan_cap >= 0:
            doubled = min(doubled, max(units, 2.0 ** R.fan_cap))
        return doubled
    return units


@deal_njit
def win_probability(shanten, useful, unseen_total, draws_left, n_opp):
    """P(a hand ``shanten`` steps from ready with ``useful`` live tiles wins within
    ``draws_left`` own turns against ``n_opp`` opponents in play.

    The first improving step waits for a draw of one of the ``useful`` tiles (``unseen_total /
    useful`` turns on average), each further one for one of at most ``STEP_TYPICAL`` tiles (a
    hand's later steps have fewer); the last step waits for a winning tile, drawn or claimed
    from a discard, among ``useful`` tiles for a ready hand and at most ``WAIT_TYPICAL``
    otherwise (``unseen_total / (w * (1 + CLAIM_CHANCE * n_opp))`` turns). The number of turns
    is taken as Erlang with shape ``k = shanten + 1`` and that mean:
    ``P = 1 - sum(e^-x x^n / n!, n < k)``, ``x = k * draws_left / mean``.
    """
    if shanten < 0:
        return 1.0
    if useful <= 0 or draws_left <= 0 or unseen_total <= 0:
        return 0.0
    w = useful if shanten == 0 else min(useful, WAIT_TYPICAL)
    mean = unseen_total / (w * (1.0 + CLAIM_CHANCE * n_opp))
    if shanten >= 1:
        mean += unseen_total / useful + (shanten - 1) * unseen_total / min(useful, STEP_TYPICAL)
    k = shanten + 1
    x = k * draws_left / mean
    term = 1.0
    total = 1.0
    for n in range(1, k):
        term *= x / n
        total += term
    return max(0.0, 1.0 - math.exp(-x) * total)


@deal_njit
def river_wins(p_win, live):
    """The expected number of wins of a ready hand with ``live`` winning tiles (a count, or a
    weighted one) and ``p_win`` its chance to win at all, under blood river, where a winner
    plays on locked on its wait and each winning tile that reaches it wins again: each tile
    taken to reach the hand in time independently, with the chance ``q`` for which
    ``1 - (1 - q) ** live = p_win``; ``live * q`` wins are expected (``p_win`` for one tile)."""
    if live <= 1.0 or p_win <= 0.0:
        return p_win
    if p_win >= 1.0:
        return live
    return -live * math.expm1(math.log1p(-p_win) / live)  # exact for a tiny p_win too


@deal_njit
def win_amount(units, n_opp, R):
    """Expected units won by a win worth ``units`` per payer on a discard: self-drawn (every
    opponent in play pays, with the rule set's self-draw bonus) or on a discard (one pays)."""
    return SELF_DRAW_SHARE * n_opp * self_draw_units(units, R) + (1.0 - SELF_DRAW_SHARE) * units


@deal_njit
def kong_hope(triplets, pungs, pairs, unseen_total, draws_left, n_opp, R):
    """Expected kong money still to come from ``triplets`` concealed triplets and ``pungs``
    exposed pungs with their fourth tile live, and ``pairs`` pairs with both other tiles live.

    A fourth tile comes as a ready hand's single wait does (:func:`win_probability` with one
    live tile): drawn (a concealed kong: every one of the ``n_opp`` opponents pays two units; an
    added kong: one unit each) or, for a triplet, claimed from a discard (a direct kong: the
    discarder pays two). A pair first needs its third tile (two live: drawn or claimed), then
    the last one drawn (an added kong). Under ``refund_kongs_if_not_ready`` a quarter is taken
    as refunded at a drawn end."""
    per_triplet, per_pung, per_pair = kong_hope_each(unseen_total, draws_left, n_opp, R)
    return triplets * per_triplet + pungs * per_pung + pairs * per_pair


@deal_njit
def kong_hope_each(unseen_total, draws_left, n_opp, R):
    """:func:`kong_hope` of one triplet, one pung and one pair: the same for every hand of a
    decision, so the policy computes them once per decision."""
    return kong_hope_from(win_probability(0, 1, unseen_total, draws_left, n_opp),
                          win_probability(0, 1, unseen_total, draws_left, 0),
                          win_probability(0, 2, unseen_total, draws_left, n_opp), n_opp, R)


@deal_njit
def kong_hope_from(p_any, p_drawn, p_pair, n_opp, R):
    """:func:`kong_hope_each` from the chances it reads (:func:`win_probability` of a ready
    hand with one live tile against ``n_opp`` opponents and against none, and with two live
    tiles), for a policy that remembers them."""
    keep = kong_keep(R)
    per_triplet = (p_drawn * 2.0 * n_opp + (p_any - p_drawn) * 2.0) * keep
    per_pung = p_drawn * n_opp * keep
    per_pair = p_pair * p_drawn * n_opp * keep
    return per_triplet, per_pung, per_pair


@deal_njit
def kong_keep(R):
    """The share of kong money kept: under ``refund_kongs_if_not_ready`` a quarter is taken as
    refunded at a drawn end."""
    return KONG_KEEP_IF_REFUNDED if R.refund_kongs_if_not_ready != 0 else 1.0
