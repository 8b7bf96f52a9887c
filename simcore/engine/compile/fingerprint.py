"""A fingerprint of the engine's sources, to key numba's disk cache of the entry kernels.

Numba checks only the file a cached kernel is defined in: a cached ``play_deals`` would keep
running old policy or scoring code after ``policies.py`` or ``_scoring.py`` change. Entry
kernels are therefore built by factories whose closure holds this fingerprint; numba hashes a
closure's cell contents into the cache key, so any change to the sources recompiles them once.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

# Engine modules that only drive the kernel from Python (no jitted code, no constant a kernel
# reads): editing them (the replay's text log, argument checks) must not recompile the engine.
PYTHON_ONLY = frozenset({"api.py", "replay.py", "expert_reference.py", "ensure.py"})


@cache
def engine_fingerprint() -> int:
    """A 60-bit hash of every source file the engine kernels are compiled from."""
    root = Path(__file__).resolve().parents[2]  # simcore/
    files = sorted(f for f in (root / "engine").rglob("*.py") if f.name not in PYTHON_ONLY)
    files += [root / name for name in ("_jit.py", "hand/scoring_kernels.py", "hand/kernels.py",
                                       "rules.py", "tiles.py", "hand/tables.py", "records.py")]
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())  # a missing file is an error, not an empty hash
    return int(digest.hexdigest()[:15], 16)
