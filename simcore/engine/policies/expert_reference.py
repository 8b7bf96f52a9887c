"""Plain-Python twin of the ``expert`` policy's model (:mod:`simcore.engine.policies.expert_model`).

Written from the definitions in that module's docstring, not from its kernels, so that
``tests/unit/test_expert_model.py`` can compare the two on random inputs: wait shapes are listed
explicitly, the fan of a deal-in is a list of named contributions, the chance of winning in
time is a sum of Poisson probabilities. Speed is not a goal. The fitted constants are imported
from the kernel module, which stays their one source.

Inputs: tile ``t`` in 0..26 (suit ``t // 9``: m, p, s; rank ``t % 9 + 1``); ``unseen`` is a
sequence of 27 counts 0..4 (copies the deciding seat cannot see); a void or flush suit is -1
(none) or 0..2; ``rules`` is a :class:`simcore.rules.Rules` (the kernels take its
``encode()``).

>>> from simcore.rules import get_rules
>>> # 5m, everything unseen: a single wait on 4 copies, C(4, 2) pairs, three runs of 4 * 4
>>> wait_weight(4, -1, [4] * 27) == 4 * C_SINGLE + 6 * C_PAIR + 3 * 16 * C_RUN
True
>>> deal_in_cost(0, 0, 3, True, 2, 0.0, get_rules("baike"))  # 0.6 + 2 + 1 + 1 fan, capped at 3
8.0
>>> deal_in_cost(0, 0, 3, True, 2, 4.0, get_rules("baike"))  # and the kong's 4 units, transferred
12.0
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from simcore.engine.policies.expert_model import (
    C_PAIR,
    C_RUN,
    C_SINGLE,
    CLAIM_CHANCE,
    FAN_BASE,
    FLUSH_IN,
    FLUSH_OUT,
    KONG_KEEP_IF_REFUNDED,
    READY_BIAS,
    READY_DISCARD,
    READY_MELD,
    READY_STREAK,
    SELF_DRAW_SHARE,
    STEP_TYPICAL,
    STREAK_MAX,
    WAIT_SCALE,
    WAIT_TYPICAL,
)

if TYPE_CHECKING:
    from simcore.rules import Rules


def suit(t: int) -> int:
    return t // 9


def rank(t: int) -> int:
    """1..9."""
    return t % 9 + 1


# --------------------------------------------------------------------------------------------
# danger


def wait_shapes(t: int) -> list[tuple[str, float, tuple[int, ...]]]:
    """The shapes a hand can hold that win on ``t``: (name, coefficient, tiles held).

    A single wait holds one ``t``, a pair wait two; a run wait holds the two other tiles of a
    run through ``t`` (both neighbours of the same suit, within two ranks of ``t``).
    """
    shapes: list[tuple[str, float, tuple[int, ...]]] = [
        ("single", C_SINGLE, (t,)),
        ("pair", C_PAIR, (t, t)),
    ]
    for lo, hi in ((-2, -1), (-1, +1), (+1, +2)):
        if rank(t) + lo >= 1 and rank(t) + hi <= 9:  # both neighbours in the suit
            shapes.append(("run", C_RUN, (t + lo, t + hi)))
    return shapes


def shape_ways(held: tuple[int, ...], unseen: Sequence[int]) -> int:
    """In how many ways the tiles ``held`` can be chosen among the unseen copies."""
    ways = 1
    for tile in set(held):
        ways *= math.comb(int(unseen[tile]), held.count(tile))
    return ways


def wait_weight(t: int, void: int, unseen: Sequence[int]) -> float:
    """Sum over the wait shapes on ``t`` of coefficient x ways; 0 for a tile of the void suit."""
    if suit(t) == void:
        return 0.0
    return float(sum(coef * shape_ways(held, unseen) for _, coef, held in wait_shapes(t)))


def revealed_chance(t: int, won: int, unseen: Sequence[int]) -> float:
    """Over each won-on tile ``w`` of ``t``'s suit three ranks from it: the share, in
    ``wait_weight(w)``, of the run shape of ``w`` that holds the two tiles between ``w`` and
    ``t`` (a two-sided wait on both)."""
    p = 0.0
    for w in range(27):
        if not (won >> w) & 1 or suit(w) != suit(t) or abs(rank(w) - rank(t)) != 3:
            continue
        between = tuple(sorted((min(w, t) + 1, min(w, t) + 2)))
        total = wait_weight(w, -1, unseen)
        for name, coef, held in wait_shapes(w):
            if name == "run" and tuple(sorted(held)) == between and total > 0:
                p += coef * shape_ways(held, unseen) / total
    return p


def ready_probability(discards: int, melds: int, streak: int) -> float:
    """The logistic of READY_BIAS + READY_DISCARD * discards + READY_MELD * melds
    + READY_STREAK * streak, the streak counted up to STREAK_MAX."""
    z = READY_BIAS + READY_DISCARD * discards + READY_MELD * melds
    z += READY_STREAK * min(streak, STREAK_MAX)
    return math.exp(z) / (1.0 + math.exp(z))


def focus(t: int, flush_suit: int) -> float:
    """How much more likely an opponent with an apparent flush in ``flush_suit`` waits on ``t``."""
    if flush_suit < 0:
        return 1.0
    return FLUSH_IN if suit(t) == flush_suit else FLUSH_OUT


def wins_on(t: int, void: int, flush_suit: int, unseen: Sequence[int]) -> float:
    """min(1, WAIT_SCALE * focus * wait_weight): a probability, so at most 1."""
    return min(1.0, WAIT_SCALE * focus(t, flush_suit) * wait_weight(t, void, unseen))


def deal_in_fan(
    n_kongs: int, flush_suit: int, n_pungs: int, after_own_kong: bool, rules: Rules
) -> float:
    """The estimated fan of a win on the decider's discard, capped by ``rules.fan_cap``."""
    contributions = [
        ("base", FAN_BASE),
        ("roots", n_kongs),
        ("flush", rules.fan_flush if flush_suit >= 0 else 0),
        ("all pungs", rules.fan_all_pungs if n_pungs >= 3 else 0),
        ("discard after own kong", 1 if after_own_kong else 0),
    ]
    fan = sum(value for _, value in contributions)
    if rules.fan_cap is not None:
        fan = min(fan, rules.fan_cap)
    return float(fan)


