"""check_quoted: a figure quoted from a full-size run against the run a notebook read."""

from __future__ import annotations

import warnings
from pathlib import Path

import pandas as pd
import pytest

from simcore.experiments import ExperimentResult, QuoteWarning, check_quoted


def _result() -> ExperimentResult:
    """A small result table of two seeds, as run_experiment writes it."""
    table = pd.DataFrame({
        "preset": ["classic", "classic", "app", "classic"],
        "k": [9, 8, 10, 9],
        "metric": ["net"] * 4,
        "walls": [200, 200, 200, 200],
        "estimate": [0.06, 0.01, -0.03, 0.50],
        "ci_low": [0.02, -0.05, -0.07, 0.45],
        "ci_high": [0.10, 0.07, 0.01, 0.55],
        "seed": [0, 0, 0, 1],
    })
    meta = {"deals_per_arm": 800, "seed": 0}
    return ExperimentResult("speed_vs_flush", Path("."), table, meta)


def test_a_quote_inside_the_interval_is_consistent_and_silent():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check = check_quoted(_result(), [{"preset": "classic", "k": 9, "quoted": 0.049}])
    row = check.iloc[0]
    assert row["verdict"] == "consistent"
    # the first seed's row (seed 1's +0.50 would contradict), its size and the run's
    assert (row["estimate"], row["ci_low"], row["ci_high"], row["n"]) == (0.06, 0.02, 0.10, 200)
    assert row["run"] == "800 deals per arm, seed 0"
    assert row["quote"] == "preset=classic, k=9"


def test_a_quote_outside_the_interval_contradicts_and_warns():
    with pytest.warns(QuoteWarning, match=r"preset=app, k=10: the full run is quoted at "
                                          r"\+0\.082, but this run \(800 deals per arm, seed 0\)"
                                          r" has -0\.03 \[-0\.07, \+0\.01\]"):
        check = check_quoted(_result(), [{"preset": "app", "k": 10, "quoted": 0.082}])
    assert check["verdict"].tolist() == ["contradicts"]


def test_the_quoted_interval_widens_the_check_on_the_side_of_the_gap():
    # 0.082 is 0.112 above -0.03; this run's upper half-width is 0.04 and the quote's lower one
    # is 0.017 (no overlap), 0.10 (hypot 0.108 < 0.112) or 0.11 (hypot 0.117 >= 0.112)
    quotes = [{"preset": "app", "k": 10, "quoted": 0.082, "low": low, "high": 0.099}
              for low in (0.065, -0.018, -0.028)]
    with pytest.warns(QuoteWarning):
        check = check_quoted(_result(), quotes)
    assert check["verdict"].tolist() == ["contradicts", "contradicts", "consistent"]
    # the quote's upper end plays no part when the quote lies above this run
    wide_high = [{"preset": "app", "k": 10, "quoted": 0.082, "low": 0.065, "high": 5.0}]
    with pytest.warns(QuoteWarning):
        assert check_quoted(_result(), wide_high)["verdict"].tolist() == ["contradicts"]


def test_a_quote_below_the_interval_and_a_scaled_quote():
    # 1.0% as quoted is 0.01 in the table; -0.10 lies 0.16 below 0.06 (half-width 0.04)
    quotes = [{"preset": "classic", "k": 8, "quoted": 1.0, "scale": 100, "label": "k=8 in %"},
              {"preset": "classic", "k": 9, "quoted": -0.10, "high": -0.05}]
    with pytest.warns(QuoteWarning, match="preset=classic, k=9"):
        check = check_quoted(_result(), quotes, source="x")
    assert check["verdict"].tolist() == ["consistent", "contradicts"]
    assert check["quote"].tolist() == ["k=8 in %", "preset=classic, k=9"]
    assert check["estimate"].iloc[0] == pytest.approx(1.0)
    # the quote's upper half-width (0.05) and this run's lower one (0.04): hypot 0.064 < 0.16
    assert check_quoted(_result(), [{"preset": "classic", "k": 9, "quoted": -0.10,
                                     "high": 0.2}], warn=False)["verdict"].iloc[0] == "consistent"


