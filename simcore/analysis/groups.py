"""Vectorized group-bys over a batch, and accumulation of group sums across batches.

A pipeline turns each batch into a small DataFrame of per-group sums (:func:`group_sums`: one
``np.bincount`` per summed column over a mixed-radix group code) and a :class:`SumTable` adds the
partial frames up. Only the sums travel between batches, so memory does not grow with the run.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from simcore._input import did_you_mean
from simcore.analysis.io import Batch

# Columns that are equal on the four rows of a deal; other grouping columns of a per-deal
# statistic take the label ALL unless the four players of a deal happen to share their value.
DEAL_COLUMNS = frozenset(
    {"preset", "deal", "wall", "rotation", "exchange_dir", "wall_left", "winners"}
)
ALL = "(all)"
# above this many possible groups, factorize instead of a dense mixed-radix bincount
_MAX_DENSE_GROUPS = 1 << 22


@dataclass(frozen=True)
class Key:
    """A grouping column of a batch: integer ``codes`` into ``labels``."""

    name: str
    codes: np.ndarray
    labels: list[Any]


def column_key(batch: Batch, name: str) -> Key:
    """Group codes of column ``name`` (categories, booleans or a small integer range)."""
    values = batch[name]
    if name in batch.cats:
        return Key(name, values.astype(np.int64, copy=False), list(batch.cats[name]))
    if values.dtype == np.bool_:
        return Key(name, values.astype(np.int64), [False, True])
    return array_key(name, values)


def array_key(name: str, values: np.ndarray) -> Key:
    """Group codes of integer ``values``: offsets into their range when it is small (no sort),
    else ranks among the distinct values."""
    if len(values) == 0:
        return Key(name, values.astype(np.int64), [])
    lo, hi = int(values.min()), int(values.max())
    if hi - lo < max(1024, len(values)):
        return Key(name, values.astype(np.int64) - lo, list(range(lo, hi + 1)))
    uniques, codes = np.unique(values, return_inverse=True)
    return Key(name, codes.astype(np.int64), [int(u) for u in uniques])


def const_key(name: str, n: int, label: Any) -> Key:
    """A grouping column with the same ``label`` on all ``n`` rows."""
    return Key(name, np.zeros(n, dtype=np.int64), [label])


def check_by(by: str | Sequence[str], allowed: Sequence[str]) -> tuple[str, ...]:
    """``by`` as a tuple of names from ``allowed`` (a single name is accepted)."""
    names = (by,) if isinstance(by, str) else tuple(by)
    for name in names:
        if not isinstance(name, str) or name not in allowed:
            raise ValueError(
                f"cannot group by {name!r}: not a column of the run"
                f"{did_you_mean(name, allowed)} ({', '.join(allowed)})"
            )
    if len(set(names)) != len(names):
        raise ValueError(f"grouping columns repeat: {list(names)}")
    return names


def group_sums(keys: Sequence[Key], values: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """Per observed group of ``keys``: the labels, ``n`` (rows) and the sum of each value array."""
    n_rows = len(keys[0].codes) if keys else len(next(iter(values.values()), []))
    sizes = [max(len(k.labels), 1) for k in keys]
    if math.prod(sizes) >= 1 << 62:
        raise ValueError(f"too many groups to count: {' x '.join(map(str, sizes))}")
    if math.prod(sizes) <= _MAX_DENSE_GROUPS:
        flat = np.zeros(n_rows, dtype=np.int64)
        for key, size in zip(keys, sizes, strict=True):
            flat = flat * size + key.codes
        n_groups = math.prod(sizes)
        counts = np.bincount(flat, minlength=n_groups)
        present = np.flatnonzero(counts)
        label_index = np.unravel_index(present, sizes) if keys else ()
    else:  # many sparse groups: factorize the mixed-radix codes (they fit in int64)
        flat = np.zeros(n_rows, dtype=np.int64)
        for key, size in zip(keys, sizes, strict=True):
            flat = flat * size + key.codes
        uniques, flat = np.unique(flat, return_inverse=True)
        n_groups = len(uniques)
        counts = np.bincount(flat, minlength=n_groups)
        present = np.arange(n_groups)
        label_index = np.unravel_index(uniques, sizes)
    out: dict[str, Any] = {}
    for key, index in zip(keys, label_index, strict=True):
        out[key.name] = np.asarray(key.labels + [None], dtype=object)[index]
    out["n"] = counts[present]
    for name, v in values.items():
        weights = v if v.dtype == np.float64 else v.astype(np.float64)
        out[name] = np.bincount(flat, weights=weights, minlength=n_groups)[present]
    return pd.DataFrame(out)


class SumTable:
    """Adds up partial group-sum frames with the same key columns."""

    def __init__(self, keys: Sequence[str]) -> None:
        self.keys = list(keys)
        self._parts: list[pd.DataFrame] = []
        self._rows = 0

    def add(self, frame: pd.DataFrame) -> None:
        """Add one partial frame (key columns plus summed columns)."""
        if len(frame):
            self._parts.append(frame)
            self._rows += len(frame)
        if self._rows > 200_000:  # keep the pending partial frames small
            self._parts = [self.total()]
            self._rows = len(self._parts[0])

    def total(self) -> pd.DataFrame:
        """The summed frame, groups in order of first appearance."""
        if not self._parts:
            return pd.DataFrame(columns=[*self.keys, "n"])
        frame = pd.concat(self._parts, ignore_index=True)
        if not self.keys:
            return frame.sum().to_frame().T
        # object dtype keeps labels of mixed types (e.g. ints and "(all)") intact
        frame[self.keys] = frame[self.keys].astype(object)
        summed = frame.groupby(self.keys, sort=False, dropna=False).sum().reset_index()
        return summed


def deal_blocks(batch: Batch) -> Batch:
    """``batch`` with rows ordered so that each block of ``batch.players`` rows (4, or 3) is the
    players of one deal.

    Runs are written that way; other orders (a shuffled DataFrame) are sorted by (preset, deal,
    seat). A deal without exactly one row per seat is an error.
    """
    n = len(batch)
    players = batch.players
    if n % players == 0 and _is_blocked(batch):
        return batch
    keys = [batch["seat"], batch["deal"]]
    if "preset" in batch:
        keys.append(batch["preset"])
    out = batch.take(np.lexsort(keys))
    if n % players == 0 and _is_blocked(out):
        return out
    deal = out["deal"]
    _, first, counts = np.unique(deal, return_index=True, return_counts=True)
    odd = counts != players
    bad = int(deal[first[np.flatnonzero(odd)[0]]]) if np.any(odd) else int(deal[0])
    raise ValueError(
        f"deal {bad} does not have exactly one row per seat 0..{players - 1} (concatenated runs "
        "need a distinct preset column)"
    )


def _is_blocked(batch: Batch) -> bool:
    """True if every block of ``players`` rows is one deal with seats 0..players-1 in some
    order."""
    players = batch.players
    deal = batch["deal"].reshape(-1, players)
    if not (deal == deal[:, :1]).all():
        return False
    if "preset" in batch:
        preset = batch["preset"].reshape(-1, players)
        if not (preset == preset[:, :1]).all():
            return False
    seat = batch["seat"].astype(np.int64).reshape(-1, players)
    if np.any((seat < 0) | (seat >= players)):
        raise ValueError(f"seat values must lie in 0..{players - 1}, got "
                         f"{sorted(set(seat.ravel().tolist()))}")
    return bool(((1 << seat).sum(axis=1) == (1 << players) - 1).all())


def deal_keys(batch: Batch, by: Sequence[str]) -> list[Key]:
    """Per-deal grouping keys (``batch`` already in deal blocks): a column keeps its value when the
    four players of a deal share it (always for preset, or policy in a single-policy run), else
    the deal gets the label :data:`ALL`."""
    keys = []
    for name in by:
        key = column_key(batch, name)
        codes = key.codes.reshape(-1, batch.players)
        first = codes[:, 0]
        if name in DEAL_COLUMNS:
            keys.append(Key(name, first, key.labels))
            continue
        shared = (codes == first[:, None]).all(axis=1)
        keys.append(Key(name, np.where(shared, first, len(key.labels)), [*key.labels, ALL]))
    return keys


def moments(name: str, x: np.ndarray) -> dict[str, np.ndarray]:
    """``{name: x, name_sq: x**2}`` as float64, the sums a mean and its interval need."""
    x = x.astype(np.float64)
    return {name: x, f"{name}_sq": x * x}


def per_deal(values: np.ndarray, players: int = 4) -> np.ndarray:
    """The sum over the ``players`` rows of each deal (``values`` in deal blocks)."""
    return values.reshape(-1, players).sum(axis=1)


def cluster_moments(
    keys: Sequence[Key], cluster: np.ndarray, ratios: Mapping[str, tuple[np.ndarray, np.ndarray]]
) -> pd.DataFrame:
    """Per observed group of ``keys``: the sums a clustered ratio estimate needs.

    ``cluster`` labels each row's independent unit (its wall in a duplicate run, its deal
    otherwise); every cluster must lie wholly in this batch (batches hold whole walls when
    ``wall`` is read). For each ratio ``name: (y, x)`` of row values, the cluster totals
    ``y_c, x_c`` give columns ``name:y``, ``name:x``, ``name:yy``, ``name:xx``, ``name:xy``
    (sums over clusters of ``y_c``, ``x_c``, ``y_c**2``, ``x_c**2``, ``x_c y_c``) and
    ``name:y2`` (the sum of the row values ``y**2``, for the variance of independent rows);
    ``n`` counts the group's clusters. See :func:`simcore.analysis.stats.ratio_interval`.
    """
    n_rows = len(cluster)
    sizes = [max(len(k.labels), 1) for k in keys]
    flat = np.zeros(n_rows, dtype=np.int64)
    for key, size in zip(keys, sizes, strict=True):
        flat = flat * size + key.codes
    c = cluster.astype(np.int64)
    if n_rows:
        c = c - int(c.min())
    span = int(c.max()) + 1 if n_rows else 1
    _, first, inverse = np.unique(flat * span + c, return_index=True, return_inverse=True)
    units = len(first)
    unit_keys = [Key(k.name, k.codes[first], k.labels) for k in keys]
    values: dict[str, np.ndarray] = {}
    for name, (y, x) in ratios.items():
        y64, x64 = y.astype(np.float64), x.astype(np.float64)
        yc = np.bincount(inverse, weights=y64, minlength=units)
        xc = np.bincount(inverse, weights=x64, minlength=units)
        values.update({f"{name}:y": yc, f"{name}:x": xc, f"{name}:yy": yc * yc,
                       f"{name}:xx": xc * xc, f"{name}:xy": xc * yc,
                       f"{name}:y2": np.bincount(inverse, weights=y64 * y64, minlength=units)})
    return group_sums(unit_keys, values)
