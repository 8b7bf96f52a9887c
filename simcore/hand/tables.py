"""Per-suit lookup tables for shanten, completeness, waits and useful tiles.

A suit's nine counts ``c_0..c_8`` (ranks 1..9, each 0..4) make one base-5 key
``sum(c_r * 5**r)`` (5**9 = 1,953,125 keys). For each of the 405,350 keys holding at most 14
tiles the table stores, for ``m`` in 0..4 melds and ``p`` in 0..1 pairs:

- ``d[m][p]``: the fewest tiles to add so that the suit contains ``m`` melds (triplets or runs)
  plus ``p`` pairs, the target holding at most 4 copies of each rank (extra tiles are allowed;
  always possible, at most ``3m + 2p``);
- ``mask[m][p]``: a 9-bit set of the ranks ``r`` with ``c_r < 4`` whose addition lowers
  ``d[m][p]`` by one (for ukeire and waits).

Layout (PERFORMANCE.md: one random access per suit for shanten, one cache line per key):

- ``packed``: ``uint64[5**9]``, one word per key (every key, even those of more than 14
  tiles): bits ``4*s .. 4*s+3`` hold ``d`` of slot ``s = 2*m + p`` (``d <= 14`` fits a nibble)
  and bits 40..58 the key's row, :data:`NO_ROW` (``0x7FFFF``) for keys of more than 14 tiles.
  Shanten reads only this array (15.6 MB).
- ``rows``: ``uint8[405350, 32]``, 64-byte aligned, one 32-byte row per key of at most 14
  tiles in ascending key order: bytes ``0..19`` are the ten ``uint16`` masks (slot
  ``2*m + p``), bytes ``20..29`` the ten ``d`` values (a copy, for readers), bytes 30..31 zero;
  ``masks`` is the same buffer viewed as ``uint16[405350, 16]`` (ukeire and waits read it).
- ``index``: ``int32[5**9]`` key -> row, -1 for keys of more than 14 tiles; derived from
  ``packed`` on load, for Python readers (the kernels do not use it).

The generator is a numba dynamic programme over keys, not an enumeration of targets (the tests
regenerate a slice by brute-force target enumeration): first ``contains(c)``, the set of
``(m, p)`` that ``c`` already contains, by removing one group (keys ascending); then
``d(c) = 0`` if contained, else ``1 + min_r d(c + e_r)`` over ranks with ``c_r < 4`` (keys
descending), and ``mask(c) = {r : d(c + e_r) = d(c) - 1}``.

The tables are built once (a few seconds) and cached on disk in ``$SIMCORE_CACHE_DIR`` or
``~/.cache/simcore``, in a file whose name carries :data:`GENERATOR_VERSION`; a cached file is
used only if its SHA-256 matches the one in its header and :data:`TABLE_SHA256`, otherwise it is
rebuilt. Nothing generated is committed.

>>> t = load_tables()
>>> key = suit_key([1, 1, 1, 0, 0, 0, 0, 0, 0])  # 123 of a suit
>>> distance(t, key, 1, 0), distance(t, key, 1, 1), distance(t, key, 2, 0)
(0, 2, 3)
>>> mask_ranks(t, suit_key([0, 1, 1, 0, 0, 0, 0, 0, 0]), 1, 0)  # 23: adding 1 or 4 makes a run
[0, 3]
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np

from simcore._jit import kernel

GENERATOR_VERSION = 1  # bump whenever the generator or the layout changes (and TABLE_SHA256)
# SHA-256 of packed.tobytes() + rows.tobytes() (little-endian) as built by GENERATOR_VERSION; a
# cached file must match it, and a fresh build that does not is an error.
TABLE_SHA256 = "cf0b3ff75b052cc2e5e1e239f70b7ca577496876ba6cd61bcc9c26f010556b8e"

N_KEYS = 5**9  # 1,953,125
N_ROWS = 405_350  # keys holding at most 14 tiles
MAX_SUIT_TILES = 14
N_SLOTS = 10  # (m, p) slots, slot = 2 * m + p, m in 0..4, p in 0..1
ROW_BYTES = 32
D_OFFSET = 20  # byte offset of the d values in a row (masks are bytes 0..19)
ROW_SHIFT = 40  # bit offset of the row number in a packed word
NO_ROW = 0x7FFFF  # row field of keys of more than 14 tiles
POW5 = np.array([5**r for r in range(9)], dtype=np.int64)

_MAGIC = b"SIMCORE-SUIT-TABLES\0"
_HEADER_BYTES = 64  # magic (20) + version uint32 + n_rows uint32 + sha256 (32) + padding (4)
_PAYLOAD_BYTES = N_KEYS * 8 + N_ROWS * ROW_BYTES
_ENV_DIR = "SIMCORE_CACHE_DIR"


class SuitTables(NamedTuple):
    """The loaded tables (read-only arrays); kernels take ``packed`` and ``masks`` as arguments."""

    packed: np.ndarray  # uint64[5**9]: d nibbles (bits 0..39) and the row (bits 40..58)
    rows: np.ndarray  # uint8[N_ROWS, 32]: masks (bytes 0..19) then d values (bytes 20..29)
    masks: np.ndarray  # uint16[N_ROWS, 16]: the rows' buffer; masks[row, 2*m + p]
    # int32[5**9]: key -> row, -1 when the key holds more than 14 tiles (a field named like
    # tuple.index, which it hides: a public name kept)
    index: np.ndarray  # type: ignore[assignment]


def suit_key(counts: Sequence[int] | np.ndarray) -> int:
    """Base-5 key of one suit's nine counts.

    >>> suit_key([1, 0, 0, 0, 0, 0, 0, 0, 2])
    781251
    """
    arr = np.asarray(counts)
    if arr.shape != (9,) or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"a suit has 9 integer counts, got shape {arr.shape} of dtype {arr.dtype}")
    bad = np.flatnonzero((arr < 0) | (arr > 4))
    if bad.size:
        raise ValueError(f"count of rank {int(bad[0]) + 1} must be 0..4, got {int(arr[bad[0]])}")
    return int(np.dot(arr.astype(np.int64), POW5))


def key_counts(key: int) -> np.ndarray:
    """The nine counts of a key (inverse of :func:`suit_key`).

    >>> key_counts(781251).tolist()
    [1, 0, 0, 0, 0, 0, 0, 0, 2]
    """
    _check_key(key)
    return (int(key) // POW5) % 5


def distance(tables: SuitTables, key: int, m: int, p: int) -> int:
    """``d[m][p]`` of a key: tiles to add for ``m`` melds and ``p`` pairs."""
    _check_key(key)
    _check_slot(m, p)
    return int(tables.packed[key]) >> (4 * (2 * m + p)) & 15


def mask_ranks(tables: SuitTables, key: int, m: int, p: int) -> list[int]:
    """Ranks (0..8) whose addition lowers ``d[m][p]`` of a key (of at most 14 tiles) by one."""
    _check_key(key)
    _check_slot(m, p)
    row = int(tables.index[key])
    if row < 0:
        raise ValueError(f"key {key} holds more than {MAX_SUIT_TILES} tiles: no mask row")
    bits = int(tables.masks[row, 2 * m + p])
    return [r for r in range(9) if bits >> r & 1]


def _check_key(key: object) -> None:
    if isinstance(key, bool) or not isinstance(key, int | np.integer) or not 0 <= key < N_KEYS:
        raise ValueError(f"a suit key is an integer 0..{N_KEYS - 1}, got {key!r}")


def _check_slot(m: int, p: int) -> None:
    if not 0 <= m <= 4 or p not in (0, 1):
        raise ValueError(f"(m, p) must have m in 0..4 and p in 0..1, got ({m}, {p})")


# --------------------------------------------------------------------------------------------
# building


def build_tables() -> SuitTables:
    """Generate the tables (numba DP: well under a second once numba has cached the kernels)."""
    contains = np.zeros(N_KEYS, dtype=np.uint16)
    _fill_contains(contains, POW5)
    dist = np.zeros((N_KEYS, N_SLOTS), dtype=np.uint8)
    _fill_distances(contains, dist, POW5)
    packed = np.zeros(N_KEYS, dtype=np.uint64)
    rows = _aligned_rows(N_ROWS)
    n = _pack_rows(dist, packed, rows, rows.view(np.uint16), POW5)
    if n != N_ROWS:  # pragma: no cover - a generator bug
        raise RuntimeError(f"table generator made {n} rows, expected {N_ROWS}")
    return _freeze(packed, rows)


def table_sha256(packed: np.ndarray, rows: np.ndarray) -> str:
    """Hex SHA-256 of the table content (the value pinned in :data:`TABLE_SHA256`)."""
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(packed, dtype="<u8").tobytes())
    h.update(np.ascontiguousarray(rows, dtype=np.uint8).tobytes())
    return h.hexdigest()


def _aligned_rows(n_rows: int) -> np.ndarray:
    """A zeroed ``uint8[n_rows, 32]`` whose rows start on 64-byte boundaries (one cache line)."""
    raw = np.zeros(n_rows * ROW_BYTES + 64, dtype=np.uint8)
    start = (-raw.ctypes.data) % 64
    return raw[start : start + n_rows * ROW_BYTES].reshape(n_rows, ROW_BYTES)


def _freeze(packed: np.ndarray, rows: np.ndarray) -> SuitTables:
    row = (packed >> np.uint64(ROW_SHIFT)).astype(np.int32)
    index = np.where(row == NO_ROW, -1, row).astype(np.int32)
    masks = rows.view(np.uint16)
    for a in (packed, rows, masks, index):
        a.flags.writeable = False
    return SuitTables(packed, rows, masks, index)


# --------------------------------------------------------------------------------------------
# disk cache


def cache_dir() -> Path:
    """``$SIMCORE_CACHE_DIR`` if set, else ``~/.cache/simcore``."""
    env = os.environ.get(_ENV_DIR)
    return Path(env) if env else Path.home() / ".cache" / "simcore"


def cache_path() -> Path:
    """The cache file of the current :data:`GENERATOR_VERSION`."""
    return cache_dir() / f"suit_tables_v{GENERATOR_VERSION}.bin"


def write_cache(tables: SuitTables, path: Path | None = None) -> Path:
    """Write the tables atomically (temporary file in the same folder, then ``os.replace``)."""
    path = cache_path() if path is None else Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    header = bytearray(_HEADER_BYTES)
    header[: len(_MAGIC)] = _MAGIC
    header[20:24] = GENERATOR_VERSION.to_bytes(4, "little")
    header[24:28] = N_ROWS.to_bytes(4, "little")
    header[28:60] = bytes.fromhex(table_sha256(tables.packed, tables.rows))
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(bytes(header))
            f.write(np.ascontiguousarray(tables.packed, dtype="<u8").tobytes())
            f.write(np.ascontiguousarray(tables.rows).tobytes())
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def read_cache(path: Path | None = None) -> SuitTables | None:
    """The cached tables, or None when the file is missing, of another version or corrupt."""
    path = cache_path() if path is None else Path(path)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) != _HEADER_BYTES + _PAYLOAD_BYTES or data[: len(_MAGIC)] != _MAGIC:
        return None
    if int.from_bytes(data[20:24], "little") != GENERATOR_VERSION:
        return None
    if int.from_bytes(data[24:28], "little") != N_ROWS:
        return None
    payload = memoryview(data)[_HEADER_BYTES:]
    actual = hashlib.sha256(payload).hexdigest()
    if actual != data[28:60].hex() or actual != TABLE_SHA256:
        return None
    packed = np.frombuffer(payload[: N_KEYS * 8], dtype="<u8").astype(np.uint64)
    rows = _aligned_rows(N_ROWS)
    rows[:] = np.frombuffer(payload[N_KEYS * 8 :], dtype=np.uint8).reshape(N_ROWS, ROW_BYTES)
    return _freeze(packed, rows)


_lock = threading.Lock()
_loaded: SuitTables | None = None


def load_tables(*, rebuild: bool = False) -> SuitTables:
    """The tables, memoized in the process: from the disk cache, else built and cached.

    A cache file that is missing, truncated, corrupt, of another generator version or whose
    checksum does not match is rebuilt and replaced. An unwritable cache folder only warns.
    """
    global _loaded
    with _lock:
        if _loaded is not None and not rebuild:
            return _loaded
        tables = None if rebuild else read_cache()
        if tables is None:
            tables = build_tables()
            actual = table_sha256(tables.packed, tables.rows)
            if actual != TABLE_SHA256:
                raise RuntimeError(
                    f"suit table content changed (sha256 {actual}, expected {TABLE_SHA256}): "
                    "bump GENERATOR_VERSION and TABLE_SHA256 in simcore/hand/tables.py"
                )
            try:
                write_cache(tables)
            except OSError as exc:
                warnings.warn(f"could not cache suit tables in {cache_dir()}: {exc}", stacklevel=2)
        _loaded = tables
        return tables


# --------------------------------------------------------------------------------------------
# kernels

_FULL = 0x3FF  # all ten (m, p) slots
_NO_PAIR_SLOTS = 0x155  # slots 2*m + 0


@kernel
def _fill_contains(contains, pow5):
    """``contains[key]``: bit ``2*m + p`` set when the key's tiles contain m melds + p pairs.

    Keys ascending: a key contains (m, p) != (0, 0) iff removing some triplet, run or pair leaves
    a key that contains the rest.
    """
    c = np.zeros(9, dtype=np.int64)
    for key in range(contains.shape[0]):
        x = key
        for r in range(9):
            c[r] = x % 5
            x //= 5
        bits = 1
        for r in range(9):
            if c[r] >= 3:
                bits |= (contains[key - 3 * pow5[r]] << 2) & _FULL
            if c[r] >= 2:
                bits |= (contains[key - 2 * pow5[r]] & _NO_PAIR_SLOTS) << 1
            if r <= 6 and c[r] >= 1 and c[r + 1] >= 1 and c[r + 2] >= 1:
                sub = key - pow5[r] - pow5[r + 1] - pow5[r + 2]
                bits |= (contains[sub] << 2) & _FULL
        contains[key] = bits


@kernel
def _fill_distances(contains, dist, pow5):
    """``dist[key, slot]``: 0 when contained, else one more than the best single addition.

    Keys descending, so ``key + 5**r`` (one more tile of rank r) is already done; the all-fours
    key contains every slot, so every other key has a rank to add.
    """
    c = np.zeros(9, dtype=np.int64)
    for key in range(dist.shape[0] - 1, -1, -1):
        x = key
        for r in range(9):
            c[r] = x % 5
            x //= 5
        bits = contains[key]
        for slot in range(10):
            if bits >> slot & 1:
                dist[key, slot] = 0
                continue
            best = 255
            for r in range(9):
                if c[r] < 4:
                    best = min(best, dist[key + pow5[r], slot])
            dist[key, slot] = best + 1


@kernel
def _pack_rows(dist, packed, rows, masks, pow5):
    """Fill ``packed`` for every key and a row (d values, masks) for keys of <= 14 tiles."""
    c = np.zeros(9, dtype=np.int64)
    n = 0
    for key in range(dist.shape[0]):
        x = key
        total = 0
        for r in range(9):
            c[r] = x % 5
            x //= 5
            total += c[r]
        word = np.uint64(0)
        for slot in range(10):
            word |= np.uint64(dist[key, slot]) << np.uint64(4 * slot)
        if total > 14:
            packed[key] = word | (np.uint64(NO_ROW) << np.uint64(ROW_SHIFT))
            continue
        packed[key] = word | (np.uint64(n) << np.uint64(ROW_SHIFT))
        for slot in range(10):
            d = dist[key, slot]
            rows[n, D_OFFSET + slot] = d
            bits = 0
            if d > 0:
                for r in range(9):
                    if c[r] < 4 and dist[key + pow5[r], slot] + 1 == d:
                        bits |= 1 << r
            masks[n, slot] = bits
        n += 1
    return n
