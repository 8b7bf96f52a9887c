"""The one place where a seat's policy id chooses its family's decision (the interface is in
:mod:`simcore.engine.policies`). The engine calls only these ``decide_*`` functions.

**Optional families.** A family that is expensive to compile (``expert``) is compiled only into
a kernel that seats it. The engine carries one opaque value, ``families`` (made by
:func:`families_for`, a tuple with one element per family of :data:`OPTIONAL`: ``None`` when no
seat of the call plays it, else an array), unchanged from the entry kernel down to the
``decide_*`` functions here, the only code that looks inside it. Each ``decide_*`` (inlined
into its caller's IR) hands the elements to its ``dispatch_*`` twin as arguments: numba prunes a
branch on an argument's ``is None`` before typing it (not on a tuple's element), so a switched-off
family's functions are neither typed nor compiled: a run of the greedy family compiles in about
half the time of one that needs the expert (a cold cache compiles one kernel per case, each
once per machine). :func:`families_for` switches a family on exactly when some seat plays it,
so the ``-1`` / ``False`` fall-throughs below are never taken.
"""

from __future__ import annotations

import numpy as np

from simcore.engine.compile.jit import deal_inline, deal_ir_inline, deal_njit
from simcore.engine.policies import expert, forced, greedy, random
from simcore.engine.policies.common import CLAIM_PASS, kong_mask
from simcore.engine.policies.expert_options import POLICY_EXPERT
from simcore.engine.policies.forced import POLICY_FORCED
from simcore.engine.policies.greedy_options import O_GIVE
from simcore.engine.policies.random_options import POLICY_RANDOM

# The optional families, in the order of the elements of ``families``, with their policy ids.
OPTIONAL = (("expert", (POLICY_EXPERT,)),)
_ON = np.zeros(1, np.int8)  # any array: the family is compiled in


def families_for(plan_pid) -> tuple:
    """The ``families`` value of a call whose seats play the policy ids ``plan_pid``."""
    ids = np.asarray(plan_pid)
    return tuple(_ON if np.isin(ids, pids).any() else None for _name, pids in OPTIONAL)


def compiled_families(families: tuple) -> tuple[str, ...]:
    """The names of the optional families that ``families`` compiles in."""
    return tuple(name for (name, _pids), on in zip(OPTIONAL, families, strict=True)
                 if on is not None)


# ----------------------------------------------------------------------------- the doors
# What the engine calls: each unpacks ``families`` into its twin's arguments (one element now,
# the expert's switch). Inlined into the caller's IR: never compiled on their own.
@deal_ir_inline
def decide_exchange(pid, P, families, st, seat, R, T, out):
    dispatch_exchange(pid, P, families[0], st, seat, R, T, out)


@deal_ir_inline
def decide_void(pid, P, families, st, seat, R, T):
    """The void suit; a family may also choose its plan here (the hand is final)."""
    return dispatch_void(pid, P, families[0], st, seat, R, T)


@deal_ir_inline
def decide_plan(pid, P, families, st, seat, R, T):
    """The seat's plan for the hand and void it holds (a deal started from a position)."""
    dispatch_plan(pid, P, families[0], st, seat, R, T)


@deal_ir_inline
def decide_discard(pid, P, families, st, seat, R, T):
    return dispatch_discard(pid, P, families[0], st, seat, R, T)


@deal_ir_inline
def decide_self_win(pid, P, families, st, seat, tile, fan, wall_left, R):
    return dispatch_self_win(pid, P, families[0], st, seat, tile, fan, wall_left, R)


@deal_ir_inline
def decide_discard_win(pid, P, families, st, seat, tile, fan, wall_left, claimable, R, T):
    """``claimable``: the tile may be claimed (pung or kong) if every seat passes the win."""
    return dispatch_discard_win(pid, P, families[0], st, seat, tile, fan, wall_left, claimable,
                                R, T)


@deal_ir_inline
def decide_claim(pid, P, families, st, seat, tile, can_kong, R, T):
    return dispatch_claim(pid, P, families[0], st, seat, tile, can_kong, R, T)


@deal_ir_inline
def decide_kong(pid, P, families, st, seat, last_drawn, R, T):
    return dispatch_kong(pid, P, families[0], st, seat, last_drawn, R, T)


