"""The on-disk run: Parquet parts plus a metadata file, written crash-safely.

Layout of a run directory::

    _run.json              metadata (the issue's "run.json"; see META_NAME)
    part-000000.parquet    chunk 0 (zstd), columns of ``simcore.records.to_dataframe``
    part-000001.parquet    ...
    _wins/part-000000.parquet   chunk 0's win table (one row per win, columns of
    _wins/...                   ``simcore.records.wins_to_dataframe``; WINS_DIR)
    _report/fan_frequency.png   the figures of ``simcore report DIR`` (REPORT_DIR; written by
    _report/...                 the report, not the run, and kept by ``--resume``)

Every file is written under a hidden temporary name and renamed when complete, so a crash leaves
whole parts only. pyarrow's dataset discovery skips names starting with ``.`` or ``_``, which is
why the temporaries, the metadata file and the win table's folder carry such a prefix:
``pandas.read_parquet(DIR)`` reads exactly the player records (the report's figures go to
``_report/`` for the same reason; a ``report/`` folder holding only those figures, where older
versions wrote them, is recognised too). A chunk's win part is written
before its records part, so a records part on disk always has its win part (``--resume`` checks
both; an interrupted chunk is computed again and overwrites a win part left alone).

This module is the only code that knows the layout: the driver writes runs through it, the
analysis (:mod:`simcore.analysis.io`) opens them with :func:`open_run_dir`, and the synthetic
runs of :mod:`simcore.testing` are written with :func:`encode_records`, :func:`write_part` and
:func:`write_meta`.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simcore._files import write_atomic
from simcore.records import to_dataframe, wins_to_dataframe
from simcore.runner.plan import Chunk, ChunkStats, RunPlan

FORMAT = "simcore-run"
FORMAT_VERSION = 1
# "run.json" in the issue; the "_" keeps pandas.read_parquet(DIR) from trying to read it as a
# Parquet file (pyarrow ignores "_"/"."-prefixed names, and fails on any other non-Parquet file).
META_NAME = "_run.json"
# a plain "run.json" (the name; written by hand or by other tools) is read too
META_NAMES = (META_NAME, "run.json")
PART_META_KEY = b"simcore.chunk"  # Parquet key-value metadata: chunk identity and statistics
# the per-win table's parts (same names as the records' parts); "_": pyarrow skips the folder
WINS_DIR = "_wins"
# the default folder of `simcore report DIR`'s figures ("_": pyarrow skips it), and the folder
# older versions used (a dataset reader then failed on its PNG files)
REPORT_DIR = "_report"
LEGACY_REPORT_DIR = "report"
# the figure files a report folder may hold for simcore to count it as its own
# (simcore.analysis.figures.FIGURE_NAMES; a test keeps the two equal)
REPORT_FILES = frozenset({
    "fan_frequency.png", "net_by_win_order.png", "pig_rate_by_policy.png",
    "policy_comparison.png",
})
_PART = re.compile(r"part-(\d{6,})\.parquet")
_TEMP = re.compile(r"\.(part-\d{6,}\.parquet|_run\.json)\.tmp")


def part_name(index: int) -> str:
    """File name of chunk ``index``'s part."""
    return f"part-{index:06d}.parquet"


def run_meta(**fields: Any) -> dict[str, Any]:
    """A metadata mapping: the format header followed by ``fields``."""
    return {"format": FORMAT, "format_version": FORMAT_VERSION, **fields}


def chunk_identity(plan: RunPlan, chunk: Chunk) -> dict[str, Any]:
    """What a part must say about itself to belong to ``plan`` as chunk ``chunk``."""
    return {
        "chunk": chunk.index,
        "start": chunk.start,
        "count": chunk.count,
        "deals": chunk.deals,
        "rules_id": plan.rules.id,
        "seat_policies": list(plan.seat_policies),
        "seed": plan.seed,
        "duplicate": plan.duplicate,
    }


def encode_part(records: np.ndarray, plan: RunPlan, chunk: Chunk, stats: ChunkStats) -> bytes:
    """A chunk's records as the bytes of a zstd Parquet file (deterministic for given records).

    The chunk identity and statistics go into the file's key-value metadata, so ``--resume`` can
    check a part and rebuild the summary from footers alone. No timestamps: equal records give
    byte-identical parts.
    """
    info = {**chunk_identity(plan, chunk), "stats": stats.to_dict()}
    return encode_records(records, plan.policy_names, plan.rules.preset, info)


