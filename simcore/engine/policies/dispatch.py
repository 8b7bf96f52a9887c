"""The one place where a seat's policy id chooses its family's decision (the interface is in
:mod:`simcore.engine.policies`). The engine calls only these ``decide_*`` functions.

``with_expert`` is ``None`` when no seat of the call plays the expert family. Numba prunes a
branch on an argument's ``is None`` before typing it, so the expert's functions are then
neither typed nor compiled: a run of the greedy family compiles in about half the time of one
that needs the expert (a cold cache compiles one kernel per case, each once per machine).
:func:`.kernel.call` passes an array exactly when some seat plays expert, so the ``-1`` /
``False`` fall-throughs below are never taken.
"""

from __future__ import annotations

from simcore.engine.compile.jit import deal_inline, deal_njit
from simcore.engine.policies import expert, greedy, random
from simcore.engine.policies.common import CLAIM_PASS, kong_mask
from simcore.engine.policies.expert_options import POLICY_EXPERT
from simcore.engine.policies.random_options import POLICY_RANDOM


@deal_njit
def decide_exchange(pid, P, with_expert, st, seat, R, T, out):
    if pid == POLICY_RANDOM:
        random.choose_exchange(st, seat, P, R, T, out)
    elif pid == POLICY_EXPERT:
        if with_expert is not None:
            expert.choose_exchange(st, seat, P, R, T, out)
    else:
        greedy.choose_exchange(st, seat, P, R, T, out)


@deal_njit
def decide_void(pid, P, with_expert, st, seat, R, T):
    """The void suit; a family may also choose its plan here (the hand is final)."""
    if pid == POLICY_RANDOM:
        return random.choose_void(st, seat, P, R, T)
    if pid == POLICY_EXPERT:
        if with_expert is not None:
            return expert.choose_void(st, seat, P, R, T)
        return 0
    return greedy.choose_void(st, seat, P, R, T, pid)


@deal_inline
def decide_discard(pid, P, with_expert, st, seat, R, T):
    if pid == POLICY_RANDOM:
        return random.choose_discard(st, seat, P, R, T)
    if pid == POLICY_EXPERT:
        if with_expert is not None:
            return expert.choose_discard(st, seat, P, R, T)
        return -1
    return greedy.choose_discard(st, seat, P, R, T)


@deal_inline
def decide_self_win(pid, P, with_expert, st, seat, tile, fan, wall_left, R):
    if pid == POLICY_RANDOM:
        return random.take_win(st, seat)
    if pid == POLICY_EXPERT:
        if with_expert is not None:
            return expert.take_win(st, seat, P, fan, wall_left)
        return False
    return greedy.take_win(st, seat, P, fan, wall_left)


@deal_inline
def decide_discard_win(pid, P, with_expert, st, seat, tile, fan, wall_left, R):
    if pid == POLICY_RANDOM:
        return random.take_win(st, seat)
    if pid == POLICY_EXPERT:
        if with_expert is not None:
            return expert.take_discard_win(st, seat, P, fan, R)
        return False
    return greedy.take_win(st, seat, P, fan, wall_left)


@deal_inline
def decide_claim(pid, P, with_expert, st, seat, tile, can_kong, R, T):
    if pid == POLICY_RANDOM:
        return random.choose_claim(st, seat, P, tile, can_kong, R, T)
    if pid == POLICY_EXPERT:
        if with_expert is not None:
            return expert.choose_claim(st, seat, P, tile, can_kong, R, T)
        return CLAIM_PASS
    return greedy.choose_claim(st, seat, P, tile, can_kong, R, T)


@deal_inline
def decide_kong(pid, P, with_expert, st, seat, last_drawn, R, T):
    candidates = kong_mask(st, seat)
    if candidates == 0:  # the common case, decided here: the kong choice itself is out of line
        return -1
    if pid == POLICY_RANDOM:
        return random.choose_kong(st, seat, P, R, T, candidates)
    if pid == POLICY_EXPERT:
        if with_expert is not None:
            return expert.choose_kong(st, seat, P, R, T, candidates)
        return -1
    return greedy.choose_kong(st, seat, P, R, T, candidates)
