"""simcore run / simcore.run: datasets equal the engine's records, whatever the execution.

The reference everywhere is the engine called once in memory: ``simulate(rules, seats, seed, 0,
N)``. Deal counts are small (a few hundred) so the file stays fast; the bytes of Parquet parts are
compared too, since parts must not depend on how or when they were computed.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers.processes import HAS_PROC, descendants, still_running

import simcore
from simcore import cli
from simcore.engine import parse_policies, policy_names, simulate
from simcore.records import to_dataframe
from simcore.rules import get_rules, resolve_rules
from simcore.runner import META_NAME, Dataset, RunPlan, load, run
from simcore.runner.execute import compute_chunk, loaded_engine_fingerprint
from simcore.runner.plan import ChunkStats

SEATS = tuple(parse_policies("speed"))


@pytest.fixture(scope="module", autouse=True)
def _warm_engine() -> None:
    """Compile the engine once (numba's disk cache) before subprocesses time their first part."""
    simulate(get_rules(), SEATS, 0, 0, 1)


def reference(
    deals: int,
    *,
    seed: int = 0,
    policies: str = "speed",
    rules: str = "classic",
    overrides: tuple[str, ...] = (),
    duplicate: bool = False,
) -> pd.DataFrame:
    """The records of an uninterrupted in-memory run of the engine."""
    record = resolve_rules(rules, overrides)
    seats = parse_policies(policies)
    count = deals // 4 if duplicate else deals
    records = simulate(record, seats, seed, 0, count, duplicate=duplicate)
    return to_dataframe(records, policy_names(seats), preset=record.preset)


def snapshot(path: Path) -> dict[str, bytes]:
    """Names and contents of every file under ``path`` (to prove nothing was touched)."""
    return {
        str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()
    }


def part_bytes(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.glob("part-*.parquet"))}


# ------------------------------------------------------------------------------------------
# plan


def test_chunk_plan_covers_every_deal_once() -> None:
    plan = RunPlan(get_rules(), SEATS, seed=3, deals=1001, duplicate=False, chunk_size=250)
    chunks = plan.chunks()
    assert plan.n_chunks == 5 == len(chunks)
    covered = np.concatenate([np.arange(c.start, c.start + c.count) for c in chunks])
    assert covered.tolist() == list(range(1001))
    assert [c.deals for c in chunks] == [250, 250, 250, 250, 1]


def test_duplicate_plan_counts_walls() -> None:
    plan = RunPlan(get_rules(), SEATS, seed=0, deals=40, duplicate=True, chunk_size=16)
    assert plan.walls == 10
    assert [(c.start, c.count, c.deals) for c in plan.chunks()] == [
        (0, 4, 16),
        (4, 4, 16),
        (8, 2, 8),
    ]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"deals": 0}, "deals must be a positive integer, got 0"),
        ({"deals": -5}, "deals must be a positive integer, got -5"),
        ({"deals": 2.5}, "deals must be a positive integer, got 2.5"),
        ({"chunk_size": 0}, "chunk size must be a positive integer, got 0"),
        ({"seed": -1}, r"seed must be in 0..2\*\*63-1, got -1"),
        ({"duplicate": "yes"}, "duplicate must be True or False, got 'yes'"),
        ({"duplicate": True, "deals": 42}, "multiple of 4, got 42"),
        ({"duplicate": True, "chunk_size": 10}, "chunk size that is a multiple of 4, got 10"),
    ],
)
def test_plan_rejects_bad_values(kwargs: dict, message: str) -> None:
    values = {
        "rules": get_rules(),
        "seat_policies": SEATS,
        "seed": 0,
        "deals": 100,
        "duplicate": False,
        "chunk_size": 20,
        **kwargs,
    }
    with pytest.raises(ValueError, match=message):
        RunPlan(**values)


