"""``simcore.run``: plan a run, check the output directory, compute missing chunks, write parts.

The parent process is the only writer of the run directory: it writes the metadata first
(``complete: false``), renames each finished part into place, and rewrites the metadata at the
end. A crash therefore leaves whole parts plus a metadata file naming the chunk plan, which is all
``resume=True`` needs to finish the run with exactly the records of an uninterrupted one.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import platform
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from importlib import metadata as _metadata
from pathlib import Path
from typing import Any

from simcore.rules import Rules, resolve_rules
from simcore.runner.execute import (
    ChunkResult,
    UnguardedScriptError,
    import_distributed,
    importing_main_in_worker,
    load_engine,
    loaded_engine_fingerprint,
    run_dask,
    run_processes,
    run_serial,
    unguarded_script_error,
    warm_up,
)
from simcore.runner.plan import (
    Chunk,
    ChunkStats,
    RunPlan,
    default_chunk_size,
    default_workers,
    positive_int,
)
from simcore.runner.store import (
    META_NAME,
    Dataset,
    DirState,
    check_wins_part,
    inspect_dir,
    read_meta,
    read_part_stats,
    run_meta,
    write_meta,
    write_part,
    write_wins_part,
)

DEFAULT_POLICY = "speed"
DEFAULT_RUNS_DIR = Path("data") / "runs"  # relative to the working directory, like the CLI


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run; the message says how to resume it. A KeyboardInterrupt still."""


