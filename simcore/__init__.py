"""simcore: Monte Carlo simulation and statistics for Sichuan mahjong (血战到底)."""

from __future__ import annotations

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """Lazy ``simcore.run`` / ``simcore.load`` / ``simcore.whatif``: ``import simcore`` stays
    light (no pyarrow, no numba)."""
    if name in ("run", "load"):
        from simcore import runner

        return getattr(runner, name)
    if name == "whatif":
        from simcore.rollouts import whatif

        return whatif
    raise AttributeError(f"module 'simcore' has no attribute {name!r}")
