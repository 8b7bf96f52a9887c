"""The ``expert`` family: value-aware efficiency, defence and claims by value.

Every decision compares expected values in units, from what the seat can see (its hand, the
public tiles, each opponent's void, melds, discard count and streak, the wall left and the
rules in force) through the model of :mod:`.expert_model`:

- a hand's value (:func:`_hand_value`) is the best, over the plans it could play (any shape,
  a full flush of its longest suit, all pungs, seven pairs), of the chance to complete the plan
  times what the win would pay under the rule set (a ready hand: its actual waits scored, each
  weighted by its live copies; a farther hand: the plan's fan plus the roots it holds, capped),
  plus ``hope`` times the kong money its triplets, pungs and pairs may still bring (paid
  whether or not the hand wins: the expert's edge over speed is mostly kong money);
- with ``public=1`` (the default; one such seat against three speed seats, paired with
  ``public=0`` over 10,000 walls: +0.011 [+0.002, +0.021] a deal under ``classic``, +0.000
  [−0.005, +0.005] under ``app``; under ``river`` see ``docs/results/expert_options.txt``), a
  tile a blood-river winner has won on is a certain loss (its hand is locked) weighed at its
  full cost (:func:`_certain_loss`), its wins reveal the run waits three ranks from them
  (:func:`.expert_model.revealed_chance`, in :func:`_danger`: +0.008 a deal against three
  seats without it, +0.010 against speed, river, seeds 0-3), and a step back from the lowest
  shanten is weighed only when every discard that keeps it is such a tile and feeds at least
  ``STEP_BACK_UNITS`` (:func:`_candidates`); a ready hand whose winning tiles the seat sees
  all counts as one step from ready (:func:`_discard_row`; with fewer than ``DEAD_WAIT_WALL``
  tiles left only against a live wait);
- with ``feed=1`` (the default), a hand's live useful tiles (its winning tiles when ready)
  count by who will throw them: an opponent void in their suit throws every one it draws,
  another a quarter as often (:func:`_fed_count`; the model's average rate is the mean over
  the suits; weighing only a ready hand's winning tiles gained less, the count interpolated
  between the whole counts around it gained nothing measurable over it rounded, and a mean
  over the seat's own suits only, with the flush plan's tiles counted alike, gained nothing
  either);
- the danger of a tile (:func:`_danger`) skips each opponent that let that tile go since its
  hand last changed (it threw away that draw, or did not win on that discard: the engine keeps
  the set, ``P_PASSED_BITS``, as public knowledge; this takes players to take the wins they
  can, as speed does, and an expert opponent may not: see ``stay``);
- a discard's score (:func:`_best_discard`) is the value of the hand it leaves minus
  ``defence`` times the expected cost of dealing in with it; when the table's expected threat
  exceeds ``fold`` percent of the best value, the seat folds: it throws the safest tile;
- pungs and kongs compare the value after the meld (plus a kong's payment under the rules:
  what an added kong pays under ``added_kong_only_on_draw``, the chance of a refund, the risk
  of the added tile being robbed) with the value of passing;
- a self-drawn win is always taken; a win on a discard is declined when waiting for the
  self-draw (which every opponent pays) is worth more, each turn left in play costing
  ``stay`` hundredths of a unit, or, with ``upgrade`` (by default at a four-player table
  only), when punging (or konging) the tile keeps the hand ready and is worth more after that
  cost (a pair wait turned into a golden hook: one such seat against three of the expert
  without it, 10,000 walls, mean of seeds 0-3: +0.013 a deal under ``classic``, +0.037 under
  ``app``, +0.015 to +0.016 under ``baike``, ``qq`` and ``tfmj``, +0.002 under ``two_suit4``;
  but with three players, against three speed seats, −0.019 [−0.029, −0.009] under
  ``two_suit3`` and −0.011 [−0.020, −0.002] under ``classic`` with ``players=3``);
  "worth more" is by a margin, 1.15 times the win for the self-draw and 1.5 times for the
  pung (``STAY_MARGIN``, ``UPGRADE_MARGIN``: +0.012 a deal under ``classic`` and +0.036
  under ``app`` for one seat against three without them; :func:`take_discard_win`);
- the void is the suit whose loss leaves the most valuable hand (``void=value``).

Options: :mod:`.expert_options`. Exchange uses the greedy family's kernel, and so does the void
under its other options. The decisions
are out of line (``deal_njit``): an expert seat costs compile time once, not per call site. What
runs for every candidate discard is inlined (``deal_inline``) or, for the hand's value
(:func:`_value`), takes the arrays it reads rather than the state, whose every array a call
would copy.
Work arrays: ``st.visible``, ``st.unseen``, ``st.fwork`` (threats in rows 0..4 and 6, the kong
money to come per triplet, pung and pair and the tiles blood-river winners have won on in row 5)
and ``st.memo`` (win_probability's answers by all of its arguments, and the fan of each winning
tile of the ready hands valued).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from simcore.engine.compile.jit import deal_inline, deal_njit
from simcore.engine.evaluate import (
    discard_shanten,
    flush_eval,
    melds_code,
    pairs_eval,
    pungs_eval,
    shanten_of,
)
from simcore.engine.policies.common import (
    CLAIM_KONG,
    CLAIM_PASS,
    CLAIM_PUNG,
    discard_mask,
    held_mask,
    n_in_play,
    suit_bits,
)
from simcore.engine.policies.expert_model import (
    deal_in_cost,
    kong_hope_from,
    kong_keep,
    ready_probability,
    revealed_chance,
    river_wins,
    self_draw_units,
    wait_weight,
    win_amount,
    win_probability,
    wins_on_weight,
)
from simcore.engine.policies.expert_options import (
    O_CHASE,
    O_DEFENCE,
    O_EXPERT_KONG,
    O_FEED,
    O_FOLD,
    O_HOPE,
    O_PUBLIC,
    O_STAY,
    O_UPGRADE,
    O_VALUE,
    STAY_MARGIN,
    UPGRADE_FOUR_PLAYERS,
    UPGRADE_MARGIN,
    VOID_BY_VALUE,
    XKONG_ALWAYS,
    XKONG_NEVER,
)
from simcore.engine.policies.greedy import edge_rank, greedy_exchange, greedy_void
from simcore.engine.policies.greedy_options import O_VOID
from simcore.engine.policies.plans import apparent_flush, seat_visible, suit_count
from simcore.engine.state import (
    MEMO_KEY,
    MEMO_KEY2,
    MEMO_VALUE,
    P_DISCARDS,
    P_DRAWN_STREAK,
    P_IN_PLAY,
    P_PASSED_BITS,
    P_WAIT,
    P_WINS,
    S_AFTER_KONG,
    S_CUR,
    S_LAST_DRAWN,
    S_N_KONG_PAY,
    S_N_WINS,
    S_POS,
    S_WALL_END,
    WL_SEAT,
    WL_TILE,
    WL_UNITS,
)
from simcore.hand.kernels import KIND_ANY, compute_keys, eval_ukeire
from simcore.hand.scoring_kernels import PAT_NONE, score_hand
from simcore.records import FIRST_TYPE_TWO_SUITS
from simcore.tiles import MELD_CONCEALED_KONG, MELD_KONG, MELD_PUNG

_THREAT_READY, _THREAT_VOID, _THREAT_FLUSH, _THREAT_COST, _THREAT_PASSED = 0, 1, 2, 3, 4
# the tiles a blood-river winner has won on, a bit set per opponent: its hand is locked, so each
# of them wins again (a certain deal-in, not a guess)
_THREAT_WON = 6
# one row of the decision's own figures: the kong money to come of one triplet, pung and pair
# (kong_hope_from), and the union of the _THREAT_WON sets
_TABLE_ROW = 5
_HOPE_TRIPLET, _HOPE_PUNG, _HOPE_PAIR, _WON_ANY = 0, 1, 2, 3
# feed=1: how much faster than the model's average a winning tile of each suit comes (columns
# _FEED + suit): an opponent void in the suit throws every one it draws, another FEED_OTHER of
# them (with each opponent void in one of three suits, the model's CLAIM_CHANCE on average)
_FEED = 4
FEED_OTHER = 0.25
# a plan is valued only within reach: tiles of the flush suit (hand and melds), pairs or
# triplets (melds included) for all pungs, pairs for seven pairs
FLUSH_REACH = 8
PUNGS_REACH = 3
PAIRS_REACH = 4
# public=1: a step back from the lowest shanten to avoid feeding a blood-river winner is weighed
# only against a feed of at least this many units a payer. The value model overrates the
# slower hand: weighed against any feed, step backs cost 0.047 units a deal under river
# (paired, 10,000 walls); from 4 units on they cost nothing measurable (+0.002 [-0.001, +0.004])
# and keep a ready hand from paying a big winner for certain
STEP_BACK_UNITS = 4.0
# public=1: with fewer tiles than this left, a dead wait counts as one step from ready only
# against a live wait: a broken wait is seldom ready again in time, and a dead wait still passes
# the ready check at the drawn end (dead_wait_counts). Keeping it from 6 to 12 tiles left gained
# the same, +0.0045 a deal under classic and river (paired, 10,000 walls)
DEAD_WAIT_WALL = 8


# ----------------------------------------------------------------------------- the table
@deal_njit
def _read_table(st, seat, P, R):
    """Fill ``st.visible``/``st.unseen``, the threat rows and the kong-hope row of ``st.fwork``
    for ``seat``.

    Returns ``(n_opp, unseen_total, draws_left)``: the opponents in play, the tiles ``seat``
    cannot see, and its own turns left (the wall shared among the players in play).
    """
    visible = st.visible
    seat_visible(st, seat, visible)
    unseen_total = 0
    # two suits: the m types are not in the set, so no copy of them is unseen
    first_type = 0 if R.suits == 3 else FIRST_TYPE_TWO_SUITS
    for t in range(27):
        u = 4 - visible[t] if t >= first_type else 0
        st.unseen[t] = u
        unseen_total += u
    after_own_kong = st.sc[S_AFTER_KONG] >= 0 and st.sc[S_CUR] == seat
    # a discard right after one's own kong: the others who would pay the winner's self-draw
    # (kong_discard_pays_all), and the money that kong brought in (kong_discard_transfer)
    others = 0
    kong_earned = 0.0
    if after_own_kong:
        others = n_in_play(st) - 1
        for e in range(st.sc[S_N_KONG_PAY]):
            if st.kong_pay[e, 3] == st.sc[S_AFTER_KONG] and st.kong_pay[e, 1] == seat:
                kong_earned += st.kong_pay[e, 2]
    F = st.fwork
    n_opp = 0
    won_any = 0
    for k in range(1, 4):
        o = (seat + k) % 4
        if st.pl[o, P_IN_PLAY] == 0:
            continue
        won, won_units = _won_on(st, o) if P[O_PUBLIC] != 0 else (0, 0.0)
        won_any |= won
        kongs = 0
        pungs = 0
        for m in range(st.n_melds[o]):
            if st.meld_kind[o, m] == MELD_PUNG:
                pungs += 1
            else:
                kongs += 1
        suit_bit = apparent_flush(st, o)
        flush = -1 if suit_bit == 0 else (0 if suit_bit == 1 else (1 if suit_bit == 2 else 2))
        ready = ready_probability(st.pl[o, P_DISCARDS], st.n_melds[o], st.pl[o, P_DRAWN_STREAK])
        cost = deal_in_cost(kongs, flush, pungs, after_own_kong, others, kong_earned, R)
        F[_THREAT_READY, n_opp] = ready
        F[_THREAT_VOID, n_opp] = st.void[o]
        F[_THREAT_FLUSH, n_opp] = flush
        F[_THREAT_COST, n_opp] = cost
        F[_THREAT_PASSED, n_opp] = st.pl[o, P_PASSED_BITS]
        F[_THREAT_WON, n_opp] = won
        if won != 0:  # a locked winner is ready, and its hand's worth is known
            F[_THREAT_READY, n_opp] = 1.0
            F[_THREAT_COST, n_opp] = won_units
        n_opp += 1
    wall_left = st.sc[S_WALL_END] - st.sc[S_POS]
    draws_left = wall_left / max(1, n_opp + 1)
    M = st.memo
    per_triplet, per_pung, per_pair = kong_hope_from(
        _win_chance(M, 0, 1, unseen_total, draws_left, n_opp),
        _win_chance(M, 0, 1, unseen_total, draws_left, 0),
        _win_chance(M, 0, 2, unseen_total, draws_left, n_opp), n_opp, R)
    F[_TABLE_ROW, _HOPE_TRIPLET] = per_triplet
    F[_TABLE_ROW, _HOPE_PUNG] = per_pung
    F[_TABLE_ROW, _HOPE_PAIR] = per_pair
    F[_TABLE_ROW, _WON_ANY] = won_any
    if P[O_FEED] != 0:  # only _fed_count reads these columns
        _feed_rates(F, n_opp, first_type // 9)
    return n_opp, unseen_total, draws_left


@deal_inline
def _feed_rates(F, n_opp, first_suit):
    """feed=1: how fast each suit's tiles come (columns ``_FEED + suit`` of the table row),
    from the threat rows of ``n_opp`` opponents: at one's own draws plus each opponent's
    throws, relative to the mean over the suits in play (``first_suit`` on), which the
    model's average rate stands for."""
    mean_rate = 0.0
    for s in range(3):
        rate = 1.0
        for k in range(n_opp):
            rate += 1.0 if F[_THREAT_VOID, k] == s else FEED_OTHER
        F[_TABLE_ROW, _FEED + s] = rate
        if s >= first_suit:
            mean_rate += rate / (3 - first_suit)
    for s in range(3):
        F[_TABLE_ROW, _FEED + s] /= mean_rate


