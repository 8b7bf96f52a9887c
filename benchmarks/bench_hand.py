"""Hand-evaluation throughput: evaluations per second on one core, compile time excluded.

Run ``python benchmarks/bench_hand.py [--n N] [--repeats R]``. Each row times one jitted batch
kernel over a pre-generated batch of random hands (13 or 14 tiles drawn from the 108, no
melds) and reports the median of ``R`` runs. :func:`bench_hand` returns the rows so other
benchmark scripts can include them; :data:`ROWS` is the list of rows, where the fan-scoring
rows are to be added.

Void: ``none`` evaluates all three suits (the slowest combine); ``chosen`` gives each hand the
suit it holds fewest tiles of as void (what a player declares), so only two suits are combined.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numba
import numpy as np
from _machine import describe_machine  # benchmarks/ is on sys.path when run as a script

from simcore.hand import kernels as hk
from simcore.hand.tables import SuitTables, load_tables


def random_hands(n: int, size: int, seed: int = 0) -> np.ndarray:
    """``int8[n, 27]`` counts of ``n`` random ``size``-tile hands from the 108 tiles."""
    rng = np.random.default_rng(seed)
    deck = np.tile(np.arange(108, dtype=np.int16), (n, 1))
    rows = np.arange(n)
    for i in range(size):  # partial Fisher-Yates on every row at once
        j = i + rng.integers(0, 108 - i, size=n)
        a, b = deck[rows, i].copy(), deck[rows, j]
        deck[rows, i], deck[rows, j] = b, a
    types = deck[:, :size] // 4
    flat = np.bincount((rows[:, None] * 27 + types).ravel(), minlength=n * 27)
    return flat.reshape(n, 27).astype(np.int8)


def chosen_void(hands: np.ndarray) -> np.ndarray:
    """The suit each hand holds fewest tiles of."""
    return hands.reshape(-1, 3, 9).sum(axis=2).argmin(axis=1).astype(np.int8)


def _time(fn: Callable[[], object], repeats: int) -> float:
    """Median CPU seconds of this thread over ``repeats`` runs (time waiting for a core on a
    busy machine is not counted; cache sharing with other jobs still is)."""
    fn()  # compile / warm up
    times = []
    for _ in range(repeats):
        t0 = time.thread_time()
        fn()
        times.append(time.thread_time() - t0)
    return statistics.median(times)


# --------------------------------------------------------------------------------------------
# rows: each takes (tables, n, repeats) and returns (name, evaluations per second)


def _shanten_row(size: int, void: str) -> Callable[[SuitTables, int, int], tuple[str, float]]:
    def row(t: SuitTables, n: int, repeats: int) -> tuple[str, float]:
        hands = random_hands(n, size, seed=size)
        k = np.zeros(n, np.int8)
        v = chosen_void(hands) if void == "chosen" else np.full(n, -1, np.int8)
        out = np.empty(n, np.int8)

        def run() -> None:
            hk.calc_shanten_batch(hands, k, v, hk.KIND_ANY, t.packed, out)

        return f"shanten (any), {size} tiles, void {void}", n / _time(run, repeats)

    return row


def _waits_row(t: SuitTables, n: int, repeats: int) -> tuple[str, float]:
    hands = random_hands(n, 13, seed=13)
    zeros = np.zeros(n, np.int8)
    v = chosen_void(hands)
    out = np.empty(n, np.int64)

    def run() -> None:
        hk._find_waits_batch(hands, hands, zeros, v, zeros, t.packed, t.masks, out)

    return "waits, 13 tiles, void chosen", n / _time(run, repeats)


def _ukeire_row(size: int) -> Callable[[SuitTables, int, int], tuple[str, float]]:
    def row(t: SuitTables, n: int, repeats: int) -> tuple[str, float]:
        hands = random_hands(n, size, seed=100 + size)
        k = np.zeros(n, np.int8)
        v = chosen_void(hands)
        out_mask = np.empty(n, np.int64)
        out_n = np.empty(n, np.int64)

        def run() -> None:
            hk._count_ukeire_batch(
                hands, k, v, hk.KIND_ANY, hands, t.packed, t.masks, out_mask, out_n
            )

        return f"ukeire (any), {size} tiles, void chosen", n / _time(run, repeats)

    return row


def _scoring_row(t: SuitTables, n: int, repeats: int) -> tuple[str, float]:
    """Fan scoring of random complete hands (classic), from benchmarks/bench_scoring.py."""
    from bench_scoring import bench_scoring

    row = bench_scoring(n=min(n, 200_000), repeats=repeats)[0]
    return "fan scoring, complete hands (batch)", float(row["per_second"])


ROWS: list[Callable[[SuitTables, int, int], tuple[str, float]]] = [
    _shanten_row(13, "none"),
    _shanten_row(13, "chosen"),
    _shanten_row(14, "none"),
    _shanten_row(14, "chosen"),
    _waits_row,
    _ukeire_row(13),
    _ukeire_row(14),
    _scoring_row,
]


def bench_hand(n: int = 1_000_000, repeats: int = 5) -> list[tuple[str, float]]:
    """``(name, evaluations per second)`` for every row of :data:`ROWS`."""
    numba.set_num_threads(1)
    t = load_tables()
    return [row(t, n, repeats) for row in ROWS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="hands per batch")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs (median reported)")
    args = parser.parse_args()
    t0 = time.perf_counter()
    load_tables()
    print(f"machine: {describe_machine()}")
    print(f"tables loaded or built in {time.perf_counter() - t0:.2f} s")
    print(f"{args.n:,} random hands per row, median CPU time of {args.repeats} runs, one core")
    for name, rate in bench_hand(args.n, args.repeats):
        print(f"{name:<40} {rate / 1e6:8.2f} M/s  ({1e9 / rate:6.1f} ns each)")


if __name__ == "__main__":
    main()
