"""A short summary of a run: deals, winners per deal, flower pigs, mean absolute net, and each
policy's mean net, with clustered intervals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from simcore.analysis.drawn import drawn_mask, winners_to_end
from simcore.analysis.groups import SumTable, cluster_moments, column_key, per_deal
from simcore.analysis.io import Batch, Run
from simcore.analysis.pipeline import Pipeline, cluster_unit, ratio_rows, run_one
from simcore.analysis.stats import DEFAULT_LEVEL
from simcore.runner.store import Dataset


class Summary(Pipeline):
    """Row-level totals and the cluster sums of the headline rates and means (one pass, in deal
    blocks: a deal's or wall's rows are one cluster of
    :func:`simcore.analysis.stats.ratio_interval`)."""

    blocks = True

    def __init__(self, run: Run, level: float = DEFAULT_LEVEL) -> None:
        super().__init__(run, level)
        self.rows = self.winners = self.pigs = self.drawn_rows = 0
        self.players = run.players
        self.abs_net = 0
        self.winners_to_end = winners_to_end(run)
        self.unit = cluster_unit(run)
        self.by_policy = "policy" in run.columns
        self.columns = ("win_order", "pig", "net", "winners", "wall_left", self.unit,
                        *(("policy",) if self.by_policy else ()))
        self.rates = SumTable([])  # winners per deal, flower pigs, |net| over every row
        self.policies = SumTable(["policy"])  # net per player-deal of each policy

    def update(self, batch: Batch) -> None:
        self.rows += len(batch)
        won = batch["win_order"] > 0
        self.winners += int(np.count_nonzero(won))
        self.pigs += int(np.count_nonzero(batch["pig"]))
        self.drawn_rows += int(np.count_nonzero(drawn_mask(batch, self.winners_to_end)))
        abs_net = np.abs(batch["net"].astype(np.int64))
        self.abs_net += int(abs_net.sum())
        unit = batch[self.unit].astype(np.int64)
        one = np.ones(len(batch))
        players = self.players
        one_deal = np.ones(len(batch) // players)
        # two cluster-sum frames over the same clusters: per player-deal and per deal
        rows = cluster_moments([], unit, {"pig": (batch["pig"], one), "abs_net": (abs_net, one)})
        deals = cluster_moments([], unit[::players],
                                {"winners": (per_deal(won.astype(np.int64), players), one_deal)})
        self.rates.add(pd.concat([rows, deals.drop(columns="n")], axis=1))
        if self.by_policy:
            self.policies.add(cluster_moments([column_key(batch, "policy")], unit,
                                              {"net": (batch["net"], one)}))

    def intervals(self) -> dict[str, Any]:
        """The headline rates and means with their intervals: ``{name: {"estimate", "se",
        "ci_low", "ci_high"}}`` for ``winners_per_deal``, ``flower_pig_rate``,
        ``mean_abs_net``; ``policies``: ``{policy: {...}}`` (mean net per player-deal);
        ``method`` (``cluster(deal)``, ``cluster(wall)``) and ``level``."""
        out: dict[str, Any] = {"method": f"cluster({self.unit})", "level": self.level}
        sums = self.rates.total()
        if not self.rows or not len(sums):
            return out
        keys = pd.DataFrame(index=range(len(sums)))
        for key, name, rate in (("winners_per_deal", "winners", False),
                                ("flower_pig_rate", "pig", True),
                                ("mean_abs_net", "abs_net", False)):
            out[key] = _interval(ratio_rows(keys, sums, name, self.level, rate, self.unit))
        if self.by_policy:
            table = self.policies.total()
            rows = ratio_rows(table[["policy"]], table, "net", self.level, False, self.unit)
            out["policies"] = {str(r["policy"]): _interval(pd.DataFrame([r]))
                               for _, r in rows.iterrows()}
        return out

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
            f"{100 * s['drawn_end_rate']:.2f}%, flower pigs {percent(s['flower_pig_rate'])} of "
            f"player-deals, mean |net| {s['mean_abs_net']:.3f} units per player-deal"
        )


def _interval(rows: pd.DataFrame) -> dict[str, Any]:
    r = rows.iloc[0]
    return {"estimate": float(r["estimate"]), "se": float(r["se"]),
            "ci_low": float(r["ci_low"]), "ci_high": float(r["ci_high"]), "n": int(r["n"]),
            "method": str(r["method"])}


def percent(rate: float | None, digits: int = 3) -> str:
    """A rate as a percentage with ``digits`` significant digits: small rates stay readable.

    >>> percent(7.5e-06), percent(0.01234), percent(0.0), percent(None)
    ('0.00075%', '1.23%', '0%', 'n/a')
    """
    if rate is None or rate != rate:
        return "n/a"
    return f"{100 * rate:.{digits}g}%"


def summary(run: object) -> dict[str, Any]:
    """Headline numbers of a run (for a closing line; :func:`summary_intervals` adds intervals).

    Keys: ``deals``, ``player_deals``, ``winners_per_deal``, ``drawn_end_rate`` (share of deals
    with fewer than 3 winners and an empty wall), ``flower_pig_rate`` (per player-deal),
    ``mean_abs_net`` (mean ``|net|`` per player-deal, units).
    """
    return run_one(run, Summary).result()  # type: ignore[return-value]


def summary_intervals(run: object, level: float = DEFAULT_LEVEL) -> dict[str, Any]:
    """Winners per deal, the flower-pig rate, mean ``|net|`` and each policy's mean net per
    player-deal, each with its clustered interval (by wall in a duplicate run, else by deal;
    see :meth:`Summary.intervals`)."""
    pipeline = run_one(run, Summary, level=level)
    assert isinstance(pipeline, Summary)
    return pipeline.intervals()


def summary_line(run: object) -> str:
    """:func:`summary` as one line of text."""
    pipeline = run_one(run, Summary)
    assert isinstance(pipeline, Summary)
    return pipeline.line()


def format_summary(dataset: Dataset, intervals: bool = True) -> str:
    """The closing summary lines printed by ``simcore run``.

    With ``intervals`` (a pass over the records, :func:`summary_intervals`)
    the rates and means get their 95% intervals, clustered by deal (by wall in a duplicate run),
    and a run of several policies gets each policy's mean net per deal.
    """
    s = dataset.summary or {}
    rate = s.get("deals_per_s")
    rotations = (dataset.meta.get("rules") or {}).get("players", 4)
    lines = [f"run: {dataset.path}"]
    lines.append(
        f"deals: {s.get('deals', dataset.n_deals):,}"
        + (f" ({s['walls']:,} walls x {rotations} rotations)" if s.get("walls") else "")
        + (f", {s['deals_resumed']:,} already on disk" if s.get("deals_resumed") else "")
    )
    engine = s.get("engine_s")
    workers = s.get("workers")
    lines.append(
        f"time: {s.get('wall_time_s', 0):.1f} s"
        + (f" ({engine:.1f} s to compile or load the engine)" if engine else "")
        + (f", {rate:,.0f} deals/s once the engine was ready" if rate else "")
        + (f" ({s.get('backend')}, {workers} worker{'s' if workers != 1 else ''})"
           if workers else f" ({s.get('backend')})")
    )
    found: dict[str, Any] = {}
    if intervals and dataset.complete:
        found = summary_intervals(dataset.path)
    lines.append(
        f"winners per deal: {_estimate(s, found, 'winners_per_deal', '.3f')}   flower-pig rate: "
        f"{_estimate(s, found, 'flower_pig_rate', None)}   mean |net|: "
        f"{_estimate(s, found, 'mean_abs_net', '.2f')}"
    )
    policies = found.get("policies") or {}
    if len(policies) > 1:
        lines.append("mean net per deal of each policy (units; `simcore report DIR` pairs "
                     "them by wall):")
        width = max(len(name) for name in policies)
        for name, est in policies.items():
            lines.append(f"  {name:{width}}  {est['estimate']:+.3f} "
                         f"[{est['ci_low']:+.3f}, {est['ci_high']:+.3f}]")
    if found:
        unit = found["method"].removeprefix("cluster(").removesuffix(")")
        lines.append(f"[low, high]: {found['level']:.0%} intervals, clustered by {unit}")
    return "\n".join(lines)


def _estimate(s: Mapping[str, Any], found: Mapping[str, Any], key: str,
              fmt: str | None) -> str:
    """A summary value, with its interval when ``found`` has it (``fmt`` None: a rate, shown
    as a percentage with significant digits, never as 0.0000 for a rare event)."""
    def show(value: float) -> str:
        return percent(value) if fmt is None else format(value, fmt)

    value = s.get(key)
    if value is None:
        return "n/a"
    est = found.get(key)
    if est is None:
        return show(value)
    return f"{show(value)} [{show(est['ci_low'])}, {show(est['ci_high'])}]"
