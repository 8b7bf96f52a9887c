"""Helpers for testing simcore and code built on it, shipped with the package.

- :mod:`simcore.testing.policy`: :func:`check_policy`, the contract every policy must pass
  (invariants on every deal, chunking never changes a deal, replay equals batch, bad options
  are errors);
- :mod:`simcore.testing.synthetic`: synthetic record arrays and run directories (no engine, no
  numba), for analysis tests and benchmarks: :func:`synthetic_records`, :func:`hand_records`,
  :func:`write_synthetic_run`.

Submodules are imported on first use, so ``import simcore.testing`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from simcore.testing.policy import PolicyCheck, check_policy
    from simcore.testing.synthetic import hand_records, synthetic_records, write_synthetic_run

__all__ = ["PolicyCheck", "check_policy", "hand_records", "synthetic_records",
           "write_synthetic_run"]
_POLICY = ("PolicyCheck", "check_policy")
_SYNTHETIC = ("hand_records", "synthetic_records", "write_synthetic_run")


def __getattr__(name: str) -> object:
    if name in _POLICY:
        from simcore.testing import policy

        return getattr(policy, name)
    if name in _SYNTHETIC:
        from simcore.testing import synthetic

        return getattr(synthetic, name)
    raise AttributeError(f"module 'simcore.testing' has no attribute {name!r}")
