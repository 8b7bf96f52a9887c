"""Writing a file so that it is either absent (or its old self) or complete: the run
directory's parts and metadata (runner/store.py) and the engine's compile reports."""

from __future__ import annotations

import os
from pathlib import Path


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that ``path`` is either absent/old or complete.

    The temporary sibling is hidden (ignored by pyarrow); fsync before the rename so a power
    loss cannot leave a renamed but empty file.
    """
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)  # make the rename itself durable
    finally:
        os.close(dir_fd)
