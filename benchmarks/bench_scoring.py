"""Scoring throughput: random complete hands per second on one core (compile time excluded).

Run ``python benchmarks/bench_scoring.py [--n N] [--repeats R]``. :func:`bench_scoring` returns
the rows so other benchmark scripts can include them.

The hands are random complete hands of at most two suits: 0-4 melds (pungs, exposed and
concealed kongs), the rest of the sets triplets or runs, one pair, and seven pairs for one hand
in ten without melds; random self-draw and situational bonus flags.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from _machine import describe_machine  # benchmarks/ is on sys.path when run as a script

from simcore.hand import scoring_kernels as _scoring
from simcore.rules import PRESETS
from simcore.tiles import MELD_CONCEALED_KONG, MELD_KONG, MELD_PUNG


def random_complete_hands(n: int, seed: int = 0) -> dict[str, np.ndarray]:
    """``n`` random complete hands as the batch kernel's input arrays."""
    rng = np.random.default_rng(seed)
    concealed = np.zeros((n, 27), dtype=np.int8)
    meld_kind = np.zeros((n, 4), dtype=np.int8)
    meld_tile = np.full((n, 4), -1, dtype=np.int8)
    n_melds = np.zeros(n, dtype=np.int8)
    void = np.zeros(n, dtype=np.int8)
    kinds = (MELD_PUNG, MELD_PUNG, MELD_KONG, MELD_CONCEALED_KONG)
    i = 0
    while i < n:
        suits = rng.permutation(3)[: rng.choice((1, 2, 2, 2))]
        c = np.zeros(27, dtype=np.int64)
        total = np.zeros(27, dtype=np.int64)
        k = int(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)))
        tiles = []
        if k == 0 and rng.random() < 0.1:
            for _ in range(7):
                c[int(rng.choice(suits)) * 9 + int(rng.integers(9))] += 2
            total[:] = c
        else:
            for j in range(k):
                t = int(rng.choice(suits)) * 9 + int(rng.integers(9))
                kind = kinds[int(rng.integers(4))]
                tiles.append((kind, t))
                total[t] += 3 if kind == MELD_PUNG else 4
                meld_kind[i, j], meld_tile[i, j] = kind, t
            for _ in range(4 - k):
                s = int(rng.choice(suits))
                if rng.random() < 0.5:
                    t = s * 9 + int(rng.integers(9))
                    c[t] += 3
                else:
                    t = s * 9 + int(rng.integers(7))
                    c[t : t + 3] += 1
            c[int(rng.choice(suits)) * 9 + int(rng.integers(9))] += 2
            total += c
        if total.max() > 4 or len({t for _, t in tiles}) < len(tiles):
            meld_kind[i] = 0
            meld_tile[i] = -1
            continue
        concealed[i] = c
        n_melds[i] = k
        missing = [s for s in range(3) if s not in suits]
        void[i] = missing[0]
        i += 1
    self_draw = rng.random(n) < 0.5
    bonus_flags = np.where(rng.random(n) < 0.2, rng.integers(0, 16, n), 0).astype(np.int8)
    return {
        "concealed": concealed,
        "meld_kind": meld_kind,
        "meld_tile": meld_tile,
        "n_melds": n_melds,
        "void": void,
        "self_draw": self_draw,
        "bonus_flags": bonus_flags,
    }


def _median_seconds(func, repeats: int) -> tuple[float, float]:
    """Median wall-clock and median CPU seconds of ``repeats`` calls (CPU time is what the
    process itself used: robust when other jobs share the cores)."""
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        func()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    return statistics.median(wall), statistics.median(cpu)


def bench_scoring(
    n: int = 200_000, repeats: int = 5, preset: str = "classic", seed: int = 0
) -> list[dict[str, object]]:
    """Rows ``{"benchmark", "items", "median_s", "cpu_median_s", "per_second", "ns_per_item"}``
    for the batch scoring kernel, one ``score_hand`` call from Python per hand, and the batch
    ready-value kernel. ``per_second`` and ``ns_per_item`` use the median CPU time."""
    if n < 1 or repeats < 1:
        raise ValueError(f"n and repeats must be >= 1, got n={n}, repeats={repeats}")
    hands = random_complete_hands(n, seed)
    R = PRESETS[preset].encode()
    out = np.zeros((n, _scoring.N_COLS), dtype=np.int64)
    args = (*hands.values(), R, out)
    _scoring.score_batch(*(a[:1] for a in args[:7]), R, out[:1])  # compile (or load the cache)
    rows = []

    def row(name: str, items: int, seconds: tuple[float, float]) -> dict[str, object]:
        wall, cpu = seconds
        return {
            "benchmark": name,
            "items": items,
            "median_s": wall,
            "cpu_median_s": cpu,
            "per_second": items / cpu,
            "ns_per_item": 1e9 * cpu / items,
        }

    seconds = _median_seconds(lambda: _scoring.score_batch(*args), repeats)
    assert (out[:, _scoring.COL_PATTERN] >= 0).all(), "every generated hand must win"
    rows.append(row(f"score_batch ({preset})", n, seconds))

    # one kernel call from Python per hand: what a Python caller pays
    m = min(n, 20_000)
    one = [
        (
            hands["concealed"][i],
            hands["meld_kind"][i],
            hands["meld_tile"][i],
            int(hands["n_melds"][i]),
            int(hands["void"][i]),
            bool(hands["self_draw"][i]),
            int(hands["bonus_flags"][i]),
            R,
        )
        for i in range(m)
    ]

    def single() -> None:
        for a in one:
            _scoring.score_hand(*a)

    single()
    rows.append(row("score_hand, one Python call each", m, _median_seconds(single, repeats)))

    # ready value: take one tile out of each complete hand (not every such hand is ready)
    waiting = hands["concealed"].copy()
    for i in range(n):
        waiting[i, int(np.flatnonzero(waiting[i])[0])] -= 1
    values = np.zeros(n, dtype=np.int64)
    rargs = (waiting, hands["meld_kind"], hands["meld_tile"], hands["n_melds"], hands["void"], R)
    _scoring.ready_value_batch(*(a[:1] for a in rargs[:5]), R, values[:1])
    seconds = _median_seconds(lambda: _scoring.ready_value_batch(*rargs, values), repeats)
    rows.append(row(f"ready_value_batch ({preset})", n, seconds))
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200_000, help="hands per run")
    parser.add_argument("--repeats", type=int, default=5, help="runs; the median is reported")
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    args = parser.parse_args(argv)
    print(describe_machine())
    print(f"median of {args.repeats} runs; per second and ns/item from CPU time, one core")
    head = f"{'benchmark':36s} {'items':>8s} {'wall s':>8s} {'cpu s':>8s} {'per second':>11s}"
    print(f"{head} {'ns/item':>8s}")
    for r in bench_scoring(args.n, args.repeats, args.preset):
        print(
            f"{r['benchmark']:36s} {r['items']:8d} {r['median_s']:8.4f} {r['cpu_median_s']:8.4f} "
            f"{r['per_second']:11,.0f} {r['ns_per_item']:8.1f}"
        )


if __name__ == "__main__":
    main()