@deal_inline
def _won_on(st, o):
    """``(bits, units)``: the tiles ``o`` has won on this deal (public: each win is shown) and
    the most its hand has been worth a payer. Only a blood-river winner is still in play with
    wins, and its hand is locked: each of those tiles wins again, for about as much."""
    bits = 0
    units = 0.0
    if st.pl[o, P_WINS] == 0:
        return bits, units
    for w in range(st.sc[S_N_WINS]):
        if st.win_log[w, WL_SEAT] == o:
            bits |= 1 << int(st.win_log[w, WL_TILE])
            units = max(units, float(st.win_log[w, WL_UNITS]))
    return bits, units


@deal_inline
def _danger(st, t, n_opp):
    """Expected units lost by discarding ``t`` now (threat rows of ``st.fwork``), the certain
    deal-ins (:func:`_certain_loss`) aside."""
    F = st.fwork
    d = 0.0
    weight = -1.0  # the tile's wait weight outside a void, computed once, when first needed
    for k in range(n_opp):
        won = int(F[_THREAT_WON, k])
        if (won >> t) & 1:
            continue  # certain, not a guess: _certain_loss
        if (int(F[_THREAT_PASSED, k]) >> t) & 1:
            continue  # it let this tile go since its hand last changed: not one of its waits
        if t // 9 == int(F[_THREAT_VOID, k]):
            continue  # a tile of its void suit never completes it
        if weight < 0.0:
            weight = wait_weight(t, -1, st.unseen)
        p = wins_on_weight(t, int(F[_THREAT_FLUSH, k]), weight)
        if won != 0:  # its wins show its wait: runs that won on a tile three ranks away
            p = min(1.0, p + revealed_chance(t, won, st.unseen))
        d += F[_THREAT_READY, k] * p * F[_THREAT_COST, k]
    return d


