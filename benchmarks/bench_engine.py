"""Engine throughput: deals per CPU-second on one core, compile time excluded.

    python benchmarks/bench_engine.py [--deals N] [--repeats 5]

Rows: four `random` seats and four `speed` seats under `classic` and `app`, the richest
policy combination, and the variants of docs/rules section 9 with the same policies as `classic`:
`two_suit3` (three players, two suits) and `two_suit4` (four players, two suits), issue 17's
target: `two_suit3` at least as many deals per CPU-second as `classic`; and blood river
(`river`, target: at least 0.6x `classic`). Each ratio to its target is printed. Each figure is
the median of the repeats (CPU time of this process, so a busy machine slows it less than wall
time would). The policy share estimates the time spent in decisions as
1 - (cost per wall draw with random seats) / (cost per wall draw with the policy): random
decisions cost almost nothing, and a deal's other work is proportional to its draws.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from _machine import describe_machine  # benchmarks/ is on sys.path when run as a script

from simcore.engine import simulate
from simcore.rules import PRESETS

ROWS = [
    ("classic", "random"),
    ("classic", "speed"),
    ("app", "random"),
    ("app", "speed"),
    ("app", "speed:kong=keep_shape,min_fan=1,until=20,void=weakest,watch=1"),
    # the whole family at one table, every option in use somewhere
    ("app", "flush:kong=pung_then_add,exchange=keep_long,void=weakest,watch=1/"
            "pungs:k=3,min_fan=1,until=20,watch=1/pairs:k=4,kong=always,watch=1/speed:watch=1"),
    ("two_suit3", "random"),
    ("two_suit3", "speed"),
    ("two_suit4", "random"),
    ("two_suit4", "speed"),
    ("river", "random"),
    ("river", "speed"),
]
# rows compared with the same policies under another preset: (preset, base preset, target)
RATIO_TARGETS = {"two_suit3": ("classic", 1.0), "river": ("classic", 0.6)}  # issue 17


def measure(preset: str, spec: str, deals: int, repeats: int) -> tuple[float, float]:
    rules = PRESETS[preset]
    seats = spec.split("/")[: rules.players] if "/" in spec else [spec] * rules.players
    simulate(rules, seats, 0, 0, 10)  # compile (or load from the cache)
    rates, per_draw = [], []
    for r in range(repeats):
        t0 = time.process_time()
        out = simulate(rules, seats, 1000 + r, 0, deals)
        dt = time.process_time() - t0
        rates.append(deals / dt)
        draws = out["draws"].astype(np.int64).sum()
        per_draw.append(dt / draws)
    return statistics.median(rates), statistics.median(per_draw)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(describe_machine())
    width = max(62, *(len(spec) for _, spec in ROWS))
    print(f"{'preset':9} {'policies':{width}} {'deals/CPU-s':>12} {'policy share':>13}")
    base: dict[str, float] = {}
    rates: dict[tuple[str, str], float] = {}
    for preset, spec in ROWS:
        try:
            rate, per_draw = measure(preset, spec, args.deals, args.repeats)
        except ValueError as exc:  # a policy option not available in this version
            print(f"{preset:9} {spec:{width}} {'n/a':>12}   ({exc})")
            continue
        rates[preset, spec] = rate
        if spec == "random":
            base[preset] = per_draw
            share = "-"
        else:
            share = f"{1 - base[preset] / per_draw:.0%}" if preset in base else "?"
        ratio = ""
        if preset in RATIO_TARGETS and (RATIO_TARGETS[preset][0], spec) in rates:
            other, target = RATIO_TARGETS[preset]
            ratio = (f"  {rate / rates[other, spec]:.2f}x {other} "
                     f"(target >= {target}x)")
        print(f"{preset:9} {spec:{width}} {rate:12,.0f} {share:>13}{ratio}")


if __name__ == "__main__":
    main()
