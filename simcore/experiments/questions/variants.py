"""The variants of docs/rules section 9 against classic: what changes with fewer players, fewer
suits, or winners who stay (blood river)?

Four tables of ``speed`` players (plain runs, 80,000 deals each by default): ``classic``,
``two_suit4`` (four players, two suits), ``two_suit3`` (three players, two suits) and ``river``
(blood river). Per preset, from the records and the per-win table (issue 17):

- ``flush_share``: the share of wins that are full flushes (per win);
- ``wins_per_deal`` and ``winners_per_deal``: every win (blood river: a player may win again)
  and the players who won;
- ``drawn_end``: deals the wall ended with a player who never won who could still have won
  (blood battle: fewer than ``players - 1`` winners; blood river: fewer than ``players``);
- ``first_winner_net``: the final net of the deal's first winner(s) (per first winner);
- ``later_win_units``: under blood river, what a win after a player's first one is paid, against
  ``first_win_units``, the first one (per win, units from each payer).

Every interval is a cluster-robust ratio interval over deals (``stats.ratio_interval``): the
wins of one deal are not independent.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcore.analysis.stats import DEFAULT_LEVEL, ratio_interval
from simcore.experiments.base import Arm, Experiment
from simcore.rules import PRESETS
from simcore.runner.store import Dataset

PLACE = 100  # its place among the questions (the results page, run_all.py)

VARIANT_PRESETS = ("classic", "two_suit4", "two_suit3", "river")
MEASURES = ("flush_share", "wins_per_deal", "winners_per_deal", "drawn_end", "first_winner_net",
            "first_win_units", "later_win_units")


def _ratio_row(preset: str, measure: str, per: str, y: np.ndarray, x: np.ndarray,
               level: float = DEFAULT_LEVEL) -> dict[str, object]:
    """One result row: sum(y) / sum(x) over deals (the clusters), with its interval."""
    y = np.asarray(y, np.float64)
    x = np.asarray(x, np.float64)
    row = ratio_interval(len(y), y.sum(), x.sum(), (y * y).sum(), (x * x).sum(), (x * y).sum(),
                         level).iloc[0]
    return {"preset": preset, "measure": measure, "per": per, "n": int(x.sum()),
            "estimate": row["estimate"], "se": row["se"], "ci_low": row["ci_low"],
            "ci_high": row["ci_high"], "estimand": "ratio",
            "method": "cluster ratio over deals, z interval"}


def _per_deal(values: pd.Series, deals: pd.Index) -> np.ndarray:
    """``values`` summed per deal, 0 for a deal without rows, in the order of ``deals``."""
    return values.groupby(level=0).sum().reindex(deals, fill_value=0).to_numpy()


def preset_rows(preset: str, records: pd.DataFrame, wins: pd.DataFrame) -> list[dict[str, object]]:
    """The measures of one table of ``preset`` from its records and win table."""
    rules = PRESETS[preset]
    players = rules.players
    by_deal = records.set_index("deal")
    deals = pd.Index(np.unique(records["deal"].to_numpy()))
    one = np.ones(len(deals))
    w = wins.set_index("deal")
    n_wins = _per_deal(pd.Series(1, index=w.index), deals)
    flushes = _per_deal(w["flush"].astype(np.int64), deals)
    winners = by_deal["winners"].groupby(level=0).first().reindex(deals).to_numpy()
    most = players if rules.blood_river else players - 1
    first = by_deal["win_order"] == 1
    first_net = _per_deal(by_deal["net"].where(first, 0), deals)
    first_n = _per_deal(first.astype(np.int64), deals)
    rows = [
        _ratio_row(preset, "flush_share", "win", flushes, n_wins),
        _ratio_row(preset, "wins_per_deal", "deal", n_wins, one),
        _ratio_row(preset, "winners_per_deal", "deal", winners, one),
        _ratio_row(preset, "drawn_end", "deal", (winners < most).astype(np.int64), one),
        _ratio_row(preset, "first_winner_net", "first winner", first_net, first_n),
    ]
    if rules.blood_river:
        first_win = w["win_number"] == 1
        units = w["units"].astype(np.int64)
        rows.append(_ratio_row(preset, "first_win_units", "win",
                               _per_deal(units.where(first_win, 0), deals),
                               _per_deal(first_win.astype(np.int64), deals)))
        rows.append(_ratio_row(preset, "later_win_units", "win",
                               _per_deal(units.where(~first_win, 0), deals),
                               _per_deal((~first_win).astype(np.int64), deals)))
    return rows


def _analysis(arms: Sequence[Arm], datasets: Sequence[Dataset]) -> pd.DataFrame:
    rows: list[dict[str, object]] = []
    for arm, ds in zip(arms, datasets, strict=True):
        records = ds.records(columns=["deal", "winners", "win_order", "net"])
        rows += preset_rows(arm.labels["preset"], records, ds.wins)
    table = pd.DataFrame(rows)
    table["p_value"] = np.nan  # descriptive: nothing is tested
    return table


def _headline(table: pd.DataFrame) -> str:
    def cell(preset: str, measure: str, fmt: str) -> str:
        row = table[(table["preset"] == preset) & (table["measure"] == measure)]
        if row.empty:
            return "-"
        r = row.iloc[0]
        return f"{r.estimate:{fmt}} [{r.ci_low:{fmt}}, {r.ci_high:{fmt}}]"

    lines = []
    for preset in table["preset"].drop_duplicates():
        lines.append(
            f"- {preset}: full flush in {cell(preset, 'flush_share', '.1%')} of wins, "
            f"{cell(preset, 'wins_per_deal', '.2f')} wins per deal, drawn end in "
            f"{cell(preset, 'drawn_end', '.1%')} of deals, the first winner ends the deal at "
            f"{cell(preset, 'first_winner_net', '+.2f')} units"
        )
    river = table[table["measure"] == "later_win_units"]
    if len(river):
        lines.append(f"- river: a later win is paid {cell('river', 'later_win_units', '.2f')} "
                     f"units per payer, a first win {cell('river', 'first_win_units', '.2f')}")
    return "The variants of docs/rules section 9, speed on every seat:\n" + "\n".join(lines)


def build(fields: Sequence[str] = ()) -> Experiment:
    """The four tables of ``speed`` players (``fields`` is accepted for the common builder
    signature and ignored: the question is about the games, not the opponents)."""
    arms = tuple(Arm(preset, preset, "speed", {"preset": preset}, duplicate=False)
                 for preset in VARIANT_PRESETS)
    return Experiment(
        name="variants",
        question="What changes with three players, two suits or blood river? Full-flush share "
                 "of wins, wins and winners per deal, drawn ends, the first winner's net, and "
                 "under blood river the first against later wins, speed on every seat.",
        arms=arms,
        analyse=_analysis,
        headline=_headline,
        markdown_rows=("measure", "per"),
        markdown_pivot="preset",
        family=("measure",),
    )