def test_run_name_is_derived_and_filesystem_safe() -> None:
    def name(**kw: object) -> str:
        values = {
            "rules": get_rules(),
            "seat_policies": SEATS,
            "seed": 7,
            "deals": 500,
            "duplicate": False,
            "chunk_size": 100,
            **kw,
        }
        return RunPlan(**values).run_name()  # type: ignore[arg-type]

    assert name() == "classic-speed-s7-n500"
    assert name(duplicate=True) == "classic-speed-s7-n500-dup"
    changed = get_rules().replace(drizzle=not get_rules().drizzle)
    assert name(rules=changed) == f"classic-{changed.id}-speed-s7-n500"
    odd = name(seat_policies=("a:x=1/2", "speed", "speed", "speed"))
    assert odd.startswith("classic-a_x_1_2+speed+speed+speed_") and "/" not in odd
    assert odd != name(seat_policies=("a:x=1_2", "speed", "speed", "speed"))


def test_chunk_stats_add_up() -> None:
    records = simulate(get_rules(), SEATS, 0, 0, 50)
    whole = ChunkStats.from_records(records)
    halves = ChunkStats.from_records(records[:100]) + ChunkStats.from_records(records[100:])
    assert whole == halves and whole.deals == 50
    assert whole.winners == int((records["win_order"] > 0).sum())


# ------------------------------------------------------------------------------------------
# runs equal the engine, for any execution


def test_run_writes_the_engines_records(tmp_path: Path) -> None:
    out = tmp_path / "r"
    dataset = run(300, seed=5, out=out, workers=1, chunk_size=128, progress=False)
    expected = reference(300, seed=5)
    pd.testing.assert_frame_equal(pd.read_parquet(out), expected)
    assert sorted(p.name for p in out.iterdir()) == [
        META_NAME,
        "_wins",  # the win table's parts (issue 17), one per chunk, skipped by read_parquet
        "part-000000.parquet",
        "part-000001.parquet",
        "part-000002.parquet",
    ]
    assert sorted(p.name for p in (out / "_wins").iterdir()) == [
        "part-000000.parquet", "part-000001.parquet", "part-000002.parquet"]

    meta = json.loads((out / META_NAME).read_text())
    assert meta["format"] == "simcore-run" and meta["format_version"] == 1
    assert meta["complete"] is True and meta["deals"] == 300 and meta["n_chunks"] == 3
    assert meta["rules"] == get_rules().to_dict() and meta["rules_id"] == get_rules().id
    assert meta["policies"] == ["speed"] and meta["seat_policies"] == ["speed"] * 4
    assert meta["seed"] == 5 and meta["duplicate"] is False and meta["walls"] is None
    for key in (
        "simcore_version",
        "git_commit",
        "numba_version",
        "numpy_version",
        "pyarrow_version",
        "python",
        "machine",
        "started",
        "finished",
    ):
        assert key in meta
    assert meta["machine"]["cores"] == os.cpu_count()
    assert re.fullmatch("[0-9a-f]{15}", meta["engine_fingerprint"])
    assert meta["engine_fingerprint"] == loaded_engine_fingerprint()

    # the summary comes from per-chunk statistics; it must agree with the data
    summary = dataset.summary
    assert summary is not None
    assert summary["winners_per_deal"] == pytest.approx((expected.win_order > 0).sum() / 300)
    assert summary["flower_pig_rate"] == pytest.approx(expected.pig.mean())
    assert summary["mean_abs_net"] == pytest.approx(expected.net.abs().mean())
    assert summary["deals"] == summary["deals_computed"] == 300
    assert summary["chunk_cpu_s"] > 0 and summary["backend"] == "serial"


