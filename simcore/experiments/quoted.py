"""Figures a text quotes from a full-size run, checked against the run a notebook actually read.

A notebook reads an experiment's full result when it has been run and otherwise plays a small
version; its text may still quote the full run. :func:`check_quoted` puts every quoted figure
beside this run's estimate and 95% interval and says whether the run contradicts it:

>>> import pandas as pd
>>> table = pd.DataFrame({"preset": ["classic", "app"], "estimate": [0.05, -0.20],
...                       "ci_low": [0.01, -0.26], "ci_high": [0.09, -0.14]})
>>> check = check_quoted(table, [{"preset": "classic", "quoted": 0.042},
...                              {"preset": "app", "quoted": 0.082, "low": 0.065, "high": 0.099}],
...                      warn=False)
>>> check[["quote", "quoted", "estimate", "verdict"]]
            quote  quoted  estimate      verdict
0  preset=classic   0.042      0.05   consistent
1      preset=app   0.082     -0.20  contradicts

The verdict is ``consistent`` when the quoted value lies in this run's interval, or (when the
quote gives its own 95% interval, ``low`` and ``high``) when the two estimates differ by less
than the interval of their difference (the half-widths on the side of the gap added in
quadrature), the quoted figure standing for anything that rounds to it (``72`` for 71.5 to
72.5: :func:`rounding`); ``contradicts`` otherwise, with a :class:`QuoteWarning`. A quote
whose row this run does not have (a field only the full run plays) is ``not in this run``; a
row without an interval is ``no interval``; a paired difference that would contradict but
rests on fewer than :data:`MIN_INFORMATIVE_WALLS` informative walls (a rare-event arm of a
small run, whose interval undercovers) is ``too few walls``. None of these warns. A selector
matches a column's value, or its text (``"level": 1`` matches the level ``"1"`` of a table
read back from CSV).
"""

from __future__ import annotations

import decimal
import math
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from simcore.experiments.base import ExperimentResult

CONSISTENT = "consistent"
CONTRADICTS = "contradicts"
MISSING = "not in this run"
NO_INTERVAL = "no interval"
FEW_WALLS = "too few walls"
# a paired difference carried by fewer walls than this (the walls on which the two arms played
# differently) has an interval too unreliable to contradict anything
MIN_INFORMATIVE_WALLS = 20
# the keys of a quote that are not column selectors
QUOTE_KEYS = ("quoted", "low", "high", "scale", "label")


class QuoteWarning(UserWarning):
    """A run contradicts a figure the text quotes from a full-size run."""


def rounding(quoted: object) -> float:
    """Half a unit of the quoted figure's last digit: the quote ``72`` stands for anything
    from 71.5 to 72.5, ``1.98`` for 1.975 to 1.985.

    >>> rounding(72), rounding(1.98), rounding("0.0420")
    (0.5, 0.005, 5e-05)
    """
    exponent = decimal.Decimal(str(quoted)).as_tuple().exponent
    return 0.5 * 10.0 ** min(int(exponent), 0)


def _verdict(estimate: float, ci_low: float, ci_high: float, value: float,
             low: float | None, high: float | None, half: float = 0.0) -> str:
    if not (math.isfinite(ci_low) and math.isfinite(ci_high)):
        return NO_INTERVAL
    if ci_low - half <= value <= ci_high + half:
        return CONSISTENT
    # the figure as written stands for anything that rounds to it: take its nearest such value
    value = value - half if value > ci_high else value + half
    if value > ci_high:  # the gap is above this run's estimate
        ours, theirs = ci_high - estimate, (value - low) if low is not None else 0.0
    else:
        ours, theirs = estimate - ci_low, (high - value) if high is not None else 0.0
    return CONSISTENT if abs(value - estimate) <= math.hypot(ours, theirs) else CONTRADICTS


def _label(selectors: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in selectors.items())