def _utc_now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def _git_commit() -> str | None:
    """HEAD of the git tree holding the simcore sources, or None (installed from a wheel...)."""
    source = Path(__file__).resolve().parents[2]  # the directory holding the simcore package
    try:
        top = subprocess.run(
            ["git", "-C", str(source), "rev-parse", "--show-toplevel", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return None
    # only trust a repository whose root is the source tree itself, not some enclosing checkout
    if len(top) != 2 or Path(top[0]).resolve() != source:
        return None
    return top[1]


def _version(package: str) -> str | None:
    try:
        return _metadata.version(package)
    except _metadata.PackageNotFoundError:
        return None


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def environment() -> dict[str, Any]:
    """Versions and machine, recorded in every run for reproducibility."""
    from simcore._version import __version__

    return {
        "simcore_version": __version__,
        "git_commit": _git_commit(),
        "engine_fingerprint": loaded_engine_fingerprint(),
        "numba_version": _version("numba"),
        "numpy_version": _version("numpy"),
        "pyarrow_version": _version("pyarrow"),
        "python": platform.python_version(),
        "machine": {
            "platform": platform.platform(),
            "cpu": _cpu_model(),
            "cores": os.cpu_count(),
            "usable_cores": default_workers(),
        },
    }


def _parse_policies(spec: str | Sequence[str], rules: Rules) -> list[str]:
    from simcore.engine.spec import check_for_rules  # numba-free

    seats = load_engine().parse_policies(spec, rules.players)
    check_for_rules(seats, rules.suits)
    return seats


def _fresh_plan(
    deals: int | None,
    rules: str | Rules | Mapping[str, Any] | None,
    overrides: Mapping[str, Any] | Sequence[str],
    policies: str | Sequence[str] | None,
    seed: int | None,
    duplicate: bool | None,
    chunk_size: int | None,
) -> RunPlan:
    if deals is None:
        raise ValueError("deals is required: the number of deals to play")
    deals = positive_int("deals", deals)
    record = resolve_rules(rules, overrides)
    return RunPlan(
        rules=record,
        seat_policies=tuple(
            _parse_policies(DEFAULT_POLICY if policies is None else policies, record)
        ),
        seed=0 if seed is None else seed,
        deals=deals,
        duplicate=False if duplicate is None else duplicate,
        chunk_size=(default_chunk_size(deals, record.players) if chunk_size is None
                    else chunk_size),
    )


def _check_resume(
    stored: RunPlan,
    out: Path,
    deals: int | None,
    rules: str | Rules | Mapping[str, Any] | None,
    overrides: Mapping[str, Any] | Sequence[str],
    policies: str | Sequence[str] | None,
    seed: int | None,
    duplicate: bool | None,
    chunk_size: int | None,
) -> None:
    """ValueError unless every parameter the caller gave equals the stored run's; it names
    each one that differs (a rule parameter by its own name), with both values."""
    differ: list[tuple[str, object, object]] = []  # (name, stored, asked)

    def compare(name: str, old: object, new: object) -> None:
        if old != new:
            differ.append((name, old, new))

    if deals is not None:
        compare("deals", stored.deals, positive_int("deals", deals))
    if rules is not None or overrides:
        # unspecified base rules mean "the run's rules", so resuming with the same --set works
        wanted = resolve_rules(stored.rules if rules is None else rules, overrides)
        old, new = stored.rules.to_dict(), wanted.to_dict()
        for key in dict.fromkeys([*old, *new]):
            compare(key, old.get(key), new.get(key))
    if policies is not None:
        compare("policies", "/".join(stored.seat_policies),
                "/".join(_parse_policies(policies, stored.rules)))
    if seed is not None:
        compare("seed", stored.seed, seed)
    if duplicate is not None:
        compare("duplicate", stored.duplicate, duplicate)
    if chunk_size is not None:
        compare("chunk size", stored.chunk_size, chunk_size)
    if differ:
        named = ", ".join(f"{name} (stored {_shown(old)}, asked {_shown(new)})"
                          for name, old, new in differ)
        raise ValueError(
            f"cannot resume {out}: the stored run differs in {named}; pass force=True "
            f"(--force) to replace it, or choose another output directory"
        )


def _shown(value: object) -> str:
    """A parameter's value as the command line writes it (strings without quotes)."""
    return value if isinstance(value, str) else repr(value)


def _prepare_dir(out: Path, state: DirState) -> None:
    """Create ``out`` if needed and check it is writable (ValueError naming it otherwise)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"cannot create output directory {out}: {exc.strerror or exc}") from None
    if not os.access(out, os.W_OK | os.X_OK):
        raise ValueError(f"output directory {out} is not writable")
    for tmp in state.temps:  # leftovers of a killed writer; never renamed, so never data
        tmp.unlink(missing_ok=True)


def _existing_stats(plan: RunPlan, state: DirState) -> tuple[ChunkStats, list[Chunk]]:
    """Statistics of the parts already on disk (checked) and the chunks still to compute."""
    for index, path in state.parts.items():
        if index >= plan.n_chunks:
            raise ValueError(
                f"part {path} is outside the run's chunk plan ({plan.n_chunks} chunks); "
                f"nothing was changed"
            )
    done = ChunkStats()
    todo: list[Chunk] = []
    for chunk in plan.chunks():
        part = state.parts.get(chunk.index)
        if part is None:
            todo.append(chunk)
        else:
            try:
                done = done + read_part_stats(part, plan, chunk)
                check_wins_part(state.path, plan, chunk)
            except ValueError as exc:
                raise ValueError(
                    f"{exc}; nothing was changed (delete that part to have --resume recompute "
                    f"it, or pass --force to start over)"
                ) from None
    return done, todo


def _progress_bar(total: int, initial: int, enabled: bool) -> Any:
    from tqdm import tqdm

    return tqdm(
        total=total,
        initial=initial,
        unit=" deals",
        unit_scale=True,
        file=sys.stderr,
        # a bar in a log file is noise: only draw it on a terminal
        disable=not (enabled and sys.stderr.isatty()),
        smoothing=0.1,
        dynamic_ncols=True,
    )


def run(
    deals: int | None = None,
    *,
    rules: str | Rules | Mapping[str, Any] | None = None,
    policies: str | Sequence[str] | None = None,
    seed: int | None = None,
    out: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    chunk_size: int | None = None,
    duplicate: bool | None = None,
    scheduler: str | None = None,
    dask_local: int | None = None,
    resume: bool = False,
    force: bool = False,
    overrides: Mapping[str, Any] | Sequence[str] = (),
    progress: bool = True,
) -> Dataset:
    """Simulate ``deals`` deals into a Parquet dataset directory and return its :class:`Dataset`.

    - ``deals``: deals played (required for a new run). With ``duplicate=True`` it must be a
      multiple of the players (4, or 3 with ``players = 3``): ``deals // players`` walls, each
      played under the seat rotations of the policies (deal ``players * wall + rotation``).
    - ``rules`` (preset name, :class:`~simcore.rules.Rules` or mapping; default ``classic``) and
      ``overrides`` (``["NAME=VALUE", ...]`` or a mapping) as in
      :func:`simcore.rules.resolve_rules`;
      ``policies``: one spec for all seats or four joined by ``/`` (default ``speed``);
      ``seed`` (default 0); ``chunk_size`` deals per Parquet part (default: ``deals / 16``
      between 1,000 and 50,000, see :func:`~simcore.runner.plan.default_chunk_size`).
    - ``out``: directory; default ``data/runs/<name derived from the parameters>``.
    - ``workers``: local processes (default: all usable cores); or ``scheduler`` (a Dask
      scheduler address) / ``dask_local`` (start a local Dask cluster of that many processes).
      Records are identical for every choice.
    - ``resume``: complete the interrupted run in ``out`` (parameters left as None are taken from
      it; given ones must match). ``force``: replace the run in ``out`` (removes only simcore's
      files). An existing run is never touched otherwise; a directory holding other files never.
    - ``progress``: draw a progress bar on stderr when it is a terminal.
    """
    if importing_main_in_worker():
        # a worker process is importing the parent's script, which calls run() at its top
        # level: stop before touching any directory, saying why (the parent says it too)
        raise unguarded_script_error("simcore.run was called in a worker process as it started")
    if resume and force:
        raise ValueError(
            "resume and force exclude each other: resume keeps the run, force replaces it"
        )
    if scheduler is not None and dask_local is not None:
        raise ValueError(f"give a Dask scheduler ({scheduler!r}) or dask_local, not both")
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
        raise ValueError(f"scheduler must be an address like 'tcp://host:8786', got {scheduler!r}")
    if workers is not None:
        positive_int("workers", workers)
        if scheduler is not None or dask_local is not None:
            raise ValueError(
                f"workers={workers} is for local processes; a Dask run uses the cluster's workers"
            )
    if dask_local is not None:
        positive_int("dask_local", dask_local)
    if scheduler is not None or dask_local is not None:
        import_distributed()  # fail before creating anything when the extra is missing
    if chunk_size is not None:
        positive_int("chunk size", chunk_size)
    if not isinstance(resume, bool) or not isinstance(force, bool):
        raise ValueError(f"resume and force must be booleans, got {resume!r} and {force!r}")

    plan: RunPlan | None = None
    if out is None:
        plan = _fresh_plan(deals, rules, overrides, policies, seed, duplicate, chunk_size)
        out_path = DEFAULT_RUNS_DIR / plan.run_name()
    else:
        out_path = Path(out)
    state = inspect_dir(out_path)
    if state.foreign:
        names = ", ".join(p.name for p in state.foreign[:3])
        more = f" and {len(state.foreign) - 3} more" if len(state.foreign) > 3 else ""
        raise ValueError(
            f"output directory {out_path} holds files simcore did not write ({names}{more}); "
            f"it is left untouched: choose another output directory"
        )

    meta: dict[str, Any] | None = None
    if state.is_run:
        stored: RunPlan | None = None
        try:
            meta = read_meta(out_path)
            try:
                stored = RunPlan.from_parameters(meta)
            except ValueError as exc:
                raise ValueError(f"corrupt run metadata {out_path / META_NAME}: {exc}") from None
        except ValueError as exc:
            if not force:
                raise ValueError(
                    f"{exc}; nothing was changed (pass force=True / --force to replace the run)"
                ) from None
            meta = None
        if stored is not None and resume:
            _check_resume(
                stored, out_path, deals, rules, overrides, policies, seed, duplicate, chunk_size
            )
            _check_same_code(meta, out_path)  # type: ignore[arg-type]
            plan = stored
        elif force:
            meta = None
        else:
            assert meta is not None
            kind = "a complete" if meta.get("complete") is True else "an incomplete"
            raise FileExistsError(
                f"output directory {out_path} already holds {kind} run; pass resume=True "
                f"(--resume) to complete it or force=True (--force) to replace it"
            )
    elif state.parts and not force:
        raise ValueError(
            f"output directory {out_path} holds parts but no {META_NAME}; nothing was changed "
            f"(pass force=True / --force to replace them)"
        )

    if meta is None:  # a new run, possibly replacing simcore's own files
        if plan is None:
            plan = _fresh_plan(deals, rules, overrides, policies, seed, duplicate, chunk_size)
        for path in state.own_files():
            path.unlink()
        state = inspect_dir(out_path)
    assert plan is not None
    if meta is not None:  # resuming: check the parts on disk before changing anything
        done, todo = _existing_stats(plan, state)
        if not todo and meta.get("complete") is True:
            return Dataset(out_path)
    created = not out_path.exists()
    _prepare_dir(out_path, state)

    fresh = meta is None
    if meta is None:
        meta = run_meta(
            **plan.parameters(),
            **environment(),
            started=_utc_now(),
            finished=None,
            complete=False,
            summary=None,
        )
        try:
            write_meta(out_path, meta)
        except OSError as exc:
            raise ValueError(f"cannot write to output directory {out_path}: {exc}") from None
        done, todo = ChunkStats(), plan.chunks()

    t0 = time.perf_counter()
    engine_s = None
    computed = ChunkStats()
    cpu = 0.0
    bar = _progress_bar(plan.deals, done.deals, progress)
    try:
        if scheduler is None and todo:
            # compile the engine here, or load it from numba's disk cache, before the clock of
            # the throughput starts: a cold compile (a minute) is no part of the deals per second
            warm_up(plan)
            engine_s = time.perf_counter() - t0
        ready = time.perf_counter()
        results, backend, n_workers = _backend(plan, todo, workers, scheduler, dask_local)
        for result in results:
            # the win part first: a records part on disk always has its win part
            write_wins_part(out_path, result.index, result.wins_data)
            write_part(out_path, result.index, result.data)
            computed = computed + result.stats
            cpu += result.cpu_seconds
            bar.update(result.stats.deals)
    except UnguardedScriptError:
        if fresh and not computed.deals:  # nothing to resume: leave no run behind
            for path in inspect_dir(out_path).own_files():
                path.unlink()
            if created:
                with contextlib.suppress(OSError):
                    out_path.rmdir()
        raise
    except KeyboardInterrupt:
        on_disk = len(inspect_dir(out_path).parts)  # counted, not tracked: Ctrl-C lands anywhere
        raise RunInterrupted(
            f"interrupted with {on_disk} of {plan.n_chunks} chunks on disk; "
            f"complete the run with: simcore run --resume --out {out_path}"
        ) from None
    finally:
        bar.close()
    wall = time.perf_counter() - t0
    compute = time.perf_counter() - ready

    total = done + computed
    if total.deals != plan.deals:  # cannot happen unless parts vanished under us
        raise RuntimeError(f"run {out_path} has {total.deals} deals, expected {plan.deals}")
    meta["summary"] = {
        "deals": total.deals,
        "walls": plan.walls,
        "deals_computed": computed.deals,
        "deals_resumed": done.deals,
        "wall_time_s": round(wall, 3),
        # the parent's engine compile or load (None on a remote Dask cluster: its workers' own)
        "engine_s": None if engine_s is None else round(engine_s, 3),
        "compute_time_s": round(compute, 3),  # from the engine ready to the last part
        "deals_per_s": (round(computed.deals / compute, 1) if compute > 0 and computed.deals
                        else None),
        "chunk_cpu_s": round(cpu, 3),  # CPU time spent in chunks: wall x workers on idle cores
        **total.rates(plan.players),
        "stats": total.to_dict(),
        "backend": backend,
        "workers": n_workers,
    }
    meta["finished"] = _utc_now()
    meta["complete"] = True
    write_meta(out_path, meta)
    return Dataset(out_path)


def _check_same_code(meta: dict[str, Any], out: Path) -> None:
    """Refuse to mix parts computed by different engine code in one run."""
    from simcore._version import __version__

    now = {
        "simcore_version": __version__,
        "engine_fingerprint": loaded_engine_fingerprint(),
    }
    for key, new in now.items():
        old = meta.get(key)
        if old is not None and new is not None and old != new:
            raise ValueError(
                f"cannot resume {out}: it was started with {key} {old!r}, this code has "
                f"{new!r}, so its parts could differ (pass --force to start over)"
            )


def _backend(
    plan: RunPlan,
    todo: list[Chunk],
    workers: int | None,
    scheduler: str | None,
    dask_local: int | None,
) -> tuple[Iterator[ChunkResult], str, int | None]:
    """The result iterator for the chosen execution, its name, and its worker count."""
    engine_id = (
        loaded_engine_fingerprint()
    )  # what the run's metadata records; workers must match it
    if scheduler is not None or dask_local is not None:
        return run_dask(plan, todo, engine_id, scheduler, dask_local), "dask", dask_local
    n = min(workers or default_workers(), max(1, len(todo)))
    if n == 1:
        return run_serial(plan, todo, engine_id), "serial", 1
    return run_processes(plan, todo, engine_id, n), "processes", n


__all__ = [
    "DEFAULT_POLICY",
    "DEFAULT_RUNS_DIR",
    "RunInterrupted",
    "environment",
    "run",
]
