"""The report's difference rows are the switching gain where one run defines it (``--estimand``
otherwise), each row names its estimand, and ``--where`` restricts the comparison."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers.runs import write_run

from simcore.analysis import build_report, compare_policies, render
from simcore.analysis.report import draw_figures, report
from simcore.cli import main
from simcore.engine import parse_policies, policy_names, simulate
from simcore.records import to_dataframe
from simcore.rules import resolve_rules


def rows(table: pd.DataFrame, metric: str, stat: str = "difference") -> pd.DataFrame:
    return table[(table["metric"] == metric) & (table["stat"] == stat)].reset_index(drop=True)


ESTIMATE = ["policy", "baseline", "n", "estimate", "se", "ci_low", "ci_high", "p_value",
            "estimand", "interval", "informative_walls"]


@pytest.fixture(scope="module")
def flush8() -> pd.DataFrame:
    """A small duplicate run of the README's flush:k=8/speed/speed/speed under classic."""
    record = resolve_rules("classic", ())
    seats = parse_policies("flush:k=8/speed/speed/speed")
    rec = simulate(record, seats, 0, 0, 300, duplicate=True)
    return to_dataframe(rec, policy_names(seats), preset=record.preset)


def test_the_report_shows_the_readmes_switching_gain(flush8: pd.DataFrame) -> None:
    # compared with the field, speed, as the README does (the run's first policy is flush)
    table = build_report(flush8).tables["compare_policies"]
    assert build_report(flush8, baseline="speed").tables["compare_policies"].equals(table)
    readme = compare_policies(flush8, baseline="speed", metrics="net", estimand="switching_gain")
    pd.testing.assert_frame_equal(rows(table, "net")[ESTIMATE], rows(readme, "net")[ESTIMATE])
    assert rows(table, "net").loc[0, "estimand"] == "switching_gain"
    assert rows(table, "net").loc[0, "policy"] == "flush"
    # vs_baseline (what the report showed before) is 4/3 of it on every wall: net is zero-sum
    old = build_report(flush8, baseline="speed", estimand="vs_baseline").tables[
        "compare_policies"]
    assert rows(old, "net").loc[0, "estimate"] == pytest.approx(
        4 / 3 * rows(table, "net").loc[0, "estimate"])
    assert rows(old, "net").loc[0, "se"] == pytest.approx(4 / 3 * rows(table, "net").loc[0, "se"])
    # the other metrics have no switching gain from one run: vs_baseline, as compare_policies
    plain = compare_policies(flush8, baseline="speed", metrics=("win", "fan"))
    for metric in ("win", "fan"):
        pd.testing.assert_frame_equal(rows(table, metric)[ESTIMATE],
                                      rows(plain, metric)[ESTIMATE])


def test_the_switching_gain_needs_a_field_of_the_baseline(
    flush8: pd.DataFrame, tmp_path: Path
) -> None:
    # flush as the baseline: speed's field is not flush, so no switching gain of speed
    against_flush = build_report(flush8, baseline="flush").tables["compare_policies"]
    assert set(against_flush.loc[against_flush.stat == "difference", "estimand"]) == {
        "vs_baseline"}
    with pytest.raises(ValueError, match="the field of this run is 'speed', not the baseline "
                                         "'flush' \\(pass --baseline speed"):
        build_report(flush8, baseline="flush", estimand="switching_gain")
    # greedy and random alternate seats: neither is the other's field
    run = write_run(tmp_path / "dup", 400, ("greedy", "random"), True)
    table = build_report(run).tables["compare_policies"]
    assert set(table.loc[table.stat == "difference", "estimand"]) == {"vs_baseline"}
    assert set(table.loc[table.stat == "difference", "baseline"]) == {"greedy"}


def test_every_format_names_the_estimand(flush8: pd.DataFrame) -> None:
    built = build_report(flush8)
    note = built.notes["compare_policies"]
    assert note.startswith("Difference rows (baseline speed) -- net: switching_gain (")
    assert "win, fan, pig, deal_in, deal_ins: vs_baseline (" in note
    text = render(built, "text")
    assert f"Policy comparison\n{note}\n" in text
    lines = text.split("Policy comparison")[1].splitlines()
    assert [line.split()[-3] for line in lines if " difference " in line][:2] == [
        "switching_gain", "vs_baseline"]
    assert f"## Policy comparison\n\n{note}\n\n| preset | metric |" in render(built, "markdown")
    data = json.loads(render(built, "json"))
    assert data["notes"] == [{"table": "compare_policies", "note": note}]
    estimands = {(r["metric"], r["estimand"]) for r in data["compare_policies"]
                 if r["stat"] == "difference"}
    assert ("net", "switching_gain") in estimands and ("win", "vs_baseline") in estimands
    forest = draw_figures(built)[3]
    assert "switching gain" in forest.get_suptitle()
    assert forest.axes[0].get_xlabel() == "switching gain in net (units per deal)"
    assert forest.axes[1].get_xlabel() == "difference in win rate (percentage points)"
    assert [t.get_text() for t in forest.axes[0].get_yticklabels()] == ["flush for speed (classic)"]


def test_estimand_option_and_its_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dup = write_run(tmp_path / "dup", 400, ("greedy", "random"), True)
    assert main(["report", str(dup), "--estimand", "vs_field", "--format", "json",
                 "--out", str(tmp_path / "f")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {r["estimand"] for r in data["compare_policies"] if r["stat"] == "difference"} == {
        "vs_field"}
    solo = write_run(tmp_path / "unpaired", 200, ("greedy", "random"), False)
    unpaired = build_report(solo).tables["compare_policies"]
    assert set(unpaired.loc[unpaired.stat == "difference", "estimand"]) == {"vs_baseline"}
    assert main(["report", str(solo), "--estimand", "switching_gain"]) == 2
    assert "the switching gain needs the baseline's own play" in capsys.readouterr().err
    assert not (solo / "_report").exists()
    with pytest.raises(ValueError, match="unknown estimand 'gain'"):
        report(dup, estimand="gain")


def test_where_restricts_the_reports_comparison(
    flush8: pd.DataFrame, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    built = build_report(flush8, baseline="speed", where="longest_suit >= 7")
    table = built.tables["compare_policies"]
    assert set(table.loc[table.stat == "difference", "estimand"]) == {"vs_baseline"}
    assert (table["where"] == "longest_suit >= 7").all()
    expected = compare_policies(flush8, baseline="speed", metrics="net",
                                where="longest_suit >= 7")
    pd.testing.assert_frame_equal(rows(table, "net")[[*ESTIMATE, "seats"]],
                                  rows(expected, "net")[[*ESTIMATE, "seats"]])
    assert "Only the seats whose starting hand meets `longest_suit >= 7`" in built.notes[
        "compare_policies"]
    # the rest of the report covers every deal
    assert built.summary["deals"] == 1200
    run = write_run(tmp_path / "dup", 400, ("greedy", "random"), True)
    assert main(["report", str(run), "--where", "net > 1"]) == 2
    assert "'net' is not one" in capsys.readouterr().err
    assert main(["report", str(run), "--where", "pairs >= 1", "--estimand",
                 "switching_gain"]) == 2
    assert "not 'switching_gain'" in capsys.readouterr().err
    assert np.isfinite(rows(table, "net").loc[0, "estimate"])