def test_workers_and_chunk_sizes_give_identical_records(tmp_path: Path) -> None:
    one = run(400, seed=2, out=tmp_path / "one", workers=1, chunk_size=64, progress=False)
    two = run(400, seed=2, out=tmp_path / "two", workers=2, chunk_size=64, progress=False)
    big = run(400, seed=2, out=tmp_path / "big", workers=2, chunk_size=1000, progress=False)
    assert two.summary["backend"] == "processes" and two.summary["workers"] == 2
    assert big.summary["backend"] == "serial"  # one chunk: no pool to start
    # same chunking: byte-identical parts, whatever the worker count
    assert part_bytes(one.path) == part_bytes(two.path) and len(part_bytes(one.path)) == 7
    expected = reference(400, seed=2)
    for dataset in (one, two, big):
        pd.testing.assert_frame_equal(dataset.records(), expected)
    assert one.summary["stats"] == two.summary["stats"] == big.summary["stats"]


def test_dask_cluster_gives_identical_records(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    # threads, not processes: worker processes take seconds to start; the dask_local path
    # (processes=True) is covered by the CLI test below
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        dataset = run(
            300,
            seed=4,
            out=tmp_path / "d",
            chunk_size=50,
            scheduler=cluster.scheduler_address,
            progress=False,
        )
    local = run(300, seed=4, out=tmp_path / "l", chunk_size=50, workers=1, progress=False)
    assert dataset.summary["backend"] == "dask"
    assert part_bytes(dataset.path) == part_bytes(local.path)
    pd.testing.assert_frame_equal(dataset.records(), reference(300, seed=4))


def test_dask_local_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "dl"
    code = cli.main(
        [
            "run",
            "--deals",
            "200",
            "--chunk-size",
            "50",
            "--dask-local",
            "2",
            "--seed",
            "9",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "deals: 200" in printed and "dask, 2 workers" in printed
    pd.testing.assert_frame_equal(pd.read_parquet(out), reference(200, seed=9))


def test_dask_missing_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # what an absent package looks like
    with pytest.raises(
        ValueError,
        match=r"needs the optional dask.distributed package: pip "
        r"install 'simcore\[distributed\]'",
    ):
        run(20, out=tmp_path / "d", dask_local=1, progress=False)
    assert not (tmp_path / "d").exists()


def test_duplicate_run_plays_each_wall_in_four_rotations(tmp_path: Path) -> None:
    seats = "speed/random/speed/random"
    dataset = run(
        40,
        policies=seats,
        duplicate=True,
        out=tmp_path / "dup",
        chunk_size=16,
        workers=1,
        progress=False,
    )
    df = dataset.records()
    pd.testing.assert_frame_equal(df, reference(40, policies=seats, duplicate=True))
    assert dataset.meta["walls"] == 10 and dataset.meta["policies"] == ["speed", "random"]
    assert df.groupby("wall").rotation.nunique().eq(4).all()
    with pytest.raises(ValueError, match="deals must be a multiple of 4, got 42"):
        run(42, duplicate=True, out=tmp_path / "bad", progress=False)
    assert not (tmp_path / "bad").exists()


def test_numpy_integers_are_accepted(tmp_path: Path) -> None:
    dataset = run(
        np.int64(12),
        seed=np.uint32(6),
        chunk_size=np.int32(8),
        out=tmp_path / "np",
        workers=1,
        progress=False,
    )
    assert (dataset.meta["deals"], dataset.meta["seed"], dataset.meta["n_chunks"]) == (12, 6, 2)
    pd.testing.assert_frame_equal(dataset.records(), reference(12, seed=6))


def test_rules_overrides_are_recorded(tmp_path: Path) -> None:
    dataset = run(40, overrides=["pig_penalty=4"], out=tmp_path / "o", workers=1, progress=False)
    expected_rules = get_rules().replace(pig_penalty=4)
    assert dataset.meta["rules"] == expected_rules.to_dict()
    assert dataset.meta["rules_id"] == expected_rules.id != get_rules().id
    pd.testing.assert_frame_equal(dataset.records(), reference(40, overrides=("pig_penalty=4",)))


def test_default_output_directory_is_derived(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    dataset = run(20, seed=1, workers=1, progress=False)
    assert dataset.path == Path("data/runs/classic-speed-s1-n20")
    assert (tmp_path / "data/runs/classic-speed-s1-n20" / META_NAME).is_file()


# ------------------------------------------------------------------------------------------
# loading


def test_load_and_dataset_handle(tmp_path: Path) -> None:
    out = tmp_path / "r"
    handle = simcore.run(60, out=out, workers=1, chunk_size=25, progress=False)
    assert isinstance(handle, Dataset) and handle.path == out and handle.n_deals == 60
    df, meta = simcore.load(out)
    pd.testing.assert_frame_equal(df, reference(60))
    assert meta == handle.meta == Dataset(out).meta
    some = handle.records(columns=["deal", "seat", "net"])
    assert list(some.columns) == ["deal", "seat", "net"] and len(some) == 240
    assert "complete" in repr(handle)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        simcore.nothing  # noqa: B018


def test_hidden_temporaries_are_invisible_to_pandas(tmp_path: Path) -> None:
    out = tmp_path / "r"
    run(30, out=out, workers=1, progress=False)
    (out / ".part-000001.parquet.tmp").write_bytes(b"half a part")  # a killed writer's leftover
    assert len(pd.read_parquet(out)) == 120


def test_load_refuses_incomplete_and_foreign(tmp_path: Path) -> None:
    out = tmp_path / "r"
    run(30, out=out, workers=1, progress=False)
    meta = json.loads((out / META_NAME).read_text())
    meta["complete"] = False
    (out / META_NAME).write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="is incomplete; finish it with `simcore run --resume"):
        load(out)
    with pytest.raises(ValueError, match="is not a simcore run"):
        load(tmp_path)


# ------------------------------------------------------------------------------------------
# crash safety and resume


def _default_sigint() -> None:
    # A shell without job control starts background jobs with SIGINT ignored, and Python keeps
    # an inherited SIG_IGN (no KeyboardInterrupt): give the child the default, as a terminal does
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _cli(*args: str, cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "simcore.cli", "run", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, so its workers can be cleaned up
        preexec_fn=_default_sigint,
    )


def _wait_for_part(proc: subprocess.Popen[bytes], out: Path) -> None:
    deadline = time.monotonic() + 300
    while not list(out.glob("part-*.parquet")):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no part written within 300 s"
        time.sleep(0.002)


def test_ctrl_c_says_how_to_resume(tmp_path: Path) -> None:
    out = tmp_path / "stopped"
    # 80 chunks: after the first part exists, 79 remain (a second or more even at 50,000
    # deals/s), so the signal lands mid-run; 30 small chunks once finished first in CI
    proc = _cli(
        "--deals", "40000", "--chunk-size", "500", "--workers", "1", "--out", str(out),
        cwd=tmp_path,
    )
    try:
        _wait_for_part(proc, out)
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal sends
        _, stderr = proc.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    parts = len(list(out.glob("part-*.parquet")))
    assert (
        f"interrupted with {parts} of 80 chunks on disk; complete the run with: simcore run "
        f"--resume --out {out}" in stderr.decode()
    )
    assert json.loads((out / META_NAME).read_text())["complete"] is False


@pytest.mark.skipif(not HAS_PROC, reason="finds the workers in /proc")
def test_sigkill_leaves_no_orphans_and_resume_equals_an_uninterrupted_run(
    tmp_path: Path,
) -> None:
    out = tmp_path / "killed"
    # 80 chunks: after the first part exists, 79 chunks of work remain (a second or more even
    # at 50,000 deals/s), so the kill lands mid-run
    proc = _cli(
        "--deals",
        "40000",
        "--chunk-size",
        "500",
        "--workers",
        "2",
        "--seed",
        "11",
        "--out",
        str(out),
        "--quiet",
        cwd=tmp_path,
    )
    try:
        _wait_for_part(proc, out)
        children = descendants(proc.pid)  # 2 workers, the forkserver, the resource tracker
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=30) == -signal.SIGKILL
        # no orphans: every process the run started ends within 5 s of its parent's death
        deadline = time.monotonic() + 5
        while still_running(children) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(children) >= 2, f"expected the run's workers among {children}"
        assert not still_running(children), (
            f"processes {still_running(children)} of the killed run outlived it by 5 s")
    finally:
        with contextlib.suppress(ProcessLookupError):  # orphaned workers of the killed parent
            os.killpg(proc.pid, signal.SIGKILL)
    meta = json.loads((out / META_NAME).read_text())
    assert meta["complete"] is False and meta["summary"] is None
    assert 1 <= len(list(out.glob("part-*.parquet"))) < 80

    # parameters come from the run itself: --resume and --out are enough
    resumed = _cli("--resume", "--out", str(out), "--workers", "1", cwd=tmp_path)
    stdout, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr.decode()
    assert "already on disk" in stdout.decode()

    whole = run(40000, seed=11, chunk_size=500, out=tmp_path / "whole", workers=1,
                progress=False)
    assert part_bytes(out) == part_bytes(whole.path)
    df, meta = load(out)
    pd.testing.assert_frame_equal(df, whole.records())
    assert meta["complete"] is True
    assert meta["summary"]["stats"] == whole.summary["stats"]
    assert meta["summary"]["deals_resumed"] + meta["summary"]["deals_computed"] == 40000
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []


def _interrupted(tmp_path: Path, deals: int = 200, chunk_size: int = 50) -> Path:
    """A run whose last chunks are missing, as a crash leaves it."""
    out = tmp_path / "crashed"
    run(deals, seed=3, out=out, chunk_size=chunk_size, workers=1, progress=False)
    meta = json.loads((out / META_NAME).read_text())
    meta.update(complete=False, finished=None, summary=None)
    (out / META_NAME).write_text(json.dumps(meta))
    (out / "part-000003.parquet").unlink()
    (out / "part-000001.parquet").unlink()
    (out / ".part-000001.parquet.tmp").write_bytes(b"torn")
    return out


def test_resume_completes_a_crashed_run(tmp_path: Path) -> None:
    out = _interrupted(tmp_path)
    dataset = run(out=out, resume=True, workers=1, progress=False)
    assert dataset.complete and dataset.summary["deals_resumed"] == 100
    pd.testing.assert_frame_equal(dataset.records(), reference(200, seed=3))
    assert not (out / ".part-000001.parquet.tmp").exists()
    before = snapshot(out)
    again = run(out=out, resume=True, progress=False)  # complete: nothing to do
    assert again.complete and snapshot(out) == before


def test_resume_refuses_different_parameters(tmp_path: Path) -> None:
    out = _interrupted(tmp_path)
    before = snapshot(out)
    with pytest.raises(ValueError, match=r"differs in deals \(stored 200, asked 500\); pass force"):
        run(500, out=out, resume=True, progress=False)
    # only the parameters that differ, not two whole rule dictionaries
    with pytest.raises(ValueError, match=r"cannot resume .*: the stored run differs in "
                                         r"pig_penalty \(stored 10, asked 99\); pass force"):
        run(out=out, resume=True, overrides=["pig_penalty=99"], progress=False)
    with pytest.raises(ValueError, match=r"differs in seed \(stored 3, asked 4\); pass force"):
        run(out=out, resume=True, seed=4, progress=False)
    with pytest.raises(ValueError, match=r"differs in fan_cap \(stored None, asked 3\), "
                                         r"seed \(stored 3, asked 1\); pass force"):
        run(out=out, resume=True, overrides=["fan_cap=3"], seed=1, progress=False)
    with pytest.raises(ValueError, match=r"differs in policies \(stored speed/speed/speed/speed, "
                                         r"asked flush:k=6/speed/speed/speed\)"):
        run(out=out, resume=True, policies="flush:k=6/speed/speed/speed", progress=False)
    assert snapshot(out) == before


def test_resume_refuses_other_engine_code(tmp_path: Path) -> None:
    out = _interrupted(tmp_path)
    meta = json.loads((out / META_NAME).read_text())
    meta["engine_fingerprint"] = "0123456789abcde"
    (out / META_NAME).write_text(json.dumps(meta))
    before = snapshot(out)
    with pytest.raises(ValueError, match="started with engine_fingerprint '0123456789abcde', this"):
        run(out=out, resume=True, progress=False)
    assert snapshot(out) == before


def test_workers_refuse_other_engine_code() -> None:
    plan = RunPlan(get_rules(), SEATS, seed=0, deals=8, duplicate=False, chunk_size=8)
    assert compute_chunk(plan, plan.chunk(0), loaded_engine_fingerprint()).stats.deals == 8
    with pytest.raises(RuntimeError, match="differs from the run's 0123456789abcdef: the simc"):
        compute_chunk(plan, plan.chunk(0), "0123456789abcdef")


def test_inconsistent_metadata_is_corrupt(tmp_path: Path) -> None:
    out = _interrupted(tmp_path)
    meta = json.loads((out / META_NAME).read_text())
    meta["n_chunks"] = 99
    del meta["rules"]["drizzle"]
    (out / META_NAME).write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="corrupt run metadata .*missing rule parameters: drizzle"):
        run(out=out, resume=True, progress=False)
    meta["rules"] = get_rules().to_dict()
    (out / META_NAME).write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="corrupt run metadata .*fields n_chunks are inconsistent"):
        run(out=out, resume=True, progress=False)


