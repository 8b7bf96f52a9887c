"""The full report of a run: every table in one pass over the data, rendered and plotted.

>>> import numpy as np
>>> from simcore.testing.synthetic import synthetic_records
>>> from simcore.records import to_dataframe
>>> df = to_dataframe(synthetic_records(200, np.random.default_rng(1)), ["greedy"], "classic")
>>> report = build_report(df)
>>> list(report.tables)[:3]
['fan_table', 'drawn_ends', 'win_order']
>>> report.summary["deals"]
200
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from simcore._input import unknown_name
from simcore.analysis import figures
from simcore.analysis.compare import DEFAULT_METRICS, ComparePolicies
from simcore.analysis.drawn import GLOSSARY as DRAWN_GLOSSARY
from simcore.analysis.drawn import DrawnEnds
from simcore.analysis.fans import FanTable
from simcore.analysis.horse import HorseValue, SeatEffects
from simcore.analysis.io import Batch, Run, open_run
from simcore.analysis.order import FirstWinProfit, WinOrder
from simcore.analysis.pipeline import Pipeline, run_pipelines
from simcore.analysis.stats import DEFAULT_LEVEL, ZERO_SUM_METRICS, wilson_interval
from simcore.analysis.summary import Summary
from simcore.analysis.wins import river_tables

FORMATS = ("text", "markdown", "json")
TITLES = {
    "fan_table": "Fan table (per win and per player-deal)",
    "drawn_ends": "Drawn ends, flower pigs, ready hands, kongs",
    "win_order": "Win order",
    "first_win_profit": "First win vs final profit",
    "compare_policies": "Policy comparison",
    "seat_effects": "Seat and dealer effects",
    "horse_value": "Buying a horse (买马)",
    "design_effects": "Design effects of the main rates",
}
# the tables of blood river runs only (from the win table: every win, not a player's first)
RIVER_TITLES = {
    "river_win_fans": "Fan of every win, first and later wins (blood river, win table)",
    "river_wins_per_player": "Wins per player per deal (blood river)",
    "river_win_value": "Value of the first vs later wins (blood river, win table)",
}
ALL_TITLES = {**TITLES, **RIVER_TITLES}
GLOSSARY = {
    **DRAWN_GLOSSARY,
    "player-deal": "one player's result in one deal (four per deal)",
    "wall": "the shuffled tiles of a deal; a duplicate run plays each wall in all four seat "
            "rotations, so the wall, not the deal, is its independent unit",
    "cluster(wall), cluster(deal)": "the interval of a ratio estimator clustered by wall "
                                    "(duplicate runs) or deal: observations sharing one are "
                                    "not independent",
    "wilson": "Wilson score interval, kept for independent counts (deals of a run that is not "
              "a duplicate one)",
    "design_effect": "the variance of an estimate over the variance it would have if every "
                     "observation were independent; the naive interval is sqrt(design_effect) "
                     "times too narrow",
    "paired": "a difference of two policies on the same walls, one value per wall",
    "switching_gain": "estimand: what a seat gains by playing the policy instead of the "
                      "baseline against the same field (the project's headline difference; "
                      "from one duplicate run of one policy against the baseline, for net)",
    "vs_baseline": "estimand: the policy's mean minus the baseline's at the same tables (in a "
                   "run of one policy against three baseline seats, 4/3 of the switching gain "
                   "for net)",
    "vs_field": "estimand: the policy's mean minus the mean of the other seats of its deals",
    "bootstrap-bca": "a wall-level BCa bootstrap interval, used when the per-wall differences "
                     "are heavy-tailed",
    "bootstrap-bca+normal": "the union of the BCa bootstrap and normal intervals, used when "
                            "fewer than 1,000 walls are informative (each alone covers less "
                            "than 95% there)",
}
# the main rates whose design effect the report states: (table, selection)
MAIN_RATES = (
    ("drawn_ends", {"metric": "exhausted", "per": "deal"}),
    ("drawn_ends", {"metric": "no_winner", "per": "deal"}),
    ("drawn_ends", {"metric": "ready_end"}),
    ("drawn_ends", {"metric": "kongs", "per": "deal"}),
    ("fan_table", {"item": "flush", "value": "yes", "per": "win"}),
    ("fan_table", {"item": "pattern", "value": "plain", "per": "win"}),
    ("compare_policies", {"metric": "win", "stat": "rate"}),
)
# the metrics, plus the mean number of deal-ins beside the deal-in rate
REPORT_METRICS = (*DEFAULT_METRICS, "deal_ins")
META_FIELDS = ("preset", "rules_id", "seed", "deals", "duplicate", "complete", "chunk_size")
# what each estimand of a difference row is, in words (the report's notes and the forest plot)
ESTIMAND_WORDS = {
    "switching_gain": "switching gain: what a seat gains by playing the policy instead of the "
                      "baseline against the same field",
    "vs_baseline": "the policy's mean minus the baseline's at the same tables",
    "vs_field": "the policy's mean minus the mean of the other seats of its deals",
}


def field_policy(run: Run) -> str | None:
    """The policy of the field when one seat plays another policy against every other seat
    playing this one (``flush:k=8/speed/speed/speed``: ``speed``), else None. Read from the
    run's ``seat_policies`` (a run directory) or its first deal (a DataFrame)."""
    seats = run.meta.get("seat_policies")
    if not isinstance(seats, list) and run.frame is not None and len(run.frame):
        frame = run.frame
        first = frame[frame["deal"] == frame["deal"].iloc[0]] if "deal" in frame else frame
        seats = [str(p) for p in first["policy"]] if "policy" in first else None
    if not isinstance(seats, list) or len(seats) < 2:
        return None
    counts = pd.Series([str(p) for p in seats]).value_counts()
    if len(counts) == 2 and counts.iloc[0] == len(seats) - 1:
        return str(counts.index[0])
    return None


