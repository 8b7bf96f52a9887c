"""Read a run chunk by chunk: only the columns a pipeline needs, as numpy arrays.

A *run* is one of

* a run directory written by the batch runner: a metadata file (``_run.json``, or ``run.json``)
  with ``"format": "simcore-run"`` and ``"format_version": 1``, plus ``part-NNNNNN.parquet`` files
  holding the columns of :func:`simcore.records.to_dataframe` (temporary files are ignored);
  the layout and the metadata checks are :mod:`simcore.runner.store`'s (:func:`open_run_dir`);
* any object with a ``.path`` attribute pointing at such a directory (the runner's ``Dataset``);
* a records DataFrame as made by :func:`simcore.records.to_dataframe`.

Nothing here imports :mod:`simcore.engine` (which loads numba): column names and category labels
come from the data itself.

:meth:`Run.batches` yields :class:`Batch` objects (numpy arrays; categorical columns as integer
codes plus their labels) of about a million rows, so a 10-million-deal run (40 M rows) never sits
in memory at once. Batches from a directory end on a wall boundary (on a deal boundary when the
``wall`` column is not read), so every deal, and every wall of a duplicate run, lies within one
batch.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds

from simcore.runner.store import open_run_dir, read_part_footer

# ~0.5 M rows per batch: large enough that per-batch Python overhead is negligible, small enough
# (tens of MB for the columns a report reads) to keep memory bounded.
TARGET_BATCH_ROWS = 1 << 19


@dataclass
class Batch:
    """Some whole deals of a run: ``cols[name]`` are numpy arrays of equal length.

    Categorical columns hold integer codes into ``cats[name]`` (their labels); ``players`` is
    the rows per deal (4, or 3 in the three-player variant).
    """

    cols: dict[str, np.ndarray]
    cats: dict[str, list[Any]] = field(default_factory=dict)
    players: int = 4

    def __len__(self) -> int:
        return len(next(iter(self.cols.values()))) if self.cols else 0

    def __getitem__(self, name: str) -> np.ndarray:
        return self.cols[name]

    def __contains__(self, name: object) -> bool:
        return name in self.cols

    def take(self, index: np.ndarray | slice, columns: Sequence[str] | None = None) -> Batch:
        """The rows at ``index`` (same categories), of all columns or only ``columns``."""
        names = self.cols if columns is None else dict.fromkeys(columns)
        return Batch({k: self.cols[k][index] for k in names},
                     {k: v for k, v in self.cats.items() if k in names}, self.players)


def concat_batches(first: Batch, second: Batch) -> Batch:
    """Rows of ``first`` then ``second``; categorical codes are remapped onto merged labels."""
    cols: dict[str, np.ndarray] = {}
    cats: dict[str, list[Any]] = {}
    for name, values in second.cols.items():
        head = first.cols[name]
        if name in second.cats:
            labels = list(first.cats[name])
            index = {label: i for i, label in enumerate(labels)}
            for label in second.cats[name]:
                if label not in index:
                    index[label] = len(labels)
                    labels.append(label)
            remap = np.array([index[label] for label in second.cats[name]], dtype=np.int64)
            values = remap[values] if len(remap) else values.astype(np.int64)
            head = head.astype(np.int64)
            cats[name] = labels
        cols[name] = np.concatenate([head, values])
    return Batch(cols, cats, first.players)


def _arrow_column(
    name: str, arr: pa.Array | pa.ChunkedArray
) -> tuple[np.ndarray, list[Any] | None]:
    """A column as numpy values, or as ``(codes, labels)`` for dictionary and string columns."""
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    if arr.null_count:
        raise ValueError(f"column {name!r} has {arr.null_count} missing values")
    if pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type):
        arr = arr.dictionary_encode()
    if pa.types.is_dictionary(arr.type):
        codes = arr.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        return codes, arr.dictionary.to_pylist()
    return arr.to_numpy(zero_copy_only=False), None


def _frame_column(name: str, series: pd.Series) -> tuple[np.ndarray, list[Any] | None]:
    """A DataFrame column as numpy values, or ``(codes, labels)`` for categorical/text columns."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        codes = series.cat.codes.to_numpy().astype(np.int64)
        labels = list(series.cat.categories)
    elif pd.api.types.is_bool_dtype(series.dtype) or pd.api.types.is_numeric_dtype(series.dtype):
        if series.hasnans:
            raise ValueError(f"column {name!r} has {int(series.isna().sum())} missing values")
        return series.to_numpy(), None
    else:  # text (e.g. a plain string preset column)
        codes, uniques = pd.factorize(series, sort=False)
        labels = list(uniques)
    if np.any(codes < 0):
        raise ValueError(f"column {name!r} has {int((codes < 0).sum())} missing values")
    return codes, labels


