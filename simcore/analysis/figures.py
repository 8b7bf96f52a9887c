"""PNG figures of a report, drawn with matplotlib's object API on the Agg canvas.

No pyplot: figures never touch a global backend or state (safe in notebooks and workers). Every
figure has a title, labelled axes with units and a caption with the deal count.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

FIGURE_NAMES = (
    "fan_frequency.png", "net_by_win_order.png", "pig_rate_by_policy.png", "policy_comparison.png",
)
DPI = 110
# axis labels of compare_policies metrics: rates are shown in percentage points
METRIC_AXES = {
    "net": ("net", "units per deal", 1.0),
    "win": ("win rate", "percentage points", 100.0),
    "fan": ("fan won", "fan per deal", 1.0),
    "pig": ("flower-pig rate", "percentage points", 100.0),
    "deal_in": ("deal-in rate", "percentage points", 100.0),
    "deal_ins": ("deal-ins", "winners on own discards per deal", 1.0),
}


def new_figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def add_caption(fig: Figure, text: str) -> None:
    fig.supxlabel(text, fontsize=8, color="0.3", x=0.01, ha="left")


def _group_label(row: pd.Series, by: Sequence[str]) -> str:
    return " / ".join(str(row[c]) for c in by) if by else "all"


def _group_columns(table: pd.DataFrame, stop: str) -> list[str]:
    """The grouping columns of a table: those before column ``stop``."""
    cols = list(table.columns)
    return cols[: cols.index(stop)] if stop in cols else []


def error_bars(centre: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Error-bar lengths below and above ``centre`` (0 where an interval is undefined)."""
    err = np.vstack([centre - low, high - centre])
    return np.clip(np.nan_to_num(err), 0.0, None)


def fan_frequency(fans: pd.DataFrame, caption: str) -> Figure:
    """Bars of the share of wins of each total fan and each pattern, per group, with intervals."""
    by = _group_columns(fans, "item")
    fig = new_figure(10, 4.2)
    axes = fig.subplots(1, 2, width_ratios=(3, 2))
    for ax, item, xlabel in (
        (axes[0], "fan", "total fan of the win (a win of f fan is worth 2^f units per payer)"),
        (axes[1], "pattern", "pattern of the win"),
    ):
        rows = fans[(fans["item"] == item) & (fans["per"] == "win")]
        _grouped_bars(ax, rows, by, "value", "rate", 100.0)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("share of wins (%)")
    axes[1].tick_params(axis="x", labelrotation=30)
    fig.suptitle("Fan frequency per win (95% intervals)")
    add_caption(fig, caption)
    return fig


def _grouped_bars(
    ax: Axes, rows: pd.DataFrame, by: list[str], x: str, y: str, scale: float
) -> None:
    values = list(dict.fromkeys(rows[x]))
    groups = list(dict.fromkeys(_group_label(r, by) for _, r in rows.iterrows()))
    labels = np.array([_group_label(r, by) for _, r in rows.iterrows()], dtype=object)
    width = 0.8 / max(len(groups), 1)
    for i, group in enumerate(groups):
        part = rows[labels == group].set_index(x).reindex(values)
        centre = part[y].to_numpy(np.float64) * scale
        err = error_bars(centre, part["ci_low"].to_numpy(np.float64) * scale,
                      part["ci_high"].to_numpy(np.float64) * scale)
        ax.bar(np.arange(len(values)) + (i - (len(groups) - 1) / 2) * width, centre, width,
               yerr=err, capsize=2, label=group)
    ax.set_xticks(np.arange(len(values)), [str(v) for v in values])
    if len(groups) > 1:
        ax.legend(fontsize=8)


def net_by_win_order(counts: pd.DataFrame, caption: str) -> Figure:
    """Box plots of net by win order (whiskers at the 5th and 95th percentiles, mean marked),
    drawn from counts of (win order, net)."""
    by = _group_columns(counts, "win_order")
    fig = new_figure(8, 4.5)
    ax = fig.subplots()
    stats = []
    groups = counts.groupby(by, sort=False) if by else [((), counts)]
    # non-winners are order 4, or 5 under blood river, where four players can win
    none = 5 if (counts["win_order"] == 5).any() else 4
    for label, part in groups:
        name = " / ".join(map(str, label if isinstance(label, tuple) else (label,)))
        for order in sorted(part["win_order"].unique()):
            rows = part[part["win_order"] == order].sort_values("net")
            net = rows["net"].to_numpy(np.float64)
            weight = rows["count"].to_numpy(np.float64)
            order_name = "none" if order == none else str(int(order))
            stats.append({
                "label": f"{order_name}\n{name}" if name else order_name,
                "med": _quantile(net, weight, 0.5), "q1": _quantile(net, weight, 0.25),
                "q3": _quantile(net, weight, 0.75), "whislo": _quantile(net, weight, 0.05),
                "whishi": _quantile(net, weight, 0.95),
                "mean": float(np.average(net, weights=weight)),
                "fliers": [],
            })
    if stats:
        ax.bxp(stats, showmeans=True, showfliers=False)
    ax.axhline(0.0, color="0.6", lw=0.8)
    ax.set_xlabel("win order (1 = first to win; none = did not win)")
    ax.set_ylabel("net (units per deal)")
    ax.set_title("Net by win order (box: quartiles, whiskers: 5th-95th percentile, ▲ mean)")
    add_caption(fig, caption)
    return fig


def _quantile(values: np.ndarray, weights: np.ndarray, q: float) -> float:
    """Quantile ``q`` of sorted ``values`` repeated ``weights`` times (lower value on ties)."""
    cum = np.cumsum(weights)
    return float(values[min(int(np.searchsorted(cum, q * cum[-1])), len(values) - 1)])


