"""Coverage of the paired switching-gain interval at small sizes, on real simulated data.

    python benchmarks/bench_coverage.py [--walls 500] [--reps 1000] [--truth-walls 100000]
                                        [--data DIR]

Two arms (issue 26): ``flush:k=10`` under ``app`` and ``speed:kong=always`` under ``classic``,
each one seat against three ``speed`` seats in a duplicate run. The switching gain of the seat is
its mean net per deal over the walls (the field is ``speed``, so the baseline's own term is 0),
computed as every experiment computes it (``simcore.experiments.paired.SeatWalls``), and its
interval is :func:`simcore.analysis.stats.paired_interval`'s.

* The truth: one run of ``--truth-walls`` walls on seed 2601 (its mean, with its standard error).
* The replications: runs of ``200 * --walls`` walls on seeds 2602, 2603, ... (disjoint from the
  truth's), cut into consecutive blocks of ``--walls`` walls. Walls are independent (every
  random number of a deal is keyed by the seed and the deal), so a block is a replication as a
  run of its own seed would be. Each group of 200 replications is one seed's run.

For each arm and interval: the coverage of the truth (with the Monte Carlo standard error of a
coverage, ``sqrt(c (1 - c) / reps)``, about 1.5% for 200 replications), the share of intervals
entirely below and entirely above the truth, the mean width, and the ratio of the reported
standard error (root mean square) to the spread of the estimates. ``before`` is the rule of
simcore 0.x up to this change (BCa alone below 1,000 informative walls: every 500-wall block),
``after`` the current ``method='auto'``. The last table checks large samples: at 20,000 walls
(blocks of the replication runs) the mean width of ``after`` over ``before``.

Runs are written to ``--data`` (default: a temporary directory) and reused from it when present.
"""

from __future__ import annotations

import argparse
import math
import tempfile
import time
from pathlib import Path

import numpy as np
from _machine import describe_machine  # benchmarks/ is on sys.path when run as a script

import simcore
from simcore.analysis.stats import (
    KURTOSIS_LIMIT,
    METHOD_BOOTSTRAP,
    METHOD_NORMAL,
    MIN_INFORMATIVE_WALLS,
    paired_interval,
)
from simcore.experiments.paired import SeatWalls, canonical
from simcore.runner.store import Dataset

ARMS = (("app", "flush:k=10"), ("classic", "speed:kong=always"))
TRUTH_SEED = 2601
FIRST_REPLICATION_SEED = 2602
GROUP = 200  # replications per replication run (one seed)
LARGE_WALLS = 20_000


def seat_gains(preset: str, policy: str, walls: int, seed: int, data: Path) -> np.ndarray:
    """Per wall (in wall order): the seat's switching gain in net, from a duplicate run."""
    out = data / f"{preset}-{policy.replace(':', '_').replace('=', '-')}-seed{seed}-{walls}"
    if (out / "_run.json").exists():
        dataset = Dataset(out)
    else:
        dataset = simcore.run(4 * walls, rules=preset, policies=f"{policy}/speed/speed/speed",
                              seed=seed, out=out, workers=1, duplicate=True, force=True,
                              progress=False)
    return SeatWalls(dataset, canonical(policy), ["net"]).own["net"].to_numpy()


def legacy_method(d: np.ndarray) -> str:
    """The rule of ``method='auto'`` before the union: BCa alone when few walls are informative
    or the per-wall values are heavy-tailed, else normal."""
    row = paired_interval(d, method=METHOD_NORMAL)
    heavy = (row["informative_walls"] < MIN_INFORMATIVE_WALLS
             or not row["kurtosis"] / row["walls"] <= KURTOSIS_LIMIT)
    return METHOD_BOOTSTRAP if heavy else METHOD_NORMAL


def intervals(blocks: np.ndarray) -> dict[str, np.ndarray]:
    """Per block: (low, high, estimate, se) of the old rule, the current one and the normal."""
    out = {k: np.zeros((len(blocks), 4)) for k in ("before", "after", "normal")}
    methods = set()
    for i, d in enumerate(blocks):
        for name, method in (("before", legacy_method(d)), ("after", "auto"),
                             ("normal", METHOD_NORMAL)):
            row = paired_interval(d, method=method)
            out[name][i] = row["ci_low"], row["ci_high"], row["estimate"], row["se"]
            if name == "after":
                methods.add(row["method"])
    out["methods"] = np.array(sorted(methods))
    return out


