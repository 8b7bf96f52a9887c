"""Registration of the ``highest`` example policy (tests only; numba-free)."""

from __future__ import annotations

from simcore.engine.policies.registry import PolicyDef, register

POLICY_HIGHEST = 20  # any id no other policy has

register(PolicyDef("highest", POLICY_HIGHEST,
                   "example family (tests only): discard the highest-ranked legal tile, void the "
                   "suit with fewest tiles, pass every claim, never kong, win whenever allowed",
                   family="highest"))