def check_quoted(
    result: ExperimentResult | pd.DataFrame,
    quotes: Sequence[Mapping[str, Any]],
    *,
    source: str = "the full run",
    warn: bool = True,
) -> pd.DataFrame:
    """Each quoted full-run figure beside this run's estimate, its 95% interval and a verdict.

    ``result`` is an experiment's result (its table, first seed unless a quote names ``seed``)
    or a table with ``estimate``, ``ci_low`` and ``ci_high`` columns. Each quote is a mapping:
    ``quoted`` the figure as quoted, optionally ``low`` and ``high`` its quoted 95% interval,
    ``scale`` what the table's estimate is multiplied by in the text (100 for a percentage;
    default 1), ``label`` the text shown; every other key is a column of the table and the value
    the quoted row has there. A quote matching several rows is a ValueError; one matching none
    is ``not in this run``. Warns (:class:`QuoteWarning`) on each contradiction, naming
    ``source``; the returned table has one row per quote: ``quote``, ``quoted``, ``estimate``,
    ``ci_low``, ``ci_high`` (scaled like the quote), ``n`` (the row's walls, or its
    observations), ``run`` (deals per arm and the row's seed) and ``verdict``.
    """
    if isinstance(result, ExperimentResult):
        table, meta = result.table, result.meta
        size = f"{meta.get('deals_per_arm', 0):,} deals per arm"
    else:
        table, meta, size = result, {}, ""
    missing = {"estimate", "ci_low", "ci_high"} - set(table.columns)
    if missing:
        raise ValueError(f"the table has no column {', '.join(sorted(missing))}")
    rows = []
    for quote in quotes:
        if "quoted" not in quote:
            raise ValueError(f"a quote needs its 'quoted' figure: {dict(quote)!r}")
        selectors = {k: v for k, v in quote.items() if k not in QUOTE_KEYS}
        unknown = [k for k in selectors if k not in table.columns]
        if unknown:
            raise ValueError(f"the table has no column {', '.join(unknown)} "
                             f"(quote {_label(selectors)})")
        chosen = table
        if "seed" in table.columns and "seed" not in selectors and "seed" in meta:
            chosen = chosen[chosen["seed"] == meta["seed"]]
        for column, wanted in selectors.items():
            same = chosen[column] == wanted
            if not same.any():  # a level read back from CSV as text, or given as text
                same = chosen[column].astype(str) == str(wanted)
            chosen = chosen[same]
        seed = selectors.get("seed", meta.get("seed"))
        run = f"{size}, seed {seed}" if size and seed is not None else size
        scale = float(quote.get("scale", 1.0))
        value = float(quote["quoted"])
        low = None if quote.get("low") is None else float(quote["low"])
        high = None if quote.get("high") is None else float(quote["high"])
        row: dict[str, Any] = {"quote": quote.get("label", _label(selectors)), "quoted": value,
                               "estimate": math.nan, "ci_low": math.nan, "ci_high": math.nan,
                               "n": math.nan, "run": run}
        if len(chosen) > 1:
            raise ValueError(f"quote {_label(selectors)} matches {len(chosen)} rows; name more "
                             f"columns")
        if len(chosen) == 0:
            rows.append({**row, "verdict": MISSING})
            continue
        found = chosen.iloc[0]
        estimate, ci_low, ci_high = (scale * float(found[c]) for c in
                                     ("estimate", "ci_low", "ci_high"))
        for count in ("walls", "n"):
            if count in found.index and pd.notna(found[count]):
                row["n"] = int(found[count])
                break
        verdict = _verdict(estimate, ci_low, ci_high, value, low, high, rounding(quote["quoted"]))
        few = found.get("informative_walls")
        if verdict == CONTRADICTS and pd.notna(few) and few < MIN_INFORMATIVE_WALLS:
            verdict = FEW_WALLS
        rows.append({**row, "estimate": estimate, "ci_low": ci_low, "ci_high": ci_high,
                     "verdict": verdict})
        if verdict == CONTRADICTS and warn:
            warnings.warn(
                f"{row['quote']}: {source} is quoted at {value:+.4g}, but this run "
                f"({run or 'the table given'}) has {estimate:+.4g} "
                f"[{ci_low:+.4g}, {ci_high:+.4g}]", QuoteWarning, stacklevel=2)
    return pd.DataFrame(rows, columns=["quote", "quoted", "estimate", "ci_low", "ci_high", "n",
                                       "run", "verdict"])