@deal_inline
def _certain_loss(st, t, n_opp):
    """Units lost for certain by discarding ``t``: what each blood-river winner that has won on
    ``t`` would be paid again (weighed in full, not by ``defence``: nothing here is a guess)."""
    F = st.fwork
    loss = 0.0
    for k in range(n_opp):
        if (int(F[_THREAT_WON, k]) >> t) & 1:
            loss += F[_THREAT_COST, k]
    return loss


# ----------------------------------------------------------------------------- the hand
@deal_inline
def _memo_slot(M, mix):
    """The slot of ``st.memo`` (``M``, its width a power of two) for the key mix ``mix``
    (a non-negative integer; Fibonacci hashing)."""
    h = (np.uint64(mix) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(32)
    return h & np.uint64(M.shape[1] - 1)


@deal_inline
def _win_chance(M, s, u, unseen_total, draws_left, n_opp):
    """:func:`.expert_model.win_probability`, remembered in ``M`` (``st.memo``) by all of its
    arguments. Each answer costs an exponential and four divisions, and the questions repeat:
    every candidate's plans within a decision, and across the rollouts of one position the
    same few hands at the same unseen tiles and turns left. The slot is read from ``M``'s
    width, so a test can make every question collide."""
    if (s < 0 or u <= 0 or s > 15 or u > 255 or unseen_total < 0 or unseen_total > 255
            or n_opp < 0 or n_opp > 3):
        return win_probability(s, u, unseen_total, draws_left, n_opp)
    key = ((s * 256 + u) * 256 + unseen_total) * 4 + n_opp + 1  # 0: an empty slot
    slot = _memo_slot(M, key * 4096 + (int(draws_left * 12.0) & 4095))
    if M[MEMO_KEY, slot] == key and M[MEMO_KEY2, slot] == draws_left:
        return M[MEMO_VALUE, slot]
    p = win_probability(s, u, unseen_total, draws_left, n_opp)
    M[MEMO_KEY, slot] = key
    M[MEMO_KEY2, slot] = draws_left
    M[MEMO_VALUE, slot] = p
    return p


@deal_inline
def _plan_wins(M, s, u, unseen_total, draws_left, n_opp, R):
    """The wins a plan ``s`` steps from ready with ``u`` live useful tiles can expect: its
    chance to win (:func:`_win_chance`); a ready hand under blood river, where the winner
    plays on with its wait, the expected number of its wins (:func:`.expert_model.river_wins`:
    a wide wait wins more often, not only sooner: +0.026 a deal for one such seat against
    three without it, +0.023 against three speed seats, paired, river, 10,000 walls, mean of
    seeds 0-5). Only ready hands: a farther plan's later wins too (Erlang waits after its
    steps) gained about half as much."""
    p = _win_chance(M, s, u, unseen_total, draws_left, n_opp)
    if s == 0 and R.blood_river != 0:
        return river_wins(p, u)
    return p


@deal_inline
def _units(fan, R, value_w):
    """What a win of ``fan`` pays each payer (capped), shrunk toward 1 by the value weight."""
    if R.fan_cap >= 0 and fan > R.fan_cap:
        fan = R.fan_cap
    return 1.0 + ((2.0 ** fan) - 1.0) * value_w


@deal_inline
def _ready_units(h, n, void, mask, unseen, meld_kind, meld_tile, R, value_w, M):
    """Mean units of a ready hand's wins on a discard, over its winning tiles by live copies.

    The fan of each winning tile is remembered in ``M`` (``st.memo``, negative keys: the hand's
    suit keys, void and melds), up to eight winning tiles in six bits each: a ready hand is
    valued again at every draw it does not win on, and in every rollout of a position that
    keeps it, and a score per winning tile took a twelfth of an expert rollout. Only the live
    counts change between those questions, and they are read afresh."""
    k0, k1, k2 = compute_keys(h)
    sig = melds_code(meld_kind, meld_tile, n) * 4 + void + 1  # 30 bits
    key = -1.0 - (k0 + k1 * 2097152.0)
    key2 = k2 + sig * 2097152.0
    slot = _memo_slot(M, k0 * 31 + k1 * 7 + k2 * 131 + sig * 977)
    hit = M[MEMO_KEY, slot] == key and M[MEMO_KEY2, slot] == key2
    packed = np.int64(M[MEMO_VALUE, slot]) if hit else np.int64(0)
    fresh = np.int64(0)
    keep = not hit
    total = 0.0
    weight = 0.0
    bits = mask
    i = 0
    while bits != 0:
        w = trailing_zeros(bits)
        bits &= bits - 1
        if hit and i < 8:
            code = (packed >> (6 * i)) & 63
        else:
            h[w] += 1
            res = score_hand(h, meld_kind, meld_tile, n, void, False, 0, R)
            h[w] -= 1
            code = 0 if res[2] == PAT_NONE else res[1] + 1
            keep = keep and code <= 63  # a fan beyond six bits is not kept
            if i < 8:
                fresh |= np.int64(code) << (6 * i)
        i += 1
        live = unseen[w]
        if live <= 0 or code == 0:
            continue
        total += live * _units(code - 1, R, value_w)
        weight += live
    if keep:
        M[MEMO_KEY, slot] = key
        M[MEMO_KEY2, slot] = key2
        M[MEMO_VALUE, slot] = fresh
    return total / weight if weight > 0 else 0.0


@deal_inline
def _fed_count(F, mask, unseen):
    """A hand's live useful tiles ``mask`` (its winning tiles when ready), each weighed by
    how fast its suit comes (feed=1)."""
    total = 0.0
    bits = mask
    while bits != 0:
        w = trailing_zeros(bits)
        bits &= bits - 1
        total += unseen[w] * F[_TABLE_ROW, _FEED + w // 9]
    return np.int64(total + 0.5)


@deal_inline
def _flush_target(h, n, void, meld_tile):
    """The suit a flush would be of: the non-void suit holding most tiles, if every meld
    (``meld_tile[:n]``) is of it; -1 otherwise."""
    best = -1
    best_n = -1
    for s in range(3):
        if s == void:
            continue
        c = suit_count(h, s)
        if c > best_n:
            best, best_n = s, c
    for m in range(n):
        if meld_tile[m] // 9 != best:
            return -1
    return best


@deal_inline
def _hand_counts(h, n, void, unseen, meld_kind, meld_tile):
    """One pass over a hand: ``(roots, pairs, triplets, pungs, kong_pairs)``.

    Roots: four of a type in hand, a pung whose fourth tile is in hand, kongs. Pairs: pairs
    held (a triplet or four holds one). And what :func:`.expert_model.kong_hope` counts:
    concealed triplets and exposed pungs whose fourth tile is live, pairs whose other two tiles
    are both live (the void suit's tiles never meld)."""
    roots = 0
    pairs = 0
    triplets = 0
    kong_pairs = 0
    # no branch per type: whether a type is held, and how often, mispredicts (a perf profile of
    # expert rollouts put a fifth of the hand's valuation here)
    for s in range(3):
        for r in range(9):
            c = h[9 * s + r]
            pairs += c >> 1
            roots += c == 4
            if s != void:  # one branch a suit, not a type
                u = unseen[9 * s + r]
                triplets += (c == 3) & (u >= 1)
                kong_pairs += (c == 2) & (u == 2)
    pungs = 0
    for m in range(n):
        t = meld_tile[m]
        if meld_kind[m] != MELD_PUNG or h[t] > 0:
            roots += 1
        elif unseen[t] >= 1:
            pungs += 1
    return roots, pairs, triplets, pungs, kong_pairs


@deal_inline
def _hand_value(st, seat, P, h, n, R, T, n_opp, unseen_total, draws_left):
    """``(value, shanten, useful)`` of a waiting-size hand (``13 - 3n`` concealed tiles ``h``,
    melds ``st.meld_*[seat, :n]``): the best plan's chance to win times what it pays, plus the
    kong money its triplets and pungs may still bring (``hope``).

    Inlined where it is called: :func:`_value` does the work from the few arrays it reads.
    A call that passes the state copies every array of it onto the stack, and a perf profile
    of four expert seats put most of the candidates' loop there; the arrays alone made four
    expert seats 1.17x faster (the same decisions)."""
    return _value(P, h, n, st.void[seat], st.meld_kind[seat], st.meld_tile[seat], st.unseen,
                  st.visible, st.fwork, st.memo, R, T, n_opp, unseen_total, draws_left)


@deal_njit
def _value(P, h, n, void, meld_kind, meld_tile, unseen, visible, F, M, R, T, n_opp,
           unseen_total, draws_left):
    """:func:`_hand_value` of ``h`` with melds ``meld_kind[:n]``, ``meld_tile[:n]``; ``F`` is
    ``st.fwork`` (its kong-hope row), ``M`` ``st.memo``."""
    value_w = P[O_VALUE] / 100.0
    roots, pairs, triplets, pungs, kong_pairs = _hand_counts(h, n, void, unseen, meld_kind,
                                                             meld_tile)
    s, mask, u = eval_ukeire(h, n, void, KIND_ANY, visible, T.packed, T.masks)
    if s == 0:
        units = _ready_units(h, n, void, mask, unseen, meld_kind, meld_tile, R, value_w, M)
    else:
        units = _units(R.fan_plain + roots, R, value_w)
    if P[O_FEED] != 0:
        u = _fed_count(F, mask, unseen)
    p = _plan_wins(M, s, u, unseen_total, draws_left, n_opp, R)
    best = p * win_amount(units, n_opp, R)
    # the kong money to come (per kong: _read_table's row of st.fwork), weighed by ``hope``
    hope = P[O_HOPE] / 100.0 * (triplets * F[_TABLE_ROW, _HOPE_TRIPLET]
                                + pungs * F[_TABLE_ROW, _HOPE_PUNG]
                                + kong_pairs * F[_TABLE_ROW, _HOPE_PAIR])
    if value_w <= 0:
        return best + hope, s, u
    # the other plans, each only when within reach (the cost of an expert seat is here)
    f = _flush_target(h, n, void, meld_tile)
    if f >= 0 and 3 * n + suit_count(h, f) >= FLUSH_REACH:  # every meld is of suit f
        sf, uf = flush_eval(h, n, f, visible, T)
        if sf > s or s > 0:  # a ready flush is scored exactly above
            pf = _plan_wins(M, sf, uf, unseen_total, draws_left, n_opp, R)
            vf = pf * win_amount(_units(R.fan_plain + R.fan_flush + roots, R, value_w), n_opp, R)
            best = max(best, vf)
    if s > 0:
        if R.fan_all_pungs > 0 and pairs + n >= PUNGS_REACH:
            sp, up = pungs_eval(h, n, void, visible)
            pp = _plan_wins(M, sp, up, unseen_total, draws_left, n_opp, R)
            vp = pp * win_amount(_units(R.fan_all_pungs + roots, R, value_w), n_opp, R)
            best = max(best, vp)
        if n == 0 and R.fan_seven_pairs > 0 and pairs >= PAIRS_REACH:
            sq, uq = pairs_eval(h, n, void, visible)
            pq = _plan_wins(M, sq, uq, unseen_total, draws_left, n_opp, R)
            vq = pq * win_amount(_units(R.fan_seven_pairs + roots, R, value_w), n_opp, R)
            best = max(best, vq)
    return best + hope, s, u


@deal_njit
def _chase_bits(st, seat, P, T, h, n, void, mask, best_s, value_w):
    """The discards a full flush proposes beside the fastest ones: those that keep its own
    shanten (every tile of another suit, and its suit's spare tiles), when
    ``chase`` tiles or more (melds included) are of its suit and the hand is not ready."""
    reach = P[O_CHASE]
    if reach <= 0 or value_w <= 0 or best_s <= 0:
        return np.int64(0)
    f = _flush_target(h, n, void, st.meld_tile[seat])
    if f < 0 or 3 * n + suit_count(h, f) < reach:
        return np.int64(0)
    # a tile of another suit leaves the flush's shanten as it is; a tile of its suit must not
    # raise it
    sf_keep, _u = flush_eval(h, n, f, st.visible, T)
    out = mask & ~suit_bits(f)
    bits = mask & suit_bits(f)
    while bits != 0:
        t = trailing_zeros(bits)
        bits &= bits - 1
        h[t] -= 1
        sf, _u = flush_eval(h, n, f, st.visible, T)
        h[t] += 1
        if sf <= sf_keep:
            out |= np.int64(1) << t
    return out


@deal_inline
def _discard_row(st, seat, P, T, h, n, mask, table_read):
    """The shanten after each discard of ``mask`` into ``st.scratch[seat]``; returns the least
    (the row :func:`_best_discard` and :func:`_only_candidate` read). Any shape, except that a
    ready hand whose every winning tile the seat can see counts one step from ready: it cannot
    win until it changes its wait (:func:`_dead_waits_back`; with fewer than
    ``DEAD_WAIT_WALL`` tiles left, only when another discard leaves a live wait).
    ``table_read``: ``st.visible`` already holds what the seat sees (:func:`_read_table`); else
    ``h`` is the seat's real hand, from which it is read here."""
    best = discard_shanten(h, n, st.void[seat], mask, T, st.scratch[seat])
    if best == 0 and P[O_PUBLIC] != 0:
        if not table_read:
            seat_visible(st, seat, st.visible)
        late = st.sc[S_WALL_END] - st.sc[S_POS] < DEAD_WAIT_WALL
        best = _dead_waits_back(st, seat, T, h, n, mask, late)
    return best


@deal_njit
def _dead_waits_back(st, seat, T, h, n, mask, late):
    """Set the row's ready discards whose waits are all visible to the seat (``st.visible``:
    its hand, its melds, every discard and meld, read from the real hand: a pung weighed by
    :func:`choose_claim` only moves tiles the seat sees) to one step from ready; returns the
    row's new least. ``late``: only when a ready discard with a live wait remains (else the
    dead waits stay ready: a broken wait is seldom ready again in time, and a dead one passes
    the ready check at the drawn end)."""
    row = st.scratch[seat]
    void = st.void[seat]
    best = np.int64(99)
    dead = np.int64(0)
    bits = mask
    while bits != 0:
        t = trailing_zeros(bits)
        bits &= bits - 1
        if row[t] == 0:
            # the thrown tile goes from the hand to the table: what the seat sees is unchanged
            h[t] -= 1
            _s, _w, live = eval_ukeire(h, n, void, KIND_ANY, st.visible, T.packed, T.masks)
            h[t] += 1
            if live == 0:
                row[t] = 1
                dead |= np.int64(1) << t
        best = min(best, np.int64(row[t]))
    if late and best > 0:
        while dead != 0:
            t = trailing_zeros(dead)
            dead &= dead - 1
            row[t] = 0
        best = np.int64(0)
    return best


@deal_inline
def _only_candidate(st, seat, P, R, mask, best_s):
    """The discard when only one keeps the least shanten and nothing else could be chosen (no
    folding, no flush candidates): then no value need be computed, nor the table read. -1
    otherwise."""
    if (P[O_FOLD] > 0 and P[O_DEFENCE] > 0) or P[O_CHASE] > 0:
        return -1
    if P[O_PUBLIC] != 0 and st.sc[S_N_WINS] > 0 and R.blood_river != 0:
        return -1  # a locked winner's tiles may be among them: _best_discard reads the table
    row = st.scratch[seat]
    only = -1
    bits = mask
    while bits != 0:
        t = trailing_zeros(bits)
        bits &= bits - 1
        if row[t] == best_s:
            if only >= 0:
                return -1
            only = t
    return only


@deal_inline
def _candidates(st, row, mask, best_s, chase, n_opp):
    """The discards whose value is compared: those of least shanten (``row``) and a flush's
    (``chase``), a tile a blood-river winner has won on among them at its full cost (the
    score's :func:`_certain_loss`). When each of them is such a tile and the least of them
    feeds ``STEP_BACK_UNITS`` or more, those one step slower join them (the value decides)."""
    at_best = np.int64(0)
    slower = np.int64(0)
    bits = mask
    while bits != 0:
        t = trailing_zeros(bits)
        bits &= bits - 1
        if row[t] == best_s:
            at_best |= np.int64(1) << t
        elif row[t] == best_s + 1:
            slower |= np.int64(1) << t
    out = at_best | chase
    won = np.int64(st.fwork[_TABLE_ROW, _WON_ANY])
    if out & won == 0 or out & ~won != 0:
        return out
    least = 1e300
    bits = out
    while bits != 0:
        t = trailing_zeros(bits)
        bits &= bits - 1
        least = min(least, _certain_loss(st, t, n_opp))
    if least >= STEP_BACK_UNITS:
        return out | (slower & ~won)
    return out


@deal_njit
def _best_discard(st, seat, P, R, T, h, n, mask, best_s, n_opp, unseen_total, draws_left):
    """``(tile, score, value, shanten)`` of the best discard among ``mask`` from the ``14 - 3n``
    tiles ``h``, whose shanten after each discard :func:`_discard_row` has just written
    (``best_s`` the least).

    Efficiency first, as a good player keeps pace: the candidates are the discards that leave
    the lowest shanten (a dead wait is not ready: :func:`_discard_row`; a step back against a
    costly certain feed: :func:`_candidates`); among them the score is the value left minus
    ``defence`` times the danger and minus the certain loss.
    When even the best of them costs more in expected deal-ins than ``fold`` percent of the
    value it keeps, the seat folds: the safest tile of all, whatever its shanten.
    """
    value_w = P[O_VALUE] / 100.0
    defence = P[O_DEFENCE] / 100.0
    void = st.void[seat]
    row = st.scratch[seat]
    best_t = -1
    best_score = -1e300
    best_value = 0.0
    best_u = -1
    safe_t = -1
    safe_d = 1e300
    safe_score = -1e300
    fold = P[O_FOLD] / 100.0
    folds = fold > 0 and defence > 0  # else the safest tile of all is never needed
    chase = _chase_bits(st, seat, P, T, h, n, void, mask, best_s, value_w)
    candidates = _candidates(st, row, mask, best_s, chase, n_opp)
    bits = mask
    while bits != 0:
        t = trailing_zeros(bits)
        bits &= bits - 1
        candidate = (candidates >> t) & 1
        if not candidate and not folds:
            continue
        d = _danger(st, t, n_opp) if defence > 0 else 0.0
        if candidate:
            h[t] -= 1
            v, _s, u = _hand_value(st, seat, P, h, n, R, T, n_opp, unseen_total, draws_left)
            h[t] += 1
            score = v - defence * d - _certain_loss(st, t, n_opp)
            if (
                best_t < 0
                or score > best_score
                or (score == best_score and u > best_u)
                or (score == best_score and u == best_u and edge_rank(t) < edge_rank(best_t))
            ):
                best_t, best_score, best_value, best_u = t, score, v, u
        else:
            score = -1e300
        if safe_t < 0 or d < safe_d or (d == safe_d and score > safe_score):
            safe_t, safe_d, safe_score = t, d, score
    if folds and best_value * fold < best_value - best_score:
        return safe_t, safe_score, best_value, row[safe_t]
    return best_t, best_score, best_value, row[best_t]


# ----------------------------------------------------------------------------- the interface
@deal_njit
def choose_exchange(st, seat, P, R, T, out):
    greedy_exchange(st, seat, P, R, T, out)


@deal_njit
def choose_void(st, seat, P, R, T):
    if R.suits == 2:  # no void is declared (the engine gives m, the absent suit)
        return np.int64(0)
    if P[O_VOID] != VOID_BY_VALUE:
        return greedy_void(st, seat, P, T)
    # the suit whose loss leaves the most valuable hand (its pace, plans, kongs to come)
    n_opp, unseen_total, draws_left = _read_table(st, seat, P, R)
    h = st.hand[seat]
    old = st.void[seat]
    best = np.int64(-1)
    best_v = -1e300
    for s in range(3):
        st.void[seat] = s
        v, _s, _u = _hand_value(st, seat, P, h, 0, R, T, n_opp, unseen_total, draws_left)
        if best < 0 or v > best_v:
            best, best_v = np.int64(s), v
    st.void[seat] = old
    return best


@deal_njit
def _void_discard(st, seat, mask, n_opp, defence):
    """While void-suit tiles must go first: the safest of them (a certain loss counted in full),
    then the one held fewest times, then outer ranks (the hand's value does not depend on which
    goes first)."""
    best_t = -1
    best_d = 0.0
    h = st.hand[seat]
    bits = mask
    while bits != 0:
        t = trailing_zeros(bits)
        bits &= bits - 1
        d = (_danger(st, t, n_opp) if defence > 0 else 0.0) + _certain_loss(st, t, n_opp)
        if (best_t < 0 or d < best_d or (d == best_d and h[t] < h[best_t])
                or (d == best_d and h[t] == h[best_t] and edge_rank(t) < edge_rank(best_t))):
            best_t, best_d = t, d
    return best_t


@deal_njit
def choose_discard(st, seat, P, R, T):
    mask = discard_mask(st, seat, R)
    if mask & ~suit_bits(st.void[seat]) == 0:
        if mask & (mask - 1) == 0:  # one void-suit type held (most often the tile just drawn)
            return trailing_zeros(mask)
        n_opp, _unseen_total, _draws_left = _read_table(st, seat, P, R)
        return _void_discard(st, seat, mask, n_opp, P[O_DEFENCE])
    h = st.hand[seat]
    n = st.n_melds[seat]
    best_s = _discard_row(st, seat, P, T, h, n, mask, False)
    only = _only_candidate(st, seat, P, R, mask, best_s)
    if only >= 0:
        return only
    n_opp, unseen_total, draws_left = _read_table(st, seat, P, R)
    t, _score, _value, _s = _best_discard(st, seat, P, R, T, h, n, mask, best_s, n_opp,
                                          unseen_total, draws_left)
    return t


@deal_njit
def take_win(st, seat, P, fan, wall_left):
    return True


@deal_njit
def take_discard_win(st, seat, P, tile, fan, claimable, R, T):
    """Take a win on a discard unless waiting for a self-draw is worth more (``STAY_MARGIN``
    times the win): every opponent in play pays a self-draw, with the rule set's bonus,
    against the discarder alone now; but each turn in play costs ``stay`` hundredths of a unit
    (what the others' wins take from a seat still in play), and the passed-win rule holds
    until the next draw. Or, with ``upgrade`` on, unless punging (or konging) the tile
    (``claimable``: when no seat takes the win, the seat claims it in :func:`choose_claim`)
    keeps the hand ready and is worth more (``UPGRADE_MARGIN`` times the win), less those
    turns' cost: a pair wait turned into a golden hook or a bigger pattern (``upgrade=2``,
    the default: at a four-player table only).
    Under blood river every win is taken: the winner plays on with its wait."""
    stay = P[O_STAY] / 100.0
    if stay <= 0 or R.blood_river != 0:  # blood river: the winner plays on, and self-draws
        return True
    n_opp, unseen_total, draws_left = _read_table(st, seat, P, R)
    units = _units(fan, R, 1.0)
    live = 0
    bits = st.pl[seat, P_WAIT]
    while bits != 0:
        w = trailing_zeros(bits)
        bits &= bits - 1
        live += st.unseen[w]
    p_self = win_probability(0, live, unseen_total, draws_left, 0)
    wait = p_self * n_opp * self_draw_units(units, R) - stay * draws_left
    if wait > STAY_MARGIN * units:
        return False
    held = st.hand[seat, tile]
    upgrade = P[O_UPGRADE] != 0 and (P[O_UPGRADE] != UPGRADE_FOUR_PLAYERS or R.players == 4)
    if not upgrade or not claimable or held < 2:
        return True
    if held == 3 and P[O_EXPERT_KONG] == XKONG_ALWAYS:  # it would kong whatever the value
        return True
    claim, v, s = _claim_by_value(st, seat, P, tile, held == 3, R, T, n_opp, unseen_total,
                                  draws_left)
    return not (claim != CLAIM_PASS and s == 0
                and v - stay * draws_left > UPGRADE_MARGIN * units)


@deal_njit
def _kong_money(units_each, n_payers, R):
    """Expected kong money: refunded when not ready at a drawn end under the rules in force."""
    return units_each * n_payers * kong_keep(R)


@deal_njit
def _pung_value(st, seat, P, R, T, tile, n_opp, unseen_total, draws_left):
    """``(score, shanten)`` of the hand after punging ``tile`` and its best discard."""
    h = st.hand[seat]
    n = st.n_melds[seat]
    old_kind = st.meld_kind[seat, n]
    old_tile = st.meld_tile[seat, n]
    st.meld_kind[seat, n] = MELD_PUNG
    st.meld_tile[seat, n] = tile
    h[tile] -= 2
    mask = held_mask(h, st.void[seat], R)
    best_s = _discard_row(st, seat, P, T, h, n + 1, mask, True)
    _t, v_pung, _v, s_pung = _best_discard(st, seat, P, R, T, h, n + 1, mask, best_s, n_opp,
                                           unseen_total, draws_left)
    h[tile] += 2
    st.meld_kind[seat, n] = old_kind
    st.meld_tile[seat, n] = old_tile
    return v_pung, s_pung


@deal_njit
def choose_claim(st, seat, P, tile, can_kong, R, T):
    """Pung when it keeps pace (the shanten after the pung and its best discard is no worse)
    and, from a ready hand, only when the value does not fall (a pung that cuts live winning
    tiles is declined); kong by the option, ``value``: when the kong plus its money is worth
    at least the pung and the pass (even at a worse shanten: its money is paid now, which
    the hand's value weighs against the slower hand; requiring the shanten to hold, as the
    pung does, cost 0.02-0.04 units a deal against ``kong=always``)."""
    rule = P[O_EXPERT_KONG]
    if can_kong and rule == XKONG_ALWAYS:
        return CLAIM_KONG
    h = st.hand[seat]
    n = st.n_melds[seat]
    void = st.void[seat]
    if not (can_kong and rule != XKONG_NEVER) and not (P[O_FOLD] > 0 and P[O_DEFENCE] > 0):
        # No kong to weigh and no folding: then the values below decide only between a ready
        # hand and a ready pung, and the shanten before and after say the rest (the same
        # answers for a fraction of the cost: most claims are settled here).
        s_pass = shanten_of(h, n, void, T)
        h[tile] -= 2
        s_pung = discard_shanten(h, n + 1, void, held_mask(h, void, R), T, st.scratch[seat])
        h[tile] += 2
        if s_pung > s_pass:
            return CLAIM_PASS
        if s_pung < s_pass or s_pass > 0:
            return CLAIM_PUNG
    n_opp, unseen_total, draws_left = _read_table(st, seat, P, R)
    choice, _v, _s = _claim_by_value(st, seat, P, tile, can_kong, R, T, n_opp, unseen_total,
                                     draws_left)
    return choice


@deal_njit
def _claim_by_value(st, seat, P, tile, can_kong, R, T, n_opp, unseen_total, draws_left):
    """:func:`choose_claim`'s answer from the values: ``(claim, its value, its shanten)``."""
    h = st.hand[seat]
    n = st.n_melds[seat]
    v_pass, s_pass, _u = _hand_value(st, seat, P, h, n, R, T, n_opp, unseen_total, draws_left)
    v_pung, s_pung = _pung_value(st, seat, P, R, T, tile, n_opp, unseen_total, draws_left)
    v_kong = -1e300
    s_kong = s_pass
    if can_kong and P[O_EXPERT_KONG] != XKONG_NEVER:
        old_kind = st.meld_kind[seat, n]
        old_tile = st.meld_tile[seat, n]
        st.meld_kind[seat, n] = MELD_KONG
        st.meld_tile[seat, n] = tile
        h[tile] -= 3
        v_kong, s_kong, _u = _hand_value(st, seat, P, h, n + 1, R, T, n_opp, unseen_total,
                                         draws_left)
        h[tile] += 3
        st.meld_kind[seat, n] = old_kind
        st.meld_tile[seat, n] = old_tile
        v_kong += _kong_money(2.0, 1, R)
    pung_ok = s_pung < s_pass or (s_pung == s_pass and (s_pass > 0 or v_pung >= v_pass))
    kong_ok = v_kong >= v_pass
    if kong_ok and (not pung_ok or v_kong >= v_pung):
        return CLAIM_KONG, v_kong, s_kong
    if pung_ok:
        return CLAIM_PUNG, v_pung, s_pung
    return CLAIM_PASS, v_pass, s_pass


@deal_njit
def choose_kong(st, seat, P, R, T, candidates):
    """A kong worth at least the best discard: the hand it leaves (at whatever shanten: the
    value weighs a slower hand), its replacement draw (one more turn), its money under the
    rules (an added kong pays nothing under ``added_kong_only_on_draw`` unless just drawn)
    and, for an added kong, the risk of it being robbed."""
    rule = P[O_EXPERT_KONG]
    if rule == XKONG_NEVER:
        return -1
    if rule == XKONG_ALWAYS:
        return trailing_zeros(candidates)
    n_opp, unseen_total, draws_left = _read_table(st, seat, P, R)
    h = st.hand[seat]
    n = st.n_melds[seat]
    mask = discard_mask(st, seat, R)
    best_s = _discard_row(st, seat, P, T, h, n, mask, True)
    _t, v_keep, _v, _s = _best_discard(st, seat, P, R, T, h, n, mask, best_s, n_opp,
                                       unseen_total, draws_left)
    last_drawn = st.sc[S_LAST_DRAWN]
    best_t = -1
    best_v = -1e300
    bits = candidates
    while bits != 0:
        t = trailing_zeros(bits)
        bits &= bits - 1
        if h[t] == 4:  # concealed: the kong is a new meld
            old_kind = st.meld_kind[seat, n]
            old_tile = st.meld_tile[seat, n]
            st.meld_kind[seat, n] = MELD_CONCEALED_KONG
            st.meld_tile[seat, n] = t
            h[t] -= 4
            v, _s, _u = _hand_value(st, seat, P, h, n + 1, R, T, n_opp, unseen_total,
                                        draws_left)
            h[t] += 4
            st.meld_kind[seat, n] = old_kind
            st.meld_tile[seat, n] = old_tile
            v += _kong_money(2.0, n_opp, R)
        else:  # added to an exposed pung: the tile may be robbed
            m = 0
            for i in range(n):
                if st.meld_tile[seat, i] == t:
                    m = i
            st.meld_kind[seat, m] = MELD_KONG
            h[t] -= 1
            v, _s, _u = _hand_value(st, seat, P, h, n, R, T, n_opp, unseen_total, draws_left)
            h[t] += 1
            st.meld_kind[seat, m] = MELD_PUNG
            if R.added_kong_only_on_draw == 0 or t == last_drawn:
                v += _kong_money(1.0, n_opp, R)
            # robbing it wins as if the tile were discarded, +1 fan: twice the discard's price
            rob = 2.0 * P[O_DEFENCE] / 100.0 * _danger(st, t, n_opp)
            v -= rob + _certain_loss(st, t, n_opp)
        # the replacement is one more draw: about one turn's share of the hand's chance
        v += v / max(1.0, draws_left)
        # be worth at least the best discard without it
        if v >= v_keep and (best_t < 0 or v > best_v):
            best_t, best_v = t, v
    return best_t
