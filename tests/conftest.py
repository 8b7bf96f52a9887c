"""Test-wide settings: reproducible hypothesis runs without deadlines (numba compiles lazily)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "simcore",
    deadline=None,  # the first call of a numba kernel compiles for seconds
    derandomize=True,  # the same examples on every run: CI is reproducible
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("simcore")
