"""The self-play engine: numba kernels for whole deals, a thin Python API around them."""

from __future__ import annotations

from simcore.engine.api import play, simulate
from simcore.engine.spec import parse_policies, policy_names

__all__ = ["parse_policies", "play", "policy_names", "simulate"]
