"""The pipeline protocol: accumulate sufficient statistics batch by batch, then form estimates.

Every public analysis function builds one :class:`Pipeline` and runs it with :func:`run_pipelines`;
the report runs all of them over a single pass of the data, reading the union of their columns.
Estimate tables share the columns of :data:`ESTIMATE_COLUMNS`:

``stat``
    ``"rate"`` (a proportion, Wilson interval; ``count`` successes out of ``n``), ``"mean"``
    (z interval; ``count`` is empty), or a correlation (``"pearson"``, ``"spearman"``; Fisher z).
``n``
    the number of observations behind the estimate (player-deals, deals, wins or walls: the
    ``per`` column says which).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcore.analysis.groups import check_by, deal_blocks
from simcore.analysis.io import Batch, Run, open_run
from simcore.analysis.stats import DEFAULT_LEVEL, mean_interval, proportion_interval, z_quantile

ESTIMATE_COLUMNS = ("stat", "n", "count", "estimate", "se", "ci_low", "ci_high")
BLOCK_COLUMNS = ("deal", "seat")  # needed to put a batch in deal blocks


class Pipeline:
    """Base class: ``columns`` to read, ``update`` per batch, ``result`` at the end.

    ``blocks`` pipelines receive batches in deal blocks (rows ``4i..4i+3`` are one deal).
    """

    columns: tuple[str, ...] = ()
    blocks: bool = False

    def __init__(self, run: Run, level: float = DEFAULT_LEVEL) -> None:
        z_quantile(level)  # validate early
        self.run = run
        self.level = level

    def resolve_by(self, by: str | Sequence[str]) -> tuple[str, ...]:
        """Validated grouping columns; ``preset`` is dropped when the run has no such column
        (a DataFrame of one run), any other missing column is an error."""
        names = check_by(by, (*self.run.columns, *(() if "preset" in self.run.columns
                                                    else ("preset",))))
        return tuple(n for n in names if n != "preset" or "preset" in self.run.columns)

    def update(self, batch: Batch) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def result(self) -> pd.DataFrame:  # pragma: no cover - abstract
        raise NotImplementedError


def run_pipelines(run: Run, pipelines: Sequence[Pipeline]) -> None:
    """Feed every batch of ``run`` to each pipeline (one pass, union of their columns)."""
    blocks = any(p.blocks for p in pipelines)
    columns: list[str] = []
    for p in pipelines:
        columns.extend(p.columns)
    if blocks:
        columns.extend(BLOCK_COLUMNS)
        if "preset" in run.columns:
            columns.append("preset")  # deals of concatenated runs share numbers
    for batch in run.batches(list(dict.fromkeys(columns))):
        if blocks:
            batch = deal_blocks(batch)
        for p in pipelines:
            p.update(batch)


def run_one(run: object, make: type[Pipeline], **kwargs: object) -> Pipeline:
    """Open ``run``, build pipeline ``make(run, **kwargs)``, feed it, and return it."""
    opened = open_run(run)
    pipeline = make(opened, **kwargs)  # type: ignore[arg-type]
    run_pipelines(opened, [pipeline])
    return pipeline


def rate_rows(
    keys: pd.DataFrame, count: np.ndarray, n: np.ndarray, level: float
) -> pd.DataFrame:
    """``keys`` plus the estimate columns of proportions ``count / n``."""
    ci = proportion_interval(count, n, level)
    out = keys.reset_index(drop=True).copy()
    out["stat"] = "rate"
    out["n"] = ci["n"].to_numpy()
    out["count"] = pd.array(ci["count"].to_numpy(), dtype="Int64")
    out["estimate"] = ci["rate"].to_numpy()
    for col in ("se", "ci_low", "ci_high"):
        out[col] = ci[col].to_numpy()
    return out


def mean_rows(
    keys: pd.DataFrame, n: np.ndarray, total: np.ndarray, total_sq: np.ndarray, level: float
) -> pd.DataFrame:
    """``keys`` plus the estimate columns of means from ``n``, sums and sums of squares."""
    ci = mean_interval(np.asarray(n), total, total_sq, level)
    out = keys.reset_index(drop=True).copy()
    out["stat"] = "mean"
    out["n"] = ci["n"].to_numpy()
    out["count"] = pd.array([pd.NA] * len(out), dtype="Int64")
    out["estimate"] = ci["mean"].to_numpy()
    for col in ("se", "ci_low", "ci_high"):
        out[col] = ci[col].to_numpy()
    return out


def concat_rows(frames: Sequence[pd.DataFrame], columns: Sequence[str]) -> pd.DataFrame:
    """Stack estimate blocks into one table with ``columns`` in order (missing ones empty)."""
    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame(columns=list(columns))
    out = pd.concat(frames, ignore_index=True)
    for col in columns:
        if col not in out.columns:
            out[col] = ""
    return out[list(columns)]