def test_existing_run_needs_resume_or_force(tmp_path: Path) -> None:
    out = tmp_path / "r"
    run(40, out=out, workers=1, progress=False)
    before = snapshot(out)
    with pytest.raises(FileExistsError, match="already holds a complete run; pass resume=True"):
        run(80, out=out, progress=False)
    with pytest.raises(ValueError, match="resume and force exclude each other"):
        run(80, out=out, resume=True, force=True, progress=False)
    assert snapshot(out) == before
    replaced = run(80, seed=1, out=out, force=True, workers=1, progress=False)
    pd.testing.assert_frame_equal(replaced.records(), reference(80, seed=1))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"deals": 0}, "deals must be a positive integer, got 0"),
        ({"rules": "nope"}, "unknown preset 'nope'"),
        ({"overrides": ["nope=1"]}, "unknown rule parameter 'nope'"),
        ({"policies": "speed/speed"}, "name 2 seats"),
        ({"chunk_size": 0}, "chunk size must be a positive integer, got 0"),
    ],
)
def test_bad_input_never_costs_the_existing_run(tmp_path: Path, kwargs: dict, message: str) -> None:
    out = tmp_path / "r"
    run(40, out=out, workers=1, progress=False)
    before = snapshot(out)
    for mode in ({"force": True}, {"resume": True}):  # force validates before deleting anything
        with pytest.raises(ValueError, match=message):
            run(**{"deals": 40, **kwargs}, out=out, progress=False, **mode)
    assert snapshot(out) == before


