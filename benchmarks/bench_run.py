"""End-to-end ``simcore run`` benchmark: deals -> Parquet, 1 vs 2 worker processes.

    .venv/bin/python benchmarks/bench_run.py                  # 1,000,000 speed deals, classic
    .venv/bin/python benchmarks/bench_run.py --deals 100000 --compare-threads

Each configuration is a fresh ``python -m simcore.cli run`` process, timed from start to exit
(imports, worker start-up and Parquet writing included). Prints the machine, wall time, deals/s,
CPU time per deal, the speed-up of 2 workers over 1, peak resident memory of the run process and
of its workers, and the bytes written. On a machine shared with other jobs the wall-time
speed-up is distorted; equal CPU time per deal shows the work itself parallelises.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _machine import describe_machine  # benchmarks/_machine.py (the script's directory)

from simcore.engine import parse_policies
from simcore.records import RECORD_DTYPE
from simcore.rules import get_rules
from simcore.runner import META_NAME
from simcore.runner.driver import environment
from simcore.runner.execute import compute_chunk, loaded_engine_fingerprint, warm_up
from simcore.runner.plan import RunPlan, default_chunk_size


class PeakRss:
    """Peak resident memory of every descendant process, sampled from /proc (Linux).

    getrusage(RUSAGE_CHILDREN) cannot be used: forkserver workers are not the run process's
    children, and a forked child inherits its parent's peak.
    """

    def __init__(self, interval: float = 0.2) -> None:
        self.peak_kb: dict[int, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, args=(interval,), daemon=True)

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()

    def _loop(self, interval: float) -> None:
        while not self._stop.wait(interval):
            self.sample()

    def sample(self) -> None:
        parents: dict[int, int] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:  # the process ended meanwhile
                continue
            parents[int(stat.parent.name)] = int(fields[1])
        me = os.getpid()
        for pid in parents:
            ancestor = parents.get(pid)
            while ancestor is not None and ancestor not in (0, me):
                ancestor = parents.get(ancestor)
            if ancestor != me:
                continue
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        kb = int(line.split()[1])
                        self.peak_kb[pid] = max(kb, self.peak_kb.get(pid, 0))
            except OSError:
                continue


def bench_run(deals: int, workers: int, chunk_size: int, root: Path) -> dict[str, float]:
    """One ``simcore run`` process; wall time, CPU time inside chunks, memory, bytes on disk."""
    out = root / f"w{workers}"
    command = [
        sys.executable, "-m", "simcore.cli", "run", "--deals", str(deals), "--rules", "classic",
        "--policies", "speed", "--seed", "0", "--workers", str(workers),
        "--chunk-size", str(chunk_size), "--out", str(out), "--quiet",
    ]  # fmt: skip
    with PeakRss() as rss:
        t0 = time.perf_counter()
        proc = subprocess.run(command, capture_output=True, text=True)
        wall = time.perf_counter() - t0
    if proc.returncode:
        raise SystemExit(f"simcore run failed ({proc.returncode}):\n{proc.stderr}")
    meta = json.loads((out / META_NAME).read_text())
    assert meta["complete"] and meta["summary"]["deals"] == deals
    run_kb = rss.peak_kb.pop(next(iter(sorted(rss.peak_kb))), 0)  # the run process came first
    result = {
        "workers": workers,
        "deals": deals,
        "wall_s": wall,
        "deals_per_s": deals / wall,
        "cpu_s": meta["summary"]["chunk_cpu_s"],  # CPU time inside chunks, summed over workers
        "run_rss_mb": run_kb / 1024,
        "worker_rss_mb": max(rss.peak_kb.values(), default=0) / 1024,
        "disk_mb": sum(p.stat().st_size for p in out.iterdir()) / 1e6,
        "engine": meta["engine_fingerprint"],
    }
    shutil.rmtree(out)
    return result


def bench_threads(deals: int, workers: int, chunk_size: int) -> float:
    """Deals/s of the rejected alternative: chunks on a thread pool in one process."""
    plan = RunPlan(
        get_rules("classic"), tuple(parse_policies("speed")), 0, deals, False, chunk_size
    )
    warm_up(plan)  # compile or load from numba's cache outside the timing
    t0 = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        for _ in pool.map(lambda c: compute_chunk(plan, c), plan.chunks()):
            pass
    return deals / (time.perf_counter() - t0)


def deals_per_cpu(result: dict[str, float]) -> float:
    return result["deals"] / result["cpu_s"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument(
        "--chunk-size", type=int, default=None, help="deals per part (default: as simcore run)"
    )
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    parser.add_argument(
        "--compare-threads",
        action="store_true",
        help="also time 2 threads in one process (the rejected design)",
    )
    args = parser.parse_args()
    if args.chunk_size is None:
        args.chunk_size = default_chunk_size(args.deals)

    env = environment()
    print("machine:", describe_machine())  # includes the load average: other jobs skew timings
    print("machine:", json.dumps(env["machine"]))
    print(
        f"simcore {env['simcore_version']} ({env['git_commit']}), numba {env['numba_version']},"
        f" numpy {env['numpy_version']}, pyarrow {env['pyarrow_version']}, python {env['python']}"
    )
    row = RECORD_DTYPE.itemsize * 4
    print(
        f"deals {args.deals:,}, chunk size {args.chunk_size:,} "
        f"({row * args.chunk_size / 1e6:.1f} MB of records per chunk, {row} B per deal)"
    )

    # compile (or load from numba's cache) before timing: a cold cache costs minutes
    warm_up(RunPlan(get_rules("classic"), tuple(parse_policies("speed")), 0, 1, False, 1))
    results = []
    with tempfile.TemporaryDirectory(prefix="bench_run_") as tmp:
        for workers in (int(w) for w in args.workers.split(",")):
            r = bench_run(args.deals, workers, args.chunk_size, Path(tmp))
            results.append(r)
            print(
                f"workers {workers}: {r['wall_s']:.1f} s, {r['deals_per_s']:,.0f} deals/s, "
                f"chunk CPU {r['cpu_s']:.1f} s ({deals_per_cpu(r):,.0f} deals per CPU-second), "
                f"{r['disk_mb']:.1f} MB on disk ({r['disk_mb'] * 1e6 / args.deals:.0f} B/deal), "
                f"peak RSS run process {r['run_rss_mb']:.0f} MB, largest worker "
                f"{r['worker_rss_mb']:.0f} MB"
            )
    if len({r["engine"] for r in results}) > 1:
        print("WARNING: the engine sources changed between runs; the comparison is not valid")
    base = results[0]
    for r in results[1:]:
        # on a shared machine the wall-time speed-up reflects other jobs; CPU per deal does not:
        # equal CPU per deal means the work parallelises, and the speed-up on idle cores follows
        overhead = deals_per_cpu(base) / deals_per_cpu(r)
        print(
            f"CPU per deal with {r['workers']} workers / with {base['workers']}: {overhead:.2f} "
            f"(speed-up on idle cores at most {r['workers'] / base['workers'] / overhead:.2f}x)"
        )
        print(
            f"speed-up {r['workers']} vs {base['workers']} workers: "
            f"{base['wall_s'] / r['wall_s']:.2f}x"
        )
    if args.compare_threads:
        rate = bench_threads(args.deals, 2, args.chunk_size)
        print(
            f"2 threads in one process: {rate:,.0f} deals/s (engine {loaded_engine_fingerprint()})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