def coverage_line(label: str, v: np.ndarray, truth: float) -> str:
    low, high = v[:, 0], v[:, 1]
    cov = float(np.mean((low <= truth) & (truth <= high)))
    mc = math.sqrt(cov * (1 - cov) / len(v))
    return (f"  {label:28} {len(v):5d} {cov:8.1%} {mc:6.1%} {np.mean(high < truth):7.1%} "
            f"{np.mean(low > truth):7.1%} {np.mean(high - low):8.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--walls", type=int, default=500, help="walls per replication")
    parser.add_argument("--reps", type=int, default=1_000,
                        help=f"replications per arm (a multiple of {GROUP})")
    parser.add_argument("--truth-walls", type=int, default=100_000)
    parser.add_argument("--data", type=Path, default=None, help="where runs are kept")
    args = parser.parse_args()
    if args.reps % GROUP:
        parser.error(f"--reps must be a multiple of {GROUP}, got {args.reps}")
    print(describe_machine())
    with tempfile.TemporaryDirectory() as tmp:
        data = args.data or Path(tmp)
        data.mkdir(parents=True, exist_ok=True)
        for preset, policy in ARMS:
            t0 = time.perf_counter()
            truth_walls = seat_gains(preset, policy, args.truth_walls, TRUTH_SEED, data)
            truth = float(truth_walls.mean())
            truth_se = float(truth_walls.std(ddof=1) / math.sqrt(len(truth_walls)))
            runs = [seat_gains(preset, policy, GROUP * args.walls, FIRST_REPLICATION_SEED + g,
                               data) for g in range(args.reps // GROUP)]
            blocks = np.concatenate([r.reshape(GROUP, args.walls) for r in runs])
            res = intervals(blocks)
            est, se = res["after"][:, 2], res["after"][:, 3]
            spread = float(est.std(ddof=1))
            rms_se = float(np.sqrt(np.mean(se**2)))
            print()
            print(f"{policy} under {preset}: switching gain in net per deal, one seat against "
                  f"speed/speed/speed")
            print(f"  truth {truth:+.5f} (se {truth_se:.5f}, {args.truth_walls:,} walls, seed "
                  f"{TRUTH_SEED}); {args.reps} replications of {args.walls} walls (seeds "
                  f"{FIRST_REPLICATION_SEED}-{FIRST_REPLICATION_SEED + len(runs) - 1})")
            print(f"  the truth's se is {truth_se / rms_se:.1%} of a replication's "
                  f"(their mean: {blocks.mean():+.5f})")
            print(f"  informative walls per replication: {np.mean(blocks != 0, axis=1).mean():.0%}"
                  f"; reported se (rms) {rms_se:.5f} over the spread of the estimates "
                  f"{spread:.5f}: {rms_se / spread:.3f}")
            print(f"  after: method {', '.join(res['methods'])}")
            print(f"  {'interval':28} {'reps':>5} {'coverage':>8} {'MC se':>6} {'below':>7} "
                  f"{'above':>7} {'width':>8}")
            for name, label in (("before", "before (BCa alone)"),
                                ("after", "after (auto)"), ("normal", "normal")):
                print(coverage_line(label, res[name], truth))
            for g in range(len(runs)):
                part = slice(g * GROUP, (g + 1) * GROUP)
                print(coverage_line(f"  seed {FIRST_REPLICATION_SEED + g}: before",
                                    res["before"][part], truth))
                print(coverage_line(f"  seed {FIRST_REPLICATION_SEED + g}: after",
                                    res["after"][part], truth))
            # large samples: blocks of LARGE_WALLS walls of the same runs
            large = np.concatenate(runs)
            large = large[: len(large) // LARGE_WALLS * LARGE_WALLS].reshape(-1, LARGE_WALLS)
            widths = []
            for d in large:
                old = paired_interval(d, method=legacy_method(d))
                new = paired_interval(d)
                widths.append(((new["ci_high"] - new["ci_low"])
                               / (old["ci_high"] - old["ci_low"]), new["method"]))
            ratio = np.array([w for w, _ in widths])
            print(f"  at {LARGE_WALLS:,} walls ({len(large)} blocks): width after / before "
                  f"mean {ratio.mean():.4f}, max {ratio.max():.4f}; methods "
                  f"{', '.join(sorted({m for _, m in widths}))}")
            print(f"  ({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
