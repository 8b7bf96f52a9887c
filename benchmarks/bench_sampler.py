"""Hidden-state sampler throughput: samples per second on mid-deal positions, one core.

Run ``python benchmarks/bench_sampler.py [--n N] [--positions K]``. Each row is a family of
``K`` fixed positions from :func:`simcore.advice.examples.random_position` (40 tiles left in the
wall, a few melds), sampled ``N`` times each: the median and the slowest over the positions of
the build time (enumerating winners' hands and the counting programmes) and of the samples per
second (CPU time of this thread, so waiting for a busy core is not counted).
"""

from __future__ import annotations

import argparse
import statistics
import time

from _machine import describe_machine  # benchmarks/ is on sys.path when run as a script

from simcore.advice.examples import random_position
from simcore.advice.sampler import HiddenSampler

FAMILIES = {
    # name: (preset, random_position keyword arguments, sampler method)
    "classic, no winner": ("classic", {"melds": (1, 1, 0, 1)}, "auto"),
    "classic, no winner, by types": ("classic", {"melds": (1, 1, 0, 1)}, "types"),
    "classic, one winner": ("classic", {"melds": (1, 2, 1, 0), "winners": (1,)}, "auto"),
    "app, passed three (by types)": ("app", {"melds": (1, 1, 0, 1), "exchange_to": 1}, "auto"),
    "classic, one winner, no meld": ("classic", {"melds": (1, 0, 1, 1), "winners": (1,)},
                                     "auto"),
    "river, two winners, 2 melds": ("river", {"melds": (1, 2, 2, 0), "winners": (1, 2)}, "auto"),
    "classic, two winners, no meld": ("classic", {"melds": (1, 0, 0, 1), "winners": (1, 2)},
                                      "auto"),
}


def bench(n: int, positions: int, wall: int = 40) -> list[tuple[str, float, float, float, float]]:
    rows: list[tuple[str, float, float, float, float]] = []
    for name, (preset, kwargs, method) in FAMILIES.items():
        builds, rates = [], []
        seed = failed = 0
        while len(rates) < positions:
            seed += 1
            try:
                p, _ = random_position(seed, preset, wall=wall, **kwargs)
            except ValueError:
                continue
            t0 = time.thread_time()
            try:
                sampler = HiddenSampler(p, method=method)
            except ValueError:  # more joint winners' hands than the sampler lists
                failed += 1
                continue
            t1 = time.thread_time()
            sampler.sample(n, seed=seed)
            t2 = time.thread_time()
            builds.append(t1 - t0)
            rates.append(n / max(t2 - t1, 1e-9))
        rows.append((name + (f" ({failed} refused)" if failed else ""),
                     statistics.median(builds), max(builds), statistics.median(rates),
                     min(rates)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000, help="samples per position")
    ap.add_argument("--positions", type=int, default=20, help="positions per family")
    args = ap.parse_args()
    print(describe_machine())
    print(f"{args.positions} positions per family, 40 tiles left, {args.n} samples each")
    print(f"{'family':44s} {'build median':>12s} {'build max':>10s} {'samples/s median':>17s} "
          f"{'samples/s min':>14s}")
    for name, b_med, b_max, r_med, r_min in bench(args.n, args.positions):
        print(f"{name:44s} {b_med * 1e3:10.1f}ms {b_max * 1e3:8.1f}ms {r_med:17,.0f} "
              f"{r_min:14,.0f}")


if __name__ == "__main__":
    main()
