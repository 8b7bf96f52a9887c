"""A tune's files: ``trials.csv`` (one row per trial), ``best.json`` (the confirmed winner) and
``search.png`` (the search drawn), and :class:`TuneResult`, what :func:`simcore.tune` returns."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

TRIALS_CSV = "trials.csv"
BEST_JSON = "best.json"
FIGURE = "search.png"
TRIAL_COLUMNS = ("trial", "state", "spec", "walls", "gain", "se", "deals", "duplicate_of",
                 "stopped")


def trials_table(study: Any, param_names: list[str]) -> pd.DataFrame:
    """One row per trial: its state, setting, the rung (walls) it reached, its gain over the
    starting setting there with the SE, the deals it cost, and the trial it repeats."""
    rows = []
    for t in study.get_trials(deepcopy=False):
        a = t.user_attrs
        rows.append({
            "trial": t.number, "state": t.state.name.lower(),
            **{name: t.params.get(name) for name in param_names},
            "spec": a.get("spec", ""), "walls": a.get("walls", 0),
            "gain": a.get("gain", math.nan), "se": a.get("se", math.nan),
            "deals": a.get("deals", 0), "duplicate_of": a.get("duplicate_of", pd.NA),
            "stopped": a.get("stopped", ""),
        })
    columns = ["trial", "state", *param_names, *TRIAL_COLUMNS[2:]]
    table = pd.DataFrame(rows, columns=columns)
    table["duplicate_of"] = table["duplicate_of"].astype("Int64")
    return table


def write_csv(table: pd.DataFrame, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    table.to_csv(tmp, index=False)
    tmp.replace(path)


def _clean(value: Any) -> Any:
    if hasattr(value, "item"):  # numpy scalars
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def write_json(data: dict[str, Any], path: Path) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps({k: _clean(v) for k, v in data.items()}, indent=2,
                              ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)


@dataclass
class TuneResult:
    """The outcome of a tune (``best.json`` plus ``trials.csv``).

    ``setting``: the winner's tuned options; ``spec``: its full spec; ``start``: the starting
    setting's spec; ``gain``, ``se``, ``ci_low``, ``ci_high``: the winner's confirmed gain over
    the starting setting (fresh walls, interval at ``info['level']``); ``deals``: deals spent,
    everything included; ``trials``: the trials table; ``info``: all of ``best.json``.
    """

    setting: dict[str, Any]
    spec: str
    start: str
    gain: float
    se: float
    ci_low: float
    ci_high: float
    deals: int
    trials: pd.DataFrame
    info: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None

    @classmethod
    def from_info(cls, info: dict[str, Any], trials: pd.DataFrame,
                  path: Path | None = None) -> TuneResult:
        nan = math.nan
        return cls(info["setting"], info["spec"], info["start"],
                   _num(info["confirmed_gain"], nan), _num(info["confirmed_se"], nan),
                   _num(info["ci"][0], nan), _num(info["ci"][1], nan), info["deals_spent"],
                   trials, info, path)

    def summary(self) -> str:
        """A few lines: the winner, its confirmed gain and interval, what the search spent."""
        i = self.info
        level = f"{i['level']:.0%}"
        d = i["deals"]
        which = ("" if i["confirmed_spec"] == self.spec
                 else f" of the runner-up {i['confirmed_spec']}")
        lines = [
            f"tune {i['policy']} against {i['field']} ({i['rules']['preset']}, seed "
            f"{i['seed']}): {i['trials']} trials ({i['trials_played']} played), "
            f"{self.deals:,} of {i['budget']:,} deals",
            f"  best:  {self.spec}   ({', '.join(f'{k}={v}' for k, v in self.setting.items())})",
            f"  start: {self.start}",
            f"  search gain over the start: {i['search_gain']:+.4f} (SE {i['search_se']:.4f}, "
            f"{i['search_walls']:,} walls of seed {i['seed']})",
            f"  confirmed gain{which}: {self.gain:+.4f} [{self.ci_low:+.4f}, {self.ci_high:+.4f}] "
            f"({level}, {i['method']}, {i['confirm_walls']:,} fresh walls of seed "
            f"{i['confirm_seed']}): {i['verdict']}",
            f"  deals: baseline {d['baseline']:,}, trials {d['trials']:,}, confirmation "
            f"{d['confirmation']:,}",
        ]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"TuneResult({self.spec!r}, gain={self.gain:+.4f}, deals={self.deals:,})"


def _num(value: Any, default: float) -> float:
    return default if value is None else float(value)


def verdict(row: dict[str, Any], level: float, start_won: bool = False) -> str:
    """What the confirmation says: the confirmed setting better than the start, worse, or not
    distinguishable (its interval holds 0); ``start_won``: the search's best was the start."""
    pct = f"{level:.0%}"
    if row["ci_low"] is not None and row["ci_low"] > 0:
        text = f"better than the start ({pct} interval above 0)"
    elif row["ci_high"] is not None and row["ci_high"] < 0:
        text = f"worse than the start ({pct} interval below 0)"
    else:
        text = f"not distinguishable from the start ({pct} interval holds 0)"
    if start_won:
        return f"the start won the search; the runner-up is {text}"
    return text