@dataclass
class Run:
    """An opened run: metadata, available columns, and chunked access to its records."""

    name: str  # a label for messages and captions (directory path, or "DataFrame")
    meta: dict[str, Any]
    columns: tuple[str, ...]
    path: Path | None = None
    parts: tuple[Path, ...] = ()
    frame: pd.DataFrame | None = None
    preset_from_meta: bool = False  # parts lack a preset column: use the metadata's preset

    @property
    def duplicate(self) -> bool:
        """True for a duplicate run (each wall played under several seat rotations)."""
        if "duplicate" in self.meta:
            return bool(self.meta["duplicate"])
        if self.frame is not None and {"deal", "wall"} <= set(self.frame.columns):
            return bool((self.frame["deal"].to_numpy() != self.frame["wall"].to_numpy()).any())
        return False

    @property
    def policies(self) -> list[str]:
        """Policy specs in their canonical order (run metadata, else the categories)."""
        if isinstance(self.meta.get("policies"), list):
            return [str(p) for p in self.meta["policies"]]
        if self.frame is not None and "policy" in self.frame.columns:
            col = self.frame["policy"]
            if isinstance(col.dtype, pd.CategoricalDtype):
                return [str(c) for c in col.cat.categories]
            return [str(c) for c in pd.unique(col)]
        return []

    @property
    def players(self) -> int:
        """Players per deal (rows per deal): the run's rules, else the seats of the frame."""
        rules = self.meta.get("rules")
        if isinstance(rules, dict):
            return int(rules.get("players", 4))
        if self.frame is not None and "seat" in self.frame.columns and len(self.frame):
            return int(self.frame["seat"].max()) + 1
        return 4

    def check_columns(self, needed: Iterable[str]) -> None:
        """ValueError naming the columns of ``needed`` that this run lacks."""
        missing = [c for c in dict.fromkeys(needed) if c not in self.columns]
        if missing:
            raise ValueError(f"run {self.name} lacks column(s) {', '.join(missing)}")

    def batches(self, columns: Sequence[str], target_rows: int | None = None) -> Iterator[Batch]:
        """Batches of whole deals (whole walls if ``wall`` is read) holding only ``columns``.

        ``target_rows`` (default :data:`TARGET_BATCH_ROWS`) is the batch size read from disk.
        """
        target_rows = TARGET_BATCH_ROWS if target_rows is None else target_rows
        columns = list(dict.fromkeys(columns))
        self.check_columns(columns)
        if self.frame is not None:
            yield self._frame_batch(columns)
            return
        align = "wall" if "wall" in columns else "deal" if "deal" in columns else None
        yield from _aligned(self._dir_batches(columns, target_rows), align, self.name)

    def _frame_batch(self, columns: list[str]) -> Batch:
        assert self.frame is not None
        batch = Batch({}, players=self.players)
        for name in columns:
            values, labels = _frame_column(name, self.frame[name])
            batch.cols[name] = values
            if labels is not None:
                batch.cats[name] = labels
        return batch

    def _dir_batches(self, columns: list[str], target_rows: int) -> Iterator[Batch]:
        """Read the parts in order, coalescing small record batches to about ``target_rows``."""
        synth_preset = "preset" in columns and self.preset_from_meta
        read = [c for c in columns if not (synth_preset and c == "preset")]
        dataset = ds.dataset([str(p) for p in self.parts], format="parquet")
        pending: list[pa.RecordBatch] = []
        rows = 0

        players = self.players

        def flush() -> Batch:
            table = pa.Table.from_batches(pending).unify_dictionaries()
            batch = Batch({}, players=players)
            for name in read:
                values, labels = _arrow_column(name, table.column(name))
                batch.cols[name] = values
                if labels is not None:
                    batch.cats[name] = labels
            if synth_preset:
                batch.cols["preset"] = np.zeros(table.num_rows, dtype=np.int64)
                batch.cats["preset"] = [self._meta_preset()]
            return batch

        # fragment by fragment (not the multi-threaded scanner) so batches keep the deal order and
        # an error can name its file; each fragment still decodes its columns in parallel
        for fragment in dataset.get_fragments():
            try:
                for record_batch in fragment.to_batches(columns=read, batch_size=target_rows):
                    if record_batch.num_rows == 0:
                        continue
                    pending.append(record_batch)
                    rows += record_batch.num_rows
                    if rows >= target_rows:
                        out = flush()
                        pending, rows = [], 0
                        yield out
            except (pa.ArrowException, OSError) as exc:
                raise ValueError(f"corrupt part {fragment.path}: {exc}") from None
        if pending:
            yield flush()

    def _meta_preset(self) -> str:
        return str(self.meta.get("preset") or self.meta.get("rules_id") or "")


