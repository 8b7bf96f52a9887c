"""Where chunks are computed: in this process, in a local process pool, or on a Dask cluster.

Every backend runs the same :func:`compute_chunk` and yields its results in completion order; the
caller (the parent process) writes the parts. Workers return finished Parquet bytes rather than
records: the encoding (the costly part after simulation) then runs in parallel, the parent only
renames files into place, and a remote Dask cluster needs no filesystem shared with the client.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import islice
from types import ModuleType
from typing import Any

from simcore._process import watch_parent
from simcore.records import RECORD_DTYPE
from simcore.runner.plan import Chunk, ChunkStats, RunPlan
from simcore.runner.store import encode_part, encode_wins_part

# Chunks submitted ahead of completion, per worker: enough to keep every worker busy while the
# parent writes a part, few enough that finished parts waiting in memory stay bounded.
IN_FLIGHT_PER_WORKER = 2


def load_engine() -> ModuleType:
    """``simcore.engine``, imported on first use: it pulls in numba, which loading never needs."""
    import simcore.engine

    return simcore.engine


def loaded_engine_fingerprint() -> str:
    """Fingerprint of the engine sources this process runs (fixed when it imported the engine).

    Runs record it; ``--resume`` and every worker compare it, so one run never mixes parts
    computed by different engine code (an edit during a run, a remote Dask worker with other
    sources). A git commit says too little (uncommitted edits) and too much (docs-only commits).
    """
    load_engine()
    from simcore.engine.compile.fingerprint import engine_fingerprint

    return f"{engine_fingerprint():015x}"


@dataclass(frozen=True)
class ChunkResult:
    """A computed chunk: its Parquet bytes (records and win table), statistics, and the CPU
    time it took."""

    index: int
    data: bytes
    stats: ChunkStats
    cpu_seconds: float  # CPU (not wall) time: meaningful even when other jobs share the cores
    wins_data: bytes = b""  # the chunk's win table part


def compute_chunk(plan: RunPlan, chunk: Chunk, expected_engine: str | None = None) -> ChunkResult:
    """Simulate one chunk and encode it as a Parquet part (runs in workers; must stay picklable).

    ``expected_engine``: the run's engine fingerprint; a worker running other engine code refuses.
    """
    engine = load_engine()
    here = loaded_engine_fingerprint()
    if expected_engine is not None and here != expected_engine:
        raise RuntimeError(
            f"worker engine code {here} differs from the run's {expected_engine}: "
            f"the simcore sources changed during the run or differ on this worker; restart Python "
            f"(and the Dask workers) and resume or rerun"
        )
    t0 = time.process_time()
    records, wins = engine.simulate_wins(
        plan.rules,
        list(plan.seat_policies),
        plan.seed,
        chunk.start,
        chunk.count,
        duplicate=plan.duplicate,
    )
    rows = plan.players * chunk.deals
    if records.dtype != RECORD_DTYPE or len(records) != rows:
        raise RuntimeError(
            f"engine returned {len(records)} rows of dtype {records.dtype} for chunk "
            f"{chunk.index}; expected {rows} rows of RECORD_DTYPE"
        )
    stats = ChunkStats.from_records(records, plan.players)
    data = encode_part(records, plan, chunk, stats)
    wins_data = encode_wins_part(wins, plan, chunk)
    return ChunkResult(chunk.index, data, stats, time.process_time() - t0, wins_data)


def warm_up(plan: RunPlan) -> None:
    """Compile the engine here (or load it from numba's disk cache) by playing one deal.

    Called before starting local workers: on a cold cache each worker would otherwise compile
    the engine itself, all at once (minutes of CPU each); afterwards they load the cache.
    """
    load_engine().simulate(
        plan.rules, list(plan.seat_policies), plan.seed, 0, 1, duplicate=plan.duplicate
    )


def run_serial(plan: RunPlan, chunks: Iterable[Chunk], engine_id: str) -> Iterator[ChunkResult]:
    """Compute the chunks one after the other in this process."""
    for chunk in chunks:
        yield compute_chunk(plan, chunk, engine_id)


def _process_context() -> multiprocessing.context.BaseContext:
    # Not "fork": the parent may already run threads (tqdm's monitor, numba's thread pool, Dask),
    # and forking a threaded process can deadlock. forkserver starts workers from a clean process;
    # numba's on-disk cache makes re-importing the engine cheap in each of them.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def run_processes(
    plan: RunPlan, chunks: Iterable[Chunk], engine_id: str, workers: int
) -> Iterator[ChunkResult]:
    """Compute the chunks in a pool of ``workers`` local processes, at most a few ahead."""
    # Processes rather than threads, by measurement (benchmarks/bench_run.py, 1,000,000 speed
    # deals): 2 threads in one process reached only one core's worth, because the engine's
    # kernels hold the GIL (no nogil=True); 2 processes spend the same CPU per deal (x1.02), so
    # they scale: 1 process 55,500 deals/s, 2 processes 93,700 deals/s (x1.69; start-up and the
    # parent's writes take the rest). Start-up (forkserver, engine from numba's cache) costs
    # ~2 s once per run.
    warm_up(plan)
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=_process_context(),
        initializer=watch_parent, initargs=(os.getpid(),),
    )
    todo = iter(chunks)
    pending: set[Future[ChunkResult]] = set()
    finished = 0
    try:
        while True:
            for chunk in islice(todo, IN_FLIGHT_PER_WORKER * workers - len(pending)):
                pending.add(pool.submit(compute_chunk, plan, chunk, engine_id))
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                try:
                    result = future.result()
                except BrokenProcessPool as exc:
                    if not finished and main_script() is not None:
                        # every worker died before finishing anything, under a script: the
                        # script without the guard is by far the likeliest cause
                        raise unguarded_script_error(
                            "the worker processes died as they started; the likely cause"
                        ) from exc
                    raise RuntimeError(
                        f"a worker process died ({exc}). If simcore.run is called from a "
                        f"script, put the call under 'if __name__ == \"__main__\":' (worker "
                        f"processes import the main script again), or pass workers=1"
                    ) from exc
                finished += 1
                yield result
    finally:
        # on an error or an abandoned generator, drop queued chunks instead of finishing them
        pool.shutdown(wait=True, cancel_futures=True)


GUARD = 'if __name__ == "__main__":'


class UnguardedScriptError(RuntimeError):
    """Worker processes ran the main script's call of simcore.run again: no ``__main__`` guard."""


def main_script() -> str | None:
    """The file of the main script (as a worker process imports it too, as ``__mp_main__``),
    None in a REPL or notebook, or under ``python -c``."""
    for name in ("__mp_main__", "__main__"):
        path = getattr(sys.modules.get(name), "__file__", None)
        if path:
            return str(path)
    return None


def importing_main_in_worker() -> bool:
    """True while this process is a worker process importing its parent's main script (the
    spawn and forkserver starts run the script's top-level code again, as ``__mp_main__``):
    multiprocessing's own flag for that phase (its "bootstrapping phase" error reads it too)."""
    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))


