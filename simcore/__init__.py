"""simcore: Monte Carlo simulation and statistics for Sichuan mahjong (血战到底)."""

from __future__ import annotations

__version__ = "0.1.0"