def _aligned(batches: Iterator[Batch], align: str | None, name: str) -> Iterator[Batch]:
    """Re-cut batches so none splits a run of equal ``align`` values (a wall or a deal).

    The rows of the last key of each batch are held back and prepended to the next one. Parts are
    written in deal order; a key that goes backwards means they are not, and the per-wall pairing
    would be wrong, so it is an error.
    """
    if align is None:
        yield from batches
        return
    carry: Batch | None = None
    for batch in batches:
        if carry is not None:
            batch = concat_batches(carry, batch)
        key = batch[align]
        if len(key) > 1 and np.any(key[1:] < key[:-1]):
            bad = int(np.flatnonzero(key[1:] < key[:-1])[0])
            raise ValueError(
                f"run {name} is not in {align} order ({align} {int(key[bad + 1])} follows "
                f"{int(key[bad])})"
            )
        last = key[-1]
        cut = int(np.searchsorted(key, last, side="left"))
        carry = batch.take(slice(cut, None))
        if cut:
            yield batch.take(slice(0, cut))
    if carry is not None and len(carry):
        yield carry


def _open_dir(path: Path) -> Run:
    files = open_run_dir(path)
    meta, parts = files.meta, files.parts
    if not parts:
        raise ValueError(f"run {path} has no records (no part-NNNNNN.parquet files)")
    order: list[str] = []
    common: set[str] = set()
    rows = 0
    for i, part in enumerate(parts):  # footers only: cheap, and names the bad file
        names, num_rows = read_part_footer(part)
        rows += num_rows
        if i == 0:
            order, common = list(names), set(names)
        common &= set(names)
    if rows == 0:
        raise ValueError(f"run {path} has no records (its parts are empty)")
    # a column missing from some part is missing from the run; preset can come from metadata
    columns = tuple(c for c in order if c in common)
    columns += () if "preset" in common else ("preset",)
    return Run(
        name=str(path), meta=meta, columns=columns, path=path, parts=tuple(parts),
        preset_from_meta="preset" not in common,
    )


def open_run(run: object) -> Run:
    """Open ``run``: a directory path, an object with a ``.path`` (dataset handle), a DataFrame,
    or an already opened :class:`Run`."""
    if isinstance(run, Run):
        return run
    if isinstance(run, pd.DataFrame):
        if run.empty:
            raise ValueError("the records DataFrame has no rows")
        columns = tuple(str(c) for c in run.columns)
        return Run(name="DataFrame", meta={}, columns=columns, frame=run)
    if isinstance(run, str | os.PathLike):
        return _open_dir(Path(run))
    path = getattr(run, "path", None)
    if isinstance(path, str | os.PathLike):
        return _open_dir(Path(path))
    raise ValueError(
        f"cannot read a run from {type(run).__name__} {run!r:.80}; pass a run directory, a "
        "dataset handle or a records DataFrame"
    )