def report_baseline(run: Run) -> str | None:
    """The report's baseline by default: the field's policy (:func:`field_policy`), so a run of
    one policy against three baseline seats compares that policy with them; else None (the
    run's first policy)."""
    field = field_policy(run)
    return field if field in run.policies else None


def report_estimand(run: Run, baseline: str | None = None, where: str | None = None) -> str:
    """The estimand of the report's difference rows by default: ``switching_gain`` where one
    run defines it (a duplicate run of one policy against a field of the baseline, no
    ``where``), else ``vs_baseline``. The switching gain covers the zero-sum metrics (``net``);
    the other metrics' rows stay ``vs_baseline`` and say so."""
    field = field_policy(run)
    base = baseline if baseline is not None else report_baseline(run)
    defined = run.duplicate and field is not None and base == field and where is None
    return "switching_gain" if defined else "vs_baseline"


class ReportComparison(Pipeline):
    """The report's policy comparison: :class:`ComparePolicies` of every report metric with
    ``estimand``, where it is defined; the switching gain is defined for the zero-sum metrics
    only, so the others are compared ``vs_baseline`` (each difference row names its estimand)."""

    blocks = True

    def __init__(self, run: Run, baseline: str | None, metrics: Sequence[str], level: float,
                 estimand: str, where: str | None = None) -> None:
        super().__init__(run, level)
        field = field_policy(run)
        base: str | None = baseline if baseline is not None else (
            run.policies[0] if run.policies else None)
        if estimand == "switching_gain" and run.duplicate and field is not None and base != field:
            raise ValueError(
                f"the switching gain is a policy's gain against a field of the baseline; the "
                f"field of this run is {field!r}, not the baseline {base!r} (pass --baseline "
                f"{field} or another --estimand)"
            )
        groups: dict[str, list[str]] = {}
        for metric in metrics:
            own = estimand if estimand != "switching_gain" or metric in ZERO_SUM_METRICS \
                else "vs_baseline"
            groups.setdefault(own, []).append(metric)
        self.metrics = tuple(metrics)
        self.estimands = {m: e for e, ms in groups.items() for m in ms}
        self.parts = [ComparePolicies(run, baseline=baseline, metrics=ms, level=level,
                                      estimand=e, where=where) for e, ms in groups.items()]
        self.columns = tuple(dict.fromkeys(c for p in self.parts for c in p.columns))

    def update(self, batch: Batch) -> None:
        for part in self.parts:
            part.update(batch)

    def result(self) -> pd.DataFrame:
        frames = [p.result() for p in self.parts]
        out = pd.concat([f for f in frames if len(f)] or frames[:1], ignore_index=True)
        order = {m: i for i, m in enumerate(self.metrics)}
        rank = out["metric"].map(order).to_numpy()
        return out.iloc[np.argsort(rank, kind="stable")].reset_index(drop=True)

    def note(self) -> str:
        """One paragraph: which estimand each metric's difference rows are, and the seats."""
        if len(self.run.policies) < 2:
            return ""
        baseline = self.parts[0].baseline
        lines = []
        for estimand in dict.fromkeys(self.estimands.values()):
            names = [m for m in self.metrics if self.estimands[m] == estimand]
            lines.append(f"{', '.join(names)}: {estimand} ({ESTIMAND_WORDS[estimand]})")
        text = f"Difference rows (baseline {baseline}) -- " + "; ".join(lines) + "."
        where = self.parts[0].where
        if where is not None:
            text += (f" Only the seats whose starting hand meets `{where}` (read on the "
                     f"baseline's records of each wall and seat; both policies in the same "
                     f"seats; `seats` counts them).")
        return text


