"""The pipeline protocol: accumulate sufficient statistics batch by batch, then form estimates.

Every public analysis function builds one :class:`Pipeline` and runs it with :func:`run_pipelines`;
the report runs all of them over a single pass of the data, reading the union of their columns.
Estimate tables share the columns of :data:`ESTIMATE_COLUMNS`:

``stat``
    ``"rate"`` (a proportion; ``count`` successes out of ``n``), ``"mean"`` (``count`` is empty),
    or a correlation (``"pearson"``, ``"spearman"``; Fisher z).
``n``
    the number of observations behind the estimate (player-deals, deals, wins or walls: the
    ``per`` column says which).

Tables that cluster (fan table, drawn ends) add ``method`` and ``design_effect``
(:data:`CLUSTER_COLUMNS`): observations that share a wall (duplicate runs) or a deal are not
independent, so their rates and means use the clustered ratio estimator
(:func:`simcore.analysis.stats.ratio_interval`, ``method`` ``"cluster(wall)"`` or
``"cluster(deal)"``); Wilson intervals (``"wilson"``) and plain z intervals (``"normal"``) are
kept for truly independent units (the deals of a run that is not a duplicate one).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcore.analysis.groups import check_by, deal_blocks
from simcore.analysis.io import Batch, Run, open_run
from simcore.analysis.stats import (
    DEFAULT_LEVEL,
    binomial_se,
    mean_interval,
    proportion_interval,
    ratio_interval,
    wilson_interval,
    z_quantile,
)

ESTIMATE_COLUMNS = ("stat", "n", "count", "estimate", "se", "ci_low", "ci_high")
CLUSTER_COLUMNS = ("method", "design_effect")
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


def cluster_unit(run: Run) -> str:
    """The column naming a run's independent unit: ``wall`` in duplicate runs, else ``deal``."""
    return "wall" if run.duplicate and "wall" in run.columns else "deal"


def ratio_rows(
    keys: pd.DataFrame, sums: pd.DataFrame, name: str, level: float, rate: bool, unit: str
) -> pd.DataFrame:
    """``keys`` plus the estimate and cluster columns of ratio ``name`` from the sums of
    :func:`simcore.analysis.groups.cluster_moments` (``sums``, aligned with ``keys``).

    ``design_effect`` compares the clustered variance with the variance the estimate would
    have were every observation independent (binomial for a rate, ``s**2 / n`` for a mean).
    A rate of 0 or 1 has no spread to cluster: its interval is then Wilson's with one trial per
    cluster (the most conservative count; ``method`` says ``wilson(UNITs)``).
    """
    def col(suffix: str) -> np.ndarray:
        return sums[f"{name}:{suffix}"].to_numpy(np.float64)

    y, x = col("y"), col("x")
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(x > 0, y / x, np.nan)
        if rate:
            srs = binomial_se(p, x)
        else:
            var = np.where(x > 1, (col("y2") - x * p * p) / (x - 1), np.nan)
            srs = np.sqrt(np.maximum(var, 0.0) / x)
    est = ratio_interval(sums["n"].to_numpy(), y, x, col("yy"), col("xx"), col("xy"), level,
                         srs, (0.0, 1.0) if rate else None)
    out = keys.reset_index(drop=True).copy()
    out["stat"] = "rate" if rate else "mean"
    out["n"] = x.astype(np.int64)
    out["count"] = pd.array(np.rint(y).astype(np.int64) if rate else [pd.NA] * len(out),
                            dtype="Int64")
    for column in ("estimate", "se", "ci_low", "ci_high", "design_effect"):
        out[column] = est[column].to_numpy()
    out["method"] = f"cluster({unit})"
    edge = (x > 0) & ((y == 0) | (y == x))
    if rate and edge.any():
        g = sums["n"].to_numpy(np.float64)
        low, high = wilson_interval(np.where(y == 0, 0.0, g), g, level)
        out.loc[edge, "ci_low"] = low[edge]
        out.loc[edge, "ci_high"] = high[edge]
        out.loc[edge, "method"] = f"wilson({unit}s)"
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
