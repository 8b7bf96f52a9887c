"""simcore: Monte Carlo simulation and statistics for Sichuan mahjong (血战到底).

``import simcore`` is light (no numba, no pandas, no pyarrow): ``simcore.run``, ``simcore.load``,
``simcore.load_wins``,
``simcore.whatif``, ``simcore.advise``, ``simcore.decide`` and ``simcore.tune`` (functions),
``simcore.Position`` (a class)
and the subpackages (``simcore.analysis``, ``simcore.scoring``, ``simcore.engine``...) are
imported on first attribute access (PEP 562).
"""

from __future__ import annotations

import importlib

from simcore._version import __version__ as __version__

# modules reachable as attributes of the package without importing them first
SUBMODULES = {
    "advice": "simcore.advice", "analysis": "simcore.analysis", "engine": "simcore.engine",
    "experiments": "simcore.experiments", "hand": "simcore.hand", "records": "simcore.records",
    "reference": "simcore.hand.reference", "rules": "simcore.rules", "runner": "simcore.runner",
    "scoring": "simcore.scoring", "tables": "simcore.hand.tables", "testing": "simcore.testing",
    "tiles": "simcore.tiles", "tuning": "simcore.tuning",
}


def __getattr__(name: str) -> object:
    if name in ("run", "load", "load_wins"):
        from simcore import runner

        return getattr(runner, name)
    if name == "whatif":
        from simcore.rollouts import whatif

        return whatif
    if name in ("advise", "decide"):
        from simcore.advice import advisor

        return getattr(advisor, name)
    if name == "Position":
        from simcore.advice.position import Position

        return Position
    if name == "tune":
        from simcore.tuning import tune

        return tune
    if name in SUBMODULES:
        return importlib.import_module(SUBMODULES[name])
    raise AttributeError(f"module 'simcore' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), "run", "load", "load_wins", "whatif", "tune", "Position",
                "advise", "decide",
                   *SUBMODULES})
