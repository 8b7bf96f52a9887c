"""Run directories written by hand (through the store, without the engine) for the report tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simcore.runner.store import encode_records, run_meta, write_meta, write_part
from simcore.testing.synthetic import synthetic_records


def write_run(
    path: Path, deals: int, policies: tuple[str, ...], duplicate: bool, **meta: object
) -> Path:
    """A run directory in the batch runner's layout: zstd parts of 100 deals and _run.json."""
    path.mkdir(parents=True)
    rng = np.random.default_rng(1)
    for index, start in enumerate(range(0, deals, 100)):
        rec = synthetic_records(100, rng, len(policies), duplicate, start=start)
        write_part(path, index, encode_records(rec, policies, "classic"))
    write_meta(path, run_meta(**{
        "rules": {"preset": "classic"}, "rules_id": "classic", "preset": "classic",
        "policies": list(policies),
        "seat_policies": [policies[s % len(policies)] for s in range(4)], "seed": 1,
        "deals": deals, "chunk_size": 100, "duplicate": duplicate, "complete": True,
        **meta,
    }))
    return path