def test_rows_this_run_lacks_and_rows_without_an_interval_do_not_warn():
    table = pd.DataFrame({"measure": ["pig"], "estimate": [0.5], "ci_low": [float("nan")],
                          "ci_high": [float("nan")]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check = check_quoted(table, [{"measure": "pig", "quoted": 9.0},
                                     {"measure": "kongs", "quoted": 1.0}])
    assert check["verdict"].tolist() == ["no interval", "not in this run"]


def test_bad_quotes_are_errors():
    with pytest.raises(ValueError, match="matches 2 rows; name more columns"):
        check_quoted(_result(), [{"preset": "classic", "quoted": 0.0}])
    with pytest.raises(ValueError, match="the table has no column field"):
        check_quoted(_result(), [{"field": "speed", "quoted": 0.0}])
    with pytest.raises(ValueError, match="a quote needs its 'quoted' figure"):
        check_quoted(_result(), [{"preset": "app"}])
    with pytest.raises(ValueError, match="the table has no column ci_high, ci_low"):
        check_quoted(pd.DataFrame({"estimate": [0.0]}), [{"quoted": 0.0}])


def test_a_selector_matches_a_level_written_as_text():
    table = pd.DataFrame({"level": ["1", "none"], "estimate": [2.5, -3.4], "ci_low": [2.3, -3.6],
                          "ci_high": [2.7, -3.2]})
    check = check_quoted(table, [{"level": 1, "quoted": 2.55}, {"level": "none", "quoted": -3.3}])
    assert check["verdict"].tolist() == ["consistent", "consistent"]


def test_a_difference_on_few_informative_walls_is_flagged_not_a_contradiction():
    table = pd.DataFrame({"preset": ["classic", "app"], "informative_walls": [3, 150],
                          "estimate": [-0.016, -0.016], "ci_low": [-0.052, -0.052],
                          "ci_high": [-0.0025, -0.0025]})
    quotes = [{"preset": p, "quoted": 0.002, "low": -0.0002, "high": 0.004}
              for p in ("classic", "app")]
    with pytest.warns(QuoteWarning, match="preset=app"):
        check = check_quoted(table, quotes)
    assert check["verdict"].tolist() == ["too few walls", "contradicts"]


def test_a_quote_of_the_second_seed_reads_that_seed():
    check = check_quoted(_result(), [{"preset": "classic", "k": 9, "seed": 1, "quoted": 0.52},
                                     {"preset": "classic", "k": 8, "quoted": 0.0}])
    assert check[["estimate", "n", "run", "verdict"]].values.tolist() == [
        [0.50, 200, "800 deals per arm, seed 1", "consistent"],
        [0.01, 200, "800 deals per arm, seed 0", "consistent"]]


def test_a_rounded_quote_stands_for_what_rounds_to_it():
    # 0.1 (one decimal) stands for 0.05..0.15: this run's [-0.07, +0.01] misses it by 0.04 (a
    # contradiction); 0 stands for -0.5..0.5 and is consistent; the same figure
    # written with more digits, 0.100, stands for 0.0995..0.1005 and contradicts
    quotes = [{"preset": "app", "k": 10, "quoted": q} for q in (0.1, 0, "0.100")]
    with pytest.warns(QuoteWarning):
        check = check_quoted(_result(), quotes)
    assert check["verdict"].tolist() == ["contradicts", "consistent", "contradicts"]
    # +72 against [72.02, 72.76]: the full run's 72.39 rounds to 72
    table = pd.DataFrame({"measure": ["zero_fan"], "estimate": [0.7239], "ci_low": [0.7202],
                          "ci_high": [0.7276]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = check_quoted(table, [{"measure": "zero_fan", "quoted": 72, "scale": 100}])
    assert got["verdict"].tolist() == ["consistent"]
