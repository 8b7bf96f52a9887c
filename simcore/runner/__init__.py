"""Batch runs to Parquet: resumable, on local processes or a Dask cluster.

Example (writes ``data/runs/classic-speed-s1-n100000``)::

    import simcore
    ds = simcore.run(100_000, rules="classic", policies="speed", seed=1)
    df, meta = simcore.load(ds.path)    # or pandas.read_parquet(ds.path) for the records

Modules: :mod:`~simcore.runner.plan` (parameters, chunk plan, statistics),
:mod:`~simcore.runner.store` (directory layout, crash-safe writes, :class:`Dataset`),
:mod:`~simcore.runner.execute` (serial / process pool / Dask backends) and
:mod:`~simcore.runner.driver` (:func:`run`).
"""

from __future__ import annotations

from simcore.runner.driver import (
    DEFAULT_POLICY,
    DEFAULT_RUNS_DIR,
    RunInterrupted,
    run,
)
from simcore.runner.plan import DEFAULT_CHUNK_SIZE, RunPlan
from simcore.runner.store import META_NAME, Dataset, load, load_wins

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "DEFAULT_POLICY",
    "DEFAULT_RUNS_DIR",
    "META_NAME",
    "Dataset",
    "RunInterrupted",
    "RunPlan",
    "load",
    "load_wins",
    "run",
]
