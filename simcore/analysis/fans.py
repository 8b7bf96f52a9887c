"""Fan table: how often each pattern, modifier, number of roots, total fan and win kind occurs.

Each frequency is given twice: per win (among player-deals with ``win_order > 0``) and per
player-deal (among all rows), each with its count, Wilson interval and the count behind it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcore.analysis.groups import Key, SumTable, column_key, group_sums
from simcore.analysis.io import Batch, Run
from simcore.analysis.pipeline import ESTIMATE_COLUMNS, Pipeline, concat_rows, rate_rows, run_one
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
        self.columns = (*self.by, "win_order", *FAN_ITEMS)
        self.totals = SumTable(self.by)
        self.counts = SumTable([*self.by, "item", "value"])
        # every category of pattern and win_kind, in the records' order, zero counts included
        self.categories: dict[str, list[str]] = {"pattern": [], "win_kind": []}

    def update(self, batch: Batch) -> None:
        win = batch["win_order"] > 0
        keys = [column_key(batch, c) for c in self.by]
        self.totals.add(group_sums(keys, {"wins": win}))
        wins = batch.take(win, [*self.by, *FAN_ITEMS])
        win_keys = [column_key(wins, c) for c in self.by]
        for item, known in self.categories.items():
            for label in batch.cats.get(item, []):
                if label and label not in known:  # "" is the label of "no win"
                    known.append(str(label))
        for item in FAN_ITEMS:
            key = column_key(wins, item)
            labels = ["yes" if v is True else "no" if v is False else str(v) for v in key.labels]
            frame = group_sums([*win_keys, Key("value", key.codes, labels)], {})
            frame.insert(len(self.by), "item", item)
            self.counts.add(frame.rename(columns={"n": "count"}))

    def result(self) -> pd.DataFrame:
        totals = self.totals.total()
        counts = self.counts.total()
        frames = []
        for item in FAN_ITEMS:
            observed = counts.loc[counts["item"] == item, "value"] if len(counts) else []
            values = pd.DataFrame(
                {"item": item, "value": self._item_values(item, list(observed))})
            grid = totals[list(self.by)].merge(values, how="cross")
            if len(counts):
                grid = grid.merge(counts, on=[*self.by, "item", "value"], how="left")
            else:
                grid["count"] = 0
            grid = grid.merge(totals, on=list(self.by), how="left") if self.by else grid.assign(
                n=totals["n"].iloc[0], wins=totals["wins"].iloc[0]
            )
            count = grid["count"].fillna(0).to_numpy(dtype=np.float64)
            keys = grid[[*self.by, "item", "value"]]
            for per, denom in ((PER_WIN, grid["wins"]), (PER_PLAYER_DEAL, grid["n"])):
                frames.append(
                    rate_rows(keys.assign(per=per), count, denom.to_numpy(np.float64), self.level)
                )
        out = concat_rows(frames, [*self.by, "item", "value", "per", *ESTIMATE_COLUMNS])
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
    ``ci_low``, ``ci_high`` (Wilson, ``level``). Every pattern and win kind is listed, and every
    number of roots and fan from 0 to the largest seen, with zero counts where none occurred.
    ``fan`` is the capped fan the win paid. ``preset`` is dropped from ``by`` for a DataFrame
    without that column.
    """
    return run_one(run, FanTable, by=by, level=level).result()