@dataclass
class Report:
    """Every table of a run, its summary, and what the figures need."""

    run: Run
    summary: dict[str, Any]
    tables: dict[str, pd.DataFrame]
    net_by_order: pd.DataFrame
    # per table, a sentence printed under its title (which estimand the comparison shows)
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def caption(self) -> str:
        """Figure caption: deal count and run."""
        return f"{self.summary['deals']:,} deals · run {self.run.name}"

    def header(self) -> dict[str, Any]:
        """What the run is: its metadata fields and policies."""
        info: dict[str, Any] = {"run": self.run.name}
        info.update({k: self.run.meta[k] for k in META_FIELDS if k in self.run.meta})
        info["policies"] = ", ".join(self.run.policies)
        return info


def build_report(
    run: object, baseline: str | None = None, level: float = DEFAULT_LEVEL,
    estimand: str | None = None, where: str | None = None,
) -> Report:
    """Compute every table of the report over one pass of ``run``.

    ``baseline`` defaults to the field's policy in a run of one policy against a field of
    another (:func:`report_baseline`), else to the run's first policy. The policy comparison's
    difference rows are ``estimand`` (default :func:`report_estimand`: the switching gain where
    one run defines it, else ``vs_baseline``); ``where`` restricts the
    comparison (only it) to the seats whose starting hand meets a condition
    (:func:`simcore.analysis.compare_policies`).
    """
    opened = open_run(run)
    if baseline is None:
        baseline = report_baseline(opened)
    if estimand is None:
        estimand = report_estimand(opened, baseline, where)
    comparison = ReportComparison(opened, baseline, REPORT_METRICS, level, estimand, where)
    pipelines: dict[str, Pipeline] = {
        "fan_table": FanTable(opened, level=level),
        "drawn_ends": DrawnEnds(opened, level=level),
        "win_order": WinOrder(opened, level=level),
        "first_win_profit": FirstWinProfit(opened, level=level),
        "compare_policies": comparison,
        "seat_effects": SeatEffects(opened, level=level),
        "horse_value": HorseValue(opened, level=level),
    }
    summary = Summary(opened, level)
    run_pipelines(opened, [summary, *pipelines.values()])
    first = pipelines["first_win_profit"]
    assert isinstance(first, FirstWinProfit)
    tables = {name: p.result() for name, p in pipelines.items()}
    tables["design_effects"] = design_effects(tables, level)
    tables.update(river_tables(opened, level))
    note = comparison.note()
    return Report(run=opened, summary=summary.result(), tables=tables,
                  net_by_order=first.net_by_order(),
                  notes={"compare_policies": note} if note else {})


