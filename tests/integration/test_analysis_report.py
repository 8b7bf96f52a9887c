"""The full report and ``simcore report`` on small run directories (written through the store)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers.runs import write_run

from simcore.analysis import build_report, render
from simcore.analysis.figures import FIGURE_NAMES
from simcore.analysis.report import TITLES, draw_figures
from simcore.cli import main
from simcore.records import to_dataframe
from simcore.testing.synthetic import synthetic_records

DEALS = 400


@pytest.fixture(scope="module")
def dup_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_run(tmp_path_factory.mktemp("runs") / "dup", DEALS, ("greedy", "random"), True)


def test_report_tables_are_complete(dup_run: Path) -> None:
    report = build_report(dup_run)
    assert list(report.tables) == list(TITLES)
    assert report.summary["deals"] == DEALS
    for name, table in report.tables.items():
        assert len(table) > 0, name
        assert {"n", "ci_low", "ci_high"} <= set(table.columns), name
    compare = report.tables["compare_policies"]
    diffs = compare[compare["stat"] == "difference"]
    assert set(diffs["metric"]) == {"net", "win", "fan", "pig", "deal_in", "deal_ins"}
    assert (diffs["method"] == "paired").all() and (diffs["n"] == DEALS // 4).all()
    assert report.net_by_order["count"].sum() == 4 * DEALS


def test_render_formats(dup_run: Path) -> None:
    report = build_report(dup_run)
    text = render(report, "text")
    for title in TITLES.values():
        assert title in text
    assert "policies: greedy, random" in text
    markdown = render(report, "markdown")
    assert markdown.startswith("# simcore report:")
    assert "## Policy comparison" in markdown
    assert "| preset | policy | item | value | per | n | count | rate |" in markdown

    def no_nan(token: str) -> None:
        raise AssertionError(f"JSON holds {token}")

    data = json.loads(render(report, "json"), parse_constant=no_nan)
    assert set(data) == {"run", "summary", "glossary", "notes", *TITLES}
    assert data["summary"][0]["deals"] == DEALS
    assert data["run"][0]["duplicate"] is True
    assert all(isinstance(rows, list) and rows for rows in data.values())
    with pytest.raises(ValueError, match="unknown report format 'html'"):
        render(report, "html")


def _texts(fig: object) -> list[str]:
    return [t.get_text() for t in fig.findobj(lambda o: hasattr(o, "get_text"))]  # type: ignore[attr-defined]


def test_figures_have_titles_units_and_the_deal_count(dup_run: Path) -> None:
    figures = draw_figures(build_report(dup_run))
    assert len(figures) == len(FIGURE_NAMES)
    for fig in figures:
        texts = _texts(fig)
        assert any(f"{DEALS:,} deals" in t for t in texts)  # the caption
        title = fig.get_suptitle() or fig.axes[0].get_title()
        assert title
        for ax in fig.axes:
            if ax.get_visible():
                assert ax.get_xlabel() and ax.get_ylabel()
    fans, nets, pigs, forest = figures
    assert fans.axes[0].get_ylabel() == "share of wins (%)"
    assert nets.axes[0].get_ylabel() == "net (units per deal)"
    assert "% of player-deals" in pigs.axes[0].get_ylabel()
    # greedy and random alternate seats: no field of the baseline, so no switching gain:
    assert forest.axes[0].get_xlabel() == "difference in net (units per deal)"


def _pngs(out: Path) -> list[Path]:
    files = [out / name for name in FIGURE_NAMES]
    for f in files:
        assert f.is_file() and f.stat().st_size > 1000, f
        assert f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return files


def test_cli_report_text_with_default_figure_directory(
    dup_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(dup_run)]) == 0
    captured = capsys.readouterr()
    assert "Fan table" in captured.out and "Buying a horse" in captured.out
    assert "wrote 4 figures" in captured.err
    _pngs(dup_run / "_report")


def test_cli_report_json_and_markdown(
    dup_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(dup_run), "--out", str(tmp_path / "figs"), "--format",
                 "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["summary"][0]["deals"] == DEALS
    _pngs(tmp_path / "figs")
    assert main(["report", str(dup_run), "--out", str(tmp_path / "md"), "--format",
                 "markdown", "--baseline", "random"]) == 0
    out = capsys.readouterr().out
    assert "| classic | net | greedy | random | paired |" in out


def test_single_policy_unpaired_and_incomplete_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = write_run(tmp_path / "solo", 200, ("greedy",), False, complete=False)
    assert main(["report", str(run), "--out", str(tmp_path / "figs")]) == 0
    out = capsys.readouterr().out
    assert "WARNING: the run is incomplete" in out
    _pngs(tmp_path / "figs")
    compare = build_report(run).tables["compare_policies"]
    assert set(compare["stat"]) == {"mean", "rate"}  # nothing to compare with


def test_cli_errors_exit_2_and_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(tmp_path / "nowhere")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not (tmp_path / "nowhere").exists()

    assert main(["report", str(tmp_path)]) == 2
    assert "is not a simcore run" in capsys.readouterr().err

    run = write_run(tmp_path / "bad", 200, ("greedy",), False)
    (run / "part-000001.parquet").write_bytes(b"PAR1 garbage PAR1")
    assert main(["report", str(run), "--format", "json"]) == 2
    captured = capsys.readouterr()
    assert "simcore report: error: corrupt part" in captured.err and captured.out == ""
    assert not (run / "_report").exists()

    good = write_run(tmp_path / "good", 200, ("greedy", "random"), False)
    assert main(["report", str(good), "--baseline", "nobody"]) == 2
    assert "baseline policy 'nobody' is not in the run" in capsys.readouterr().err
    assert not (good / "_report").exists()


def test_figure_directory_must_be_a_directory(
    dup_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "taken").write_text("x")
    assert main(["report", str(dup_run), "--out", str(tmp_path / "taken")]) == 2
    assert "exists and is not a directory" in capsys.readouterr().err


def test_figures_with_zero_counts_and_zero_width_intervals() -> None:
    df = to_dataframe(synthetic_records(50, np.random.default_rng(4), 2), ("a", "b"), "classic")
    won = df["win_order"] > 0
    df.loc[won, "pattern"] = "plain"  # every other pattern has a rate of exactly 0
    df["pig"] = False
    report = build_report(df)
    fans = report.tables["fan_table"]
    assert (fans.loc[fans["value"] == "golden_hook", "ci_low"] == 0.0).all()
    assert len(draw_figures(report)) == 4


def test_report_of_a_dataframe_with_several_presets() -> None:
    frames = []
    for seed, preset in enumerate(("classic", "baike")):
        rec = synthetic_records(120, np.random.default_rng(seed), 2)
        frames.append(to_dataframe(rec, ("a", "b"), preset))
    df = pd.concat(frames, ignore_index=True)
    df["preset"] = df["preset"].astype("category")
    report = build_report(df)
    assert report.summary["deals"] == 240
    fans = report.tables["fan_table"]
    assert set(fans["preset"]) == {"classic", "baike"}
    compare = report.tables["compare_policies"]
    assert set(compare.loc[compare["stat"] == "difference", "preset"]) == {"classic", "baike"}
    assert len(draw_figures(report)) == 4
