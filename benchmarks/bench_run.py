"""End-to-end ``simcore run`` benchmark: deals -> Parquet, 1 vs 2 worker processes.

    .venv/bin/python benchmarks/bench_run.py                  # 1,000,000 speed deals, classic
    .venv/bin/python benchmarks/bench_run.py --deals 100000 --compare-threads

Prints the machine, wall time, deals/s, the speed-up of 2 workers over 1, peak resident memory
of the parent and of the worker processes, and the bytes written. Measure on an idle machine:
other jobs on the same cores hide any speed-up.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _machine import describe_machine  # benchmarks/_machine.py (the script's directory)

import simcore
from simcore.engine.records import RECORD_DTYPE
from simcore.runner.driver import environment
from simcore.runner.execute import compute_chunk
from simcore.runner.plan import RunPlan, default_chunk_size


def _rss_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # Linux reports KiB


def _dir_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.iterdir()) / 1e6


def bench_run(deals: int, workers: int, chunk_size: int, root: Path) -> dict[str, float]:
    """One end-to-end run; returns wall time, deals/s and bytes on disk."""
    out = root / f"w{workers}"
    t0 = time.perf_counter()
    dataset = simcore.run(
        deals,
        rules="classic",
        policies="speed",
        seed=0,
        out=out,
        workers=workers,
        chunk_size=chunk_size,
        progress=False,
    )
    wall = time.perf_counter() - t0
    assert dataset.complete and dataset.n_deals == deals
    result = {
        "workers": workers,
        "wall_s": wall,
        "deals_per_s": deals / wall,
        "disk_mb": _dir_mb(out),
    }
    shutil.rmtree(out)
    return result


def bench_threads(deals: int, workers: int, chunk_size: int) -> float:
    """Deals/s of the rejected alternative: chunks on a thread pool in one process."""
    from simcore.engine import parse_policies
    from simcore.rules import get_rules

    plan = RunPlan(
        get_rules("classic"), tuple(parse_policies("speed")), 0, deals, False, chunk_size
    )
    compute_chunk(plan, plan.chunk(0))  # warm up (numba cache, tables) outside the timing
    t0 = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        for _ in pool.map(lambda c: compute_chunk(plan, c), plan.chunks()):
            pass
    return deals / (time.perf_counter() - t0)


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

    results = []
    with tempfile.TemporaryDirectory(prefix="bench_run_") as tmp:
        for workers in (int(w) for w in args.workers.split(",")):
            r = bench_run(args.deals, workers, args.chunk_size, Path(tmp))
            results.append(r)
            print(
                f"workers {workers}: {r['wall_s']:.1f} s, {r['deals_per_s']:,.0f} deals/s, "
                f"{r['disk_mb']:.1f} MB on disk ({r['disk_mb'] * 1e6 / args.deals:.0f} B/deal)"
            )
    base = results[0]
    for r in results[1:]:
        print(
            f"speed-up {r['workers']} vs {base['workers']} workers: "
            f"{base['wall_s'] / r['wall_s']:.2f}x"
        )
    print(
        f"peak RSS: parent {_rss_mb(resource.RUSAGE_SELF):.0f} MB, largest worker "
        f"{_rss_mb(resource.RUSAGE_CHILDREN):.0f} MB"
    )
    if args.compare_threads:
        rate = bench_threads(args.deals, 2, args.chunk_size)
        print(f"2 threads in one process: {rate:,.0f} deals/s")
    return 0


if __name__ == "__main__":  # the guard matters: worker processes re-import this module
    sys.exit(main())