def design_effects(tables: dict[str, pd.DataFrame], level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """The main rates (and kongs per deal, a mean) of a report with their clustered interval,
    the method, the design effect, and the Wilson interval the same count would get were every
    player-deal independent (``naive_ci_low``, ``naive_ci_high``: a per-deal rate counted on its
    deal's four rows; empty for the mean)."""
    rows = []
    for name, where in MAIN_RATES:
        table = tables[name]
        mask = pd.Series(True, index=table.index)
        for column, value in where.items():
            if column not in table.columns:
                mask &= False
                continue
            mask &= table[column].astype(str) == str(value)
        for _, row in table[mask].iterrows():
            estimate = row["rate"] if "rate" in row else row["estimate"]
            label = "/".join(str(v) for v in where.values())
            group = ", ".join(str(row[c]) for c in ("preset", "policy") if c in row
                              and str(row[c]))
            per = str(row.get("per", "player-deal"))
            is_rate = str(row.get("stat", "rate")) == "rate"
            rows.append({"rate": label, "group": group, "per": per, "n": row["n"],
                         "is_rate": is_rate,
                         "estimate": estimate, "ci_low": row["ci_low"],
                         "ci_high": row["ci_high"],
                         "method": row.get("interval", row.get("method", "")),
                         "design_effect": row["design_effect"]})
    out = pd.DataFrame(rows, columns=["rate", "group", "per", "n", "is_rate", "estimate",
                                      "ci_low", "ci_high", "method", "design_effect"])
    if len(out):
        rate = out.pop("is_rate").to_numpy(bool)
        stat = np.where(rate, out["estimate"].to_numpy(float), 0.0)
        n = out["n"].to_numpy(float) * np.where(out["per"] == "deal", 4, 1)
        low, high = wilson_interval(np.clip(np.rint(stat * n), 0, n), n, level)
        out["naive_ci_low"] = np.where(rate, low, np.nan)
        out["naive_ci_high"] = np.where(rate, high, np.nan)
    else:
        out = out.drop(columns="is_rate").assign(naive_ci_low=[], naive_ci_high=[])
    return out


def glossary_lines() -> list[str]:
    """The report's glossary, one ``term: meaning`` line each."""
    return [f"  {term}: {meaning}" for term, meaning in GLOSSARY.items()]


def design_effect_line(report: Report) -> str:
    """One sentence naming the design effect of the main rates."""
    table = report.tables.get("design_effects")
    if table is None or not len(table):
        return ""
    parts = [f"{r.rate} ({r.group}) {r.design_effect:.1f}" for r in table.itertuples()
             if isinstance(r.design_effect, float) and np.isfinite(r.design_effect)]
    unit = "wall" if report.run.duplicate else "deal"
    return (f"Intervals are clustered by {unit}. Design effects (clustered variance over the "
            f"variance were every observation independent): " + "; ".join(parts) + ".")


def _cell(value: object) -> str:
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def markdown_table(frame: pd.DataFrame) -> str:
    """A GitHub-flavoured markdown table of ``frame`` (floats to 6 significant digits)."""
    cols = list(frame.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join(" --- " for _ in cols) + "|"]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(v).replace("|", "\\|") for v in row) + " |")
    return "\n".join(lines)


