"""Registration of the ``random`` policy (numba-free)."""

from __future__ import annotations

from simcore.engine.policies.registry import PolicyDef, register

POLICY_RANDOM = 0

register(PolicyDef("random", POLICY_RANDOM,
                   "a uniformly random legal action at every decision (void-suit tiles first "
                   "when void_first); it has no options", family="random"))