def encode_wins_part(wins: np.ndarray, plan: RunPlan, chunk: Chunk) -> bytes:
    """A chunk's win table (``WIN_DTYPE``) as the bytes of a zstd Parquet part (deterministic);
    its key-value metadata holds the chunk identity and its number of rows."""
    info = {**chunk_identity(plan, chunk), "wins": len(wins)}
    return encode_frame(wins_to_dataframe(wins, plan.policy_names, plan.rules.preset), info)


def encode_records(
    records: np.ndarray,
    policies: list[str] | tuple[str, ...],
    preset: str | None,
    info: dict[str, Any] | None = None,
) -> bytes:
    """Records (``RECORD_DTYPE``) as the bytes of a part: the columns of ``to_dataframe``.

    ``info`` goes into the file's key-value metadata under :data:`PART_META_KEY`.
    """
    return encode_frame(to_dataframe(records, policies, preset=preset), info)


def encode_frame(df: pd.DataFrame, info: dict[str, Any] | None = None) -> bytes:
    """A records DataFrame as the bytes of a zstd Parquet part (deterministic: no timestamps)."""
    table = pa.Table.from_pandas(df, preserve_index=False)
    if info is not None:
        metadata = dict(table.schema.metadata or {})
        metadata[PART_META_KEY] = json.dumps(info, sort_keys=True).encode()
        table = table.replace_schema_metadata(metadata)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue().to_pybytes()


def write_part(path: Path, index: int, data: bytes) -> Path:
    """Atomically write the bytes of chunk ``index``'s part into the run directory ``path``."""
    target = Path(path) / part_name(index)
    write_atomic(target, data)
    return target


def wins_part_path(path: Path, index: int) -> Path:
    """Where chunk ``index``'s win part lives in the run directory ``path``."""
    return Path(path) / WINS_DIR / part_name(index)


def write_wins_part(path: Path, index: int, data: bytes) -> Path:
    """Atomically write chunk ``index``'s win part (the folder is made when missing)."""
    target = wins_part_path(path, index)
    target.parent.mkdir(exist_ok=True)
    write_atomic(target, data)
    return target


def _checked_footer(file: Path, plan: RunPlan, chunk: Chunk) -> tuple[pq.FileMetaData, dict]:
    """The Parquet metadata and simcore footer of a part (records or wins) of ``chunk``;
    ValueError when the file is unreadable or belongs to another run or chunk."""
    try:
        meta = pq.read_metadata(file)
        info = json.loads(meta.metadata[PART_META_KEY])
    except (OSError, pa.ArrowException, KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"corrupt part {file}: {exc}") from None
    expected = chunk_identity(plan, chunk)
    if not isinstance(info, dict) or {k: info.get(k) for k in expected} != expected:
        raise ValueError(f"part {file} does not belong to this run (it says {info!r})")
    return meta, info


def check_wins_part(path: Path, plan: RunPlan, chunk: Chunk) -> None:
    """ValueError unless the win part of ``chunk`` exists and belongs to ``plan``."""
    file = wins_part_path(path, chunk.index)
    if not file.is_file():
        raise ValueError(f"win table part {file} is missing")
    meta, info = _checked_footer(file, plan, chunk)
    if meta.num_rows != info.get("wins"):
        raise ValueError(f"part {file} has {meta.num_rows} rows, its footer says "
                         f"{info.get('wins')!r}")


def read_part_stats(path: Path, plan: RunPlan, chunk: Chunk) -> ChunkStats:
    """Check a part's footer against the plan and return its statistics (ValueError if bad)."""
    meta, info = _checked_footer(path, plan, chunk)
    rows = plan.players * chunk.deals
    if meta.num_rows != rows:
        raise ValueError(f"part {path} has {meta.num_rows} rows, expected {rows}")
    try:
        return ChunkStats.from_dict(info["stats"])
    except (KeyError, ValueError) as exc:
        raise ValueError(f"corrupt part {path}: {exc}") from None


def read_part_footer(path: Path) -> tuple[list[str], int]:
    """Column names and row count of a part, from its footer (ValueError naming a bad file)."""
    try:
        footer = pq.read_metadata(path)
        return footer.schema.to_arrow_schema().names, footer.num_rows
    except (pa.ArrowException, OSError) as exc:
        raise ValueError(f"corrupt part {path}: {exc}") from None


