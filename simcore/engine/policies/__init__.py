"""Policies: the engine asks the seat's policy at every decision point.

One module per policy family, each providing the decisions of one interface, dispatched in one
place (:mod:`.dispatch`):

- ``exchange(st, seat, P, R, T, out)`` -> three tiles of one suit written to ``out``;
- ``void(st, seat, P, R, T)`` -> a suit 0..2 (a family may choose its plan here: the hand is
  final);
- ``discard(st, seat, P, R, T)`` -> a tile the player holds (a void-suit tile while holding one,
  under ``void_first``: :func:`.common.discard_mask`);
- ``self_win`` / ``discard_win(st, seat, P, tile, fan, wall_left, R)`` -> take the win or not
  (the engine forces wins under must-win-last-four and never asks about a win the passed-win
  rules forbid);
- ``claim(st, seat, P, tile, can_kong, R, T)`` -> ``CLAIM_PASS``, ``CLAIM_PUNG`` or
  ``CLAIM_KONG`` (asked only when legal);
- ``kong(st, seat, P, R, T)`` -> a tile to kong on one's own turn (concealed or added), or -1
  (asked only when :func:`.common.kong_mask` is not empty);
- ``plan(st, seat, P, R, T)`` -> nothing: a family with per-seat memory (a plan) sets it for the
  hand and void the seat holds, when a deal starts from a position instead of a deal
  (rollouts, :mod:`simcore.engine.rollout`); a family without memory does nothing.

``P`` is the seat's float parameter vector (the option slots of its family). The families:

- :mod:`.random` (``random``), registered in :mod:`.random_options`;
- :mod:`.greedy` with :mod:`.plans` (``speed``, ``flush``, ``pungs``, ``pairs``), registered in
  :mod:`.greedy_options`;
- :mod:`.expert` with :mod:`.expert_model` (``expert``), registered in :mod:`.expert_options`;
  an optional family, compiled only into a kernel that seats it (:mod:`.dispatch`); its slow
  Python twin is :mod:`.expert_reference`.

A new family is a module with these functions, a ``NAME_options`` module that registers its
policies (read by the spec grammar, ``simcore policies`` and the docs) and declares its per-seat
memory (``st.memory``, :func:`.registry.declare_memory`), its name in
:data:`.registry.FAMILIES` and one branch per decision in :mod:`.dispatch`
(docs/developer/add-policy.md).

This package module imports nothing: the option modules and :mod:`.registry` load without numba
(``simcore policies`` stays fast); the jitted code lives in the family modules.
"""
