"""The pipelines and ``simcore report`` on a small real run of the engine (runner + analysis)."""

from __future__ import annotations

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
