"""The one place where a seat's policy id chooses its family's decision (the interface is in
:mod:`simcore.engine.policies`). The engine calls only these ``decide_*`` functions."""

from __future__ import annotations

from numba import njit

from simcore.engine.jit import deal_njit
from simcore.engine.policies import expert, greedy, random
from simcore.engine.policies.common import kong_mask
from simcore.engine.policies.expert_options import POLICY_EXPERT
from simcore.engine.policies.random_options import POLICY_RANDOM


@deal_njit
def decide_exchange(pid, P, st, seat, R, T, out):
    if pid == POLICY_RANDOM:
        random.choose_exchange(st, seat, P, R, T, out)
    elif pid == POLICY_EXPERT:
        expert.choose_exchange(st, seat, P, R, T, out)
    else:
        greedy.choose_exchange(st, seat, P, R, T, out)


@deal_njit
def decide_void(pid, P, st, seat, R, T):
    """The void suit; a family may also choose its plan here (the hand is final)."""
    if pid == POLICY_RANDOM:
        return random.choose_void(st, seat, P, R, T)
    if pid == POLICY_EXPERT:
        return expert.choose_void(st, seat, P, R, T)
    return greedy.choose_void(st, seat, P, R, T, pid)


@njit(inline="always")
def decide_discard(pid, P, st, seat, R, T):
    if pid == POLICY_RANDOM:
        return random.choose_discard(st, seat, P, R, T)
    if pid == POLICY_EXPERT:
        return expert.choose_discard(st, seat, P, R, T)
    return greedy.choose_discard(st, seat, P, R, T)


@njit(inline="always")
def decide_self_win(pid, P, st, seat, tile, fan, wall_left, R):
    if pid == POLICY_RANDOM:
        return random.take_win(st, seat)
    if pid == POLICY_EXPERT:
        return expert.take_win(st, seat, P, fan, wall_left)
    return greedy.take_win(st, seat, P, fan, wall_left)


@njit(inline="always")
def decide_discard_win(pid, P, st, seat, tile, fan, wall_left, R):
    if pid == POLICY_RANDOM:
        return random.take_win(st, seat)
    if pid == POLICY_EXPERT:
        return expert.take_win(st, seat, P, fan, wall_left)
    return greedy.take_win(st, seat, P, fan, wall_left)


@njit(inline="always")
def decide_claim(pid, P, st, seat, tile, can_kong, R, T):
    if pid == POLICY_RANDOM:
        return random.choose_claim(st, seat, P, tile, can_kong, R, T)
    if pid == POLICY_EXPERT:
        return expert.choose_claim(st, seat, P, tile, can_kong, R, T)
    return greedy.choose_claim(st, seat, P, tile, can_kong, R, T)


@njit(inline="always")
def decide_kong(pid, P, st, seat, last_drawn, R, T):
    candidates = kong_mask(st, seat)
    if candidates == 0:  # the common case, decided here: the kong choice itself is out of line
        return -1
    if pid == POLICY_RANDOM:
        return random.choose_kong(st, seat, P, R, T, candidates)
    if pid == POLICY_EXPERT:
        return expert.choose_kong(st, seat, P, R, T, candidates)
    return greedy.choose_kong(st, seat, P, R, T, candidates)