def text_table(frame: pd.DataFrame) -> str:
    """A plain-text table of ``frame`` (floats to 6 significant digits, blanks for missing)."""
    if not len(frame):
        return "(no rows)"
    cells = frame.astype(object).map(_cell)
    return cells.to_string(index=False)


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    # to_json turns NaN and NA into null; round trip to get plain Python values
    return json.loads(frame.to_json(orient="records", force_ascii=False))


def render(report: Report, fmt: str = "text") -> str:
    """The report as ``text``, ``markdown`` or ``json`` (one object of lists of records)."""
    if fmt not in FORMATS:
        raise ValueError(unknown_name("report format", fmt, FORMATS))
    header = report.header()
    if fmt == "json":
        out: dict[str, Any] = {
            "run": [header], "summary": [report.summary],
            **{name: _records(table) for name, table in report.tables.items()},
            "glossary": [{"term": t, "meaning": m} for t, m in GLOSSARY.items()],
            "notes": [{"table": t, "note": n} for t, n in report.notes.items()],
        }
        return json.dumps(out, ensure_ascii=False, indent=1)
    summary = pd.DataFrame([report.summary])
    if fmt == "markdown":
        parts = [f"# simcore report: {report.run.name}", "",
                 markdown_table(pd.DataFrame([header])), "", "## Summary", "",
                 markdown_table(summary), "", design_effect_line(report)]
        for name, table in report.tables.items():
            parts += ["", f"## {ALL_TITLES[name]}", ""]
            if name in report.notes:
                parts += [report.notes[name], ""]
            parts += [markdown_table(table)]
        parts += ["", "## Glossary", "", *(f"- **{t}**: {m}" for t, m in GLOSSARY.items())]
        return "\n".join(parts) + "\n"
    parts = [f"simcore report: {report.run.name}"]
    parts += [f"  {k}: {v}" for k, v in header.items() if k != "run"]
    if report.run.meta.get("complete") is False:
        parts.append("  WARNING: the run is incomplete; the tables cover the parts on disk")
    parts += ["", "Summary", text_table(summary), design_effect_line(report)]
    for name, table in report.tables.items():
        parts += ["", ALL_TITLES[name]]
        if name in report.notes:
            parts += [report.notes[name]]
        parts += [text_table(table)]
    parts += ["", "Glossary", *glossary_lines()]
    return "\n".join(parts) + "\n"


def write_figures(report: Report, out: Path | str) -> list[Path]:
    """Write the report's PNG figures into directory ``out`` (created if needed)."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"figure output {out} exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, fig in zip(figures.FIGURE_NAMES, draw_figures(report), strict=True):
        fig.savefig(out / name, dpi=figures.DPI)
        paths.append(out / name)
    return paths


def draw_figures(report: Report) -> list[Figure]:
    """The report's figures, in the order of :data:`figures.FIGURE_NAMES`."""
    caption, t = report.caption, report.tables
    return [
        figures.fan_frequency(t["fan_table"], caption),
        figures.net_by_win_order(report.net_by_order, caption),
        figures.pig_rate_by_policy(t["drawn_ends"], caption),
        figures.policy_forest(t["compare_policies"], caption),
    ]


def report(
    run: object,
    out: Path | str | None = None,
    fmt: str = "text",
    baseline: str | None = None,
    level: float = DEFAULT_LEVEL,
    estimand: str | None = None,
    where: str | None = None,
) -> tuple[str, list[Path]]:
    """Build, render and (when ``out`` is given) plot the report; ``(text, figure paths)``.

    ``estimand`` and ``where`` are :func:`build_report`'s."""
    if fmt not in FORMATS:
        raise ValueError(unknown_name("report format", fmt, FORMATS))
    built = build_report(run, baseline=baseline, level=level, estimand=estimand, where=where)
    text = render(built, fmt)
    paths = write_figures(built, out) if out is not None else []
    return text, paths


__all__: Sequence[str] = (
    "GLOSSARY", "Report", "build_report", "design_effects", "draw_figures", "render", "report",
    "report_baseline", "report_estimand", "write_figures",
)