def unguarded_script_error(seen: str) -> UnguardedScriptError:
    """The error of a script that starts a run at its top level, without the ``__main__``
    guard: ``seen`` says what was seen."""
    script = main_script()
    named = f"the script {script}" if script else "the main script"
    return UnguardedScriptError(
        f"{seen}: {named} calls simcore.run at its top level, and every "
        f"worker process imports the main script again, so the call runs again there. Put the "
        f"call under '{GUARD}' (every script that starts worker processes needs it), or pass "
        f"workers=1"
    )


def import_distributed() -> Any:
    """The ``distributed`` module, or ValueError saying how to install the optional extra."""
    try:
        import distributed
    except ImportError:
        raise ValueError(
            "Dask execution (--scheduler / --dask-local) needs the optional dask.distributed "
            "package: pip install 'simcore[distributed]'"
        ) from None
    return distributed


def run_dask(
    plan: RunPlan,
    chunks: Iterable[Chunk],
    engine_id: str,
    scheduler: str | None = None,
    dask_local: int | None = None,
) -> Iterator[ChunkResult]:
    """Compute the chunks as tasks on a Dask cluster: ``scheduler`` address or a local one.

    With ``dask_local=K`` a ``LocalCluster`` of K single-threaded worker processes is started
    and closed here. Remote workers must be able to import the same simcore version.
    """
    distributed = import_distributed()
    cluster = None
    if dask_local is not None:
        warm_up(plan)
        cluster = distributed.LocalCluster(
            n_workers=dask_local,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,  # no web server: avoids port clashes between runs
        )
        address = cluster.scheduler_address
    else:
        address = scheduler
    try:
        try:
            client = distributed.Client(address, timeout="30s")
        except (OSError, TimeoutError) as exc:
            raise ValueError(f"cannot connect to Dask scheduler {address!r}: {exc}") from None
        try:
            threads = max(1, sum(client.nthreads().values()))
            todo = iter(chunks)
            queue = distributed.as_completed()
            for chunk in islice(todo, IN_FLIGHT_PER_WORKER * threads):
                queue.add(client.submit(compute_chunk, plan, chunk, engine_id, pure=False))
            for future in queue:
                result = future.result()
                future.release()  # let the cluster forget the bytes at once
                yield result
                for chunk in islice(todo, 1):
                    queue.add(client.submit(compute_chunk, plan, chunk, engine_id, pure=False))
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()
