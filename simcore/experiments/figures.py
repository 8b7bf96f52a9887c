"""Figures of the experiments' result tables (matplotlib object API, no pyplot state).

Each function takes the table :func:`~simcore.experiments.run_experiment` returned (or
:func:`~simcore.experiments.load_result` read) and returns a Figure; :func:`save_figures`
writes the README's small PNGs.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from simcore.analysis.figures import add_caption, error_bars, new_figure
from simcore.experiments.base import ExperimentResult

DPI = 100


def _size_caption(result: ExperimentResult) -> str:
    meta = result.meta
    walls = " (duplicate: each wall x 4 seat rotations)" if meta.get("duplicate") else ""
    return (f"{meta.get('deals_per_arm', 0):,} deals per arm{walls}, seed {meta.get('seed')}, "
            f"simcore {meta.get('simcore_version')}; bars: 95% intervals")


def _speed_field(table: pd.DataFrame, field: str = "speed") -> pd.DataFrame:
    """The rows of one field (the README's figures show the speed field; the tables have all)."""
    if "field" in table.columns and (table["field"] == field).any():
        return table[table["field"] == field]
    return table


def _headline_rows(table: pd.DataFrame, metric: str) -> pd.DataFrame:
    """The switching gains of ``metric`` against speed on the table's first seed (speed field)."""
    table = _speed_field(table)
    rows = table[(table["metric"] == metric) & (table["baseline"] == "speed")]
    if "estimand" in rows.columns:
        rows = rows[rows["estimand"] == "switching_gain"]
    if "seed" in rows.columns and len(rows):
        rows = rows[rows["seed"] == rows["seed"].min()]
    return rows


def flush_threshold(result: ExperimentResult) -> Figure:
    """Net switching gain of ``flush:k`` against three ``speed`` seats as a function of k, one
    line per preset."""
    table = result.table
    rows = _headline_rows(table, "net")
    fig = new_figure(6.0, 3.6)
    ax = fig.subplots()
    for offset, (preset, part) in zip((-0.08, 0.08, 0.0), rows.groupby("preset", sort=False),
                                      strict=False):
        k = part["k"].to_numpy(np.float64) + offset
        est = part["estimate"].to_numpy(np.float64)
        err = error_bars(est, part["ci_low"].to_numpy(np.float64),
                         part["ci_high"].to_numpy(np.float64))
        ax.errorbar(k, est, yerr=err, fmt="o-", capsize=3, label=preset)
    ax.axhline(0.0, color="0.5", lw=0.8, ls="--")
    ax.set_xlabel("k: chase the flush when the longest suit holds >= k tiles")
    ax.set_ylabel("switching gain (units per deal)")
    ax.set_title("Chasing the full flush: switching one seat from speed to flush:k\n"
                 "against three speed players", fontsize=10)
    ax.legend(title="preset")
    add_caption(fig, _size_caption(result))
    return fig


def strategy_forest(results: list[ExperimentResult], metric: str = "net") -> Figure:
    """Forest plot of every variant's difference from speed (one row per arm and preset)."""
    parts = []
    for result in results:
        t = result.table
        parts.append(_headline_rows(t, metric).assign(experiment=result.name))
    rows = pd.concat(parts, ignore_index=True)
    fig = new_figure(6.4, 0.9 + 0.28 * len(rows))
    ax = fig.subplots()
    y = np.arange(len(rows))[::-1]
    est = rows["estimate"].to_numpy(np.float64)
    err = error_bars(est, rows["ci_low"].to_numpy(np.float64), rows["ci_high"].to_numpy(np.float64))
    colors = {p: f"C{i}" for i, p in enumerate(dict.fromkeys(rows["preset"]))}
    for preset, color in colors.items():
        mask = (rows["preset"] == preset).to_numpy()
        ax.errorbar(est[mask], y[mask], xerr=err[:, mask], fmt="o", capsize=3, color=color,
                    label=preset)
    ax.set_yticks(y, [p.replace("speed:", "") for p in rows["policy"]], fontsize=8)
    ax.axvline(0.0, color="0.5", lw=0.8, ls="--")
    ax.set_xlabel(f"switching gain in {metric} (units per deal)")
    ax.set_title("One seat switches from speed against three speed players\n"
                 "(exchange, void, kongs, holding out)", fontsize=10)
    ax.legend(title="preset", fontsize=8)
    add_caption(fig, _size_caption(results[0]))
    return fig


def net_by_win_order(result: ExperimentResult) -> Figure:
    """Mean net by win order (1st, 2nd, 3rd winner, never won) per preset (speed field)."""
    table = _speed_field(result.table)
    rows = table[table["metric"] == "net"]
    levels = ["1", "2", "3", "none"]
    presets = list(dict.fromkeys(rows["preset"]))
    fig = new_figure(6.0, 3.4)
    ax = fig.subplots()
    width = 0.8 / max(len(presets), 1)
    for i, preset in enumerate(presets):
        part = rows[rows["preset"] == preset].set_index("level").reindex(levels)
        est = part["estimate"].to_numpy(np.float64)
        err = error_bars(est, part["ci_low"].to_numpy(np.float64),
                         part["ci_high"].to_numpy(np.float64))
        ax.bar(np.arange(len(levels)) + (i - (len(presets) - 1) / 2) * width, est, width,
               yerr=err, capsize=2, label=preset)
    ax.set_xticks(np.arange(len(levels)), ["1st winner", "2nd", "3rd", "never won"])
    ax.axhline(0.0, color="0.3", lw=0.8)
    ax.set_ylabel("mean net (units per deal)")
    ax.set_title("What winning first is worth (speed on all seats)")
    ax.legend(title="preset", fontsize=7, title_fontsize=7, ncols=min(len(presets), 5),
              loc="upper right")
    add_caption(fig, _size_caption(result))
    return fig


def rules_overview(result: ExperimentResult) -> Figure:
    """Per preset: the fan distribution of wins and the spread (sd) of nets (the mixed table)."""
    table = _speed_field(result.table, "flush/pungs/pairs")
    fig = new_figure(8.0, 3.4)
    left, right = fig.subplots(1, 2, width_ratios=[2, 1])
    fans = table[table["measure"] == "wins_by_fan"].copy()
    fans["fan"] = pd.to_numeric(fans["value"])
    fans.loc[fans["fan"] >= 4, "fan"] = 4
    shares = fans.groupby(["preset", "fan"], sort=False)["estimate"].sum().unstack("fan")
    presets = list(dict.fromkeys(table["preset"]))
    shares = shares.reindex(presets).fillna(0.0)
    bottom = np.zeros(len(presets))
    for fan in shares.columns:
        label = f"{fan}+" if fan == 4 else str(fan)
        left.bar(presets, shares[fan] * 100, bottom=bottom, label=f"{label} fan")
        bottom += shares[fan].to_numpy() * 100
    left.set_ylabel("share of wins (%)")
    left.set_title("Fan of the wins")
    left.legend(fontsize=7, loc="lower right")
    sd = table[table["measure"] == "net_sd"].set_index("preset").reindex(presets)
    est = sd["estimate"].to_numpy(np.float64)
    right.bar(presets, est, yerr=error_bars(est, sd["ci_low"].to_numpy(np.float64),
                                            sd["ci_high"].to_numpy(np.float64)), capsize=3)
    right.set_ylabel("sd of net (units)")
    right.set_title("Spread of nets")
    for ax in (left, right):
        ax.tick_params(axis="x", labelsize=8)
    fig.suptitle("The five rule sets, same policies (speed/flush/pungs/pairs)")
    add_caption(fig, _size_caption(result))
    return fig


def save_figures(results: dict[str, ExperimentResult], out: str | os.PathLike[str]) -> list[Path]:
    """Write the README's PNGs for the results at hand into ``out``; return the paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    figures: dict[str, Figure] = {}
    if "speed_vs_flush" in results:
        figures["speed_vs_flush.png"] = flush_threshold(results["speed_vs_flush"])
    strategy = [results[n] for n in ("exchange_three", "void_choice", "kong_timing", "hold_out")
                if n in results]
    if strategy:
        figures["strategy_choices.png"] = strategy_forest(strategy)
    if "first_win_profit" in results:
        figures["first_win_profit.png"] = net_by_win_order(results["first_win_profit"])
    if "rules_compared" in results:
        figures["rules_compared.png"] = rules_overview(results["rules_compared"])
    paths = []
    for name, fig in figures.items():
        fig.savefig(out / name, dpi=DPI)
        paths.append(out / name)
    return paths


def push_fold_cells(result: ExperimentResult, contrast: str = "fold_vs_push",
                    field: str = "speed") -> Figure:
    """``contrast`` per deal within each situation (when an opponent first won; how fast the
    seat's own hand was, both read on the same wall with speed in the seat), one panel each,
    one colour per preset."""
    table = result.table
    rows = table[(table["estimand"] == "cell_effect") & (table["metric"] == "net")
                 & (table["contrast"] == contrast) & (table["field"] == field)]
    rows = rows[rows["seed"] == rows["seed"].min()] if len(rows) else rows
    fig = new_figure(8.0, 3.4)
    axes = fig.subplots(1, 2, sharey=True)
    for ax, (breakdown, title) in zip(axes, (("table", "when an opponent first won"),
                                             ("own", "the seat's own hand (as speed)")),
                                      strict=True):
        part = rows[rows["breakdown"] == breakdown]
        cells = list(dict.fromkeys(part["situation"]))
        presets = list(dict.fromkeys(part["preset"]))
        width = 0.8 / max(len(presets), 1)
        for i, preset in enumerate(presets):
            p = part[part["preset"] == preset].set_index("situation").reindex(cells)
            est = p["estimate"].to_numpy(np.float64)
            err = error_bars(est, p["ci_low"].to_numpy(np.float64),
                             p["ci_high"].to_numpy(np.float64))
            ax.bar(np.arange(len(cells)) + (i - (len(presets) - 1) / 2) * width, est, width,
                   yerr=err, capsize=2, label=preset)
        ax.set_xticks(np.arange(len(cells)), cells)
        ax.axhline(0.0, color="0.3", lw=0.8)
        ax.set_title(title, fontsize=9)
    axes[0].set_ylabel(f"{contrast} (units per deal in the situation)")
    axes[0].legend(title="preset", fontsize=7)
    fig.suptitle(f"Where folding pays ({contrast}), {field} field", fontsize=10)
    add_caption(fig, _size_caption(result))
    return fig


def keep_void_rates(result: ExperimentResult, field: str = "speed") -> Figure:
    """The expert seat's pig rate and deal-in rate holding a void tile (void_first=false) and
    discarding it first, per preset."""
    table = result.table
    rows = table[(table["estimand"] == "level") & (table["field"] == field)]
    rows = rows[rows["seed"] == rows["seed"].min()] if len(rows) else rows
    fig = new_figure(8.0, 3.4)
    axes = fig.subplots(1, 2)
    presets = list(dict.fromkeys(rows["preset"]))
    for ax, metric in zip(axes, ("pig", "deal_in"), strict=True):
        for i, play in enumerate(("hold", "discard")):
            p = rows[(rows["metric"] == metric) & (rows["void_play"] == play)]
            p = p.set_index("preset").reindex(presets)
            est = 100 * p["estimate"].to_numpy(np.float64)
            err = error_bars(est, 100 * p["ci_low"].to_numpy(np.float64),
                             100 * p["ci_high"].to_numpy(np.float64))
            ax.bar(np.arange(len(presets)) + (i - 0.5) * 0.4, est, 0.4, yerr=err, capsize=2,
                   label="hold (void_first=false)" if play == "hold" else "void first")
        ax.set_xticks(np.arange(len(presets)), presets)
        ax.set_ylabel(f"{metric} (% of the seat's deals)")
    axes[0].legend(fontsize=7)
    fig.suptitle(f"Keeping a dangerous void tile: pigs and deal-ins ({field} field)",
                 fontsize=10)
    add_caption(fig, _size_caption(result))
    return fig
