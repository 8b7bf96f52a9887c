"""Statistics over simulated runs: tidy tables with confidence intervals, and ``simcore report``.

Every function takes a run (a run directory, a dataset handle with a ``.path``, or a records
DataFrame from :func:`simcore.records.to_dataframe`), reads only the columns it needs,
chunk by chunk, and returns a tidy DataFrame with the count behind every estimate and its 95%
interval (parameter ``level``).
"""

from __future__ import annotations

from simcore.analysis.compare import compare_policies
from simcore.analysis.drawn import drawn_ends
from simcore.analysis.fans import fan_table
from simcore.analysis.horse import horse_value, seat_effects
from simcore.analysis.io import open_run
from simcore.analysis.order import first_win_profit, win_order
from simcore.analysis.report import build_report, render, report, write_figures
from simcore.analysis.start import start_value
from simcore.analysis.summary import summary, summary_line

__all__ = [
    "build_report",
    "compare_policies",
    "drawn_ends",
    "fan_table",
    "first_win_profit",
    "horse_value",
    "open_run",
    "render",
    "report",
    "seat_effects",
    "start_value",
    "summary",
    "summary_line",
    "win_order",
    "write_figures",
]
