"""Helpers for testing simcore and code built on it: the policy contract (:mod:`.policy`).

``import simcore.testing`` stays light: the engine is imported on the first use of
:func:`check_policy`.
"""

from __future__ import annotations

__all__ = ["PolicyCheck", "check_policy"]


def __getattr__(name: str) -> object:
    if name in __all__:
        from simcore.testing import policy

        return getattr(policy, name)
    raise AttributeError(f"module 'simcore.testing' has no attribute {name!r}")