@dataclass
class DirState:
    """What an output directory holds, sorted into simcore's own files and others."""

    path: Path
    exists: bool
    meta: Path | None = None
    parts: dict[int, Path] = field(default_factory=dict)
    temps: list[Path] = field(default_factory=list)
    foreign: list[Path] = field(default_factory=list)
    wins: list[Path] = field(default_factory=list)  # the win table's parts and temporaries
    reports: list[Path] = field(default_factory=list)  # figures of `simcore report` (REPORT_DIR)

    @property
    def is_run(self) -> bool:
        return self.meta is not None

    @property
    def is_empty(self) -> bool:
        """Nothing but stale temporaries (a crash before the first rename) or nothing at all."""
        return not (self.meta or self.parts or self.foreign)

    def own_files(self) -> list[Path]:
        """Every file simcore wrote here (and may remove with ``force``): the run's files and the
        figures of a report of it (a replaced run's report would describe another run)."""
        return [*([self.meta] if self.meta else []), *self.parts.values(), *self.temps,
                *self.wins, *self.reports]


def inspect_dir(path: Path) -> DirState:
    """Classify the entries of ``path`` (ValueError if it exists and is not a directory)."""
    if not path.exists():
        return DirState(path, exists=False)
    if not path.is_dir():
        raise ValueError(f"output path {path} exists and is not a directory")
    state = DirState(path, exists=True)
    for entry in sorted(path.iterdir()):
        name = entry.name
        if name == META_NAME and entry.is_file():
            state.meta = entry
        elif (m := _PART.fullmatch(name)) and entry.is_file():
            state.parts[int(m.group(1))] = entry
        elif _TEMP.fullmatch(name) and entry.is_file():
            state.temps.append(entry)
        elif name == WINS_DIR and entry.is_dir() and _only_parts(entry):
            state.wins.extend(sorted(entry.iterdir()))
        elif name in (REPORT_DIR, LEGACY_REPORT_DIR) and entry.is_dir() and _only_figures(entry):
            state.reports.extend(sorted(entry.iterdir()))
        else:
            state.foreign.append(entry)
    return state


def _only_parts(folder: Path) -> bool:
    """The win table's folder holds only parts and their temporaries (else it is not ours)."""
    return all(e.is_file() and (_PART.fullmatch(e.name) or _TEMP.fullmatch(e.name))
               for e in folder.iterdir())


def _only_figures(folder: Path) -> bool:
    """A report folder holds only the report's figure files (else a user's files are in it)."""
    return all(e.is_file() and e.name in REPORT_FILES for e in folder.iterdir())


def meta_file(path: Path) -> Path | None:
    """The metadata file of the run directory ``path`` (:data:`META_NAMES` in order), or None."""
    for name in META_NAMES:
        file = Path(path) / name
        if file.is_file():
            return file
    return None


def read_meta(path: Path) -> dict[str, Any]:
    """The metadata of the run in directory ``path`` (ValueError if absent, corrupt or newer).

    Every message names the file and, where there is one, the bad value.
    """
    file = meta_file(path)
    if file is None:
        raise ValueError(f"{path} is not a simcore run (no {' or '.join(META_NAMES)})")
    try:
        meta = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"corrupt run metadata {file}: {exc}") from None
    if not isinstance(meta, dict):
        raise ValueError(
            f"corrupt run metadata {file}: a JSON {type(meta).__name__}, not an object"
        )
    if meta.get("format") != FORMAT:
        raise ValueError(
            f'corrupt run metadata {file}: "format" is {meta.get("format")!r}, not {FORMAT!r}'
        )
    version = meta.get("format_version")
    if version != FORMAT_VERSION:
        raise ValueError(
            f"run metadata {file} has format_version {version!r}; this simcore reads "
            f"{FORMAT_VERSION}"
        )
    return meta


def write_meta(path: Path, meta: dict[str, Any]) -> None:
    """Atomically (re)write the metadata of the run in directory ``path``."""
    text = json.dumps(meta, indent=2, ensure_ascii=False) + "\n"
    write_atomic(path / META_NAME, text.encode("utf-8"))


@dataclass(frozen=True)
class RunFiles:
    """A run directory opened for reading: its metadata and its parts in chunk order."""

    path: Path
    meta: dict[str, Any]
    parts: tuple[Path, ...]