def deal_in_cost(
    n_kongs: int, flush_suit: int, n_pungs: int, after_own_kong: bool, others: int,
    kong_earned: float, rules: Rules,
) -> float:
    """2 ** :func:`deal_in_fan` units; a discard right after one's own kong also pays what the
    rules add (docs/rules 3): under ``kong_discard_pays_all`` the self-drawn payment of each of
    the ``others`` players in play but the winner instead, under ``kong_discard_transfer`` the
    ``kong_earned`` units of that kong besides."""
    units = 2.0 ** deal_in_fan(n_kongs, flush_suit, n_pungs, after_own_kong, rules)
    if after_own_kong and rules.kong_discard_pays_all:
        units = self_draw_units(units, rules) * others
    if after_own_kong and rules.kong_discard_transfer:
        units += kong_earned
    return units


# --------------------------------------------------------------------------------------------
# value


def poisson(mean: float, n: int) -> float:
    """P(N = n) for N ~ Poisson(mean) (log space: means can be in the thousands)."""
    if mean == 0.0:
        return 1.0 if n == 0 else 0.0
    return math.exp(-mean + n * math.log(mean) - math.lgamma(n + 1))


def win_probability(
    shanten: int, useful: int, unseen_total: int, draws_left: float, n_opp: int
) -> float:
    """P(the hand's ``shanten`` improving draws and then its winning tile all come within
    ``draws_left`` turns).

    Mean turns: the first improving step at ``useful / unseen_total`` per turn, each further
    one at ``min(useful, STEP_TYPICAL) / unseen_total``, then the win at
    ``w / unseen_total * (1 + CLAIM_CHANCE * n_opp)`` per turn, where ``w`` is ``useful`` for a
    ready hand and at most ``WAIT_TYPICAL`` live winning tiles otherwise. The number of turns is
    an Erlang distribution of shape ``k = shanten + 1`` with that mean, so ``P`` is the chance
    that a Poisson count of mean ``x = k * draws_left / mean`` reaches ``k``.
    A complete hand (shanten -1) has won; no live tiles, no turns or no unseen tiles: 0.
    """
    if shanten < 0:
        return 1.0
    if useful <= 0 or draws_left <= 0 or unseen_total <= 0:
        return 0.0
    # mean turns of each step: 1 / (its tiles / unseen_total), a claim multiplying the last's
    step_tiles = [useful] + [min(useful, STEP_TYPICAL)] * (shanten - 1) if shanten else []
    winning_tiles = useful if shanten == 0 else min(useful, WAIT_TYPICAL)
    mean_turns = sum(unseen_total / tiles for tiles in step_tiles)
    mean_turns += unseen_total / (winning_tiles * (1.0 + CLAIM_CHANCE * n_opp))
    k = shanten + 1
    x = k * draws_left / mean_turns
    below_k = sum(poisson(x, n) for n in range(k))
    return max(0.0, 1.0 - below_k)


