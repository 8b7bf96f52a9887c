"""Time ``simcore report`` over a synthetic run of N deals (the issue's target: 10 M deals < 2 min).

Run ``python benchmarks/bench_report.py [--deals N] [--chunk-size C] [--dir DIR] [--keep]``.
The run directory (default ``/tmp/simcore-bench-report-N``) is written once with realistic random
columns (:func:`simcore.testing.synthetic.write_synthetic_run`, runner layout, zstd parts) and
reused if it already holds a complete run of that size. The script then times the full report:
one pass over the data computing every table, text rendering, and the four PNG figures, and prints
throughput and the time extrapolated to 10 M deals (the pass is linear in the number of deals).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import sys
import time
from pathlib import Path

from simcore.analysis.report import build_report, render, write_figures
from simcore.testing.synthetic import write_synthetic_run

TARGET_DEALS = 10_000_000
TARGET_SECONDS = 120.0


def ensure_run(path: Path, deals: int, chunk_size: int, duplicate: bool) -> float:
    """Write the synthetic run unless it is already there; seconds spent writing."""
    meta = path / "_run.json"
    if meta.is_file():
        stored = json.loads(meta.read_text())
        if stored.get("deals") == deals and stored.get("duplicate") == duplicate:
            return 0.0
        shutil.rmtree(path)
    start = time.perf_counter()
    write_synthetic_run(path, deals, chunk_size=chunk_size, n_policies=2, duplicate=duplicate)
    return time.perf_counter() - start


def bench_report(path: Path) -> dict[str, float]:
    """Seconds for the one-pass tables, the text rendering and the figures."""
    t0 = time.perf_counter()
    report = build_report(path)
    t1 = time.perf_counter()
    render(report, "text")
    t2 = time.perf_counter()
    write_figures(report, path / "report")
    t3 = time.perf_counter()
    return {"tables": t1 - t0, "render": t2 - t1, "figures": t3 - t2, "total": t3 - t0,
            "deals": report.summary["deals"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=TARGET_DEALS)
    parser.add_argument("--chunk-size", type=int, default=50_000)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--duplicate", action="store_true", help="a duplicate (paired) run")
    parser.add_argument("--keep", action="store_true", help="keep the run directory afterwards")
    args = parser.parse_args(argv)
    suffix = "-dup" if args.duplicate else ""
    path = args.dir or Path(f"/tmp/simcore-bench-report-{args.deals}{suffix}")
    wrote = ensure_run(path, args.deals, args.chunk_size, args.duplicate)
    size = sum(f.stat().st_size for f in path.glob("part-*.parquet")) / 1e6
    times = bench_report(path)
    rate = times["deals"] / times["total"]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cpus, "
          f"load {os.getloadavg()[0]:.2f}")
    print(f"run: {path} ({times['deals']:,} deals, {size:.0f} MB of parts"
          + (f", written in {wrote:.1f} s" if wrote else ", reused") + ")")
    print(f"report: tables {times['tables']:.1f} s, render {times['render']:.2f} s, "
          f"figures {times['figures']:.2f} s, total {times['total']:.1f} s "
          f"({rate:,.0f} deals/s, peak RSS {peak:.0f} MB)")
    projected = TARGET_DEALS / rate
    print(f"10 M deals: {projected:.0f} s projected (target < {TARGET_SECONDS:.0f} s)"
          + ("" if times["deals"] != TARGET_DEALS else " [measured at full size]"))
    if not args.keep and args.dir is None:
        shutil.rmtree(path)
    return 0 if projected < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
