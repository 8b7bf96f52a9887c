"""How much is a good start worth? Net and win rate by a starting-hand column.

The records describe every seat's starting hand (:data:`simcore.records.START_COLUMNS`):
``shanten_dealt``, ``shanten_exchanged``, ``shanten_void`` (shanten of the dealt hand, after the
exchange of three, after the void), ``longest_suit`` and ``pairs``. :func:`start_value` groups
the player-deals by one of them and gives, per value, the mean net and the win rate with their
intervals. The four players of a deal (and, in duplicate runs, every rotation of a wall) are
not independent, so both are clustered ratios (:func:`simcore.analysis.pipeline.ratio_rows`,
by wall in duplicate runs, else by deal).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcore.analysis.compare import ComparePolicies, require_start_columns
from simcore.analysis.groups import SumTable, cluster_moments, column_key
from simcore.analysis.io import Batch, Run, open_run
from simcore.analysis.pipeline import (
    CLUSTER_COLUMNS,
    ESTIMATE_COLUMNS,
    Pipeline,
    cluster_unit,
    concat_rows,
    ratio_rows,
    run_one,
    run_pipelines,
)
from simcore.analysis.stats import DEFAULT_LEVEL
from simcore.records import START_COLUMNS

START_METRICS = ("net", "win")


class StartValue(Pipeline):
    """Clustered sums of net and wins per (``within``, starting value), for :func:`start_value`."""

    def __init__(self, run: Run, by: str = "shanten_void",
                 within: str | Sequence[str] = ("preset",), level: float = DEFAULT_LEVEL) -> None:
        super().__init__(run, level)
        if by not in START_COLUMNS:
            raise ValueError(f"start_value groups by a starting-hand column "
                             f"({', '.join(START_COLUMNS)}), got {by!r}")
        require_start_columns([by], run.columns)
        self.within = self.resolve_by(within)
        if by in self.within:
            raise ValueError(f"{by!r} is both the starting column and a 'within' column")
        self.by = by
        self.unit = cluster_unit(run)
        self.columns = (*self.within, by, "net", "win_order", self.unit)
        self.sums = SumTable([*self.within, by])

    def update(self, batch: Batch) -> None:
        keys = [column_key(batch, c) for c in (*self.within, self.by)]
        one = np.ones(len(batch))
        ratios = {"net": (batch["net"].astype(np.float64), one),
                  "win": (batch["win_order"] > 0, one)}
        self.sums.add(cluster_moments(keys, batch[self.unit].astype(np.int64), ratios))

    def result(self) -> pd.DataFrame:
        keys = [*self.within, self.by]
        sums = self.sums.total()
        frames = []
        if len(sums):
            sums = sums.sort_values(keys, kind="stable").reset_index(drop=True)
            for metric in START_METRICS:
                frames.append(ratio_rows(sums[keys].assign(metric=metric), sums, metric,
                                         self.level, metric == "win", self.unit))
        out = concat_rows(frames, [*keys, "metric", *ESTIMATE_COLUMNS, *CLUSTER_COLUMNS])
        if len(out):
            out[self.by] = out[self.by].astype(np.int64)
        return out


# the columns of start_value's difference rows (baseline=...), after the levels' own columns
DIFFERENCE_COLUMNS = ("policy", "baseline", "estimand", "interval", "p_value",
                      "informative_walls", "seats")


def start_value(
    run: object, by: str = "shanten_void", within: str | Sequence[str] = ("preset",),
    level: float = DEFAULT_LEVEL, baseline: str | None = None,
) -> pd.DataFrame:
    """Mean net and win rate of the player-deals by starting-hand column ``by``.

    ``by`` is one of ``shanten_dealt``, ``shanten_exchanged``, ``shanten_void``,
    ``longest_suit``, ``pairs``; ``within`` are further grouping columns (``preset`` is dropped
    for a run without one; add ``policy`` or ``dealer`` to split by them: a dealer starts with
    14 tiles, so its shanten is one step lower on the same shape). Two rows per group and
    value: ``metric`` ``net`` (``stat`` mean: units per deal) and ``win`` (``stat`` rate: the
    share of those player-deals that won). ``n`` is the number of player-deals with that
    start; the intervals are clustered by deal (wall in duplicate runs).

    Columns: ``within``, ``by``, ``metric``, ``stat``, ``n``, ``count``, ``estimate``, ``se``,
    ``ci_low``, ``ci_high``, ``method``, ``design_effect``.

    ``baseline`` (a duplicate run) adds, per value, the paired difference of every other policy
    from ``baseline`` (``stat`` ``difference``, ``metric`` ``net`` and ``win``): the
    :func:`simcore.analysis.compare_policies` difference restricted with
    ``where=f"{by} == {value}"``, so the value is read on the **baseline's** records of each
    (wall, seat) and both policies are compared in the same seats of the same walls (``n``:
    walls; ``seats``: the (wall, seat) pairs; ``informative_walls``, ``interval``, ``p_value``
    as there; ``method`` ``paired``). Those rows add the columns ``policy``, ``baseline``,
    ``estimand``, ``interval``, ``p_value``, ``informative_walls``, ``seats`` (empty on the
    levels' own rows); ``within`` must then be deal-level columns (``preset``).
    """
    if baseline is None:
        return run_one(run, StartValue, by=by, within=within, level=level).result()
    opened = open_run(run)
    own = StartValue(opened, by=by, within=within, level=level)
    first = ComparePolicies(opened, baseline=baseline, metrics=START_METRICS, by=own.within,
                            level=level)  # names a bad baseline or within before any reading
    if not first.paired:
        raise ValueError("start_value's paired difference (baseline=...) needs a duplicate run")
    values = set()
    for batch in opened.batches(["policy", by]):
        labels = [str(p) for p in batch.cats.get("policy", opened.policies)]
        if baseline in labels:
            values.update(np.unique(batch[by][batch["policy"] == labels.index(baseline)]).tolist())
    compares = {int(v): ComparePolicies(opened, baseline=baseline, metrics=START_METRICS,
                                        by=own.within, level=level, where=f"{by} == {int(v)}")
                for v in sorted(values)}
    run_pipelines(opened, [own, *compares.values()])
    levels = own.result()
    frames = []
    for value, pipeline in compares.items():
        rows = pipeline.result()
        rows = rows[rows["stat"] == "difference"]
        if len(rows):
            frames.append(rows.assign(**{by: value}))
    if not frames:
        return levels.reindex(columns=[*levels.columns, *DIFFERENCE_COLUMNS])
    diffs = pd.concat(frames, ignore_index=True)
    diffs = diffs.assign(design_effect=np.nan)[[*levels.columns, *DIFFERENCE_COLUMNS]]
    out = pd.concat([levels.reindex(columns=[*levels.columns, *DIFFERENCE_COLUMNS]), diffs],
                    ignore_index=True)
    out[by] = out[by].astype(np.int64)
    out["seats"] = out["seats"].astype("Int64")
    return out
