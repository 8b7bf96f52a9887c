"""What-if throughput: the time of `simcore whatif` for one hand, compile time excluded.

    python benchmarks/bench_whatif.py [--deals 10000] [--repeats 3]

Row: the issue's hand `1123455789m 46p 9s` (seat 0 not the dealer, rules classic, others
speed) under the four default plans (speed, flush:k=0, pungs:k=0, pairs:k=0), --deals per plan on
common walls: wall-clock seconds of the whole call (dealing, play, statistics), the median of the
repeats, against the target of 10 s for 10,000 deals per plan; CPU seconds beside it show how
much of the wall time a busy machine took.
"""

from __future__ import annotations

import argparse
import statistics
import time

from _machine import describe_machine  # benchmarks/ is on sys.path when run as a script

from simcore.rollouts import DEFAULT_PLANS, whatif

HAND = "1123455789m 46p 9s"
TARGET_SECONDS = 10.0  # for 10,000 deals per plan, four plans (issue 8)


def measure(plans: tuple[str, ...], deals: int, repeats: int) -> tuple[float, float]:
    whatif(HAND, plans=list(plans), deals=50)  # compile (or load from the cache)
    wall, cpu = [], []
    for r in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        whatif(HAND, plans=list(plans), deals=deals, seed=1000 + r)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000, help="deals per plan")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(describe_machine())
    print(f"{'hand':20} {'plans':40} {'deals/plan':>10} {'wall s':>7} {'CPU s':>6} "
          f"{'deals/s':>8}  target")
    wall, cpu = measure(DEFAULT_PLANS, args.deals, args.repeats)
    total = args.deals * len(DEFAULT_PLANS)
    target = TARGET_SECONDS * args.deals / 10_000
    verdict = "ok" if wall <= target else "SLOW"
    print(f"{HAND:20} {';'.join(DEFAULT_PLANS):40} {args.deals:10,} {wall:7.2f} {cpu:6.2f} "
          f"{total / wall:8,.0f}  {verdict} (<= {target:.1f} s)")


if __name__ == "__main__":
    main()
