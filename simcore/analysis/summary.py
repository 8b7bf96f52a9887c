"""A one-line summary of a run: deals, winners per deal, flower pigs, mean absolute net."""

from __future__ import annotations

from typing import Any

import numpy as np

from simcore.analysis.drawn import drawn_mask, winners_to_end
from simcore.analysis.io import Batch, Run
from simcore.analysis.pipeline import Pipeline, run_one
from simcore.analysis.stats import DEFAULT_LEVEL


class Summary(Pipeline):
    """Row-level totals (no grouping, no deal blocks: the cheapest pass over a run)."""

    columns = ("win_order", "pig", "net", "winners", "wall_left")

    def __init__(self, run: Run, level: float = DEFAULT_LEVEL) -> None:
        super().__init__(run, level)
        self.rows = self.winners = self.pigs = self.drawn_rows = 0
        self.players = run.players
        self.abs_net = 0
        self.winners_to_end = winners_to_end(run)

    def update(self, batch: Batch) -> None:
        self.rows += len(batch)
        self.winners += int(np.count_nonzero(batch["win_order"] > 0))
        self.pigs += int(np.count_nonzero(batch["pig"]))
        self.drawn_rows += int(np.count_nonzero(drawn_mask(batch, self.winners_to_end)))
        self.abs_net += int(np.abs(batch["net"].astype(np.int64)).sum())

    def result(self) -> dict[str, Any]:  # type: ignore[override]
        deals = self.rows // self.players
        rows = self.rows

        def ratio(a: int, b: int) -> float:
            return a / b if b else float("nan")

        return {
            "deals": deals,
            "player_deals": rows,
            "winners_per_deal": ratio(self.winners, deals),
            "drawn_end_rate": ratio(self.drawn_rows // self.players, deals),
            "flower_pig_rate": ratio(self.pigs, rows),
            "mean_abs_net": ratio(self.abs_net, rows),
        }

    def line(self) -> str:
        """The summary as one human-readable line."""
        s = self.result()
        return (
            f"{s['deals']:,} deals: {s['winners_per_deal']:.3f} winners per deal, drawn ends "
            f"{100 * s['drawn_end_rate']:.2f}%, flower pigs {100 * s['flower_pig_rate']:.3f}% of "
            f"player-deals, mean |net| {s['mean_abs_net']:.3f} units per player-deal"
        )


def summary(run: object) -> dict[str, Any]:
    """Headline numbers of a run (no intervals; for a closing line).

    Keys: ``deals``, ``player_deals``, ``winners_per_deal``, ``drawn_end_rate`` (share of deals
    with fewer than 3 winners and an empty wall), ``flower_pig_rate`` (per player-deal),
    ``mean_abs_net`` (mean ``|net|`` per player-deal, units).
    """
    return run_one(run, Summary).result()  # type: ignore[return-value]


def summary_line(run: object) -> str:
    """:func:`summary` as one line of text."""
    pipeline = run_one(run, Summary)
    assert isinstance(pipeline, Summary)
    return pipeline.line()
