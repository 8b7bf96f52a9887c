"""The self-play engine: numba kernels for whole deals, a thin Python API around them.

Importing the package is cheap: ``play`` and ``simulate`` (which load numba and the compiled
kernels) are attributes resolved on first use (PEP 562), so numba-free submodules such as
:mod:`simcore.engine.spec` (the policy grammar behind ``simcore policies``) import without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simcore.engine.spec import parse_policies, policy_names

if TYPE_CHECKING:
    from simcore.engine.api import play, simulate, simulate_wins

__all__ = ["parse_policies", "play", "policy_names", "simulate", "simulate_wins"]


def __getattr__(name: str) -> object:
    if name in ("play", "simulate", "simulate_wins"):
        from simcore.engine import api

        return getattr(api, name)
    raise AttributeError(f"module 'simcore.engine' has no attribute {name!r}")