def open_run_dir(path: str | os.PathLike[str]) -> RunFiles:
    """Open the run directory ``path`` for reading (ValueError naming what is wrong).

    Temporaries and other files are ignored; the parts come sorted by chunk index.
    """
    path = Path(path)
    if not path.exists():
        raise ValueError(f"run directory {path} does not exist")
    if not path.is_dir():
        raise ValueError(f"{path} is not a directory (a simcore run is a directory)")
    meta = read_meta(path)
    parts = inspect_dir(path).parts
    return RunFiles(path, meta, tuple(parts[i] for i in sorted(parts)))


class Dataset:
    """A handle on a run directory: metadata now, records on demand::

    ds = Dataset("data/runs/classic-speed-s0-n1000")
    ds.n_deals, ds.records(columns=["deal", "net"]).shape   # (1000, (4000, 2))
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.meta: dict[str, Any] = read_meta(self.path)

    def __repr__(self) -> str:
        state = "complete" if self.complete else "incomplete"
        return f"Dataset({str(self.path)!r}, deals={self.n_deals}, {state})"

    @property
    def n_deals(self) -> int:
        """Deals in the run (all of them once complete)."""
        return int(self.meta["deals"])

    @property
    def complete(self) -> bool:
        """True once every chunk is on disk."""
        return self.meta.get("complete") is True

    @property
    def summary(self) -> dict[str, Any] | None:
        """The closing summary written when the run completed."""
        return self.meta.get("summary")

    def records(self, columns: list[str] | None = None) -> pd.DataFrame:
        """The records (one row per player per deal), optionally only some columns.

        Raises ValueError for an incomplete run, which would silently lack deals.
        """
        if not self.complete:
            raise ValueError(
                f"run {self.path} is incomplete; finish it with `simcore run --resume --out "
                f"{self.path}` (or simcore.run(out=..., resume=True))"
            )
        if (self.path / LEGACY_REPORT_DIR).is_dir() and inspect_dir(self.path).reports:
            # figures an older `simcore report` wrote into the run: skip them like "_" names
            return pd.read_parquet(self.path, columns=columns,
                                   ignore_prefixes=[".", "_", LEGACY_REPORT_DIR])
        return pd.read_parquet(self.path, columns=columns)

    @property
    def wins(self) -> pd.DataFrame:
        """The win table: one row per win (every win of blood river, a player's first win
        first), in deal order, columns of :func:`simcore.records.wins_to_dataframe`.

        Raises ValueError for an incomplete run or one written before the table existed.
        """
        if not self.complete:
            raise ValueError(
                f"run {self.path} is incomplete; finish it with `simcore run --resume --out "
                f"{self.path}` (or simcore.run(out=..., resume=True))"
            )
        return read_wins(self.path)


def read_wins(path: str | os.PathLike[str]) -> pd.DataFrame:
    """The win table of the run directory ``path``, its parts in chunk order (ValueError when
    the run has none: runs written before simcore kept it)."""
    run = open_run_dir(path)
    files = [wins_part_path(run.path, int(m.group(1)))
             for p in run.parts if (m := _PART.fullmatch(p.name))]
    missing = [f for f in files if not f.is_file()]
    if missing:
        raise ValueError(
            f"run {run.path} has no win table part {missing[0].name} in {WINS_DIR}/ (a run "
            f"written before simcore kept the win table: run it again to have one)"
        )
    if not files:
        raise ValueError(f"run {run.path} has no parts")
    frames = [pd.read_parquet(f) for f in files]
    df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    for name in ("policy", "kind", "pattern", "preset"):
        # parts of one run share their categories; concat keeps them only when equal
        if name in df and not isinstance(df[name].dtype, pd.CategoricalDtype):
            df[name] = df[name].astype(frames[0][name].dtype)
    return df


def load(path: str | os.PathLike[str]) -> tuple[pd.DataFrame, dict[str, Any]]:
    """``(records, metadata)`` of the complete run in directory ``path``."""
    dataset = Dataset(path)
    return dataset.records(), dataset.meta


def load_wins(path: str | os.PathLike[str]) -> pd.DataFrame:
    """The win table of the complete run in directory ``path`` (:attr:`Dataset.wins`)."""
    return Dataset(path).wins
