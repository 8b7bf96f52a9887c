"""Reading runs: run directories (written here through simcore.runner.store) give the same tables
as DataFrames, chunk by chunk, reading only the needed columns; bad input is a clear ValueError."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from simcore.analysis import (
    compare_policies,
    drawn_ends,
    fan_table,
    first_win_profit,
    horse_value,
    io,
    seat_effects,
    summary,
    win_order,
)
from simcore.analysis.io import open_run
from simcore.records import to_dataframe
from simcore.runner.store import META_NAME, encode_frame, run_meta, write_meta, write_part
from simcore.testing.synthetic import synthetic_records

POLICIES = ("greedy", "random")
PIPELINES = (fan_table, drawn_ends, win_order, first_win_profit, compare_policies, seat_effects,
             horse_value)


def records_frame(deals: int, duplicate: bool = False, seed: int = 0) -> pd.DataFrame:
    rec = synthetic_records(deals, np.random.default_rng(seed), len(POLICIES), duplicate)
    return to_dataframe(rec, POLICIES, preset="classic")


def write_run(
    path: Path,
    df: pd.DataFrame,
    deals_per_part: int,
    meta_name: str = "_run.json",
    **meta: object,
) -> Path:
    """A run directory like the batch runner's: zstd parts of whole deals plus metadata."""
    path.mkdir(parents=True)
    n_deals = len(df) // 4
    for index, start in enumerate(range(0, n_deals, deals_per_part)):
        part = df.iloc[4 * start: 4 * (start + deals_per_part)]
        write_part(path, index, encode_frame(part))
    duplicate = bool((df["deal"] != df["wall"]).any())
    content = run_meta(**{
        "rules": {"preset": "classic"}, "rules_id": "classic", "preset": "classic",
        "policies": list(POLICIES), "seat_policies": [POLICIES[s % 2] for s in range(4)],
        "seed": 0, "deals": n_deals, "chunk_size": deals_per_part, "duplicate": duplicate,
        "complete": True, **meta,
    })
    if meta_name == META_NAME:
        write_meta(path, content)
    else:  # a hand-written metadata file under the legacy name
        (path / meta_name).write_text(json.dumps(content), encoding="utf-8")
    return path


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of 104 rows (26 deals): deals and walls straddle batches and parts."""
    monkeypatch.setattr(io, "TARGET_BATCH_ROWS", 104)


@pytest.mark.parametrize("duplicate", [False, True])
def test_directory_and_dataframe_give_the_same_tables(
    tmp_path: Path, small_batches: None, duplicate: bool
) -> None:
    df = records_frame(240, duplicate)
    run = write_run(tmp_path / "run", df, deals_per_part=70)  # 70: walls straddle parts
    for func in PIPELINES:
        pd.testing.assert_frame_equal(func(run), func(df), check_exact=False, obj=func.__name__)
    assert summary(run) == summary(df)


def test_batches_are_bounded_and_hold_only_the_requested_columns(
    tmp_path: Path, small_batches: None
) -> None:
    run = open_run(write_run(tmp_path / "run", records_frame(100), deals_per_part=30))
    batches = list(run.batches(["deal", "net"]))
    assert len(batches) > 3
    assert all(set(b.cols) == {"deal", "net"} for b in batches)
    assert all(len(b) % 4 == 0 for b in batches)  # whole deals only
    assert np.concatenate([b["deal"] for b in batches]).tolist() == np.repeat(
        np.arange(100), 4).tolist()


def test_pipelines_read_only_the_columns_they_need(tmp_path: Path) -> None:
    # parts without columns no pipeline uses still give every table
    df = records_frame(40).drop(columns=["draws", "pungs", "win_tile", "void_suit", "bonuses"])
    run = write_run(tmp_path / "run", df, deals_per_part=40)
    for func in PIPELINES:
        assert len(func(run)) > 0
    with pytest.raises(ValueError, match="cannot group by 'void_suit': not a column of the run"):
        fan_table(run, by="void_suit")


def test_metadata_name_temporaries_foreign_files_and_handles(tmp_path: Path) -> None:
    df = records_frame(30)
    run = write_run(tmp_path / "run", df, deals_per_part=10, meta_name="run.json")
    (run / ".part-000003.parquet.tmp").write_bytes(b"half a part")
    (run / "part-000004.parquet.tmp").write_bytes(b"half a part")
    (run / "report").mkdir()
    (run / "notes.txt").write_text("hello")
    expected = fan_table(df)
    pd.testing.assert_frame_equal(fan_table(run), expected)
    pd.testing.assert_frame_equal(fan_table(str(run)), expected)
    pd.testing.assert_frame_equal(fan_table(SimpleNamespace(path=run)), expected)


def test_preset_comes_from_the_metadata_when_parts_lack_it(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", records_frame(20).drop(columns="preset"), 20,
                    preset="baike")
    assert set(fan_table(run)["preset"]) == {"baike"}


def test_duplicate_flag_comes_from_metadata_or_data(tmp_path: Path) -> None:
    df = records_frame(40, duplicate=True)
    assert open_run(df).duplicate
    assert not open_run(records_frame(8)).duplicate
    run = write_run(tmp_path / "run", df, 40, duplicate=False)
    assert set(compare_policies(run)["method"]) == {"", "unpaired"}


# ------------------------------------------------------------------ errors


def test_missing_and_non_directory_paths(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="run directory .*nowhere does not exist"):
        summary(tmp_path / "nowhere")
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="is not a directory"):
        summary(tmp_path / "file")


def test_directory_that_is_not_a_run(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="is not a simcore run \\(no _run.json or run.json\\)"):
        summary(tmp_path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "corrupt run metadata .*_run.json: Expecting property name"),
        ('{"format": "other"}', "_run.json: \"format\" is 'other', not 'simcore-run'"),
        ('["simcore-run"]', "_run.json: a JSON list, not an object"),
        ('{"format": "simcore-run", "format_version": 2}',
         "_run.json has format_version 2; this simcore reads 1"),
    ],
)
def test_bad_metadata(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "_run.json").write_text(content)
    with pytest.raises(ValueError, match=message):
        summary(tmp_path)


def test_run_without_parts(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", records_frame(4), 4)
    (run / "part-000000.parquet").unlink()
    with pytest.raises(ValueError, match="has no records \\(no part-NNNNNN.parquet files\\)"):
        summary(run)


def test_empty_runs(tmp_path: Path) -> None:
    empty = records_frame(4).iloc[:0]
    with pytest.raises(ValueError, match="the records DataFrame has no rows"):
        fan_table(empty)
    run = write_run(tmp_path / "run", records_frame(4), 4)
    write_part(run, 0, encode_frame(empty))
    with pytest.raises(ValueError, match="has no records \\(its parts are empty\\)"):
        summary(run)


def test_corrupt_part_is_named(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", records_frame(20), 10)
    (run / "part-000001.parquet").write_bytes(b"PAR1 this is not parquet PAR1")
    with pytest.raises(ValueError, match="corrupt part .*part-000001.parquet"):
        summary(run)


def test_parts_out_of_deal_order(tmp_path: Path) -> None:
    df = records_frame(20)
    swapped = pd.concat([df.iloc[40:], df.iloc[:40]], ignore_index=True)
    run = write_run(tmp_path / "run", swapped, 10)
    with pytest.raises(ValueError, match="not in deal order \\(deal 0 follows 19\\)"):
        seat_effects(run)


def test_unreadable_objects() -> None:
    with pytest.raises(ValueError, match="cannot read a run from int 42"):
        summary(42)
    with pytest.raises(ValueError, match="cannot read a run from SimpleNamespace"):
        summary(SimpleNamespace(path=None))


def test_missing_values_are_errors() -> None:
    df = records_frame(4)
    df["net"] = df["net"].astype("float64")
    df.loc[3, "net"] = np.nan
    with pytest.raises(ValueError, match="column 'net' has 1 missing values"):
        summary(df)