def load_result(out: str | Path) -> TuneResult:
    """The result of the tune in directory ``out`` (its ``best.json`` and ``trials.csv``)."""
    path = Path(out)
    best = path / BEST_JSON
    if not best.exists():
        raise FileNotFoundError(f"no finished tune in {path} (no {BEST_JSON})")
    info = json.loads(best.read_text(encoding="utf-8"))
    return TuneResult.from_info(info, pd.read_csv(path / TRIALS_CSV), path)


def search_figure(result: TuneResult, param_names: list[str]) -> Any:
    """The search: each trial's gain (±1 SE) by trial number, coloured by the walls it
    reached, and the gain against each tuned option; the winner starred."""
    import matplotlib
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    table = result.trials
    # each setting once, at the deepest rung it reached (repeats and killed trials left out)
    played = table[table["state"].isin(["complete", "pruned"]) & (table["walls"] > 0)
                   & table["duplicate_of"].isna()]
    panels = 1 + len(param_names)
    fig = Figure(figsize=(4.2 * panels, 3.6), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, panels, squeeze=False)[0]
    rungs = sorted(played["walls"].unique())
    cmap = matplotlib.colormaps["viridis"]
    colours = {w: cmap(i / max(1, len(rungs) - 1)) for i, w in enumerate(rungs)}
    best = table[table["spec"] == result.spec]
    best = best[best["walls"] == best["walls"].max()].head(1)

    ax = axes[0]
    for w in rungs:
        part = played[played["walls"] == w]
        ax.errorbar(part["trial"], part["gain"], yerr=part["se"].fillna(0), fmt="o", ms=4,
                    color=colours[w], label=f"{w:,} walls", elinewidth=0.8)
    ax.plot(best["trial"], best["gain"], "*", ms=14, color="crimson", label="best")
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set_xlabel("trial")
    ax.set_ylabel("gain over the start (units per deal)")
    ax.legend(fontsize=7, title="reached", title_fontsize=7)
    for ax, name in zip(axes[1:], param_names, strict=True):
        x = played[name]
        numeric = pd.api.types.is_numeric_dtype(x)
        labels = [] if numeric else sorted(x.unique())
        xs = x if numeric else x.map({v: i for i, v in enumerate(labels)})
        for w in rungs:
            sel = played["walls"] == w
            jitter = np.linspace(-0.15, 0.15, int(sel.sum())) if not numeric else 0
            ax.scatter(xs[sel] + jitter, played.loc[sel, "gain"], s=16, color=colours[w])
        bx = best[name] if numeric else best[name].map({v: i for i, v in enumerate(labels)})
        ax.plot(bx, best["gain"], "*", ms=14, color="crimson")
        if not numeric:
            ax.set_xticks(range(len(labels)), labels)
        ax.axhline(0, color="0.5", lw=0.8)
        ax.set_xlabel(name)
    i = result.info
    fig.suptitle(f"tune {i['policy']} against {i['field']} ({i['rules']['preset']}): best "
                 f"{result.spec}, confirmed {result.gain:+.3f} [{result.ci_low:+.3f}, "
                 f"{result.ci_high:+.3f}]", fontsize=9)
    return fig
