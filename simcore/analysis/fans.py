"""Fan table: how often each pattern, modifier, number of roots, total fan and win kind occurs.

Each frequency is given twice: per win (among player-deals with ``win_order > 0``) and per
player-deal (among all rows), each with the count behind it. Wins and player-deals of one deal
(and of one wall's four rotations in a duplicate run) are not independent, so the intervals are
the clustered ratio estimator's (by wall in duplicate runs, by deal otherwise), with ``method``
and ``design_effect`` columns: the flush share of wins has a design effect of about 2 in a
duplicate run.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcore.analysis.groups import Key, SumTable, cluster_moments, column_key, group_sums
from simcore.analysis.io import Batch, Run
from simcore.analysis.pipeline import (
    CLUSTER_COLUMNS,
    ESTIMATE_COLUMNS,
    Pipeline,
    cluster_unit,
    concat_rows,
    ratio_rows,
    run_one,
)
from simcore.analysis.stats import DEFAULT_LEVEL

# item -> record column; flush and terminals are counted when true (value "yes")
FAN_ITEMS = ("pattern", "flush", "terminals", "roots", "fan", "win_kind")
PER_WIN, PER_PLAYER_DEAL = "win", "player-deal"


class FanTable(Pipeline):
    """Accumulates, per group, player-deals, wins, and wins by each item value."""

    def __init__(
        self, run: Run, by: str | Sequence[str] = ("preset", "policy"), level: float = DEFAULT_LEVEL
    ) -> None:
        super().__init__(run, level)
        self.by = self.resolve_by(by)
        self.unit = cluster_unit(run)
        self.columns = (*self.by, "win_order", *FAN_ITEMS, self.unit)
        self.totals = SumTable(self.by)
        self.counts = SumTable([*self.by, "item", "value"])
        # every category of pattern and win_kind, in the records' order, zero counts included
        self.categories: dict[str, list[str]] = {"pattern": [], "win_kind": []}

    def update(self, batch: Batch) -> None:
        win = batch["win_order"] > 0
        keys = [column_key(batch, c) for c in self.by]
        unit = batch[self.unit].astype(np.int64)
        one = np.ones(len(batch))
        # per group: clusters (n), and over clusters the wins and rows and their squares
        totals = cluster_moments(keys, unit, {"wins": (win, one), "rows": (one, one)})
        self.totals.add(totals.rename(columns={"wins:y": "wins"}))
        # the (group, cluster) unit of every row, with its wins and rows
        flat = np.zeros(len(batch), dtype=np.int64)
        for key in keys:
            flat = flat * max(len(key.labels), 1) + key.codes
        c = unit - (int(unit.min()) if len(unit) else 0)
        _, cell = np.unique(flat * (int(c.max()) + 1 if len(c) else 1) + c, return_inverse=True)
        wins_in = np.bincount(cell, weights=win.astype(np.float64))
        rows_in = np.bincount(cell).astype(np.float64)
        for item, known in self.categories.items():
            for label in batch.cats.get(item, []):
                if label and label not in known:  # "" is the label of "no win"
                    known.append(str(label))
        wins = batch.take(win, [*self.by, *FAN_ITEMS])
        win_keys = [column_key(wins, c) for c in self.by]
        win_cell = cell[win]
        for item in FAN_ITEMS:
            key = column_key(wins, item)
            labels = ["yes" if v is True else "no" if v is False else str(v) for v in key.labels]
            size = max(len(labels), 1)
            _, first, inverse = np.unique(win_cell * size + key.codes, return_index=True,
                                          return_inverse=True)
            count = np.bincount(inverse).astype(np.float64)  # wins of this value per cluster
            home = win_cell[first]
            frame = group_sums(
                [*(Key(k.name, k.codes[first], k.labels) for k in win_keys),
                 Key("value", key.codes[first], labels)],
                {"count": count, "count_sq": count * count, "count_wins": count * wins_in[home],
                 "count_rows": count * rows_in[home]})
            frame.insert(len(self.by), "item", item)
            self.counts.add(frame.drop(columns="n"))

    def result(self) -> pd.DataFrame:
        totals = self.totals.total()
        counts = self.counts.total()
        by = list(self.by)
        frames = []
        for item in FAN_ITEMS:
            observed = counts.loc[counts["item"] == item, "value"] if len(counts) else []
            values = pd.DataFrame(
                {"item": item, "value": self._item_values(item, list(observed))})
            grid = totals[by].merge(values, how="cross")
            sums = ["count", "count_sq", "count_wins", "count_rows"]
            if len(counts):
                grid = grid.merge(counts, on=[*by, "item", "value"], how="left")
            else:
                grid = grid.assign(**{name: 0.0 for name in sums})
            grid[sums] = grid[sums].fillna(0.0)
            grid = grid.merge(totals, on=by, how="left") if by else grid.assign(
                **{c: totals[c].iloc[0] for c in totals.columns})
            keys = grid[[*by, "item", "value"]]
            for per, denom in ((PER_WIN, "wins"), (PER_PLAYER_DEAL, "rows")):
                ratio = pd.DataFrame({
                    "n": grid["n"], "share:y": grid["count"], "share:yy": grid["count_sq"],
                    "share:x": grid["wins"] if denom == "wins" else grid["rows:y"],
                    "share:xx": grid[f"{denom}:yy"], "share:xy": grid[f"count_{denom}"],
                    "share:y2": grid["count"]})
                frames.append(ratio_rows(keys.assign(per=per), ratio, "share", self.level,
                                         True, self.unit))
        out = concat_rows(frames, [*by, "item", "value", "per", *ESTIMATE_COLUMNS,
                                   *CLUSTER_COLUMNS])
        return out.rename(columns={"estimate": "rate"}).drop(columns="stat")

    def _item_values(self, item: str, observed: list[str]) -> list[str]:
        """Every value of ``item`` to report (zero counts included), in natural order."""
        if item in self.categories:
            return [*self.categories[item], *(v for v in dict.fromkeys(observed)
                                               if v and v not in self.categories[item])]
        if item in ("flush", "terminals"):
            return ["yes"]
        numbers = [int(v) for v in observed] or [0]
        return [str(v) for v in range(min(0, *numbers), max(numbers) + 1)]


def fan_table(
    run: object, by: str | Sequence[str] = ("preset", "policy"), level: float = DEFAULT_LEVEL
) -> pd.DataFrame:
    """Frequency of each pattern, flush, terminals, number of roots, total fan and win kind.

    Long table: the ``by`` columns, ``item`` (``pattern``, ``flush``, ``terminals``, ``roots``,
    ``fan``, ``win_kind``), ``value`` (a pattern name, ``"yes"`` for flush and terminals, a number
    of roots or fan, a win kind), ``per`` (``"win"``: among the group's wins, ``"player-deal"``:
    among all its rows), then ``n`` (wins or player-deals), ``count``, ``rate``, ``se``,
    ``ci_low``, ``ci_high`` (``level``), ``method`` and ``design_effect`` (clustered by wall in
    duplicate runs, by deal otherwise; see the module docstring). Every pattern and win kind is
    listed, and every number of roots and fan from 0 to the largest seen, with zero counts where
    none occurred. ``fan`` is the capped fan the win paid. ``preset`` is dropped from ``by`` for
    a DataFrame without that column.
    """
    return run_one(run, FanTable, by=by, level=level).result()