def test_corrupt_metadata_is_an_error_and_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "r"
    run(40, out=out, workers=1, progress=False)
    (out / META_NAME).write_text('{"format": "simcore-run", "format_vers')
    before = snapshot(out)
    for resume in (False, True):
        with pytest.raises(ValueError, match="corrupt run metadata .*nothing was changed"):
            run(40, out=out, resume=resume, progress=False)
    with pytest.raises(ValueError, match="corrupt run metadata"):
        load(out)
    assert snapshot(out) == before
    # force replaces it: every file there is simcore's own
    pd.testing.assert_frame_equal(
        run(40, out=out, force=True, workers=1, progress=False).records(), reference(40)
    )


def test_corrupt_part_is_an_error_and_left_alone(tmp_path: Path) -> None:
    out = _interrupted(tmp_path)
    part = out / "part-000002.parquet"
    part.write_bytes(part.read_bytes()[:-100])  # truncated by something outside simcore
    before = snapshot(out)
    with pytest.raises(ValueError, match="corrupt part .*part-000002.parquet.*delete that part"):
        run(out=out, resume=True, progress=False)
    assert snapshot(out) == before


def test_part_of_another_run_is_refused(tmp_path: Path) -> None:
    out = _interrupted(tmp_path)
    other = run(200, seed=8, out=tmp_path / "other", chunk_size=50, workers=1, progress=False)
    (out / "part-000002.parquet").write_bytes((other.path / "part-000002.parquet").read_bytes())
    with pytest.raises(ValueError, match="part-000002.parquet does not belong to this run"):
        run(out=out, resume=True, progress=False)