def self_draw_units(units: float, rules: Rules) -> float:
    """What each payer pays for a self-drawn win worth ``units`` on a discard, under the rule
    set's self-draw bonus: "base" +1 unit (after the cap), "fan" +1 fan (before the cap: the
    units double, but not beyond ``2 ** fan_cap``), "none" nothing."""
    if rules.self_draw_bonus == "base":
        return units + 1.0
    if rules.self_draw_bonus == "fan":
        doubled = 2.0 * units
        if rules.fan_cap is not None:
            doubled = min(doubled, max(units, 2.0**rules.fan_cap))
        return doubled
    if rules.self_draw_bonus == "none":
        return units
    raise ValueError(f"self_draw_bonus {rules.self_draw_bonus!r} is not base, fan or none")


def _rising_root(f: Callable[[float], float], target: float) -> float:
    """The ``x`` in [0, 1] where the rising ``f`` reaches ``target``, by bisection."""
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) < target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def river_wins(p_win: float, live: float) -> float:
    """``live`` times the chance ``q`` that one winning tile reaches the hand in time, where
    ``live`` such chances give ``p_win`` of at least one win: ``1 - (1 - q) ** live = p_win``,
    solved by bisection. Near ``p_win = 1`` it is solved for the miss ``m = 1 - q`` instead
    (``m ** live = 1 - p_win``), where ``1 - p_win`` is exact and ``1 - (1 - q) ** live``
    would round to it."""
    if live <= 1 or p_win <= 0:
        return p_win
    if p_win >= 1:
        return float(live)
    if p_win < 0.5:
        return live * _rising_root(lambda q: 1 - (1 - q) ** live, p_win)
    return live * (1 - _rising_root(lambda m: m**live, 1 - p_win))


def win_amount(units: float, n_opp: int, rules: Rules) -> float:
    """Expected units won: a self-draw (share SELF_DRAW_SHARE; each of the ``n_opp`` opponents
    in play pays :func:`self_draw_units`) or a win on a discard (the discarder pays ``units``)."""
    self_drawn = n_opp * self_draw_units(units, rules)
    on_discard = units
    return SELF_DRAW_SHARE * self_drawn + (1.0 - SELF_DRAW_SHARE) * on_discard


def kong_hope(triplets: int, pungs: int, pairs: int, unseen_total: int, draws_left: float,
              n_opp: int, rules: Rules) -> float:
    """Expected kong money still to come. Each kong's chance is that of a single wait on its
    missing tile (:func:`win_probability`, shanten 0):

    - a concealed triplet's fourth tile, drawn or claimed: of that chance, the part a draw
      alone gives is a concealed kong (2 units from each of the ``n_opp`` opponents), the rest
      a direct kong (2 from the discarder);
    - an exposed pung's fourth tile, drawn only: an added kong (1 from each);
    - a pair: its third tile (two live, drawn or claimed) and then the fourth drawn: an added
      kong.

    A quarter of it is taken as refunded under ``refund_kongs_if_not_ready``."""
    if unseen_total <= 0:
        return 0.0
    p_any = win_probability(0, 1, unseen_total, draws_left, n_opp)
    p_drawn = win_probability(0, 1, unseen_total, draws_left, 0)
    per_triplet = p_drawn * 2 * n_opp + (p_any - p_drawn) * 2  # concealed, else direct
    per_pung = p_drawn * n_opp
    per_pair = win_probability(0, 2, unseen_total, draws_left, n_opp) * p_drawn * n_opp
    money = triplets * per_triplet + pungs * per_pung + pairs * per_pair
    return money * (KONG_KEEP_IF_REFUNDED if rules.refund_kongs_if_not_ready else 1.0)