# ----------------------------------------------------------------------------- by family
@deal_njit
def fixed_exchange(h, code, out):
    """The three tiles of a ``give=`` option (spec.give_code) into ``out`` when hand ``h``
    holds them; False (``out`` untouched) when it does not."""
    c = np.int64(code) - 1
    t0, t1, t2 = c % 27, c // 27 % 27, c // 729
    n0 = 1 + (t1 == t0) + (t2 == t0)
    n1 = 1 + (t0 == t1) + (t2 == t1)
    n2 = 1 + (t0 == t2) + (t1 == t2)
    if h[t0] < n0 or h[t1] < n1 or h[t2] < n2:
        return False
    out[0], out[1], out[2] = t0, t1, t2
    return True


@deal_njit
def dispatch_exchange(pid, P, with_expert, st, seat, R, T, out):
    if P[O_GIVE] > 0 and fixed_exchange(st.hand[seat], P[O_GIVE], out):
        return
    if pid == POLICY_RANDOM:
        random.choose_exchange(st, seat, P, R, T, out)
    elif pid == POLICY_EXPERT:
        if with_expert is not None:
            expert.choose_exchange(st, seat, P, R, T, out)
    else:
        greedy.choose_exchange(st, seat, P, R, T, out)


@deal_njit
def dispatch_void(pid, P, with_expert, st, seat, R, T):
    if pid == POLICY_RANDOM:
        return random.choose_void(st, seat, P, R, T)
    if pid == POLICY_EXPERT:
        if with_expert is not None:
            return expert.choose_void(st, seat, P, R, T)
        return 0
    return greedy.choose_void(st, seat, P, R, T, pid)


@deal_inline
def dispatch_plan(pid, P, with_expert, st, seat, R, T):
    if pid == POLICY_RANDOM or pid == POLICY_EXPERT or pid == POLICY_FORCED:  # noqa: SIM109
        return  # no per-seat memory
    greedy.choose_plan(st, seat, P, R, T, pid)


@deal_inline
def dispatch_discard(pid, P, with_expert, st, seat, R, T):
    if pid == POLICY_FORCED:
        return forced.choose_discard(st, seat)
    if pid == POLICY_RANDOM:
        return random.choose_discard(st, seat, P, R, T)
    if pid == POLICY_EXPERT:
        if with_expert is not None:
            return expert.choose_discard(st, seat, P, R, T)
        return -1
    return greedy.choose_discard(st, seat, P, R, T)


@deal_inline
def dispatch_self_win(pid, P, with_expert, st, seat, tile, fan, wall_left, R):
    if pid == POLICY_FORCED:
        return forced.take_win(st, seat, forced.FORCE_SELF_WIN)
    if pid == POLICY_RANDOM:
        return random.take_win(st, seat)
    if pid == POLICY_EXPERT:
        if with_expert is not None:
            return expert.take_win(st, seat, P, fan, wall_left)
        return False
    return greedy.take_win(st, seat, P, fan, wall_left)


@deal_inline
def dispatch_discard_win(pid, P, with_expert, st, seat, tile, fan, wall_left, claimable, R, T):
    if pid == POLICY_FORCED:
        return forced.take_win(st, seat, forced.FORCE_WIN)
    if pid == POLICY_RANDOM:
        return random.take_win(st, seat)
    if pid == POLICY_EXPERT:
        if with_expert is not None:
            return expert.take_discard_win(st, seat, P, tile, fan, claimable, R, T)
        return False
    return greedy.take_win(st, seat, P, fan, wall_left)


@deal_inline
def dispatch_claim(pid, P, with_expert, st, seat, tile, can_kong, R, T):
    if pid == POLICY_FORCED:
        return forced.choose_claim(st, seat)
    if pid == POLICY_RANDOM:
        return random.choose_claim(st, seat, P, tile, can_kong, R, T)
    if pid == POLICY_EXPERT:
        if with_expert is not None:
            return expert.choose_claim(st, seat, P, tile, can_kong, R, T)
        return CLAIM_PASS
    return greedy.choose_claim(st, seat, P, tile, can_kong, R, T)


@deal_inline
def dispatch_kong(pid, P, with_expert, st, seat, last_drawn, R, T):
    candidates = kong_mask(st, seat)
    if candidates == 0:  # the common case, decided here: the kong choice itself is out of line
        return -1
    if pid == POLICY_FORCED:
        return forced.choose_kong(st, seat)
    if pid == POLICY_RANDOM:
        return random.choose_kong(st, seat, P, R, T, candidates)
    if pid == POLICY_EXPERT:
        if with_expert is not None:
            return expert.choose_kong(st, seat, P, R, T, candidates)
        return -1
    return greedy.choose_kong(st, seat, P, R, T, candidates)