def pig_rate_by_policy(drawn: pd.DataFrame, caption: str) -> Figure:
    """Bars of the flower-pig rate per player-deal of each policy, with intervals."""
    by = _group_columns(drawn, "metric")
    rows = drawn[(drawn["metric"] == "pig") & (drawn["per"] == "player-deal")]
    fig = new_figure(7, 4)
    ax = fig.subplots()
    labels = [_group_label(r, by) for _, r in rows.iterrows()]
    rate = rows["estimate"].to_numpy(np.float64) * 100
    err = error_bars(rate, rows["ci_low"].to_numpy(np.float64) * 100,
                  rows["ci_high"].to_numpy(np.float64) * 100)
    ax.bar(np.arange(len(rows)), rate, yerr=err, capsize=3, color="tab:red")
    ax.set_xticks(np.arange(len(rows)), labels, rotation=20, ha="right")
    ax.set_xlabel(" / ".join(by) if by else "all player-deals")
    ax.set_ylabel("flower-pig rate (% of player-deals)")
    # say the interval the table carries (drawn.py via ratio_rows): clustered by deal or wall,
    # since a deal's (wall's) rows are not independent; Wilson's over those units where the
    # rate is 0, which has no spread to cluster; not Wilson's over player-deals
    named = []
    for method in dict.fromkeys(rows["method"].astype(str) if "method" in rows else ()):
        kind, _, unit = method.partition("(")
        unit = unit.rstrip(")")
        if kind == "cluster":
            named.append(f"clustered by {unit}")
        elif kind == "wilson" and unit:
            named.append(f"Wilson over {unit} where the rate is 0 or 1")
        else:
            named.append(method)
    ax.set_title("Flower-pig rate by policy (95% intervals"
                 + (f" {'; '.join(named)})" if named else ")"))
    add_caption(fig, caption)
    return fig


# how policy_forest names a difference row's estimand (the table's `estimand` column)
ESTIMAND_AXES = {
    "switching_gain": "switching gain",
    "vs_baseline": "difference from the baseline",
    "vs_field": "difference from the field",
}
# the x label's first words per estimand (short: three axes share a row)
ESTIMAND_LABELS = {
    "switching_gain": "switching gain in",
    "vs_baseline": "difference in",
    "vs_field": "difference from the field in",
}


def _difference_label(row: pd.Series) -> str:
    """A difference row's label: ``policy − baseline``, or, for the switching gain, the policy
    played instead of the baseline (``policy for baseline``); ``policy − field``."""
    estimand = row.get("estimand", "")
    if estimand == "switching_gain":
        return f"{row['policy']} for {row['baseline']}"
    if estimand == "vs_field":
        return f"{row['policy']} − field"
    return f"{row['policy']} − {row['baseline']}"


def policy_forest(compare: pd.DataFrame, caption: str) -> Figure:
    """Forest plot: each policy's difference from the baseline per metric, with intervals
    (with a single policy, its means); each axis names the estimand of its rows (the
    ``estimand`` column: switching gain, difference from the baseline or from the field)."""
    by = _group_columns(compare, "metric")
    diffs = compare[compare["stat"] == "difference"]
    showing_differences = len(diffs) > 0
    rows = diffs if showing_differences else compare
    metrics = list(dict.fromkeys(rows["metric"])) or ["net"]
    fig = new_figure(4.2 * min(len(metrics), 3), 1.2 + 2.2 * -(-len(metrics) // 3))
    axes = np.atleast_1d(fig.subplots(-(-len(metrics) // 3), min(len(metrics), 3))).ravel()
    for ax, metric in zip(axes, metrics, strict=False):
        part = rows[rows["metric"] == metric]
        name, unit, scale = METRIC_AXES.get(metric, (metric, "per player-deal", 1.0))
        est = part["estimate"].to_numpy(np.float64) * scale
        low = part["ci_low"].to_numpy(np.float64) * scale
        high = part["ci_high"].to_numpy(np.float64) * scale
        y = np.arange(len(part))[::-1]
        ax.errorbar(est, y, xerr=error_bars(est, low, high), fmt="o", capsize=3)
        estimands = [str(e) for e in dict.fromkeys(part.get("estimand", pd.Series(dtype=object)))
                     if isinstance(e, str) and e]
        labels = [
            (_difference_label(r) if showing_differences else str(r["policy"]))
            + (f" ({_group_label(r, by)})" if by else "")
            for _, r in part.iterrows()
        ]
        ax.set_yticks(y, labels, fontsize=8)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=4))  # long tick labels must not collide
        if showing_differences:
            ax.axvline(0.0, color="0.5", lw=0.8, ls="--")
            kind = " / ".join(ESTIMAND_LABELS.get(e, e) for e in estimands) or "difference in"
            ax.set_xlabel(f"{kind} {name} ({unit})")
        else:
            ax.set_xlabel(f"{name} ({unit.replace('percentage points', '%')})")
        ax.set_ylabel("policy")
        ax.set_title(name)
    for ax in axes[len(metrics):]:
        ax.set_visible(False)
    shown = [ESTIMAND_AXES.get(str(e), str(e)) for e in dict.fromkeys(rows.get(
        "estimand", pd.Series(dtype=object))) if isinstance(e, str) and e]
    kind = ("differences (" + "; ".join(shown) + ")" if shown else "differences") \
        if showing_differences else "means (single policy)"
    fig.suptitle(f"Policy comparison: {kind}, 95% intervals")
    add_caption(fig, caption)
    return fig