# ------------------------------------------------------------------------------------------
# bad input: clear errors, nothing created or changed


def test_foreign_directory_is_left_untouched(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("my thesis")
    before = snapshot(out)
    for force in (False, True):
        with pytest.raises(ValueError, match=r"holds files simcore did not write \(notes.txt\)"):
            run(20, out=out, force=force, progress=False)
    assert snapshot(out) == before


def test_unwritable_output_directory(tmp_path: Path) -> None:
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    with pytest.raises(ValueError, match="cannot create output directory .*a_file/run"):
        run(20, out=blocker / "run", progress=False)
    with pytest.raises(ValueError, match="output path .*a_file exists and is not a directory"):
        run(20, out=blocker, progress=False)
    assert blocker.read_text() == "x"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--deals", "0"], "deals must be a positive integer, got 0"),
        (["--deals", "-5"], "deals must be a positive integer, got -5"),
        ([], "deals is required"),
        (["--deals", "10", "--rules", "nope"], "unknown preset 'nope'"),
        (["--deals", "10", "--set", "pig_penalti=1"], "unknown rule parameter 'pig_penalti'"),
        (["--deals", "10", "--set", "pig_penalty=lots"], "pig_penalty: 'lots' is not an integer"),
        (["--deals", "10", "--policies", "speed/nonsense"], "nonsense"),
        (["--deals", "10", "--workers", "0"], "workers must be a positive integer, got 0"),
        (["--deals", "10", "--chunk-size", "-1"], "chunk size must be a positive integer, got -1"),
        (["--deals", "10", "--dask-local", "0"], "dask_local must be a positive integer, got 0"),
        (["--deals", "10", "--workers", "2", "--dask-local", "2"], "workers=2 is for local"),
    ],
)
def test_command_line_errors(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "run"
    assert cli.main(["run", *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("simcore run: error: ") and message in err
    assert not out.exists()  # validation happens before anything is created


def test_command_line_summary(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "run"
    assert cli.main(["run", "--deals", "40", "--workers", "1", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"run: {out}" and lines[1] == "deals: 40"
    assert "deals/s" in lines[2] and "(serial, 1 worker)" in lines[2]
    assert lines[3].startswith("winners per deal: ") and "flower-pig rate" in lines[3]
    assert cli.main(["run", "--deals", "40", "--out", str(out), "--quiet"]) == 2
    assert "already holds a complete run" in capsys.readouterr().err


def test_script_without_main_guard_gets_a_clear_error(tmp_path: Path) -> None:
    """Worker processes import the main script again: without the guard it calls run() anew."""
    script = tmp_path / "unguarded.py"
    script.write_text(
        "import simcore\n"
        f"simcore.run(2000, out={str(tmp_path / 'run')!r}, workers=2, progress=False)\n",
        encoding="utf-8",
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode != 0
    assert "if __name__ == \"__main__\":" in done.stderr and "workers=1" in done.stderr
