"""``simcore report DIR`` leaves DIR a run: dataset readers, ``load``, ``--resume`` and ``--force``
still work on a run folder that holds a report (its figures go to ``DIR/_report``)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import simcore
from simcore.analysis.figures import FIGURE_NAMES
from simcore.cli import main
from simcore.runner import META_NAME, run
from simcore.runner.store import REPORT_DIR, REPORT_FILES, inspect_dir


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A complete run of 200 deals in 4 chunks (the engine, one worker)."""
    out = tmp_path_factory.mktemp("runs") / "r"
    run(200, seed=3, out=out, chunk_size=50, workers=1, progress=False)
    return out


def _copy(src: Path, dst: Path) -> Path:
    dst.mkdir()
    for f in src.rglob("*"):
        if f.is_file():
            (dst / f.relative_to(src)).parent.mkdir(parents=True, exist_ok=True)
            (dst / f.relative_to(src)).write_bytes(f.read_bytes())
    return dst


def _report(out: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(out)]) == 0
    assert f"wrote 4 figures to {out / REPORT_DIR}" in capsys.readouterr().err


def test_the_store_knows_every_figure_name() -> None:
    assert set(FIGURE_NAMES) == REPORT_FILES


def test_report_then_read_parquet_and_load(
    small_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _copy(small_run, tmp_path / "r")
    before = pd.read_parquet(out)
    _report(out, capsys)
    assert sorted(p.name for p in (out / REPORT_DIR).iterdir()) == sorted(FIGURE_NAMES)
    pd.testing.assert_frame_equal(pd.read_parquet(out), before)
    records, meta = simcore.load(out)
    pd.testing.assert_frame_equal(records, before)
    assert meta["complete"] is True


def test_report_then_resume_completes_the_run(
    small_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _copy(small_run, tmp_path / "r")
    full = pd.read_parquet(out)
    _report(out, capsys)
    meta = json.loads((out / META_NAME).read_text())
    meta.update(complete=False, finished=None, summary=None)
    (out / META_NAME).write_text(json.dumps(meta))
    (out / "part-000002.parquet").unlink()
    assert main(["run", "--out", str(out), "--resume", "--workers", "1", "--quiet"]) == 0
    pd.testing.assert_frame_equal(pd.read_parquet(out), full)
    assert sorted(p.name for p in (out / REPORT_DIR).iterdir()) == sorted(FIGURE_NAMES)


def test_report_then_force_replaces_the_run_and_its_stale_figures(
    small_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _copy(small_run, tmp_path / "r")
    _report(out, capsys)
    assert main(["run", "--deals", "40", "--seed", "5", "--out", str(out), "--force",
                 "--workers", "1", "--quiet"]) == 0
    assert len(pd.read_parquet(out)) == 4 * 40
    assert not list((out / REPORT_DIR).iterdir())  # the old run's figures are gone


def test_force_keeps_a_users_file_in_a_report_folder(
    small_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _copy(small_run, tmp_path / "r")
    _report(out, capsys)
    notes = out / REPORT_DIR / "my_notes.txt"
    notes.write_text("mine")
    with pytest.raises(ValueError, match=r"holds files simcore did not write \(_report\)"):
        run(40, out=out, force=True, workers=1, progress=False)
    assert notes.read_text() == "mine"
    assert (out / REPORT_DIR / FIGURE_NAMES[0]).is_file()


def test_a_legacy_report_folder_is_read_around_resumed_and_replaced(
    small_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Older versions wrote the figures to DIR/report: load and --resume still work."""
    out = _copy(small_run, tmp_path / "r")
    before = pd.read_parquet(out)
    assert main(["report", str(out), "--out", str(out / "report")]) == 0
    capsys.readouterr()
    assert len(inspect_dir(out).reports) == len(FIGURE_NAMES)
    records, _ = simcore.load(out)
    pd.testing.assert_frame_equal(records, before)
    dataset = run(out=out, resume=True, progress=False)  # complete: nothing to do
    assert dataset.complete
    replaced = run(40, seed=5, out=out, force=True, workers=1, progress=False)
    assert len(replaced.records()) == 4 * 40
    (out / "report" / "mine.csv").write_text("a,b\n")  # now the folder is not simcore's alone
    assert not inspect_dir(out).reports and inspect_dir(out).foreign == [out / "report"]
