"""The pipelines and ``simcore report`` on a small real run of the engine (runner + analysis)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import simcore
from simcore.analysis import (
    compare_policies,
    drawn_ends,
    fan_table,
    first_win_profit,
    horse_value,
    seat_effects,
    win_order,
)
from simcore.analysis.stats import wilson_interval
from simcore.cli import main


@pytest.fixture(scope="module")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "duplicate"
    simcore.run(400, rules="classic", policies="flush:k=7/speed/speed/speed", seed=3,
                out=out, duplicate=True, workers=1, chunk_size=100, progress=False)
    return out


def test_pipelines_on_a_real_run(real_run: Path) -> None:
    records, meta = simcore.load(real_run)
    assert len(records) == 4 * 400 and meta["duplicate"]
    fans = fan_table(real_run)
    assert {"pattern", "flush", "roots", "fan", "win_kind"} <= set(fans["item"])
    assert (fans["ci_low"] <= fans["rate"]).all() and (fans["rate"] <= fans["ci_high"]).all()
    assert not drawn_ends(real_run).empty
    order = win_order(real_run)
    assert not order.empty and order["n"].gt(0).all()
    assert not first_win_profit(real_run).empty
    comparison = compare_policies(real_run, baseline="speed")
    assert set(comparison["policy"].astype(str)) >= {"flush:k=7", "speed"}
    assert not seat_effects(real_run).empty and not horse_value(real_run).empty
    # a deal's nets sum to zero, so the mean net over all player-deals is exactly zero
    assert records.groupby("deal").net.sum().eq(0).all()


def test_report_command_on_a_real_run(real_run: Path, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    figures = tmp_path / "figures"
    assert main(["report", str(real_run), "--out", str(figures), "--format", "markdown"]) == 0
    text = capsys.readouterr().out
    assert "|" in text and "flush:k=7" in text
    pngs = sorted(figures.glob("*.png"))
    assert len(pngs) >= 4 and all(p.stat().st_size > 1000 for p in pngs)


@pytest.fixture(scope="module")
def speed_duplicate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """2,000 walls of speed in every seat, each in four rotations: the rotations of a wall
    end the same way far more often than two independent deals would."""
    out = tmp_path_factory.mktemp("runs") / "speed-duplicate"
    simcore.run(8_000, rules="classic", policies="speed", seed=4, out=out, duplicate=True,
                workers=1, progress=False)
    return out


def test_report_json_clusters_a_duplicate_run(speed_duplicate: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(speed_duplicate), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    drawn = {(r["metric"], r["per"]): r for r in out["drawn_ends"]}
    exhausted, no_winner = drawn[("exhausted", "deal")], drawn[("no_winner", "deal")]
    assert exhausted["method"] == "cluster(wall)" and exhausted["design_effect"] > 2
    assert drawn[("drawn_end", "deal")]["count"] == exhausted["count"]
    assert no_winner["count"] < exhausted["count"]
    # the per-player-deal Wilson interval of the same rate: each deal counted on its four rows
    n, count = 4 * exhausted["n"], 4 * exhausted["count"]
    low, high = wilson_interval([count], [n])
    width = exhausted["ci_high"] - exhausted["ci_low"]
    assert width >= 1.8 * float(high[0] - low[0])
    # ... and wider than the per-deal Wilson interval the report used to give
    low, high = wilson_interval([exhausted["count"]], [exhausted["n"]])
    assert width >= 1.3 * float(high[0] - low[0])
    assert {r["term"] for r in out["glossary"]} >= {"exhausted", "no_winner", "design_effect"}
    effects = {r["rate"]: r for r in out["design_effects"]}
    assert effects["exhausted/deal"]["design_effect"] == pytest.approx(
        exhausted["design_effect"])


def test_report_text_states_design_effects_and_a_glossary(
        speed_duplicate: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(speed_duplicate)]) == 0
    text = capsys.readouterr().out
    assert "Intervals are clustered by wall. Design effects" in text
    assert "Glossary" in text and "no_winner: nobody won at all" in text
